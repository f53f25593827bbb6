//! The optimisation passes, data-driven through one `check` helper: each
//! case is a small IR program (built with the IR builder), a pass (or the
//! default pipeline), inputs (some of which make the program fail), and
//! counts of constructs before and after the pass. `check` snapshots the IR
//! before and after, runs both programs on the CPU backend on every input
//! and requires the same value or the same error (message and span), and
//! compares the counts (so fusion, folding, … must actually fire).

use optimized::cpu::run_entry;
use optimized::ir::builder::{array, constant, i64c, prim, Builder};
use optimized::ir::*;
use optimized::passes::{self, fusion, hoisting, index_fusion, inline, simplify, unroll, Pass};
use spec::source::FileId;
use spec::value::{Array, Value};

const I64: PrimType = PrimType::I64;
const BOOL: PrimType = PrimType::Bool;
const F64: PrimType = PrimType::F64;

type Build = fn(&mut Builder) -> Program;

struct Case {
    name: &'static str,
    build: Build,
    passes: Vec<Pass>,
    /// Arguments of `main`: `(xs, k)`.
    inputs: Vec<(Vec<i64>, i64)>,
    /// `(construct, count)` in the program before the passes.
    before: &'static [(&'static str, usize)],
    /// `(construct, count)` after.
    after: &'static [(&'static str, usize)],
}

fn check(case: Case) {
    let mut b = Builder::new();
    let before = (case.build)(&mut b);
    if let Err(e) = check_program(&before) {
        panic!(
            "{}: the input program is ill-typed: {e}\n{before}",
            case.name
        );
    }
    let after = passes::run_passes(before.clone(), &case.passes)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    insta::assert_snapshot!(
        case.name,
        format!("--- before ---\n{before}\n--- after ---\n{after}")
    );
    for (kind, expected) in case.before {
        assert_eq!(
            count(&before, kind),
            *expected,
            "{}: {kind} before\n{before}",
            case.name
        );
    }
    for (kind, expected) in case.after {
        assert_eq!(
            count(&after, kind),
            *expected,
            "{}: {kind} after\n{after}",
            case.name
        );
    }
    assert!(!case.inputs.is_empty(), "{}: no inputs", case.name);
    for (xs, k) in &case.inputs {
        let args = [
            Value::Array(Array::from_vec(xs.clone())),
            Value::Prim(PrimValue::I64(*k)),
        ];
        let expected = run_entry(&before, "main", &args);
        let actual = run_entry(&after, "main", &args);
        assert_eq!(actual, expected, "{}: on {xs:?}, {k}\n{after}", case.name);
    }
}

/// Counts constructs anywhere in the program: `statements`, `map`, `reduce`,
/// `scan`, `filter`, `redomap`, `scanomap`, `binop`, `div`, `if`, `loop`,
/// `apply`, `assert`, `index`, `functions`, `loop-body` (statements directly
/// in loop bodies), `lambda-body` (statements directly in lambda bodies).
fn count(program: &Program, kind: &str) -> usize {
    if kind == "functions" {
        return program.functions.len();
    }
    program
        .functions
        .iter()
        .map(|f| count_in_body(&f.body, kind))
        .sum()
}

fn count_in_body(body: &Body, kind: &str) -> usize {
    let mut n = 0;
    for s in &body.statements {
        let e = &s.expression;
        let hit = matches!(
            (kind, e),
            ("statements", _)
                | ("map", Exp::Soac(Soac::Map { .. }))
                | ("reduce", Exp::Soac(Soac::Reduce { .. }))
                | ("scan", Exp::Soac(Soac::Scan { .. }))
                | ("filter", Exp::Soac(Soac::Filter { .. }))
                | ("redomap", Exp::Soac(Soac::Redomap { .. }))
                | ("scanomap", Exp::Soac(Soac::Scanomap { .. }))
                | ("binop", Exp::BinOp { .. })
                | ("div", Exp::BinOp { op: BinOp::Div, .. })
                | ("if", Exp::If { .. })
                | ("loop", Exp::Loop { .. })
                | ("apply", Exp::Apply { .. })
                | ("assert", Exp::Assert { .. })
                | ("index", Exp::Index { .. })
        );
        n += usize::from(hit);
        for inner in e.bodies() {
            if kind == "loop-body" && matches!(e, Exp::Loop { .. }) {
                n += inner.statements.len();
            }
            n += count_in_body(inner, kind);
        }
        for l in e.lambdas() {
            if kind == "lambda-body" {
                n += l.body.statements.len();
            }
            n += count_in_body(&l.body, kind);
        }
    }
    n
}

fn var(v: &VName) -> SubExp {
    SubExp::Var(v.clone())
}

fn binop(b: &mut Builder, op: BinOp, left: SubExp, right: SubExp) -> SubExp {
    b.bind(
        "t",
        prim(I64),
        Exp::BinOp {
            op,
            ty: I64,
            left,
            right,
        },
    )
}

fn fbinop(b: &mut Builder, op: BinOp, left: SubExp, right: SubExp) -> SubExp {
    b.bind(
        "f",
        prim(F64),
        Exp::BinOp {
            op,
            ty: F64,
            left,
            right,
        },
    )
}

fn cmp(b: &mut Builder, op: CmpOp, left: SubExp, right: SubExp) -> SubExp {
    b.bind(
        "c",
        prim(BOOL),
        Exp::CmpOp {
            op,
            ty: I64,
            left,
            right,
        },
    )
}

fn at(b: &mut Builder, start: usize) {
    b.span = Span::new(FileId(0), start, start + 1);
}

fn i64_array() -> Layout {
    Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(I64)),
    }
}

/// `main(n: i64 (size), xs: [n]i64, k: i64)`; `body` gets `n`, `xs`, `k`
/// and returns the results, described by `result` (with `size_results`
/// leading existential sizes). Extra functions come first.
fn program_with(
    b: &mut Builder,
    extra: Vec<Function>,
    size_results: usize,
    result: Layout,
    body: impl FnOnce(&mut Builder, SubExp, VName, SubExp) -> Vec<SubExp>,
) -> Program {
    let n = b.param("n", prim(I64));
    let n_dim = var(&n.name);
    let xs = b.param("xs", array(I64, [n_dim.clone()]));
    let k = b.param("k", prim(I64));
    let params = vec![n, xs, k];
    let main = b.function_of_params("main", params, |b, p| {
        body(b, n_dim, p[1].clone(), var(&p[2]))
    });
    let mut functions = extra;
    functions.push(main);
    Program {
        functions,
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 1,
            parameters: vec![
                EntryParam {
                    name: "xs".into(),
                    layout: i64_array(),
                },
                EntryParam {
                    name: "k".into(),
                    layout: Layout::Prim(I64),
                },
            ],
            size_results,
            result,
        }],
    }
}

fn program(
    b: &mut Builder,
    result: Layout,
    body: impl FnOnce(&mut Builder, SubExp, VName, SubExp) -> Vec<SubExp>,
) -> Program {
    program_with(b, Vec::new(), 0, result, body)
}

/// `map (\x -> x op c) xs` over `[n]i64`.
fn map_op(b: &mut Builder, n: &SubExp, xs: &VName, op: BinOp, c: SubExp) -> VName {
    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
        vec![binop(b, op, var(&p[0]), c)]
    });
    map_into(b, "ys", n, lambda, xs.clone())
}

fn sum(b: &mut Builder, n: &SubExp, xs: &VName) -> SubExp {
    let lambda = b.binop_lambda(BinOp::Add, I64);
    b.bind(
        "s",
        prim(I64),
        Exp::Soac(Soac::Reduce {
            width: n.clone(),
            lambda,
            neutral: vec![i64c(0)],
            arrays: vec![xs.clone()],
        }),
    )
}

fn tuple(layouts: Vec<Layout>) -> Layout {
    Layout::Tuple(layouts)
}

/// A tuple of `count` `i64`s.
fn i64s(count: usize) -> Layout {
    tuple(vec![Layout::Prim(I64); count])
}

/// `base = map lambda input`, an `[n]i64`.
fn map_into(b: &mut Builder, base: &str, n: &SubExp, lambda: Lambda, input: VName) -> VName {
    let mapped = b.bind(
        base,
        array(I64, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda,
            arrays: vec![input],
        }),
    );
    mapped.as_var().expect("a variable").clone()
}

/// `iota n`, bound to a fresh `iota`.
fn iota(b: &mut Builder, n: &SubExp) -> VName {
    let iota = b.bind("iota", array(I64, [n.clone()]), b.iota(n.clone()));
    iota.as_var().expect("a variable").clone()
}

/// `base = input[indices]`, an `i64`.
fn read(b: &mut Builder, base: &str, input: &VName, indices: Vec<SubExp>) -> SubExp {
    b.bind(
        base,
        prim(I64),
        Exp::Index {
            array: input.clone(),
            indices,
        },
    )
}

/// `loop acc = init for i < bound do body(acc, i)`, bound to a fresh `l` of
/// the accumulator's type.
fn for_loop(
    b: &mut Builder,
    acc_type: Type,
    init: SubExp,
    bound: SubExp,
    body: impl FnOnce(&mut Builder, &VName, &VName) -> Vec<SubExp>,
) -> SubExp {
    let acc = b.param("acc", acc_type.clone());
    let i = b.name("i");
    let loop_body = b.body(|b| body(b, &acc.name, &i));
    b.bind(
        "l",
        acc_type,
        Exp::Loop {
            params: vec![(acc, init)],
            form: LoopForm::For { index: i, bound },
            body: loop_body,
        },
    )
}

/// `count, kept = filter predicate input` over `width` rows.
fn filter(b: &mut Builder, width: SubExp, predicate: Lambda, input: VName) -> Vec<VName> {
    b.bind_many(
        &["count", "kept"],
        |names| vec![prim(I64), array(I64, [var(&names[0])])],
        Exp::Soac(Soac::Filter {
            width,
            predicate,
            arrays: vec![input],
        }),
    )
}

/// `base = function(args)`, an `i64`.
fn call(b: &mut Builder, base: &str, function: &str, args: Vec<SubExp>) -> SubExp {
    b.bind(
        base,
        prim(I64),
        Exp::Apply {
            function: FunName(function.into()),
            args,
        },
    )
}

/// `assert condition message`, its span at `start`.
fn assert_at(b: &mut Builder, condition: SubExp, message: &str, start: usize) {
    b.statement(
        Vec::new(),
        Exp::Assert {
            condition,
            message: message.into(),
            operands: Vec::new(),
            span: Span::new(FileId(0), start, start + 1),
        },
    );
}

/// `base = [elements]`, an `i64` array literal of `shape` (its rows of
/// `shape[1..]`).
fn literal(b: &mut Builder, base: &str, shape: &[i64], elements: Vec<SubExp>) -> VName {
    let row_type = match shape {
        [_] => prim(I64),
        [_, rows @ ..] => array(I64, rows.iter().map(|&d| i64c(d))),
        [] => panic!("an array literal has a shape"),
    };
    let literal = b.bind(
        base,
        array(I64, shape.iter().map(|&d| i64c(d))),
        Exp::ArrayLiteral { elements, row_type },
    );
    literal.as_var().expect("a variable").clone()
}

/// `base = if condition then then_body else else_body`, an `i64`.
fn if_i64(
    b: &mut Builder,
    base: &str,
    condition: SubExp,
    then_body: Body,
    else_body: Body,
) -> SubExp {
    b.bind(
        base,
        prim(I64),
        Exp::If {
            condition,
            then_body,
            else_body,
            types: vec![prim(I64).to_ext()],
        },
    )
}

fn inputs() -> Vec<(Vec<i64>, i64)> {
    vec![
        (vec![], 0),
        (vec![5], 1),
        (vec![3, -7, 0, 12, i64::MAX, 4], 3),
        ((0..5000).map(|i| (i * 37) % 101 - 50).collect(), -2),
    ]
}

fn simplify_only() -> Vec<Pass> {
    vec![("simplify", simplify::simplify)]
}

fn fusion_then_simplify() -> Vec<Pass> {
    vec![("fusion", fusion::fusion), ("simplify", simplify::simplify)]
}

#[test]
fn simplify_cases() {
    let cases = vec![
        Case {
            name: "simplify_folds_constants_with_wrapping",
            build: |b| {
                program(b, Layout::Prim(I64), |b, _, _, k| {
                    let five = binop(b, BinOp::Add, i64c(2), i64c(3));
                    let wrapped = binop(b, BinOp::Add, i64c(i64::MAX), i64c(1));
                    let scaled = binop(b, BinOp::Mul, five, k);
                    let same = binop(b, BinOp::Add, scaled, i64c(0));
                    let one = binop(b, BinOp::Mul, same, i64c(1));
                    vec![binop(b, BinOp::Add, one, wrapped)]
                })
            },
            passes: simplify_only(),
            inputs: inputs(),
            before: &[("binop", 6)],
            after: &[("binop", 2)],
        },
        Case {
            name: "simplify_keeps_a_division_by_zero",
            build: |b| {
                program(b, Layout::Prim(I64), |b, _, _, k| {
                    at(b, 7);
                    let zero = binop(b, BinOp::Sub, i64c(3), i64c(3));
                    let q = binop(b, BinOp::Div, k.clone(), zero);
                    let ok = binop(b, BinOp::Div, k, i64c(-2));
                    // `q` is unused: the division still runs and fails.
                    let _ = q;
                    vec![ok]
                })
            },
            passes: simplify_only(),
            inputs: vec![(vec![], 4), (vec![1], -9)],
            before: &[("div", 2)],
            after: &[("div", 2), ("binop", 2)],
        },
        Case {
            name: "simplify_propagates_copies_and_removes_dead_code_but_not_checks",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    let copy = b.bind("copy", array(I64, [n.clone()]), Exp::SubExp(var(&xs)));
                    let copy = copy.as_var().unwrap().clone();
                    let _dead = map_op(b, &n, &copy, BinOp::Add, i64c(1));
                    at(b, 11);
                    let _checked = read(b, "x", &copy, vec![k.clone()]);
                    let c = cmp(b, CmpOp::Lt, k.clone(), i64c(2));
                    at(b, 12);
                    assert_at(b, c, "k is small", 12);
                    let _unused_product = binop(b, BinOp::Mul, k.clone(), k);
                    vec![sum(b, &n, &copy)]
                })
            },
            passes: simplify_only(),
            inputs: vec![
                (vec![1, 2, 3], 0),
                (vec![1, 2, 3], 1),
                (vec![1, 2, 3], 2),
                (vec![1, 2, 3], 5),
                (vec![], 0),
            ],
            before: &[("map", 1), ("statements", 9)],
            after: &[
                ("map", 0),
                ("index", 1),
                ("assert", 1),
                ("binop", 1),
                ("statements", 5),
            ],
        },
        Case {
            name: "simplify_merges_common_subexpressions",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    let a = binop(b, BinOp::Mul, k.clone(), k.clone());
                    let c = binop(b, BinOp::Mul, k.clone(), k.clone());
                    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
                        let again = binop(b, BinOp::Mul, k.clone(), k.clone());
                        vec![binop(b, BinOp::Add, var(&p[0]), again)]
                    });
                    let ys = map_into(b, "ys", &n, lambda, xs);
                    let s = sum(b, &n, &ys);
                    let ac = binop(b, BinOp::Add, a, c);
                    vec![binop(b, BinOp::Add, ac, s)]
                })
            },
            passes: simplify_only(),
            inputs: inputs(),
            // The reduction operator's addition counts too.
            before: &[("binop", 7)],
            after: &[("binop", 5)],
        },
        Case {
            // An assertion whose condition an assertion in scope checked
            // cannot fail: the map's and the later one of `k < 2` go; the
            // assertion of `k != 1` inside the map's lambda does not cover
            // the one after the map (an empty map never runs it), so both
            // stay, and the error of each input is unchanged.
            name: "simplify_drops_assertions_an_earlier_one_checked",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    let small = cmp(b, CmpOp::Lt, k.clone(), i64c(2));
                    let not_one = cmp(b, CmpOp::Ne, k.clone(), i64c(1));
                    assert_at(b, small.clone(), "k is small", 12);
                    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
                        assert_at(b, small.clone(), "k is small in the lambda", 20);
                        assert_at(b, not_one.clone(), "k is not one in the lambda", 30);
                        vec![binop(b, BinOp::Add, var(&p[0]), i64c(1))]
                    });
                    let ys = map_into(b, "ys", &n, lambda, xs);
                    assert_at(b, small, "k is small after the map", 40);
                    assert_at(b, not_one, "k is not one after the map", 50);
                    vec![sum(b, &n, &ys)]
                })
            },
            passes: simplify_only(),
            inputs: vec![
                (vec![1, 2, 3], 0),
                (vec![1, 2, 3], 5),
                (vec![1, 2, 3], 1),
                (vec![], 1),
                (vec![], 0),
            ],
            before: &[("assert", 5)],
            after: &[("assert", 3)],
        },
        Case {
            name: "simplify_branches_on_constants",
            build: |b| {
                program(b, Layout::Prim(I64), |b, _, _, k| {
                    let yes = b.body(|b| vec![binop(b, BinOp::Add, k.clone(), i64c(1))]);
                    let no = b.body(|b| vec![binop(b, BinOp::Sub, k.clone(), i64c(1))]);
                    let c = cmp(b, CmpOp::Lt, i64c(1), i64c(2));
                    vec![if_i64(b, "r", c, yes, no)]
                })
            },
            passes: simplify_only(),
            inputs: inputs(),
            before: &[("if", 1), ("binop", 2)],
            after: &[("if", 0), ("binop", 1), ("statements", 1)],
        },
        Case {
            name: "simplify_folds_only_exact_float_identities",
            build: |b| {
                program(b, Layout::Prim(F64), |b, _, _, k| {
                    let conv = ConvOp { from: I64, to: F64 };
                    let x = b.bind(
                        "x",
                        prim(F64),
                        Exp::ConvOp {
                            op: conv,
                            operand: k,
                        },
                    );
                    // -0.0 when k is 0: `x + 0.0` is +0.0 then, so it stays.
                    let negated = b.bind(
                        "m",
                        prim(F64),
                        Exp::UnOp {
                            op: UnOp::Neg,
                            ty: F64,
                            operand: x,
                        },
                    );
                    let plus = fbinop(b, BinOp::Add, negated, constant(0.0f64));
                    let times = fbinop(b, BinOp::Mul, plus, constant(1.0f64));
                    let folded = fbinop(b, BinOp::Mul, constant(1.5f64), constant(2.0f64));
                    vec![fbinop(b, BinOp::Sub, times, folded)]
                })
            },
            passes: simplify_only(),
            inputs: vec![(vec![], 0), (vec![], 3), (vec![], -4)],
            before: &[("binop", 4)],
            after: &[("binop", 2)],
        },
        Case {
            name: "simplify_drops_unused_map_outputs_and_empty_loops",
            build: |b| {
                program(b, i64_array(), |b, n, xs, k| {
                    let lambda = b.lambda(&[prim(I64)], &[prim(I64), prim(I64)], |b, p| {
                        let used = binop(b, BinOp::Add, var(&p[0]), k.clone());
                        let unused = binop(b, BinOp::Mul, var(&p[0]), k.clone());
                        vec![used, unused]
                    });
                    let names = b.bind_many(
                        &["ys", "zs"],
                        |_| vec![array(I64, [n.clone()]), array(I64, [n.clone()])],
                        Exp::Soac(Soac::Map {
                            width: n.clone(),
                            lambda,
                            arrays: vec![xs],
                        }),
                    );
                    let acc_type = array(I64, [n.clone()]);
                    let looped = for_loop(b, acc_type, var(&names[0]), i64c(0), |_, acc, _| {
                        vec![var(acc)]
                    });
                    vec![looped]
                })
            },
            passes: simplify_only(),
            inputs: inputs(),
            before: &[("binop", 2), ("loop", 1)],
            after: &[("binop", 1), ("loop", 0), ("map", 1)],
        },
        Case {
            name: "simplify_branch_on_a_constant_with_existential_sizes",
            build: |b| {
                program_with(b, Vec::new(), 1, i64_array(), |b, n, xs, k| {
                    let then_body = b.body(|b| {
                        let keep = b.lambda(&[prim(I64)], &[prim(BOOL)], |b, q| {
                            vec![cmp(b, CmpOp::Lt, var(&q[0]), k.clone())]
                        });
                        let names = filter(b, n.clone(), keep, xs.clone());
                        names.iter().map(var).collect()
                    });
                    let else_body = b.body(|_| vec![n.clone(), var(&xs)]);
                    let c = cmp(b, CmpOp::Eq, i64c(4), i64c(4));
                    let names = b.bind_many(
                        &["m", "ys"],
                        |names| vec![prim(I64), array(I64, [var(&names[0])])],
                        Exp::If {
                            condition: c,
                            then_body,
                            else_body,
                            types: vec![
                                ExtType::Prim(I64),
                                ExtType::Array {
                                    element: I64,
                                    shape: vec![ExtDim::Existential(0)],
                                },
                            ],
                        },
                    );
                    let doubled = map_op(b, &var(&names[0]), &names[1], BinOp::Mul, i64c(2));
                    vec![var(&names[0]), SubExp::Var(doubled)]
                })
            },
            passes: simplify_only(),
            inputs: inputs(),
            before: &[("if", 1), ("filter", 1)],
            after: &[("if", 0), ("filter", 1), ("map", 1)],
        },
        // Unused calls: of `plus_one` and of `plus_two` (which calls only
        // `plus_one`: total through its callee) they go, and then the two
        // functions, which nothing calls any more; of `divide` (`k / k`
        // fails when `k` is 0) it stays.
        Case {
            name: "simplify_removes_unused_calls_of_total_functions",
            build: |b| {
                let plus_one = b.function("plus_one", &[("x", prim(I64))], |b, p| {
                    vec![binop(b, BinOp::Add, var(&p[0]), i64c(1))]
                });
                let plus_two = b.function("plus_two", &[("x", prim(I64))], |b, p| {
                    let once = call(b, "once", "plus_one", vec![var(&p[0])]);
                    vec![call(b, "twice", "plus_one", vec![once])]
                });
                let divide = b.function("divide", &[("x", prim(I64)), ("y", prim(I64))], |b, p| {
                    vec![binop(b, BinOp::Div, var(&p[0]), var(&p[1]))]
                });
                program_with(
                    b,
                    vec![plus_one, plus_two, divide],
                    0,
                    i64s(1),
                    |b, _, _, k| {
                        call(b, "a", "plus_two", vec![k.clone()]);
                        call(b, "c", "plus_one", vec![k.clone()]);
                        call(b, "d", "divide", vec![k.clone(), k.clone()]);
                        vec![k]
                    },
                )
            },
            passes: simplify_only(),
            inputs: inputs(),
            before: &[("apply", 5), ("functions", 4)],
            after: &[("apply", 1), ("functions", 2), ("div", 1)],
        },
    ];
    for case in cases {
        check(case);
    }
}

/// `map (\x -> 1000 / x) xs` (fails on a zero) into
/// `map (\y -> xs[y mod 4])` (fails when the array is shorter): both can
/// fail, so they must not fuse.
fn failing_producer_and_consumer(b: &mut Builder) -> Program {
    program(b, i64_array(), |b, n, xs, _| {
        at(b, 21);
        let producer = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
            vec![binop(b, BinOp::Div, i64c(1000), var(&p[0]))]
        });
        let ys = map_into(b, "ys", &n, producer, xs.clone());
        at(b, 22);
        let consumer = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
            let i = binop(b, BinOp::Mod, var(&p[0]), i64c(4));
            vec![read(b, "z", &xs, vec![i])]
        });
        vec![SubExp::Var(map_into(b, "zs", &n, consumer, ys))]
    })
}

#[test]
fn fusion_cases() {
    let cases = vec![
        Case {
            name: "fusion_map_map",
            build: |b| {
                program(b, i64_array(), |b, n, xs, k| {
                    let ys = map_op(b, &n, &xs, BinOp::Add, k);
                    vec![SubExp::Var(map_op(b, &n, &ys, BinOp::Mul, i64c(2)))]
                })
            },
            passes: fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 2)],
            after: &[("map", 1)],
        },
        Case {
            name: "fusion_map_into_reduce_is_redomap",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    let ys = map_op(b, &n, &xs, BinOp::Mul, k);
                    vec![sum(b, &n, &ys)]
                })
            },
            passes: fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 1), ("reduce", 1)],
            after: &[("map", 0), ("reduce", 0), ("redomap", 1)],
        },
        Case {
            name: "fusion_map_map_reduce_is_one_redomap",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    let ys = map_op(b, &n, &xs, BinOp::Mul, k);
                    let zs = map_op(b, &n, &ys, BinOp::Sub, i64c(3));
                    vec![sum(b, &n, &zs)]
                })
            },
            passes: fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 2), ("reduce", 1)],
            after: &[("map", 0), ("redomap", 1)],
        },
        Case {
            name: "fusion_map_into_scan_is_scanomap",
            build: |b| {
                program(b, i64_array(), |b, n, xs, k| {
                    let ys = map_op(b, &n, &xs, BinOp::Add, k);
                    let plus = b.binop_lambda(BinOp::Add, I64);
                    vec![b.bind(
                        "sc",
                        array(I64, [n.clone()]),
                        Exp::Soac(Soac::Scan {
                            width: n,
                            lambda: plus,
                            neutral: vec![i64c(0)],
                            arrays: vec![ys],
                        }),
                    )]
                })
            },
            passes: fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 1), ("scan", 1)],
            after: &[("map", 0), ("scan", 0), ("scanomap", 1)],
        },
        Case {
            name: "fusion_map_into_filter",
            build: |b| {
                program_with(b, Vec::new(), 1, i64_array(), |b, n, xs, k| {
                    let ys = map_op(b, &n, &xs, BinOp::Sub, k);
                    let positive = b.lambda(&[prim(I64)], &[prim(BOOL)], |b, p| {
                        vec![cmp(b, CmpOp::Gt, var(&p[0]), i64c(0))]
                    });
                    filter(b, n, positive, ys).iter().map(var).collect()
                })
            },
            passes: fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 1), ("filter", 1)],
            // The filter reads `xs` directly; the map runs on the kept rows.
            after: &[("map", 1), ("filter", 1), ("lambda-body", 3)],
        },
        Case {
            name: "fusion_not_when_the_producer_result_is_used_elsewhere",
            build: |b| {
                program(
                    b,
                    tuple(vec![Layout::Prim(I64), i64_array()]),
                    |b, n, xs, k| {
                        let ys = map_op(b, &n, &xs, BinOp::Mul, k);
                        vec![sum(b, &n, &ys), SubExp::Var(ys)]
                    },
                )
            },
            passes: fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 1), ("reduce", 1)],
            after: &[("map", 1), ("reduce", 1), ("redomap", 0)],
        },
        Case {
            name: "fusion_not_when_producer_and_consumer_can_both_fail",
            build: failing_producer_and_consumer,
            passes: fusion_then_simplify(),
            // Element 0 makes the consumer fail (index 3 of a 2-array) and
            // element 1 the producer (division by zero): the producer's
            // error must come first.
            inputs: vec![
                (vec![333, 0], 0),
                (vec![1, 2, 3, 4], 0),
                (vec![7, 0, 1], 0),
                (vec![], 0),
            ],
            before: &[("map", 2)],
            after: &[("map", 2)],
        },
        Case {
            name: "fusion_a_failing_producer_into_a_safe_consumer",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    at(b, 51);
                    let ys = map_op(b, &n, &xs, BinOp::Div, k);
                    vec![sum(b, &n, &ys)]
                })
            },
            passes: fusion_then_simplify(),
            inputs: vec![(vec![], 0), (vec![1, 2], 0), (vec![9, -9, 4], 2)],
            before: &[("map", 1), ("reduce", 1)],
            after: &[("redomap", 1), ("map", 0)],
        },
        Case {
            name: "fusion_not_when_a_failing_producer_would_pass_an_assert",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    at(b, 61);
                    let ys = map_op(b, &n, &xs, BinOp::Div, k.clone());
                    at(b, 62);
                    let c = cmp(b, CmpOp::Ne, k, i64c(0));
                    assert_at(b, c, "k is not zero", 62);
                    vec![sum(b, &n, &ys)]
                })
            },
            passes: fusion_then_simplify(),
            // With k = 0 and a nonempty array the division fails first.
            inputs: vec![(vec![], 0), (vec![1, 2], 0), (vec![9, -9, 4], 2)],
            before: &[("map", 1), ("reduce", 1)],
            after: &[("map", 1), ("reduce", 1), ("redomap", 0)],
        },
        Case {
            name: "fusion_horizontal_maps_over_the_same_array",
            build: |b| {
                program(b, tuple(vec![i64_array(), i64_array()]), |b, n, xs, k| {
                    let ys = map_op(b, &n, &xs, BinOp::Add, k.clone());
                    let zs = map_op(b, &n, &xs, BinOp::Mul, k);
                    vec![SubExp::Var(ys), SubExp::Var(zs)]
                })
            },
            passes: fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 2)],
            after: &[("map", 1)],
        },
    ];
    for case in cases {
        check(case);
    }
}

#[test]
fn inline_and_hoisting_cases() {
    let cases = vec![
        Case {
            name: "inline_small_and_single_call_functions",
            build: |b| {
                let square = b.function("square", &[("x", prim(I64))], |b, p| {
                    vec![binop(b, BinOp::Mul, var(&p[0]), var(&p[0]))]
                });
                let positives = {
                    let m = b.param("m", prim(I64));
                    let ys = b.param("ys", array(I64, [var(&m.name)]));
                    b.function_of_params("positives", vec![m, ys], |b, p| {
                        let keep = b.lambda(&[prim(I64)], &[prim(BOOL)], |b, q| {
                            vec![cmp(b, CmpOp::Gt, var(&q[0]), i64c(0))]
                        });
                        let names = filter(b, var(&p[0]), keep, p[1].clone());
                        names.iter().map(var).collect()
                    })
                };
                program_with(b, vec![square, positives], 0, i64s(2), |b, n, xs, k| {
                    let a = call(b, "a", "square", vec![k.clone()]);
                    let c = call(b, "c", "square", vec![a]);
                    let names = b.bind_many(
                        &["m", "kept"],
                        |names| vec![prim(I64), array(I64, [var(&names[0])])],
                        Exp::Apply {
                            function: FunName("positives".into()),
                            args: vec![n, SubExp::Var(xs)],
                        },
                    );
                    let s = sum(b, &var(&names[0]), &names[1]);
                    vec![c, s]
                })
            },
            passes: vec![("inline", inline::inline), ("simplify", simplify::simplify)],
            inputs: inputs(),
            before: &[("apply", 3), ("functions", 3)],
            after: &[("apply", 0), ("functions", 1), ("filter", 1)],
        },
        // Functions above SMALL_FUNCTION_STATEMENTS called more than once:
        // `medium` (10 statements, 2 calls: one more copy) fits in the
        // growth budget and is inlined; `large` (3 calls: two more copies
        // of more than half the budget) is not.
        Case {
            name: "inline_within_the_growth_budget",
            build: |b| {
                let chain = |b: &mut Builder, name: &str, length: usize| {
                    b.function(name, &[("x", prim(I64))], |b, p| {
                        let mut value = var(&p[0]);
                        for step in 0..length {
                            value = binop(b, BinOp::Add, value, i64c(step as i64 + 1));
                        }
                        vec![value]
                    })
                };
                let medium = chain(b, "medium", inline::SMALL_FUNCTION_STATEMENTS + 2);
                let large = chain(b, "large", inline::INLINE_GROWTH_BUDGET / 2 + 1);
                program_with(b, vec![medium, large], 0, i64s(2), |b, _, _, k| {
                    let a = call(b, "a", "medium", vec![k.clone()]);
                    let c = call(b, "c", "medium", vec![a]);
                    let d = call(b, "d", "large", vec![c.clone()]);
                    let e = call(b, "e", "large", vec![d]);
                    let f = call(b, "f", "large", vec![e]);
                    vec![c, f]
                })
            },
            passes: vec![("inline", inline::inline)],
            inputs: inputs(),
            before: &[("apply", 5), ("functions", 3)],
            after: &[("apply", 3), ("functions", 2)],
        },
        // A negative constant is not substituted in dimension positions (a
        // body's result among them): the inlined parameter `x` that stands
        // for `-3` and the call's pattern `c` that stands for `-1` stay bound
        // (value oracle seed 5150: "x5 is not in scope" after `inline`).
        Case {
            name: "inline_negative_constant_argument_and_result",
            build: |b| {
                let same = b.function("same", &[("x", prim(I64))], |_, p| vec![var(&p[0])]);
                let minus_one = b.function("minus_one", &[("x", prim(I64))], |_, _| vec![i64c(-1)]);
                program_with(b, vec![same, minus_one], 0, i64s(2), |b, _, _, k| {
                    let a = call(b, "a", "same", vec![i64c(-3)]);
                    let c = call(b, "c", "minus_one", vec![k]);
                    vec![a, c]
                })
            },
            passes: vec![("inline", inline::inline)],
            inputs: inputs(),
            before: &[("apply", 2), ("functions", 3)],
            after: &[("apply", 0), ("functions", 1), ("statements", 2)],
        },
        Case {
            name: "hoisting_out_of_loops_and_lambdas",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, k| {
                    let looped = for_loop(b, prim(I64), i64c(0), k.clone(), |b, acc, _| {
                        let invariant = binop(b, BinOp::Mul, k.clone(), i64c(3));
                        at(b, 31);
                        // Can fail: stays in the loop.
                        let x = read(b, "x", &xs, vec![i64c(0)]);
                        let step = binop(b, BinOp::Add, invariant, x);
                        vec![binop(b, BinOp::Add, var(acc), step)]
                    });
                    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
                        let twice = binop(b, BinOp::Mul, k.clone(), i64c(2));
                        vec![binop(b, BinOp::Add, var(&p[0]), twice)]
                    });
                    let ys = map_into(b, "ys", &n, lambda, xs.clone());
                    let s = sum(b, &n, &ys);
                    vec![binop(b, BinOp::Add, looped, s)]
                })
            },
            passes: vec![("hoisting", hoisting::hoisting)],
            inputs: vec![(vec![], 0), (vec![], 2), (vec![4, 5], 3), (vec![4, 5], -1)],
            before: &[("loop-body", 4), ("lambda-body", 3)],
            after: &[("loop-body", 3), ("lambda-body", 2), ("index", 1)],
        },
        Case {
            name: "hoisting_through_a_lambda_and_a_loop",
            build: |b| {
                program(b, i64_array(), |b, n, xs, k| {
                    let acc_type = array(I64, [n.clone()]);
                    vec![for_loop(b, acc_type, var(&xs), i64c(3), |b, acc, _| {
                        let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
                            // Invariant in the lambda and in the loop.
                            let square = binop(b, BinOp::Mul, k.clone(), k.clone());
                            vec![binop(b, BinOp::Add, var(&p[0]), square)]
                        });
                        vec![SubExp::Var(map_into(b, "next", &n, lambda, acc.clone()))]
                    })]
                })
            },
            passes: vec![("hoisting", hoisting::hoisting)],
            inputs: inputs(),
            before: &[("loop-body", 1), ("lambda-body", 2), ("statements", 4)],
            // The product is now the first statement of `main`.
            after: &[("loop-body", 1), ("lambda-body", 1), ("statements", 4)],
        },
        Case {
            name: "hoisting_array_literals_of_known_row_shape",
            build: |b| {
                program(b, Layout::Prim(I64), |b, _n, _xs, k| {
                    let row = literal(b, "row", &[2], vec![i64c(1), i64c(2)]);
                    vec![for_loop(b, prim(I64), i64c(0), k, |b, acc, _| {
                        // Its elements have its row type `[2]i64`: it cannot
                        // fail, so it leaves the loop.
                        let table = literal(b, "table", &[2, 2], vec![var(&row), var(&row)]);
                        let element = read(b, "element", &table, vec![i64c(1), i64c(1)]);
                        vec![binop(b, BinOp::Add, var(acc), element)]
                    })]
                })
            },
            passes: vec![("hoisting", hoisting::hoisting)],
            inputs: vec![(vec![], 0), (vec![4, 5], 3), (vec![], -2)],
            before: &[("loop-body", 3)],
            after: &[("loop-body", 2)],
        },
    ];
    for case in cases {
        check(case);
    }
}

#[test]
fn the_default_pipeline_fuses_folds_and_preserves_errors() {
    check(Case {
        name: "pipeline_default",
        build: |b| {
            let scale = b.function("scale", &[("x", prim(I64)), ("f", prim(I64))], |b, p| {
                let f2 = binop(b, BinOp::Mul, var(&p[1]), i64c(1));
                vec![binop(b, BinOp::Mul, var(&p[0]), f2)]
            });
            program_with(b, vec![scale], 0, Layout::Prim(I64), |b, n, xs, k| {
                let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
                    let two = binop(b, BinOp::Add, i64c(1), i64c(1));
                    vec![call(b, "y", "scale", vec![var(&p[0]), two])]
                });
                let ys = map_into(b, "ys", &n, lambda, xs);
                at(b, 41);
                let zs = map_op(b, &n, &ys, BinOp::Div, k);
                vec![sum(b, &n, &zs)]
            })
        },
        passes: passes::default_pipeline(),
        inputs: vec![
            (vec![], 0),
            (vec![1, 2, 3], 0),
            (vec![1, 2, 3], 2),
            (vec![5, -5, 9], -3),
        ],
        before: &[("map", 2), ("reduce", 1), ("apply", 1)],
        after: &[
            ("map", 0),
            ("reduce", 0),
            ("redomap", 1),
            ("apply", 0),
            ("functions", 1),
        ],
    });
}

fn unroll_then_simplify() -> Vec<Pass> {
    vec![("unroll", unroll::unroll), ("simplify", simplify::simplify)]
}

fn index_fusion_then_simplify() -> Vec<Pass> {
    vec![
        ("index_fusion", index_fusion::index_fusion),
        ("simplify", simplify::simplify),
    ]
}

/// `loop acc = 0 for i < bound do acc + xs[i] * (i + 1)`, the read at
/// span 23.
fn weighted_prefix_loop(b: &mut Builder, xs: &VName, bound: SubExp) -> SubExp {
    for_loop(b, prim(I64), i64c(0), bound, |b, acc, i| {
        at(b, 23);
        let x = read(b, "x", xs, vec![var(i)]);
        let weight = binop(b, BinOp::Add, var(i), i64c(1));
        let term = binop(b, BinOp::Mul, x, weight);
        vec![binop(b, BinOp::Add, var(acc), term)]
    })
}

/// The element of [`cheap_map`].
#[derive(Clone, Copy)]
enum Element {
    /// `x * 2 + k`: cannot fail.
    Infallible,
    /// `x / k`: fails for every element or none (`k = 0`).
    DividedByFree,
    /// `k / x`: fails at the elements that are 0.
    DividingFree,
}

/// `map (\x -> element) xs` over `[n]i64`.
fn cheap_map(b: &mut Builder, n: &SubExp, xs: &VName, k: &SubExp, element: Element) -> VName {
    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| match element {
        Element::Infallible => {
            let twice = binop(b, BinOp::Mul, var(&p[0]), i64c(2));
            vec![binop(b, BinOp::Add, twice, k.clone())]
        }
        Element::DividedByFree => vec![binop(b, BinOp::Div, var(&p[0]), k.clone())],
        Element::DividingFree => vec![binop(b, BinOp::Div, k.clone(), var(&p[0]))],
    });
    map_into(b, "ys", n, lambda, xs.clone())
}

/// `reduce (+) 0 (map (\i -> ys[(i * 3 + 1) % n]) (iota n))`, the read at
/// span 51.
fn sum_of_strided_reads(b: &mut Builder, n: &SubExp, ys: &VName) -> SubExp {
    let iota = iota(b, n);
    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
        let scaled = binop(b, BinOp::Mul, var(&p[0]), i64c(3));
        let shifted = binop(b, BinOp::Add, scaled, i64c(1));
        let j = binop(b, BinOp::Mod, shifted, n.clone());
        at(b, 51);
        vec![read(b, "y", ys, vec![j])]
    });
    let reads = map_into(b, "reads", n, lambda, iota);
    sum(b, n, &reads)
}

#[test]
fn unroll_index_fusion_and_range_cases() {
    let cases = vec![
        Case {
            name: "unroll_a_constant_loop_then_fold_its_index",
            build: |b| {
                program(b, Layout::Prim(I64), |b, _, xs, _| {
                    vec![weighted_prefix_loop(b, &xs, i64c(3))]
                })
            },
            passes: unroll_then_simplify(),
            // Short arrays fail at the second or third read, as the loop did.
            inputs: vec![
                (vec![], 0),
                (vec![5], 1),
                (vec![5, 6], 0),
                (vec![5, 6, 7, 8], 2),
            ],
            before: &[("loop", 1), ("index", 1), ("binop", 3)],
            // xs[0] + xs[1] * 2 + xs[2] * 3: the weights and `acc + 0`,
            // `x * 1` fold.
            after: &[("loop", 0), ("index", 3), ("binop", 4)],
        },
        Case {
            name: "unroll_not_a_long_or_unknown_loop",
            build: |b| {
                program(b, i64s(2), |b, _, xs, k| {
                    let long = weighted_prefix_loop(b, &xs, i64c(unroll::MAX_TRIP_COUNT + 1));
                    let unknown = weighted_prefix_loop(b, &xs, k);
                    vec![long, unknown]
                })
            },
            passes: unroll_then_simplify(),
            inputs: vec![(vec![], 0), ((0..40).collect(), 3), ((0..40).collect(), 50)],
            before: &[("loop", 2)],
            after: &[("loop", 2)],
        },
        Case {
            name: "simplify_folds_literal_elements_same_shape_reshapes_and_x_eq_x",
            build: |b| {
                program(
                    b,
                    tuple(vec![Layout::Prim(I64), i64_array()]),
                    |b, n, xs, k| {
                        let row0 = literal(b, "row", &[2], vec![i64c(1), i64c(2)]);
                        let row1 = literal(b, "row", &[2], vec![i64c(3), i64c(4)]);
                        let table = literal(b, "table", &[2, 2], vec![var(&row0), var(&row1)]);
                        let read_at = |b: &mut Builder, i: SubExp, j: SubExp, span: usize| {
                            at(b, span);
                            read(b, "e", &table, vec![i, j])
                        };
                        let three = read_at(b, i64c(1), i64c(0), 11);
                        // Not constant, or out of bounds: these stay (and fail
                        // for k outside 0..2; the second always runs only when
                        // k is 7, inside the branch below).
                        let by_k = read_at(b, k.clone(), i64c(1), 12);
                        let seven = cmp(b, CmpOp::Eq, k.clone(), i64c(7));
                        let then_body = b.body(|b| vec![read_at(b, i64c(2), i64c(0), 13)]);
                        let else_body = b.body(|_| vec![i64c(0)]);
                        let far = if_i64(b, "far", seven, then_body, else_body);
                        let total = binop(b, BinOp::Add, three, by_k);
                        let total = binop(b, BinOp::Add, total, far);
                        let same = cmp(b, CmpOp::Eq, n.clone(), n.clone());
                        assert_at(b, same, "sizes", 3);
                        let reshaped = b.bind(
                            "reshaped",
                            array(I64, [n.clone()]),
                            Exp::Reshape {
                                shape: vec![n.clone()],
                                array: xs,
                            },
                        );
                        vec![total, reshaped]
                    },
                )
            },
            passes: simplify_only(),
            inputs: vec![
                (vec![], 0),
                (vec![1, 2], 1),
                (vec![3], 2),
                (vec![3], 7),
                (vec![], -1),
            ],
            before: &[("index", 3), ("assert", 1), ("statements", 13)],
            after: &[("index", 2), ("assert", 0), ("statements", 9)],
        },
        Case {
            name: "simplify_reduces_mod_of_iota_rows_and_drops_reads_in_bounds",
            build: |b| {
                program(b, Layout::Prim(I64), |b, n, xs, _| {
                    let iota = iota(b, &n);
                    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
                        // (i + n) % n is i; the unused read xs[(i + 1) % n]
                        // is in bounds and goes.
                        let wrapped = binop(b, BinOp::Add, var(&p[0]), n.clone());
                        let same = binop(b, BinOp::Mod, wrapped, n.clone());
                        let next = binop(b, BinOp::Add, var(&p[0]), i64c(1));
                        let next = binop(b, BinOp::Mod, next, n.clone());
                        at(b, 61);
                        let _unused = read(b, "x", &xs, vec![next]);
                        at(b, 62);
                        vec![read(b, "x", &xs, vec![same])]
                    });
                    let ys = map_into(b, "ys", &n, lambda, iota);
                    vec![sum(b, &n, &ys)]
                })
            },
            passes: simplify_only(),
            inputs: inputs(),
            // The reduction's `+` stays, and `(i + 1) % n` (a division by
            // a name) with it.
            before: &[("index", 2), ("binop", 5)],
            after: &[("index", 1), ("binop", 3)],
        },
        Case {
            name: "index_fusion_recomputes_a_cheap_map_where_it_is_read",
            build: |b| {
                program(b, i64s(2), |b, n, xs, k| {
                    let ys = cheap_map(b, &n, &xs, &k, Element::Infallible);
                    at(b, 71);
                    // Fails on an empty array, as the read of `ys` did.
                    let first = read(b, "first", &ys, vec![i64c(0)]);
                    vec![first, sum_of_strided_reads(b, &n, &ys)]
                })
            },
            passes: index_fusion_then_simplify(),
            inputs: inputs(),
            // The producer's two operations go and come back at each of
            // the two reads.
            before: &[("map", 2), ("index", 2), ("binop", 6)],
            after: &[("map", 1), ("index", 2), ("binop", 8)],
        },
        // `x / k` fails for all elements or none: the map goes, a guard
        // `if n > 0 then 0 / k else 0` stays at its place (span 81) and
        // fails there when `k = 0` and `xs` is not empty; an empty `xs`
        // does not fail, and its read `ys[0]` then fails out of bounds.
        Case {
            name: "index_fusion_recomputes_a_map_that_fails_independently_of_the_element",
            build: |b| {
                program(b, i64s(2), |b, n, xs, k| {
                    at(b, 81);
                    let ys = cheap_map(b, &n, &xs, &k, Element::DividedByFree);
                    at(b, 82);
                    let later = binop(b, BinOp::Div, i64c(7), k.clone());
                    at(b, 71);
                    let first = read(b, "first", &ys, vec![i64c(0)]);
                    let first = binop(b, BinOp::Add, first, later);
                    vec![first, sum_of_strided_reads(b, &n, &ys)]
                })
            },
            passes: index_fusion_then_simplify(),
            inputs: [inputs(), vec![(vec![4, -9, 2], 0), (vec![], 0)]].concat(),
            before: &[("map", 2), ("if", 0), ("div", 2)],
            after: &[("map", 1), ("if", 1), ("div", 4)],
        },
        Case {
            name: "index_fusion_not_when_the_map_is_also_used_whole_or_fails_by_element",
            build: |b| {
                program(b, i64s(3), |b, n, xs, k| {
                    let whole = cheap_map(b, &n, &xs, &k, Element::Infallible);
                    let read_whole = sum_of_strided_reads(b, &n, &whole);
                    let total = sum(b, &n, &whole);
                    at(b, 81);
                    let failing = cheap_map(b, &n, &xs, &k, Element::DividingFree);
                    vec![read_whole, total, sum_of_strided_reads(b, &n, &failing)]
                })
            },
            passes: index_fusion_then_simplify(),
            inputs: inputs(),
            before: &[("map", 4)],
            after: &[("map", 4)],
        },
    ];
    for case in cases {
        check(case);
    }
}
