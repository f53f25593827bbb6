//! Control flow: `match`, bounded loops (`for`, `for in`, counted `while`)
//! and `M.(e)`.

use super::super::build::*;
use super::super::env::Env;
use super::super::mutate::MutationKind;
use super::super::types::*;
use super::super::Generator;
use spec::syntax::ast::*;
use spec::value::PrimType;

impl Generator {
    pub(crate) fn match_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let sums: Vec<Ty> = env
            .sum_types
            .iter()
            .filter(|t| env.inhabited(t))
            .cloned()
            .collect();
        let form = self
            .choices
            .weighted(&[2, if sums.is_empty() { 0 } else { 4 }, 1]);
        match form {
            1 => {
                let index = self.choices.below(sums.len() as u32) as usize;
                let sum = sums[index].clone();
                let Ty::Sum { constructors, .. } = &sum else {
                    unreachable!()
                };
                let scrutinee = self.expr(env, &sum, depth);
                let mut cases = Vec::new();
                let wildcard_after = if constructors.len() > 1 && self.choices.chance(1, 3) {
                    self.choices.range(1, constructors.len() as u32 - 1) as usize
                } else {
                    constructors.len()
                };
                for (name, payload) in constructors.iter().take(wildcard_after) {
                    let mark = env.mark();
                    let mut patterns = Vec::new();
                    for part in payload {
                        if self.choices.chance(1, 5) {
                            patterns.push(Pat::Wildcard { span: span() });
                        } else {
                            let variable = self.fresh("v");
                            env.bind(&variable, part.clone(), matches!(part, Ty::Prim(_)));
                            patterns.push(pat_var(&variable));
                        }
                    }
                    let body = self.expr(env, ty, depth);
                    env.truncate(mark);
                    cases.push(MatchCase {
                        pat: Pat::Constructor {
                            name: name.clone(),
                            payload: patterns,
                            span: span(),
                        },
                        body,
                        span: span(),
                    });
                }
                if wildcard_after < constructors.len() {
                    let body = self.expr(env, ty, depth);
                    cases.push(MatchCase {
                        pat: Pat::Wildcard { span: span() },
                        body,
                        span: span(),
                    });
                }
                if self.mutation_site(MutationKind::UnknownConstructor) {
                    let body = self.leaf(env, ty);
                    cases.insert(
                        0,
                        MatchCase {
                            pat: Pat::Constructor {
                                name: "not_a_constructor".to_string(),
                                payload: Vec::new(),
                                span: span(),
                            },
                            body,
                            span: span(),
                        },
                    );
                }
                Expr::Match {
                    scrutinee: Box::new(scrutinee),
                    cases,
                    span: span(),
                }
            }
            2 => {
                let first = self.random_type(env, false, 0);
                let second = self.random_type(env, false, 0);
                let scrutinee =
                    self.expr(env, &Ty::Tuple(vec![first.clone(), second.clone()]), depth);
                let mark = env.mark();
                let a = self.fresh("v");
                let b = self.fresh("v");
                env.bind(&a, first.clone(), matches!(first, Ty::Prim(_)));
                env.bind(&b, second.clone(), matches!(second, Ty::Prim(_)));
                let body = self.expr(env, ty, depth);
                env.truncate(mark);
                Expr::Match {
                    scrutinee: Box::new(scrutinee),
                    cases: vec![MatchCase {
                        pat: Pat::Tuple {
                            elements: vec![pat_var(&a), pat_var(&b)],
                            span: span(),
                        },
                        body,
                        span: span(),
                    }],
                    span: span(),
                }
            }
            _ => {
                let prim = if self.choices.chance(1, 3) {
                    PrimType::Bool
                } else {
                    PrimType::I32
                };
                let scrutinee = self.expr(env, &Ty::Prim(prim), depth);
                let mut cases = Vec::new();
                let literal_cases = self.choices.range(1, 2);
                for k in 0..literal_cases {
                    let literal = match prim {
                        PrimType::Bool => Literal::Bool(k == 1),
                        _ => Literal::Int {
                            value: u64::from(k),
                            suffix: Some(IntType::I32),
                        },
                    };
                    let body = self.expr(env, ty, depth);
                    cases.push(MatchCase {
                        pat: Pat::Literal {
                            negative: false,
                            literal,
                            span: span(),
                        },
                        body,
                        span: span(),
                    });
                }
                let body = self.expr(env, ty, depth);
                cases.push(MatchCase {
                    pat: Pat::Wildcard { span: span() },
                    body,
                    span: span(),
                });
                Expr::Match {
                    scrutinee: Box::new(scrutinee),
                    cases,
                    span: span(),
                }
            }
        }
    }

    /// A bounded loop: `for i < k` with a small constant `k`, `for x in xs`,
    /// or `while` with a counter that stops after a constant number of rounds.
    pub(crate) fn loop_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let init = self.expr(env, ty, depth);
        let accumulator = self.fresh("acc");
        let mark = env.mark();
        let form = self.choices.weighted(&[3, 2, 1]);
        let (pat, init, form, body) = match form {
            0 => {
                let counter = self.fresh("i");
                let bound = u64::from(self.choices.range(1, 4));
                env.bind(&accumulator, ty.clone(), false);
                env.bind(&counter, i64_ty(), false);
                env.index_bases.push(counter.clone());
                let body = self.expr(env, ty, depth);
                (
                    pat_ascribe(pat_var(&accumulator), env.type_exp(ty)),
                    init,
                    LoopForm::For {
                        var: counter,
                        var_span: span(),
                        bound: Box::new(i64_literal(bound)),
                    },
                    body,
                )
            }
            1 => {
                let element = self.random_type(env, true, 0);
                let xs = self.expr(env, &array(Size::Unknown, element.clone()), depth);
                let item = self.fresh("e");
                env.bind(&accumulator, ty.clone(), false);
                env.bind(&item, element, false);
                let body = self.expr(env, ty, depth);
                (
                    pat_var(&accumulator),
                    init,
                    LoopForm::ForIn {
                        pat: pat_var(&item),
                        array: Box::new(xs),
                    },
                    body,
                )
            }
            _ => {
                let counter = self.fresh("c");
                let rounds = u64::from(self.choices.range(1, 4));
                env.bind(&accumulator, ty.clone(), false);
                env.bind(&counter, i32_ty(), false);
                let step = self.expr(env, ty, depth);
                let next = binop("+", var(&counter), literal(PrimType::I32, 1));
                (
                    Pat::Tuple {
                        elements: vec![
                            pat_ascribe(pat_var(&accumulator), env.type_exp(ty)),
                            pat_var(&counter),
                        ],
                        span: span(),
                    },
                    tuple(vec![init, literal(PrimType::I32, 0)]),
                    LoopForm::While {
                        condition: Box::new(binop(
                            "<",
                            var(&counter),
                            literal(PrimType::I32, rounds),
                        )),
                    },
                    tuple(vec![step, next]),
                )
            }
        };
        env.truncate(mark);
        let is_while = matches!(form, LoopForm::While { .. });
        let looped = Expr::Loop {
            pat,
            init: Some(Box::new(init)),
            form,
            body: Box::new(body),
            span: span(),
        };
        if is_while {
            // The loop returns (accumulator, counter): keep the accumulator.
            Expr::Project {
                expr: Box::new(looped),
                field: "0".to_string(),
                span: span(),
            }
        } else {
            looped
        }
    }

    pub(crate) fn open_in(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let index = self.choices.below(env.structures.len() as u32) as usize;
        let structure = env.structures[index].clone();
        let mark = env.mark();
        for (name, scheme) in &structure.values {
            env.bind_scheme(Vec::new(), name, scheme.clone());
        }
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let (name, qualifiers) = structure.path.split_last().expect("structure path");
        Expr::OpenIn {
            module: qual(qualifiers, name),
            body: Box::new(body),
            span: span(),
        }
    }
}
