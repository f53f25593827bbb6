//! The call-by-name reduction of λC (Fig. 6.3, common and λC-specific rules)
//! with the values of Fig. 6.2: `i | b | ⟨⟩ | ⟨e1,e2⟩ | λ•:τ.e | c | ⟨⟨v,τ̄,e⟩⟩ |
//! in v | Left e | Right e | nilP⟨⟩ | repP⟨v,e⟩ | v1 ++ v2`. The induced rules of
//! the primitives (App. B) are in `primitives_c.rs`.

use super::lambda_c::{ExprC, TermC};
use super::machine::{Calculus, Decision};
use super::primitives_c;
use crate::derivation::fire_rule;

/// λC as a [`Calculus`].
pub struct LambdaC;

impl Calculus for LambdaC {
    type Term = ExprC;

    fn decide(term: &ExprC) -> Decision<ExprC> {
        decide(term)
    }
    fn id(term: &ExprC) -> usize {
        term.id()
    }
    fn at_path(term: &ExprC, path: &[usize]) -> Option<ExprC> {
        term.at_path(path)
    }
    fn replace_at(term: &ExprC, path: &[usize], replacement: ExprC) -> ExprC {
        term.replace_at(path, replacement)
    }
}

/// Whether `term` is a λC value (Fig. 6.2).
pub fn is_value(term: &ExprC) -> bool {
    matches!(decide(term), Decision::Value)
}

/// The rule of Fig. 6.3 that applies at the head of `term`.
pub fn decide(term: &ExprC) -> Decision<ExprC> {
    match term.term() {
        TermC::Int(_)
        | TermC::Bool(_)
        | TermC::Unit
        | TermC::Const(_)
        | TermC::Lam(..)
        | TermC::Tuple(..) => Decision::Value,
        TermC::Bullet => Decision::Bottom("free `•` in a closed term".into()),
        TermC::App(function, argument) => {
            if !is_value(function) {
                // L05 Fig6.3 App-Cong
                fire_rule("L05 Fig6.3 App-Cong");
                return Decision::Congruence(vec![0]);
            }
            match function.term() {
                // L05 Fig6.3 Beta
                TermC::Lam(_, body) => {
                    fire_rule("L05 Fig6.3 Beta");
                    Decision::Contract(body.substitute(argument))
                }
                TermC::Const(c) => primitives_c::decide(c, argument).under(1),
                _ => Decision::Bottom("application of a non-function value".into()),
            }
        }
        TermC::CloApp(closure, argument) => {
            if !is_value(closure) {
                // L05 Fig6.3 CloApp-Cong
                fire_rule("L05 Fig6.3 CloApp-Cong");
                return Decision::Congruence(vec![0]);
            }
            match closure.term() {
                // L05 Fig6.3 C-CloApp
                TermC::Closure(code, _, _, _, environment) => {
                    fire_rule("L05 Fig6.3 C-CloApp");
                    Decision::Contract(ExprC::app(
                        code.clone(),
                        ExprC::tuple(environment.clone(), argument.clone()),
                    ))
                }
                _ => Decision::Bottom("† applied to a value that is not a closure".into()),
            }
        }
        TermC::Proj(inner, i) => match inner.term() {
            // L05 Fig6.3 Proj
            TermC::Tuple(a, b) => {
                fire_rule("L05 Fig6.3 Proj");
                Decision::Contract(if *i == 1 { a.clone() } else { b.clone() })
            }
            _ if is_value(inner) => Decision::Bottom("projection of a non-tuple value".into()),
            // L05 Fig6.3 Proj-Cong
            _ => {
                fire_rule("L05 Fig6.3 Proj-Cong");
                Decision::Congruence(vec![0])
            }
        },
        // L05 Fig6.3 Mu
        TermC::Mu(..) => {
            fire_rule("L05 Fig6.3 Mu");
            match term.term() {
                TermC::Mu(_, body) => Decision::Contract(body.substitute(term)),
                _ => Decision::Value,
            }
        }
        TermC::Closure(code, ..) => {
            if is_value(code) {
                Decision::Value
            } else {
                // L05 Fig6.3 C-Clo-Cong
                fire_rule("L05 Fig6.3 C-Clo-Cong");
                Decision::Congruence(vec![0])
            }
        }
    }
}
