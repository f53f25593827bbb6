//! The CPU backend against hand-written Rust + rayon (issue 5, "Done
//! when"): IR versions of the benchmark kernels built with `ir::builder`
//! (the `.fut` lowering lands later), each timed side by side with its
//! `benches::kernels` baseline in one criterion run. Inputs are converted
//! once (`CompiledProgram::prepare_arguments`) and shared by every run, as
//! the baselines borrow theirs, so both sides time the computation alone.
//!
//! `cargo bench -p optimized --bench cpu_kernels` (set `CPU_KERNELS_N` to
//! change the element count, 10M by default).

use criterion::{criterion_group, criterion_main, Criterion};
use optimized::cpu::{CompiledProgram, PreparedArguments};
use optimized::ir::builder::{array, constant, prim, Builder};
use optimized::ir::*;
use spec::value::{Array, Element, Value};

const F32: PrimType = PrimType::F32;
const I32: PrimType = PrimType::I32;
const I64: PrimType = PrimType::I64;

fn var(v: &VName) -> SubExp {
    SubExp::Var(v.clone())
}

fn binop(b: &mut Builder, op: BinOp, ty: PrimType, left: SubExp, right: SubExp) -> SubExp {
    b.bind(
        "t",
        prim(ty),
        Exp::BinOp {
            op,
            ty,
            left,
            right,
        },
    )
}

fn array_layout(t: PrimType) -> Layout {
    Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(t)),
    }
}

/// `main(n: i64 size, a: scalar…, xs: [n]t …)`: `scalars` scalar parameters
/// then `k` arrays of `t`; `body` builds the results.
fn entry_program(
    scalars: &[PrimType],
    k: usize,
    t: PrimType,
    result: Layout,
    body: impl FnOnce(&mut Builder, &SubExp, &[VName], &[VName]) -> Vec<SubExp>,
) -> CompiledProgram {
    let mut b = Builder::new();
    let n = b.param("n", prim(I64));
    let n_dim = var(&n.name);
    let mut params = vec![n];
    for s in scalars {
        params.push(b.param("a", prim(*s)));
    }
    for _ in 0..k {
        params.push(b.param("xs", array(t, [n_dim.clone()])));
    }
    let s = scalars.len();
    let function = b.function_of_params("main", params, |b, names| {
        body(b, &n_dim, &names[1..1 + s], &names[1 + s..])
    });
    let mut parameters: Vec<EntryParam> = scalars
        .iter()
        .enumerate()
        .map(|(i, t)| EntryParam {
            name: format!("a{i}"),
            layout: Layout::Prim(*t),
        })
        .collect();
    parameters.extend((0..k).map(|i| EntryParam {
        name: format!("xs{i}"),
        layout: array_layout(t),
    }));
    let program = Program {
        functions: vec![function],
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 1,
            parameters,
            size_results: 0,
            result,
        }],
    };
    CompiledProgram::new(program).unwrap_or_else(|e| panic!("{e}"))
}

fn saxpy_program() -> CompiledProgram {
    entry_program(&[F32], 2, F32, array_layout(F32), |b, n, a, xs| {
        let f = b.lambda(&[prim(F32), prim(F32)], &[prim(F32)], |b, p| {
            let t = binop(b, BinOp::Mul, F32, var(&a[0]), var(&p[0]));
            vec![binop(b, BinOp::Add, F32, t, var(&p[1]))]
        });
        vec![b.bind(
            "ys",
            array(F32, [n.clone()]),
            Exp::Soac(Soac::Map {
                width: n.clone(),
                lambda: f,
                arrays: xs.to_vec(),
            }),
        )]
    })
}

fn dot_program() -> CompiledProgram {
    entry_program(&[], 2, F32, Layout::Prim(F32), |b, n, _, xs| {
        let f = b.lambda(&[prim(F32), prim(F32)], &[prim(F32)], |b, p| {
            vec![binop(b, BinOp::Mul, F32, var(&p[0]), var(&p[1]))]
        });
        let op = b.binop_lambda(BinOp::Add, F32);
        vec![b.bind(
            "d",
            prim(F32),
            Exp::Soac(Soac::Redomap {
                width: n.clone(),
                map_lambda: f,
                reduce_lambda: op,
                neutral: vec![constant(0.0f32)],
                arrays: xs.to_vec(),
            }),
        )]
    })
}

fn sum_program() -> CompiledProgram {
    entry_program(&[], 1, I32, Layout::Prim(I32), |b, n, _, xs| {
        let op = b.binop_lambda(BinOp::Add, I32);
        vec![b.bind(
            "s",
            prim(I32),
            Exp::Soac(Soac::Reduce {
                width: n.clone(),
                lambda: op,
                neutral: vec![constant(0i32)],
                arrays: xs.to_vec(),
            }),
        )]
    })
}

fn prefix_sum_program() -> CompiledProgram {
    entry_program(&[], 1, I32, array_layout(I32), |b, n, _, xs| {
        let op = b.binop_lambda(BinOp::Add, I32);
        vec![b.bind(
            "ps",
            array(I32, [n.clone()]),
            Exp::Soac(Soac::Scan {
                width: n.clone(),
                lambda: op,
                neutral: vec![constant(0i32)],
                arrays: xs.to_vec(),
            }),
        )]
    })
}

fn cmp(b: &mut Builder, op: CmpOp, ty: PrimType, left: SubExp, right: SubExp) -> SubExp {
    b.bind(
        "c",
        prim(PrimType::Bool),
        Exp::CmpOp {
            op,
            ty,
            left,
            right,
        },
    )
}

fn to_f32(b: &mut Builder, from: PrimType, operand: SubExp) -> SubExp {
    b.bind(
        "f",
        prim(F32),
        Exp::ConvOp {
            op: ConvOp { from, to: F32 },
            operand,
        },
    )
}

/// `go = i < limit && zr*zr + zi*zi < 4`, as in `benches::kernels`.
fn escape_condition(b: &mut Builder, limit: &VName, zr: SubExp, zi: SubExp, i: SubExp) -> SubExp {
    let more = cmp(b, CmpOp::Lt, I32, i, var(limit));
    let zr2 = binop(b, BinOp::Mul, F32, zr.clone(), zr);
    let zi2 = binop(b, BinOp::Mul, F32, zi.clone(), zi);
    let norm = binop(b, BinOp::Add, F32, zr2, zi2);
    let inside = cmp(b, CmpOp::Lt, F32, norm, constant(4.0f32));
    binop(b, BinOp::LogAnd, PrimType::Bool, more, inside)
}

/// `main(h: i64, w: i64, limit: i32)`: a map over `iota (h*w)` whose lambda
/// runs a `while` loop with a branching condition per element.
fn mandelbrot_program() -> CompiledProgram {
    let mut b = Builder::new();
    let params = vec![
        b.param("h", prim(I64)),
        b.param("w", prim(I64)),
        b.param("limit", prim(I32)),
    ];
    let function = b.function_of_params("main", params, |b, names| {
        let (h, w, limit) = (&names[0], &names[1], &names[2]);
        let hw = binop(b, BinOp::Mul, I64, var(h), var(w));
        let iota = b.iota(hw.clone());
        let ks = b.bind("ks", array(I64, [hw.clone()]), iota);
        let SubExp::Var(ks) = ks else {
            unreachable!("bind gives a variable")
        };
        let f = b.lambda(&[prim(I64)], &[prim(I32)], |b, p| {
            let y = binop(b, BinOp::Div, I64, var(&p[0]), var(w));
            let x = binop(b, BinOp::Mod, I64, var(&p[0]), var(w));
            let coordinate = |b: &mut Builder, at: SubExp, size: &VName, low: f32| {
                let at = to_f32(b, I64, at);
                let size = to_f32(b, I64, var(size));
                let scaled = binop(b, BinOp::Mul, F32, constant(3.0f32), at);
                let ratio = binop(b, BinOp::Div, F32, scaled, size);
                binop(b, BinOp::Add, F32, constant(low), ratio)
            };
            let ci = coordinate(b, y, h, -1.5);
            let cr = coordinate(b, x, w, -2.0);
            let zr = b.param("zr", prim(F32));
            let zi = b.param("zi", prim(F32));
            let i = b.param("i", prim(I32));
            let go = b.param("go", prim(PrimType::Bool));
            let go0 =
                escape_condition(b, limit, constant(0.0f32), constant(0.0f32), constant(0i32));
            let body = b.body(|b| {
                let zr2 = binop(b, BinOp::Mul, F32, var(&zr.name), var(&zr.name));
                let zi2 = binop(b, BinOp::Mul, F32, var(&zi.name), var(&zi.name));
                let re = binop(b, BinOp::Sub, F32, zr2, zi2);
                let re = binop(b, BinOp::Add, F32, re, cr.clone());
                let im = binop(b, BinOp::Mul, F32, constant(2.0f32), var(&zr.name));
                let im = binop(b, BinOp::Mul, F32, im, var(&zi.name));
                let im = binop(b, BinOp::Add, F32, im, ci.clone());
                let next = binop(b, BinOp::Add, I32, var(&i.name), constant(1i32));
                let go = escape_condition(b, limit, re.clone(), im.clone(), next.clone());
                vec![re, im, next, go]
            });
            let out = b.bind_many(
                &["zr", "zi", "i", "go"],
                |_| vec![prim(F32), prim(F32), prim(I32), prim(PrimType::Bool)],
                Exp::Loop {
                    params: vec![
                        (zr, constant(0.0f32)),
                        (zi, constant(0.0f32)),
                        (i, constant(0i32)),
                        (go.clone(), go0),
                    ],
                    form: LoopForm::While {
                        condition_param: go.name.clone(),
                    },
                    body,
                },
            );
            vec![var(&out[2])]
        });
        let counts = b.bind(
            "counts",
            array(I32, [hw.clone()]),
            Exp::Soac(Soac::Map {
                width: hw.clone(),
                lambda: f,
                arrays: vec![ks],
            }),
        );
        // The size first: the result's dimension is existential.
        vec![hw, counts]
    });
    let program = Program {
        functions: vec![function],
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 0,
            parameters: vec![
                EntryParam {
                    name: "h".into(),
                    layout: Layout::Prim(I64),
                },
                EntryParam {
                    name: "w".into(),
                    layout: Layout::Prim(I64),
                },
                EntryParam {
                    name: "limit".into(),
                    layout: Layout::Prim(I32),
                },
            ],
            size_results: 1,
            result: array_layout(I32),
        }],
    };
    CompiledProgram::new(program).unwrap_or_else(|e| panic!("{e}"))
}

fn floats(n: usize, seed: u32) -> Vec<f32> {
    (0..n as u32)
        .map(|i| (i.wrapping_mul(2654435761).wrapping_add(seed) % 1000) as f32 / 1000.0)
        .collect()
}

fn ints(n: usize, seed: u32) -> Vec<i32> {
    (0..n as u32)
        .map(|i| (i.wrapping_mul(2654435761).wrapping_add(seed) % 1000) as i32 - 300)
        .collect()
}

fn arr<T: Element>(v: Vec<T>) -> Value {
    Value::Array(Array::from_vec(v))
}

fn prepare(program: &CompiledProgram, args: Vec<Value>) -> PreparedArguments {
    program
        .prepare_arguments("main", args)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn run(program: &CompiledProgram, args: &PreparedArguments) -> Value {
    program.run_prepared(args).unwrap_or_else(|e| panic!("{e}"))
}

fn element_count() -> usize {
    std::env::var("CPU_KERNELS_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000)
}

fn kernels(c: &mut Criterion) {
    let n = element_count();
    let xs = floats(n, 1);
    let ys = floats(n, 2);
    let is = ints(n, 3);
    let a = 2.5f32;

    let mut group = c.benchmark_group(format!("cpu_kernels/{n}"));
    group.sample_size(10);

    let saxpy = saxpy_program();
    let saxpy_args = prepare(
        &saxpy,
        vec![
            Value::Prim(PrimValue::F32(a)),
            arr(xs.clone()),
            arr(ys.clone()),
        ],
    );
    assert_eq!(
        run(&saxpy, &saxpy_args),
        arr(benches::kernels::saxpy(a, &xs, &ys))
    );
    group.bench_function("saxpy/ir", |bench| bench.iter(|| run(&saxpy, &saxpy_args)));
    group.bench_function("saxpy/rayon", |bench| {
        bench.iter(|| benches::kernels::saxpy(a, &xs, &ys))
    });

    let dot = dot_program();
    let dot_args = prepare(&dot, vec![arr(xs.clone()), arr(ys.clone())]);
    let Value::Prim(PrimValue::F32(d)) = run(&dot, &dot_args) else {
        panic!("dot returns an f32")
    };
    let expected = benches::kernels::dot(&xs, &ys);
    assert!(
        (d - expected).abs() <= 1e-3 * expected.abs(),
        "{d} vs {expected}"
    );
    group.bench_function("dot/ir", |bench| bench.iter(|| run(&dot, &dot_args)));
    group.bench_function("dot/rayon", |bench| {
        bench.iter(|| benches::kernels::dot(&xs, &ys))
    });

    let sum = sum_program();
    let sum_args = prepare(&sum, vec![arr(is.clone())]);
    assert_eq!(
        run(&sum, &sum_args),
        Value::Prim(PrimValue::I32(benches::kernels::sum(&is)))
    );
    group.bench_function("sum/ir", |bench| bench.iter(|| run(&sum, &sum_args)));
    group.bench_function("sum/rayon", |bench| {
        bench.iter(|| benches::kernels::sum(&is))
    });

    let prefix_sum = prefix_sum_program();
    let prefix_sum_args = prepare(&prefix_sum, vec![arr(is.clone())]);
    assert_eq!(
        run(&prefix_sum, &prefix_sum_args),
        arr(benches::kernels::prefix_sum(&is))
    );
    group.bench_function("prefix_sum/ir", |bench| {
        bench.iter(|| run(&prefix_sum, &prefix_sum_args))
    });
    group.bench_function("prefix_sum/rayon", |bench| {
        bench.iter(|| benches::kernels::prefix_sum(&is))
    });
    group.finish();

    // Mandelbrot on a square grid of about `n / 40` points, limit 100.
    let side = ((n / 40) as f64).sqrt() as usize;
    let limit = 100;
    let mut group = c.benchmark_group(format!("cpu_kernels/mandelbrot_{side}x{side}"));
    group.sample_size(10);
    let mandelbrot = mandelbrot_program();
    let mandelbrot_args = prepare(
        &mandelbrot,
        vec![
            Value::Prim(PrimValue::I64(side as i64)),
            Value::Prim(PrimValue::I64(side as i64)),
            Value::Prim(PrimValue::I32(limit)),
        ],
    );
    assert_eq!(
        run(&mandelbrot, &mandelbrot_args),
        arr(benches::kernels::mandelbrot(side, side, limit))
    );
    group.bench_function("ir", |bench| {
        bench.iter(|| run(&mandelbrot, &mandelbrot_args))
    });
    group.bench_function("rayon", |bench| {
        bench.iter(|| benches::kernels::mandelbrot(side, side, limit))
    });
    group.finish();
}

criterion_group!(benches_group, kernels);
criterion_main!(benches_group);
