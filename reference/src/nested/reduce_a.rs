//! The call-by-name reduction of λA (Fig. 6.3, common and λA-specific rules,
//! with the `‡` rules the markdown prints with `†`; SPEC_NOTES L05-11) and the
//! values of Fig. 6.2: closures are strict in both halves of their code pair and
//! lazy in the environment; array closures are lazy in the code and strict in
//! the environment array. The primitives (App. C) are in `primitives_a.rs`.

use super::constants::{Const, Prim};
use super::lambda_a::{ConstA, ExprA, TermA};
use super::machine::{Calculus, Decision};
use super::primitives_a;
use crate::derivation::fire_rule;

/// λA as a [`Calculus`].
pub struct LambdaA;

impl Calculus for LambdaA {
    type Term = ExprA;

    fn decide(term: &ExprA) -> Decision<ExprA> {
        decide(term)
    }
    fn id(term: &ExprA) -> usize {
        term.id()
    }
    fn at_path(term: &ExprA, path: &[usize]) -> Option<ExprA> {
        term.at_path(path)
    }
    fn replace_at(term: &ExprA, path: &[usize], replacement: ExprA) -> ExprA {
        term.replace_at(path, replacement)
    }
}

/// Whether `term` is a λA value (Fig. 6.2).
pub fn is_value(term: &ExprA) -> bool {
    matches!(decide(term), Decision::Value)
}

/// The rule of Fig. 6.3 that applies at the head of `term`.
pub fn decide(term: &ExprA) -> Decision<ExprA> {
    match term.term() {
        TermA::Int(_)
        | TermA::Bool(_)
        | TermA::Unit
        | TermA::ArrInt(_)
        | TermA::ArrBool(_)
        | TermA::Const(_)
        | TermA::Lam(..)
        | TermA::Tuple(..) => Decision::Value,
        TermA::Bullet => Decision::Bottom("free `•` in a closed term".into()),
        TermA::App(function, argument) => {
            if !is_value(function) {
                // L05 Fig6.3 A-App-Cong
                fire_rule("L05 Fig6.3 A-App-Cong");
                return Decision::Congruence(vec![0]);
            }
            match function.term() {
                // L05 Fig6.3 A-Beta
                TermA::Lam(_, body) => {
                    fire_rule("L05 Fig6.3 A-Beta");
                    Decision::Contract(body.substitute(argument))
                }
                TermA::Const(c) => primitives_a::decide(c, argument).under(1),
                _ => Decision::Bottom("application of a non-function value".into()),
            }
        }
        TermA::Proj(inner, i) => match inner.term() {
            // L05 Fig6.3 A-Proj
            TermA::Tuple(a, b) => {
                fire_rule("L05 Fig6.3 A-Proj");
                Decision::Contract(if *i == 1 { a.clone() } else { b.clone() })
            }
            _ if is_value(inner) => Decision::Bottom("projection of a non-tuple value".into()),
            // L05 Fig6.3 A-Proj-Cong
            _ => {
                fire_rule("L05 Fig6.3 A-Proj-Cong");
                Decision::Congruence(vec![0])
            }
        },
        // L05 Fig6.3 A-Mu
        TermA::Mu(_, body) => {
            fire_rule("L05 Fig6.3 A-Mu");
            Decision::Contract(body.substitute(term))
        }
        TermA::Closure(code, ..) => {
            if !is_value(code) {
                // L05 Fig6.3 A-Clo-Cong
                fire_rule("L05 Fig6.3 A-Clo-Cong");
                return Decision::Congruence(vec![0]);
            }
            match code.term() {
                TermA::Tuple(vectorised, lifted) => {
                    if !is_value(vectorised) {
                        // L05 Fig6.3 A-Clo-Cong-Vectorised
                        fire_rule("L05 Fig6.3 A-Clo-Cong-Vectorised");
                        Decision::Congruence(vec![0, 0])
                    } else if !is_value(lifted) {
                        // L05 Fig6.3 A-Clo-Cong-Lifted
                        fire_rule("L05 Fig6.3 A-Clo-Cong-Lifted");
                        Decision::Congruence(vec![0, 1])
                    } else {
                        Decision::Value
                    }
                }
                _ => Decision::Bottom("closure code is not a pair".into()),
            }
        }
        TermA::CloApp(closure, argument) => {
            if !is_value(closure) {
                // L05 Fig6.3 A-CloApp-Cong
                fire_rule("L05 Fig6.3 A-CloApp-Cong");
                return Decision::Congruence(vec![0]);
            }
            match closure.term() {
                TermA::Closure(code, _, environment) => match code.term() {
                    // L05 Fig6.3 A-CloApp
                    TermA::Tuple(vectorised, _) => {
                        fire_rule("L05 Fig6.3 A-CloApp");
                        Decision::Contract(ExprA::app(
                            vectorised.clone(),
                            ExprA::tuple(environment.clone(), argument.clone()),
                        ))
                    }
                    _ => Decision::Bottom("closure code is not a pair".into()),
                },
                _ => Decision::Bottom("† applied to a value that is not a closure".into()),
            }
        }
        TermA::ArrClosure(_, _, environment) => {
            if is_value(environment) {
                Decision::Value
            } else {
                // L05 Fig6.3 A-ArrClo-Cong
                fire_rule("L05 Fig6.3 A-ArrClo-Cong");
                Decision::Congruence(vec![1])
            }
        }
        TermA::ArrCloApp(closure, argument) => {
            if !is_value(closure) {
                // L05 Fig6.3 A-ArrCloApp-Cong
                fire_rule("L05 Fig6.3 A-ArrCloApp-Cong");
                return Decision::Congruence(vec![0]);
            }
            match closure.term() {
                // L05 Fig6.3 A-ArrCloApp
                TermA::ArrClosure(code, types, environments) => {
                    fire_rule("L05 Fig6.3 A-ArrCloApp");
                    let zip = ExprA::constant(ConstA::Vectorised(Const {
                        prim: Prim::ZipP,
                        type_args: vec![types[0].clone(), types[1].clone()],
                    }));
                    Decision::Contract(ExprA::app(
                        ExprA::proj(code.clone(), 2),
                        ExprA::app(zip, ExprA::tuple(environments.clone(), argument.clone())),
                    ))
                }
                _ => Decision::Bottom("‡ applied to a value that is not an array closure".into()),
            }
        }
    }
}
