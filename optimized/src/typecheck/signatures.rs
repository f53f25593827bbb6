//! Module types and (opaque) ascription.
//!
//! A module type elaborates to a [`Signature`]: abstract types (fresh rigid
//! [`Type::Param`]s, new at every elaboration and at every use of a module
//! type's name, so two ascriptions never share them) and a binding per
//! specification. Matching a structure against a signature finds what each
//! abstract type is in the structure, then checks every specification against
//! the structure under that instantiation: types are equal, each value's
//! scheme is at least as general as its specification (the specification is
//! skolemised, the structure's scheme instantiated, then unified), nested
//! modules match recursively. Ascription is opaque, as in Futhark: the result
//! is the signature itself, so its abstract types stay abstract.
//!
//! Functor application matches its argument the same way and instantiates
//! the functor's result with what the abstract types of the parameter are.
//!
//! Higher-order modules: a functor module type `(X: mt1) -> mt2` elaborates
//! to a signature holding a functor specification; a functor matches it when
//! the specification's parameter matches the functor's (contravariance) and
//! the functor's result, so instantiated, matches the specified result.
//!
//! Abstract types with parameters (`type t 'a [n]`) are [`Type::Abstract`]
//! applications; matching instantiates them by type functions (the
//! structure's abbreviation, parameters and body).

use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{Liftedness, ModTypeExp, Name, Spec, TypeBind, TypeParam};

use super::env::{
    AbbreviationParam, AbstractType, Env, Functor, ModuleValue, Signature, TypeBinding,
    ValueBinding,
};
use super::modules::unknown_in;
use super::rules::PaperRule;
use super::unify::SizeMode;
use super::{CheckResult, Checker};
use crate::types::printer::TypePrinter;
use crate::types::{
    RigidName, RigidSubstitution, Scheme, Size, Type, TypeArgument, TypeFunction, TypeFunctionParam,
};

impl Checker<'_> {
    /// Binds the parameters of a `with` refinement, as those of a type
    /// abbreviation.
    fn bind_refinement_params(
        &mut self,
        scope: &Env,
        params: &[TypeParam],
    ) -> (Env, Vec<TypeFunctionParam>) {
        let (inner, sizes, types) = self.bind_type_params(scope, params);
        let mut sizes = sizes.into_iter();
        let mut types = types.into_iter();
        let ids = params
            .iter()
            .filter_map(|param| match param {
                TypeParam::Size { .. } => {
                    sizes.next().map(|rigid| TypeFunctionParam::Size(rigid.id))
                }
                TypeParam::Type { .. } => types
                    .next()
                    .map(|(rigid, _)| TypeFunctionParam::Type(rigid.id)),
            })
            .collect();
        (inner, ids)
    }

    /// The signature a module type expression denotes.
    pub(crate) fn elaborate_mod_type(
        &mut self,
        scope: &Env,
        mod_type: &ModTypeExp,
    ) -> CheckResult<Signature> {
        spec::recursion::with_stack(|| self.elaborate_mod_type_inner(scope, mod_type))
    }

    fn elaborate_mod_type_inner(
        &mut self,
        scope: &Env,
        mod_type: &ModTypeExp,
    ) -> CheckResult<Signature> {
        match mod_type {
            ModTypeExp::Var(name) => {
                let Some(contents) = self.lookup_module_path(scope, &name.qualifiers, name.span)?
                else {
                    return Ok(poisoned_signature());
                };
                match contents.module_types.get(&name.name) {
                    Some(signature) => Ok(self.freshen(signature)),
                    None => Err(unknown_in(
                        &name.qualifiers,
                        &name.name,
                        "module type",
                        name.span,
                    )),
                }
            }
            ModTypeExp::Signature { specs, .. } => {
                let mut abstract_types = Vec::new();
                let mut exports = Env::default();
                for spec in specs {
                    let inner_scope = scope.extended_by(&exports);
                    self.elaborate_spec(&inner_scope, spec, &mut abstract_types, &mut exports)?;
                }
                Ok(Signature {
                    abstract_types,
                    contents: exports,
                    poisoned: false,
                    functor: None,
                })
            }
            ModTypeExp::With {
                mod_type: inner,
                refinement,
                span,
            } => {
                let mut signature = self.elaborate_mod_type(scope, inner)?;
                let mut path = refinement.name.qualifiers.clone();
                path.push(refinement.name.name.clone());
                let Some(position) = signature.abstract_types.iter().position(|a| a.path == path)
                else {
                    return Err(Diagnostic::error(format!(
                        "`{}` is not an abstract type of this module type",
                        path.join(".")
                    ))
                    .with_code("invalid-type")
                    .with_primary(refinement.name.span, "cannot be refined with `with`")
                    .with_note(
                        "only types specified without a definition (`type t`) can be refined",
                    ));
                };
                let refined = signature.abstract_types.remove(position);
                let (inner_scope, refinement_params) =
                    self.bind_refinement_params(scope, &refinement.params);
                if refinement_params.len() != refined.params.len()
                    || refinement_params
                        .iter()
                        .zip(&refined.params)
                        .any(|(a, b)| std::mem::discriminant(a) != std::mem::discriminant(b))
                {
                    return Err(Diagnostic::error(format!(
                        "the refinement of `{}` has other parameters than its specification",
                        path.join(".")
                    ))
                    .with_code("invalid-type")
                    .with_primary(*span, "parameters differ"));
                }
                let definition = self.elaborate_type(
                    &inner_scope,
                    &refinement.definition,
                    super::type_exps::AnonymousSizes::Unknown,
                )?;
                let definition = self.resolve_deep(&definition);
                if refined.liftedness != Liftedness::Lifted {
                    self.require_order_zero(
                        refinement.definition.span(),
                        PaperRule::LiftedTypes,
                        "a type refining a non-lifted abstract type",
                        &definition,
                    )?;
                }
                let mut substitution = RigidSubstitution::default();
                bind_abstract(
                    &mut substitution,
                    &refined,
                    TypeFunction {
                        params: refinement_params,
                        body: definition,
                    },
                );
                signature.contents = signature.contents.substitute(&substitution);
                Ok(signature)
            }
            ModTypeExp::Arrow {
                param, from, to, ..
            } => {
                let parameter_signature = self.elaborate_mod_type(scope, from)?;
                let inner = match param {
                    Some(name) => scope.with_module(name.clone(), parameter_signature.as_module()),
                    None => scope.clone(),
                };
                let result_signature = self.elaborate_mod_type(&inner, to)?;
                let result = result_signature.as_module();
                Ok(Signature {
                    abstract_types: Vec::new(),
                    contents: Env::default(),
                    poisoned: parameter_signature.poisoned || result_signature.poisoned,
                    functor: Some(Rc::new(Functor {
                        parameter_signature,
                        result,
                        result_abstract_types: result_signature.abstract_types,
                        generated_abstract_types: Vec::new(),
                    })),
                })
            }
        }
    }

    fn elaborate_spec(
        &mut self,
        scope: &Env,
        spec: &Spec,
        abstract_types: &mut Vec<AbstractType>,
        exports: &mut Env,
    ) -> CheckResult<()> {
        match spec {
            Spec::Val {
                name,
                type_params,
                ty,
                ..
            } => {
                let scheme = self.deeper(|checker| {
                    let (inner, size_params, type_params) =
                        checker.bind_type_params(scope, type_params);
                    let ty = checker.elaborate_type(
                        &inner,
                        ty,
                        super::type_exps::AnonymousSizes::Unknown,
                    )?;
                    Ok::<Scheme, Diagnostic>(Scheme {
                        type_params,
                        size_params,
                        ty: checker.resolve_deep(&ty),
                    })
                })?;
                *exports = exports.with_value(
                    name.clone(),
                    ValueBinding::Polymorphic {
                        scheme: Rc::new(scheme),
                        defined_at: None,
                    },
                );
            }
            Spec::Type {
                liftedness,
                name,
                params,
                definition: None,
                span,
            } => {
                let _ = span;
                let rigid = self.subst.fresh_rigid(name.clone());
                let mut abbreviation_params = Vec::new();
                let mut function_params = Vec::new();
                let mut args = Vec::new();
                for param in params {
                    match param {
                        TypeParam::Type {
                            name: param_name,
                            liftedness: param_liftedness,
                            ..
                        } => {
                            let param_rigid = self.subst.fresh_rigid(param_name.clone());
                            abbreviation_params.push(AbbreviationParam::Type {
                                name: param_rigid.clone(),
                                liftedness: *param_liftedness,
                            });
                            function_params.push(TypeFunctionParam::Type(param_rigid.id));
                            args.push(TypeArgument::Type(Type::Param {
                                name: param_rigid,
                                liftedness: *param_liftedness,
                            }));
                        }
                        TypeParam::Size {
                            name: param_name, ..
                        } => {
                            let param_rigid = self.subst.fresh_rigid(param_name.clone());
                            abbreviation_params.push(AbbreviationParam::Size(param_rigid.clone()));
                            function_params.push(TypeFunctionParam::Size(param_rigid.id));
                            args.push(TypeArgument::Size(Size::Rigid(param_rigid)));
                        }
                    }
                }
                let body = if params.is_empty() {
                    Type::Param {
                        name: rigid.clone(),
                        liftedness: *liftedness,
                    }
                } else {
                    Type::Abstract {
                        name: rigid.clone(),
                        liftedness: *liftedness,
                        args: args.into(),
                    }
                };
                abstract_types.push(AbstractType {
                    name: rigid,
                    liftedness: *liftedness,
                    path: vec![name.clone()],
                    params: function_params,
                });
                *exports = exports.with_type(
                    name.clone(),
                    TypeBinding::Abbreviation {
                        liftedness: *liftedness,
                        params: Rc::new(abbreviation_params),
                        body,
                    },
                );
            }
            Spec::Type {
                liftedness,
                name,
                params,
                definition: Some(definition),
                span,
            } => {
                let binding = self.check_type_bind(
                    scope,
                    &TypeBind {
                        liftedness: *liftedness,
                        name: name.clone(),
                        params: params.clone(),
                        definition: definition.clone(),
                        span: *span,
                    },
                )?;
                *exports = exports.with_type(name.clone(), binding);
            }
            Spec::Module { name, mod_type, .. } => {
                let nested = self.elaborate_mod_type(scope, mod_type)?;
                let module = nested.as_module();
                for mut abstract_type in nested.abstract_types {
                    abstract_type.path.insert(0, name.clone());
                    abstract_types.push(abstract_type);
                }
                *exports = exports.with_module(name.clone(), module);
            }
            Spec::Include { mod_type, .. } => {
                let included = self.elaborate_mod_type(scope, mod_type)?;
                abstract_types.extend(included.abstract_types);
                *exports = exports.extended_by(&included.contents);
            }
        }
        Ok(())
    }

    /// A copy of `signature` with new abstract types.
    fn freshen(&mut self, signature: &Signature) -> Signature {
        let mut substitution = RigidSubstitution::default();
        let abstract_types = signature
            .abstract_types
            .iter()
            .map(|abstract_type| {
                let fresh = self.subst.fresh_rigid(abstract_type.name.name.clone());
                bind_abstract(
                    &mut substitution,
                    abstract_type,
                    renamed(abstract_type, fresh.clone()),
                );
                AbstractType {
                    name: fresh,
                    ..abstract_type.clone()
                }
            })
            .collect();
        Signature {
            abstract_types,
            ..signature.substitute(&substitution)
        }
    }

    /// Opaque ascription `module : signature`: checks that the structure
    /// matches, and gives the module as the signature describes it.
    pub(crate) fn ascribe(
        &mut self,
        module: &ModuleValue,
        signature: Signature,
        span: Span,
    ) -> CheckResult<ModuleValue> {
        if signature.poisoned || matches!(module, ModuleValue::Poisoned) {
            return Ok(ModuleValue::Poisoned);
        }
        self.match_module(module, &signature, span)?;
        if let Some(functor) = &signature.functor {
            return Ok(ModuleValue::Functor(functor.clone()));
        }
        // The abstract types now belong to the module being defined: name them
        // after it in messages (`o.t`), keeping their identities.
        let prefix = self.module_path.clone();
        let named = named_after(&signature, &prefix);
        self.generated_abstract_types
            .extend(named.abstract_types.iter().cloned());
        Ok(ModuleValue::Structure(Rc::new(named.contents)))
    }

    /// Matches a module (structure or functor) against a module type;
    /// returns the instantiation of the module type's abstract types.
    pub(crate) fn match_module(
        &mut self,
        module: &ModuleValue,
        signature: &Signature,
        span: Span,
    ) -> CheckResult<RigidSubstitution> {
        if signature.poisoned {
            return Ok(RigidSubstitution::default());
        }
        match (module, &signature.functor) {
            (ModuleValue::Poisoned, _) => Ok(RigidSubstitution::default()),
            (ModuleValue::Structure(structure), None) => {
                self.match_signature(structure, signature, span)
            }
            (ModuleValue::Functor(actual), Some(specified)) => {
                let (actual, specified) = (actual.clone(), specified.clone());
                self.match_functor(&actual, &specified, span)?;
                Ok(RigidSubstitution::default())
            }
            (ModuleValue::Structure(_), Some(_)) => Err(signature_mismatch(
                span,
                "a structure where the module type specifies a functor".to_string(),
            )),
            (ModuleValue::Functor(_), None) => Err(signature_mismatch(
                span,
                "a functor where the module type specifies a structure".to_string(),
            )),
        }
    }

    /// A functor against a functor specification: the specification's
    /// parameter must match the functor's (contravariance), and the functor's
    /// result, instantiated accordingly, the specification's result.
    fn match_functor(
        &mut self,
        actual: &Functor,
        specified: &Functor,
        span: Span,
    ) -> CheckResult<()> {
        let specified_parameter = specified.parameter_signature.as_module();
        let instantiation =
            self.match_module(&specified_parameter, &actual.parameter_signature, span)?;
        let actual_result = actual.result.substitute(&instantiation);
        let wanted_result = specified.result_signature();
        let wanted_result = self.freshen(&wanted_result);
        self.match_module(&actual_result, &wanted_result, span)?;
        Ok(())
    }

    /// Matches `structure` against `signature`; returns what each abstract
    /// type of the signature is in the structure.
    pub(crate) fn match_signature(
        &mut self,
        structure: &Env,
        signature: &Signature,
        span: Span,
    ) -> CheckResult<RigidSubstitution> {
        let mut instantiation = RigidSubstitution::default();
        for abstract_type in &signature.abstract_types {
            let found = self.type_at_path(structure, abstract_type, span)?;
            if abstract_type.liftedness != Liftedness::Lifted {
                self.subst.require_order_zero(&found.body).map_err(|offending| {
                    signature_mismatch(
                        span,
                        format!(
                            "type `{}` is a function type (`{}`), but the module type declares it without `^`",
                            abstract_type.path.join("."),
                            TypePrinter::new().print(&offending)
                        ),
                    )
                })?;
            }
            bind_abstract(&mut instantiation, abstract_type, found);
        }
        let expected = signature.contents.substitute(&instantiation);
        self.match_contents(structure, &expected, &[], span)?;
        Ok(instantiation)
    }

    /// What the abstract type stands for in `structure`: the type found at
    /// its path, with parameters of the same kinds.
    fn type_at_path(
        &self,
        structure: &Env,
        abstract_type: &AbstractType,
        span: Span,
    ) -> CheckResult<TypeFunction> {
        let path = &abstract_type.path;
        let poisoned = TypeFunction {
            params: abstract_type.params.clone(),
            body: Type::Error,
        };
        let Some((type_name, modules)) = path.split_last() else {
            return Ok(poisoned);
        };
        let mut current = Rc::new(structure.clone());
        for module in modules {
            let next = match current.modules.get(module) {
                Some(ModuleValue::Structure(contents)) => contents.clone(),
                Some(ModuleValue::Poisoned) => return Ok(poisoned),
                Some(ModuleValue::Functor(_)) | None => {
                    return Err(signature_mismatch(
                        span,
                        format!(
                            "the module lacks the module `{module}` that the module type specifies"
                        ),
                    ))
                }
            };
            current = next;
        }
        let (params, body) = match current.types.get(type_name) {
            Some(TypeBinding::Abbreviation { params, body, .. }) => (
                params
                    .iter()
                    .map(|param| match param {
                        AbbreviationParam::Type { name, .. } => TypeFunctionParam::Type(name.id),
                        AbbreviationParam::Size(name) => TypeFunctionParam::Size(name.id),
                    })
                    .collect::<Vec<_>>(),
                body.clone(),
            ),
            Some(TypeBinding::Parameter(ty)) => (Vec::new(), ty.clone()),
            None => {
                return Err(signature_mismatch(
                    span,
                    format!(
                        "the module lacks the type `{}` that the module type specifies",
                        path.join(".")
                    ),
                ))
            }
        };
        let same_kinds = params.len() == abstract_type.params.len()
            && params
                .iter()
                .zip(&abstract_type.params)
                .all(|(a, b)| std::mem::discriminant(a) == std::mem::discriminant(b));
        if !same_kinds {
            return Err(signature_mismatch(
                span,
                format!(
                    "type `{}` takes {} parameter(s), but the module type specifies {}",
                    path.join("."),
                    params.len(),
                    abstract_type.params.len()
                ),
            ));
        }
        Ok(TypeFunction { params, body })
    }

    /// Checks `structure` against the specifications `expected` (abstract
    /// types already instantiated), in name order for deterministic reports.
    fn match_contents(
        &mut self,
        structure: &Env,
        expected: &Env,
        path: &[Name],
        span: Span,
    ) -> CheckResult<()> {
        let qualified = |name: &Name| {
            let mut full = path.to_vec();
            full.push(name.clone());
            full.join(".")
        };
        let mut type_names: Vec<&Name> = expected.types.keys().collect();
        type_names.sort();
        for name in type_names {
            let Some(found) = structure.types.get(name) else {
                return Err(signature_mismatch(
                    span,
                    format!(
                        "the module lacks the type `{}` that the module type specifies",
                        qualified(name)
                    ),
                ));
            };
            let wanted = &expected.types[name];
            self.match_type(found, wanted, &qualified(name), span)?;
        }
        let mut value_names: Vec<&Name> = expected.values.keys().collect();
        value_names.sort();
        for name in value_names {
            let Some(found) = structure.values.get(name) else {
                return Err(signature_mismatch(
                    span,
                    format!(
                        "the module lacks the value `{}` that the module type specifies",
                        qualified(name)
                    ),
                ));
            };
            let ValueBinding::Polymorphic { scheme: wanted, .. } = &expected.values[name] else {
                continue;
            };
            let (found_type, defined_at) = match found {
                ValueBinding::Variable { ty, .. } => (ty.clone(), None),
                ValueBinding::Polymorphic { scheme, defined_at } => {
                    let scheme = scheme.clone();
                    (self.instantiate(&scheme, span), *defined_at)
                }
            };
            if let Err(error) = self.subst.unify(&wanted.ty, &found_type, SizeMode::Check) {
                let mut printer = TypePrinter::new();
                let wanted_text = printer.print(&self.subst.resolve_for_display(&wanted.ty));
                let found_text = printer.print(&self.subst.resolve_for_display(&found_type));
                let mut diagnostic = signature_mismatch(
                    span,
                    format!(
                        "value `{}` has type `{found_text}`, but the module type specifies `{wanted_text}`",
                        qualified(name)
                    ),
                );
                if let Some(defined_at) = defined_at {
                    if defined_at.file == span.file {
                        diagnostic = diagnostic.with_secondary(defined_at, "defined here");
                    }
                }
                let detail = self.unify_error(span, "", &wanted.ty, &found_type, error);
                return Err(diagnostic.with_note(format!("in detail: {}", detail.message)));
            }
        }
        let mut module_names: Vec<&Name> = expected.modules.keys().collect();
        module_names.sort();
        for name in module_names {
            let Some(found) = structure.modules.get(name) else {
                return Err(signature_mismatch(
                    span,
                    format!(
                        "the module lacks the module `{}` that the module type specifies",
                        qualified(name)
                    ),
                ));
            };
            let wanted = expected.modules[name].clone();
            match (found, &wanted) {
                (ModuleValue::Structure(found), ModuleValue::Structure(wanted)) => {
                    let mut inner_path = path.to_vec();
                    inner_path.push(name.clone());
                    self.match_contents(found, wanted, &inner_path, span)?;
                }
                (ModuleValue::Functor(found), ModuleValue::Functor(wanted)) => {
                    let (found, wanted) = (found.clone(), wanted.clone());
                    self.match_functor(&found, &wanted, span)?;
                }
                (ModuleValue::Poisoned, _) | (_, ModuleValue::Poisoned) => {}
                _ => {
                    return Err(signature_mismatch(
                        span,
                        format!(
                        "module `{}` is a structure where a functor is specified, or the reverse",
                        qualified(name)
                    ),
                    ))
                }
            }
        }
        Ok(())
    }

    /// A type of the structure against a type specification: same arity,
    /// no more lifted, and the same type.
    fn match_type(
        &mut self,
        found: &TypeBinding,
        wanted: &TypeBinding,
        name: &str,
        span: Span,
    ) -> CheckResult<()> {
        let (found_liftedness, found_params, found_body) = binding_parts(found);
        let (wanted_liftedness, wanted_params, wanted_body) = binding_parts(wanted);
        if found_params.len() != wanted_params.len() {
            return Err(signature_mismatch(
                span,
                format!(
                    "type `{name}` takes {} parameter(s), but the module type specifies {}",
                    found_params.len(),
                    wanted_params.len()
                ),
            ));
        }
        if found_liftedness > wanted_liftedness {
            return Err(signature_mismatch(
                span,
                format!("type `{name}` is more lifted than the module type allows"),
            ));
        }
        // Rename both sides' parameters to shared fresh ones, then compare.
        let mut found_renaming = RigidSubstitution::default();
        let mut wanted_renaming = RigidSubstitution::default();
        for (found_param, wanted_param) in found_params.iter().zip(wanted_params.iter()) {
            use super::env::AbbreviationParam;
            match (found_param, wanted_param) {
                (
                    AbbreviationParam::Type {
                        name: f,
                        liftedness,
                    },
                    AbbreviationParam::Type { name: w, .. },
                ) => {
                    let shared = Type::Param {
                        name: self.subst.fresh_rigid(w.name.clone()),
                        liftedness: *liftedness,
                    };
                    found_renaming.types.insert(f.id, shared.clone());
                    wanted_renaming.types.insert(w.id, shared);
                }
                (AbbreviationParam::Size(f), AbbreviationParam::Size(w)) => {
                    let shared = crate::types::Size::Rigid(self.subst.fresh_rigid(w.name.clone()));
                    found_renaming.sizes.insert(f.id, shared.clone());
                    wanted_renaming.sizes.insert(w.id, shared);
                }
                _ => {
                    return Err(signature_mismatch(
                        span,
                        format!(
                            "the parameters of type `{name}` differ in kind from the module type's"
                        ),
                    ))
                }
            }
        }
        let found_body = found_renaming.apply(&found_body);
        let wanted_body = wanted_renaming.apply(&wanted_body);
        if self
            .subst
            .unify(&wanted_body, &found_body, SizeMode::Check)
            .is_err()
        {
            let mut printer = TypePrinter::new();
            return Err(signature_mismatch(
                span,
                format!(
                    "type `{name}` is `{}`, but the module type specifies `{}`",
                    printer.print(&self.resolve_deep(&found_body)),
                    printer.print(&self.resolve_deep(&wanted_body))
                ),
            ));
        }
        Ok(())
    }
}

/// `signature` with its abstract types shown as `prefix.path` in messages
/// (their identities unchanged).
pub(crate) fn named_after(signature: &Signature, prefix: &[Name]) -> Signature {
    let mut naming = RigidSubstitution::default();
    let mut abstract_types = Vec::with_capacity(signature.abstract_types.len());
    for abstract_type in &signature.abstract_types {
        let mut qualified = prefix.to_vec();
        qualified.extend(abstract_type.path.iter().cloned());
        let renamed_type = RigidName {
            id: abstract_type.name.id,
            name: qualified.join("."),
        };
        bind_abstract(
            &mut naming,
            abstract_type,
            renamed(abstract_type, renamed_type.clone()),
        );
        abstract_types.push(AbstractType {
            name: renamed_type,
            ..abstract_type.clone()
        });
    }
    Signature {
        abstract_types,
        ..signature.substitute(&naming)
    }
}

/// Records in `substitution` that `abstract_type` stands for `function`
/// (its body alone when it has no parameters).
pub(crate) fn bind_abstract(
    substitution: &mut RigidSubstitution,
    abstract_type: &AbstractType,
    function: TypeFunction,
) {
    if abstract_type.params.is_empty() {
        substitution
            .types
            .insert(abstract_type.name.id, function.body);
    } else {
        substitution
            .type_functions
            .insert(abstract_type.name.id, function);
    }
}

/// The abstract type itself under another rigid name (`fresh`), as a type
/// function of its parameters.
pub(crate) fn renamed(abstract_type: &AbstractType, fresh: RigidName) -> TypeFunction {
    let body = if abstract_type.params.is_empty() {
        Type::Param {
            name: fresh,
            liftedness: abstract_type.liftedness,
        }
    } else {
        Type::Abstract {
            name: fresh,
            liftedness: abstract_type.liftedness,
            args: abstract_type
                .params
                .iter()
                .map(|param| match param {
                    TypeFunctionParam::Type(id) => TypeArgument::Type(Type::Param {
                        name: RigidName {
                            id: *id,
                            name: String::new(),
                        },
                        liftedness: Liftedness::Lifted,
                    }),
                    TypeFunctionParam::Size(id) => TypeArgument::Size(Size::Rigid(RigidName {
                        id: *id,
                        name: String::new(),
                    })),
                })
                .collect(),
        }
    };
    TypeFunction {
        params: abstract_type.params.clone(),
        body,
    }
}

fn binding_parts(
    binding: &TypeBinding,
) -> (Liftedness, Rc<Vec<super::env::AbbreviationParam>>, Type) {
    match binding {
        TypeBinding::Abbreviation {
            liftedness,
            params,
            body,
        } => (*liftedness, params.clone(), body.clone()),
        TypeBinding::Parameter(ty) => (Liftedness::Lifted, Rc::new(Vec::new()), ty.clone()),
    }
}

fn signature_mismatch(span: Span, message: String) -> Diagnostic {
    Diagnostic::error(format!(
        "the module does not match its module type: {message}"
    ))
    .with_code("signature-mismatch")
    .with_primary(span, "in this ascription")
}

/// The signature of a module type whose definition failed: no abstract
/// types, nothing specified.
pub(crate) fn poisoned_signature() -> Signature {
    Signature {
        abstract_types: Vec::new(),
        contents: Env::default(),
        poisoned: true,
        functor: None,
    }
}
