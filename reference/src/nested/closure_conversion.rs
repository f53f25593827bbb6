//! Closure conversion λP → λC (Fig. 5.5): `C_τ[·]` on types and `C_E[E, ·]` on
//! annotated terms, `E` mapping λP variables to λC terms.
//!
//! Decisions (SPEC_NOTES L05-5): the free variables of a λ or μ are taken in the
//! order of their names; the n-ary environment tuple `⟨e1,…,en⟩` is encoded as
//! right-nested pairs ending in `⟨⟩` (`⟨⟩` when n = 0), so `•.1.i` becomes
//! `•.1.2…2.1`. The output is unannotated; `typing_c::annotate` then computes
//! the annotations (the rule `C_E[E, u^τ] = (C_E[E,u])^{C_τ[τ]}` the figure
//! leaves implicit), and the pipeline checks that the result has type `C_τ[τ]`.

use super::constants::Const;
use super::lambda_c::{ExprC, TermC};
use super::lambda_p::{ExprP, TermP};
use super::types::Type;
use crate::derivation::fire_rule;
use std::collections::HashMap;
use std::rc::Rc;

/// `C_τ[τ]`.
pub fn convert_type(ty: &Type) -> Type {
    match ty {
        // L05 Fig5.5 C-Type-Base
        Type::Var(_) | Type::Int | Type::Bool | Type::Unit => {
            fire_rule("L05 Fig5.5 C-Type-Base");
            ty.clone()
        }
        // L05 Fig5.5 C-Type-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 Fig5.5 C-Type-Prod");
            Type::prod(convert_type(a), convert_type(b))
        }
        // L05 Fig5.5 C-Type-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 Fig5.5 C-Type-Sum");
            Type::sum(convert_type(a), convert_type(b))
        }
        // L05 Fig5.5 C-Type-Fun
        Type::Fun(a, b) => {
            fire_rule("L05 Fig5.5 C-Type-Fun");
            Type::clo(convert_type(a), convert_type(b))
        }
        // A λP type never contains `⇒`; converting one again is the identity.
        Type::Clo(a, b) => Type::clo(convert_type(a), convert_type(b)),
        // L05 Fig5.5 C-Type-Array
        Type::Array(a) => {
            fire_rule("L05 Fig5.5 C-Type-Array");
            Type::array(convert_type(a))
        }
        // L05 Fig5.5 C-Type-Mu
        Type::Mu(name, body) => {
            fire_rule("L05 Fig5.5 C-Type-Mu");
            Type::Mu(name.clone(), Rc::new(convert_type(body)))
        }
    }
}

/// The conversion context `E`.
pub type ConversionContext = HashMap<Rc<str>, ExprC>;

/// `⟨e1, …, en⟩` as right-nested pairs ending in `⟨⟩`.
fn environment_tuple(items: Vec<ExprC>) -> ExprC {
    items
        .into_iter()
        .rev()
        .fold(ExprC::unit(), |rest, item| ExprC::tuple(item, rest))
}

/// `τ1 × … × τn` encoded like [`environment_tuple`].
fn environment_type(items: Vec<Type>) -> Type {
    items
        .into_iter()
        .rev()
        .fold(Type::Unit, |rest, item| Type::prod(item, rest))
}

/// `base.i` (zero-based `index`) in the encoding of [`environment_tuple`].
fn environment_component(base: ExprC, index: usize) -> ExprC {
    let mut current = base;
    for _ in 0..index {
        current = ExprC::proj(current, 2);
    }
    ExprC::proj(current, 1)
}

/// `C_E[E, e]` for an annotated λP term (from `typing_p::annotate`).
pub fn convert(context: &ConversionContext, e: &ExprP) -> ExprC {
    crate::derivation::judgment(Some(e.span), || convert_rule(context, e))
}

/// One equation of Fig. 5.5 at the head of `e`.
fn convert_rule(context: &ConversionContext, e: &ExprP) -> ExprC {
    match &e.term {
        // L05 Fig5.5 C-Int
        TermP::Int(i) => {
            fire_rule("L05 Fig5.5 C-Int");
            ExprC::int(*i)
        }
        // L05 Fig5.5 C-Bool
        TermP::Bool(b) => {
            fire_rule("L05 Fig5.5 C-Bool");
            ExprC::boolean(*b)
        }
        // L05 Fig5.5 C-Unit
        TermP::Unit => {
            fire_rule("L05 Fig5.5 C-Unit");
            ExprC::unit()
        }
        // L05 Fig5.5 C-Const
        TermP::Const(prim, type_args) => {
            fire_rule("L05 Fig5.5 C-Const");
            let (v1, v2) = match e.ty() {
                Type::Fun(a, b) => (convert_type(a), convert_type(b)),
                other => unreachable_type(other),
            };
            let constant = ExprC::constant(Const {
                prim: *prim,
                type_args: type_args
                    .as_ref()
                    .map(|args| args.iter().map(convert_type).collect())
                    .unwrap_or_default(),
            });
            let environment_type = Type::Unit;
            let code = ExprC::lam(
                Type::prod(environment_type.clone(), v1.clone()),
                ExprC::app(constant, ExprC::proj(ExprC::bullet(), 2)),
            );
            ExprC::new(TermC::Closure(
                code,
                environment_type,
                v1,
                v2,
                ExprC::unit(),
            ))
        }
        // L05 Fig5.5 C-Var
        TermP::Var(name) => {
            fire_rule("L05 Fig5.5 C-Var");
            context
                .get(name)
                .cloned()
                .unwrap_or_else(|| panic_unbound(name))
        }
        // L05 Fig5.5 C-Tup
        TermP::Tuple(a, b) => {
            fire_rule("L05 Fig5.5 C-Tup");
            ExprC::tuple(convert(context, a), convert(context, b))
        }
        // L05 Fig5.5 C-Proj
        TermP::Proj(inner, i) => {
            fire_rule("L05 Fig5.5 C-Proj");
            ExprC::proj(convert(context, inner), *i)
        }
        // L05 Fig5.5 C-App
        TermP::App(function, argument) => {
            fire_rule("L05 Fig5.5 C-App");
            ExprC::clo_app(convert(context, function), convert(context, argument))
        }
        // L05 Fig5.5 C-Lam
        TermP::Lam(name, parameter, body) => {
            fire_rule("L05 Fig5.5 C-Lam");
            let parameter = convert_type(parameter.as_ref().unwrap_or(&Type::Unit));
            let result = match e.ty() {
                Type::Fun(_, b) => convert_type(b),
                other => unreachable_type(other),
            };
            let free: Vec<(Rc<str>, Type)> = e.free_variables().into_iter().collect();
            let environment = environment_tuple(
                free.iter()
                    .map(|(w, _)| context.get(w).cloned().unwrap_or_else(|| panic_unbound(w)))
                    .collect(),
            );
            let environment_type =
                environment_type(free.iter().map(|(_, ty)| convert_type(ty)).collect());
            let mut inner: ConversionContext = free
                .iter()
                .enumerate()
                .map(|(i, (w, _))| {
                    (
                        w.clone(),
                        environment_component(ExprC::proj(ExprC::bullet(), 1), i),
                    )
                })
                .collect();
            inner.insert(name.clone(), ExprC::proj(ExprC::bullet(), 2));
            let code = ExprC::lam(
                Type::prod(environment_type.clone(), parameter.clone()),
                convert(&inner, body),
            );
            ExprC::new(TermC::Closure(
                code,
                environment_type,
                parameter,
                result,
                environment,
            ))
        }
        // L05 Fig5.5 C-Mu
        TermP::Mu(name, ty, body) => {
            fire_rule("L05 Fig5.5 C-Mu");
            let free: Vec<(Rc<str>, Type)> = e.free_variables().into_iter().collect();
            let argument = environment_tuple(
                free.iter()
                    .map(|(w, _)| context.get(w).cloned().unwrap_or_else(|| panic_unbound(w)))
                    .collect(),
            );
            let argument_type =
                environment_type(free.iter().map(|(_, ty)| convert_type(ty)).collect());
            let result_type = convert_type(ty);
            let environment_type = Type::clo(argument_type.clone(), result_type.clone());
            let mut inner: ConversionContext = free
                .iter()
                .enumerate()
                .map(|(i, (w, _))| {
                    (
                        w.clone(),
                        environment_component(ExprC::proj(ExprC::bullet(), 2), i),
                    )
                })
                .collect();
            inner.insert(
                name.clone(),
                ExprC::clo_app(
                    ExprC::proj(ExprC::bullet(), 1),
                    ExprC::proj(ExprC::bullet(), 2),
                ),
            );
            let code = ExprC::lam(
                Type::prod(environment_type.clone(), argument_type.clone()),
                convert(&inner, body),
            );
            let recursive_closure = ExprC::new(TermC::Mu(
                environment_type.clone(),
                ExprC::new(TermC::Closure(
                    code,
                    environment_type,
                    argument_type,
                    result_type,
                    ExprC::bullet(),
                )),
            ));
            ExprC::clo_app(recursive_closure, argument)
        }
    }
}

/// Closure conversion of a closed, annotated λP program.
pub fn convert_program(e: &ExprP) -> ExprC {
    convert(&ConversionContext::new(), e)
}

// The converter is only called on terms the λP checker accepted: an unbound
// variable or a non-function constant type there is a bug in the checker.
fn panic_unbound(name: &str) -> ExprC {
    panic!("closure conversion of an unchecked term: `{name}` is unbound")
}
fn unreachable_type<T>(ty: &Type) -> T {
    panic!("closure conversion of an unchecked term: `{ty}` is not a function type")
}
