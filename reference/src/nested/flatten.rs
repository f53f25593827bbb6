//! Flattening λC → λA (Fig. 5.8, Defs. 5.12–5.13): vectorisation `V[e]` and
//! lifting `L[l, e]`, read off the λC annotations (`typing_c::annotate` must have
//! run). Corrections of the printed figure (SPEC_NOTES L05-8): the second binder
//! of `V[λ•:τ.e]` is `F[[:τ:]]`, and the `repP` index when lifting constants and
//! λs is the function association `A[v1] →_ A[v2]` (the λC type `v1 → v2`).

use super::constants::{Const, Prim};
use super::flat_types::{flat, flat_array};
use super::lambda_a::{AuxPrim, ConstA, ExprA, TermA};
use super::lambda_c::{ExprC, TermC};
use super::types::Type;
use crate::derivation::fire_rule;
use std::collections::HashMap;
use std::rc::Rc;

/// `V[e]`.
pub fn vectorise(e: &ExprC) -> ExprA {
    vectorise_shared(&mut HashMap::new(), e)
}

/// `V[e]` is a function of `e` alone, so a node shared in `e` is vectorised
/// once and its image shared in `V[e]` (a λC value computed by call by need
/// is a DAG many times smaller than its tree; SPEC_NOTES L05-27). The memo
/// keeps each λC node alive so identities stay unique.
fn vectorise_shared(memo: &mut HashMap<usize, (ExprC, ExprA)>, e: &ExprC) -> ExprA {
    if let Some((_, image)) = memo.get(&e.id()) {
        return image.clone();
    }
    let image = vectorise_node(memo, e);
    memo.insert(e.id(), (e.clone(), image.clone()));
    image
}

/// `V[e]`, a node of the recorded derivation.
fn vectorise_node(memo: &mut HashMap<usize, (ExprC, ExprA)>, e: &ExprC) -> ExprA {
    crate::derivation::judgment(None, || vectorise_rule(memo, e))
}

/// One equation of Fig. 5.8's `V` at the head of `e`.
fn vectorise_rule(memo: &mut HashMap<usize, (ExprC, ExprA)>, e: &ExprC) -> ExprA {
    match e.term() {
        // L05 Fig5.8 V-Int
        TermC::Int(i) => {
            fire_rule("L05 Fig5.8 V-Int");
            ExprA::int(*i)
        }
        // L05 Fig5.8 V-Bool
        TermC::Bool(b) => {
            fire_rule("L05 Fig5.8 V-Bool");
            ExprA::boolean(*b)
        }
        // L05 Fig5.8 V-Unit
        TermC::Unit => {
            fire_rule("L05 Fig5.8 V-Unit");
            ExprA::unit()
        }
        // L05 Fig5.8 V-Const
        TermC::Const(c) => {
            fire_rule("L05 Fig5.8 V-Const");
            ExprA::tuple(
                ExprA::constant(ConstA::Vectorised(c.clone())),
                ExprA::constant(ConstA::Lifted(c.clone())),
            )
        }
        // L05 Fig5.8 V-Var
        TermC::Bullet => {
            fire_rule("L05 Fig5.8 V-Var");
            ExprA::bullet()
        }
        // L05 Fig5.8 V-App
        TermC::App(function, argument) => {
            fire_rule("L05 Fig5.8 V-App");
            ExprA::app(
                ExprA::proj(vectorise_shared(memo, function), 1),
                vectorise_shared(memo, argument),
            )
        }
        // L05 Fig5.8 V-Lam
        TermC::Lam(parameter, body) => {
            fire_rule("L05 Fig5.8 V-Lam");
            ExprA::tuple(
                ExprA::lam(flat(parameter), vectorise_shared(memo, body)),
                ExprA::lam(
                    flat_array(parameter),
                    lift(&lifting_context(parameter), body),
                ),
            )
        }
        // L05 Fig5.8 V-Mu
        TermC::Mu(ty, body) => {
            fire_rule("L05 Fig5.8 V-Mu");
            ExprA::new(TermA::Mu(flat(ty), vectorise_shared(memo, body)))
        }
        // L05 Fig5.8 V-Tup
        TermC::Tuple(a, b) => {
            fire_rule("L05 Fig5.8 V-Tup");
            ExprA::tuple(vectorise_shared(memo, a), vectorise_shared(memo, b))
        }
        // L05 Fig5.8 V-Proj
        TermC::Proj(inner, i) => {
            fire_rule("L05 Fig5.8 V-Proj");
            ExprA::proj(vectorise_shared(memo, inner), *i)
        }
        // L05 Fig5.8 V-Clo
        TermC::Closure(code, t1, t2, t3, env) => {
            fire_rule("L05 Fig5.8 V-Clo");
            ExprA::new(TermA::Closure(
                vectorise_shared(memo, code),
                Rc::new([t1.clone(), t2.clone(), t3.clone()]),
                vectorise_shared(memo, env),
            ))
        }
        // L05 Fig5.8 V-CloApp
        TermC::CloApp(closure, argument) => {
            fire_rule("L05 Fig5.8 V-CloApp");
            ExprA::new(TermA::CloApp(
                vectorise_shared(memo, closure),
                vectorise_shared(memo, argument),
            ))
        }
    }
}

/// `lenP_⟨A[τ]⟩ •`, the lifting context inside `V[λ•:τ.e]`.
pub fn lifting_context(parameter: &Type) -> ExprA {
    ExprA::prim(Prim::LenP, std::slice::from_ref(parameter), ExprA::bullet())
}

fn rep(ty: &Type, l: &ExprA, x: ExprA) -> ExprA {
    ExprA::prim(
        Prim::RepP,
        std::slice::from_ref(ty),
        ExprA::tuple(l.clone(), x),
    )
}

fn attach(ty: &Type, l: &ExprA, xs: ExprA) -> ExprA {
    ExprA::aux(
        AuxPrim::AttachP,
        std::slice::from_ref(ty),
        ExprA::tuple(l.clone(), xs),
    )
}

/// `L[l, e]`.
pub fn lift(l: &ExprA, e: &ExprC) -> ExprA {
    match e.term() {
        // L05 Fig5.8 L-Int
        TermC::Int(i) => {
            fire_rule("L05 Fig5.8 L-Int");
            rep(&Type::Int, l, ExprA::int(*i))
        }
        // L05 Fig5.8 L-Bool
        TermC::Bool(b) => {
            fire_rule("L05 Fig5.8 L-Bool");
            rep(&Type::Bool, l, ExprA::boolean(*b))
        }
        // L05 Fig5.8 L-Unit
        TermC::Unit => {
            fire_rule("L05 Fig5.8 L-Unit");
            rep(&Type::Unit, l, ExprA::unit())
        }
        // L05 Fig5.8 L-Const
        TermC::Const(_) => {
            fire_rule("L05 Fig5.8 L-Const");
            rep(e.ty(), l, vectorise(e))
        }
        // L05 Fig5.8 L-Var
        TermC::Bullet => {
            fire_rule("L05 Fig5.8 L-Var");
            ExprA::bullet()
        }
        // L05 Fig5.8 L-App
        TermC::App(function, argument) => {
            fire_rule("L05 Fig5.8 L-App");
            attach(
                e.ty(),
                l,
                ExprA::app(
                    ExprA::proj(ExprA::proj(lift(l, function), 2), 2),
                    lift(l, argument),
                ),
            )
        }
        // L05 Fig5.8 L-Lam
        TermC::Lam(..) => {
            fire_rule("L05 Fig5.8 L-Lam");
            rep(e.ty(), l, vectorise(e))
        }
        // L05 Fig5.8 L-Mu
        TermC::Mu(ty, _) => {
            fire_rule("L05 Fig5.8 L-Mu");
            rep(ty, l, vectorise(e))
        }
        // L05 Fig5.8 L-Tup
        TermC::Tuple(a, b) => {
            fire_rule("L05 Fig5.8 L-Tup");
            ExprA::app(
                ExprA::constant(ConstA::Vectorised(Const {
                    prim: Prim::ZipP,
                    type_args: vec![a.ty().clone(), b.ty().clone()],
                })),
                ExprA::tuple(lift(l, a), lift(l, b)),
            )
        }
        // L05 Fig5.8 L-Proj
        TermC::Proj(inner, i) => {
            fire_rule("L05 Fig5.8 L-Proj");
            attach(e.ty(), l, ExprA::proj(ExprA::proj(lift(l, inner), 2), *i))
        }
        // L05 Fig5.8 L-Clo
        TermC::Closure(code, t1, t2, t3, env) => {
            fire_rule("L05 Fig5.8 L-Clo");
            ExprA::new(TermA::ArrClosure(
                ExprA::proj(lift(l, code), 2),
                Rc::new([t1.clone(), t2.clone(), t3.clone()]),
                lift(l, env),
            ))
        }
        // L05 Fig5.8 L-CloApp
        TermC::CloApp(closure, argument) => {
            fire_rule("L05 Fig5.8 L-CloApp");
            attach(
                e.ty(),
                l,
                ExprA::new(TermA::ArrCloApp(lift(l, closure), lift(l, argument))),
            )
        }
    }
}
