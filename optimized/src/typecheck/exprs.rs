//! Expressions: inference for every core construct.
//!
//! Checking stops at the first error inside a definition (the caller recovers
//! at the next top-level declaration), so an error never cascades.

use std::collections::BTreeMap;
use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{
    BinOp, DimIndex, Expr, Liftedness, Literal, LoopForm, Name, Pat, QualName,
};

use super::env::{Env, ValueBinding};
use super::exhaustiveness::PatternSite;
use super::modules::unknown_in;
use super::operators::builtin_operator;
use super::pats::PatBindings;
use super::rules::PaperRule;
use super::type_exps::AnonymousSizes;
use super::unify::{Constraint, SizeMode};
use super::{CheckResult, Checker};
use crate::types::printer::print_type;
use crate::types::{
    forget_sizes, forget_sizes_but_constants, FieldName, PrimSet, PrimType, RigidSubstitution,
    Scheme, Size, Type,
};

/// Whether one dimension is indexed (removed) or sliced (kept).
#[derive(Clone, Copy, PartialEq, Eq)]
enum IndexKind {
    Index,
    Slice,
}

impl Checker<'_> {
    pub(crate) fn infer(&mut self, env: &Env, expr: &Expr) -> CheckResult<Type> {
        let ty = spec::recursion::with_stack(|| self.infer_inner(env, expr))?;
        if let Some(table) = &mut self.typed {
            table.record_expr(expr, &ty);
        }
        Ok(ty)
    }

    fn infer_inner(&mut self, env: &Env, expr: &Expr) -> CheckResult<Type> {
        match expr {
            Expr::Literal { literal, span } => {
                let ty = self.literal_type(literal, *span);
                self.postpone_literal_check(*literal, &ty, *span);
                Ok(ty)
            }
            Expr::Var(name) => self.infer_var(env, name),
            Expr::Project {
                expr: inner,
                field,
                span,
            } => {
                let record = self.infer(env, inner)?;
                self.project_field(&record, field, *span)
            }
            Expr::Tuple { elements, .. } => {
                let types = elements
                    .iter()
                    .map(|element| self.infer(env, element))
                    .collect::<CheckResult<Vec<_>>>()?;
                Ok(Type::tuple(types))
            }
            Expr::Record { fields, .. } => {
                let mut record = BTreeMap::new();
                for (name, value) in fields {
                    let ty = self.infer(env, value)?;
                    if record.insert(FieldName(name.clone()), ty).is_some() {
                        return Err(Diagnostic::error(format!(
                            "field `{name}` appears twice in the record"
                        ))
                        .with_code("duplicate-name")
                        .with_primary(value.span(), "duplicate field"));
                    }
                }
                Ok(Type::Record(Rc::new(record)))
            }
            Expr::Array { elements, span } => {
                let element_type = match elements.first() {
                    None => {
                        self.record_order_zero_origin(*span, PaperRule::Array, None);
                        self.subst.fresh_type_var(
                            self.level,
                            Liftedness::Unlifted,
                            Constraint::None,
                            *span,
                        )
                    }
                    Some(first) => {
                        let first_type = self.infer(env, first)?;
                        for element in &elements[1..] {
                            let ty = self.infer(env, element)?;
                            self.expect_type(
                                element.span(),
                                "this array element",
                                &first_type,
                                &ty,
                            )?;
                        }
                        first_type
                    }
                };
                self.require_order_zero(
                    *span,
                    PaperRule::Array,
                    "the elements of an array",
                    &element_type,
                )?;
                Ok(Type::array(
                    Size::Constant(elements.len() as u64),
                    element_type,
                ))
            }
            Expr::Range {
                start,
                step,
                end,
                span,
                ..
            } => {
                let element =
                    self.overloaded_var(PrimSet::integers(), "a range".to_string(), *span);
                let start_type = self.infer(env, start)?;
                self.expect_type(
                    start.span(),
                    "the start of the range",
                    &element,
                    &start_type,
                )?;
                if let Some(step) = step {
                    let step_type = self.infer(env, step)?;
                    self.expect_type(
                        step.span(),
                        "the second element of the range",
                        &element,
                        &step_type,
                    )?;
                }
                let end_type = self.infer(env, end)?;
                self.expect_type(end.span(), "the end of the range", &element, &end_type)?;
                Ok(Type::array(Size::Unknown, element))
            }
            Expr::Index {
                array,
                indices,
                span,
            } => {
                let array_type = self.infer(env, array)?;
                let kinds = self.check_indices(env, indices)?;
                self.index_type(&array_type, &kinds, *span)
            }
            Expr::Apply { .. } => {
                let (function, arguments) = application_spine(expr);
                let function_type = self.infer(env, function)?;
                let mut result = function_type;
                for (position, argument) in arguments.iter().enumerate() {
                    result = self.apply_argument(env, function, position, &result, argument)?;
                }
                Ok(result)
            }
            Expr::BinOp { op, lhs, rhs, span } => self.infer_binop(env, op, lhs, rhs, *span),
            Expr::Negate { expr: inner, span } => {
                let literal_check = self.pending_literal_checks.len();
                let ty = self.infer(env, inner)?;
                if let Expr::Literal { .. } = **inner {
                    self.negate_postponed_literal(literal_check, *span);
                }
                self.require_numeric_negation(*span, &ty)?;
                Ok(ty)
            }
            Expr::Not { expr: inner, span } => {
                let ty = self.infer(env, inner)?;
                let mut allowed = PrimSet::integers().members().collect::<Vec<_>>();
                allowed.push(PrimType::Bool);
                let operand = self.overloaded_var(
                    PrimSet::of(&allowed),
                    "the operand of `!`".to_string(),
                    *span,
                );
                self.expect_type(inner.span(), "the operand of `!`", &operand, &ty)?;
                Ok(ty)
            }
            Expr::OpSection { op, span } => self.operator_type(env, op, *span),
            Expr::LeftSection { op, left, span } => {
                let operator = self.operator_type(env, op, *span)?;
                let (first, rest) = self.split_arrow(&operator, *span, op.name())?;
                let left_type = self.infer(env, left)?;
                self.expect_type(
                    left.span(),
                    &format!("the left operand of `{}`", op.name().name),
                    &first,
                    &left_type,
                )?;
                Ok(rest)
            }
            Expr::RightSection { op, right, span } => {
                let operator = self.operator_type(env, op, *span)?;
                let (first, rest) = self.split_arrow(&operator, *span, op.name())?;
                let (second, result) = self.split_arrow(&rest, *span, op.name())?;
                let right_type = self.infer(env, right)?;
                self.expect_type(
                    right.span(),
                    &format!("the right operand of `{}`", op.name().name),
                    &second,
                    &right_type,
                )?;
                Ok(Type::arrow(first, result))
            }
            Expr::ProjectSection { fields, span } => {
                let record = self.fresh_var(*span);
                let mut current = record.clone();
                for field in fields {
                    current = self.project_field(&current, field, *span)?;
                }
                Ok(Type::arrow(record, current))
            }
            Expr::IndexSection { indices, span } => {
                self.record_order_zero_origin(*span, PaperRule::Index, None);
                let array = self.subst.fresh_type_var(
                    self.level,
                    Liftedness::Unlifted,
                    Constraint::None,
                    *span,
                );
                let kinds = self.check_indices(env, indices)?;
                let result = self.index_type(&array, &kinds, *span)?;
                Ok(Type::arrow(array, result))
            }
            Expr::If {
                condition,
                then_branch,
                else_branch,
                span,
            } => {
                let condition_type = self.infer(env, condition)?;
                self.expect_type(
                    condition.span(),
                    "the condition of `if`",
                    &Type::BOOL,
                    &condition_type,
                )?;
                let then_type = self.infer(env, then_branch)?;
                let else_type = self.infer(env, else_branch)?;
                let then_type = self.join_branches(
                    else_branch.span(),
                    "the `else` branch must have the type of the `then` branch",
                    &then_type,
                    &else_type,
                )?;
                // TFP'18 §7 (the `or-conditionals` option): with it, `if`
                // may return a function.
                if !self.options.or_conditionals {
                    self.require_order_zero(
                        *span,
                        PaperRule::If,
                        "the result of `if`",
                        &then_type,
                    )?;
                }
                Ok(then_type)
            }
            Expr::Let {
                sizes,
                pat,
                value,
                body,
                ..
            } => {
                let mut inner = env.clone();
                let mut size_rigids = Vec::new();
                for size in sizes {
                    let rigid = self.subst.fresh_rigid(size.clone());
                    size_rigids.push(rigid.clone());
                    inner = inner.with_value(
                        size.clone(),
                        ValueBinding::Variable {
                            rigid,
                            ty: Type::I64,
                        },
                    );
                }
                if let Some(table) = &mut self.typed {
                    table.record_let_sizes(expr, size_rigids);
                }
                let value_type = self.infer(env, value)?;
                let mut bindings = PatBindings::default();
                self.check_pat(
                    &inner,
                    pat,
                    &value_type,
                    AnonymousSizes::Flexible,
                    &mut bindings,
                )?;
                self.postpone_pattern_check(
                    PatternSite::Binding,
                    vec![pat.clone()],
                    &value_type,
                    pat.span(),
                );
                let inner = bindings.extend(&inner);
                self.infer(&inner, body)
            }
            Expr::LetFun {
                name,
                type_params,
                params,
                return_type,
                value,
                body,
                span,
            } => {
                let scheme = self.infer_generalised_function(
                    env,
                    name,
                    type_params,
                    params,
                    return_type.as_ref(),
                    value,
                    *span,
                )?;
                if let Some(table) = &mut self.typed {
                    table.record_let_fun(expr, &scheme);
                }
                let inner = env.with_value(
                    name.clone(),
                    ValueBinding::Polymorphic {
                        scheme: Rc::new(scheme),
                        defined_at: Some(*span),
                    },
                );
                self.infer(&inner, body)
            }
            Expr::LetWith {
                name,
                name_span,
                indices,
                value,
                body,
                ..
            } => {
                let target = self.variable_type(env, name, *name_span, "update")?;
                let kinds = self.check_indices(env, indices)?;
                let element = self.index_type(&target, &kinds, *name_span)?;
                let value_type = self.infer(env, value)?;
                self.expect_type(
                    value.span(),
                    "the new value of the updated element",
                    &element,
                    &value_type,
                )?;
                let mut bindings = PatBindings::default();
                bindings.names.push((
                    name.clone(),
                    *name_span,
                    self.subst.fresh_rigid(name.clone()),
                    target,
                ));
                let inner = bindings.extend(env);
                self.infer(&inner, body)
            }
            Expr::Lambda {
                params,
                return_type,
                body,
                ..
            } => {
                let function = self.infer_function(
                    env,
                    None,
                    params,
                    return_type.as_ref(),
                    body,
                    AnonymousSizes::Flexible,
                )?;
                Ok(function.ty)
            }
            Expr::Loop {
                pat,
                init,
                form,
                body,
                span,
            } => self.infer_loop(env, pat, init.as_deref(), form, body, *span),
            Expr::Update {
                target,
                indices,
                value,
                ..
            } => {
                let target_type = self.infer(env, target)?;
                let kinds = self.check_indices(env, indices)?;
                let element = self.index_type(&target_type, &kinds, target.span())?;
                let value_type = self.infer(env, value)?;
                self.expect_type(
                    value.span(),
                    "the new value of the updated element",
                    &element,
                    &value_type,
                )?;
                Ok(target_type)
            }
            Expr::RecordUpdate {
                target,
                fields,
                value,
                span,
            } => {
                let target_type = self.infer(env, target)?;
                let value_type = self.infer(env, value)?;
                // As in Futhark, the update may change the field's type when the
                // record type is known; otherwise the field keeps its type.
                if let Some(updated) = self.replace_field(&target_type, fields, &value_type) {
                    return Ok(updated);
                }
                let mut field_type = target_type.clone();
                for field in fields {
                    field_type = self.project_field(&field_type, field, *span)?;
                }
                self.expect_type(
                    value.span(),
                    "the new value of the updated field",
                    &field_type,
                    &value_type,
                )?;
                Ok(target_type)
            }
            Expr::Ascribe {
                expr: inner, ty, ..
            } => {
                let annotated = self.elaborate_type(env, ty, AnonymousSizes::Flexible)?;
                let inner_type = self.infer(env, inner)?;
                self.expect_type(
                    inner.span(),
                    "the expression with a type annotation",
                    &annotated,
                    &inner_type,
                )?;
                Ok(annotated)
            }
            Expr::Coerce {
                expr: inner, ty, ..
            } => {
                let annotated = self.elaborate_type(env, ty, AnonymousSizes::Unknown)?;
                let inner_type = self.infer(env, inner)?;
                self.subst
                    .unify(&annotated, &inner_type, SizeMode::Ignore)
                    .map_err(|error| {
                        self.unify_error(
                            inner.span(),
                            "the coerced expression",
                            &annotated,
                            &inner_type,
                            error,
                        )
                    })?;
                Ok(annotated)
            }
            Expr::Match {
                scrutinee,
                cases,
                span,
            } => {
                let scrutinee_type = self.infer(env, scrutinee)?;
                let mut result: Option<Type> = None;
                for case in cases {
                    let mut bindings = PatBindings::default();
                    self.check_pat(
                        env,
                        &case.pat,
                        &scrutinee_type,
                        AnonymousSizes::Flexible,
                        &mut bindings,
                    )?;
                    let inner = bindings.extend(env);
                    let body_type = self.infer(&inner, &case.body)?;
                    result = Some(match &result {
                        None => body_type,
                        Some(first) => self.join_branches(
                            case.body.span(),
                            "every `match` case must have the type of the first",
                            first,
                            &body_type,
                        )?,
                    });
                }
                self.postpone_pattern_check(
                    PatternSite::Match,
                    cases.iter().map(|case| case.pat.clone()).collect(),
                    &scrutinee_type,
                    *span,
                );
                let result = result.unwrap_or_else(|| self.fresh_var(*span));
                self.require_order_zero(*span, PaperRule::Match, "the result of `match`", &result)?;
                Ok(result)
            }
            Expr::Constructor {
                name,
                payload,
                span,
            } => {
                let payload_types = payload
                    .iter()
                    .map(|value| self.infer(env, value))
                    .collect::<CheckResult<Vec<_>>>()?;
                let mut constructors = BTreeMap::new();
                constructors.insert(name.clone(), payload_types);
                Ok(self.subst.fresh_type_var(
                    self.level,
                    Liftedness::Lifted,
                    Constraint::HasConstructors(constructors),
                    *span,
                ))
            }
            Expr::OpenIn { module, body, .. } => match self.open_in_scope(env, module)? {
                Some(inner) => self.infer(&inner, body),
                None => Ok(Type::Error),
            },
            Expr::Attr { expr: inner, .. } => self.infer(env, inner),
        }
    }

    /// The type of a literal: suffixed literals have their type; unsuffixed
    /// integers may be any numeric type (default `i32`), decimals any float
    /// type (default `f64`).
    pub(crate) fn literal_type(&mut self, literal: &Literal, span: Span) -> Type {
        match literal {
            Literal::Int {
                suffix: Some(suffix),
                ..
            } => Type::Prim(PrimType::from_int_suffix(*suffix)),
            Literal::Int { suffix: None, .. } => {
                self.overloaded_var(PrimSet::numeric(), "the integer literal".to_string(), span)
            }
            Literal::Float {
                suffix: Some(suffix),
                ..
            } => Type::Prim(PrimType::from_float_suffix(*suffix)),
            Literal::Float { suffix: None, .. } => {
                self.overloaded_var(PrimSet::floats(), "the decimal literal".to_string(), span)
            }
            Literal::Bool(_) => Type::BOOL,
        }
    }

    /// Prefix `-` (and negative literal patterns): numeric operands only.
    pub(crate) fn require_numeric_negation(&mut self, span: Span, ty: &Type) -> CheckResult<()> {
        let operand = self.overloaded_var(PrimSet::numeric(), "negation".to_string(), span);
        self.expect_type(span, "the operand of `-`", &operand, ty)
    }

    /// [`Self::infer_var`] for a name built by the checker (not an AST node):
    /// its instantiation is not recorded, as it has no identity.
    fn infer_var_unrecorded(&mut self, env: &Env, name: &QualName) -> CheckResult<Type> {
        let table = self.typed.take();
        let result = self.infer_var(env, name);
        self.typed = table;
        result
    }

    fn infer_var(&mut self, env: &Env, name: &QualName) -> CheckResult<Type> {
        if let Some(first) = name.qualifiers.first() {
            // `r.f.g` where `r` is a variable: field projections.
            if env.values.contains_key(first) {
                let mut current = self
                    .infer_var_unrecorded(env, &QualName::unqualified(first.clone(), name.span))?;
                for field in name.qualifiers[1..]
                    .iter()
                    .chain(std::iter::once(&name.name))
                {
                    current = self.project_field(&current, field, name.span)?;
                }
                return Ok(current);
            }
            let Some(contents) = self.lookup_module_path(env, &name.qualifiers, name.span)? else {
                return Ok(Type::Error);
            };
            return match contents.values.get(&name.name) {
                Some(ValueBinding::Variable { ty, .. }) => Ok(ty.clone()),
                Some(ValueBinding::Polymorphic { scheme, .. }) => {
                    let scheme = scheme.clone();
                    Ok(self.instantiate_occurrence(&scheme, name))
                }
                None if contents.opened_poisoned_module => Ok(Type::Error),
                None => Err(unknown_in(&name.qualifiers, &name.name, "name", name.span)),
            };
        }
        match env.values.get(&name.name) {
            Some(ValueBinding::Variable { ty, .. }) => Ok(ty.clone()),
            Some(ValueBinding::Polymorphic { scheme, .. }) => {
                let scheme = scheme.clone();
                Ok(self.instantiate_occurrence(&scheme, name))
            }
            None if env.opened_poisoned_module => Ok(Type::Error),
            None => {
                let mut diagnostic = Diagnostic::error(format!("unknown name `{}`", name.name))
                    .with_code("unknown-name")
                    .with_primary(name.span, "not found in this scope");
                if builtin_operator(&name.name).is_some() {
                    diagnostic = diagnostic.with_note(format!(
                        "hint: write the operator as a section: `({})`",
                        name.name
                    ));
                }
                Err(diagnostic)
            }
        }
    }

    /// The monomorphic variable `name`, for `let a[i] = ...`.
    fn variable_type(
        &mut self,
        env: &Env,
        name: &Name,
        span: Span,
        what: &str,
    ) -> CheckResult<Type> {
        match env.values.get(name) {
            Some(ValueBinding::Variable { ty, .. }) => Ok(ty.clone()),
            Some(ValueBinding::Polymorphic { .. }) => Err(Diagnostic::error(format!(
                "cannot {what} `{name}`: it is a function, not an array"
            ))
            .with_code("type-mismatch")
            .with_primary(span, "not an array variable")),
            None => Err(Diagnostic::error(format!("unknown name `{name}`"))
                .with_code("unknown-name")
                .with_primary(span, "not found in this scope")),
        }
    }

    /// [`Self::instantiate`] at the occurrence `name`, recording the
    /// instantiation when a typed output is asked for.
    fn instantiate_occurrence(&mut self, scheme: &Scheme, name: &QualName) -> Type {
        self.record_instantiation_rule(scheme, name);
        if self.typed.is_none() {
            return self.instantiate(scheme, name.span);
        }
        let (ty, substitution) = self.instantiate_with(scheme, name.span);
        let instance = super::typed::Instantiation {
            types: scheme
                .type_params
                .iter()
                .map(|(param, _)| substitution.types[&param.id].clone())
                .collect(),
            sizes: scheme
                .size_params
                .iter()
                .map(|size| substitution.sizes[&size.id].clone())
                .collect(),
            ty: ty.clone(),
        };
        if let Some(table) = &mut self.typed {
            table.record_instance(name, instance);
        }
        ty
    }

    /// Records the TFP'18 rule a diagnostic cites when a function type meets
    /// a type parameter of `scheme` that excludes functions: T-Map (and the
    /// like) for the built-in SOACs, T-Array for the other built-ins that
    /// build or take arrays, T-VarInst for any other function.
    fn record_instantiation_rule(&mut self, scheme: &Scheme, name: &QualName) {
        if scheme
            .type_params
            .iter()
            .all(|(_, liftedness)| *liftedness == Liftedness::Lifted)
        {
            return;
        }
        let is_builtin = name.qualifiers.is_empty()
            && matches!(
                self.initial_env.values.get(&name.name),
                Some(ValueBinding::Polymorphic { scheme: builtin, .. })
                    if std::ptr::eq(builtin.as_ref(), scheme)
            );
        let builtin_rule = if is_builtin {
            PaperRule::of_builtin(&name.name)
        } else {
            None
        };
        let (rule, function) = match builtin_rule {
            Some(rule) => (rule, None),
            None => {
                let written: Vec<String> = name
                    .qualifiers
                    .iter()
                    .chain(std::iter::once(&name.name))
                    .map(|part| part.to_string())
                    .collect();
                (PaperRule::VarInst, Some(written.join(".")))
            }
        };
        self.record_order_zero_origin(name.span, rule, function);
    }

    /// Fresh variables for the quantified parameters of `scheme`.
    pub(crate) fn instantiate(&mut self, scheme: &Scheme, span: Span) -> Type {
        self.instantiate_with(scheme, span).0
    }

    /// [`Self::instantiate`], also returning the fresh variables.
    fn instantiate_with(&mut self, scheme: &Scheme, span: Span) -> (Type, RigidSubstitution) {
        if scheme.type_params.is_empty() && scheme.size_params.is_empty() {
            return (scheme.ty.clone(), RigidSubstitution::default());
        }
        let mut substitution = RigidSubstitution::default();
        for (param, liftedness) in &scheme.type_params {
            let fresh = self
                .subst
                .fresh_type_var(self.level, *liftedness, Constraint::None, span);
            substitution.types.insert(param.id, fresh);
        }
        for size in &scheme.size_params {
            let fresh = self.subst.fresh_size_var(self.level);
            substitution.sizes.insert(size.id, fresh);
        }
        (substitution.apply(&scheme.ty), substitution)
    }

    /// The type of field `field` of a value of type `record`.
    fn project_field(&mut self, record: &Type, field: &Name, span: Span) -> CheckResult<Type> {
        let resolved = self.subst.resolve(record);
        match &resolved {
            Type::Error => Ok(Type::Error),
            Type::Record(fields) => match fields.get(&FieldName(field.clone())) {
                Some(ty) => Ok(ty.clone()),
                None => Err(self.no_field(&resolved, field, span)),
            },
            Type::Var(id) => self
                .subst
                .require_field(*id, FieldName(field.clone()), self.level, span)
                .map_err(|_| self.no_field(&resolved, field, span)),
            _ => Err(self.no_field(&resolved, field, span)),
        }
    }

    fn no_field(&self, record: &Type, field: &Name, span: Span) -> Diagnostic {
        let record_text = print_type(&self.resolve_deep(record));
        let resolved = self.subst.resolve(record);
        let mut diagnostic =
            Diagnostic::error(format!("type `{record_text}` has no field `{field}`"))
                .with_code("type-mismatch")
                .with_primary(
                    span,
                    format!("field `{field}` of a value of type `{record_text}`"),
                );
        if let Type::Record(fields) = resolved {
            let names: Vec<&str> = fields.keys().map(|name| name.0.as_str()).collect();
            if !names.is_empty() {
                diagnostic = diagnostic.with_note(format!("its fields are: {}", names.join(", ")));
            }
        }
        diagnostic
    }

    /// `record` with the field at `path` replaced by a value of type `value`,
    /// if `record` is known to be a record with that path.
    fn replace_field(&self, record: &Type, path: &[Name], value: &Type) -> Option<Type> {
        let (first, rest) = path.split_first()?;
        let Type::Record(fields) = self.subst.resolve(record) else {
            return None;
        };
        let key = FieldName(first.clone());
        let current = fields.get(&key)?;
        let replacement = if rest.is_empty() {
            value.clone()
        } else {
            self.replace_field(current, rest, value)?
        };
        let mut updated = (*fields).clone();
        updated.insert(key, replacement);
        Some(Type::Record(Rc::new(updated)))
    }

    /// Checks index expressions (of any integer type, as in Futhark; slice
    /// bounds `i64`) and says which dimensions are sliced.
    fn check_indices(&mut self, env: &Env, indices: &[DimIndex]) -> CheckResult<Vec<IndexKind>> {
        let mut kinds = Vec::with_capacity(indices.len());
        for index in indices {
            match index {
                DimIndex::Index(expr) => {
                    let ty = self.infer(env, expr)?;
                    let integer = self.overloaded_var(
                        PrimSet::integers(),
                        "an index".to_string(),
                        expr.span(),
                    );
                    self.expect_type(expr.span(), "an index", &integer, &ty)?;
                    kinds.push(IndexKind::Index);
                }
                DimIndex::Slice { start, end, stride } => {
                    for expr in [start, end, stride].into_iter().flatten() {
                        let ty = self.infer(env, expr)?;
                        self.expect_type(expr.span(), "a slice bound", &Type::I64, &ty)?;
                    }
                    kinds.push(IndexKind::Slice);
                }
            }
        }
        Ok(kinds)
    }

    /// The type of `array[indices]`.
    fn index_type(&mut self, array: &Type, kinds: &[IndexKind], span: Span) -> CheckResult<Type> {
        let Some((first, rest)) = kinds.split_first() else {
            return Ok(array.clone());
        };
        let resolved = self.subst.resolve(array);
        let (size, element) = match &resolved {
            Type::Error => return Ok(Type::Error),
            Type::Array { size, element } => (size.clone(), (**element).clone()),
            Type::Var(_) => {
                self.record_order_zero_origin(span, PaperRule::Index, None);
                let element = self.subst.fresh_type_var(
                    self.level,
                    Liftedness::Unlifted,
                    Constraint::None,
                    span,
                );
                let size = self.subst.fresh_size_var(self.level);
                let fresh = Type::array(size.clone(), element.clone());
                self.expect_type(span, "the indexed value", &fresh, &resolved)?;
                (size, element)
            }
            _ => {
                let text = print_type(&self.resolve_deep(&resolved));
                return Err(Diagnostic::error(format!(
                    "cannot index into a value of type `{text}`: it is not an array"
                ))
                .with_code("type-mismatch")
                .with_primary(span, format!("this has type `{text}`"))
                .with_note(format!(
                    "{} more dimension(s) are indexed than the value has",
                    kinds.len()
                )));
            }
        };
        let _ = size;
        let inner = self.index_type(&element, rest, span)?;
        Ok(match first {
            IndexKind::Index => inner,
            IndexKind::Slice => Type::array(Size::Unknown, inner),
        })
    }

    /// Applies a value of type `function_type` to `argument`, the
    /// `position`-th argument of `function`.
    fn apply_argument(
        &mut self,
        env: &Env,
        function: &Expr,
        position: usize,
        function_type: &Type,
        argument: &Expr,
    ) -> CheckResult<Type> {
        let resolved = self.subst.resolve(function_type);
        let (param, from, to) = match resolved {
            Type::Error => {
                self.infer(env, argument)?;
                return Ok(Type::Error);
            }
            Type::Arrow { param, from, to } => (param, (*from).clone(), (*to).clone()),
            Type::Var(_) => {
                let from = self.fresh_var(argument.span());
                let to = self.fresh_var(argument.span());
                let arrow = Type::arrow(from.clone(), to.clone());
                self.expect_type(
                    function.span(),
                    "this is applied as a function",
                    &resolved,
                    &arrow,
                )?;
                (None, from, to)
            }
            other => {
                let text = print_type(&self.resolve_deep(&other));
                let callee = describe_callee(function);
                let mut diagnostic = if position == 0 {
                    Diagnostic::error(format!("{callee} is not a function: it has type `{text}`"))
                        .with_primary(function.span(), format!("this has type `{text}`"))
                } else {
                    Diagnostic::error(format!(
                        "{callee} is applied to too many arguments: after {position}, the result has type `{text}`"
                    ))
                    .with_primary(argument.span(), "an argument too many")
                };
                diagnostic = diagnostic.with_code("type-mismatch");
                return Err(diagnostic);
            }
        };
        let argument_type = self.infer(env, argument)?;
        let context = format!("argument {} of {}", position + 1, describe_callee(function));
        self.expect_type(argument.span(), &context, &from, &argument_type)?;
        match param {
            None => Ok(to),
            Some(param) => {
                let size = self.size_of_argument(env, argument);
                let mut substitution = RigidSubstitution::default();
                substitution.sizes.insert(param.id, size);
                Ok(substitution.apply(&self.resolve_deep(&to)))
            }
        }
    }

    /// The size an `i64` argument stands for in a dependent result type
    /// (`iota n : [n]i64`): a constant, an `i64` variable, or unknown.
    fn size_of_argument(&self, env: &Env, argument: &Expr) -> Size {
        match argument {
            Expr::Literal {
                literal: Literal::Int { value, .. },
                ..
            } => Size::Constant(*value),
            Expr::Var(name) if name.qualifiers.is_empty() => match env.values.get(&name.name) {
                Some(ValueBinding::Variable { rigid, .. }) => Size::Rigid(rigid.clone()),
                _ => Size::Unknown,
            },
            Expr::Attr { expr, .. } => self.size_of_argument(env, expr),
            _ => Size::Unknown,
        }
    }

    /// `from -> rest` from a function type (unifying a variable with one).
    fn split_arrow(&mut self, ty: &Type, span: Span, name: &QualName) -> CheckResult<(Type, Type)> {
        match self.subst.resolve(ty) {
            Type::Arrow { from, to, .. } => Ok(((*from).clone(), (*to).clone())),
            Type::Error => Ok((Type::Error, Type::Error)),
            other => {
                let from = self.fresh_var(span);
                let to = self.fresh_var(span);
                let arrow = Type::arrow(from.clone(), to.clone());
                self.expect_type(
                    span,
                    &format!("`{}` used as a binary operator", name.name),
                    &arrow,
                    &other,
                )?;
                Ok((from, to))
            }
        }
    }

    /// The type of an operator used as a value: a user definition if one is in
    /// scope, else the built-in.
    fn operator_type(&mut self, env: &Env, op: &BinOp, span: Span) -> CheckResult<Type> {
        let name = op.name();
        if !name.qualifiers.is_empty() || env.values.contains_key(&name.name) {
            return self.infer_var(env, name);
        }
        match (op, builtin_operator(&name.name)) {
            (BinOp::Symbol(_), Some(builtin)) => {
                Ok(self.builtin_operator_type(builtin, &name.name, span))
            }
            _ if env.opened_poisoned_module => Ok(Type::Error),
            _ => Err(
                Diagnostic::error(format!("unknown operator `{}`", name.name))
                    .with_code("unknown-name")
                    .with_primary(name.span, "not found in this scope"),
            ),
        }
    }

    fn infer_binop(
        &mut self,
        env: &Env,
        op: &BinOp,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> CheckResult<Type> {
        let operator = self.operator_type(env, op, span)?;
        let symbol = &op.name().name;
        // The pipes apply their function operand to the other one; checking
        // them as applications gives the function's argument as context.
        let pipe = matches!(op, BinOp::Symbol(_))
            && !env.values.contains_key(symbol)
            && (symbol == "|>" || symbol == "<|");
        if pipe {
            let (function, argument) = if symbol == "|>" {
                (rhs, lhs)
            } else {
                (lhs, rhs)
            };
            let function_type = self.infer(env, function)?;
            return self.apply_argument(env, function, 0, &function_type, argument);
        }
        let (left_param, rest) = self.split_arrow(&operator, span, op.name())?;
        let left_type = self.infer(env, lhs)?;
        self.expect_type(
            lhs.span(),
            &format!("the left operand of `{symbol}`"),
            &left_param,
            &left_type,
        )?;
        let (right_param, result) = self.split_arrow(&rest, span, op.name())?;
        let right_type = self.infer(env, rhs)?;
        self.expect_type(
            rhs.span(),
            &format!("the right operand of `{symbol}`"),
            &right_param,
            &right_type,
        )?;
        Ok(result)
    }

    fn infer_loop(
        &mut self,
        env: &Env,
        pat: &Pat,
        init: Option<&Expr>,
        form: &LoopForm,
        body: &Expr,
        span: Span,
    ) -> CheckResult<Type> {
        let init_type = match init {
            Some(init) => self.infer(env, init)?,
            None => self.pattern_as_value(env, pat)?,
        };
        // Sizes of loop parameters may change from one iteration to the next
        // (Futhark makes them existential): they are not tracked.
        let param_type = forget_sizes(&self.resolve_deep(&init_type));
        let init_span = init.map_or(pat.span(), Expr::span);
        let rule = match form {
            LoopForm::While { .. } => PaperRule::While,
            _ => PaperRule::Loop,
        };
        self.require_order_zero(init_span, rule, "a loop parameter", &param_type)?;
        let mut bindings = PatBindings::default();
        self.check_pat(
            env,
            pat,
            &param_type,
            AnonymousSizes::Unknown,
            &mut bindings,
        )?;
        self.postpone_pattern_check(
            PatternSite::Binding,
            vec![pat.clone()],
            &param_type,
            pat.span(),
        );
        // The constant sizes the parameter's annotations state are kept: a
        // `loop (acc: [1]i32) = …` is a `[1]i32` (checked against the body,
        // and the loop's type, as in Futhark; SPEC_NOTES TFP18-19).
        let param_type = self.loop_annotated_type(env, pat, &param_type)?;
        let mut inner = bindings.extend(env);
        match form {
            LoopForm::For {
                var,
                var_span,
                bound,
            } => {
                let bound_type = self.infer(env, bound)?;
                let integer = self.overloaded_var(
                    PrimSet::integers(),
                    "the bound of a `for` loop".to_string(),
                    bound.span(),
                );
                self.expect_type(
                    bound.span(),
                    "the bound of the `for` loop",
                    &integer,
                    &bound_type,
                )?;
                let mut index = PatBindings::default();
                index.names.push((
                    var.clone(),
                    *var_span,
                    self.subst.fresh_rigid(var.clone()),
                    bound_type,
                ));
                inner = index.extend(&inner);
            }
            LoopForm::ForIn {
                pat: element_pat,
                array,
            } => {
                let array_type = self.infer(env, array)?;
                self.record_order_zero_origin(array.span(), PaperRule::Array, None);
                let element = self.subst.fresh_type_var(
                    self.level,
                    Liftedness::Unlifted,
                    Constraint::None,
                    array.span(),
                );
                let expected = Type::array(Size::Unknown, element.clone());
                self.expect_type(
                    array.span(),
                    "the array of a `for ... in` loop",
                    &expected,
                    &array_type,
                )?;
                let mut element_bindings = PatBindings::default();
                self.check_pat(
                    env,
                    element_pat,
                    &element,
                    AnonymousSizes::Unknown,
                    &mut element_bindings,
                )?;
                self.postpone_pattern_check(
                    PatternSite::Binding,
                    vec![element_pat.clone()],
                    &element,
                    element_pat.span(),
                );
                inner = element_bindings.extend(&inner);
            }
            LoopForm::While { condition } => {
                let condition_type = self.infer(&inner, condition)?;
                self.expect_type(
                    condition.span(),
                    "the condition of the `while` loop",
                    &Type::BOOL,
                    &condition_type,
                )?;
            }
        }
        let body_type = self.infer(&inner, body)?;
        self.expect_type(
            body.span(),
            "the loop body must produce new values of the loop parameters",
            &param_type,
            &body_type,
        )?;
        let _ = span;
        Ok(param_type)
    }

    /// A loop parameter's type with the constant sizes its pattern's type
    /// annotations state (the other sizes stay unknown).
    fn loop_annotated_type(&mut self, env: &Env, pat: &Pat, ty: &Type) -> CheckResult<Type> {
        spec::recursion::with_stack(|| match pat {
            Pat::Ascribe { ty: type_exp, .. } => {
                let annotated = self.elaborate_type(env, type_exp, AnonymousSizes::Unknown)?;
                Ok(forget_sizes_but_constants(&self.resolve_deep(&annotated)))
            }
            Pat::Attr { pat, .. } => self.loop_annotated_type(env, pat, ty),
            Pat::Tuple { elements, .. } => match self.resolve_deep(ty) {
                Type::Record(fields) if fields.len() == elements.len() => {
                    let mut types = Vec::new();
                    for (i, element) in elements.iter().enumerate() {
                        let Some(part) = fields.get(&FieldName::position(i)) else {
                            return Ok(ty.clone());
                        };
                        types.push(self.loop_annotated_type(env, element, part)?);
                    }
                    Ok(Type::tuple(types))
                }
                _ => Ok(ty.clone()),
            },
            Pat::Record { fields: pats, .. } => match self.resolve_deep(ty) {
                Type::Record(fields) if fields.len() == pats.len() => {
                    let mut record = BTreeMap::new();
                    for (name, field_pat) in pats {
                        let field = FieldName(name.clone());
                        let Some(part) = fields.get(&field) else {
                            return Ok(ty.clone());
                        };
                        record.insert(field, self.loop_annotated_type(env, field_pat, part)?);
                    }
                    Ok(Type::Record(Rc::new(record)))
                }
                _ => Ok(ty.clone()),
            },
            _ => Ok(ty.clone()),
        })
    }

    /// `loop (x, y) for ...` without `= init`: the pattern read as an
    /// expression over variables in scope.
    fn pattern_as_value(&mut self, env: &Env, pat: &Pat) -> CheckResult<Type> {
        spec::recursion::with_stack(|| match pat {
            Pat::Var { name, span } => {
                self.infer_var_unrecorded(env, &QualName::unqualified(name.clone(), *span))
            }
            Pat::Tuple { elements, .. } => {
                let types = elements
                    .iter()
                    .map(|element| self.pattern_as_value(env, element))
                    .collect::<CheckResult<Vec<_>>>()?;
                Ok(Type::tuple(types))
            }
            Pat::Record { fields, .. } => {
                let mut record = BTreeMap::new();
                for (name, field) in fields {
                    record.insert(FieldName(name.clone()), self.pattern_as_value(env, field)?);
                }
                Ok(Type::Record(Rc::new(record)))
            }
            Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => self.pattern_as_value(env, pat),
            other => Err(Diagnostic::error(
                "a loop without `= initial value` needs a pattern of variables",
            )
            .with_code("invalid-loop")
            .with_primary(other.span(), "this part of the pattern is not a variable")
            .with_note("hint: write `loop pat = init for ...`")),
        })
    }
}

/// `f a b c` as `(f, [a, b, c])`.
fn application_spine(expr: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut arguments = Vec::new();
    let mut current = expr;
    while let Expr::Apply {
        function, argument, ..
    } = current
    {
        arguments.push(&**argument);
        current = function;
    }
    arguments.reverse();
    (current, arguments)
}

/// How a message names the function being applied.
fn describe_callee(function: &Expr) -> String {
    match function {
        Expr::Var(name) if name.qualifiers.is_empty() => format!("`{}`", name.name),
        Expr::Var(name) => format!("`{}.{}`", name.qualifiers.join("."), name.name),
        _ => "this function".to_string(),
    }
}
