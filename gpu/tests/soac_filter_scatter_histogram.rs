//! `filter`, `partition`, `scatter` and `reduce_by_index` of the generated kernel library
//! against sequential CPU computations on lavapipe, under the validation
//! layer, with every module through `spirv-val`; every histogram strategy,
//! tuple values, narrow and 64-bit types, out-of-bounds indices.

mod common;

use common::{assert_clean, download, pseudo_random, runtime, upload};
use gpu::kernels::element::{HostColumn, PrimType};
use gpu::kernels::lambda::{BuiltinOperator, MapLambda, Operator};
use gpu::kernels::soac::filter::{filter, partition};
use gpu::kernels::soac::histogram::{reduce_by_index, HistogramStrategy};
use gpu::kernels::soac::scatter::scatter;
use proptest::prelude::*;

const CHECKED_SIZES: [usize; 9] = [0, 1, 2, 7, 255, 1025, 4097, 65_537, 1_000_003];

/// The one check of this file for in-place operations: run `operation` on
/// uploaded `destination` and `arguments`, compare `destination` with
/// `expected`.
fn check_in_place(
    description: &str,
    destination: &[HostColumn],
    arguments: &[&[HostColumn]],
    operation: impl FnOnce(
        &gpu::Runtime,
        &gpu::kernels::soac::DeviceArrays,
        &[gpu::kernels::soac::DeviceArrays],
    ) -> gpu::GpuResult<()>,
    expected: &[HostColumn],
) {
    let runtime = runtime();
    let destination_arrays = upload(runtime, destination);
    let argument_arrays: Vec<_> = arguments
        .iter()
        .map(|columns| upload(runtime, columns))
        .collect();
    operation(runtime, &destination_arrays, &argument_arrays)
        .unwrap_or_else(|error| panic!("{description}: {error}"));
    let results = download(runtime, &destination_arrays);
    assert!(
        results == expected,
        "{description}: GPU result differs from the CPU"
    );
    assert_clean(runtime);
}

#[test]
fn filter_keeps_what_the_predicate_accepts_in_order() {
    // filter (\(x, y) -> x % 3 == 0 && y) over (i64, bool) pairs.
    let predicate = MapLambda::new(
        vec![PrimType::I64, PrimType::Bool],
        vec![PrimType::Bool],
        "y0 = (x0 % 3l == 0l) && x1;",
    );
    for size in CHECKED_SIZES {
        let random = pseudo_random(size as u64, size);
        let numbers: Vec<i64> = random
            .iter()
            .map(|value| (*value >> 3) as i64 % 1000)
            .collect();
        let flags: Vec<bool> = random.iter().map(|value| value % 2 == 0).collect();
        let kept: Vec<(i64, bool)> = numbers
            .iter()
            .zip(&flags)
            .filter(|(number, flag)| *number % 3 == 0 && **flag)
            .map(|(number, flag)| (*number, *flag))
            .collect();
        let runtime = runtime();
        let inputs = upload(
            runtime,
            &[HostColumn::I64(numbers), HostColumn::Bool(flags)],
        );
        let outputs = filter(runtime, &predicate, None, &inputs)
            .unwrap_or_else(|error| panic!("filter of {size}: {error}"));
        assert_eq!(outputs.length, kept.len() as u64, "filter of {size}: count");
        assert_eq!(
            download(runtime, &outputs),
            vec![
                HostColumn::I64(kept.iter().map(|pair| pair.0).collect()),
                HostColumn::Bool(kept.iter().map(|pair| pair.1).collect()),
            ],
            "filter of {size}"
        );
        assert_clean(runtime);
    }
}

/// An element of the partitioned arrays.
type Pair = (f32, u16);

#[test]
fn partition_puts_the_kept_elements_first_and_keeps_both_orders() {
    // partition (\(x, y) -> x < y) over (f32, u16) pairs.
    let predicate = MapLambda::new(
        vec![PrimType::F32, PrimType::U16],
        vec![PrimType::Bool],
        "y0 = x0 < float(x1);",
    );
    for size in [0usize, 1, 3, 1025, 65_537] {
        let random = pseudo_random(size as u64 + 40, size);
        let floats: Vec<f32> = random.iter().map(|value| (*value % 100) as f32).collect();
        let shorts: Vec<u16> = random
            .iter()
            .map(|value| (*value >> 32) as u16 % 100)
            .collect();
        let pairs: Vec<Pair> = floats.iter().copied().zip(shorts.iter().copied()).collect();
        let (kept, rejected): (Vec<Pair>, Vec<Pair>) =
            pairs.iter().partition(|(x, y)| *x < f32::from(*y));
        let ordered: Vec<Pair> = kept.iter().chain(&rejected).copied().collect();
        let runtime = runtime();
        let inputs = upload(runtime, &[HostColumn::F32(floats), HostColumn::U16(shorts)]);
        let (outputs, kept_count) = partition(runtime, &predicate, None, &inputs)
            .unwrap_or_else(|error| panic!("partition of {size}: {error}"));
        assert_eq!(kept_count, kept.len() as u64, "partition of {size}: count");
        assert_eq!(
            download(runtime, &outputs),
            vec![
                HostColumn::F32(ordered.iter().map(|pair| pair.0).collect()),
                HostColumn::U16(ordered.iter().map(|pair| pair.1).collect()),
            ],
            "partition of {size}"
        );
        assert_clean(runtime);
    }
}

#[test]
fn scatter_writes_in_bounds_values_and_ignores_the_rest() {
    for size in CHECKED_SIZES {
        let destination_length = size / 2 + 3;
        // A permutation of the destination's slots (unique in-bounds
        // targets), with every fifth index pushed out of bounds.
        let random = pseudo_random(size as u64 + 1, size);
        let shuffle = pseudo_random(size as u64 + 2, destination_length);
        let mut slots: Vec<usize> = (0..destination_length).collect();
        for position in (1..slots.len()).rev() {
            slots.swap(position, shuffle[position] as usize % (position + 1));
        }
        let indices: Vec<i64> = (0..size)
            .map(|position| match position % 5 {
                4 => {
                    if position % 2 == 0 {
                        -1 - position as i64
                    } else {
                        (destination_length + position) as i64
                    }
                }
                _ => slots.get(position).map_or(-7, |slot| *slot as i64),
            })
            .collect();
        let values: Vec<u16> = random.iter().map(|value| (*value >> 16) as u16).collect();
        let doubles: Vec<f64> = random
            .iter()
            .map(|value| (*value % 1000) as f64 / 8.0)
            .collect();
        let mut expected_values: Vec<u16> =
            (0..destination_length).map(|slot| slot as u16).collect();
        let mut expected_doubles: Vec<f64> = vec![-1.0; destination_length];
        for (position, index) in indices.iter().enumerate() {
            if *index >= 0 && (*index as usize) < destination_length {
                expected_values[*index as usize] = values[position];
                expected_doubles[*index as usize] = doubles[position];
            }
        }
        check_in_place(
            &format!("scatter of {size}"),
            &[
                HostColumn::U16((0..destination_length).map(|slot| slot as u16).collect()),
                HostColumn::F64(vec![-1.0; destination_length]),
            ],
            &[
                &[HostColumn::I64(indices)],
                &[HostColumn::U16(values), HostColumn::F64(doubles)],
            ],
            |runtime, destination, arguments| {
                scatter(runtime, destination, &arguments[0], &arguments[1])
            },
            &[
                HostColumn::U16(expected_values),
                HostColumn::F64(expected_doubles),
            ],
        );
    }
}

/// Indices into `bin_count` bins, a few out of bounds either side.
fn histogram_indices(seed: u64, size: usize, bin_count: usize) -> Vec<i32> {
    pseudo_random(seed, size)
        .iter()
        .map(|value| (*value % (bin_count as u64 + 4)) as i32 - 2)
        .collect()
}

fn in_bounds(index: i32, bin_count: usize) -> Option<usize> {
    (index >= 0 && (index as usize) < bin_count).then_some(index as usize)
}

#[test]
fn integer_histograms_agree_with_the_cpu_under_every_applicable_strategy() {
    for (size, bin_count) in [
        (0usize, 5usize),
        (1, 1),
        (1000, 7),
        (65_537, 300),
        (1_000_003, 1000),
    ] {
        let indices = histogram_indices(size as u64, size, bin_count);
        let values: Vec<u32> = pseudo_random(size as u64 + 9, size)
            .iter()
            .map(|value| *value as u32)
            .collect();
        let initial: Vec<u32> = (0..bin_count as u32).map(|bin| bin * 1000).collect();
        for builtin in [
            BuiltinOperator::Add,
            BuiltinOperator::Maximum,
            BuiltinOperator::Xor,
            BuiltinOperator::Multiply,
        ] {
            let operator = Operator::builtin(builtin, PrimType::U32).expect("applies");
            let mut expected = initial.clone();
            for (index, value) in indices.iter().zip(&values) {
                if let Some(bin) = in_bounds(*index, bin_count) {
                    expected[bin] = match builtin {
                        BuiltinOperator::Add => expected[bin].wrapping_add(*value),
                        BuiltinOperator::Maximum => expected[bin].max(*value),
                        BuiltinOperator::Xor => expected[bin] ^ value,
                        _ => expected[bin].wrapping_mul(*value),
                    };
                }
            }
            for strategy in [
                HistogramStrategy::NativeAtomic,
                HistogramStrategy::CompareAndSwap,
                HistogramStrategy::PrivatisedPerWorkgroup,
            ] {
                if !strategy.applies_to(&operator) {
                    continue;
                }
                check_in_place(
                    &format!("{builtin:?} histogram of {size} into {bin_count} ({strategy:?})"),
                    &[HostColumn::U32(initial.clone())],
                    &[
                        &[HostColumn::I32(indices.clone())],
                        &[HostColumn::U32(values.clone())],
                    ],
                    |runtime, destination, arguments| {
                        reduce_by_index(
                            runtime,
                            destination,
                            &operator,
                            &arguments[0],
                            &arguments[1],
                            strategy,
                        )
                    },
                    &[HostColumn::U32(expected.clone())],
                );
            }
        }
    }
    assert_eq!(
        HistogramStrategy::best_for(
            &Operator::builtin(BuiltinOperator::Add, PrimType::I32).expect("applies")
        ),
        HistogramStrategy::NativeAtomic
    );
    assert_eq!(
        HistogramStrategy::best_for(
            &Operator::builtin(BuiltinOperator::Add, PrimType::F32).expect("applies")
        ),
        HistogramStrategy::CompareAndSwap
    );
    assert_eq!(
        HistogramStrategy::best_for(
            &Operator::builtin(BuiltinOperator::Add, PrimType::U8).expect("applies")
        ),
        HistogramStrategy::PrivatisedPerWorkgroup
    );
}

#[test]
fn float_addition_histograms_use_compare_and_swap_and_agree_exactly() {
    // Small integers in f32: every order of additions gives the same sum.
    for (size, bin_count) in [(1usize, 3usize), (4097, 10), (300_001, 64)] {
        let indices = histogram_indices(size as u64 + 3, size, bin_count);
        let values: Vec<f32> = pseudo_random(size as u64, size)
            .iter()
            .map(|value| (*value % 17) as f32 - 8.0)
            .collect();
        let mut expected = vec![0.5f32; bin_count];
        for (index, value) in indices.iter().zip(&values) {
            if let Some(bin) = in_bounds(*index, bin_count) {
                expected[bin] += value;
            }
        }
        let operator = Operator::builtin(BuiltinOperator::Add, PrimType::F32).expect("applies");
        for strategy in [
            HistogramStrategy::CompareAndSwap,
            HistogramStrategy::PrivatisedPerWorkgroup,
        ] {
            check_in_place(
                &format!("f32 histogram of {size} ({strategy:?})"),
                &[HostColumn::F32(vec![0.5; bin_count])],
                &[
                    &[HostColumn::I32(indices.clone())],
                    &[HostColumn::F32(values.clone())],
                ],
                |runtime, destination, arguments| {
                    reduce_by_index(
                        runtime,
                        destination,
                        &operator,
                        &arguments[0],
                        &arguments[1],
                        strategy,
                    )
                },
                &[HostColumn::F32(expected.clone())],
            );
        }
    }
}

#[test]
fn tuple_and_narrow_histograms_use_the_privatised_fallback() {
    // (count: u8, min: i64) per bin, i64 indices; and a non-commutative
    // operator (affine composition on u16 pairs) gets the sequential
    // left-to-right result.
    let count_and_minimum = Operator::new(
        vec![PrimType::U8, PrimType::I64],
        vec!["uint8_t(0)".into(), "int64_t(0x7FFFFFFFFFFFFFFFl)".into()],
        "r0 = uint8_t(a0 + b0); r1 = a1 < b1 ? a1 : b1;",
    );
    let affine = Operator::new(
        vec![PrimType::U16, PrimType::U16],
        vec!["uint16_t(1)".into(), "uint16_t(0)".into()],
        "r0 = uint16_t(a0 * b0); r1 = uint16_t(b0 * a1 + b1);",
    );
    assert_eq!(
        HistogramStrategy::best_for(&count_and_minimum),
        HistogramStrategy::PrivatisedPerWorkgroup
    );
    assert!(!HistogramStrategy::CompareAndSwap.applies_to(&affine));
    for (size, bin_count) in [
        (0usize, 4usize),
        (1, 1),
        (999, 5),
        (70_001, 257),
        (400_000, 3000),
    ] {
        let indices32 = histogram_indices(size as u64 + 11, size, bin_count);
        let indices: Vec<i64> = indices32.iter().map(|index| i64::from(*index)).collect();
        let random = pseudo_random(size as u64 + 12, size);
        let ones = vec![1u8; size];
        let keys: Vec<i64> = random.iter().map(|value| *value as i64).collect();
        let multipliers: Vec<u16> = random.iter().map(|value| (*value as u16) | 1).collect();
        let offsets: Vec<u16> = random.iter().map(|value| (*value >> 16) as u16).collect();
        let mut counts = vec![0u8; bin_count];
        let mut minima = vec![i64::MAX; bin_count];
        let mut affine_multipliers = vec![1u16; bin_count];
        let mut affine_offsets = vec![0u16; bin_count];
        for position in 0..size {
            if let Some(bin) = in_bounds(indices32[position], bin_count) {
                counts[bin] = counts[bin].wrapping_add(1);
                minima[bin] = minima[bin].min(keys[position]);
                affine_offsets[bin] = multipliers[position]
                    .wrapping_mul(affine_offsets[bin])
                    .wrapping_add(offsets[position]);
                affine_multipliers[bin] =
                    affine_multipliers[bin].wrapping_mul(multipliers[position]);
            }
        }
        check_in_place(
            &format!("(count, min) histogram of {size} into {bin_count}"),
            &[
                HostColumn::U8(vec![0; bin_count]),
                HostColumn::I64(vec![i64::MAX; bin_count]),
            ],
            &[
                &[HostColumn::I64(indices.clone())],
                &[HostColumn::U8(ones), HostColumn::I64(keys)],
            ],
            |runtime, destination, arguments| {
                reduce_by_index(
                    runtime,
                    destination,
                    &count_and_minimum,
                    &arguments[0],
                    &arguments[1],
                    HistogramStrategy::PrivatisedPerWorkgroup,
                )
            },
            &[HostColumn::U8(counts), HostColumn::I64(minima)],
        );
        check_in_place(
            &format!("affine histogram of {size} into {bin_count}"),
            &[
                HostColumn::U16(vec![1; bin_count]),
                HostColumn::U16(vec![0; bin_count]),
            ],
            &[
                &[HostColumn::I64(indices)],
                &[HostColumn::U16(multipliers), HostColumn::U16(offsets)],
            ],
            |runtime, destination, arguments| {
                reduce_by_index(
                    runtime,
                    destination,
                    &affine,
                    &arguments[0],
                    &arguments[1],
                    HistogramStrategy::PrivatisedPerWorkgroup,
                )
            },
            &[
                HostColumn::U16(affine_multipliers),
                HostColumn::U16(affine_offsets),
            ],
        );
    }
}

#[test]
fn inapplicable_strategies_and_bad_indices_are_errors() {
    let runtime = runtime();
    let operator = Operator::builtin(BuiltinOperator::Multiply, PrimType::U32).expect("applies");
    let destination = upload(runtime, &[HostColumn::U32(vec![1; 4])]);
    let indices = upload(runtime, &[HostColumn::I32(vec![0, 1])]);
    let values = upload(runtime, &[HostColumn::U32(vec![2, 3])]);
    let error = reduce_by_index(
        runtime,
        &destination,
        &operator,
        &indices,
        &values,
        HistogramStrategy::NativeAtomic,
    )
    .expect_err("no atomic multiply");
    assert!(error.to_string().contains("CompareAndSwap"), "{error}");
    let float_indices = upload(runtime, &[HostColumn::F32(vec![0.0, 1.0])]);
    let error = scatter(runtime, &destination, &float_indices, &values).expect_err("float indices");
    assert!(error.to_string().contains("i32 or i64"), "{error}");
    assert_clean(runtime);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn filter_agrees_with_the_cpu(values in proptest::collection::vec(any::<i8>(), 0..4000), threshold in any::<i8>()) {
        let predicate = MapLambda::new(
            vec![PrimType::I8],
            vec![PrimType::Bool],
            format!("y0 = x0 > int8_t({threshold});"),
        );
        let runtime = runtime();
        let inputs = upload(runtime, &[HostColumn::I8(values.clone())]);
        let kept = filter(runtime, &predicate, None, &inputs).expect("filter");
        prop_assert_eq!(
            download(runtime, &kept),
            vec![HostColumn::I8(values.into_iter().filter(|value| *value > threshold).collect())]
        );
        assert_clean(runtime);
    }

    #[test]
    fn privatised_histograms_agree_with_the_cpu(
        pairs in proptest::collection::vec((-3i32..40, any::<u8>()), 0..3000),
        bin_count in 1usize..40,
    ) {
        let operator = Operator::builtin(BuiltinOperator::Add, PrimType::U8).expect("applies");
        let (indices, values): (Vec<i32>, Vec<u8>) = pairs.into_iter().unzip();
        let mut expected = vec![0u8; bin_count];
        for (index, value) in indices.iter().zip(&values) {
            if let Some(bin) = in_bounds(*index, bin_count) {
                expected[bin] = expected[bin].wrapping_add(*value);
            }
        }
        let runtime = runtime();
        let destination = upload(runtime, &[HostColumn::U8(vec![0; bin_count])]);
        let index_arrays = upload(runtime, &[HostColumn::I32(indices)]);
        let value_arrays = upload(runtime, &[HostColumn::U8(values)]);
        reduce_by_index(runtime, &destination, &operator, &index_arrays, &value_arrays, HistogramStrategy::PrivatisedPerWorkgroup)
            .expect("histogram");
        prop_assert_eq!(download(runtime, &destination), vec![HostColumn::U8(expected)]);
        assert_clean(runtime);
    }
}
