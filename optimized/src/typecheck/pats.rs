//! Patterns: checked against the type of the value they match, they bind
//! names. A name may be bound only once per pattern.

use std::collections::BTreeMap;
use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{Liftedness, Name, Pat};

use super::env::{Env, ValueBinding};
use super::type_exps::AnonymousSizes;
use super::unify::Constraint;
use super::{CheckResult, Checker};
use crate::types::{FieldName, RigidName, Type};

/// The names a pattern binds, in order.
#[derive(Default)]
pub(crate) struct PatBindings {
    pub(crate) names: Vec<(Name, Span, RigidName, Type)>,
}

impl PatBindings {
    /// `env` extended with the bindings.
    pub(crate) fn extend(&self, env: &Env) -> Env {
        let mut env = env.clone();
        for (name, _, rigid, ty) in &self.names {
            env = env.with_value(
                name.clone(),
                ValueBinding::Variable {
                    rigid: rigid.clone(),
                    ty: ty.clone(),
                },
            );
        }
        env
    }
}

impl Checker<'_> {
    /// Checks `pat` against `ty`, adding what it binds to `bindings`. `env` is
    /// the scope of type names and sizes in ascriptions.
    pub(crate) fn check_pat(
        &mut self,
        env: &Env,
        pat: &Pat,
        ty: &Type,
        anonymous: AnonymousSizes,
        bindings: &mut PatBindings,
    ) -> CheckResult<()> {
        spec::recursion::with_stack(|| self.check_pat_inner(env, pat, ty, anonymous, bindings))?;
        if let Some(table) = &mut self.typed {
            table.record_pat(pat, ty);
            if let Pat::Var { name, .. } = pat {
                if let Some((_, _, rigid, _)) = bindings
                    .names
                    .iter()
                    .rev()
                    .find(|(bound, ..)| bound == name)
                {
                    table.record_binder(pat, rigid);
                }
            }
        }
        Ok(())
    }

    fn check_pat_inner(
        &mut self,
        env: &Env,
        pat: &Pat,
        ty: &Type,
        anonymous: AnonymousSizes,
        bindings: &mut PatBindings,
    ) -> CheckResult<()> {
        match pat {
            Pat::Var { name, span } => {
                if let Some((_, first, _, _)) =
                    bindings.names.iter().find(|(bound, ..)| bound == name)
                {
                    return Err(Diagnostic::error(format!(
                        "`{name}` is bound twice in the same pattern"
                    ))
                    .with_code("duplicate-name")
                    .with_primary(*span, "bound again here")
                    .with_secondary(*first, "first bound here"));
                }
                let rigid = self.subst.fresh_rigid(name.clone());
                bindings
                    .names
                    .push((name.clone(), *span, rigid, ty.clone()));
                Ok(())
            }
            Pat::Wildcard { .. } => Ok(()),
            Pat::Tuple { elements, span } => {
                let element_types = match self.subst.resolve(ty) {
                    Type::Record(fields)
                        if Type::tuple_elements(&fields)
                            .is_some_and(|found| found.len() == elements.len()) =>
                    {
                        fields.values().cloned().collect::<Vec<_>>()
                    }
                    _ => {
                        let fresh: Vec<Type> = elements
                            .iter()
                            .map(|element| self.fresh_var(element.span()))
                            .collect();
                        self.expect_type(
                            *span,
                            "this tuple pattern",
                            ty,
                            &Type::tuple(fresh.clone()),
                        )
                        .map_err(|d| swap_expected_found_note(d, "the pattern"))?;
                        fresh
                    }
                };
                for (element, element_type) in elements.iter().zip(&element_types) {
                    self.check_pat(env, element, element_type, anonymous, bindings)?;
                }
                Ok(())
            }
            Pat::Record { fields, span } => {
                let mut field_types = BTreeMap::new();
                for (name, field_pat) in fields {
                    let fresh = self.fresh_var(field_pat.span());
                    if field_types.insert(FieldName(name.clone()), fresh).is_some() {
                        return Err(Diagnostic::error(format!(
                            "field `{name}` appears twice in the record pattern"
                        ))
                        .with_code("duplicate-name")
                        .with_primary(field_pat.span(), "duplicate field"));
                    }
                }
                let record = Type::Record(Rc::new(field_types.clone()));
                self.expect_type(*span, "this record pattern", ty, &record)
                    .map_err(|d| swap_expected_found_note(d, "the pattern"))?;
                for (name, field_pat) in fields {
                    let field_type = field_types[&FieldName(name.clone())].clone();
                    self.check_pat(env, field_pat, &field_type, anonymous, bindings)?;
                }
                Ok(())
            }
            Pat::Literal {
                literal,
                span,
                negative,
            } => {
                let literal_type = self.literal_type(literal, *span);
                let literal_check = self.pending_literal_checks.len();
                self.postpone_literal_check(*literal, &literal_type, *span);
                if *negative {
                    self.require_numeric_negation(*span, &literal_type)?;
                    self.negate_postponed_literal(literal_check, *span);
                }
                self.expect_type(*span, "this literal pattern", ty, &literal_type)
            }
            Pat::Constructor {
                name,
                payload,
                span,
            } => {
                let payload_types: Vec<Type> =
                    payload.iter().map(|p| self.fresh_var(p.span())).collect();
                let mut constructors = BTreeMap::new();
                constructors.insert(name.clone(), payload_types.clone());
                let sum = self.subst.fresh_type_var(
                    self.level,
                    Liftedness::Lifted,
                    Constraint::HasConstructors(constructors),
                    *span,
                );
                self.expect_type(*span, "this constructor pattern", ty, &sum)?;
                for (payload_pat, payload_type) in payload.iter().zip(&payload_types) {
                    self.check_pat(env, payload_pat, payload_type, anonymous, bindings)?;
                }
                Ok(())
            }
            Pat::Ascribe {
                pat: inner,
                ty: type_exp,
                span,
            } => {
                let annotated = self.elaborate_type(env, type_exp, anonymous)?;
                self.expect_type(*span, "the type annotation of this pattern", &annotated, ty)?;
                self.check_pat(env, inner, &annotated, anonymous, bindings)
            }
            Pat::Attr { pat: inner, .. } => self.check_pat(env, inner, ty, anonymous, bindings),
        }
    }

    /// A fresh unconstrained type variable (may stand for functions).
    pub(crate) fn fresh_var(&mut self, origin: Span) -> Type {
        self.subst
            .fresh_type_var(self.level, Liftedness::Lifted, Constraint::None, origin)
    }
}

/// Pattern mismatches compare the value's type (expected) with the pattern's
/// shape (found); the note makes that reading explicit.
fn swap_expected_found_note(diagnostic: Diagnostic, what: &str) -> Diagnostic {
    diagnostic.with_note(format!(
        "`found` is the shape of {what}; `expected` is the type of the value it matches"
    ))
}

/// The variable a parameter pattern binds directly (`x`, `x: t`, `#[a] x`),
/// if it is just a name.
pub(crate) fn simple_var(pat: &Pat) -> Option<&Name> {
    match pat {
        Pat::Var { name, .. } => Some(name),
        Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => simple_var(pat),
        _ => None,
    }
}
