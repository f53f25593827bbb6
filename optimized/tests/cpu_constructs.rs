//! The CPU backend's sequential constructs: loops (with in-place updates and
//! copy-on-write), branches, calls, the array operations, entry points whose
//! parameters and results are tuples, records, sums and arrays of tuples,
//! and run-time errors with their spans (data-driven through one `check`).

use optimized::cpu::CompiledProgram;
use optimized::ir::builder::{array, constant, i64c, prim, Builder};
use optimized::ir::*;
use spec::source::FileId;
use spec::value::{Array, Value};

const I64: PrimType = PrimType::I64;
const I32: PrimType = PrimType::I32;
const BOOL: PrimType = PrimType::Bool;

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

fn arr1() -> Layout {
    Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(I64)),
    }
}

fn arr2() -> Layout {
    Layout::Array {
        rank: 2,
        element: Box::new(Layout::Prim(I64)),
    }
}

/// A program whose entry point `main` is `function` with no size
/// parameters.
fn compile(function: Function, parameters: Vec<EntryParam>, result: Layout) -> CompiledProgram {
    compile_all(vec![function], parameters, result)
}

fn compile_all(
    functions: Vec<Function>,
    parameters: Vec<EntryParam>,
    result: Layout,
) -> CompiledProgram {
    let main = functions.last().expect("main is last").name.clone();
    let program = Program {
        functions,
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: main,
            size_parameters: 0,
            parameters,
            size_results: 0,
            result,
        }],
    };
    CompiledProgram::new(program).unwrap_or_else(|e| panic!("{e}"))
}

fn param(name: &str, layout: Layout) -> EntryParam {
    EntryParam {
        name: name.into(),
        layout,
    }
}

fn i64s(v: &Value) -> Vec<i64> {
    v.as_array()
        .and_then(|a| a.data().as_slice::<i64>())
        .expect("an i64 array")
        .to_vec()
}

fn parts(v: &Value) -> &[Value] {
    match v {
        Value::Tuple(vs) => vs,
        other => panic!("not a tuple: {other}"),
    }
}

#[test]
fn a_loop_updates_in_place_without_changing_a_shared_array() {
    let n = 50_000i64;
    let mut b = Builder::new();
    let f = b.function("main", &[], |b, _| {
        let zeros = b.bind(
            "zeros",
            array(I64, [i64c(n)]),
            Exp::Replicate {
                shape: vec![i64c(n)],
                value: i64c(0),
            },
        );
        let acc = b.param("acc", array(I64, [i64c(n)]));
        let i = b.name("i");
        let body = b.body(|b| {
            let square = binop(b, BinOp::Mul, var(&i), var(&i));
            vec![b.bind(
                "acc2",
                array(I64, [i64c(n)]),
                Exp::Update {
                    array: acc.name.clone(),
                    indices: vec![var(&i)],
                    value: square,
                },
            )]
        });
        let squares = b.bind(
            "squares",
            array(I64, [i64c(n)]),
            Exp::Loop {
                params: vec![(acc.clone(), zeros.clone())],
                form: LoopForm::For {
                    index: i.clone(),
                    bound: i64c(n),
                },
                body,
            },
        );
        vec![zeros, squares]
    });
    let program = compile(f, vec![], Layout::Tuple(vec![arr1(), arr1()]));
    let started = std::time::Instant::now();
    let result = program.run_entry("main", &[]).unwrap();
    let elapsed = started.elapsed();
    let r = parts(&result);
    assert_eq!(
        i64s(&r[0]),
        vec![0; n as usize],
        "the shared initial array is unchanged"
    );
    assert_eq!(i64s(&r[1]), (0..n).map(|i| i * i).collect::<Vec<_>>());
    // Copying the array at every iteration would take 50 000² element copies.
    assert!(
        elapsed.as_secs_f64() < 5.0,
        "took {elapsed:?}: updates are not in place"
    );
}

#[test]
fn while_loops_branches_and_calls() {
    // collatz(x) = number of steps to reach 1, with a helper `step`.
    let mut b = Builder::new();
    let step = b.function("step", &[("x", prim(I64))], |b, p| {
        let x = var(&p[0]);
        let r = binop(b, BinOp::Mod, x.clone(), i64c(2));
        let even = b.bind(
            "even",
            prim(BOOL),
            Exp::CmpOp {
                op: CmpOp::Eq,
                ty: I64,
                left: r,
                right: i64c(0),
            },
        );
        let then_body = b.body(|b| vec![binop(b, BinOp::Div, x.clone(), i64c(2))]);
        let else_body = b.body(|b| {
            let t = binop(b, BinOp::Mul, x.clone(), i64c(3));
            vec![binop(b, BinOp::Add, t, i64c(1))]
        });
        vec![b.bind(
            "next",
            prim(I64),
            Exp::If {
                condition: even,
                then_body,
                else_body,
                types: vec![TypeBase::Prim(I64)],
            },
        )]
    });
    let main = b.function("collatz", &[("start", prim(I64))], |b, p| {
        let going = b.param("going", prim(BOOL));
        let x = b.param("x", prim(I64));
        let count = b.param("count", prim(I64));
        let body = b.body(|b| {
            let next = b.bind(
                "next",
                prim(I64),
                Exp::Apply {
                    function: FunName("step".into()),
                    args: vec![var(&x.name)],
                },
            );
            let more = b.bind(
                "more",
                prim(BOOL),
                Exp::CmpOp {
                    op: CmpOp::Ne,
                    ty: I64,
                    left: next.clone(),
                    right: i64c(1),
                },
            );
            let c = binop(b, BinOp::Add, var(&count.name), i64c(1));
            vec![more, next, c]
        });
        let initially = b.bind(
            "initially",
            prim(BOOL),
            Exp::CmpOp {
                op: CmpOp::Ne,
                ty: I64,
                left: var(&p[0]),
                right: i64c(1),
            },
        );
        let out = b.bind_many(
            &["g", "x", "steps"],
            |_| vec![prim(BOOL), prim(I64), prim(I64)],
            Exp::Loop {
                params: vec![
                    (going.clone(), initially),
                    (x, var(&p[0])),
                    (count, i64c(0)),
                ],
                form: LoopForm::While {
                    condition_param: going.name.clone(),
                },
                body,
            },
        );
        vec![var(&out[2])]
    });
    let program = compile_all(
        vec![step, main],
        vec![param("start", Layout::Prim(I64))],
        Layout::Prim(I64),
    );
    for (start, steps) in [(1i64, 0i64), (6, 8), (27, 111)] {
        let r = program.run_entry("main", &[Value::from(start)]).unwrap();
        assert_eq!(r, Value::from(steps), "collatz({start})");
    }
}

#[test]
fn array_operations() {
    let mut b = Builder::new();
    let f = b.function("main", &[], |b, _| {
        let six = b.bind("six", array(I64, [i64c(6)]), b.iota(i64c(6)));
        let six_name = six.as_var().unwrap().clone();
        let m = b.bind(
            "m",
            array(I64, [i64c(2), i64c(3)]),
            Exp::Reshape {
                shape: vec![i64c(2), i64c(3)],
                array: six_name.clone(),
            },
        );
        let m_name = m.as_var().unwrap().clone();
        let t = b.bind(
            "t",
            array(I64, [i64c(3), i64c(2)]),
            Exp::Rearrange {
                permutation: vec![1, 0],
                array: m_name.clone(),
            },
        );
        let rev = b.bind(
            "rev",
            array(I64, [i64c(6)]),
            Exp::Reverse {
                array: six_name.clone(),
            },
        );
        let rot = b.bind(
            "rot",
            array(I64, [i64c(6)]),
            Exp::Rotate {
                amount: i64c(-2),
                array: six_name.clone(),
            },
        );
        let element = b.bind(
            "e",
            prim(I64),
            Exp::Index {
                array: m_name.clone(),
                indices: vec![i64c(1), i64c(2)],
            },
        );
        let row = b.bind(
            "row",
            array(I64, [i64c(3)]),
            Exp::Index {
                array: m_name.clone(),
                indices: vec![i64c(1)],
            },
        );
        let strided = b.bind(
            "strided",
            array(I64, [i64c(3)]),
            Exp::Slice {
                array: six_name.clone(),
                slice: vec![DimIndex::Range {
                    start: i64c(5),
                    length: i64c(3),
                    stride: i64c(-2),
                }],
            },
        );
        let column = b.bind(
            "column",
            array(I64, [i64c(2)]),
            Exp::Slice {
                array: m_name.clone(),
                slice: vec![
                    DimIndex::Range {
                        start: i64c(0),
                        length: i64c(2),
                        stride: i64c(1),
                    },
                    DimIndex::Fix(i64c(1)),
                ],
            },
        );
        let both = b.bind(
            "both",
            array(I64, [i64c(12)]),
            Exp::Concat {
                arrays: vec![six_name.clone(), rev.as_var().unwrap().clone()],
                length: i64c(12),
            },
        );
        let copied = b.bind(
            "copied",
            array(I64, [i64c(6)]),
            Exp::Copy {
                array: six_name.clone(),
            },
        );
        let rows = b.bind(
            "rows",
            array(I64, [i64c(2), i64c(3)]),
            Exp::ArrayLiteral {
                elements: vec![row.clone(), row.clone()],
                row_type: array(I64, [i64c(3)]),
            },
        );
        let filled = b.bind(
            "filled",
            array(I64, [i64c(2), i64c(2)]),
            Exp::Replicate {
                shape: vec![i64c(2)],
                value: column.clone(),
            },
        );
        let updated = b.bind(
            "updated",
            array(I64, [i64c(2), i64c(3)]),
            Exp::Update {
                array: m_name.clone(),
                indices: vec![i64c(0)],
                value: row.clone(),
            },
        );
        let counting = b.bind(
            "counting",
            array(I32, [i64c(4)]),
            Exp::Iota {
                length: i64c(4),
                start: constant(10i32),
                step: constant(-3i32),
                element: I32,
            },
        );
        vec![
            t, rev, rot, element, row, strided, column, both, copied, rows, filled, updated, m,
            counting,
        ]
    });
    let layout = Layout::Tuple(vec![
        arr2(),
        arr1(),
        arr1(),
        Layout::Prim(I64),
        arr1(),
        arr1(),
        arr1(),
        arr1(),
        arr1(),
        arr2(),
        arr2(),
        arr2(),
        arr2(),
        Layout::Array {
            rank: 1,
            element: Box::new(Layout::Prim(I32)),
        },
    ]);
    let program = compile(f, vec![], layout);
    let result = program.run_entry("main", &[]).unwrap();
    let r = parts(&result);
    let shape = |v: &Value| v.as_array().unwrap().shape().to_vec();
    assert_eq!(
        (shape(&r[0]), i64s(&r[0])),
        (vec![3, 2], vec![0, 3, 1, 4, 2, 5]),
        "transpose"
    );
    assert_eq!(i64s(&r[1]), vec![5, 4, 3, 2, 1, 0], "reverse");
    assert_eq!(i64s(&r[2]), vec![4, 5, 0, 1, 2, 3], "rotate -2");
    assert_eq!(r[3], Value::from(5i64), "m[1, 2]");
    assert_eq!(i64s(&r[4]), vec![3, 4, 5], "m[1]");
    assert_eq!(i64s(&r[5]), vec![5, 3, 1], "six[5:0:-2]");
    assert_eq!(i64s(&r[6]), vec![1, 4], "m[0:2, 1]");
    assert_eq!(
        i64s(&r[7]),
        vec![0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0],
        "concat"
    );
    assert_eq!(i64s(&r[8]), vec![0, 1, 2, 3, 4, 5], "copy");
    assert_eq!(
        (shape(&r[9]), i64s(&r[9])),
        (vec![2, 3], vec![3, 4, 5, 3, 4, 5]),
        "literal"
    );
    assert_eq!(
        (shape(&r[10]), i64s(&r[10])),
        (vec![2, 2], vec![1, 4, 1, 4]),
        "replicate"
    );
    assert_eq!(i64s(&r[11]), vec![3, 4, 5, 3, 4, 5], "update of a row");
    assert_eq!(
        i64s(&r[12]),
        vec![0, 1, 2, 3, 4, 5],
        "the updated array is unchanged"
    );
    let counting = r[13]
        .as_array()
        .unwrap()
        .data()
        .as_slice::<i32>()
        .unwrap()
        .to_vec();
    assert_eq!(counting, vec![10, 7, 4, 1], "iota from 10 by -3");
}

#[test]
fn entry_points_rebuild_tuples_records_sums_and_arrays_of_tuples() {
    // main(ps: [n](i32, bool), r: {x: i64, y: bool}, s: #none | #some i32)
    //   = (ps, r, s)  — through the flattened representation.
    let mut b = Builder::new();
    let n = b.param("n", prim(I64));
    let nd = var(&n.name);
    let params = vec![
        n,
        b.param("firsts", array(I32, [nd.clone()])),
        b.param("seconds", array(BOOL, [nd.clone()])),
        b.param("x", prim(I64)),
        b.param("y", prim(BOOL)),
        b.param("tag", prim(PrimType::U8)),
        b.param("payload", prim(I32)),
    ];
    let f = b.function_of_params("main", params, |_, p| p[1..].iter().map(var).collect());
    let pairs = Layout::Array {
        rank: 1,
        element: Box::new(Layout::Tuple(vec![Layout::Prim(I32), Layout::Prim(BOOL)])),
    };
    let record = Layout::Record(vec![
        ("x".into(), Layout::Prim(I64)),
        ("y".into(), Layout::Prim(BOOL)),
    ]);
    let sum = Layout::Sum {
        constructors: vec![
            ("none".into(), vec![]),
            ("some".into(), vec![Layout::Prim(I32)]),
        ],
    };
    let program = Program {
        functions: vec![f],
        entry_points: vec![EntryPoint {
            name: "main".into(),
            function: FunName("main".into()),
            size_parameters: 1,
            parameters: vec![
                param("ps", pairs.clone()),
                param("r", record.clone()),
                param("s", sum.clone()),
            ],
            size_results: 0,
            result: Layout::Tuple(vec![pairs, record, sum]),
        }],
    };
    let program = CompiledProgram::new(program).unwrap_or_else(|e| panic!("{e}"));
    let ps = Value::Array(
        Array::from_rows(vec![
            Value::Tuple(vec![Value::from(1i32), Value::from(true)]),
            Value::Tuple(vec![Value::from(-2i32), Value::from(false)]),
        ])
        .unwrap(),
    );
    let r = Value::record(vec![
        ("y".into(), Value::from(false)),
        ("x".into(), Value::from(42i64)),
    ])
    .unwrap();
    for s in [
        Value::sum("some", vec![Value::from(7i32)]).unwrap(),
        Value::sum("none", vec![]).unwrap(),
    ] {
        let args = [ps.clone(), r.clone(), s.clone()];
        let result = program
            .run_entry("main", &args)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(result, Value::Tuple(args.to_vec()));
    }
    let empty = Value::Array(
        Array::empty(
            vec![0],
            Value::Tuple(vec![Value::from(0i32), Value::from(true)]).value_type(),
        )
        .unwrap(),
    );
    let args = [
        empty.clone(),
        r.clone(),
        Value::sum("none", vec![]).unwrap(),
    ];
    let result = program
        .run_entry("main", &args)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parts(&result)[0], empty, "an empty array of tuples");
}

/// Builds the statements of a body and returns its results.
type BuildBody = fn(&mut Builder) -> Vec<SubExp>;

/// Runs a program whose body `build` fails, and checks the message and the
/// span (every statement gets span `start..start + 1` in file 0 from the
/// builder's current span).
fn check(name: &str, build: BuildBody, message: &str, start: u32) {
    let mut b = Builder::new();
    let f = b.function("main", &[], |b, _| build(b));
    let program = compile(f, vec![], Layout::Tuple(vec![]));
    match program.run_entry("main", &[]) {
        Ok(v) => panic!("{name}: expected an error, got {v}"),
        Err(e) => {
            assert_eq!(e.message, message, "{name}");
            assert_eq!(
                (e.span.file, e.span.start),
                (FileId(0), start),
                "{name}: span"
            );
        }
    }
}

fn at(b: &mut Builder, start: usize) {
    b.span = Span::new(FileId(0), start, start + 1);
}

#[test]
fn run_time_errors_carry_the_reference_messages_and_spans() {
    let cases: Vec<(&str, BuildBody, &str, u32)> = vec![
        (
            "index out of bounds",
            |b| {
                let xs = b.bind("xs", array(I64, [i64c(3)]), b.iota(i64c(3)));
                at(b, 40);
                b.bind(
                    "x",
                    prim(I64),
                    Exp::Index {
                        array: xs.as_var().unwrap().clone(),
                        indices: vec![i64c(5)],
                    },
                );
                vec![]
            },
            "Index [5] out of bounds for array of shape [3].",
            40,
        ),
        (
            "second index out of bounds",
            |b| {
                let xs = b.bind(
                    "xs",
                    array(I64, [i64c(2), i64c(2)]),
                    Exp::Replicate {
                        shape: vec![i64c(2), i64c(2)],
                        value: i64c(0),
                    },
                );
                at(b, 41);
                b.bind(
                    "x",
                    prim(I64),
                    Exp::Index {
                        array: xs.as_var().unwrap().clone(),
                        indices: vec![i64c(1), i64c(-1)],
                    },
                );
                vec![]
            },
            "Index [-1] out of bounds for array of shape [2].",
            41,
        ),
        (
            "update out of bounds",
            |b| {
                let xs = b.bind("xs", array(I64, [i64c(3)]), b.iota(i64c(3)));
                at(b, 42);
                b.bind(
                    "ys",
                    array(I64, [i64c(3)]),
                    Exp::Update {
                        array: xs.as_var().unwrap().clone(),
                        indices: vec![i64c(3)],
                        value: i64c(0),
                    },
                );
                vec![]
            },
            "Index [3] out of bounds for array of shape [3].",
            42,
        ),
        (
            "slice out of bounds",
            |b| {
                let xs = b.bind("xs", array(I64, [i64c(3)]), b.iota(i64c(3)));
                at(b, 43);
                b.bind(
                    "ys",
                    array(I64, [i64c(3)]),
                    Exp::Slice {
                        array: xs.as_var().unwrap().clone(),
                        slice: vec![DimIndex::Range {
                            start: i64c(2),
                            length: i64c(3),
                            stride: i64c(1),
                        }],
                    },
                );
                vec![]
            },
            "Index [2:5:1] out of bounds for array of shape [3].",
            43,
        ),
        (
            "division by zero",
            |b| {
                at(b, 44);
                binop(b, BinOp::Div, i64c(1), i64c(0));
                vec![]
            },
            "division by zero",
            44,
        ),
        (
            "negative exponent",
            |b| {
                at(b, 45);
                binop(b, BinOp::Pow, i64c(2), i64c(-1));
                vec![]
            },
            "negative exponent",
            45,
        ),
        (
            "negative replicate",
            |b| {
                let k = binop(b, BinOp::Sub, i64c(0), i64c(3));
                at(b, 46);
                b.bind(
                    "r",
                    array(I64, [k.clone()]),
                    Exp::Replicate {
                        shape: vec![k],
                        value: i64c(0),
                    },
                );
                vec![]
            },
            "Cannot replicate a negative number (-3) of times.",
            46,
        ),
        (
            "failed assertion",
            |b| {
                at(b, 47);
                b.statement(
                    vec![],
                    Exp::Assert {
                        condition: constant(false),
                        message: "Sizes do not match.".into(),
                        operands: Vec::new(),
                        span: Span::new(FileId(0), 99, 100),
                    },
                );
                vec![]
            },
            "Sizes do not match.",
            99,
        ),
        (
            "reshape to another element count",
            |b| {
                let xs = b.bind("xs", array(I64, [i64c(6)]), b.iota(i64c(6)));
                at(b, 48);
                b.bind(
                    "m",
                    array(I64, [i64c(4), i64c(2)]),
                    Exp::Reshape {
                        shape: vec![i64c(4), i64c(2)],
                        array: xs.as_var().unwrap().clone(),
                    },
                );
                vec![]
            },
            "Cannot reshape array of shape [6] to array of shape [4][2].",
            48,
        ),
        (
            "an error inside a lambda keeps the inner statement's span",
            |b| {
                let xs = b.bind("xs", array(I64, [i64c(5)]), b.iota(i64c(5)));
                at(b, 49);
                let f = b.lambda(&[prim(I64)], &[prim(I64)], |b, p| {
                    at(b, 50);
                    vec![binop(b, BinOp::Quot, i64c(10), var(&p[0]))]
                });
                at(b, 49);
                b.bind(
                    "ys",
                    array(I64, [i64c(5)]),
                    Exp::Soac(Soac::Map {
                        width: i64c(5),
                        lambda: f,
                        arrays: vec![xs.as_var().unwrap().clone()],
                    }),
                );
                vec![]
            },
            "division by zero",
            50,
        ),
    ];
    for (name, build, message, start) in cases {
        check(name, build, message, start);
    }
}

/// A `for` loop over `count` parameters that rotates them and adds the
/// index to the one moved last: every result is read before any parameter
/// is written (a swap must not see the new values), with results held
/// inline (≤ 8) and on the heap (more), against the same loop in Rust.
fn check_rotating_loop(count: usize, iterations: i64) {
    let mut b = Builder::new();
    let f = b.function("main", &[], |b, _| {
        let params: Vec<Param> = (0..count).map(|_| b.param("p", prim(I64))).collect();
        let i = b.name("i");
        let body = b.body(|b| {
            let mut next: Vec<SubExp> = params[1..].iter().map(|p| var(&p.name)).collect();
            next.push(binop(b, BinOp::Add, var(&params[0].name), var(&i)));
            next
        });
        let out = b.bind_many(
            &vec!["r"; count],
            |_| vec![prim(I64); count],
            Exp::Loop {
                params: params
                    .iter()
                    .enumerate()
                    .map(|(k, p)| (p.clone(), i64c(k as i64 * 10)))
                    .collect(),
                form: LoopForm::For {
                    index: i.clone(),
                    bound: i64c(iterations),
                },
                body,
            },
        );
        out.iter().map(var).collect()
    });
    let program = compile(f, vec![], Layout::Tuple(vec![Layout::Prim(I64); count]));
    let mut expected: Vec<i64> = (0..count as i64).map(|k| k * 10).collect();
    for i in 0..iterations {
        let first = expected[0];
        expected.rotate_left(1);
        expected[count - 1] = first + i;
    }
    let result = program.run_entry("main", &[]).unwrap();
    let got: Vec<i64> = parts(&result)
        .iter()
        .map(|v| match v {
            Value::Prim(PrimValue::I64(x)) => *x,
            other => panic!("not an i64: {other}"),
        })
        .collect();
    assert_eq!(got, expected, "{count} parameters, {iterations} iterations");
}

#[test]
fn loop_parameters_are_assigned_simultaneously_inline_and_on_the_heap() {
    for count in [2, 3, 8, 9, 12] {
        for iterations in [0, 1, 7, 20] {
            check_rotating_loop(count, iterations);
        }
    }
}
