//! Theorems 1–2 and Corollary 1 (and Lemmas 1–4) on generated programs: a
//! type-directed generator builds well-typed core programs of the paper's
//! calculus (integers, booleans, functions of first and second order,
//! records holding functions, arrays, `map`, `loop`, indexing that may fail);
//! each is compiled (Theorem 1 is checked there) and run (Theorem 2 and
//! Corollary 1, against both the inlining and the lifting translation).

use reference::core::syntax::{
    BinOp, EntryPoint, Expr, ExprKind, Lambda, LoopForm, PrimValue, Program, Type, ValueDec,
};
use reference::core::theorems::RunError;
use reference::front::pipeline::{compile_core, Options};
use std::rc::Rc;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn int() -> Type {
    Type::Prim(reference::core::syntax::PrimType::I32)
}
fn fun(a: Type, b: Type) -> Type {
    Type::arrow(a, b)
}
fn e(kind: ExprKind) -> Expr {
    Expr::new(kind, Default::default())
}
fn lit(n: i32) -> Expr {
    e(ExprKind::Literal(PrimValue::I32(n)))
}
fn var(x: &str) -> Expr {
    Expr::var(x, Default::default())
}

struct Gen {
    rng: Rng,
    counter: usize,
}

impl Gen {
    fn fresh(&mut self) -> String {
        self.counter += 1;
        format!("x{}", self.counter)
    }

    /// A variable of type `t` from the environment, if any.
    fn var_of(&mut self, env: &[(String, Type)], t: &Type) -> Option<Expr> {
        let candidates: Vec<&String> = env.iter().filter(|(_, u)| u == t).map(|(x, _)| x).collect();
        if candidates.is_empty() {
            return None;
        }
        let i = self.rng.below(candidates.len() as u64) as usize;
        Some(var(candidates[i]))
    }

    fn lambda(&mut self, env: &[(String, Type)], from: Type, to: &Type, depth: u32) -> Expr {
        let x = self.fresh();
        let mut inner = env.to_vec();
        inner.push((x.clone(), from.clone()));
        let body = self.gen(&inner, to, depth - 1);
        e(ExprKind::Lambda(Rc::new(Lambda {
            param: x,
            param_type: from,
            body,
            param_uniqueness: Default::default(),
            result_uniqueness: Default::default(),
        })))
    }

    /// An expression of type `t`.
    fn gen(&mut self, env: &[(String, Type)], t: &Type, depth: u32) -> Expr {
        if depth == 0 || self.rng.below(6) == 0 {
            if let Some(v) = self.var_of(env, t) {
                return v;
            }
        }
        let depth = depth.max(1);
        // Forms every type has: let, application of a function to an int.
        match self.rng.below(8) {
            0 if depth > 1 => {
                let ts = [int(), fun(int(), int()), Type::array(int())];
                let u = ts[self.rng.below(3) as usize].clone();
                let value = self.gen(env, &u, depth - 1);
                let x = self.fresh();
                let mut inner = env.to_vec();
                inner.push((x.clone(), u));
                let body = self.gen(&inner, t, depth - 1);
                return e(ExprKind::Let {
                    name: x,
                    value: value.boxed(),
                    body: body.boxed(),
                });
            }
            1 if depth > 1 => {
                let f = self.gen(env, &fun(int(), t.clone()), depth - 1);
                let a = self.gen(env, &int(), depth - 1);
                return e(ExprKind::Apply {
                    function: f.boxed(),
                    argument: a.boxed(),
                });
            }
            2 if depth > 1 => {
                // A record holding a value of type t, projected.
                let field = self.gen(env, t, depth - 1);
                let other = self.gen(env, &fun(int(), int()), depth - 1);
                return e(ExprKind::Project {
                    record: e(ExprKind::Record(vec![
                        ("a".into(), field),
                        ("g".into(), other),
                    ]))
                    .boxed(),
                    label: "a".into(),
                });
            }
            _ => {}
        }
        match t {
            Type::Prim(reference::core::syntax::PrimType::Bool) => {
                if depth > 1 && self.rng.below(2) == 0 {
                    let a = self.gen(env, &int(), depth - 1);
                    let b = self.gen(env, &int(), depth - 1);
                    e(ExprKind::BinOp {
                        op: BinOp::Le,
                        lhs: a.boxed(),
                        rhs: b.boxed(),
                    })
                } else {
                    e(ExprKind::Literal(PrimValue::Bool(self.rng.below(2) == 0)))
                }
            }
            Type::Prim(_) => match self.rng.below(6) {
                0 if depth > 1 => {
                    let a = self.gen(env, t, depth - 1);
                    let b = self.gen(env, t, depth - 1);
                    e(ExprKind::BinOp {
                        op: BinOp::Add,
                        lhs: a.boxed(),
                        rhs: b.boxed(),
                    })
                }
                1 if depth > 1 => {
                    let c = self.gen(env, &Type::bool(), depth - 1);
                    let a = self.gen(env, t, depth - 1);
                    let b = self.gen(env, t, depth - 1);
                    e(ExprKind::If {
                        condition: c.boxed(),
                        then_branch: a.boxed(),
                        else_branch: b.boxed(),
                    })
                }
                2 if depth > 1 => {
                    // Indexing, possibly out of bounds.
                    let a = self.gen(env, &Type::array(int()), depth - 1);
                    let i = e(ExprKind::Literal(PrimValue::I64(self.rng.below(4) as i64)));
                    e(ExprKind::Index {
                        array: a.boxed(),
                        index: i.boxed(),
                    })
                }
                3 if depth > 1 => {
                    let init = self.gen(env, t, depth - 1);
                    let array = self.gen(env, &Type::array(int()), depth - 1);
                    let (x, y) = (self.fresh(), self.fresh());
                    let mut inner = env.to_vec();
                    inner.push((x.clone(), t.clone()));
                    inner.push((y.clone(), int()));
                    let body = self.gen(&inner, t, depth - 1);
                    e(ExprKind::Loop {
                        param: x,
                        param_uniqueness: Default::default(),
                        init: init.boxed(),
                        form: LoopForm::ForIn {
                            var: y,
                            array: array.boxed(),
                        },
                        body: body.boxed(),
                    })
                }
                4 if depth > 1 => {
                    // A second-order function applied to a λ.
                    let h = self.gen(env, &fun(fun(int(), int()), int()), depth - 1);
                    let f = self.lambda(env, int(), &int(), depth);
                    e(ExprKind::Apply {
                        function: h.boxed(),
                        argument: f.boxed(),
                    })
                }
                _ => lit(self.rng.below(10) as i32 - 3),
            },
            Type::Arrow(from, to) => match self.rng.below(3) {
                0 if depth > 1 && !matches!(**to, Type::Arrow(..)) => {
                    // Choose by a condition *outside* the λ (no function from if).
                    let c = self.gen(env, &Type::bool(), depth - 1);
                    let x = self.fresh();
                    let mut inner = env.to_vec();
                    inner.push((x.clone(), (**from).clone()));
                    let a = self.gen(&inner, to, depth - 1);
                    let b = self.gen(&inner, to, depth - 1);
                    e(ExprKind::Lambda(Rc::new(Lambda {
                        param: x,
                        param_type: (**from).clone(),
                        body: e(ExprKind::If {
                            condition: c.boxed(),
                            then_branch: a.boxed(),
                            else_branch: b.boxed(),
                        }),
                        param_uniqueness: Default::default(),
                        result_uniqueness: Default::default(),
                    })))
                }
                _ => self.lambda(env, (**from).clone(), to, depth),
            },
            Type::Array(elem) => match self.rng.below(3) {
                0 if depth > 1 => {
                    let a = self.gen(env, t, depth - 1);
                    let x = self.fresh();
                    let mut inner = env.to_vec();
                    inner.push((x.clone(), (**elem).clone()));
                    let body = self.gen(&inner, elem, depth - 1);
                    e(ExprKind::Map {
                        param: x,
                        body: body.boxed(),
                        array: a.boxed(),
                    })
                }
                1 if depth > 1 => {
                    // The updated array is made fresh by an identity `map`
                    // (proofs-notes/uniqueness.md: an update consumes its
                    // target, which must be consumable).
                    let generated = self.gen(env, t, depth - 1);
                    let x = self.fresh();
                    let a = e(ExprKind::Map {
                        param: x.clone(),
                        body: e(ExprKind::Var {
                            name: x,
                            type_args: vec![],
                        })
                        .boxed(),
                        array: generated.boxed(),
                    });
                    let v = self.gen(env, elem, depth - 1);
                    let i = e(ExprKind::Literal(PrimValue::I64(self.rng.below(3) as i64)));
                    e(ExprKind::Update {
                        array: a.boxed(),
                        index: i.boxed(),
                        value: v.boxed(),
                    })
                }
                _ => {
                    let n = 1 + self.rng.below(3);
                    let elements = (0..n).map(|_| self.gen(env, elem, depth - 1)).collect();
                    e(ExprKind::Array {
                        elements,
                        elem_type: (**elem).clone(),
                    })
                }
            },
            other => panic!("no generator for {other:?}"),
        }
    }
}

#[test]
fn theorems_hold_on_generated_programs() {
    let mut errors = 0;
    for seed in 1..=2000u64 {
        let mut g = Gen {
            rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            counter: 0,
        };
        let result_type = if seed % 3 == 0 {
            Type::array(int())
        } else {
            int()
        };
        // A top-level higher-order function, then main using it.
        let helper_type = fun(fun(int(), int()), int());
        let helper = g.gen(&[], &helper_type, 4);
        let env = vec![("helper".to_string(), helper_type.clone())];
        let body = g.gen(&env, &result_type, 6);
        let program = Program {
            decs: vec![
                ValueDec {
                    name: "helper".into(),
                    type_params: vec![],
                    ty: helper_type,
                    param_count: 0,
                    value: helper,
                    span: Default::default(),
                },
                ValueDec {
                    name: "main".into(),
                    type_params: vec![],
                    ty: result_type.clone(),
                    param_count: 0,
                    value: body,
                    span: Default::default(),
                },
            ],
            entries: vec![EntryPoint {
                name: "main".into(),
                param_types: vec![],
                result_type,
                span: Default::default(),
            }],
        };
        let compiled = match compile_core(program.clone(), Options::default()) {
            Ok(c) => c,
            Err(d) => panic!("seed {seed}: {}\n{program:#?}", d.message),
        };
        match compiled.run("main", &[]) {
            Ok(_) => {}
            Err(RunError::Runtime(_)) => errors += 1,
            Err(other) => panic!("seed {seed}: {other:?}\n{program:#?}"),
        }
    }
    // Some programs fail with an index error: the error rules are exercised.
    assert!(errors > 0 && errors < 2000, "{errors} of 2000 runs failed");
}
