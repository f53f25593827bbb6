//! `reduce`, `redomap`, `scan`, `scanomap` and segmented reduce/scan of the
//! generated kernel library against sequential CPU computations on lavapipe,
//! under the validation layer, with every module through `spirv-val`:
//! non-commutative operators (2×2 matrix product over four `u32` arrays,
//! affine-map composition over two `u8` arrays, "first non-zero" on `i16`),
//! sizes 0, 1, small primes, powers of two ± 1 and a few large ones up to
//! 2^26, every primitive type, both reduction strategies, and proptest cases.

mod common;

use common::{assert_clean, download, pseudo_random, runtime, upload};
use gpu::kernels::element::GlslElement;
use gpu::kernels::element::{HostColumn, PrimType};
use gpu::kernels::lambda::{BuiltinOperator, MapLambda, Operator};
use gpu::kernels::soac::lookback::{lookback_scan_on_workgroups, LookBackWaiting};
use gpu::kernels::soac::map::{map_with, vector_map_kernel, MapAccess};
use gpu::kernels::soac::reduce::{
    redomap, reduce, reduce_source, segmented_reduce, segmented_reduce_with, ReduceStrategy,
};
use gpu::kernels::soac::scan::{
    scan, scan_source_with, scanomap, segmented_scan, segmented_scan_with, ScanStrategy,
};
use gpu::kernels::soac::segmented::SegmentedStrategy;
use gpu::kernels::soac::{DeviceArrays, ElementSource};
use proptest::prelude::*;

/// Sizes: empty, one, small primes, powers of two ± 1 around the tile
/// sizes (256 invocations × up to 4 items) and past one tile of tiles.
const CHECKED_SIZES: [usize; 17] = [
    0, 1, 2, 3, 7, 13, 31, 255, 256, 257, 1023, 1024, 1025, 4097, 65_535, 65_537, 1_048_579,
];

fn matrix_product() -> Operator {
    let u32s = vec![PrimType::U32; 4];
    Operator::new(
        u32s,
        vec!["1u".into(), "0u".into(), "0u".into(), "1u".into()],
        "r0 = a0 * b0 + a1 * b2; r1 = a0 * b1 + a1 * b3; \
         r2 = a2 * b0 + a3 * b2; r3 = a2 * b1 + a3 * b3;",
    )
}

type Matrix = [u32; 4];

fn cpu_matrix_product(left: Matrix, right: Matrix) -> Matrix {
    let [a0, a1, a2, a3] = left;
    let [b0, b1, b2, b3] = right;
    let add = u32::wrapping_add;
    let mul = u32::wrapping_mul;
    [
        add(mul(a0, b0), mul(a1, b2)),
        add(mul(a0, b1), mul(a1, b3)),
        add(mul(a2, b0), mul(a3, b2)),
        add(mul(a2, b1), mul(a3, b3)),
    ]
}

fn matrices(seed: u64, length: usize) -> Vec<Matrix> {
    let random = pseudo_random(seed, length * 4);
    (0..length)
        .map(|index| {
            let mut matrix = [0u32; 4];
            for (component, slot) in matrix.iter_mut().enumerate() {
                *slot = (random[index * 4 + component] % 7) as u32;
            }
            matrix
        })
        .collect()
}

fn matrix_columns(values: &[Matrix]) -> Vec<HostColumn> {
    (0..4)
        .map(|component| HostColumn::U32(values.iter().map(|matrix| matrix[component]).collect()))
        .collect()
}

fn matrices_from_columns(columns: &[HostColumn]) -> Vec<Matrix> {
    let components: Vec<&Vec<u32>> = columns
        .iter()
        .map(|column| match column {
            HostColumn::U32(values) => values,
            other => panic!("expected u32, got {other:?}"),
        })
        .collect();
    (0..components[0].len())
        .map(|index| [0, 1, 2, 3].map(|component| components[component][index]))
        .collect()
}

fn affine_composition() -> Operator {
    Operator::new(
        vec![PrimType::U8, PrimType::U8],
        vec!["uint8_t(1)".into(), "uint8_t(0)".into()],
        "r0 = uint8_t(a0 * b0); r1 = uint8_t(b0 * a1 + b1);",
    )
}

fn cpu_affine_composition(left: (u8, u8), right: (u8, u8)) -> (u8, u8) {
    (
        left.0.wrapping_mul(right.0),
        right.0.wrapping_mul(left.1).wrapping_add(right.1),
    )
}

fn first_non_zero() -> Operator {
    Operator::new(
        vec![PrimType::I16],
        vec!["int16_t(0)".into()],
        "r0 = (a0 != int16_t(0)) ? a0 : b0;",
    )
}

/// The one check of this file: the GPU result of an operation on
/// `columns` equals `expected`.
fn check(
    description: &str,
    columns: &[HostColumn],
    run: impl FnOnce(&gpu::Runtime, &DeviceArrays) -> gpu::GpuResult<DeviceArrays>,
    expected: &[HostColumn],
) {
    let runtime = runtime();
    let inputs = upload(runtime, columns);
    let outputs = run(runtime, &inputs).unwrap_or_else(|error| panic!("{description}: {error}"));
    let results = download(runtime, &outputs);
    assert!(
        results == expected,
        "{description}: GPU result differs from the CPU"
    );
    assert_clean(runtime);
}

fn cpu_matrix_scan(values: &[Matrix]) -> Vec<Matrix> {
    let mut accumulator = [1, 0, 0, 1];
    values
        .iter()
        .map(|value| {
            accumulator = cpu_matrix_product(accumulator, *value);
            accumulator
        })
        .collect()
}

#[test]
fn matrix_product_reduce_and_scan_equal_the_cpu_at_every_checked_size() {
    for (position, size) in CHECKED_SIZES.iter().enumerate() {
        let values = matrices(position as u64, *size);
        let scanned = cpu_matrix_scan(&values);
        let total = *scanned.last().unwrap_or(&[1, 0, 0, 1]);
        check(
            &format!("matrix reduce of {size}"),
            &matrix_columns(&values),
            |runtime, inputs| reduce(runtime, &matrix_product(), None, inputs),
            &matrix_columns(&[total]),
        );
        for strategy in SCAN_STRATEGIES {
            check(
                &format!("matrix scan of {size} ({strategy:?})"),
                &matrix_columns(&values),
                |runtime, inputs| {
                    scan_source_with(
                        runtime,
                        &ElementSource::columns(&inputs.element_types),
                        &matrix_product(),
                        None,
                        inputs,
                        strategy,
                    )
                },
                &matrix_columns(&scanned),
            );
        }
    }
}

/// The single-pass scan when workgroups are fewer than tiles: each of 3
/// workgroups takes its share of tiles in turn (and the last tile is
/// partial), with the fallback forced on and with waiting.
#[test]
fn the_single_pass_scan_takes_several_tiles_per_workgroup_when_workgroups_are_few() {
    let size = 100_003;
    let values = matrices(11, size);
    let scanned = cpu_matrix_scan(&values);
    for waiting in [LookBackWaiting::NeverWait, LookBackWaiting::Polls(1 << 12)] {
        check(
            &format!("matrix scan of {size} on 3 workgroups ({waiting:?})"),
            &matrix_columns(&values),
            |runtime, inputs| {
                lookback_scan_on_workgroups(
                    runtime,
                    &ElementSource::columns(&inputs.element_types),
                    &matrix_product(),
                    None,
                    inputs,
                    waiting,
                    3,
                    None,
                )
            },
            &matrix_columns(&scanned),
        );
    }
}

/// The single-pass scan by rows on 3 workgroups (several tiles each, rows
/// crossing tile boundaries), with the fallback forced on and with waiting.
#[test]
fn the_single_pass_scan_by_rows_agrees_with_the_cpu_on_few_workgroups() {
    for (rows, row_length) in [(1000u64, 3u64), (37, 1000), (3, 5000), (4099, 1)] {
        let size = (rows * row_length) as usize;
        let values = matrices(rows + 7 * row_length, size);
        let mut scanned = Vec::new();
        for row in values.chunks(row_length as usize) {
            scanned.extend(cpu_matrix_scan(row));
        }
        for waiting in [LookBackWaiting::NeverWait, LookBackWaiting::Polls(1 << 12)] {
            check(
                &format!(
                    "matrix scan of {rows}×{row_length} by rows on 3 workgroups ({waiting:?})"
                ),
                &matrix_columns(&values),
                |runtime, inputs| {
                    lookback_scan_on_workgroups(
                        runtime,
                        &ElementSource::columns(&inputs.element_types),
                        &matrix_product(),
                        None,
                        inputs,
                        waiting,
                        3,
                        Some(row_length),
                    )
                },
                &matrix_columns(&scanned),
            );
        }
    }
}

/// Every way a whole-array scan runs: one pass waiting as the device allows
/// (never, on lavapipe), one pass with the fallback forced on, one pass
/// polling (the GPUs' path, bounded, so it is safe anywhere), three passes.
const SCAN_STRATEGIES: [ScanStrategy; 4] = [
    ScanStrategy::SinglePass(LookBackWaiting::ForDevice),
    ScanStrategy::SinglePass(LookBackWaiting::NeverWait),
    ScanStrategy::SinglePass(LookBackWaiting::Polls(1 << 12)),
    ScanStrategy::ReduceThenScan,
];

fn cpu_affine_scan(multipliers: &[u8], offsets: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut accumulator = (1u8, 0u8);
    let mut scanned_multipliers = Vec::with_capacity(multipliers.len());
    let mut scanned_offsets = Vec::with_capacity(multipliers.len());
    for (multiplier, offset) in multipliers.iter().zip(offsets) {
        accumulator = cpu_affine_composition(accumulator, (*multiplier, *offset));
        scanned_multipliers.push(accumulator.0);
        scanned_offsets.push(accumulator.1);
    }
    (scanned_multipliers, scanned_offsets)
}

/// Cheap pseudo-random bytes (an LCG's high bytes) for the large cases.
fn pseudo_random_bytes(seed: u32, length: usize) -> Vec<u8> {
    let mut state = seed;
    (0..length)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect()
}

/// The large cases (few, for time): 2^26 one-byte pairs (64 MiB per column,
/// under lavapipe's 128 MiB `maxStorageBufferRange`) scanned, 2^26 − 1
/// reduced; 2^26 `i16` (exactly 128 MiB) reduced.
#[test]
fn large_affine_composition_reduce_and_scan_equal_the_cpu() {
    let size = 1 << 26;
    let multipliers: Vec<u8> = pseudo_random_bytes(1, size)
        .iter()
        .map(|value| value | 1)
        .collect();
    let offsets = pseudo_random_bytes(2, size);
    let (scanned_multipliers, scanned_offsets) = cpu_affine_scan(&multipliers, &offsets);
    let reduced_length = size - 1;
    check(
        "affine reduce of 2^26 - 1",
        &[
            HostColumn::U8(multipliers[..reduced_length].to_vec()),
            HostColumn::U8(offsets[..reduced_length].to_vec()),
        ],
        |runtime, inputs| reduce(runtime, &affine_composition(), None, inputs),
        &[
            HostColumn::U8(vec![scanned_multipliers[reduced_length - 1]]),
            HostColumn::U8(vec![scanned_offsets[reduced_length - 1]]),
        ],
    );
    for strategy in [
        ScanStrategy::SinglePass(LookBackWaiting::NeverWait),
        ScanStrategy::SinglePass(LookBackWaiting::Polls(1 << 12)),
    ] {
        check(
            &format!("affine scan of 2^26 ({strategy:?})"),
            &[
                HostColumn::U8(multipliers.clone()),
                HostColumn::U8(offsets.clone()),
            ],
            |runtime, inputs| {
                scan_source_with(
                    runtime,
                    &ElementSource::columns(&inputs.element_types),
                    &affine_composition(),
                    None,
                    inputs,
                    strategy,
                )
            },
            &[
                HostColumn::U8(scanned_multipliers.clone()),
                HostColumn::U8(scanned_offsets.clone()),
            ],
        );
    }
}

#[test]
fn large_first_non_zero_reduce_equals_the_cpu() {
    let size = 1 << 26;
    // Zeros but for one value in the last quarter: the first non-zero is
    // far in.
    let mut values = vec![0i16; size];
    values[size - size / 4 + 12_345] = -7;
    values[size - 3] = 5;
    check(
        "first non-zero reduce of 2^26",
        &[HostColumn::I16(values)],
        |runtime, inputs| reduce(runtime, &first_non_zero(), None, inputs),
        &[HostColumn::I16(vec![-7])],
    );
}

/// A lambda `x → x·3 + 1` (`!x` on booleans) at every type, and the CPU's.
fn times_three_plus_one(element_type: PrimType) -> MapLambda {
    let body = match element_type {
        PrimType::Bool => "y0 = !x0;".to_owned(),
        other => {
            let value_type = other.glsl_value_type();
            format!("y0 = {value_type}({value_type}(x0 * {value_type}(3)) + {value_type}(1));")
        }
    };
    MapLambda::new(vec![element_type], vec![element_type], body)
}

macro_rules! per_type_columns {
    ($random:expr, $function:ident) => {{
        let random = $random;
        vec![
            $function!(I8, i8, random),
            $function!(I16, i16, random),
            $function!(I32, i32, random),
            $function!(I64, i64, random),
            $function!(U8, u8, random),
            $function!(U16, u16, random),
            $function!(U32, u32, random),
            $function!(U64, u64, random),
            HostColumn::F32(
                random
                    .iter()
                    .map(|value| (*value % 201) as f32 - 100.0)
                    .collect(),
            ),
            HostColumn::F64(
                random
                    .iter()
                    .map(|value| (*value % 2001) as f64 - 1000.0)
                    .collect(),
            ),
            HostColumn::Bool(random.iter().map(|value| value % 3 == 0).collect()),
        ]
    }};
}

macro_rules! integer_column {
    ($variant:ident, $primitive:ty, $random:expr) => {
        HostColumn::$variant($random.iter().map(|value| *value as $primitive).collect())
    };
}

macro_rules! map_cpu {
    ($column:expr) => {
        match $column {
            HostColumn::I8(values) => HostColumn::I8(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::I16(values) => HostColumn::I16(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::I32(values) => HostColumn::I32(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::I64(values) => HostColumn::I64(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::U8(values) => HostColumn::U8(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::U16(values) => HostColumn::U16(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::U32(values) => HostColumn::U32(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::U64(values) => HostColumn::U64(
                values
                    .iter()
                    .map(|v| v.wrapping_mul(3).wrapping_add(1))
                    .collect(),
            ),
            HostColumn::F32(values) => {
                HostColumn::F32(values.iter().map(|v| v * 3.0 + 1.0).collect())
            }
            HostColumn::F64(values) => {
                HostColumn::F64(values.iter().map(|v| v * 3.0 + 1.0).collect())
            }
            HostColumn::Bool(values) => HostColumn::Bool(values.iter().map(|v| !v).collect()),
        }
    };
}

/// The CPU fold of `operator` (add, wrapping; max from the type's least
/// value; or on booleans, which is max).
macro_rules! fold_cpu {
    ($column:expr, $operator:expr) => {{
        macro_rules! fold_numbers {
            ($values:expr, $variant:ident, $zero:expr, $least:expr, $add:expr, $max:expr) => {
                HostColumn::$variant(vec![match $operator {
                    BuiltinOperator::Add => $values.iter().fold($zero, |a, b| $add(a, *b)),
                    _ => $values.iter().fold($least, |a, b| $max(a, *b)),
                }])
            };
        }
        match $column {
            HostColumn::I8(values) => {
                fold_numbers!(values, I8, 0, i8::MIN, i8::wrapping_add, |a: i8, b: i8| a
                    .max(b))
            }
            HostColumn::I16(values) => fold_numbers!(
                values,
                I16,
                0,
                i16::MIN,
                i16::wrapping_add,
                |a: i16, b: i16| a.max(b)
            ),
            HostColumn::I32(values) => fold_numbers!(
                values,
                I32,
                0,
                i32::MIN,
                i32::wrapping_add,
                |a: i32, b: i32| a.max(b)
            ),
            HostColumn::I64(values) => fold_numbers!(
                values,
                I64,
                0,
                i64::MIN,
                i64::wrapping_add,
                |a: i64, b: i64| a.max(b)
            ),
            HostColumn::U8(values) => {
                fold_numbers!(values, U8, 0, 0, u8::wrapping_add, |a: u8, b: u8| a.max(b))
            }
            HostColumn::U16(values) => {
                fold_numbers!(values, U16, 0, 0, u16::wrapping_add, |a: u16, b: u16| a
                    .max(b))
            }
            HostColumn::U32(values) => {
                fold_numbers!(values, U32, 0, 0, u32::wrapping_add, |a: u32, b: u32| a
                    .max(b))
            }
            HostColumn::U64(values) => {
                fold_numbers!(values, U64, 0, 0, u64::wrapping_add, |a: u64, b: u64| a
                    .max(b))
            }
            HostColumn::F32(values) => fold_numbers!(
                values,
                F32,
                0.0,
                f32::NEG_INFINITY,
                |a: f32, b: f32| a + b,
                |a: f32, b: f32| a.max(b)
            ),
            HostColumn::F64(values) => fold_numbers!(
                values,
                F64,
                0.0,
                f64::NEG_INFINITY,
                |a: f64, b: f64| a + b,
                |a: f64, b: f64| a.max(b)
            ),
            HostColumn::Bool(values) => HostColumn::Bool(vec![values.iter().any(|value| *value)]),
        }
    }};
}

#[test]
fn map_and_reduce_work_at_every_primitive_type() {
    // Sizes around the vector map's whole vectors (4 elements) and chunks
    // (256 invocations × 4 vectors × 4 elements), so every tail length runs.
    for size in [0usize, 1, 3, 6, 1000, 4099, 65_537] {
        let columns = per_type_columns!(pseudo_random(size as u64 + 5, size), integer_column);
        for column in columns {
            let element_type = column.element_type();
            for access in [MapAccess::Vectors, MapAccess::Scalars] {
                check(
                    &format!("map at {} of {size} ({access:?})", element_type.name()),
                    std::slice::from_ref(&column),
                    |runtime, inputs| {
                        map_with(
                            runtime,
                            &times_three_plus_one(element_type),
                            None,
                            inputs,
                            access,
                        )
                    },
                    &[map_cpu!(&column)],
                );
            }
            let operators = if element_type == PrimType::Bool {
                vec![BuiltinOperator::Maximum]
            } else {
                vec![BuiltinOperator::Add, BuiltinOperator::Maximum]
            };
            for builtin in operators {
                let operator = Operator::builtin(builtin, element_type).expect("applies");
                for strategy in [ReduceStrategy::Automatic, ReduceStrategy::Ordered] {
                    check(
                        &format!(
                            "reduce {builtin:?} at {} of {size} ({strategy:?})",
                            element_type.name()
                        ),
                        std::slice::from_ref(&column),
                        |runtime, inputs| {
                            reduce_source(
                                runtime,
                                &ElementSource::columns(&[element_type]),
                                &operator,
                                None,
                                inputs,
                                strategy,
                            )
                        },
                        &[fold_cpu!(&column, builtin)],
                    );
                }
            }
        }
    }
}

/// `\x y -> (x + y, u16 x * u16 y, x < y)` on `u8` pairs: three results of
/// three types from two inputs.
fn pair_lambda() -> MapLambda {
    MapLambda::new(
        vec![PrimType::U8, PrimType::U8],
        vec![PrimType::U8, PrimType::U16, PrimType::Bool],
        "y0 = uint8_t(x0 + x1); y1 = uint16_t(x0) * uint16_t(x1); y2 = x0 < x1;",
    )
}

/// [`pair_lambda`] on the CPU.
fn cpu_pair_map(first: &[u8], second: &[u8]) -> [HostColumn; 3] {
    let pairs = || first.iter().zip(second);
    [
        HostColumn::U8(pairs().map(|(x, y)| x.wrapping_add(*y)).collect()),
        HostColumn::U16(
            pairs()
                .map(|(x, y)| u16::from(*x) * u16::from(*y))
                .collect(),
        ),
        HostColumn::Bool(pairs().map(|(x, y)| x < y).collect()),
    ]
}

#[test]
fn map_with_several_inputs_and_outputs_covers_more_than_the_workgroup_limit() {
    // map (\x y -> (x + y, x * y, x < y)) on u8 pairs, at sizes around and
    // past 65 535 workgroups × 256 invocations (the grid-stride loop takes
    // the rest).
    let lambda = pair_lambda();
    for size in [0usize, 5, 65_535 * 256, 65_535 * 256 + 3] {
        let first = pseudo_random_bytes(size as u32, size);
        let second = pseudo_random_bytes(size as u32 + 1, size);
        let expected = cpu_pair_map(&first, &second);
        check(
            &format!("map of {size} pairs"),
            &[HostColumn::U8(first), HostColumn::U8(second)],
            |runtime, inputs| gpu::kernels::soac::map::map(runtime, &lambda, None, inputs),
            &expected,
        );
    }
}

#[test]
fn the_vector_map_strides_over_chunks_when_workgroups_are_few() {
    // 3 workgroups of 256 invocations × 4 vectors cover 12 288 elements per
    // round; 100 003 elements take 9 rounds and a tail of 3, on u8 pairs
    // mapped to three columns of three types.
    let lambda = pair_lambda();
    let size = 100_003usize;
    let first = pseudo_random_bytes(7, size);
    let second = pseudo_random_bytes(8, size);
    let expected = cpu_pair_map(&first, &second);
    check(
        "vector map of 100 003 pairs on 3 workgroups",
        &[HostColumn::U8(first), HostColumn::U8(second)],
        |runtime, inputs| {
            let kernel = vector_map_kernel(&lambda, 256).load(runtime)?;
            let outputs = DeviceArrays::allocate(runtime, &lambda.result_types, inputs.length)?;
            let mut buffers = inputs.buffers();
            buffers.extend(outputs.buffers());
            runtime.dispatch(&kernel, &buffers, None, &[size as u32], [3, 1, 1])?;
            Ok(outputs)
        },
        &expected,
    );
}

#[test]
fn redomap_and_scanomap_fuse_the_map() {
    // map (\x y -> (x, y, x*y, 1)) then the matrix product: two u32 inputs.
    let lambda = MapLambda::new(
        vec![PrimType::U32, PrimType::U32],
        vec![PrimType::U32; 4],
        "y0 = x0; y1 = x1; y2 = x0 * x1; y3 = 1u;",
    );
    for size in [0usize, 1, 257, 5000, 300_007] {
        let random = pseudo_random(size as u64, size * 2);
        let first: Vec<u32> = random[..size]
            .iter()
            .map(|value| (*value % 5) as u32)
            .collect();
        let second: Vec<u32> = random[size..]
            .iter()
            .map(|value| (*value % 5) as u32)
            .collect();
        let mapped: Vec<Matrix> = first
            .iter()
            .zip(&second)
            .map(|(x, y)| [*x, *y, x.wrapping_mul(*y), 1])
            .collect();
        let scanned = cpu_matrix_scan(&mapped);
        let columns = [HostColumn::U32(first), HostColumn::U32(second)];
        check(
            &format!("redomap of {size}"),
            &columns,
            |runtime, inputs| redomap(runtime, &lambda, &matrix_product(), None, inputs),
            &matrix_columns(&[*scanned.last().unwrap_or(&[1, 0, 0, 1])]),
        );
        check(
            &format!("scanomap of {size}"),
            &columns,
            |runtime, inputs| scanomap(runtime, &lambda, &matrix_product(), None, inputs),
            &matrix_columns(&scanned),
        );
    }
}

#[test]
fn segmented_reduce_and_scan_equal_the_cpu_per_row() {
    for (rows, row_length) in [
        (0u64, 5u64),
        (3, 0),
        (1, 1),
        (7, 13),
        (1000, 3),
        (5, 2049),
        (70_000, 2),
    ] {
        let size = (rows * row_length) as usize;
        let values = matrices(rows * 31 + row_length, size);
        let mut reduced = Vec::new();
        let mut scanned = Vec::new();
        for row in 0..rows as usize {
            let row_values = &values[row * row_length as usize..(row + 1) * row_length as usize];
            let row_scan = cpu_matrix_scan(row_values);
            reduced.push(*row_scan.last().unwrap_or(&[1, 0, 0, 1]));
            scanned.extend(row_scan);
        }
        for strategy in [
            SegmentedStrategy::WorkgroupPerRow,
            SegmentedStrategy::InvocationPerRow,
            SegmentedStrategy::SinglePass,
        ] {
            check(
                &format!("segmented reduce of {rows}×{row_length} ({strategy:?})"),
                &matrix_columns(&values),
                |runtime, inputs| {
                    segmented_reduce_with(
                        runtime,
                        &matrix_product(),
                        inputs,
                        rows,
                        row_length,
                        strategy,
                    )
                },
                &matrix_columns(&reduced),
            );
            check(
                &format!("segmented scan of {rows}×{row_length} ({strategy:?})"),
                &matrix_columns(&values),
                |runtime, inputs| {
                    segmented_scan_with(
                        runtime,
                        &matrix_product(),
                        inputs,
                        rows,
                        row_length,
                        strategy,
                    )
                },
                &matrix_columns(&scanned),
            );
        }
    }
}

#[test]
fn segmented_sums_use_subgroup_combining_and_equal_the_cpu() {
    let add = Operator::builtin(BuiltinOperator::Add, PrimType::I32).expect("applies");
    for (rows, row_length) in [(3u64, 1u64), (9, 1025), (2000, 17)] {
        let values: Vec<i32> = pseudo_random(rows + row_length, (rows * row_length) as usize)
            .iter()
            .map(|value| *value as i32)
            .collect();
        let mut sums = Vec::new();
        let mut running = Vec::new();
        for row in values.chunks(row_length as usize) {
            let mut accumulator = 0i32;
            for value in row {
                accumulator = accumulator.wrapping_add(*value);
                running.push(accumulator);
            }
            sums.push(accumulator);
        }
        let columns = [HostColumn::I32(values)];
        check(
            &format!("segmented i32 sums of {rows}×{row_length}"),
            &columns,
            |runtime, inputs| segmented_reduce(runtime, &add, inputs, rows, row_length),
            &[HostColumn::I32(sums)],
        );
        check(
            &format!("segmented i32 running sums of {rows}×{row_length}"),
            &columns,
            |runtime, inputs| segmented_scan(runtime, &add, inputs, rows, row_length),
            &[HostColumn::I32(running)],
        );
    }
    if runtime().enabled_features().subgroup_arithmetic {
        assert!(
            gpu::kernels::all_compiled_modules()
                .iter()
                .any(|(name, _)| name.ends_with("_subgroup_combine")),
            "the subgroup-combining ordered kernel was not used"
        );
    }
}

#[test]
fn irregular_row_shapes_are_errors() {
    let runtime = runtime();
    let inputs = upload(runtime, &matrix_columns(&matrices(1, 10)));
    let error = segmented_reduce(runtime, &matrix_product(), &inputs, 3, 3)
        .expect_err("10 elements are not 3 rows of 3");
    assert!(error.to_string().contains("not 3 rows of 3"), "{error}");
    let wrong_types =
        reduce(runtime, &affine_composition(), None, &inputs).expect_err("wrong types");
    assert!(wrong_types.to_string().contains("u8"), "{wrong_types}");
    assert_clean(runtime);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn matrix_reduce_and_scan_agree_with_the_cpu(values in proptest::collection::vec(proptest::array::uniform4(0u32..1000), 0..3000)) {
        let scanned = cpu_matrix_scan(&values);
        let runtime = runtime();
        let inputs = upload(runtime, &matrix_columns(&values));
        let reduced = reduce(runtime, &matrix_product(), None, &inputs).expect("reduce");
        prop_assert_eq!(
            matrices_from_columns(&download(runtime, &reduced)),
            vec![*scanned.last().unwrap_or(&[1, 0, 0, 1])]
        );
        let scanned_on_gpu = scan(runtime, &matrix_product(), None, &inputs).expect("scan");
        prop_assert_eq!(matrices_from_columns(&download(runtime, &scanned_on_gpu)), scanned);
        assert_clean(runtime);
    }

    #[test]
    fn affine_scan_agrees_with_the_cpu(pairs in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..5000)) {
        let (multipliers, offsets): (Vec<u8>, Vec<u8>) = pairs.into_iter().unzip();
        let (scanned_multipliers, scanned_offsets) = cpu_affine_scan(&multipliers, &offsets);
        let runtime = runtime();
        let inputs = upload(runtime, &[HostColumn::U8(multipliers), HostColumn::U8(offsets)]);
        let scanned = scan(runtime, &affine_composition(), None, &inputs).expect("scan");
        prop_assert_eq!(
            download(runtime, &scanned),
            vec![HostColumn::U8(scanned_multipliers), HostColumn::U8(scanned_offsets)]
        );
        assert_clean(runtime);
    }
}
