//! IR → GPU code generation end to end: hand-built IR SOACs
//! (`optimized::ir::builder`) are extracted into kernel plans, their
//! generated kernels compile, pass `spirv-val` and run on the validated
//! runtime (lavapipe in CI), and compute what `optimized::cpu::run_entry`
//! computes on the same IR.

mod common;

use common::{assert_clean, download, pseudo_random, runtime, upload};
use gpu::codegen::extract::{extract_function, run_plan, Placement, PlanOperands};
use gpu::kernels::element::HostColumn;
use optimized::ir::builder::{array, constant, prim, Builder};
use optimized::ir::{
    BinOp, CmpOp, ConvOp, EntryParam, EntryPoint, Exp, Layout, LoopForm, Param, PrimType,
    PrimValue, Program, Soac, SubExp, UnOp, VName,
};
use spec::value::{Array, Value};

const LENGTH: usize = 3001;

/// One SOAC program: `main (n: i64) (xs0: [n]t0) …` whose body `body`
/// builds, run on `inputs`.
struct Case {
    name: &'static str,
    inputs: Vec<HostColumn>,
    /// The library operation the plan must choose.
    kernel: &'static str,
    body: fn(&mut Builder, &SubExp, &[VName]) -> Vec<SubExp>,
    result: Layout,
    size_results: usize,
}

fn program_of(case: &Case) -> Program {
    let mut b = Builder::new();
    let n = b.param("n", prim(PrimType::I64));
    let size = SubExp::Var(n.name.clone());
    let mut params = vec![n];
    for (position, column) in case.inputs.iter().enumerate() {
        let element = prim_type_of(column);
        params.push(b.param(&format!("xs{position}"), array(element, [size.clone()])));
    }
    let body = case.body;
    let function = b.function_of_params("main", params, |b, names| {
        body(b, &SubExp::Var(names[0].clone()), &names[1..])
    });
    Program {
        functions: vec![function],
        entry_points: vec![EntryPoint {
            name: "main".to_owned(),
            function: optimized::ir::FunName("main".to_owned()),
            size_parameters: 1,
            parameters: case
                .inputs
                .iter()
                .enumerate()
                .map(|(position, column)| EntryParam {
                    name: format!("xs{position}"),
                    layout: array_layout(prim_type_of(column)),
                })
                .collect(),
            size_results: case.size_results,
            result: case.result.clone(),
        }],
    }
}

fn array_layout(element: PrimType) -> Layout {
    Layout::Array {
        rank: 1,
        element: Box::new(Layout::Prim(element)),
    }
}

fn prim_type_of(column: &HostColumn) -> PrimType {
    match column {
        HostColumn::I8(_) => PrimType::I8,
        HostColumn::I16(_) => PrimType::I16,
        HostColumn::I32(_) => PrimType::I32,
        HostColumn::I64(_) => PrimType::I64,
        HostColumn::U8(_) => PrimType::U8,
        HostColumn::U16(_) => PrimType::U16,
        HostColumn::U32(_) => PrimType::U32,
        HostColumn::U64(_) => PrimType::U64,
        HostColumn::F32(_) => PrimType::F32,
        HostColumn::F64(_) => PrimType::F64,
        HostColumn::Bool(_) => PrimType::Bool,
    }
}

fn column_value(column: &HostColumn) -> Value {
    Value::Array(match column {
        HostColumn::I8(v) => Array::from_vec(v.clone()),
        HostColumn::I16(v) => Array::from_vec(v.clone()),
        HostColumn::I32(v) => Array::from_vec(v.clone()),
        HostColumn::I64(v) => Array::from_vec(v.clone()),
        HostColumn::U8(v) => Array::from_vec(v.clone()),
        HostColumn::U16(v) => Array::from_vec(v.clone()),
        HostColumn::U32(v) => Array::from_vec(v.clone()),
        HostColumn::U64(v) => Array::from_vec(v.clone()),
        HostColumn::F32(v) => Array::from_vec(v.clone()),
        HostColumn::F64(v) => Array::from_vec(v.clone()),
        HostColumn::Bool(v) => Array::from_vec(v.clone()),
    })
}

fn column_prims(column: &HostColumn) -> Vec<PrimValue> {
    fn all<T: Copy + Into<PrimValue>>(v: &[T]) -> Vec<PrimValue> {
        v.iter().map(|x| (*x).into()).collect()
    }
    match column {
        HostColumn::I8(v) => all(v),
        HostColumn::I16(v) => all(v),
        HostColumn::I32(v) => all(v),
        HostColumn::I64(v) => all(v),
        HostColumn::U8(v) => all(v),
        HostColumn::U16(v) => all(v),
        HostColumn::U32(v) => all(v),
        HostColumn::U64(v) => all(v),
        HostColumn::F32(v) => all(v),
        HostColumn::F64(v) => all(v),
        HostColumn::Bool(v) => all(v),
    }
}

/// The CPU result as columns: a tuple's components, an array's elements, a
/// primitive as a one-element column.
fn value_columns(value: &Value, columns: &mut Vec<Vec<PrimValue>>) {
    match value {
        Value::Prim(p) => columns.push(vec![*p]),
        Value::Tuple(components) => {
            for component in components {
                value_columns(component, columns);
            }
        }
        Value::Array(a) => columns.push(
            a.rows()
                .map(|row| match row {
                    Value::Prim(p) => p,
                    other => panic!("a row of a 1-D array is {other:?}"),
                })
                .collect(),
        ),
        other => panic!("unexpected CPU result {other:?}"),
    }
}

/// Equal, floats within a relative 1e-5 (`f32`) or 1e-12 (`f64`) of the CPU
/// (the GPU's `sqrt`, `exp`, … are not correctly rounded); NaN equals NaN.
fn close(gpu: PrimValue, cpu: PrimValue) -> bool {
    match (gpu, cpu) {
        (PrimValue::F32(g), PrimValue::F32(c)) => {
            (g.is_nan() && c.is_nan()) || g == c || (g - c).abs() <= 1e-5 * c.abs().max(1.0)
        }
        (PrimValue::F64(g), PrimValue::F64(c)) => {
            (g.is_nan() && c.is_nan()) || g == c || (g - c).abs() <= 1e-12 * c.abs().max(1.0)
        }
        _ => gpu == cpu,
    }
}

fn check(case: Case) {
    let program = program_of(&case);
    optimized::ir::check_program(&program)
        .unwrap_or_else(|error| panic!("{}: ill-typed IR: {error:?}", case.name));
    let arguments: Vec<Value> = case.inputs.iter().map(column_value).collect();
    let cpu = optimized::cpu::run_entry(&program, "main", &arguments)
        .unwrap_or_else(|error| panic!("{}: CPU: {error:?}", case.name));
    let mut expected = Vec::new();
    value_columns(&cpu, &mut expected);

    let placements = extract_function(&program.functions[0]);
    let [Placement::Kernel(plan)] = placements.as_slice() else {
        panic!("{}: expected one kernel, got {placements:?}", case.name);
    };
    assert_eq!(plan.choice.name(), case.kernel, "{}", case.name);
    let runtime = runtime();
    let inputs = upload(runtime, &case.inputs);
    assert!(
        plan.environment == gpu::codegen::lambda::Environment::default(),
        "{}: {:?}",
        case.name,
        plan.environment
    );
    let environment = gpu::kernels::environment::upload(runtime, &[], Vec::new())
        .unwrap_or_else(|error| panic!("{}: environment: {error}", case.name));
    let operands = PlanOperands::Columns {
        inputs: &inputs,
        environment: &environment,
    };
    let outputs = run_plan(runtime, plan, operands)
        .unwrap_or_else(|error| panic!("{}: GPU: {error}", case.name));
    let failed = gpu::kernels::environment::failed(runtime, &environment)
        .unwrap_or_else(|error| panic!("{}: status: {error}", case.name));
    assert!(!failed, "{}: an operation failed in the kernel", case.name);
    let actual: Vec<Vec<PrimValue>> = download(runtime, &outputs)
        .iter()
        .map(column_prims)
        .collect();
    assert_clean(runtime);
    assert_eq!(actual.len(), expected.len(), "{}: result count", case.name);
    for (component, (gpu, cpu)) in actual.iter().zip(&expected).enumerate() {
        assert_eq!(
            gpu.len(),
            cpu.len(),
            "{}: length of result {component}",
            case.name
        );
        for (index, (g, c)) in gpu.iter().zip(cpu).enumerate() {
            assert!(
                close(*g, *c),
                "{}: result {component}[{index}]: GPU {g:?}, CPU {c:?}",
                case.name
            );
        }
    }
}

// ---- inputs ----

fn random_i32(seed: u64) -> HostColumn {
    HostColumn::I32(
        pseudo_random(seed, LENGTH)
            .iter()
            .map(|x| *x as i32)
            .collect(),
    )
}

fn random_i64(seed: u64) -> HostColumn {
    HostColumn::I64(
        pseudo_random(seed, LENGTH)
            .iter()
            .map(|x| *x as i64)
            .collect(),
    )
}

/// Multiples of 1/4 in [-8, 8): sums of a few thousand are exact.
fn quarters_f32(seed: u64) -> HostColumn {
    HostColumn::F32(
        pseudo_random(seed, LENGTH)
            .iter()
            .map(|x| (x % 64) as f32 / 4.0 - 8.0)
            .collect(),
    )
}

fn quarters_f64(seed: u64) -> HostColumn {
    HostColumn::F64(
        pseudo_random(seed, LENGTH)
            .iter()
            .map(|x| (x % 64) as f64 / 4.0 - 8.0)
            .collect(),
    )
}

fn random_bool(seed: u64) -> HostColumn {
    HostColumn::Bool(
        pseudo_random(seed, LENGTH)
            .iter()
            .map(|x| x & 1 == 1)
            .collect(),
    )
}

// ---- IR helpers ----

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

fn un(b: &mut Builder, op: UnOp, ty: PrimType, operand: SubExp) -> SubExp {
    let result = match op {
        UnOp::IsNan | UnOp::IsInf => PrimType::Bool,
        _ => ty,
    };
    b.bind("u", prim(result), Exp::UnOp { op, ty, operand })
}

fn conv(b: &mut Builder, from: PrimType, to: PrimType, operand: SubExp) -> SubExp {
    b.bind(
        "v",
        prim(to),
        Exp::ConvOp {
            op: ConvOp { from, to },
            operand,
        },
    )
}

fn if_scalar(
    b: &mut Builder,
    ty: PrimType,
    condition: SubExp,
    then_branch: impl FnOnce(&mut Builder) -> SubExp,
    else_branch: impl FnOnce(&mut Builder) -> SubExp,
) -> SubExp {
    let then_body = b.body(|b| vec![then_branch(b)]);
    let else_body = b.body(|b| vec![else_branch(b)]);
    b.bind(
        "if",
        prim(ty),
        Exp::If {
            condition,
            then_body,
            else_body,
            types: vec![prim(ty).to_ext()],
        },
    )
}

fn soac(b: &mut Builder, types: Vec<optimized::ir::Type>, soac: Soac) -> Vec<SubExp> {
    let bases: Vec<&str> = types.iter().map(|_| "r").collect();
    b.bind_many(&bases, |_| types, Exp::Soac(soac))
        .into_iter()
        .map(SubExp::Var)
        .collect()
}

fn arrays_of(n: &SubExp, types: &[PrimType]) -> Vec<optimized::ir::Type> {
    types.iter().map(|t| array(*t, [n.clone()])).collect()
}

/// `\(a0, a1) (b0, b1) -> (a0 * b0, a1 * b0 + b1)`: composition of the
/// affine maps `x ↦ a0 x + a1` (associative, not commutative).
fn affine_composition(b: &mut Builder, t: PrimType) -> optimized::ir::Lambda {
    b.lambda(&vec![prim(t); 4], &vec![prim(t); 2], |b, p| {
        let scale = bin(b, BinOp::Mul, t, var(&p[0]), var(&p[2]));
        let shifted = bin(b, BinOp::Mul, t, var(&p[1]), var(&p[2]));
        let offset = bin(b, BinOp::Add, t, shifted, var(&p[3]));
        vec![scale, offset]
    })
}

fn one(t: PrimType, n: i64) -> SubExp {
    SubExp::Constant(match t {
        PrimType::I32 => PrimValue::I32(n as i32),
        PrimType::I64 => PrimValue::I64(n),
        PrimType::F32 => PrimValue::F32(n as f32),
        PrimType::F64 => PrimValue::F64(n as f64),
        other => panic!("no constant of {other:?}"),
    })
}

// ---- map ----

#[test]
fn map_i32_with_futhark_division_and_shifts() {
    check(Case {
        name: "map i32",
        inputs: vec![random_i32(1)],
        kernel: "map",
        body: |b, n, xs| {
            use PrimType::I32;
            let lambda = b.lambda(&[prim(I32)], &vec![prim(I32); 6], |b, p| {
                let x = var(&p[0]);
                let floor_div = bin(b, BinOp::Div, I32, x.clone(), constant(-3i32));
                let modulo = bin(b, BinOp::Mod, I32, x.clone(), constant(-5i32));
                let square = bin(b, BinOp::Mul, I32, x.clone(), x.clone());
                let wrapped = bin(b, BinOp::Add, I32, square, constant(7i32));
                let remainder = bin(b, BinOp::Rem, I32, x.clone(), constant(7i32));
                let quotient = bin(b, BinOp::Quot, I32, x.clone(), constant(-7i32));
                let amount = bin(b, BinOp::And, I32, x.clone(), constant(63i32));
                let shifted = bin(b, BinOp::Shr, I32, x.clone(), amount);
                vec![floor_div, modulo, wrapped, remainder, quotient, shifted]
            });
            soac(
                b,
                arrays_of(n, &[I32; 6]),
                Soac::Map {
                    width: n.clone(),
                    lambda,
                    arrays: xs.to_vec(),
                },
            )
        },
        result: Layout::Tuple(vec![array_layout(PrimType::I32); 6]),
        size_results: 0,
    });
}

#[test]
fn map_f32_with_branch_math_and_saturating_conversion() {
    check(Case {
        name: "map f32",
        inputs: vec![quarters_f32(2)],
        kernel: "map",
        body: |b, n, xs| {
            use PrimType::{Bool, F32, I64};
            let lambda = b.lambda(&[prim(F32)], &[prim(F32), prim(I64), prim(Bool)], |b, p| {
                let x = var(&p[0]);
                let positive = cmp(b, CmpOp::Gt, F32, x.clone(), constant(0.0f32));
                let y = if_scalar(
                    b,
                    F32,
                    positive,
                    |b| un(b, UnOp::Sqrt, F32, var(&p[0])),
                    |b| bin(b, BinOp::Mul, F32, var(&p[0]), constant(-2.0f32)),
                );
                let big = bin(b, BinOp::Mul, F32, x.clone(), constant(3.0e18f32));
                let converted = conv(b, F32, I64, big);
                let rounded = un(b, UnOp::Round, F32, x.clone());
                let same = cmp(b, CmpOp::Eq, F32, rounded, x);
                vec![y, converted, same]
            });
            soac(
                b,
                arrays_of(n, &[F32, I64, Bool]),
                Soac::Map {
                    width: n.clone(),
                    lambda,
                    arrays: xs.to_vec(),
                },
            )
        },
        result: Layout::Tuple(vec![
            array_layout(PrimType::F32),
            array_layout(PrimType::I64),
            array_layout(PrimType::Bool),
        ]),
        size_results: 0,
    });
}

#[test]
fn map_f64_with_float_modulo_and_min() {
    check(Case {
        name: "map f64",
        inputs: vec![quarters_f64(3), quarters_f64(4)],
        kernel: "map",
        body: |b, n, xs| {
            use PrimType::F64;
            let lambda = b.lambda(&[prim(F64), prim(F64)], &vec![prim(F64); 3], |b, p| {
                let x = var(&p[0]);
                let scaled = bin(b, BinOp::Mul, F64, x.clone(), constant(1.5f64));
                let floor = un(b, UnOp::Floor, F64, x.clone());
                let difference = bin(b, BinOp::Sub, F64, scaled, floor);
                let modulo = bin(b, BinOp::Mod, F64, x.clone(), constant(-0.75f64));
                let minimum = bin(b, BinOp::Min, F64, x, var(&p[1]));
                vec![difference, modulo, minimum]
            });
            soac(
                b,
                arrays_of(n, &[F64; 3]),
                Soac::Map {
                    width: n.clone(),
                    lambda,
                    arrays: xs.to_vec(),
                },
            )
        },
        result: Layout::Tuple(vec![array_layout(PrimType::F64); 3]),
        size_results: 0,
    });
}

#[test]
fn map_i64_with_wrapping_power_and_division() {
    check(Case {
        name: "map i64",
        inputs: vec![random_i64(5)],
        kernel: "map",
        body: |b, n, xs| {
            use PrimType::I64;
            let lambda = b.lambda(&[prim(I64)], &vec![prim(I64); 4], |b, p| {
                let x = var(&p[0]);
                let floor_div = bin(b, BinOp::Div, I64, x.clone(), constant(7i64));
                let modulo = bin(b, BinOp::Mod, I64, x.clone(), constant(-7i64));
                let cube = bin(b, BinOp::Pow, I64, x.clone(), constant(3i64));
                let shifted = bin(b, BinOp::Shl, I64, x.clone(), constant(13i64));
                let mixed = bin(b, BinOp::Xor, I64, x, shifted);
                vec![floor_div, modulo, cube, mixed]
            });
            soac(
                b,
                arrays_of(n, &[I64; 4]),
                Soac::Map {
                    width: n.clone(),
                    lambda,
                    arrays: xs.to_vec(),
                },
            )
        },
        result: Layout::Tuple(vec![array_layout(PrimType::I64); 4]),
        size_results: 0,
    });
}

#[test]
fn map_bool_and_i32_with_branch() {
    check(Case {
        name: "map bool",
        inputs: vec![random_bool(6), random_i32(7)],
        kernel: "map",
        body: |b, n, xs| {
            use PrimType::{Bool, I32};
            let lambda = b.lambda(
                &[prim(Bool), prim(I32)],
                &[prim(I32), prim(Bool)],
                |b, p| {
                    let flag = var(&p[0]);
                    let chosen = if_scalar(
                        b,
                        I32,
                        flag.clone(),
                        |b| conv(b, Bool, I32, var(&p[0])),
                        |b| un(b, UnOp::Neg, I32, var(&p[1])),
                    );
                    let positive = cmp(b, CmpOp::Gt, I32, var(&p[1]), constant(0i32));
                    let negated = un(b, UnOp::Not, Bool, flag);
                    let both = bin(b, BinOp::LogAnd, Bool, negated, positive);
                    vec![chosen, both]
                },
            );
            soac(
                b,
                arrays_of(n, &[I32, Bool]),
                Soac::Map {
                    width: n.clone(),
                    lambda,
                    arrays: xs.to_vec(),
                },
            )
        },
        result: Layout::Tuple(vec![
            array_layout(PrimType::I32),
            array_layout(PrimType::Bool),
        ]),
        size_results: 0,
    });
}

// ---- reduce ----

fn reduce_case(
    name: &'static str,
    inputs: Vec<HostColumn>,
    body: fn(&mut Builder, &SubExp, &[VName]) -> Vec<SubExp>,
    result: Layout,
) -> Case {
    Case {
        name,
        inputs,
        kernel: "reduce",
        body,
        result,
        size_results: 0,
    }
}

fn reduce_with(
    b: &mut Builder,
    n: &SubExp,
    xs: &[VName],
    op: BinOp,
    t: PrimType,
    neutral: SubExp,
) -> Vec<SubExp> {
    let lambda = b.binop_lambda(op, t);
    soac(
        b,
        vec![prim(t)],
        Soac::Reduce {
            width: n.clone(),
            lambda,
            neutral: vec![neutral],
            arrays: xs.to_vec(),
        },
    )
}

#[test]
fn reduce_i32_add_wraps() {
    check(reduce_case(
        "reduce i32 +",
        vec![random_i32(8)],
        |b, n, xs| reduce_with(b, n, xs, BinOp::Add, PrimType::I32, constant(0i32)),
        Layout::Prim(PrimType::I32),
    ));
}

#[test]
fn reduce_i64_max() {
    check(reduce_case(
        "reduce i64 max",
        vec![random_i64(9)],
        |b, n, xs| reduce_with(b, n, xs, BinOp::Max, PrimType::I64, constant(i64::MIN)),
        Layout::Prim(PrimType::I64),
    ));
}

#[test]
fn reduce_f32_add() {
    check(reduce_case(
        "reduce f32 +",
        vec![quarters_f32(10)],
        |b, n, xs| reduce_with(b, n, xs, BinOp::Add, PrimType::F32, constant(0.0f32)),
        Layout::Prim(PrimType::F32),
    ));
}

#[test]
fn reduce_f64_min_is_a_user_operator() {
    check(reduce_case(
        "reduce f64 min",
        vec![quarters_f64(11)],
        |b, n, xs| reduce_with(b, n, xs, BinOp::Min, PrimType::F64, constant(f64::INFINITY)),
        Layout::Prim(PrimType::F64),
    ));
}

#[test]
fn reduce_bool_xor() {
    check(reduce_case(
        "reduce bool xor",
        vec![random_bool(12)],
        |b, n, xs| reduce_with(b, n, xs, BinOp::Xor, PrimType::Bool, constant(false)),
        Layout::Prim(PrimType::Bool),
    ));
}

#[test]
fn reduce_non_commutative_affine_composition_i32() {
    check(reduce_case(
        "reduce affine i32",
        vec![random_i32(13), random_i32(14)],
        |b, n, xs| {
            let t = PrimType::I32;
            let lambda = affine_composition(b, t);
            soac(
                b,
                vec![prim(t), prim(t)],
                Soac::Reduce {
                    width: n.clone(),
                    lambda,
                    neutral: vec![one(t, 1), one(t, 0)],
                    arrays: xs.to_vec(),
                },
            )
        },
        Layout::Tuple(vec![Layout::Prim(PrimType::I32); 2]),
    ));
}

#[test]
fn reduce_non_commutative_last_nonzero_i64_with_if() {
    check(reduce_case(
        "reduce last nonzero i64",
        vec![HostColumn::I64(
            pseudo_random(15, LENGTH)
                .iter()
                .map(|x| if x % 5 == 0 { (*x >> 3) as i64 } else { 0 })
                .collect(),
        )],
        |b, n, xs| {
            use PrimType::I64;
            let lambda = b.lambda(&[prim(I64), prim(I64)], &[prim(I64)], |b, p| {
                let nonzero = cmp(b, CmpOp::Ne, I64, var(&p[1]), constant(0i64));
                vec![if_scalar(b, I64, nonzero, |_| var(&p[1]), |_| var(&p[0]))]
            });
            soac(
                b,
                vec![prim(I64)],
                Soac::Reduce {
                    width: n.clone(),
                    lambda,
                    neutral: vec![constant(0i64)],
                    arrays: xs.to_vec(),
                },
            )
        },
        Layout::Prim(PrimType::I64),
    ));
}

// ---- scan ----

fn scan_with(
    b: &mut Builder,
    n: &SubExp,
    xs: &[VName],
    op: BinOp,
    t: PrimType,
    neutral: SubExp,
) -> Vec<SubExp> {
    let lambda = b.binop_lambda(op, t);
    soac(
        b,
        arrays_of(n, &[t]),
        Soac::Scan {
            width: n.clone(),
            lambda,
            neutral: vec![neutral],
            arrays: xs.to_vec(),
        },
    )
}

fn scan_case(
    name: &'static str,
    inputs: Vec<HostColumn>,
    body: fn(&mut Builder, &SubExp, &[VName]) -> Vec<SubExp>,
    result: Layout,
) -> Case {
    Case {
        name,
        inputs,
        kernel: "scan",
        body,
        result,
        size_results: 0,
    }
}

#[test]
fn scan_i32_add() {
    check(scan_case(
        "scan i32 +",
        vec![random_i32(16)],
        |b, n, xs| scan_with(b, n, xs, BinOp::Add, PrimType::I32, constant(0i32)),
        array_layout(PrimType::I32),
    ));
}

#[test]
fn scan_f64_add() {
    check(scan_case(
        "scan f64 +",
        vec![quarters_f64(17)],
        |b, n, xs| scan_with(b, n, xs, BinOp::Add, PrimType::F64, constant(0.0f64)),
        array_layout(PrimType::F64),
    ));
}

#[test]
fn scan_f32_max_is_a_user_operator() {
    check(scan_case(
        "scan f32 max",
        vec![quarters_f32(18)],
        |b, n, xs| {
            scan_with(
                b,
                n,
                xs,
                BinOp::Max,
                PrimType::F32,
                constant(f32::NEG_INFINITY),
            )
        },
        array_layout(PrimType::F32),
    ));
}

#[test]
fn scan_bool_or() {
    check(scan_case(
        "scan bool ||",
        vec![HostColumn::Bool(
            pseudo_random(19, LENGTH)
                .iter()
                .map(|x| x % 1000 == 0)
                .collect(),
        )],
        |b, n, xs| scan_with(b, n, xs, BinOp::LogOr, PrimType::Bool, constant(false)),
        array_layout(PrimType::Bool),
    ));
}

#[test]
fn scan_non_commutative_affine_composition_i64() {
    check(scan_case(
        "scan affine i64",
        vec![random_i64(20), random_i64(21)],
        |b, n, xs| {
            let t = PrimType::I64;
            let lambda = affine_composition(b, t);
            soac(
                b,
                arrays_of(n, &[t, t]),
                Soac::Scan {
                    width: n.clone(),
                    lambda,
                    neutral: vec![one(t, 1), one(t, 0)],
                    arrays: xs.to_vec(),
                },
            )
        },
        Layout::Tuple(vec![array_layout(PrimType::I64); 2]),
    ));
}

// ---- redomap, scanomap ----

#[test]
fn redomap_f32_sum_of_squares() {
    check(Case {
        name: "redomap f32",
        inputs: vec![quarters_f32(22)],
        kernel: "redomap",
        body: |b, n, xs| {
            use PrimType::F32;
            let map_lambda = b.lambda(&[prim(F32)], &[prim(F32)], |b, p| {
                vec![bin(b, BinOp::Mul, F32, var(&p[0]), var(&p[0]))]
            });
            let reduce_lambda = b.binop_lambda(BinOp::Add, F32);
            soac(
                b,
                vec![prim(F32)],
                Soac::Redomap {
                    width: n.clone(),
                    map_lambda,
                    reduce_lambda,
                    neutral: vec![constant(0.0f32)],
                    arrays: xs.to_vec(),
                },
            )
        },
        result: Layout::Prim(PrimType::F32),
        size_results: 0,
    });
}

#[test]
fn redomap_i64_max_of_modulo_non_commutative_pair() {
    check(Case {
        name: "redomap i64",
        inputs: vec![random_i64(23)],
        kernel: "redomap",
        body: |b, n, xs| {
            use PrimType::I64;
            let map_lambda = b.lambda(&[prim(I64)], &vec![prim(I64); 2], |b, p| {
                let scale = bin(b, BinOp::Mod, I64, var(&p[0]), constant(10i64));
                let offset = bin(b, BinOp::Div, I64, var(&p[0]), constant(1000i64));
                vec![scale, offset]
            });
            let reduce_lambda = affine_composition(b, I64);
            soac(
                b,
                vec![prim(I64), prim(I64)],
                Soac::Redomap {
                    width: n.clone(),
                    map_lambda,
                    reduce_lambda,
                    neutral: vec![constant(1i64), constant(0i64)],
                    arrays: xs.to_vec(),
                },
            )
        },
        result: Layout::Tuple(vec![Layout::Prim(PrimType::I64); 2]),
        size_results: 0,
    });
}

#[test]
fn scanomap_i32_masked_prefix_sum() {
    check(Case {
        name: "scanomap i32",
        inputs: vec![random_i32(24)],
        kernel: "scanomap",
        body: |b, n, xs| {
            use PrimType::I32;
            let map_lambda = b.lambda(&[prim(I32)], &[prim(I32)], |b, p| {
                vec![bin(b, BinOp::And, I32, var(&p[0]), constant(255i32))]
            });
            let scan_lambda = b.binop_lambda(BinOp::Add, I32);
            soac(
                b,
                arrays_of(n, &[I32]),
                Soac::Scanomap {
                    width: n.clone(),
                    map_lambda,
                    scan_lambda,
                    neutral: vec![constant(0i32)],
                    arrays: xs.to_vec(),
                },
            )
        },
        result: array_layout(PrimType::I32),
        size_results: 0,
    });
}

// ---- filter ----

fn filter_body(
    b: &mut Builder,
    n: &SubExp,
    xs: &[VName],
    types: &[PrimType],
    predicate: optimized::ir::Lambda,
) -> Vec<SubExp> {
    let mut bases = vec!["count"];
    bases.extend(types.iter().map(|_| "kept"));
    let element_types = types.to_vec();
    let names = b.bind_many(
        &bases,
        |names| {
            let count = SubExp::Var(names[0].clone());
            let mut all = vec![prim(PrimType::I64)];
            all.extend(element_types.iter().map(|t| array(*t, [count.clone()])));
            all
        },
        Exp::Soac(Soac::Filter {
            width: n.clone(),
            predicate,
            arrays: xs.to_vec(),
        }),
    );
    names.into_iter().map(SubExp::Var).collect()
}

#[test]
fn filter_i32_multiples_of_three() {
    check(Case {
        name: "filter i32",
        inputs: vec![random_i32(25)],
        kernel: "filter",
        body: |b, n, xs| {
            use PrimType::I32;
            let predicate = b.lambda(&[prim(I32)], &[prim(PrimType::Bool)], |b, p| {
                let remainder = bin(b, BinOp::Mod, I32, var(&p[0]), constant(3i32));
                vec![cmp(b, CmpOp::Eq, I32, remainder, constant(0i32))]
            });
            filter_body(b, n, xs, &[I32], predicate)
        },
        result: array_layout(PrimType::I32),
        size_results: 1,
    });
}

#[test]
fn filter_f64_and_bool_pairs() {
    check(Case {
        name: "filter f64 bool",
        inputs: vec![quarters_f64(26), random_bool(27)],
        kernel: "filter",
        body: |b, n, xs| {
            use PrimType::{Bool, F64};
            let predicate = b.lambda(&[prim(F64), prim(Bool)], &[prim(Bool)], |b, p| {
                let positive = cmp(b, CmpOp::Gt, F64, var(&p[0]), constant(0.0f64));
                vec![bin(b, BinOp::LogAnd, Bool, positive, var(&p[1]))]
            });
            filter_body(b, n, xs, &[F64, Bool], predicate)
        },
        result: Layout::Tuple(vec![
            array_layout(PrimType::F64),
            array_layout(PrimType::Bool),
        ]),
        size_results: 1,
    });
}

/// `map (\x -> loop acc = x for i < 3 do acc + 1) xs`: a loop in a kernel.
fn map_with_a_loop(b: &mut Builder, n: &SubExp, xs: &[VName]) -> Vec<SubExp> {
    let lambda = b.lambda(&[prim(PrimType::I32)], &[prim(PrimType::I32)], |b, p| {
        let accumulator = b.param("acc", prim(PrimType::I32));
        let index = b.name("i");
        let body = b.body(|b| {
            vec![bin(
                b,
                BinOp::Add,
                PrimType::I32,
                var(&accumulator.name),
                constant(1i32),
            )]
        });
        vec![b.bind(
            "looped",
            prim(PrimType::I32),
            Exp::Loop {
                params: vec![(
                    Param {
                        name: accumulator.name.clone(),
                        ty: prim(PrimType::I32),
                    },
                    var(&p[0]),
                )],
                form: LoopForm::For {
                    index,
                    bound: constant(3i32),
                },
                body,
            },
        )]
    });
    map_i32(b, n, xs, lambda)
}

#[test]
fn map_i32_with_a_loop() {
    check(Case {
        name: "map with a loop",
        inputs: vec![random_i32(31)],
        kernel: "map",
        body: map_with_a_loop,
        result: array_layout(PrimType::I32),
        size_results: 0,
    });
}

// ---- what stays on the host ----

/// Extracts `main`'s SOACs and returns the single host placement's reason.
fn host_reason(body: fn(&mut Builder, &SubExp, &[VName]) -> Vec<SubExp>) -> String {
    let case = Case {
        name: "host",
        inputs: vec![random_i32(0)],
        kernel: "",
        body,
        result: array_layout(PrimType::I32),
        size_results: 0,
    };
    let program = program_of(&case);
    match extract_function(&program.functions[0]).as_slice() {
        [Placement::Host { reason, .. }] => reason.to_string(),
        other => panic!("expected one host placement, got {other:?}"),
    }
}

fn map_i32(
    b: &mut Builder,
    n: &SubExp,
    xs: &[VName],
    lambda: optimized::ir::Lambda,
) -> Vec<SubExp> {
    soac(
        b,
        arrays_of(n, &[PrimType::I32]),
        Soac::Map {
            width: n.clone(),
            lambda,
            arrays: xs.to_vec(),
        },
    )
}

#[test]
fn unsupported_lambdas_run_on_the_host_with_the_construct_named() {
    // Map lambdas read scalars of the enclosing scope from the environment;
    // operators do not.
    let free_variable_in_operator = host_reason(|b, n, xs| {
        use PrimType::I32;
        let k = conv(b, PrimType::I64, I32, n.clone());
        let lambda = b.lambda(&[prim(I32), prim(I32)], &[prim(I32)], |b, p| {
            let sum = bin(b, BinOp::Add, I32, var(&p[0]), var(&p[1]));
            vec![bin(b, BinOp::Add, I32, sum, k.clone())]
        });
        soac(
            b,
            vec![prim(I32)],
            Soac::Reduce {
                width: n.clone(),
                lambda,
                neutral: vec![constant(0i32)],
                arrays: xs.to_vec(),
            },
        )
    });
    assert!(
        free_variable_in_operator.contains("enclosing scope"),
        "{free_variable_in_operator}"
    );
    let variable_neutral = host_reason(|b, n, xs| {
        let k = conv(b, PrimType::I64, PrimType::I32, n.clone());
        reduce_with(b, n, xs, BinOp::Add, PrimType::I32, k)
    });
    assert!(
        variable_neutral.contains("is a variable"),
        "{variable_neutral}"
    );

    let transcendental_f64 = host_reason(|b, n, xs| {
        let lambda = b.lambda(&[prim(PrimType::I32)], &[prim(PrimType::I32)], |b, p| {
            let x = conv(b, PrimType::I32, PrimType::F64, var(&p[0]));
            let sine = un(b, UnOp::Sin, PrimType::F64, x);
            vec![conv(b, PrimType::F64, PrimType::I32, sine)]
        });
        map_i32(b, n, xs, lambda)
    });
    assert!(
        transcendental_f64.contains("Sin on f64"),
        "{transcendental_f64}"
    );

    // A histogram whose operator may fail (integer division by zero): the
    // histogram kernels read no status word.
    let failing_histogram = host_reason(|b, n, xs| {
        let operator = b.lambda(
            &[prim(PrimType::I32), prim(PrimType::I32)],
            &[prim(PrimType::I32)],
            |b, p| vec![bin(b, BinOp::Div, PrimType::I32, var(&p[0]), var(&p[1]))],
        );
        soac(
            b,
            arrays_of(n, &[PrimType::I32]),
            Soac::Hist {
                width: n.clone(),
                destinations: xs.to_vec(),
                operator,
                neutral: vec![constant(1i32)],
                indices: xs[0].clone(),
                values: xs.to_vec(),
            },
        )
    });
    assert!(
        failing_histogram.contains("reduce_by_index operator that may fail"),
        "{failing_histogram}"
    );
}
