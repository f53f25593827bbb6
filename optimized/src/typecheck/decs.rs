//! Declarations: `def`/`entry` (with generalisation, defaulting of overloaded
//! types and the entry-point restrictions), type abbreviations, and the
//! module-language declarations this checker does not handle yet.

use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{
    Expr, Liftedness, Name, Pat, TypeBind, TypeExp, TypeParam, ValueBind, ValueBindKind,
};

use super::env::{AbbreviationParam, Env, TypeBinding, ValueBinding};
use super::exhaustiveness::PatternSite;
use super::pats::{simple_var, PatBindings};
use super::rules::PaperRule;
use super::type_exps::{rigid_size_ids, AnonymousSizes};
use super::unify::{default_prim, Constraint};
use super::{CheckResult, Checker};
use crate::types::printer::print_type;
use crate::types::{
    for_each_leaf, for_each_size, RigidName, RigidSubstitution, Scheme, Size, Type,
};

/// A function's inferred type with its declared and implicit parameters.
pub(crate) struct FunctionType {
    pub(crate) ty: Type,
    pub(crate) size_params: Vec<RigidName>,
    pub(crate) type_params: Vec<(RigidName, Liftedness)>,
    /// The parameter types, in order, and the result type.
    pub(crate) param_types: Vec<Type>,
    pub(crate) result_type: Type,
}

impl Checker<'_> {
    /// Binds type parameters: sizes `[n]` as `i64` variables that are rigid
    /// sizes, types `'a` as rigid type parameters.
    pub(crate) fn bind_type_params(
        &mut self,
        env: &Env,
        params: &[TypeParam],
    ) -> (Env, Vec<RigidName>, Vec<(RigidName, Liftedness)>) {
        let mut env = env.clone();
        let mut sizes = Vec::new();
        let mut types = Vec::new();
        for param in params {
            match param {
                TypeParam::Size { name, .. } => {
                    let rigid = self.subst.fresh_rigid(name.clone());
                    env = env.with_value(
                        name.clone(),
                        ValueBinding::Variable {
                            rigid: rigid.clone(),
                            ty: Type::I64,
                        },
                    );
                    sizes.push(rigid);
                }
                TypeParam::Type {
                    name, liftedness, ..
                } => {
                    let rigid = self.subst.fresh_rigid(name.clone());
                    env = env.with_type(
                        name.clone(),
                        TypeBinding::Parameter(Type::Param {
                            name: rigid.clone(),
                            liftedness: *liftedness,
                        }),
                    );
                    types.push((rigid, *liftedness));
                }
            }
        }
        (env, sizes, types)
    }

    /// Checks `\params : return_type -> body` (also the parameters and body of
    /// a `def` or local function). `anonymous` says what `[]` in parameter
    /// types means.
    pub(crate) fn infer_function(
        &mut self,
        env: &Env,
        name: Option<&Name>,
        params: &[Pat],
        return_type: Option<&TypeExp>,
        body: &Expr,
        anonymous: AnonymousSizes,
    ) -> CheckResult<FunctionType> {
        let saved_implicit = if anonymous == AnonymousSizes::ImplicitParameter {
            self.implicit_sizes.replace(Vec::new())
        } else {
            self.implicit_sizes.take()
        };
        let mut inner = env.clone();
        let mut param_types = Vec::with_capacity(params.len());
        let mut param_rigids = Vec::with_capacity(params.len());
        let mut failure = None;
        for (position, param) in params.iter().enumerate() {
            self.current_parameter = Some(match simple_var(param) {
                Some(name) => format!("parameter `{name}`"),
                None => format!("parameter {}", position + 1),
            });
            let param_type = self.fresh_var(param.span());
            let mut bindings = PatBindings::default();
            if let Err(diagnostic) =
                self.check_pat(&inner, param, &param_type, anonymous, &mut bindings)
            {
                failure = Some(diagnostic);
                break;
            }
            let rigid = simple_var(param).and_then(|var| {
                bindings
                    .names
                    .iter()
                    .find(|(bound, ..)| bound == var)
                    .map(|(_, _, rigid, _)| rigid.clone())
            });
            self.postpone_pattern_check(
                PatternSite::Binding,
                vec![param.clone()],
                &param_type,
                param.span(),
            );
            inner = bindings.extend(&inner);
            param_types.push(param_type);
            param_rigids.push(rigid);
        }
        self.current_parameter = None;
        let implicit =
            std::mem::replace(&mut self.implicit_sizes, saved_implicit).unwrap_or_default();
        if let Some(diagnostic) = failure {
            return Err(diagnostic);
        }
        let declared_result = match return_type {
            Some(type_exp) => {
                Some(self.elaborate_type(&inner, type_exp, AnonymousSizes::Unknown)?)
            }
            None => None,
        };
        let body_type = self.infer(&inner, body)?;
        let result_type = match declared_result {
            Some(declared) => {
                let context = match name {
                    Some(name) => {
                        format!("the body of `{name}` must have its declared return type")
                    }
                    None => "the body must have the declared return type".to_string(),
                };
                self.expect_type(body.span(), &context, &declared, &body_type)?;
                declared
            }
            None => body_type,
        };
        // Build the arrows from the back; a parameter that later types mention
        // as a size (`(n: i64) -> [n]i32`) keeps its name.
        let mut ty = self.resolve_deep(&result_type);
        for (param_type, rigid) in param_types.iter().zip(&param_rigids).rev() {
            let from = self.resolve_deep(param_type);
            let named = rigid
                .as_ref()
                .filter(|rigid| rigid_size_ids(&ty).contains(&rigid.id));
            ty = Type::Arrow {
                param: named.cloned(),
                from: Rc::new(from),
                to: Rc::new(ty),
            };
        }
        Ok(FunctionType {
            ty,
            size_params: implicit,
            type_params: Vec::new(),
            param_types,
            result_type,
        })
    }

    /// A local `let f 'a [n] params = value` or a `def`: checked one level
    /// deeper and generalised.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn infer_generalised_function(
        &mut self,
        env: &Env,
        name: &Name,
        type_params: &[TypeParam],
        params: &[Pat],
        return_type: Option<&TypeExp>,
        body: &Expr,
        _span: Span,
    ) -> CheckResult<Scheme> {
        let function =
            self.infer_generalisable(env, name, type_params, params, return_type, body)?;
        Ok(self.generalise(function))
    }

    fn infer_generalisable(
        &mut self,
        env: &Env,
        name: &Name,
        type_params: &[TypeParam],
        params: &[Pat],
        return_type: Option<&TypeExp>,
        body: &Expr,
    ) -> CheckResult<FunctionType> {
        self.deeper(|checker| {
            let (inner, sizes, types) = checker.bind_type_params(env, type_params);
            let mut function = checker.infer_function(
                &inner,
                Some(name),
                params,
                return_type,
                body,
                AnonymousSizes::ImplicitParameter,
            )?;
            // A size parameter is known at a call only through the shape of an
            // argument, so it must appear in a parameter's type (as Futhark
            // requires).
            let mut used = HashSet::new();
            for param_type in &function.param_types {
                used.extend(rigid_size_ids(&checker.resolve_deep(param_type)));
            }
            let declared_sizes = type_params.iter().filter_map(|param| match param {
                TypeParam::Size { name, span } => Some((name, *span)),
                TypeParam::Type { .. } => None,
            });
            for ((name, span), rigid) in declared_sizes.zip(&sizes) {
                if !used.contains(&rigid.id) {
                    return Err(Diagnostic::error(format!(
                        "size parameter `[{name}]` is not used in the type of any parameter"
                    ))
                    .with_code("invalid-size")
                    .with_primary(span, "unused size parameter")
                    .with_note(
                        "a size parameter is bound from the shape of an argument: use it in a parameter's type, e.g. `(xs: [n]i32)`",
                    ));
                }
            }
            let mut all_sizes = sizes;
            all_sizes.append(&mut function.size_params);
            function.size_params = all_sizes;
            function.type_params = types;
            Ok(function)
        })
    }

    /// Quantifies the declared parameters and every unconstrained variable
    /// deeper than the current level. Constrained (overloaded, record, sum)
    /// variables stay monomorphic, as in Futhark.
    fn generalise(&mut self, function: FunctionType) -> Scheme {
        let ty = self.resolve_deep(&function.ty);
        let mut type_params = function.type_params;
        let mut size_params = function.size_params;
        let mut used_type_names: HashSet<Name> =
            type_params.iter().map(|(p, _)| p.name.clone()).collect();
        let mut used_size_names: HashSet<Name> =
            size_params.iter().map(|p| p.name.clone()).collect();
        for_each_size(&ty, &mut |size| {
            if let Size::Rigid(name) = size {
                used_size_names.insert(name.name.clone());
            }
        });
        let mut variables = Vec::new();
        for_each_leaf(&ty, &mut |leaf| {
            if let Type::Var(id) = leaf {
                if !variables.contains(id) {
                    variables.push(*id);
                }
            }
        });
        for id in variables {
            let Some(var) = self.subst.unbound(id) else {
                continue;
            };
            if var.level <= self.level || !matches!(var.constraint, Constraint::None) {
                continue;
            }
            let liftedness = var.liftedness;
            let name = fresh_name(
                &mut used_type_names,
                &["a", "b", "c", "d", "e", "f", "g", "h"],
            );
            let rigid = self.subst.fresh_rigid(name);
            self.subst.bind_type_var_unchecked(
                id,
                Type::Param {
                    name: rigid.clone(),
                    liftedness,
                },
            );
            type_params.push((rigid, liftedness));
        }
        // Implicit size parameters (`[]` in a parameter type) get names now
        // that every name used in the type is known.
        let mut renaming = RigidSubstitution::default();
        for param in size_params.iter_mut().filter(|param| param.name.is_empty()) {
            param.name = fresh_name(&mut used_size_names, &["n", "m", "k", "l", "p", "q"]);
            renaming.sizes.insert(param.id, Size::Rigid(param.clone()));
        }
        let ty = renaming.apply(&ty);
        let mut flexible = Vec::new();
        for_each_size(&ty, &mut |size| {
            if let Size::Flexible(id) = size {
                if !flexible.contains(id) {
                    flexible.push(*id);
                }
            }
        });
        for id in flexible {
            if self
                .subst
                .size_var_level(id)
                .is_none_or(|level| level <= self.level)
            {
                continue;
            }
            let name = fresh_name(&mut used_size_names, &["n", "m", "k", "l", "p", "q"]);
            let rigid = self.subst.fresh_rigid(name);
            self.subst
                .bind_size_var_unchecked(id, Size::Rigid(rigid.clone()));
            size_params.push(rigid);
        }
        Scheme {
            type_params,
            size_params,
            ty: self.resolve_deep(&ty),
        }
    }

    /// Defaults the overloaded variables created since `watermark` (`i32`,
    /// `f64`, ...) and closes sum types built from constructors alone; a record
    /// type known only by its projected fields is ambiguous.
    fn default_variables(&mut self, watermark: u32) -> CheckResult<()> {
        for id in watermark..self.subst.type_var_count() {
            let Some(var) = self.subst.unbound(id).cloned() else {
                continue;
            };
            match var.constraint {
                Constraint::None => {}
                Constraint::Overloaded { allowed, .. } => {
                    self.subst
                        .bind_type_var_unchecked(id, Type::Prim(default_prim(allowed)));
                }
                Constraint::HasConstructors(constructors) => {
                    self.subst
                        .bind_type_var_unchecked(id, Type::Sum(Rc::new(constructors)));
                }
                Constraint::HasFields(fields) => {
                    let names: Vec<&str> = fields.keys().map(|field| field.0.as_str()).collect();
                    return Err(Diagnostic::error(
                        "ambiguous type: the type of this record is known only by the fields used",
                    )
                    .with_code("ambiguous-type")
                    .with_primary(var.origin, format!("a record with at least the field(s) {}", names.join(", ")))
                    .with_note("hint: add a type annotation, e.g. on the parameter the field is taken from"));
                }
            }
        }
        Ok(())
    }

    pub(crate) fn check_value_bind(&mut self, env: &Env, bind: &ValueBind) -> CheckResult<Scheme> {
        let is_entry = bind.kind == ValueBindKind::Entry
            || (self.module_path.is_empty() && bind.name == "main");
        if is_entry {
            if let Some(TypeParam::Type { span, name, .. }) = bind
                .type_params
                .iter()
                .find(|param| matches!(param, TypeParam::Type { .. }))
            {
                return Err(Diagnostic::error(format!(
                    "entry point `{}` may not be polymorphic: it has the type parameter '{name}",
                    bind.name
                ))
                .with_code("higher-order")
                .with_primary(*span, "type parameter of an entry point")
                .with_note(
                    "entry points are called from outside the program, with values of known types",
                ));
            }
        }
        self.pending_pattern_checks.clear();
        self.pending_literal_checks.clear();
        let watermark = self.subst.type_var_count();
        let function = self.infer_generalisable(
            env,
            &bind.name,
            &bind.type_params,
            &bind.params,
            bind.return_type.as_ref(),
            &bind.body,
        )?;
        self.default_variables(watermark)?;
        self.check_pending_patterns()?;
        self.check_pending_literals()?;
        if is_entry {
            self.check_entry_point(bind, &function)?;
        }
        let scheme = self.generalise(function);
        if let Some(table) = &mut self.typed {
            table.record_def(bind, &scheme);
            table.resolve_pending(&self.subst);
        }
        if is_entry {
            if let Some((param, _)) = scheme.type_params.first() {
                let ty = print_type(&scheme.ty);
                return Err(Diagnostic::error(format!(
                    "entry point `{}` may not be polymorphic: its inferred type `{ty}` has the type parameter {}",
                    bind.name, param.name
                ))
                .with_code("higher-order")
                .with_primary(bind.span, "this entry point")
                .with_note("hint: annotate its parameters with concrete types"));
            }
        }
        Ok(scheme)
    }

    /// TFP'18: no function may cross an entry point.
    fn check_entry_point(&mut self, bind: &ValueBind, function: &FunctionType) -> CheckResult<()> {
        for (param, ty) in bind.params.iter().zip(&function.param_types) {
            self.require_order_zero(
                param.span(),
                PaperRule::Entry,
                &format!("a parameter of entry point `{}`", bind.name),
                ty,
            )?;
        }
        let result_span = bind
            .return_type
            .as_ref()
            .map_or(bind.body.span(), TypeExp::span);
        // Futhark counts an entry point's parameters from its type: the
        // arrows of its result are parameters too (`entry add = map2
        // (u8.+)` takes two arrays), each of order zero; the core
        // elaborator eta-expands it (`core::elaborate`).
        let mut result = self.subst.resolve(&function.result_type);
        while let Type::Arrow { from, to, .. } = result {
            self.require_order_zero(
                result_span,
                PaperRule::Entry,
                &format!("a parameter of entry point `{}`", bind.name),
                &from,
            )?;
            result = self.subst.resolve(&to);
        }
        self.require_order_zero(
            result_span,
            PaperRule::Entry,
            &format!("the result of entry point `{}`", bind.name),
            &result,
        )
    }

    pub(crate) fn check_type_bind(
        &mut self,
        env: &Env,
        bind: &TypeBind,
    ) -> CheckResult<TypeBinding> {
        let mut inner = env.clone();
        let mut params = Vec::new();
        let mut seen: BTreeMap<&Name, Span> = BTreeMap::new();
        for param in &bind.params {
            let (name, span) = match param {
                TypeParam::Size { name, span } | TypeParam::Type { name, span, .. } => {
                    (name, *span)
                }
            };
            if let Some(first) = seen.insert(name, span) {
                return Err(Diagnostic::error(format!(
                    "type parameter `{name}` is declared twice"
                ))
                .with_code("duplicate-name")
                .with_primary(span, "declared again here")
                .with_secondary(first, "first declared here"));
            }
            match param {
                TypeParam::Size { name, .. } => {
                    let rigid = self.subst.fresh_rigid(name.clone());
                    inner = inner.with_value(
                        name.clone(),
                        ValueBinding::Variable {
                            rigid: rigid.clone(),
                            ty: Type::I64,
                        },
                    );
                    params.push(AbbreviationParam::Size(rigid));
                }
                TypeParam::Type {
                    name, liftedness, ..
                } => {
                    let rigid = self.subst.fresh_rigid(name.clone());
                    inner = inner.with_type(
                        name.clone(),
                        TypeBinding::Parameter(Type::Param {
                            name: rigid.clone(),
                            liftedness: *liftedness,
                        }),
                    );
                    params.push(AbbreviationParam::Type {
                        name: rigid,
                        liftedness: *liftedness,
                    });
                }
            }
        }
        let body = self.elaborate_type(&inner, &bind.definition, AnonymousSizes::Unknown)?;
        let body = self.resolve_deep(&body);
        if bind.liftedness != Liftedness::Lifted {
            if let Err(offending) = self.subst.require_order_zero(&body) {
                return Err(Diagnostic::error(format!(
                    "type `{}` may contain a function (`{}`), but is not declared lifted",
                    bind.name,
                    print_type(&offending)
                ))
                .with_code("invalid-type")
                .with_primary(
                    bind.definition.span(),
                    "this type is, or may be, a function type",
                )
                .with_note(format!("hint: declare it `type^ {}`", bind.name)));
            }
        }
        if bind.liftedness == Liftedness::Unlifted {
            let mut anonymous = false;
            for_each_size(&body, &mut |size| {
                anonymous |= matches!(size, Size::Unknown)
            });
            if anonymous {
                return Err(Diagnostic::error(format!(
                    "type `{}` has an anonymous or existential size, but is not declared size-lifted",
                    bind.name
                ))
                .with_code("invalid-type")
                .with_primary(bind.definition.span(), "this type has a size that is not a parameter")
                .with_note(format!(
                    "hint: declare it `type~ {}`, or give the size a name with a size parameter",
                    bind.name
                )));
            }
        }
        Ok(TypeBinding::Abbreviation {
            liftedness: bind.liftedness,
            params: Rc::new(params),
            body,
        })
    }
}

/// The first of `candidates` (then `candidate1`, `candidate2`, ...) not in
/// `used`, which it joins.
fn fresh_name(used: &mut HashSet<Name>, candidates: &[&str]) -> Name {
    let mut suffix = 0usize;
    loop {
        for candidate in candidates {
            let name = if suffix == 0 {
                candidate.to_string()
            } else {
                format!("{candidate}{suffix}")
            };
            if !used.contains(&name) {
                used.insert(name.clone());
                return name;
            }
        }
        suffix += 1;
    }
}
