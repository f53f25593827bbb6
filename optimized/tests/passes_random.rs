//! Random programs through the default pipeline: chains of `map`s (unary
//! and binary, with operators that can fail: division and modulo by array
//! elements), `reduce`s and `scan`s over one width, whose arrays are used
//! once or several times. Every program must still type check after every
//! pass (the pass manager checks) and compute the same value, or fail with
//! the same error (message and span), on inputs with and without zeros.

use optimized::cpu::run_entry;
use optimized::ir::builder::{array, i64c, prim, Builder};
use optimized::ir::*;
use optimized::passes;
use spec::source::FileId;
use spec::value::{Array, Value};

const I64: PrimType = PrimType::I64;

/// A small deterministic generator (xorshift).
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

const OPERATORS: [BinOp; 6] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Mod,
    BinOp::Max,
];

/// A program of `steps` random SOACs over `xs: [n]i64`, returning the sum
/// of its scalars and its last array.
fn random_program(random: &mut Random, steps: usize) -> Program {
    let mut b = Builder::new();
    let n = b.param("n", prim(I64));
    let n_dim = SubExp::Var(n.name.clone());
    let xs = b.param("xs", array(I64, [n_dim.clone()]));
    let k = b.param("k", prim(I64));
    let main = b.function_of_params("main", vec![n, xs, k], |b, p| {
        let k = SubExp::Var(p[2].clone());
        let mut arrays = vec![p[1].clone()];
        let mut total = i64c(0);
        for step in 0..steps {
            b.span = Span::new(FileId(0), step * 10, step * 10 + 1);
            let a = arrays[random.below(arrays.len())].clone();
            let choice = random.below(5);
            if choice <= 2 {
                // A map, unary (with k or a constant) or binary (two arrays).
                let op = OPERATORS[random.below(OPERATORS.len())];
                let binary = choice == 2;
                let second = arrays[random.below(arrays.len())].clone();
                let constant = if random.below(2) == 0 {
                    k.clone()
                } else {
                    i64c(random.below(5) as i64)
                };
                let params = if binary {
                    vec![prim(I64), prim(I64)]
                } else {
                    vec![prim(I64)]
                };
                let lambda = b.lambda(&params, &[prim(I64)], |b, q| {
                    let right = if binary {
                        SubExp::Var(q[1].clone())
                    } else {
                        constant
                    };
                    vec![b.bind(
                        "t",
                        prim(I64),
                        Exp::BinOp {
                            op,
                            ty: I64,
                            left: SubExp::Var(q[0].clone()),
                            right,
                        },
                    )]
                });
                let inputs = if binary { vec![a, second] } else { vec![a] };
                let ys = b.bind(
                    "ys",
                    array(I64, [n_dim.clone()]),
                    Exp::Soac(Soac::Map {
                        width: n_dim.clone(),
                        lambda,
                        arrays: inputs,
                    }),
                );
                arrays.push(ys.as_var().expect("a variable").clone());
            } else {
                let op = [BinOp::Add, BinOp::Max][random.below(2)];
                let lambda = b.binop_lambda(op, I64);
                let neutral = vec![if op == BinOp::Add {
                    i64c(0)
                } else {
                    i64c(i64::MIN)
                }];
                if choice == 3 {
                    let s = b.bind(
                        "s",
                        prim(I64),
                        Exp::Soac(Soac::Reduce {
                            width: n_dim.clone(),
                            lambda,
                            neutral,
                            arrays: vec![a],
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
                } else {
                    let scanned = b.bind(
                        "sc",
                        array(I64, [n_dim.clone()]),
                        Exp::Soac(Soac::Scan {
                            width: n_dim.clone(),
                            lambda,
                            neutral,
                            arrays: vec![a],
                        }),
                    );
                    arrays.push(scanned.as_var().expect("a variable").clone());
                }
            }
        }
        vec![
            total,
            SubExp::Var(arrays.last().expect("xs at least").clone()),
        ]
    });
    let i64_array = Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(I64)),
    };
    Program {
        functions: vec![main],
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 1,
            parameters: vec![
                EntryParam {
                    name: "xs".into(),
                    layout: i64_array.clone(),
                },
                EntryParam {
                    name: "k".into(),
                    layout: Layout::Prim(I64),
                },
            ],
            size_results: 0,
            result: Layout::Tuple(vec![Layout::Prim(I64), i64_array]),
        }],
    }
}

#[test]
fn random_programs_keep_their_results_and_errors_through_the_pipeline() {
    let inputs: Vec<(Vec<i64>, i64)> = vec![
        (vec![], 0),
        (vec![3], 2),
        (vec![5, -3, 8, 1, 9, 2], 3),
        (vec![5, -3, 0, 1, 9, 2], 3),
        (vec![4, 7, 1, 2], 0),
        ((1..6000).map(|i| (i * 31) % 97 + 1).collect(), -4),
    ];
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let mut fused_somewhere = 0;
    let mut errors_compared = 0;
    for case in 0..150 {
        let steps = 2 + random.below(7);
        let before = random_program(&mut random, steps);
        check_program(&before)
            .unwrap_or_else(|e| panic!("case {case}: generated ill-typed IR: {e}\n{before}"));
        let after = passes::optimise(before.clone()).unwrap_or_else(|e| panic!("case {case}: {e}"));
        let soacs = |p: &Program| {
            p.functions[0]
                .body
                .statements
                .iter()
                .filter(|s| matches!(s.expression, Exp::Soac(_)))
                .count()
        };
        if soacs(&after) < soacs(&before) {
            fused_somewhere += 1;
        }
        for (xs, k) in &inputs {
            let args = [
                Value::Array(Array::from_vec(xs.clone())),
                Value::Prim(PrimValue::I64(*k)),
            ];
            let expected = run_entry(&before, "main", &args);
            let actual = run_entry(&after, "main", &args);
            errors_compared += usize::from(expected.is_err());
            assert_eq!(
                actual, expected,
                "case {case} on {xs:?}, {k}\n--- before ---\n{before}\n--- after ---\n{after}"
            );
        }
    }
    // The generator must exercise both fusion and run-time errors.
    assert!(
        fused_somewhere > 50,
        "only {fused_somewhere} programs fused"
    );
    assert!(errors_compared > 50, "only {errors_compared} runs failed");
}
