//! Measures what fusion buys on the CPU backend: `reduce (+) 0 (map (* k)
//! (map (+ 1) xs))` and `scan (+) 0 (map (+ 1) xs)` over 10 million `i64`s,
//! before and after `passes::default_pipeline()`. Prints the median of 7
//! runs of each and checks that both programs agree.
//!
//! Then times the default pipeline itself (compile time) on generated
//! programs: a chain of `N` maps ending in a reduction, and `N` independent
//! `reduce (+) 0 (map (+i) xs)`, for `N` = 500, 1 000, 2 000.
//!
//! `cargo run --release -p optimized --example fusion_timing`

use std::time::{Duration, Instant};

use optimized::cpu::CompiledProgram;
use optimized::ir::builder::{array, i64c, prim, Builder};
use optimized::ir::*;
use optimized::passes;
use spec::value::{Array, Value};

const I64: PrimType = PrimType::I64;
const N: usize = 10_000_000;

fn map_op(b: &mut Builder, n: &SubExp, xs: SubExp, op: BinOp, c: SubExp) -> SubExp {
    let lambda = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
        vec![b.bind(
            "t",
            prim(I64),
            Exp::BinOp {
                op,
                ty: I64,
                left: SubExp::Var(p[0].clone()),
                right: c,
            },
        )]
    });
    let arrays = vec![xs.as_var().expect("an array").clone()];
    b.bind(
        "ys",
        array(I64, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda,
            arrays,
        }),
    )
}

/// `main(xs: [n]i64, k: i64)` returning `result` built by `body`.
fn program(result: Layout, scan: bool) -> Program {
    let mut b = Builder::new();
    let n = b.param("n", prim(I64));
    let n_dim = SubExp::Var(n.name.clone());
    let xs = b.param("xs", array(I64, [n_dim.clone()]));
    let k = b.param("k", prim(I64));
    let main = b.function_of_params("main", vec![n, xs, k], |b, p| {
        let ys = map_op(b, &n_dim, SubExp::Var(p[1].clone()), BinOp::Add, i64c(1));
        let plus = b.binop_lambda(BinOp::Add, I64);
        let arrays = vec![ys.as_var().expect("an array").clone()];
        let soac = if scan {
            Soac::Scan {
                width: n_dim.clone(),
                lambda: plus,
                neutral: vec![i64c(0)],
                arrays,
            }
        } else {
            let zs = map_op(b, &n_dim, ys, BinOp::Mul, SubExp::Var(p[2].clone()));
            let arrays = vec![zs.as_var().expect("an array").clone()];
            Soac::Reduce {
                width: n_dim.clone(),
                lambda: plus,
                neutral: vec![i64c(0)],
                arrays,
            }
        };
        let result_type = if scan {
            array(I64, [n_dim.clone()])
        } else {
            prim(I64)
        };
        vec![b.bind("r", result_type, Exp::Soac(soac))]
    });
    Program {
        functions: vec![main],
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 1,
            parameters: vec![
                EntryParam {
                    name: "xs".into(),
                    layout: Layout::Array {
                        rank: 1,
                        element: Box::new(Layout::Prim(I64)),
                    },
                },
                EntryParam {
                    name: "k".into(),
                    layout: Layout::Prim(I64),
                },
            ],
            size_results: 0,
            result,
        }],
    }
}

/// `N` maps in a chain then a reduction (`chain`), or `N` independent
/// map-reductions added up.
fn generated(count: usize, chain: bool) -> Program {
    let mut b = Builder::new();
    let n = b.param("n", prim(I64));
    let n_dim = SubExp::Var(n.name.clone());
    let xs = b.param("xs", array(I64, [n_dim.clone()]));
    let k = b.param("k", prim(I64));
    let main = b.function_of_params("main", vec![n, xs, k], |b, p| {
        let xs = SubExp::Var(p[1].clone());
        let mut current = xs.clone();
        let mut total = i64c(0);
        for i in 0..count {
            let input = if chain { current.clone() } else { xs.clone() };
            current = map_op(b, &n_dim, input, BinOp::Add, i64c(i as i64));
            if !chain {
                let plus = b.binop_lambda(BinOp::Add, I64);
                let arrays = vec![current.as_var().expect("an array").clone()];
                let s = b.bind(
                    "s",
                    prim(I64),
                    Exp::Soac(Soac::Reduce {
                        width: n_dim.clone(),
                        lambda: plus,
                        neutral: vec![i64c(0)],
                        arrays,
                    }),
                );
                total = b.bind(
                    "t",
                    prim(I64),
                    Exp::BinOp {
                        op: BinOp::Add,
                        ty: I64,
                        left: total,
                        right: s,
                    },
                );
            }
        }
        if chain {
            let plus = b.binop_lambda(BinOp::Add, I64);
            let arrays = vec![current.as_var().expect("an array").clone()];
            total = b.bind(
                "s",
                prim(I64),
                Exp::Soac(Soac::Reduce {
                    width: n_dim.clone(),
                    lambda: plus,
                    neutral: vec![i64c(0)],
                    arrays,
                }),
            );
        }
        vec![total]
    });
    Program {
        functions: vec![main],
        entry_points: Vec::new(),
    }
}

fn median_time(program: &CompiledProgram, args: &[Value]) -> (Duration, Value) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..7 {
        let start = Instant::now();
        let v = program.run_entry("main", args).expect("runs");
        times.push(start.elapsed());
        last = Some(v);
    }
    times.sort();
    (times[3], last.expect("ran"))
}

fn main() {
    let xs: Vec<i64> = (0..N as i64).map(|i| (i * 7919) % 1000 - 500).collect();
    let args = [
        Value::Array(Array::from_vec(xs)),
        Value::Prim(PrimValue::I64(3)),
    ];
    let cases = [
        (
            "reduce (+) 0 (map (*k) (map (+1) xs))",
            Layout::Prim(I64),
            false,
        ),
        (
            "scan (+) 0 (map (+1) xs)",
            Layout::Array {
                rank: 1,
                element: Box::new(Layout::Prim(I64)),
            },
            true,
        ),
    ];
    for (name, layout, scan) in cases {
        let before = program(layout, scan);
        let after = passes::optimise(before.clone()).expect("the pipeline succeeds");
        let (t_before, v_before) =
            median_time(&CompiledProgram::new(before).expect("compiles"), &args);
        let (t_after, v_after) =
            median_time(&CompiledProgram::new(after).expect("compiles"), &args);
        assert_eq!(v_before, v_after, "{name}: fusion changed the result");
        println!(
            "{name}, n = {N}: unfused {:.2} ms, fused {:.2} ms ({:.2}x)",
            t_before.as_secs_f64() * 1e3,
            t_after.as_secs_f64() * 1e3,
            t_before.as_secs_f64() / t_after.as_secs_f64()
        );
    }
    for chain in [true, false] {
        for count in [500, 1000, 2000] {
            let program = generated(count, chain);
            let start = Instant::now();
            let mut optimised = program;
            let mut per_pass = Vec::new();
            for pass in passes::default_pipeline() {
                let pass_start = Instant::now();
                optimised = passes::run_passes(optimised, &[pass]).expect("the pipeline succeeds");
                per_pass.push(format!(
                    "{} {:.0}",
                    pass.0,
                    pass_start.elapsed().as_secs_f64() * 1e3
                ));
            }
            let elapsed = start.elapsed();
            if std::env::var_os("PASS_TIMES").is_some() {
                println!("  per pass (ms): {}", per_pass.join(", "));
            }
            let soacs = optimised.functions[0]
                .body
                .statements
                .iter()
                .filter(|s| matches!(s.expression, Exp::Soac(_)))
                .count();
            println!(
                "pipeline on {} {count}: {:.1} ms, {soacs} SOACs left",
                if chain {
                    "a chain of maps of length"
                } else {
                    "independent map-reductions:"
                },
                elapsed.as_secs_f64() * 1e3
            );
        }
    }
}
