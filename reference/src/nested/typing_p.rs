//! The λP type system (Fig. 5.2): `Δ ⊢_P τ` and `Γ ⊢_P e : τ`.
//!
//! [`annotate`] is the judgment `Γ ⊢_P e : τ` run as an algorithm: it checks every
//! premise and returns the term with every annotation `u^τ` filled in (rule ANN's
//! witness), together with omitted constant instances and `let`-bound parameter
//! types, which it computes from the argument (documented as a concrete-syntax
//! convenience in `concrete.rs`; SPEC_NOTES L05-6).

use super::constants::{infer_type_args, signature, Calculus};
use super::lambda_p::{ExprP, TermP};
use super::types::Type;
use crate::derivation::fire_rule;
use spec::source::Span;
use std::rc::Rc;

/// A failed premise: the rule, what went wrong, where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub rule: &'static str,
    pub message: String,
    pub span: Span,
}

fn error<T>(rule: &'static str, span: Span, message: impl Into<String>) -> Result<T, TypeError> {
    Err(TypeError {
        rule,
        message: message.into(),
        span,
    })
}

/// `Δ ⊢_P τ`.
pub fn valid_type(delta: &mut Vec<Rc<str>>, ty: &Type, span: Span) -> Result<(), TypeError> {
    match ty {
        // L05 Fig5.2 VAR-TYPE
        Type::Var(name) => {
            fire_rule("L05 Fig5.2 VAR-TYPE");
            if delta.contains(name) {
                Ok(())
            } else {
                error(
                    "VAR-TYPE",
                    span,
                    format!("type variable `{name}` is not bound by an enclosing `mu`"),
                )
            }
        }
        // L05 Fig5.2 PRIM-TYPE
        Type::Int | Type::Bool | Type::Unit => {
            fire_rule("L05 Fig5.2 PRIM-TYPE");
            Ok(())
        }
        // L05 Fig5.2 BIN-TYPE
        Type::Prod(a, b) | Type::Sum(a, b) | Type::Fun(a, b) => {
            fire_rule("L05 Fig5.2 BIN-TYPE");
            valid_type(delta, a, span)?;
            valid_type(delta, b, span)
        }
        Type::Clo(..) => error(
            "BIN-TYPE",
            span,
            format!("the closure type `{ty}` belongs to λC, not λP"),
        ),
        // L05 Fig5.2 ARRAY-TYPE
        Type::Array(a) => {
            fire_rule("L05 Fig5.2 ARRAY-TYPE");
            valid_type(delta, a, span)
        }
        // L05 Fig5.2 REC-TYPE
        Type::Mu(name, body) => {
            fire_rule("L05 Fig5.2 REC-TYPE");
            delta.push(name.clone());
            let result = valid_type(delta, body, span);
            delta.pop();
            result
        }
    }
}

/// `Γ`: a set of `v:τ`, later bindings shadowing earlier ones (the thesis
/// assumes distinct variables; shadowing is the concrete syntax's scoping).
pub type Context = Vec<(Rc<str>, Type)>;

/// `Γ ⊢_P e : τ`, returning `e` fully annotated (a node of the recorded
/// derivation).
pub fn annotate(gamma: &mut Context, e: &ExprP) -> Result<ExprP, TypeError> {
    crate::derivation::judgment(Some(e.span), || annotate_rule(gamma, e))
}

/// One rule of Fig. 5.2 at the head of `e`.
fn annotate_rule(gamma: &mut Context, e: &ExprP) -> Result<ExprP, TypeError> {
    let span = e.span;
    let (term, ty) = match &e.term {
        // L05 Fig5.2 INT
        TermP::Int(i) => {
            fire_rule("L05 Fig5.2 INT");
            (TermP::Int(*i), Type::Int)
        }
        // L05 Fig5.2 BOOL
        TermP::Bool(b) => {
            fire_rule("L05 Fig5.2 BOOL");
            (TermP::Bool(*b), Type::Bool)
        }
        // L05 Fig5.2 UNIT
        TermP::Unit => {
            fire_rule("L05 Fig5.2 UNIT");
            (TermP::Unit, Type::Unit)
        }
        // L05 Fig5.2 CONST
        TermP::Const(prim, type_args) => {
            fire_rule("L05 Fig5.2 CONST");
            let Some(type_args) = type_args else {
                return error(
                    "CONST",
                    span,
                    format!(
                        "cannot infer the type arguments of `{}` here; write `{}<...>`",
                        prim.name(),
                        prim.name()
                    ),
                );
            };
            if !prim.in_lambda_p() {
                return error(
                    "CONST",
                    span,
                    format!("`{}` is not a λP constant", prim.name()),
                );
            }
            for ty in type_args {
                valid_type(&mut Vec::new(), ty, span)?;
            }
            let (domain, codomain) = signature(*prim, type_args, Calculus::P)
                .or_else(|problem| error("CONST", span, format!("`{}` {problem}", prim.name())))?;
            (
                TermP::Const(*prim, Some(type_args.clone())),
                Type::fun(domain, codomain),
            )
        }
        // L05 Fig5.2 VAR
        TermP::Var(name) => {
            fire_rule("L05 Fig5.2 VAR");
            match gamma.iter().rev().find(|(v, _)| v == name) {
                Some((_, ty)) => (TermP::Var(name.clone()), ty.clone()),
                None => return error("VAR", span, format!("unbound variable `{name}`")),
            }
        }
        // L05 Fig5.2 TUP
        TermP::Tuple(a, b) => {
            fire_rule("L05 Fig5.2 TUP");
            let a = annotate(gamma, a)?;
            let b = annotate(gamma, b)?;
            let ty = Type::prod(a.ty().clone(), b.ty().clone());
            (TermP::Tuple(Box::new(a), Box::new(b)), ty)
        }
        // L05 Fig5.2 PROJ
        TermP::Proj(inner, i) => {
            fire_rule("L05 Fig5.2 PROJ");
            let inner = annotate(gamma, inner)?;
            let ty = match (inner.ty(), i) {
                (Type::Prod(a, _), 1) => (**a).clone(),
                (Type::Prod(_, b), 2) => (**b).clone(),
                (other, _) => {
                    return error(
                        "PROJ",
                        span,
                        format!(
                            "projection `.{i}` of a term of type `{other}`, which is not a pair"
                        ),
                    )
                }
            };
            (TermP::Proj(Box::new(inner), *i), ty)
        }
        // L05 Fig5.2 APP
        TermP::App(function, argument) => {
            fire_rule("L05 Fig5.2 APP");
            let argument = annotate(gamma, argument)?;
            let function = instantiate_for_argument(gamma, function, argument.ty())?;
            let ty = match function.ty() {
                Type::Fun(domain, codomain) if **domain == *argument.ty() => (**codomain).clone(),
                Type::Fun(domain, _) => {
                    return error(
                        "APP",
                        argument.span,
                        format!(
                            "the argument has type `{}` but the function expects `{domain}`",
                            argument.ty()
                        ),
                    )
                }
                other => {
                    return error(
                        "APP",
                        function.span,
                        format!("applying a term of type `{other}`, which is not a function"),
                    )
                }
            };
            (TermP::App(Box::new(function), Box::new(argument)), ty)
        }
        // L05 Fig5.2 LAM
        TermP::Lam(name, parameter, body) => {
            fire_rule("L05 Fig5.2 LAM");
            let Some(parameter) = parameter else {
                return error(
                    "LAM",
                    span,
                    format!("the parameter `{name}` needs a type: write `\\{name} : t -> ...`"),
                );
            };
            valid_type(&mut Vec::new(), parameter, span)?;
            gamma.push((name.clone(), parameter.clone()));
            let body = annotate(gamma, body);
            gamma.pop();
            let body = body?;
            let ty = Type::fun(parameter.clone(), body.ty().clone());
            (
                TermP::Lam(name.clone(), Some(parameter.clone()), Box::new(body)),
                ty,
            )
        }
        // L05 Fig5.2 REC
        TermP::Mu(name, ty, body) => {
            fire_rule("L05 Fig5.2 REC");
            valid_type(&mut Vec::new(), ty, span)?;
            gamma.push((name.clone(), ty.clone()));
            let body = annotate(gamma, body);
            gamma.pop();
            let body = body?;
            if body.ty() != ty {
                return error(
                    "REC",
                    body.span,
                    format!(
                        "the body of `mu {name}` has type `{}`, expected `{ty}`",
                        body.ty()
                    ),
                );
            }
            (
                TermP::Mu(name.clone(), ty.clone(), Box::new(body)),
                ty.clone(),
            )
        }
    };
    // L05 Fig5.2 ANN
    fire_rule("L05 Fig5.2 ANN");
    if let Some(annotation) = &e.annotation {
        if *annotation != ty {
            return error(
                "ANN",
                span,
                format!("annotated `{annotation}` but the term has type `{ty}`"),
            );
        }
    }
    Ok(ExprP {
        term,
        annotation: Some(ty),
        span,
    })
}

/// The function position of an application: a constant without instance gets
/// its type arguments from the argument's type; an untyped `λ` (from `let`)
/// gets the argument's type as its parameter type. Everything else is checked
/// as usual.
fn instantiate_for_argument(
    gamma: &mut Context,
    function: &ExprP,
    argument: &Type,
) -> Result<ExprP, TypeError> {
    match &function.term {
        TermP::Const(prim, None) => match infer_type_args(*prim, argument, Calculus::P) {
            Some(type_args) => annotate(
                gamma,
                &ExprP {
                    term: TermP::Const(*prim, Some(type_args)),
                    annotation: function.annotation.clone(),
                    span: function.span,
                },
            ),
            None => error(
                "CONST",
                function.span,
                format!(
                    "cannot infer the type arguments of `{}` from an argument of type `{argument}`; write `{}<...>`",
                    prim.name(),
                    prim.name()
                ),
            ),
        },
        TermP::Lam(name, None, body) => annotate(
            gamma,
            &ExprP {
                term: TermP::Lam(name.clone(), Some(argument.clone()), body.clone()),
                annotation: function.annotation.clone(),
                span: function.span,
            },
        ),
        _ => annotate(gamma, function),
    }
}

/// `⊢_P e : τ` for a closed program.
pub fn check_program(e: &ExprP) -> Result<ExprP, TypeError> {
    annotate(&mut Vec::new(), e)
}
