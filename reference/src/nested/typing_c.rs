//! The λC type system (Fig. 5.4): `Δ ⊢_C τ` and `Γ ⊢_C e : τ` with
//! `Γ ::= · | •:τ`. LAM and REC check their body in the context `•:τ1` that
//! *replaces* Γ, and their conclusion holds under any Γ (the printed figure
//! omits Γ there; SPEC_NOTES L05-2). [`annotate`] returns the term with every
//! node annotated, which flattening (Fig. 5.8) needs.

use super::constants::{signature, Calculus};
use super::lambda_c::{ExprC, TermC};
use super::types::Type;
use crate::derivation::fire_rule;
use std::collections::HashMap;
use std::rc::Rc;

/// A failed premise of a λC rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub rule: &'static str,
    pub message: String,
}

impl std::fmt::Display for TypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "λC rule {}: {}", self.rule, self.message)
    }
}

fn error<T>(rule: &'static str, message: impl Into<String>) -> Result<T, TypeError> {
    Err(TypeError {
        rule,
        message: message.into(),
    })
}

/// `Δ ⊢_C τ`.
pub fn valid_type(delta: &mut Vec<Rc<str>>, ty: &Type) -> Result<(), TypeError> {
    match ty {
        // L05 Fig5.4 VAR-TYPE
        Type::Var(name) => {
            fire_rule("L05 Fig5.4 VAR-TYPE");
            if delta.contains(name) {
                Ok(())
            } else {
                error("VAR-TYPE", format!("type variable `{name}` is not in Δ"))
            }
        }
        // L05 Fig5.4 PRIM-TYPE
        Type::Int | Type::Bool | Type::Unit => {
            fire_rule("L05 Fig5.4 PRIM-TYPE");
            Ok(())
        }
        // L05 Fig5.4 BIN-TYPE
        Type::Prod(a, b) | Type::Sum(a, b) | Type::Fun(a, b) | Type::Clo(a, b) => {
            fire_rule("L05 Fig5.4 BIN-TYPE");
            valid_type(delta, a)?;
            valid_type(delta, b)
        }
        // L05 Fig5.4 ARRAY-TYPE
        Type::Array(a) => {
            fire_rule("L05 Fig5.4 ARRAY-TYPE");
            valid_type(delta, a)
        }
        // L05 Fig5.4 REC-TYPE
        Type::Mu(name, body) => {
            fire_rule("L05 Fig5.4 REC-TYPE");
            delta.push(name.clone());
            let result = valid_type(delta, body);
            delta.pop();
            result
        }
    }
}

/// `Γ ⊢_C e : τ`, returning `e` with every node annotated.
pub fn annotate(gamma: Option<&Type>, e: &ExprC) -> Result<ExprC, TypeError> {
    annotate_shared(&mut SharedJudgments::default(), gamma, e)
}

/// Judgments of shared nodes, by identity: those judged in the empty
/// context, and abstractions `λ•:τ.e` / `μ•:τ.e`, whose bodies can mention
/// no `•` but their own (λC has one variable), in any context. A value that
/// call by need computed is a DAG whose subterms are shared many times over
/// (a term of 2 000 nodes whose WHNF is 24 GB as a tree, SPEC_NOTES L05-27);
/// each shared node is judged, and annotated, once, and the annotated term
/// keeps the sharing. Nodes are kept alive so identities stay unique.
#[derive(Default)]
struct SharedJudgments {
    judged: HashMap<usize, (ExprC, Result<ExprC, TypeError>)>,
}

fn annotate_shared(
    memo: &mut SharedJudgments,
    gamma: Option<&Type>,
    e: &ExprC,
) -> Result<ExprC, TypeError> {
    let shared = gamma.is_none() || matches!(e.term(), TermC::Lam(..) | TermC::Mu(..));
    if !shared {
        return annotate_node(memo, gamma, e);
    }
    if let Some((_, judged)) = memo.judged.get(&e.id()) {
        return judged.clone();
    }
    let judged = annotate_node(memo, gamma, e);
    memo.judged.insert(e.id(), (e.clone(), judged.clone()));
    judged
}

/// One judgment `Γ ⊢_C e : τ`, a node of the recorded derivation.
fn annotate_node(
    memo: &mut SharedJudgments,
    gamma: Option<&Type>,
    e: &ExprC,
) -> Result<ExprC, TypeError> {
    crate::derivation::judgment(None, || annotate_rule(memo, gamma, e))
}

/// One rule of Fig. 5.4 at the head of `e`.
fn annotate_rule(
    memo: &mut SharedJudgments,
    gamma: Option<&Type>,
    e: &ExprC,
) -> Result<ExprC, TypeError> {
    let (term, ty) = match e.term() {
        // L05 Fig5.4 INT
        TermC::Int(i) => {
            fire_rule("L05 Fig5.4 INT");
            (TermC::Int(*i), Type::Int)
        }
        // L05 Fig5.4 BOOL
        TermC::Bool(b) => {
            fire_rule("L05 Fig5.4 BOOL");
            (TermC::Bool(*b), Type::Bool)
        }
        // L05 Fig5.4 UNIT
        TermC::Unit => {
            fire_rule("L05 Fig5.4 UNIT");
            (TermC::Unit, Type::Unit)
        }
        // L05 Fig5.4 CONST
        TermC::Const(c) => {
            fire_rule("L05 Fig5.4 CONST");
            for ty in &c.type_args {
                valid_type(&mut Vec::new(), ty)?;
            }
            let (domain, codomain) = signature(c.prim, &c.type_args, Calculus::C)
                .or_else(|problem| error("CONST", format!("`{}` {problem}", c.prim.name())))?;
            (TermC::Const(c.clone()), Type::fun(domain, codomain))
        }
        // L05 Fig5.4 VAR
        TermC::Bullet => {
            fire_rule("L05 Fig5.4 VAR");
            match gamma {
                Some(ty) => (TermC::Bullet, ty.clone()),
                None => return error("VAR", "`•` outside of any λ or μ (Γ is empty)"),
            }
        }
        // L05 Fig5.4 TUP
        TermC::Tuple(a, b) => {
            fire_rule("L05 Fig5.4 TUP");
            let a = annotate_shared(memo, gamma, a)?;
            let b = annotate_shared(memo, gamma, b)?;
            let ty = Type::prod(a.ty().clone(), b.ty().clone());
            (TermC::Tuple(a, b), ty)
        }
        // L05 Fig5.4 PROJ
        TermC::Proj(inner, i) => {
            fire_rule("L05 Fig5.4 PROJ");
            let inner = annotate_shared(memo, gamma, inner)?;
            let ty = match (inner.ty(), i) {
                (Type::Prod(a, _), 1) => (**a).clone(),
                (Type::Prod(_, b), 2) => (**b).clone(),
                (other, _) => return error("PROJ", format!("projection `.{i}` of type `{other}`")),
            };
            (TermC::Proj(inner, *i), ty)
        }
        // L05 Fig5.4 APP
        TermC::App(function, argument) => {
            fire_rule("L05 Fig5.4 APP");
            let function = annotate_shared(memo, gamma, function)?;
            let argument = annotate_shared(memo, gamma, argument)?;
            let ty = match function.ty() {
                Type::Fun(domain, codomain) if **domain == *argument.ty() => (**codomain).clone(),
                other => {
                    return error(
                        "APP",
                        format!(
                            "applying `{other}` to an argument of type `{}`",
                            argument.ty()
                        ),
                    )
                }
            };
            (TermC::App(function, argument), ty)
        }
        // L05 Fig5.4 LAM
        TermC::Lam(parameter, body) => {
            fire_rule("L05 Fig5.4 LAM");
            valid_type(&mut Vec::new(), parameter)?;
            let body = annotate_shared(memo, Some(parameter), body)?;
            let ty = Type::fun(parameter.clone(), body.ty().clone());
            (TermC::Lam(parameter.clone(), body), ty)
        }
        // L05 Fig5.4 REC
        TermC::Mu(ty, body) => {
            fire_rule("L05 Fig5.4 REC");
            valid_type(&mut Vec::new(), ty)?;
            let body = annotate_shared(memo, Some(ty), body)?;
            if body.ty() != ty {
                return error(
                    "REC",
                    format!("μ body has type `{}`, expected `{ty}`", body.ty()),
                );
            }
            (TermC::Mu(ty.clone(), body), ty.clone())
        }
        // L05 Fig5.4 CLO
        TermC::Closure(code, t1, t2, t3, env) => {
            fire_rule("L05 Fig5.4 CLO");
            let code = annotate_shared(memo, gamma, code)?;
            let env = annotate_shared(memo, gamma, env)?;
            let expected_code = Type::fun(Type::prod(t1.clone(), t2.clone()), t3.clone());
            if *code.ty() != expected_code {
                return error(
                    "CLO",
                    format!(
                        "closure code has type `{}`, expected `{expected_code}`",
                        code.ty()
                    ),
                );
            }
            if env.ty() != t1 {
                return error(
                    "CLO",
                    format!(
                        "closure environment has type `{}`, expected `{t1}`",
                        env.ty()
                    ),
                );
            }
            (
                TermC::Closure(code, t1.clone(), t2.clone(), t3.clone(), env),
                Type::clo(t2.clone(), t3.clone()),
            )
        }
        // L05 Fig5.4 CLOAPP
        TermC::CloApp(closure, argument) => {
            fire_rule("L05 Fig5.4 CLOAPP");
            let closure = annotate_shared(memo, gamma, closure)?;
            let argument = annotate_shared(memo, gamma, argument)?;
            let ty = match closure.ty() {
                Type::Clo(domain, codomain) if **domain == *argument.ty() => (**codomain).clone(),
                other => {
                    return error(
                        "CLOAPP",
                        format!(
                            "applying `{other}` with † to an argument of type `{}`",
                            argument.ty()
                        ),
                    )
                }
            };
            (TermC::CloApp(closure, argument), ty)
        }
    };
    // L05 Fig5.4 ANN
    fire_rule("L05 Fig5.4 ANN");
    if let Some(annotation) = e.annotation() {
        if *annotation != ty {
            return error(
                "ANN",
                format!("annotated `{annotation}` but the term has type `{ty}`"),
            );
        }
    }
    Ok(ExprC::with_annotation(term, Some(ty)))
}

/// `⊢_C e : τ` for a closed term.
pub fn check_program(e: &ExprC) -> Result<ExprC, TypeError> {
    annotate_shared(&mut SharedJudgments::default(), None, e)
}
