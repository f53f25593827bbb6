//! The runtime behaviour the generated kernels rely on, on lavapipe under
//! the validation layer: pipelines and buffers reused across runs, arrays
//! larger than `maxStorageBufferRange` refused with a clear error (not
//! split), profiling with timestamp queries, several launches in one
//! submission, and a pipeline cache that stays bounded however many
//! distinct kernels a long-lived runtime loads.

mod common;

use common::{assert_clean, download, runtime, upload};
use gpu::kernels::element::{HostColumn, PrimType};
use gpu::kernels::lambda::{BuiltinOperator, MapLambda, Operator};
use gpu::kernels::soac::map::map;
use gpu::kernels::soac::reduce::reduce;
use gpu::kernels::soac::scan::scan;
use gpu::kernels::soac::DeviceArrays;
use gpu::runtime::instance::ValidationMode;
use gpu::{GpuError, Runtime, RuntimeOptions};

/// A validated runtime of the test's own: the statistics and profiles these
/// tests read are runtime-wide, and the shared runtime is used by the other
/// tests concurrently.
fn own_runtime() -> Runtime {
    Runtime::new(RuntimeOptions {
        validation: ValidationMode::Required,
        ..RuntimeOptions::default()
    })
    .unwrap_or_else(|error| panic!("cannot create a validated GPU runtime: {error}"))
}

fn add_u32() -> Operator {
    Operator::builtin(BuiltinOperator::Add, PrimType::U32).expect("applies")
}

#[test]
fn pipelines_and_buffers_are_reused_across_runs() {
    let runtime = &own_runtime();
    let values: Vec<u32> = (0..100_000).collect();
    let inputs = upload(runtime, &[HostColumn::U32(values.clone())]);
    let first = scan(runtime, &add_u32(), None, &inputs).expect("scan");
    drop(first);
    let (hits_before, misses_before) = runtime.pipeline_cache_statistics();
    let (reused_before, created_before) = runtime.buffer_pool_statistics();
    let second = scan(runtime, &add_u32(), None, &inputs).expect("scan");
    let (hits_after, misses_after) = runtime.pipeline_cache_statistics();
    let (reused_after, created_after) = runtime.buffer_pool_statistics();
    assert_eq!(
        misses_after, misses_before,
        "the second scan created a pipeline"
    );
    assert!(
        hits_after >= hits_before + 2,
        "the second scan did not use the cache"
    );
    assert_eq!(
        created_after, created_before,
        "the second scan created a buffer"
    );
    assert!(
        reused_after > reused_before,
        "the second scan reused no buffer"
    );
    let mut running = 0u32;
    let expected: Vec<u32> = values
        .iter()
        .map(|value| {
            running = running.wrapping_add(*value);
            running
        })
        .collect();
    assert_eq!(download(runtime, &second), vec![HostColumn::U32(expected)]);
    assert_clean(runtime);
}

/// A GPU fuzz campaign loads new kernels for most of its programs into one
/// runtime per worker: its host memory grew with each (about 0.5 MB per
/// program on lavapipe: every pipeline kept by the cache, and a layout per
/// kernel each holding a descriptor pool in vulkano's allocator) until the
/// OOM killer ended a 100 000-program campaign (`fuzz/README.md`). The
/// cache keeps the most recently used modules' kernels and every kernel
/// with the same buffers shares one layout.
#[test]
fn many_distinct_kernels_keep_the_pipeline_cache_at_capacity_with_one_layout() {
    use gpu::runtime::pipelines::PIPELINE_CACHE_CAPACITY;
    let runtime = &own_runtime();
    let values: Vec<u32> = (0..64).collect();
    let inputs = upload(runtime, &[HostColumn::U32(values.clone())]);
    let plus = |constant: u32| {
        let lambda = MapLambda::new(
            vec![PrimType::U32],
            vec![PrimType::U32],
            format!("y0 = x0 + {constant}u;"),
        );
        let result = map(runtime, &lambda, None, &inputs).expect("map");
        let expected: Vec<u32> = values.iter().map(|value| value + constant).collect();
        assert_eq!(download(runtime, &result), vec![HostColumn::U32(expected)]);
    };
    let extra = 8;
    let before = runtime.pipeline_cache_details();
    for constant in 0..(PIPELINE_CACHE_CAPACITY + extra) as u32 {
        plus(constant);
    }
    let after = runtime.pipeline_cache_details();
    assert_eq!(
        after.misses - before.misses,
        (PIPELINE_CACHE_CAPACITY + extra) as u64,
        "each distinct lambda is one more module"
    );
    assert_eq!(after.modules_held, PIPELINE_CACHE_CAPACITY);
    assert_eq!(after.evictions - before.evictions, extra as u64);
    assert_eq!(
        after.layouts, 1,
        "every map of one u32 array shares a layout"
    );
    // The most recent kernel is still cached; the first was forgotten and
    // is created again, and still right.
    plus(PIPELINE_CACHE_CAPACITY as u32 + extra as u32 - 1);
    assert_eq!(runtime.pipeline_cache_details().misses, after.misses);
    plus(0);
    let last = runtime.pipeline_cache_details();
    assert_eq!(last.misses, after.misses + 1);
    assert_eq!(last.modules_held, PIPELINE_CACHE_CAPACITY);
    assert_clean(runtime);
}

#[test]
fn arrays_beyond_the_storage_buffer_range_are_refused_not_split() {
    let runtime = runtime();
    let range = u64::from(runtime.device_info().max_storage_buffer_range);
    // A quarter of the range plus one bytes fit; widened to i32 they cannot.
    let length = range / 4 + 1;
    if length > 1 << 27 {
        // Devices with a 4 GiB range (NVIDIA): the point is made on lavapipe.
        return;
    }
    let inputs = upload(runtime, &[HostColumn::U8(vec![1; length as usize])]);
    let widen = MapLambda::new(vec![PrimType::U8], vec![PrimType::I32], "y0 = int(x0);");
    match map(runtime, &widen, None, &inputs) {
        Err(GpuError::BufferTooLarge {
            requested_bytes,
            limit_bytes,
            limit_name,
        }) => {
            assert_eq!(requested_bytes, length * 4);
            assert_eq!(limit_bytes, range);
            assert_eq!(limit_name, "maxStorageBufferRange");
        }
        other => panic!("expected BufferTooLarge, got {other:?}"),
    }
    let error =
        DeviceArrays::allocate(runtime, &[PrimType::U16], range / 2 + 1).expect_err("too large");
    assert!(
        error.to_string().contains("maxStorageBufferRange"),
        "{error}"
    );
    assert_clean(runtime);
}

#[test]
fn profiling_times_each_submission_with_timestamps() {
    let runtime = &own_runtime();
    let inputs = upload(runtime, &[HostColumn::U32((0..50_000).collect())]);
    runtime.start_profiling();
    let total = reduce(runtime, &add_u32(), None, &inputs).expect("reduce");
    let scanned = scan(runtime, &add_u32(), None, &inputs).expect("scan");
    let timings = runtime.stop_profiling();
    assert_eq!(
        timings.len(),
        2,
        "one submission per operation: {timings:?}"
    );
    assert!(timings.iter().all(|timing| timing.host_time.as_nanos() > 0));
    if runtime.has_timestamps() {
        assert!(
            timings
                .iter()
                .all(|timing| timing.device_time.is_some_and(|time| time.as_nanos() > 0)),
            "{timings:?}"
        );
    }
    assert!(runtime.stop_profiling().is_empty(), "profiling stops");
    let sum = (0..50_000u32).fold(0u32, u32::wrapping_add);
    assert_eq!(download(runtime, &total), vec![HostColumn::U32(vec![sum])]);
    assert_eq!(scanned.length, 50_000);
    assert_clean(runtime);
}
