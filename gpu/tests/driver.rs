//! The whole-program GPU driver (`gpu::driver`): hand-built IR programs run
//! by the CPU backend alone and by the driver (planned top-level SOACs as
//! kernels on the validated runtime, `spirv-val` on every module) give the
//! same results or the same run-time error, and the driver's counters show
//! which statements ran on the device; and `codegen::failure` decides which
//! lambdas can fail (their kernels set a status word; a set one hands the
//! statement back to the host, which reports the error).

mod common;

use common::assert_clean;
use gpu::codegen::failure::can_fail;
use gpu::driver::{DriverCounters, DriverStatistics, GpuProgram};
use gpu::runtime::instance::ValidationMode;
use gpu::{Runtime, RuntimeOptions};
use optimized::ir::builder::{array, constant, prim, Builder};
use optimized::ir::{
    BinOp, CmpOp, EntryParam, EntryPoint, Exp, FunName, Lambda, Layout, PrimType, Program, Soac,
    SubExp, VName,
};
use spec::value::{compare, Array, Tolerance, Value};
use std::sync::{Arc, OnceLock};

/// The validated runtime of this test binary, shareable with the driver.
fn shared_runtime() -> Arc<Runtime> {
    static RUNTIME: OnceLock<Result<Arc<Runtime>, String>> = OnceLock::new();
    match RUNTIME.get_or_init(|| {
        Runtime::new(RuntimeOptions {
            validation: ValidationMode::Required,
            ..RuntimeOptions::default()
        })
        .map(Arc::new)
        .map_err(|error| error.to_string())
    }) {
        Ok(runtime) => runtime.clone(),
        Err(message) => panic!("cannot create a validated GPU runtime: {message}"),
    }
}

fn var(name: &VName) -> SubExp {
    SubExp::Var(name.clone())
}

fn bin(b: &mut Builder, op: BinOp, ty: PrimType, left: SubExp, right: SubExp) -> SubExp {
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

fn i32_array(values: &[i32]) -> Value {
    Value::Array(Array::from_vec(values.to_vec()))
}

/// `main (n: i64) (xs: [n]i32)` with the body `body` builds; it returns
/// `size_results` sizes, then a value of layout `result`.
fn program_of(
    body: fn(&mut Builder, &SubExp, &VName) -> Vec<SubExp>,
    size_results: usize,
    result: Layout,
) -> Program {
    program_with_builder(Builder::new(), body, size_results, result)
}

/// Like [`program_of`], naming with `b` (which made other functions).
fn program_with_builder(
    mut b: Builder,
    body: fn(&mut Builder, &SubExp, &VName) -> Vec<SubExp>,
    size_results: usize,
    result: Layout,
) -> Program {
    let n = b.param("n", prim(PrimType::I64));
    let xs = b.param("xs", array(PrimType::I32, [SubExp::Var(n.name.clone())]));
    let function = b.function_of_params("main", vec![n, xs], |b, names| {
        body(b, &SubExp::Var(names[0].clone()), &names[1])
    });
    Program {
        functions: vec![function],
        entry_points: vec![EntryPoint {
            name: "main".to_owned(),
            function: FunName("main".to_owned()),
            size_parameters: 1,
            parameters: vec![EntryParam {
                name: "xs".to_owned(),
                layout: Layout::Array {
                    rank: 1,
                    element: Box::new(Layout::Prim(PrimType::I32)),
                },
            }],
            size_results,
            result,
        }],
    }
}

/// `ys = map (\x -> x * 3 + 1) xs; total = reduce (+) 0 ys;
/// (k, evens) = filter (\y -> y % 2 == 0) ys` → `(total, evens)`: three
/// planned kernels, the second and third reading the first's result.
fn map_reduce_filter(b: &mut Builder, n: &SubExp, xs: &VName) -> Vec<SubExp> {
    use PrimType::I32;
    let triple = b.lambda(&[prim(I32)], &[prim(I32)], |b, p| {
        let times = bin(b, BinOp::Mul, I32, var(&p[0]), constant(3i32));
        vec![bin(b, BinOp::Add, I32, times, constant(1i32))]
    });
    let ys = b.bind(
        "ys",
        array(I32, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda: triple,
            arrays: vec![xs.clone()],
        }),
    );
    let ys = ys.as_var().expect("a variable").clone();
    let plus = b.binop_lambda(BinOp::Add, I32);
    let total = b.bind(
        "total",
        prim(I32),
        Exp::Soac(Soac::Reduce {
            width: n.clone(),
            lambda: plus,
            neutral: vec![constant(0i32)],
            arrays: vec![ys.clone()],
        }),
    );
    let even = b.lambda(&[prim(I32)], &[prim(PrimType::Bool)], |b, p| {
        let remainder = bin(b, BinOp::Mod, I32, var(&p[0]), constant(2i32));
        vec![cmp(b, CmpOp::Eq, I32, remainder, constant(0i32))]
    });
    let names = b.bind_many(
        &["count", "evens"],
        |names| {
            vec![
                prim(PrimType::I64),
                array(I32, [SubExp::Var(names[0].clone())]),
            ]
        },
        Exp::Soac(Soac::Filter {
            width: n.clone(),
            predicate: even,
            arrays: vec![ys],
        }),
    );
    vec![var(&names[0]), total, var(&names[1])]
}

/// `ys = map (\x -> x * 3 + 1) xs; zs = ys with [0] = 1000000;
/// reduce (+) 0 zs`: the host updates a kernel's result in place before
/// the next kernel reads it.
fn map_update_reduce(b: &mut Builder, n: &SubExp, xs: &VName) -> Vec<SubExp> {
    use PrimType::I32;
    let triple = b.lambda(&[prim(I32)], &[prim(I32)], |b, p| {
        let times = bin(b, BinOp::Mul, I32, var(&p[0]), constant(3i32));
        vec![bin(b, BinOp::Add, I32, times, constant(1i32))]
    });
    let ys = b.bind(
        "ys",
        array(I32, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda: triple,
            arrays: vec![xs.clone()],
        }),
    );
    let zs = b.bind(
        "zs",
        array(I32, [n.clone()]),
        Exp::Update {
            array: ys.as_var().expect("a variable").clone(),
            indices: vec![constant(0i64)],
            value: constant(1_000_000i32),
        },
    );
    let plus = b.binop_lambda(BinOp::Add, I32);
    vec![b.bind(
        "total",
        prim(I32),
        Exp::Soac(Soac::Reduce {
            width: n.clone(),
            lambda: plus,
            neutral: vec![constant(0i32)],
            arrays: vec![zs.as_var().expect("a variable").clone()],
        }),
    )]
}

/// `total = reduce (+) 0 xs; map (\x -> x / total) xs`: the map reads a
/// scalar of the enclosing scope, bound in its environment when it runs (a
/// zero divisor sets the status word: the host reports the error).
fn divide_by_total(b: &mut Builder, n: &SubExp, xs: &VName) -> Vec<SubExp> {
    use PrimType::I32;
    let plus = b.binop_lambda(BinOp::Add, I32);
    let total = b.bind(
        "total",
        prim(I32),
        Exp::Soac(Soac::Reduce {
            width: n.clone(),
            lambda: plus,
            neutral: vec![constant(0i32)],
            arrays: vec![xs.clone()],
        }),
    );
    let divide = b.lambda(&[prim(I32)], &[prim(I32)], |b, p| {
        vec![bin(b, BinOp::Div, I32, var(&p[0]), total.clone())]
    });
    vec![b.bind(
        "quotients",
        array(I32, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda: divide,
            arrays: vec![xs.clone()],
        }),
    )]
}

/// `map (\x -> 100 / x) xs`: the division can fail, so the driver reads
/// the status word after the kernel.
fn divide_hundred(b: &mut Builder, n: &SubExp, xs: &VName) -> Vec<SubExp> {
    use PrimType::I32;
    let divide = b.lambda(&[prim(I32)], &[prim(I32)], |b, p| {
        vec![bin(b, BinOp::Div, I32, constant(100i32), var(&p[0]))]
    });
    vec![b.bind(
        "quotients",
        array(I32, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda: divide,
            arrays: vec![xs.clone()],
        }),
    )]
}

/// `ones = map (\_ -> 1) xs; twos = map (\_ o -> o + 1) xs ones;
/// total = reduce (+) 0 twos; (k, all) = filter (\_ -> true) xs` →
/// `(total, all)`: lambdas that ignore an input, whose kernels' compiled
/// modules no longer use that input's buffer (issue 7: `map (\_ -> N.i32 1)
/// xs` in `tests/programs/modules/generic_sum.fut` failed with "the kernel
/// binds 1 storage buffers but 2 were given").
fn ignored_inputs(b: &mut Builder, n: &SubExp, xs: &VName) -> Vec<SubExp> {
    use PrimType::I32;
    let one = b.lambda(&[prim(I32)], &[prim(I32)], |_, _| vec![constant(1i32)]);
    let ones = b.bind(
        "ones",
        array(I32, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda: one,
            arrays: vec![xs.clone()],
        }),
    );
    let ones = ones.as_var().expect("a variable").clone();
    let successor = b.lambda(&[prim(I32), prim(I32)], &[prim(I32)], |b, p| {
        vec![bin(b, BinOp::Add, I32, var(&p[1]), constant(1i32))]
    });
    let twos = b.bind(
        "twos",
        array(I32, [n.clone()]),
        Exp::Soac(Soac::Map {
            width: n.clone(),
            lambda: successor,
            arrays: vec![xs.clone(), ones],
        }),
    );
    let plus = b.binop_lambda(BinOp::Add, I32);
    let total = b.bind(
        "total",
        prim(I32),
        Exp::Soac(Soac::Reduce {
            width: n.clone(),
            lambda: plus,
            neutral: vec![constant(0i32)],
            arrays: vec![twos.as_var().expect("a variable").clone()],
        }),
    );
    let always = b.lambda(&[prim(I32)], &[prim(PrimType::Bool)], |_, _| {
        vec![constant(true)]
    });
    let names = b.bind_many(
        &["count", "all"],
        |names| {
            vec![
                prim(PrimType::I64),
                array(I32, [SubExp::Var(names[0].clone())]),
            ]
        },
        Exp::Soac(Soac::Filter {
            width: n.clone(),
            predicate: always,
            arrays: vec![xs.clone()],
        }),
    );
    vec![var(&names[0]), total, var(&names[1])]
}

fn pair_result() -> Layout {
    Layout::Tuple(vec![
        Layout::Prim(PrimType::I32),
        Layout::Array {
            rank: 1,
            element: Box::new(Layout::Prim(PrimType::I32)),
        },
    ])
}

fn i32_array_result() -> Layout {
    Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(PrimType::I32)),
    }
}

/// One program on one input: the driver must agree with the CPU backend
/// (values within the compiled backends' tolerance, or the same error at
/// the same place) and count exactly `expected`.
struct Case {
    name: &'static str,
    program: Program,
    input: Vec<i32>,
    expected: DriverStatistics,
}

fn check(case: Case) {
    let arguments = vec![i32_array(&case.input)];
    let cpu = optimized::cpu::run_entry(&case.program, "main", &arguments);
    let counters = Arc::new(DriverCounters::default());
    let runtime = shared_runtime();
    let driver = GpuProgram::new(case.program, runtime.clone(), counters.clone())
        .unwrap_or_else(|error| panic!("{}: {error:?}", case.name));
    let gpu = driver.run_entry("main", &arguments);
    match (&cpu, &gpu) {
        (Ok(expected), Ok(actual)) => {
            if let Err(mismatch) = compare(
                std::slice::from_ref(expected),
                std::slice::from_ref(actual),
                Tolerance::Ulps(64),
            ) {
                panic!(
                    "{}: {mismatch}: CPU {expected:?}, GPU {actual:?}",
                    case.name
                );
            }
        }
        (Err(expected), Err(actual)) => {
            assert_eq!(actual.message, expected.message, "{}", case.name);
            assert!(
                actual.span.same_location(&expected.span),
                "{}: error at {:?}, the CPU's at {:?}",
                case.name,
                actual.span,
                expected.span
            );
        }
        _ => panic!("{}: CPU {cpu:?}, GPU {gpu:?}", case.name),
    }
    assert_eq!(counters.snapshot(), case.expected, "{}", case.name);
    assert_clean(&runtime);
}

/// The counters: statements planned and left on the host; then runs on the
/// device, handed back as empty, failing and refused, and runs of the
/// statements left on the host with work and over nothing; then inputs
/// uploaded and found on the device.
fn statistics(statements: [u64; 2], runs: [u64; 6], inputs: [u64; 2]) -> DriverStatistics {
    let [planned, on_host] = statements;
    let [kernel_runs, empty, failing, refused, host_runs, host_runs_empty] = runs;
    let [uploaded, resident] = inputs;
    DriverStatistics::from_array([
        planned,
        on_host,
        kernel_runs,
        empty,
        failing,
        refused,
        host_runs,
        host_runs_empty,
        resident,
        uploaded,
    ])
}

#[test]
fn consecutive_kernels_agree_with_the_cpu_backend() {
    let input: Vec<i32> = (0..5000).map(|i| (i * 7919 % 2001) - 1000).collect();
    check(Case {
        name: "map, reduce, filter",
        program: program_of(map_reduce_filter, 1, pair_result()),
        input,
        // `ys`, the map's result, stays on the device for the reduce and
        // the filter.
        expected: statistics([3, 0], [3, 0, 0, 0, 0, 0], [1, 2]),
    });
}

#[test]
fn a_result_the_host_updates_is_uploaded_again() {
    check(Case {
        name: "map, update, reduce",
        program: program_of(map_update_reduce, 0, Layout::Prim(PrimType::I32)),
        input: (0..5000).collect(),
        // The update copies `ys` (the device cache shares it), so the
        // reduce reads the updated copy, uploaded.
        expected: statistics([2, 0], [2, 0, 0, 0, 0, 0], [2, 0]),
    });
}

#[test]
fn a_lambda_reading_a_scalar_reads_it_from_the_environment() {
    check(Case {
        name: "divide by a non-zero total",
        program: program_of(divide_by_total, 0, i32_array_result()),
        input: (0..4000).map(|i| i * 1000 - 1_000_000).collect(),
        expected: statistics([2, 0], [2, 0, 0, 0, 0, 0], [1, 1]),
    });
    check(Case {
        name: "divide by a zero total",
        program: program_of(divide_by_total, 0, i32_array_result()),
        input: vec![5, -5, 7, -7],
        // The map runs, sets the status word and is handed back: the host
        // reports the division by zero.
        expected: statistics([2, 0], [1, 0, 1, 0, 0, 0], [1, 1]),
    });
}

#[test]
fn no_kernel_is_compiled_per_value_of_a_scalar() {
    // A runtime of its own: the pipeline cache counts this test's loads only.
    let runtime = Arc::new(
        Runtime::new(RuntimeOptions {
            validation: ValidationMode::Required,
            ..RuntimeOptions::default()
        })
        .expect("a validated GPU runtime"),
    );
    let counters = Arc::new(DriverCounters::default());
    let driver = GpuProgram::new(
        program_of(divide_by_total, 0, i32_array_result()),
        runtime.clone(),
        counters.clone(),
    )
    .expect("compiles");
    let mut misses_after_each_run = Vec::new();
    for total_of_scale in [1, 7, 13] {
        let input: Vec<i32> = (0..3000).map(|i| i * total_of_scale - 1000).collect();
        let arguments = vec![i32_array(&input)];
        let expected = optimized::cpu::run_entry(driver.program(), "main", &arguments)
            .expect("the CPU backend runs it");
        let actual = driver
            .run_entry("main", &arguments)
            .expect("the driver runs it");
        assert_eq!(actual, expected, "scale {total_of_scale}");
        misses_after_each_run.push(runtime.pipeline_cache_statistics().1);
    }
    // Three totals, one set of pipelines: the first run loads them all.
    assert_eq!(
        misses_after_each_run,
        vec![misses_after_each_run[0]; 3],
        "pipelines created on later runs"
    );
    assert_eq!(counters.snapshot().kernel_runs, 6);
    assert_clean(&runtime);
}

#[test]
fn lambdas_that_ignore_an_input_run_as_kernels() {
    check(Case {
        name: "ignored inputs",
        program: program_of(ignored_inputs, 1, pair_result()),
        input: (0..3000).map(|i| i * 13 - 7000).collect(),
        // `xs` is uploaded once (the first map's unused input still
        // travels, at its binding) and found on the device by the second
        // map and the filter; `ones` and `twos` stay on the device.
        expected: statistics([4, 0], [4, 0, 0, 0, 0, 0], [1, 4]),
    });
}

#[test]
fn empty_soacs_are_handed_back_to_the_host() {
    check(Case {
        name: "empty",
        program: program_of(map_reduce_filter, 1, pair_result()),
        input: Vec::new(),
        expected: statistics([3, 0], [0, 3, 0, 0, 0, 0], [0, 0]),
    });
}

#[test]
fn a_lambda_that_fails_in_a_kernel_is_handed_back_with_the_hosts_error() {
    check(Case {
        name: "division by zero",
        program: program_of(divide_hundred, 0, i32_array_result()),
        input: vec![5, 0, 7],
        expected: statistics([1, 0], [0, 0, 1, 0, 0, 0], [1, 0]),
    });
    check(Case {
        name: "division without zero",
        program: program_of(divide_hundred, 0, i32_array_result()),
        input: vec![5, -3, 7],
        expected: statistics([1, 0], [1, 0, 0, 0, 0, 0], [1, 0]),
    });
}

/// `def total (m: i64) (ys: [m]i32) = reduce (+) 0 ys` and `main n xs =
/// map (\_ -> total n xs) xs`: `total`'s reduce runs once per element.
fn total_per_element() -> Program {
    use PrimType::{I32, I64};
    let mut b = Builder::new();
    let m = b.param("m", prim(I64));
    let ys = b.param("ys", array(I32, [SubExp::Var(m.name.clone())]));
    let total = b.function_of_params("total", vec![m, ys], |b, names| {
        let plus = b.binop_lambda(BinOp::Add, I32);
        vec![b.bind(
            "sum",
            prim(I32),
            Exp::Soac(Soac::Reduce {
                width: var(&names[0]),
                lambda: plus,
                neutral: vec![constant(0i32)],
                arrays: vec![names[1].clone()],
            }),
        )]
    });
    let mut main = program_with_builder(
        b,
        |b, n, xs| {
            let (n, xs) = (n.clone(), xs.clone());
            let call = b.lambda(&[prim(I32)], &[prim(I32)], |b, _| {
                vec![b.bind(
                    "call",
                    prim(I32),
                    Exp::Apply {
                        function: FunName("total".to_owned()),
                        args: vec![n.clone(), SubExp::Var(xs.clone())],
                    },
                )]
            });
            vec![b.bind(
                "totals",
                array(I32, [n.clone()]),
                Exp::Soac(Soac::Map {
                    width: n.clone(),
                    lambda: call,
                    arrays: vec![xs.clone()],
                }),
            )]
        },
        0,
        i32_array_result(),
    );
    main.functions.insert(0, total);
    main
}

#[test]
fn soacs_of_functions_called_per_element_stay_on_the_host() {
    check(Case {
        name: "total per element",
        program: total_per_element(),
        input: (0..300).collect(),
        expected: statistics([0, 2], [0, 0, 0, 0, 301, 0], [0, 0]),
    });
    check(Case {
        name: "total per element of nothing",
        program: total_per_element(),
        input: Vec::new(),
        expected: statistics([0, 2], [0, 0, 0, 0, 0, 1], [0, 0]),
    });
}

/// `\x -> x op right` (or an `if` around it) over `ty`.
fn binop_lambda(ty: PrimType, op: BinOp, right: Option<SubExp>, in_branch: bool) -> Lambda {
    let mut b = Builder::new();
    b.lambda(&[prim(ty), prim(ty)], &[prim(ty)], |b, p| {
        let right = right.unwrap_or_else(|| var(&p[1]));
        if !in_branch {
            return vec![bin(b, op, ty, var(&p[0]), right)];
        }
        let positive = cmp(b, CmpOp::Gt, ty, var(&p[0]), var(&p[1]));
        let then_body = b.body(|b| vec![bin(b, op, ty, var(&p[0]), right)]);
        let else_body = b.body(|_| vec![var(&p[0])]);
        vec![b.bind(
            "if",
            prim(ty),
            Exp::If {
                condition: positive,
                then_body,
                else_body,
                types: vec![prim(ty).to_ext()],
            },
        )]
    })
}

#[test]
fn which_lambdas_can_fail() {
    use PrimType::{F32, I32, I64, U32};
    // (what, lambda, whether it can fail)
    let rows: Vec<(&str, Lambda, bool)> = vec![
        (
            "i32 x / y",
            binop_lambda(I32, BinOp::Div, None, false),
            true,
        ),
        (
            "i32 x % y",
            binop_lambda(I32, BinOp::Mod, None, false),
            true,
        ),
        (
            "u32 x quot y",
            binop_lambda(U32, BinOp::Quot, None, false),
            true,
        ),
        (
            "i64 x rem y",
            binop_lambda(I64, BinOp::Rem, None, false),
            true,
        ),
        (
            "i32 x / 0",
            binop_lambda(I32, BinOp::Div, Some(constant(0i32)), false),
            true,
        ),
        (
            "i32 x / -3",
            binop_lambda(I32, BinOp::Div, Some(constant(-3i32)), false),
            false,
        ),
        (
            "u32 x % 5",
            binop_lambda(U32, BinOp::Mod, Some(constant(5u32)), false),
            false,
        ),
        (
            "f32 x / y",
            binop_lambda(F32, BinOp::Div, None, false),
            false,
        ),
        (
            "i32 x ** y",
            binop_lambda(I32, BinOp::Pow, None, false),
            true,
        ),
        (
            "i32 x ** -1",
            binop_lambda(I32, BinOp::Pow, Some(constant(-1i32)), false),
            true,
        ),
        (
            "i32 x ** 3",
            binop_lambda(I32, BinOp::Pow, Some(constant(3i32)), false),
            false,
        ),
        (
            "u32 x ** y",
            binop_lambda(U32, BinOp::Pow, None, false),
            false,
        ),
        (
            "i32 x + y",
            binop_lambda(I32, BinOp::Add, None, false),
            false,
        ),
        (
            "if .. then x / y",
            binop_lambda(I32, BinOp::Div, None, true),
            true,
        ),
        (
            "if .. then x * y",
            binop_lambda(I32, BinOp::Mul, None, true),
            false,
        ),
    ];
    let wrong: Vec<String> = rows
        .into_iter()
        .filter_map(|(what, lambda, fails)| {
            let verdict = can_fail(&lambda);
            (verdict != fails)
                .then(|| format!("{what}: expected can fail = {fails}, got {verdict:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
