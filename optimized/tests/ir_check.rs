//! The IR type checker: well-typed programs are accepted, and each kind of
//! ill-typedness is rejected with its own message (data-driven through one
//! `check` helper); `run_pass` names the pass and prints the IR.

use optimized::ir::builder::{array, constant, i64c, prim, Builder};
use optimized::ir::*;

/// Checks a program built by `build`; `expected` is `None` for a well-typed
/// program, or a fragment of the error message.
/// Builds a program.
type Build = fn(&mut Builder) -> Program;

fn check(name: &str, build: Build, expected: Option<&str>) {
    let mut b = Builder::new();
    let program = build(&mut b);
    match (check_program(&program), expected) {
        (Ok(()), None) => {}
        (Err(e), Some(fragment)) => assert!(
            e.to_string().contains(fragment),
            "{name}: expected an error containing {fragment:?}, got {e}\n{program}"
        ),
        (Ok(()), Some(fragment)) => {
            panic!("{name}: accepted, expected an error containing {fragment:?}\n{program}")
        }
        (Err(e), None) => panic!("{name}: rejected: {e}\n{program}"),
    }
}

fn program(functions: Vec<Function>) -> Program {
    Program {
        functions,
        entry_points: Vec::new(),
    }
}

fn var(v: &VName) -> SubExp {
    SubExp::Var(v.clone())
}

const F32: PrimType = PrimType::F32;
const I64: PrimType = PrimType::I64;
const BOOL: PrimType = PrimType::Bool;

/// `map (+1) xs` over `[n]f32`, `reduce (+) 0`, and `filter (> 0)`.
fn well_typed_soacs(b: &mut Builder) -> Program {
    let f = b.function(
        "main",
        &[("n", prim(I64)), ("xs", array(F32, []))],
        |_, _| Vec::new(),
    );
    // Rebuild with the real parameter types (they refer to `n`).
    let n = f.params[0].clone();
    let n_dim = var(&n.name);
    let xs = b.param("xs", array(F32, [n_dim.clone()]));
    let body = b.body(|b| {
        let inc = b.lambda(&[prim(F32)], &[prim(F32)], |b, p| {
            vec![b.bind(
                "y",
                prim(F32),
                Exp::BinOp {
                    op: BinOp::Add,
                    ty: F32,
                    left: var(&p[0]),
                    right: constant(1.0f32),
                },
            )]
        });
        let ys = b.bind(
            "ys",
            array(F32, [n_dim.clone()]),
            Exp::Soac(Soac::Map {
                width: n_dim.clone(),
                lambda: inc,
                arrays: vec![xs.name.clone()],
            }),
        );
        let plus = b.binop_lambda(BinOp::Add, F32);
        let total = b.bind(
            "total",
            prim(F32),
            Exp::Soac(Soac::Reduce {
                width: n_dim.clone(),
                lambda: plus,
                neutral: vec![constant(0.0f32)],
                arrays: vec![ys.as_var().unwrap().clone()],
            }),
        );
        let positive = b.lambda(&[prim(F32)], &[prim(BOOL)], |b, p| {
            vec![b.bind(
                "pos",
                prim(BOOL),
                Exp::CmpOp {
                    op: CmpOp::Gt,
                    ty: F32,
                    left: var(&p[0]),
                    right: constant(0.0f32),
                },
            )]
        });
        let kept = b.bind_many(
            &["m", "kept"],
            |names| vec![prim(I64), array(F32, [var(&names[0])])],
            Exp::Soac(Soac::Filter {
                width: n_dim.clone(),
                predicate: positive,
                arrays: vec![xs.name.clone()],
            }),
        );
        vec![total, var(&kept[0]), var(&kept[1])]
    });
    let function = Function {
        name: FunName("main".into()),
        params: vec![n, xs],
        return_types: vec![
            TypeBase::Prim(F32),
            TypeBase::Prim(I64),
            TypeBase::Array {
                element: F32,
                shape: vec![ExtDim::Existential(1)],
            },
        ],
        body,
        span: Span::default(),
    };
    let entry = EntryPoint {
        name: "main".into(),
        function: FunName("main".into()),
        size_parameters: 1,
        parameters: vec![EntryParam {
            name: "xs".into(),
            layout: Layout::Array {
                rank: 1,
                element: Box::new(Layout::Prim(F32)),
            },
        }],
        size_results: 0,
        result: Layout::Tuple(vec![
            Layout::Prim(F32),
            Layout::Prim(I64),
            Layout::Array {
                rank: 1,
                element: Box::new(Layout::Prim(F32)),
            },
        ]),
    };
    Program {
        functions: vec![function],
        entry_points: vec![entry],
    }
}

/// A loop whose carried array changes size (`xs ++ xs` each iteration) and
/// a branch returning arrays of different sizes (existential).
fn well_typed_loop_and_if(b: &mut Builder) -> Program {
    let f = b.function("main", &[("k", prim(I64))], |b, p| {
        let k = var(&p[0]);
        let init = b.bind(
            "init",
            array(I64, [i64c(1)]),
            Exp::Replicate {
                shape: vec![i64c(1)],
                value: i64c(7),
            },
        );
        let len = b.param("len", prim(I64));
        let acc = b.param("acc", array(I64, [var(&len.name)]));
        let index = b.name("i");
        let body = b.body(|b| {
            let doubled = b.bind(
                "doubled",
                prim(I64),
                Exp::BinOp {
                    op: BinOp::Mul,
                    ty: I64,
                    left: var(&len.name),
                    right: i64c(2),
                },
            );
            let both = b.bind(
                "both",
                array(I64, [doubled.clone()]),
                Exp::Concat {
                    arrays: vec![acc.name.clone(), acc.name.clone()],
                    length: doubled.clone(),
                },
            );
            vec![doubled, both]
        });
        let out = b.bind_many(
            &["final_len", "final"],
            |n| vec![prim(I64), array(I64, [var(&n[0])])],
            Exp::Loop {
                params: vec![(len, i64c(1)), (acc, init)],
                form: LoopForm::For {
                    index,
                    bound: k.clone(),
                },
                body,
            },
        );
        let positive = b.bind(
            "positive",
            prim(BOOL),
            Exp::CmpOp {
                op: CmpOp::Gt,
                ty: I64,
                left: k.clone(),
                right: i64c(0),
            },
        );
        let (final_len, final_array) = (out[0].clone(), out[1].clone());
        let then_body = b.body(|_| vec![var(&final_len), var(&final_array)]);
        let else_body = b.body(|b| {
            let empty = b.bind(
                "empty",
                array(I64, [i64c(0)]),
                Exp::ArrayLiteral {
                    elements: vec![],
                    row_type: prim(I64),
                },
            );
            vec![i64c(0), empty]
        });
        let chosen = b.bind_many(
            &["m", "chosen"],
            |n| vec![prim(I64), array(I64, [var(&n[0])])],
            Exp::If {
                condition: positive,
                then_body,
                else_body,
                types: vec![
                    TypeBase::Prim(I64),
                    TypeBase::Array {
                        element: I64,
                        shape: vec![ExtDim::Existential(0)],
                    },
                ],
            },
        );
        vec![var(&chosen[0])]
    });
    program(vec![f])
}

/// `f(xs)` returning an existential size from a callee.
fn well_typed_apply(b: &mut Builder) -> Program {
    let callee = b.function_with_returns(
        "positives",
        &[("n", prim(I64))],
        vec![
            TypeBase::Prim(I64),
            TypeBase::Array {
                element: I64,
                shape: vec![ExtDim::Existential(0)],
            },
        ],
        |b, p| {
            let n = var(&p[0]);
            let xs = b.bind("xs", array(I64, [n.clone()]), b.iota(n.clone()));
            let keep = b.lambda(&[prim(I64)], &[prim(BOOL)], |b, q| {
                vec![b.bind(
                    "odd",
                    prim(BOOL),
                    Exp::CmpOp {
                        op: CmpOp::Gt,
                        ty: I64,
                        left: var(&q[0]),
                        right: i64c(2),
                    },
                )]
            });
            let out = b.bind_many(
                &["m", "ys"],
                |names| vec![prim(I64), array(I64, [var(&names[0])])],
                Exp::Soac(Soac::Filter {
                    width: n,
                    predicate: keep,
                    arrays: vec![xs.as_var().unwrap().clone()],
                }),
            );
            vec![var(&out[0]), var(&out[1])]
        },
    );
    let caller = b.function("main", &[], |b, _| {
        let out = b.bind_many(
            &["len", "arr"],
            |names| vec![prim(I64), array(I64, [var(&names[0])])],
            Exp::Apply {
                function: FunName("positives".into()),
                args: vec![i64c(10)],
            },
        );
        vec![var(&out[0]), var(&out[1])]
    });
    program(vec![callee, caller])
}

/// One function `main(xs: [3]f32)` whose body is built by `f`.
fn with_xs(b: &mut Builder, f: impl FnOnce(&mut Builder, &VName) -> Vec<SubExp>) -> Program {
    let fun = b.function("main", &[("xs", array(F32, [i64c(3)]))], |b, p| f(b, &p[0]));
    program(vec![fun])
}

#[test]
fn well_typed_programs_are_accepted() {
    check("soacs", well_typed_soacs, None);
    check("loop and if", well_typed_loop_and_if, None);
    check("apply", well_typed_apply, None);
}

#[test]
fn each_kind_of_ill_typedness_is_rejected() {
    let cases: Vec<(&str, Build, &str)> = vec![
        (
            "unbound variable",
            |b| {
                let ghost = b.name("ghost");
                with_xs(b, |_, _| vec![var(&ghost)])
            },
            "ghost_0 is not in scope",
        ),
        (
            "bound twice",
            |b| {
                with_xs(b, |b, xs| {
                    let p = Param {
                        name: xs.clone(),
                        ty: array(F32, [i64c(3)]),
                    };
                    b.statement(vec![p], Exp::SubExp(var(xs)));
                    vec![]
                })
            },
            "is bound twice",
        ),
        (
            "operand type",
            |b| {
                with_xs(b, |b, _| {
                    vec![b.bind(
                        "s",
                        prim(I64),
                        Exp::BinOp {
                            op: BinOp::Add,
                            ty: I64,
                            left: i64c(1),
                            right: constant(1.0f32),
                        },
                    )]
                })
            },
            "has type f32, expected i64",
        ),
        (
            "operator not defined on type",
            |b| {
                with_xs(b, |b, _| {
                    vec![b.bind(
                        "s",
                        prim(F32),
                        Exp::BinOp {
                            op: BinOp::Shl,
                            ty: F32,
                            left: constant(1.0f32),
                            right: constant(1.0f32),
                        },
                    )]
                })
            },
            "shl is not defined on f32",
        ),
        (
            "pattern type",
            |b| {
                with_xs(b, |b, _| {
                    vec![b.bind(
                        "s",
                        prim(F32),
                        Exp::BinOp {
                            op: BinOp::Add,
                            ty: I64,
                            left: i64c(1),
                            right: i64c(2),
                        },
                    )]
                })
            },
            "is declared f32, but the expression returns i64",
        ),
        (
            "pattern arity",
            |b| {
                with_xs(b, |b, _| {
                    b.bind_many(
                        &["a", "b"],
                        |_| vec![prim(I64), prim(I64)],
                        Exp::SubExp(i64c(1)),
                    );
                    vec![]
                })
            },
            "the pattern binds 2 values, the expression returns 1",
        ),
        (
            "dimension of a non-i64 type",
            |b| {
                with_xs(b, |b, _| {
                    vec![b.bind(
                        "r",
                        array(I64, [constant(2.0f32)]),
                        Exp::Replicate {
                            shape: vec![constant(2.0f32)],
                            value: i64c(0),
                        },
                    )]
                })
            },
            "not a non-negative i64",
        ),
        (
            "map width differs from the array's outer size",
            |b| {
                with_xs(b, |b, xs| {
                    let id = b.lambda(&[prim(F32)], &[prim(F32)], |_, p| vec![var(&p[0])]);
                    vec![b.bind(
                        "ys",
                        array(F32, [i64c(4)]),
                        Exp::Soac(Soac::Map {
                            width: i64c(4),
                            lambda: id,
                            arrays: vec![xs.clone()],
                        }),
                    )]
                })
            },
            "but the SOAC's width is 4",
        ),
        (
            "map lambda arity",
            |b| {
                with_xs(b, |b, xs| {
                    let two = b.lambda(&[prim(F32), prim(F32)], &[prim(F32)], |_, p| {
                        vec![var(&p[0])]
                    });
                    vec![b.bind(
                        "ys",
                        array(F32, [i64c(3)]),
                        Exp::Soac(Soac::Map {
                            width: i64c(3),
                            lambda: two,
                            arrays: vec![xs.clone()],
                        }),
                    )]
                })
            },
            "the map lambda takes {f32, f32}, expected {f32}",
        ),
        (
            "lambda body differs from its return type",
            |b| {
                with_xs(b, |b, xs| {
                    let bad = b.lambda(&[prim(F32)], &[prim(I64)], |_, p| vec![var(&p[0])]);
                    vec![b.bind(
                        "ys",
                        array(I64, [i64c(3)]),
                        Exp::Soac(Soac::Map {
                            width: i64c(3),
                            lambda: bad,
                            arrays: vec![xs.clone()],
                        }),
                    )]
                })
            },
            "the lambda: result 0",
        ),
        (
            "reduce operator is not (a, a) -> a",
            |b| {
                with_xs(b, |b, xs| {
                    let bad = b.lambda(&[prim(F32), prim(I64)], &[prim(F32)], |_, p| {
                        vec![var(&p[0])]
                    });
                    vec![b.bind(
                        "s",
                        prim(F32),
                        Exp::Soac(Soac::Reduce {
                            width: i64c(3),
                            lambda: bad,
                            neutral: vec![constant(0.0f32)],
                            arrays: vec![xs.clone()],
                        }),
                    )]
                })
            },
            "the operator takes {f32, i64}, expected {f32, f32}",
        ),
        (
            "reduce neutral element type",
            |b| {
                with_xs(b, |b, xs| {
                    let plus = b.binop_lambda(BinOp::Add, F32);
                    vec![b.bind(
                        "s",
                        prim(F32),
                        Exp::Soac(Soac::Reduce {
                            width: i64c(3),
                            lambda: plus,
                            neutral: vec![i64c(0)],
                            arrays: vec![xs.clone()],
                        }),
                    )]
                })
            },
            "0i64 has type i64, expected f32",
        ),
        (
            "scan input rows differ from the operator",
            |b| {
                with_xs(b, |b, xs| {
                    let plus = b.binop_lambda(BinOp::Add, I64);
                    vec![b.bind(
                        "s",
                        array(I64, [i64c(3)]),
                        Exp::Soac(Soac::Scan {
                            width: i64c(3),
                            lambda: plus,
                            neutral: vec![i64c(0)],
                            arrays: vec![xs.clone()],
                        }),
                    )]
                })
            },
            "the input rows has types {f32}, expected {i64}",
        ),
        (
            "filter predicate does not return bool",
            |b| {
                with_xs(b, |b, xs| {
                    let id = b.lambda(&[prim(F32)], &[prim(F32)], |_, p| vec![var(&p[0])]);
                    let out = b.bind_many(
                        &["m", "ys"],
                        |n| vec![prim(I64), array(F32, [var(&n[0])])],
                        Exp::Soac(Soac::Filter {
                            width: i64c(3),
                            predicate: id,
                            arrays: vec![xs.clone()],
                        }),
                    );
                    vec![var(&out[0]), var(&out[1])]
                })
            },
            "the filter predicate's result has types {f32}, expected {bool}",
        ),
        (
            "scatter values differ from the destination rows",
            |b| {
                with_xs(b, |b, xs| {
                    let is = b.bind("is", array(I64, [i64c(3)]), b.iota(i64c(3)));
                    vec![b.bind(
                        "d",
                        array(F32, [i64c(3)]),
                        Exp::Soac(Soac::Scatter {
                            width: i64c(3),
                            destinations: vec![xs.clone()],
                            indices: is.as_var().unwrap().clone(),
                            values: vec![is.as_var().unwrap().clone()],
                        }),
                    )]
                })
            },
            "the scattered values' rows has types {i64}, expected {f32}",
        ),
        (
            "function result differs from the declared return type",
            |b| {
                let f = b.function_with_returns("main", &[], vec![TypeBase::Prim(F32)], |_, _| {
                    vec![i64c(1)]
                });
                program(vec![f])
            },
            "the body of main: result 0 (1i64) has type i64, expected f32",
        ),
        (
            "branches of different types",
            |b| {
                with_xs(b, |b, _| {
                    let then_body = b.body(|_| vec![i64c(1)]);
                    let else_body = b.body(|_| vec![constant(true)]);
                    vec![b.bind(
                        "r",
                        prim(I64),
                        Exp::If {
                            condition: constant(true),
                            then_body,
                            else_body,
                            types: vec![TypeBase::Prim(I64)],
                        },
                    )]
                })
            },
            "the else branch: result 0 (true) has type bool, expected i64",
        ),
        (
            "loop body returns the wrong type",
            |b| {
                with_xs(b, |b, _| {
                    let acc = b.param("acc", prim(I64));
                    let i = b.name("i");
                    let body = b.body(|_| vec![constant(1.0f32)]);
                    vec![b.bind(
                        "r",
                        prim(I64),
                        Exp::Loop {
                            params: vec![(acc, i64c(0))],
                            form: LoopForm::For {
                                index: i,
                                bound: i64c(3),
                            },
                            body,
                        },
                    )]
                })
            },
            "the loop body: result 0",
        ),
        (
            "call of an unknown function",
            |b| {
                with_xs(b, |b, _| {
                    vec![b.bind(
                        "r",
                        prim(I64),
                        Exp::Apply {
                            function: FunName("nowhere".into()),
                            args: vec![],
                        },
                    )]
                })
            },
            "call of unknown function nowhere",
        ),
        (
            "call with an argument of the wrong type",
            |b| {
                let callee = b.function("id", &[("x", prim(I64))], |_, p| vec![var(&p[0])]);
                let main = b.function("main", &[], |b, _| {
                    vec![b.bind(
                        "r",
                        prim(I64),
                        Exp::Apply {
                            function: FunName("id".into()),
                            args: vec![constant(true)],
                        },
                    )]
                });
                program(vec![callee, main])
            },
            "argument true of id has type bool, expected i64",
        ),
        (
            "too many indices",
            |b| {
                with_xs(b, |b, xs| {
                    vec![b.bind(
                        "r",
                        prim(F32),
                        Exp::Index {
                            array: xs.clone(),
                            indices: vec![i64c(0), i64c(0)],
                        },
                    )]
                })
            },
            "2 indices into xs_0 of rank 1",
        ),
        (
            "not a permutation",
            |b| {
                with_xs(b, |b, xs| {
                    vec![b.bind(
                        "r",
                        array(F32, [i64c(3)]),
                        Exp::Rearrange {
                            permutation: vec![1],
                            array: xs.clone(),
                        },
                    )]
                })
            },
            "is not a permutation",
        ),
        (
            "existential size that is not an i64 result",
            |b| {
                let f = b.function_with_returns(
                    "main",
                    &[],
                    vec![
                        TypeBase::Prim(F32),
                        TypeBase::Array {
                            element: F32,
                            shape: vec![ExtDim::Existential(0)],
                        },
                    ],
                    |_, _| vec![],
                );
                program(vec![f])
            },
            "existential dimension ?0 does not refer to an i64 result",
        ),
        (
            "entry point layout differs from the function",
            |b| {
                let f = b.function("main", &[("x", prim(I64))], |_, p| vec![var(&p[0])]);
                Program {
                    functions: vec![f],
                    entry_points: vec![EntryPoint {
                        name: "main".into(),
                        function: FunName("main".into()),
                        size_parameters: 0,
                        parameters: vec![EntryParam {
                            name: "x".into(),
                            layout: Layout::Prim(F32),
                        }],
                        size_results: 0,
                        result: Layout::Prim(I64),
                    }],
                }
            },
            "the parameters' layouts flatten to {f32}, but main takes {i64}",
        ),
        (
            "assert on a non-bool",
            |b| {
                with_xs(b, |b, _| {
                    b.statement(
                        vec![],
                        Exp::Assert {
                            condition: i64c(1),
                            message: "m".into(),
                            operands: Vec::new(),
                            span: Span::default(),
                        },
                    );
                    vec![]
                })
            },
            "1i64 has type i64, expected bool",
        ),
        (
            "assert message with more placeholders than operands",
            |b| {
                with_xs(b, |b, _| {
                    b.statement(
                        vec![],
                        Exp::Assert {
                            condition: constant(true),
                            message: "Range {value}..{value} is invalid.".into(),
                            operands: vec![i64c(1)],
                            span: Span::default(),
                        },
                    );
                    vec![]
                })
            },
            "has 1 operands for its placeholders",
        ),
        (
            "assert operand not in scope",
            |b| {
                with_xs(b, |b, _| {
                    let ghost = b.name("ghost");
                    b.statement(
                        vec![],
                        Exp::Assert {
                            condition: constant(true),
                            message: "{number}".into(),
                            operands: vec![var(&ghost)],
                            span: Span::default(),
                        },
                    );
                    vec![]
                })
            },
            "ghost",
        ),
    ];
    for (name, build, fragment) in cases {
        check(name, build, Some(fragment));
    }
}

#[test]
fn run_pass_names_the_pass_and_prints_the_ir() {
    let mut b = Builder::new();
    let good = well_typed_apply(&mut b);
    let mut manager = PassManager::new();
    let same = manager
        .run("identity", good.clone(), |p| p)
        .expect("a well-typed program");
    assert_eq!(same, good);
    assert_eq!(manager.passes_run(), ["identity".to_string()]);
    let broken = manager.run("drop-callee", good, |mut p| {
        p.functions.remove(0);
        p
    });
    let error = broken.expect_err("the callee is gone").to_string();
    assert!(error.contains("`drop-callee`"), "{error}");
    assert!(
        error.contains("call of unknown function positives"),
        "{error}"
    );
    assert!(
        error.contains("fun main ()"),
        "the printed IR is included: {error}"
    );
}

#[test]
fn the_printer_shows_types_soacs_and_existentials() {
    let mut b = Builder::new();
    let text = well_typed_soacs(&mut b).to_string();
    insta::assert_snapshot!(text);
}
