//! The CPU backend's SOACs against sequential Rust, at sizes 0, 1, below,
//! at and far above the parallel threshold; reduce, scan, redomap and
//! scanomap with a non-commutative associative operator (2×2 integer matrix
//! product); hist with few bins (per-chunk histograms) and many (sequential);
//! scatter with out-of-bounds and duplicate indices.

use optimized::cpu::{CompiledProgram, PARALLEL_THRESHOLD};
use optimized::ir::builder::{array, i64c, prim, Builder};
use optimized::ir::*;
use spec::value::{Array, Value};

const I64: PrimType = PrimType::I64;
const BOOL: PrimType = PrimType::Bool;

const SIZES: [usize; 7] = [
    0,
    1,
    100,
    PARALLEL_THRESHOLD - 1,
    PARALLEL_THRESHOLD,
    PARALLEL_THRESHOLD * 3 + 17,
    300_000,
];

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

fn i64_array_layout() -> Layout {
    Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(I64)),
    }
}

/// A program with one entry point `main(n: i64 size, xs: [n]i64, …)`
/// whose `k` array parameters are all `[n]i64`; `body` builds the results.
fn entry_program(
    k: usize,
    result: Layout,
    body: impl FnOnce(&mut Builder, &SubExp, &[VName]) -> Vec<SubExp>,
) -> CompiledProgram {
    let mut b = Builder::new();
    let n = b.param("n", prim(I64));
    let n_dim = var(&n.name);
    let mut params = vec![n];
    for _ in 0..k {
        params.push(b.param("xs", array(I64, [n_dim.clone()])));
    }
    let function = b.function_of_params("main", params, |b, names| body(b, &n_dim, &names[1..]));
    let program = Program {
        functions: vec![function],
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 1,
            parameters: (0..k)
                .map(|i| EntryParam {
                    name: format!("xs{i}"),
                    layout: i64_array_layout(),
                })
                .collect(),
            size_results: 0,
            result,
        }],
    };
    CompiledProgram::new(program).unwrap_or_else(|e| panic!("{e}"))
}

fn input(n: usize, seed: i64) -> Vec<i64> {
    (0..n as i64)
        .map(|i| (i.wrapping_mul(2654435761).wrapping_add(seed)) % 1000 - 300)
        .collect()
}

fn arr(v: Vec<i64>) -> Value {
    Value::Array(Array::from_vec(v))
}

fn run(program: &CompiledProgram, args: &[Vec<i64>]) -> Value {
    let args: Vec<Value> = args.iter().cloned().map(arr).collect();
    program
        .run_entry("main", &args)
        .unwrap_or_else(|e| panic!("{e}"))
}

type Matrix = [i64; 4];

fn matrix_product(x: Matrix, y: Matrix) -> Matrix {
    let m = |a: i64, b: i64| a.wrapping_mul(b);
    [
        m(x[0], y[0]).wrapping_add(m(x[1], y[2])),
        m(x[0], y[1]).wrapping_add(m(x[1], y[3])),
        m(x[2], y[0]).wrapping_add(m(x[3], y[2])),
        m(x[2], y[1]).wrapping_add(m(x[3], y[3])),
    ]
}

/// The lambda `(a, b) -> a·b` on 2×2 matrices flattened to four `i64`s.
fn matrix_lambda(b: &mut Builder) -> Lambda {
    b.lambda(&vec![prim(I64); 8], &vec![prim(I64); 4], |b, p| {
        let x: Vec<SubExp> = p[..4].iter().map(var).collect();
        let y: Vec<SubExp> = p[4..].iter().map(var).collect();
        let entry = |i: usize, j: usize, b: &mut Builder| {
            let l = binop(b, BinOp::Mul, x[2 * i].clone(), y[j].clone());
            let r = binop(b, BinOp::Mul, x[2 * i + 1].clone(), y[2 + j].clone());
            binop(b, BinOp::Add, l, r)
        };
        vec![
            entry(0, 0, b),
            entry(0, 1, b),
            entry(1, 0, b),
            entry(1, 1, b),
        ]
    })
}

fn identity() -> Vec<SubExp> {
    vec![i64c(1), i64c(0), i64c(0), i64c(1)]
}

fn small_matrices(n: usize) -> [Vec<i64>; 4] {
    [
        input(n, 1).iter().map(|x| x % 3).collect(),
        input(n, 2).iter().map(|x| x % 3).collect(),
        input(n, 3).iter().map(|x| x % 3).collect(),
        input(n, 4).iter().map(|x| x % 3).collect(),
    ]
}

fn array_values(v: &Value) -> Vec<i64> {
    v.as_array()
        .and_then(|a| a.data().as_slice::<i64>())
        .expect("an i64 array")
        .to_vec()
}

fn tuple(v: &Value) -> &[Value] {
    match v {
        Value::Tuple(vs) => vs,
        other => panic!("not a tuple: {other}"),
    }
}

fn prim_i64(v: &Value) -> i64 {
    match v {
        Value::Prim(PrimValue::I64(x)) => *x,
        other => panic!("not an i64: {other}"),
    }
}

#[test]
fn map_matches_sequential_rust() {
    let program = entry_program(1, i64_array_layout(), |b, n, xs| {
        let f = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
            let t = binop(b, BinOp::Mul, var(&p[0]), i64c(3));
            vec![binop(b, BinOp::Add, t, i64c(1))]
        });
        vec![b.bind(
            "ys",
            array(I64, [n.clone()]),
            Exp::Soac(Soac::Map {
                width: n.clone(),
                lambda: f,
                arrays: vec![xs[0].clone()],
            }),
        )]
    });
    for n in SIZES {
        let xs = input(n, 7);
        let expected: Vec<i64> = xs.iter().map(|x| x * 3 + 1).collect();
        assert_eq!(array_values(&run(&program, &[xs])), expected, "size {n}");
    }
}

#[test]
fn reduce_and_scan_keep_the_order_of_a_non_commutative_operator() {
    let layout4 = |l: Layout| Layout::Tuple(vec![l.clone(), l.clone(), l.clone(), l]);
    let reduce = entry_program(4, layout4(Layout::Prim(I64)), |b, n, xs| {
        let op = matrix_lambda(b);
        let out = b.bind_many(
            &["a", "b", "c", "d"],
            |_| vec![prim(I64); 4],
            Exp::Soac(Soac::Reduce {
                width: n.clone(),
                lambda: op,
                neutral: identity(),
                arrays: xs.to_vec(),
            }),
        );
        out.iter().map(var).collect()
    });
    let scan = entry_program(4, layout4(i64_array_layout()), |b, n, xs| {
        let op = matrix_lambda(b);
        let t = array(I64, [n.clone()]);
        let out = b.bind_many(
            &["a", "b", "c", "d"],
            |_| vec![t.clone(); 4],
            Exp::Soac(Soac::Scan {
                width: n.clone(),
                lambda: op,
                neutral: identity(),
                arrays: xs.to_vec(),
            }),
        );
        out.iter().map(var).collect()
    });
    for n in SIZES {
        let ms = small_matrices(n);
        let matrices: Vec<Matrix> = (0..n)
            .map(|i| [ms[0][i], ms[1][i], ms[2][i], ms[3][i]])
            .collect();
        let mut acc = [1, 0, 0, 1];
        let mut prefixes = Vec::new();
        for m in &matrices {
            acc = matrix_product(acc, *m);
            prefixes.push(acc);
        }
        let reduced = run(&reduce, &ms);
        let got: Vec<i64> = tuple(&reduced).iter().map(prim_i64).collect();
        assert_eq!(got, acc.to_vec(), "reduce, size {n}");
        let scanned = run(&scan, &ms);
        for (k, component) in tuple(&scanned).iter().enumerate() {
            let expected: Vec<i64> = prefixes.iter().map(|p| p[k]).collect();
            assert_eq!(
                array_values(component),
                expected,
                "scan component {k}, size {n}"
            );
        }
    }
    // The operator is really non-commutative on these inputs.
    let ms = small_matrices(50);
    let a = [ms[0][3], ms[1][3], ms[2][3], ms[3][3]];
    let b = [ms[0][4], ms[1][4], ms[2][4], ms[3][4]];
    assert_ne!(matrix_product(a, b), matrix_product(b, a));
}

/// The map lambda of the fused forms: `x -> ([[x mod 5, 1], [1, 0]], 2x)`.
fn fibonacci_like(b: &mut Builder) -> Lambda {
    b.lambda(&[prim(I64)], &vec![prim(I64); 5], |b, p| {
        let m = binop(b, BinOp::Mod, var(&p[0]), i64c(5));
        let twice = binop(b, BinOp::Mul, var(&p[0]), i64c(2));
        vec![m, i64c(1), i64c(1), i64c(0), twice]
    })
}

fn fibonacci_matrix(x: i64) -> Matrix {
    [x.rem_euclid(5), 1, 1, 0]
}

#[test]
fn redomap_and_scanomap_fold_in_order_and_write_the_mapped_array() {
    let four = |l: Layout| vec![l.clone(), l.clone(), l.clone(), l];
    let mut redomap_layout = four(Layout::Prim(I64));
    redomap_layout.push(i64_array_layout());
    let redomap = entry_program(1, Layout::Tuple(redomap_layout), |b, n, xs| {
        let map = fibonacci_like(b);
        let op = matrix_lambda(b);
        let nd = n.clone();
        let out = b.bind_many(
            &["a", "b", "c", "d", "twice"],
            move |_| {
                let mut t = vec![prim(I64); 4];
                t.push(array(I64, [nd]));
                t
            },
            Exp::Soac(Soac::Redomap {
                width: n.clone(),
                map_lambda: map,
                reduce_lambda: op,
                neutral: identity(),
                arrays: xs.to_vec(),
            }),
        );
        out.iter().map(var).collect()
    });
    let scanomap = entry_program(1, Layout::Tuple(vec![i64_array_layout(); 5]), |b, n, xs| {
        let map = fibonacci_like(b);
        let op = matrix_lambda(b);
        let t = array(I64, [n.clone()]);
        let out = b.bind_many(
            &["a", "b", "c", "d", "twice"],
            |_| vec![t.clone(); 5],
            Exp::Soac(Soac::Scanomap {
                width: n.clone(),
                map_lambda: map,
                scan_lambda: op,
                neutral: identity(),
                arrays: xs.to_vec(),
            }),
        );
        out.iter().map(var).collect()
    });
    for n in SIZES {
        let xs = input(n, 11);
        let mut acc = [1, 0, 0, 1];
        let mut prefixes = Vec::new();
        for x in &xs {
            acc = matrix_product(acc, fibonacci_matrix(*x));
            prefixes.push(acc);
        }
        let twice: Vec<i64> = xs.iter().map(|x| 2 * x).collect();
        let r = run(&redomap, std::slice::from_ref(&xs));
        let r = tuple(&r);
        let got: Vec<i64> = r[..4].iter().map(prim_i64).collect();
        assert_eq!(got, acc.to_vec(), "redomap, size {n}");
        assert_eq!(array_values(&r[4]), twice, "redomap map part, size {n}");
        let s = run(&scanomap, std::slice::from_ref(&xs));
        let s = tuple(&s);
        for k in 0..4 {
            let expected: Vec<i64> = prefixes.iter().map(|p| p[k]).collect();
            assert_eq!(
                array_values(&s[k]),
                expected,
                "scanomap component {k}, size {n}"
            );
        }
        assert_eq!(array_values(&s[4]), twice, "scanomap map part, size {n}");
    }
}

#[test]
fn filter_keeps_rows_in_order() {
    let program = entry_program(
        2,
        Layout::Tuple(vec![
            Layout::Prim(I64),
            i64_array_layout(),
            i64_array_layout(),
        ]),
        |b, n, xs| {
            let keep = b.lambda(&[prim(I64), prim(I64)], &[prim(BOOL)], |b, p| {
                let r = binop(b, BinOp::Mod, var(&p[0]), i64c(3));
                vec![b.bind(
                    "keep",
                    prim(BOOL),
                    Exp::CmpOp {
                        op: CmpOp::Eq,
                        ty: I64,
                        left: r,
                        right: i64c(0),
                    },
                )]
            });
            let out = b.bind_many(
                &["m", "a", "b"],
                |names| {
                    vec![
                        prim(I64),
                        array(I64, [var(&names[0])]),
                        array(I64, [var(&names[0])]),
                    ]
                },
                Exp::Soac(Soac::Filter {
                    width: n.clone(),
                    predicate: keep,
                    arrays: xs.to_vec(),
                }),
            );
            out.iter().map(var).collect()
        },
    );
    for n in SIZES {
        let xs = input(n, 5);
        let ys = input(n, 6);
        let kept: Vec<usize> = (0..n).filter(|&i| xs[i].rem_euclid(3) == 0).collect();
        let r = run(&program, &[xs.clone(), ys.clone()]);
        let r = tuple(&r);
        assert_eq!(prim_i64(&r[0]), kept.len() as i64, "size {n}");
        assert_eq!(
            array_values(&r[1]),
            kept.iter().map(|&i| xs[i]).collect::<Vec<_>>(),
            "size {n}"
        );
        assert_eq!(
            array_values(&r[2]),
            kept.iter().map(|&i| ys[i]).collect::<Vec<_>>(),
            "size {n}"
        );
    }
}

/// `hist` into `bins` bins of `(+)` with indices `x mod (bins + 2) - 1`
/// (some out of bounds on both sides) and values `x`.
fn hist_program(bins: i64) -> CompiledProgram {
    entry_program(1, i64_array_layout(), move |b, n, xs| {
        let index = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
            let r = b.bind(
                "r",
                prim(I64),
                Exp::BinOp {
                    op: BinOp::Mod,
                    ty: I64,
                    left: var(&p[0]),
                    right: i64c(bins + 2),
                },
            );
            vec![binop(b, BinOp::Sub, r, i64c(1))]
        });
        let is = b.bind(
            "is",
            array(I64, [n.clone()]),
            Exp::Soac(Soac::Map {
                width: n.clone(),
                lambda: index,
                arrays: vec![xs[0].clone()],
            }),
        );
        let dest = b.bind(
            "dest",
            array(I64, [i64c(bins)]),
            Exp::Replicate {
                shape: vec![i64c(bins)],
                value: i64c(0),
            },
        );
        let plus = b.binop_lambda(BinOp::Add, I64);
        vec![b.bind(
            "h",
            array(I64, [i64c(bins)]),
            Exp::Soac(Soac::Hist {
                width: n.clone(),
                destinations: vec![dest.as_var().unwrap().clone()],
                operator: plus,
                neutral: vec![i64c(0)],
                indices: is.as_var().unwrap().clone(),
                values: vec![xs[0].clone()],
            }),
        )]
    })
}

#[test]
fn hist_with_few_and_many_bins() {
    for bins in [1i64, 10, 100_000] {
        let program = hist_program(bins);
        for n in SIZES {
            let xs = input(n, 9);
            let mut expected = vec![0i64; bins as usize];
            for x in &xs {
                let i = x.rem_euclid(bins + 2) - 1;
                if 0 <= i && i < bins {
                    expected[i as usize] += x;
                }
            }
            assert_eq!(
                array_values(&run(&program, &[xs])),
                expected,
                "bins {bins}, size {n}"
            );
        }
    }
}

#[test]
fn scatter_ignores_out_of_bounds_and_the_last_duplicate_wins() {
    let m = 1000i64;
    let program = entry_program(2, i64_array_layout(), move |b, n, xs| {
        let dest = b.bind(
            "dest",
            array(I64, [i64c(m)]),
            Exp::Replicate {
                shape: vec![i64c(m)],
                value: i64c(-1),
            },
        );
        vec![b.bind(
            "s",
            array(I64, [i64c(m)]),
            Exp::Soac(Soac::Scatter {
                width: n.clone(),
                destinations: vec![dest.as_var().unwrap().clone()],
                indices: xs[0].clone(),
                values: vec![xs[1].clone()],
            }),
        )]
    });
    for n in SIZES {
        let is: Vec<i64> = input(n, 3).iter().map(|x| x * 2).collect();
        let vs = input(n, 4);
        let mut expected = vec![-1i64; m as usize];
        for (i, v) in is.iter().zip(&vs) {
            if 0 <= *i && *i < m {
                expected[*i as usize] = *v;
            }
        }
        assert_eq!(
            array_values(&run(&program, &[is, vs])),
            expected,
            "size {n}"
        );
    }
}

#[test]
fn the_first_failing_element_is_reported() {
    // map over iota n: assert i != 5000 ("first"), then assert i != 250000
    // ("second"): element 5000 fails first in element order.
    let program = entry_program(1, i64_array_layout(), |b, n, xs| {
        let f = b.lambda(&[prim(I64), prim(I64)], &[prim(I64)], |b, p| {
            for (k, message) in [(5000, "first"), (250_000, "second")] {
                let ok = b.bind(
                    "ok",
                    prim(BOOL),
                    Exp::CmpOp {
                        op: CmpOp::Ne,
                        ty: I64,
                        left: var(&p[1]),
                        right: i64c(k),
                    },
                );
                b.statement(
                    vec![],
                    Exp::Assert {
                        condition: ok,
                        message: message.into(),
                        operands: Vec::new(),
                        span: Span::new(spec::source::FileId(0), k as usize, k as usize + 1),
                    },
                );
            }
            vec![var(&p[0])]
        });
        let is = b.bind("is", array(I64, [n.clone()]), b.iota(n.clone()));
        vec![b.bind(
            "ys",
            array(I64, [n.clone()]),
            Exp::Soac(Soac::Map {
                width: n.clone(),
                lambda: f,
                arrays: vec![xs[0].clone(), is.as_var().unwrap().clone()],
            }),
        )]
    });
    let error = program
        .run_entry("main", &[arr(input(300_000, 1))])
        .expect_err("element 5000 fails");
    assert_eq!(error.message, "first");
    assert_eq!((error.span.start, error.span.end), (5000, 5001));
    let fine = run(&program, &[input(4000, 1)]);
    assert_eq!(array_values(&fine), input(4000, 1));
}

/// Straight-line scalar lambdas take the block-vectorised path: check it
/// against Rust on conversions, comparisons, math functions, a free
/// variable, and simple reductions (`+` on integers, `max` on floats: exact
/// whatever the grouping).
#[test]
fn vectorisable_lambdas_match_sequential_rust() {
    const F64: PrimType = PrimType::F64;
    let layout = Layout::Tuple(vec![
        Layout::Array {
            rank: 1,
            element: Box::new(Layout::Prim(F64)),
        },
        Layout::Array {
            rank: 1,
            element: Box::new(Layout::Prim(BOOL)),
        },
        Layout::Prim(I64),
        Layout::Prim(F64),
        Layout::Array {
            rank: 1,
            element: Box::new(Layout::Prim(I64)),
        },
    ]);
    let program = entry_program(1, layout, |b, n, xs| {
        // A free variable of the lambdas: k = n - 1.
        let k = binop(b, BinOp::Sub, n.clone(), i64c(1));
        let f = b.lambda(&[prim(I64)], &[prim(F64), prim(BOOL)], |b, p| {
            let shifted = binop(b, BinOp::Add, var(&p[0]), k.clone());
            let x = b.bind(
                "x",
                prim(F64),
                Exp::ConvOp {
                    op: ConvOp { from: I64, to: F64 },
                    operand: shifted,
                },
            );
            let a = b.bind(
                "a",
                prim(F64),
                Exp::UnOp {
                    op: UnOp::Abs,
                    ty: F64,
                    operand: x.clone(),
                },
            );
            let r = b.bind(
                "r",
                prim(F64),
                Exp::UnOp {
                    op: UnOp::Sqrt,
                    ty: F64,
                    operand: a,
                },
            );
            let big = b.bind(
                "big",
                prim(BOOL),
                Exp::CmpOp {
                    op: CmpOp::Gt,
                    ty: F64,
                    left: r.clone(),
                    right: optimized::ir::builder::constant(10.0f64),
                },
            );
            vec![r, big]
        });
        let out = b.bind_many(
            &["roots", "bigs"],
            |_| vec![array(F64, [n.clone()]), array(BOOL, [n.clone()])],
            Exp::Soac(Soac::Map {
                width: n.clone(),
                lambda: f,
                arrays: vec![xs[0].clone()],
            }),
        );
        let plus = b.binop_lambda(BinOp::Add, I64);
        let sum = b.bind(
            "sum",
            prim(I64),
            Exp::Soac(Soac::Reduce {
                width: n.clone(),
                lambda: plus,
                neutral: vec![i64c(0)],
                arrays: vec![xs[0].clone()],
            }),
        );
        let square = b.lambda(&[prim(I64)], &[prim(F64), prim(I64)], |b, p| {
            let sq = binop(b, BinOp::Mul, var(&p[0]), var(&p[0]));
            let x = b.bind(
                "x",
                prim(F64),
                Exp::ConvOp {
                    op: ConvOp { from: I64, to: F64 },
                    operand: sq.clone(),
                },
            );
            vec![x, sq]
        });
        let max = b.binop_lambda(BinOp::Max, F64);
        let fused = b.bind_many(
            &["biggest", "squares"],
            |_| vec![prim(F64), array(I64, [n.clone()])],
            Exp::Soac(Soac::Redomap {
                width: n.clone(),
                map_lambda: square,
                reduce_lambda: max,
                neutral: vec![SubExp::Constant(PrimValue::F64(f64::NEG_INFINITY))],
                arrays: vec![xs[0].clone()],
            }),
        );
        vec![
            var(&out[0]),
            var(&out[1]),
            sum,
            var(&fused[0]),
            var(&fused[1]),
        ]
    });
    for n in SIZES {
        let xs = input(n, 13);
        let k = n as i64 - 1;
        let roots: Vec<f64> = xs.iter().map(|x| ((x + k) as f64).abs().sqrt()).collect();
        let bigs: Vec<bool> = roots.iter().map(|r| *r > 10.0).collect();
        let r = run(&program, std::slice::from_ref(&xs));
        let r = tuple(&r);
        let got_roots = r[0]
            .as_array()
            .unwrap()
            .data()
            .as_slice::<f64>()
            .unwrap()
            .to_vec();
        assert_eq!(
            got_roots.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            roots.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "size {n}"
        );
        assert_eq!(
            r[1].as_array().unwrap().data().as_slice::<bool>().unwrap(),
            bigs.as_slice(),
            "size {n}"
        );
        assert_eq!(prim_i64(&r[2]), xs.iter().sum::<i64>(), "size {n}");
        let biggest = xs
            .iter()
            .map(|x| (x * x) as f64)
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(r[3], Value::Prim(PrimValue::F64(biggest)), "size {n}");
        assert_eq!(
            array_values(&r[4]),
            xs.iter().map(|x| x * x).collect::<Vec<_>>(),
            "size {n}"
        );
    }
}

#[test]
fn which_lambdas_are_vectorised() {
    use optimized::cpu::vector::{plan, simple_operator};
    let mut b = Builder::new();
    let arithmetic = b.lambda(&[prim(I64), prim(I64)], &[prim(I64)], |b, p| {
        vec![binop(b, BinOp::Mul, var(&p[0]), var(&p[1]))]
    });
    assert!(plan(&arithmetic, &mut |_| 0).is_some());
    // Integer division can fail: it is vectorised, and a failing lane makes
    // the SOAC run again element-wise (tests/programs/soacs/map_lambda_loops.fut).
    let division = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
        vec![binop(b, BinOp::Div, i64c(1), var(&p[0]))]
    });
    assert!(plan(&division, &mut |_| 0).is_some());
    // Inside a branch it would run for lanes that do not take the branch:
    // not vectorised.
    let guarded_division = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
        let nonzero = b.bind(
            "nonzero",
            prim(PrimType::Bool),
            Exp::CmpOp {
                op: CmpOp::Ne,
                ty: I64,
                left: var(&p[0]),
                right: i64c(0),
            },
        );
        let then_body = b.body(|b| vec![binop(b, BinOp::Div, i64c(1), var(&p[0]))]);
        let else_body = b.body(|_| vec![i64c(0)]);
        vec![b.bind(
            "quotient",
            prim(I64),
            Exp::If {
                condition: nonzero,
                then_body,
                else_body,
                types: vec![ExtType::Prim(I64)],
            },
        )]
    });
    assert!(plan(&guarded_division, &mut |_| 0).is_none());
    let matrix = matrix_lambda(&mut b);
    assert!(plan(&matrix, &mut |_| 0).is_some());
    assert!(
        simple_operator(&matrix).is_none(),
        "a matrix product is not a simple operator"
    );
    let plus = b.binop_lambda(BinOp::Add, I64);
    assert_eq!(simple_operator(&plus), Some(vec![(BinOp::Add, I64)]));
    let minus = b.binop_lambda(BinOp::Sub, I64);
    assert!(simple_operator(&minus).is_none(), "not commutative");
}

/// `scan (+)` and a `scanomap` whose parts are vectorisable, against Rust.
#[test]
fn vectorisable_scans_match_sequential_rust() {
    let program = entry_program(1, Layout::Tuple(vec![i64_array_layout(); 3]), |b, n, xs| {
        let plus = b.binop_lambda(BinOp::Add, I64);
        let sums = b.bind(
            "sums",
            array(I64, [n.clone()]),
            Exp::Soac(Soac::Scan {
                width: n.clone(),
                lambda: plus,
                neutral: vec![i64c(0)],
                arrays: vec![xs[0].clone()],
            }),
        );
        let map = b.lambda(&[prim(I64)], &[prim(I64), prim(I64)], |b, p| {
            let twice = binop(b, BinOp::Mul, var(&p[0]), i64c(2));
            let next = binop(b, BinOp::Add, var(&p[0]), i64c(1));
            vec![twice, next]
        });
        let plus = b.binop_lambda(BinOp::Add, I64);
        let fused = b.bind_many(
            &["twice_sums", "nexts"],
            |_| vec![array(I64, [n.clone()]), array(I64, [n.clone()])],
            Exp::Soac(Soac::Scanomap {
                width: n.clone(),
                map_lambda: map,
                scan_lambda: plus,
                neutral: vec![i64c(0)],
                arrays: vec![xs[0].clone()],
            }),
        );
        vec![sums, var(&fused[0]), var(&fused[1])]
    });
    for n in SIZES {
        let xs = input(n, 17);
        let prefix = |v: Vec<i64>| -> Vec<i64> {
            v.iter()
                .scan(0i64, |acc, x| {
                    *acc += x;
                    Some(*acc)
                })
                .collect()
        };
        let r = run(&program, std::slice::from_ref(&xs));
        let r = tuple(&r);
        assert_eq!(array_values(&r[0]), prefix(xs.clone()), "scan, size {n}");
        assert_eq!(
            array_values(&r[1]),
            prefix(xs.iter().map(|x| 2 * x).collect()),
            "scanomap, size {n}"
        );
        assert_eq!(
            array_values(&r[2]),
            xs.iter().map(|x| x + 1).collect::<Vec<_>>(),
            "size {n}"
        );
    }
}
