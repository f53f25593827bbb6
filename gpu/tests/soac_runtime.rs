//! The runtime behaviour the generated kernels rely on, on lavapipe under
//! the validation layer: pipelines and buffers reused across runs, arrays
//! larger than `maxStorageBufferRange` refused with a clear error (not
//! split), profiling with timestamp queries, and several launches in one
//! submission.

mod common;

use common::{assert_clean, download, runtime, upload};
use gpu::kernels::element::{ElementType, HostColumn};
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
    Operator::builtin(BuiltinOperator::Add, ElementType::U32).expect("applies")
}

#[test]
fn pipelines_and_buffers_are_reused_across_runs() {
    let runtime = &own_runtime();
    let values: Vec<u32> = (0..100_000).collect();
    let inputs = upload(runtime, &[HostColumn::U32(values.clone())]);
    let first = scan(runtime, &add_u32(), &inputs).expect("scan");
    drop(first);
    let (hits_before, misses_before) = runtime.pipeline_cache_statistics();
    let (reused_before, created_before) = runtime.buffer_pool_statistics();
    let second = scan(runtime, &add_u32(), &inputs).expect("scan");
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
    let widen = MapLambda::new(
        vec![ElementType::U8],
        vec![ElementType::I32],
        "y0 = int(x0);",
    );
    match map(runtime, &widen, &inputs) {
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
        DeviceArrays::allocate(runtime, &[ElementType::U16], range / 2 + 1).expect_err("too large");
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
    let total = reduce(runtime, &add_u32(), &inputs).expect("reduce");
    let scanned = scan(runtime, &add_u32(), &inputs).expect("scan");
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
