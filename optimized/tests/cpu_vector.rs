//! The block-vectorised fast path (`cpu::vector`) reading its parameters in
//! place: a `redomap` whose map lambda returns one of its parameters
//! unchanged (a mapped output stored straight from the input array) beside a
//! computed value, and a `map` mixing a parameter, a free variable and a
//! constant, against sequential Rust at sizes around the block size and the
//! parallel threshold.

use optimized::cpu::vector::BLOCK;
use optimized::cpu::{CompiledProgram, PARALLEL_THRESHOLD};
use optimized::ir::builder::{array, i64c, prim, Builder};
use optimized::ir::*;
use spec::value::{Array, Value};

const I64: PrimType = PrimType::I64;

const SIZES: [usize; 10] = [
    0,
    1,
    BLOCK - 1,
    BLOCK,
    BLOCK + 1,
    PARALLEL_THRESHOLD - 1,
    PARALLEL_THRESHOLD,
    PARALLEL_THRESHOLD + 1,
    PARALLEL_THRESHOLD * 3 + 17,
    200_003,
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

fn i64_array() -> Layout {
    Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(I64)),
    }
}

/// `main(n: i64 size, k: i64, xs: [n]i64, ys: [n]i64)`.
fn entry_program(
    result: Layout,
    body: impl FnOnce(&mut Builder, &SubExp, &VName, &[VName]) -> Vec<SubExp>,
) -> CompiledProgram {
    let mut b = Builder::new();
    let n = b.param("n", prim(I64));
    let n_dim = var(&n.name);
    let k = b.param("k", prim(I64));
    let xs = b.param("xs", array(I64, [n_dim.clone()]));
    let ys = b.param("ys", array(I64, [n_dim.clone()]));
    let function = b.function_of_params("main", vec![n, k, xs, ys], |b, names| {
        body(b, &n_dim, &names[1], &names[2..])
    });
    let program = Program {
        functions: vec![function],
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 1,
            parameters: vec![
                EntryParam {
                    name: "k".into(),
                    layout: Layout::Prim(I64),
                },
                EntryParam {
                    name: "xs".into(),
                    layout: i64_array(),
                },
                EntryParam {
                    name: "ys".into(),
                    layout: i64_array(),
                },
            ],
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

/// Runs `program` on `k`, `xs`, `ys` at every size and compares with
/// `expected(k, xs, ys)`, through a prepared and a plain run.
fn check(program: &CompiledProgram, expected: impl Fn(i64, &[i64], &[i64]) -> Value) {
    let k = 7;
    for n in SIZES {
        let (xs, ys) = (input(n, 1), input(n, 2));
        let args = vec![
            Value::Prim(PrimValue::I64(k)),
            arr(xs.clone()),
            arr(ys.clone()),
        ];
        let want = expected(k, &xs, &ys);
        let prepared = program
            .prepare_arguments("main", args.clone())
            .unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..2 {
            let got = program
                .run_prepared(&prepared)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(got, want, "prepared, size {n}");
        }
        let got = program
            .run_entry("main", &args)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(got, want, "size {n}");
    }
}

#[test]
fn redomap_with_a_parameter_as_a_mapped_result() {
    let layout = Layout::Tuple(vec![Layout::Prim(I64), i64_array()]);
    let program = entry_program(layout, |b, n, _, xs| {
        let f = b.lambda(&[prim(I64), prim(I64)], &[prim(I64), prim(I64)], |b, p| {
            let product = binop(b, BinOp::Mul, var(&p[0]), var(&p[1]));
            vec![product, var(&p[0])]
        });
        let op = b.binop_lambda(BinOp::Add, I64);
        b.bind_many(
            &["d", "copy"],
            |_| vec![prim(I64), array(I64, [n.clone()])],
            Exp::Soac(Soac::Redomap {
                width: n.clone(),
                map_lambda: f,
                reduce_lambda: op,
                neutral: vec![i64c(0)],
                arrays: xs.to_vec(),
            }),
        )
        .iter()
        .map(var)
        .collect()
    });
    check(&program, |_, xs, ys| {
        let d = xs
            .iter()
            .zip(ys)
            .fold(0i64, |acc, (x, y)| acc.wrapping_add(x.wrapping_mul(*y)));
        Value::Tuple(vec![Value::Prim(PrimValue::I64(d)), arr(xs.to_vec())])
    });
}

#[test]
fn map_mixing_parameters_free_variables_and_constants() {
    let layout = Layout::Tuple(vec![i64_array(), i64_array()]);
    let program = entry_program(layout, |b, n, k, xs| {
        let f = b.lambda(&[prim(I64), prim(I64)], &[prim(I64), prim(I64)], |b, p| {
            let scaled = binop(b, BinOp::Mul, var(k), var(&p[0]));
            let shifted = binop(b, BinOp::Sub, scaled, i64c(3));
            vec![binop(b, BinOp::Add, shifted, var(&p[1])), var(&p[1])]
        });
        b.bind_many(
            &["zs", "ys2"],
            |_| vec![array(I64, [n.clone()]), array(I64, [n.clone()])],
            Exp::Soac(Soac::Map {
                width: n.clone(),
                lambda: f,
                arrays: xs.to_vec(),
            }),
        )
        .iter()
        .map(var)
        .collect()
    });
    check(&program, |k, xs, ys| {
        let zs = xs
            .iter()
            .zip(ys)
            .map(|(x, y)| k.wrapping_mul(*x).wrapping_sub(3).wrapping_add(*y))
            .collect();
        Value::Tuple(vec![arr(zs), arr(ys.to_vec())])
    });
}
