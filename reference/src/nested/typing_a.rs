//! The λA type system (Fig. 5.7): `Γ ⊢_A e : τ` with kinding and `≡` from
//! `flat_types.rs`, and the types `T_A` of λA constants (Def. 5.4). The type of
//! `V_C[c]` and `L_C[c]` is the one Property 5.26 requires:
//! `T_A(V_C[c]⟨A[τ̄]⟩) = F[v1] → F[v2]` and `T_A(L_C[c]⟨A[τ̄]⟩) = F[[:v1:]] → F[[:v2:]]`
//! when `T_C(c⟨τ̄⟩) = v1 → v2`; subject reduction (Lemma 6.3) then checks that the
//! App C definitions respect them.

use super::constants::{signature, Calculus, Const};
use super::flat_types::{
    association, equivalent, flat, flat_array, kind_of, normalise, Kind, TypeA,
};
use super::lambda_a::{AuxPrim, ConstA, ExprA, Kernel, TermA};
use super::types::Type;
use crate::derivation::fire_rule;
use std::collections::HashMap;

/// A failed premise of a λA rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub rule: &'static str,
    pub message: String,
}

impl std::fmt::Display for TypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "λA rule {}: {}", self.rule, self.message)
    }
}

fn error<T>(rule: &'static str, message: impl Into<String>) -> Result<T, TypeError> {
    Err(TypeError {
        rule,
        message: message.into(),
    })
}

fn int_array() -> TypeA {
    flat_array(&Type::Int)
}

/// `T_A(c⟨τ̄⟩) = (v1, v2)`, meaning `v1 → v2`, normalised.
pub fn constant_type(c: &ConstA) -> Result<(TypeA, TypeA), TypeError> {
    let closed = |ty: &Type| -> Result<(), TypeError> {
        super::typing_c::valid_type(&mut Vec::new(), ty)
            .or_else(|e| error("CONST", format!("type index: {}", e.message)))?;
        kind_of(&mut Vec::new(), &association(ty))
            .or_else(|e| error("CONST", e.0))
            .and_then(|kind| {
                if kind == Kind::StarStar {
                    Ok(())
                } else {
                    error("CONST", "type index is not an association")
                }
            })
    };
    let lambda_c_signature = |c: &Const| {
        signature(c.prim, &c.type_args, Calculus::C)
            .or_else(|problem| error("CONST", format!("`{}` {problem}", c.prim.name())))
    };
    let pair = |a: TypeA, b: TypeA| TypeA::prod(a, b);
    match c {
        ConstA::Vectorised(c) => {
            c.type_args.iter().try_for_each(closed)?;
            let (v1, v2) = lambda_c_signature(c)?;
            Ok((flat(&v1), flat(&v2)))
        }
        ConstA::Lifted(c) => {
            c.type_args.iter().try_for_each(closed)?;
            let (v1, v2) = lambda_c_signature(c)?;
            Ok((flat_array(&v1), flat_array(&v2)))
        }
        ConstA::Aux(aux, args) => {
            args.iter().try_for_each(closed)?;
            let arity = match aux {
                AuxPrim::CappP | AuxPrim::CappPLifted | AuxPrim::IsRight | AuxPrim::RepSumParts => {
                    2
                }
                _ => 1,
            };
            if args.len() != arity {
                return error(
                    "CONST",
                    format!("`{}` takes {arity} type argument(s)", aux.name()),
                );
            }
            let t = |i: usize| args[i].clone();
            Ok(match aux {
                AuxPrim::AttachP | AuxPrim::RepeatP => {
                    (pair(TypeA::Int, flat_array(&t(0))), flat_array(&t(0)))
                }
                AuxPrim::ExpandP | AuxPrim::GatherP => {
                    (pair(int_array(), flat_array(&t(0))), flat_array(&t(0)))
                }
                AuxPrim::CappP => {
                    let closure = Type::clo(t(0), t(1));
                    let either = Type::sum(closure.clone(), closure);
                    (pair(flat(&either), flat(&t(0))), flat(&t(1)))
                }
                AuxPrim::CappPLifted => {
                    let closure = Type::clo(t(0), t(1));
                    let either = Type::sum(closure.clone(), closure);
                    (flat_array(&Type::prod(either, t(0))), flat_array(&t(1)))
                }
                AuxPrim::IsRight => (flat(&Type::sum(t(0), t(1))), TypeA::Bool),
                AuxPrim::RepSumParts => (
                    pair(TypeA::Int, flat(&Type::sum(t(0), t(1)))),
                    pair(flat_array(&t(0)), flat_array(&t(1))),
                ),
            })
        }
        ConstA::Kernel(kernel) => Ok(kernel_type(*kernel)),
        ConstA::LiftedByIndexing(c) => {
            c.type_args.iter().try_for_each(closed)?;
            let (v1, v2) = lambda_c_signature(c)?;
            Ok((pair(TypeA::Int, flat_array(&v1)), flat_array(&v2)))
        }
    }
}

/// Types of the unboxed kernels.
pub fn kernel_type(kernel: Kernel) -> (TypeA, TypeA) {
    use TypeA::{ArrBool, ArrInt, Bool, Int};
    let pair = TypeA::prod;
    match kernel {
        Kernel::RepInt => (pair(Int, Int), ArrInt),
        Kernel::RepBool => (pair(Int, Bool), ArrBool),
        Kernel::ConcatInt => (pair(ArrInt, ArrInt), ArrInt),
        Kernel::ConcatBool => (pair(ArrBool, ArrBool), ArrBool),
        Kernel::IndexInt => (pair(ArrInt, Int), Int),
        Kernel::IndexBool => (pair(ArrBool, Int), Bool),
        Kernel::PackInt => (pair(ArrBool, ArrInt), ArrInt),
        Kernel::PackBool => (pair(ArrBool, ArrBool), ArrBool),
        Kernel::CombineInt => (pair(ArrBool, pair(ArrInt, ArrInt)), ArrInt),
        Kernel::CombineBool => (pair(ArrBool, pair(ArrBool, ArrBool)), ArrBool),
        Kernel::GatherInt => (pair(ArrInt, ArrInt), ArrInt),
        Kernel::GatherBool => (pair(ArrInt, ArrBool), ArrBool),
        Kernel::SumInt => (ArrInt, Int),
        Kernel::CountTrue | Kernel::CountFalse => (ArrBool, Int),
        Kernel::NotArray => (ArrBool, ArrBool),
        Kernel::ZipWith(prim) => {
            let result = match prim {
                super::constants::Prim::Eq
                | super::constants::Prim::Lt
                | super::constants::Prim::Le => ArrBool,
                _ => ArrInt,
            };
            (pair(ArrInt, ArrInt), result)
        }
        Kernel::ExpandIndices => (ArrInt, ArrInt),
        Kernel::RepeatIndices => (pair(Int, Int), ArrInt),
        Kernel::RangeIndices => (pair(Int, pair(Int, Int)), ArrInt),
        Kernel::SegmentIndices => (pair(ArrInt, ArrInt), ArrInt),
        Kernel::RankIndices(_) => (pair(ArrInt, ArrBool), ArrInt),
        Kernel::SameLength => (pair(Int, Int), Int),
    }
}

/// Premise `⊢ τ1 ≡ τ2` of rule CONV, used wherever a rule compares types.
fn convertible(
    found: &TypeA,
    expected: &TypeA,
    rule: &'static str,
    what: &str,
) -> Result<(), TypeError> {
    // L05 Fig5.7 CONV
    fire_rule("L05 Fig5.7 CONV");
    if equivalent(found, expected) {
        Ok(())
    } else {
        error(
            rule,
            format!("{what} has type `{found}`, expected `{expected}` (up to ≡)"),
        )
    }
}

fn expect_star(ty: &TypeA, rule: &'static str) -> Result<(), TypeError> {
    match kind_of(&mut Vec::new(), ty) {
        Ok(Kind::Star) => Ok(()),
        Ok(Kind::StarStar) => error(rule, format!("`{ty}` has kind ⋆×⋆, expected ⋆")),
        Err(e) => error(rule, e.0),
    }
}

/// `Γ ⊢_A e : τ` with `Γ ::= · | •:τ`; returns the normalised type.
pub fn type_of(gamma: Option<&TypeA>, e: &ExprA) -> Result<TypeA, TypeError> {
    judge(&mut AbstractionTypes::default(), gamma, e)
}

/// The judgments of abstraction nodes `λ•:τ.e` and `μ•:τ.e`, by node
/// identity. λA has one variable, so an abstraction's body can mention no
/// `•` but its own: its type does not depend on `Γ`, and one judgment of a
/// node holds wherever that node occurs — in a shared subterm, or in the next
/// reduct of a subject-reduction run, which shares all but the path to its
/// redex with this one. Nodes are kept alive so identities stay unique.
#[derive(Default)]
pub struct AbstractionTypes {
    judged: HashMap<usize, (ExprA, Result<TypeA, TypeError>)>,
}

/// `⊢_A e : τ` for a closed term, reusing (and extending) `memo`.
pub fn check_program_sharing(memo: &mut AbstractionTypes, e: &ExprA) -> Result<TypeA, TypeError> {
    judge(memo, None, e)
}

fn judge(
    memo: &mut AbstractionTypes,
    gamma: Option<&TypeA>,
    e: &ExprA,
) -> Result<TypeA, TypeError> {
    if matches!(e.term(), TermA::Lam(..) | TermA::Mu(..)) {
        if let Some((_, judged)) = memo.judged.get(&e.id()) {
            return judged.clone();
        }
        let judged = judge_node(memo, gamma, e);
        memo.judged.insert(e.id(), (e.clone(), judged.clone()));
        return judged;
    }
    judge_node(memo, gamma, e)
}

/// One judgment `Γ ⊢_A e : τ`, a node of the recorded derivation.
fn judge_node(
    memo: &mut AbstractionTypes,
    gamma: Option<&TypeA>,
    e: &ExprA,
) -> Result<TypeA, TypeError> {
    crate::derivation::judgment(None, || judge_rule(memo, gamma, e))
}

/// One rule of Fig. 5.7 at the head of `e`.
fn judge_rule(
    memo: &mut AbstractionTypes,
    gamma: Option<&TypeA>,
    e: &ExprA,
) -> Result<TypeA, TypeError> {
    match e.term() {
        // L05 Fig5.7 INT
        TermA::Int(_) => {
            fire_rule("L05 Fig5.7 INT");
            Ok(TypeA::Int)
        }
        // L05 Fig5.7 BOOL
        TermA::Bool(_) => {
            fire_rule("L05 Fig5.7 BOOL");
            Ok(TypeA::Bool)
        }
        // L05 Fig5.7 UNIT
        TermA::Unit => {
            fire_rule("L05 Fig5.7 UNIT");
            Ok(TypeA::Unit)
        }
        // L05 Fig5.7 ARRINT
        TermA::ArrInt(_) => {
            fire_rule("L05 Fig5.7 ARRINT");
            Ok(TypeA::ArrInt)
        }
        // L05 Fig5.7 ARRBOOL
        TermA::ArrBool(_) => {
            fire_rule("L05 Fig5.7 ARRBOOL");
            Ok(TypeA::ArrBool)
        }
        // L05 Fig5.7 CONST
        TermA::Const(c) => {
            fire_rule("L05 Fig5.7 CONST");
            let (domain, codomain) = constant_type(c)?;
            Ok(TypeA::fun(domain, codomain))
        }
        // L05 Fig5.7 VAR
        TermA::Bullet => {
            fire_rule("L05 Fig5.7 VAR");
            match gamma {
                Some(ty) => Ok(normalise(ty)),
                None => error("VAR", "`•` with an empty context"),
            }
        }
        // L05 Fig5.7 TUP
        TermA::Tuple(a, b) => {
            fire_rule("L05 Fig5.7 TUP");
            Ok(TypeA::prod(judge(memo, gamma, a)?, judge(memo, gamma, b)?))
        }
        // L05 Fig5.7 PROJ
        TermA::Proj(inner, i) => {
            fire_rule("L05 Fig5.7 PROJ");
            match judge(memo, gamma, inner)? {
                TypeA::Prod(a, b) => Ok(if *i == 1 { (*a).clone() } else { (*b).clone() }),
                other => error("PROJ", format!("projection `.{i}` of type `{other}`")),
            }
        }
        // L05 Fig5.7 APP
        TermA::App(function, argument) => {
            fire_rule("L05 Fig5.7 APP");
            let function_type = judge(memo, gamma, function)?;
            let argument_type = judge(memo, gamma, argument)?;
            match function_type {
                TypeA::Fun(domain, codomain) => {
                    convertible(&argument_type, &domain, "APP", "the argument")?;
                    Ok((*codomain).clone())
                }
                other => error("APP", format!("applying a term of type `{other}`")),
            }
        }
        // L05 Fig5.7 LAM
        TermA::Lam(parameter, body) => {
            fire_rule("L05 Fig5.7 LAM");
            expect_star(parameter, "LAM")?;
            let body_type = judge(memo, Some(parameter), body)?;
            Ok(TypeA::fun(normalise(parameter), body_type))
        }
        // L05 Fig5.7 REC
        TermA::Mu(ty, body) => {
            fire_rule("L05 Fig5.7 REC");
            expect_star(ty, "REC")?;
            let body_type = judge(memo, Some(ty), body)?;
            convertible(&body_type, ty, "REC", "the μ body")?;
            Ok(normalise(ty))
        }
        // L05 Fig5.7 CLO
        TermA::Closure(code, types, env) => {
            fire_rule("L05 Fig5.7 CLO");
            let (expected_code, _) = closure_code_type(types);
            convertible(
                &judge(memo, gamma, code)?,
                &expected_code,
                "CLO",
                "the closure code",
            )?;
            convertible(
                &judge(memo, gamma, env)?,
                &flat(&types[0]),
                "CLO",
                "the environment",
            )?;
            Ok(TypeA::clo(flat(&types[1]), flat(&types[2])))
        }
        // L05 Fig5.7 ARRCLO
        TermA::ArrClosure(code, types, env) => {
            fire_rule("L05 Fig5.7 ARRCLO");
            let (expected_code, _) = closure_code_type(types);
            convertible(
                &judge(memo, gamma, code)?,
                &expected_code,
                "ARRCLO",
                "the closure code",
            )?;
            convertible(
                &judge(memo, gamma, env)?,
                &flat_array(&types[0]),
                "ARRCLO",
                "the environment array",
            )?;
            Ok(TypeA::arr_clo(flat_array(&types[1]), flat_array(&types[2])))
        }
        // L05 Fig5.7 CLOAPP
        TermA::CloApp(closure, argument) => {
            fire_rule("L05 Fig5.7 CLOAPP");
            match judge(memo, gamma, closure)? {
                TypeA::Clo(domain, codomain) => {
                    convertible(
                        &judge(memo, gamma, argument)?,
                        &domain,
                        "CLOAPP",
                        "the argument",
                    )?;
                    Ok((*codomain).clone())
                }
                other => error("CLOAPP", format!("† applied to a term of type `{other}`")),
            }
        }
        // L05 Fig5.7 ARRCLOAPP
        TermA::ArrCloApp(closure, argument) => {
            fire_rule("L05 Fig5.7 ARRCLOAPP");
            match judge(memo, gamma, closure)? {
                TypeA::ArrClo(domain, codomain) => {
                    convertible(
                        &judge(memo, gamma, argument)?,
                        &domain,
                        "ARRCLOAPP",
                        "the argument",
                    )?;
                    Ok((*codomain).clone())
                }
                other => error(
                    "ARRCLOAPP",
                    format!("‡ applied to a term of type `{other}`"),
                ),
            }
        }
    }
}

/// The type of closure code `(τ1.1 × τ2.1 → τ3.1) × (Int × (τ1.2 × τ2.2) → τ3.2)`
/// (rules CLO, ARRCLO) and of its lifted half alone.
pub fn closure_code_type(types: &[Type; 3]) -> (TypeA, TypeA) {
    let [t1, t2, t3] = types;
    let vectorised = TypeA::fun(TypeA::prod(flat(t1), flat(t2)), flat(t3));
    let lifted = TypeA::fun(
        flat_array(&Type::prod(t1.clone(), t2.clone())),
        flat_array(t3),
    );
    (TypeA::prod(vectorised, lifted.clone()), lifted)
}

/// `⊢_A e : τ` for a closed term.
pub fn check_program(e: &ExprA) -> Result<TypeA, TypeError> {
    type_of(None, e)
}
