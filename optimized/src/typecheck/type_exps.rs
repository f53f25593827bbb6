//! Type expressions (`[n]i32`, `t a [m]`, `(x: i64) -> [x]f32`) to [`Type`]s.
//!
//! Anonymous sizes `[]` mean different things in different places, chosen by
//! [`AnonymousSizes`]: an implicit size parameter in the parameters of a
//! definition, a size to infer in a lambda parameter or an ascription, and an
//! unknown (existential) size in return types and type abbreviations.

use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::syntax::ast::{QualName, SizeExp, TypeArg, TypeExp};

use super::env::{AbbreviationParam, Env, TypeBinding, ValueBinding};
use super::modules::unknown_in;
use super::rules::PaperRule;
use super::{CheckResult, Checker};
use crate::types::printer::print_type;
use crate::types::{FieldName, PrimType, RigidSubstitution, Size, Type};

/// What an anonymous size `[]` stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AnonymousSizes {
    /// A fresh implicit size parameter of the enclosing definition.
    ImplicitParameter,
    /// A size to be inferred.
    Flexible,
    /// A size not tracked statically.
    Unknown,
}

impl Checker<'_> {
    pub(crate) fn elaborate_type(
        &mut self,
        env: &Env,
        type_exp: &TypeExp,
        anonymous: AnonymousSizes,
    ) -> CheckResult<Type> {
        spec::recursion::with_stack(|| self.elaborate_type_inner(env, type_exp, anonymous))
    }

    fn elaborate_type_inner(
        &mut self,
        env: &Env,
        type_exp: &TypeExp,
        anonymous: AnonymousSizes,
    ) -> CheckResult<Type> {
        match type_exp {
            TypeExp::Var(name) => self.type_name(env, name, &[], anonymous),
            TypeExp::Apply {
                constructor, args, ..
            } => self.type_name(env, constructor, args, anonymous),
            TypeExp::Array { size, element, .. } => {
                let size = self.elaborate_size(env, size, type_exp.span(), anonymous)?;
                let element_type = self.elaborate_type(env, element, anonymous)?;
                self.require_order_zero(
                    element.span(),
                    PaperRule::Array,
                    "the element type of an array",
                    &element_type,
                )?;
                Ok(Type::array(size, element_type))
            }
            TypeExp::Tuple { elements, .. } => {
                let elements = elements
                    .iter()
                    .map(|element| self.elaborate_type(env, element, anonymous))
                    .collect::<CheckResult<Vec<_>>>()?;
                Ok(Type::tuple(elements))
            }
            TypeExp::Record { fields, span } => {
                let mut record = BTreeMap::new();
                for (name, field_type) in fields {
                    let ty = self.elaborate_type(env, field_type, anonymous)?;
                    if record.insert(FieldName(name.clone()), ty).is_some() {
                        return Err(Diagnostic::error(format!(
                            "field `{name}` appears twice in the record type"
                        ))
                        .with_code("duplicate-name")
                        .with_primary(field_type.span().to(*span), "duplicate field"));
                    }
                }
                Ok(Type::Record(Rc::new(record)))
            }
            TypeExp::Arrow {
                param, from, to, ..
            } => {
                let from_type = self.elaborate_type(env, from, anonymous)?;
                match param {
                    None => {
                        let to_type = self.elaborate_type(env, to, anonymous)?;
                        Ok(Type::arrow(from_type, to_type))
                    }
                    Some(name) => {
                        let rigid = self.subst.fresh_rigid(name.clone());
                        let inner = env.with_value(
                            name.clone(),
                            ValueBinding::Variable {
                                rigid: rigid.clone(),
                                ty: from_type.clone(),
                            },
                        );
                        let to_type = self.elaborate_type(&inner, to, anonymous)?;
                        Ok(Type::Arrow {
                            param: Some(rigid),
                            from: Rc::new(from_type),
                            to: Rc::new(to_type),
                        })
                    }
                }
            }
            TypeExp::Sum { constructors, .. } => {
                let mut sum = BTreeMap::new();
                for constructor in constructors {
                    let payload = constructor
                        .payload
                        .iter()
                        .map(|ty| self.elaborate_type(env, ty, anonymous))
                        .collect::<CheckResult<Vec<_>>>()?;
                    if sum.insert(constructor.name.clone(), payload).is_some() {
                        return Err(Diagnostic::error(format!(
                            "constructor `#{}` appears twice in the sum type",
                            constructor.name
                        ))
                        .with_code("duplicate-name")
                        .with_primary(constructor.span, "duplicate constructor"));
                    }
                }
                Ok(Type::Sum(Rc::new(sum)))
            }
            // Uniqueness is parsed and erased (DESIGN.md: out of scope).
            TypeExp::Unique { ty, .. } => self.elaborate_type(env, ty, anonymous),
            TypeExp::Existential { sizes, ty, .. } => {
                let mut inner = env.clone();
                let mut substitution = RigidSubstitution::default();
                for name in sizes {
                    let rigid = self.subst.fresh_rigid(name.clone());
                    substitution.sizes.insert(rigid.id, Size::Unknown);
                    inner = inner.with_value(
                        name.clone(),
                        ValueBinding::Variable {
                            rigid,
                            ty: Type::I64,
                        },
                    );
                }
                let body = self.elaborate_type(&inner, ty, anonymous)?;
                Ok(substitution.apply(&self.resolve_deep(&body)))
            }
        }
    }

    /// A size in a type: `[]`, `[3]`, `[n]` where `n` is an `i64` in scope,
    /// or an `i64` expression `[n+1]`.
    pub(crate) fn elaborate_size(
        &mut self,
        env: &Env,
        size: &SizeExp,
        span: spec::source::Span,
        anonymous: AnonymousSizes,
    ) -> CheckResult<Size> {
        match size {
            SizeExp::Constant(value) => Ok(Size::Constant(*value)),
            SizeExp::Anonymous => Ok(match anonymous {
                AnonymousSizes::Unknown => Size::Unknown,
                AnonymousSizes::Flexible => self.subst.fresh_size_var(self.level),
                AnonymousSizes::ImplicitParameter => match &mut self.implicit_sizes {
                    Some(collected) => {
                        let rigid = self.subst.fresh_rigid(String::new());
                        collected.push(rigid.clone());
                        if let Some(parameter) = &self.current_parameter {
                            self.size_descriptions
                                .insert(rigid.id, format!("an anonymous size `[]` of {parameter}"));
                        }
                        Size::Rigid(rigid)
                    }
                    None => self.subst.fresh_size_var(self.level),
                },
            }),
            // A size expression (`[n+1]`): an `i64` expression over the
            // names in scope, otherwise an unknown size, unchecked on both
            // implementations (SPEC_NOTES TFP18-25).
            SizeExp::Expression(expression) => {
                let ty = self.infer(env, expression)?;
                self.subst
                    .unify(&Type::I64, &ty, super::unify::SizeMode::Check)
                    .map_err(|_| {
                        Diagnostic::error(format!(
                            "a size must be an `i64`, but this expression has type `{}`",
                            print_type(&self.resolve_deep(&ty))
                        ))
                        .with_code("type-mismatch")
                        .with_primary(expression.span(), "used as a size here")
                    })?;
                Ok(Size::Unknown)
            }
            SizeExp::Named(name) => {
                if !name.qualifiers.is_empty() {
                    return Err(Checker::unsupported(
                        name.span,
                        "a qualified size name (modules)",
                    ));
                }
                match env.values.get(&name.name) {
                    Some(ValueBinding::Variable { rigid, ty }) => {
                        let ty = ty.clone();
                        let rigid = rigid.clone();
                        self.subst
                            .unify(&Type::I64, &ty, super::unify::SizeMode::Check)
                            .map_err(|_| {
                                Diagnostic::error(format!(
                                    "size `{}` must be an `i64`, but it has type `{}`",
                                    name.name,
                                    print_type(&self.resolve_deep(&ty))
                                ))
                                .with_code("type-mismatch")
                                .with_primary(name.span, "used as a size here")
                            })?;
                        Ok(Size::Rigid(rigid))
                    }
                    Some(ValueBinding::Polymorphic { .. }) => Err(Diagnostic::error(format!(
                        "`{}` is a function, not a size",
                        name.name
                    ))
                    .with_code("invalid-type")
                    .with_primary(name.span, "used as a size here")),
                    None => Err(Diagnostic::error(format!("unknown size `{}`", name.name))
                        .with_code("unknown-name")
                        .with_primary(name.span, "not found in this scope")
                        .with_note(format!(
                            "hint: bind it with a size parameter `[{}]`, or use `[]` for a size that is not named",
                            name.name
                        ))
                        .with_secondary(span, "in this type")),
                }
            }
        }
    }

    /// A type name, applied to `args` (empty when unapplied).
    fn type_name(
        &mut self,
        env: &Env,
        name: &QualName,
        args: &[TypeArg],
        anonymous: AnonymousSizes,
    ) -> CheckResult<Type> {
        let binding = if name.qualifiers.is_empty() {
            env.types.get(&name.name).cloned()
        } else {
            let Some(contents) = self.lookup_module_path(env, &name.qualifiers, name.span)? else {
                return Ok(Type::Error);
            };
            match contents.types.get(&name.name) {
                Some(binding) => Some(binding.clone()),
                None if contents.opened_poisoned_module => return Ok(Type::Error),
                None => return Err(unknown_in(&name.qualifiers, &name.name, "type", name.span)),
            }
        };
        let (params, body) = match binding {
            Some(TypeBinding::Parameter(ty)) => (Rc::new(Vec::new()), ty),
            Some(TypeBinding::Abbreviation { params, body, .. }) => (params, body),
            None => match PrimType::from_name(&name.name) {
                Some(prim) => (Rc::new(Vec::new()), Type::Prim(prim)),
                None if env.opened_poisoned_module => return Ok(Type::Error),
                None => {
                    return Err(Diagnostic::error(format!("unknown type `{}`", name.name))
                        .with_code("unknown-name")
                        .with_primary(name.span, "not found in this scope"))
                }
            },
        };
        if params.len() != args.len() {
            return Err(Diagnostic::error(format!(
                "type `{}` takes {} argument{}, but {} {} given",
                name.name,
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                args.len(),
                if args.len() == 1 { "was" } else { "were" }
            ))
            .with_code("invalid-type")
            .with_primary(name.span, "wrong number of type arguments"));
        }
        let mut substitution = RigidSubstitution::default();
        for (param, arg) in params.iter().zip(args) {
            match (param, arg) {
                (
                    AbbreviationParam::Type {
                        name: param_name, ..
                    },
                    TypeArg::Type(arg_exp),
                ) => {
                    let arg_type = self.elaborate_type(env, arg_exp, anonymous)?;
                    substitution.types.insert(param_name.id, arg_type);
                }
                (AbbreviationParam::Size(param_name), TypeArg::Size { size, span }) => {
                    let size = self.elaborate_size(env, size, *span, anonymous)?;
                    substitution.sizes.insert(param_name.id, size);
                }
                (
                    AbbreviationParam::Type {
                        name: param_name, ..
                    },
                    TypeArg::Size { span, .. },
                ) => {
                    return Err(Diagnostic::error(format!(
                        "type `{}` expects a type for its parameter '{}, but got a size",
                        name.name, param_name.name
                    ))
                    .with_code("invalid-type")
                    .with_primary(*span, "a size argument"))
                }
                (AbbreviationParam::Size(param_name), TypeArg::Type(arg_exp)) => {
                    return Err(Diagnostic::error(format!(
                        "type `{}` expects a size `[{}]` for this parameter, but got a type",
                        name.name, param_name.name
                    ))
                    .with_code("invalid-type")
                    .with_primary(arg_exp.span(), "a type argument"))
                }
            }
        }
        // Abbreviations are transparent, so a type argument may be of any
        // liftedness; only what the expansion builds is checked (no array of
        // functions).
        let expanded = substitution.apply(&body);
        if !substitution.is_empty() {
            self.require_order_zero_array_elements(name.span, &expanded)?;
        }
        Ok(expanded)
    }

    /// Requires every array element type inside `ty` to be of order zero.
    fn require_order_zero_array_elements(
        &mut self,
        span: spec::source::Span,
        ty: &Type,
    ) -> CheckResult<()> {
        spec::recursion::with_stack(|| match ty {
            Type::Array { element, .. } => {
                self.require_order_zero(
                    span,
                    PaperRule::Array,
                    "the element type of an array",
                    element,
                )?;
                self.require_order_zero_array_elements(span, element)
            }
            Type::Record(fields) => {
                for field in fields.values() {
                    self.require_order_zero_array_elements(span, field)?;
                }
                Ok(())
            }
            Type::Sum(constructors) => {
                for payload in constructors.values().flatten() {
                    self.require_order_zero_array_elements(span, payload)?;
                }
                Ok(())
            }
            Type::Arrow { from, to, .. } => {
                self.require_order_zero_array_elements(span, from)?;
                self.require_order_zero_array_elements(span, to)
            }
            Type::Abstract { args, .. } => {
                for arg in args.iter() {
                    if let crate::types::TypeArgument::Type(ty) = arg {
                        self.require_order_zero_array_elements(span, ty)?;
                    }
                }
                Ok(())
            }
            Type::Prim(_) | Type::Var(_) | Type::Param { .. } | Type::Error => Ok(()),
        })
    }
}

/// Names of the rigid sizes in `ty`.
pub(crate) fn rigid_size_ids(ty: &Type) -> HashSet<u32> {
    let mut ids = HashSet::new();
    crate::types::for_each_size(ty, &mut |size| {
        if let Size::Rigid(name) = size {
            ids.insert(name.id);
        }
    });
    ids
}
