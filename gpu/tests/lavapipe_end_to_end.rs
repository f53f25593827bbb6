//! End-to-end tests of the GPU toolchain on whatever device Vulkan offers
//! (lavapipe in CI): the demonstration kernels against a CPU computation, the
//! runtime's limits and caches, and `spirv-val` on every generated module.
//! Every runtime here runs with the Khronos validation layer, and every test
//! asserts that it recorded no message.

use gpu::kernels::map::map_times_two_plus_one;
use gpu::kernels::reduce::reduce_sum;
use gpu::kernels::{all_demo_kernel_sources, compiled_spirv, DemoElementType};
use gpu::runtime::instance::ValidationMode;
use gpu::runtime::{DeviceRequest, TransferMode};
use gpu::{GpuError, Runtime, RuntimeOptions};
use std::sync::OnceLock;

/// The sizes every kernel is checked at: empty, one, odd, a power of two, and
/// more than 65 535 workgroups of 64 (lavapipe's per-dimension limit).
const CHECKED_SIZES: [usize; 5] = [0, 1, 7, 65_536, 65_535 * 64 + 3];

fn validated_options(transfer_mode: TransferMode) -> RuntimeOptions {
    RuntimeOptions {
        validation: ValidationMode::Required,
        transfer_mode,
        ..RuntimeOptions::default()
    }
}

fn shared_runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    match RUNTIME.get_or_init(|| {
        Runtime::new(validated_options(TransferMode::Automatic)).map_err(|error| error.to_string())
    }) {
        Ok(runtime) => runtime,
        Err(message) => panic!("cannot create a validated GPU runtime: {message}"),
    }
}

fn staging_runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    match RUNTIME.get_or_init(|| {
        Runtime::new(validated_options(TransferMode::AlwaysStaging))
            .map_err(|error| error.to_string())
    }) {
        Ok(runtime) => runtime,
        Err(message) => panic!("cannot create a validated GPU runtime: {message}"),
    }
}

fn assert_no_validation_messages(runtime: &Runtime) {
    assert!(
        runtime.validation_enabled(),
        "validation must be on in tests"
    );
    let messages = runtime.validation_messages();
    assert!(
        messages.is_empty(),
        "validation messages:\n{}",
        messages.join("\n")
    );
}

fn u32_inputs(length: usize) -> Vec<u32> {
    (0..length as u32)
        .map(|index| index.wrapping_mul(2_654_435_761))
        .collect()
}

fn f32_inputs(length: usize) -> Vec<f32> {
    (0..length).map(|index| (index % 7) as f32 - 2.5).collect()
}

fn check_map_u32(runtime: &Runtime) {
    for size in CHECKED_SIZES {
        let inputs = u32_inputs(size);
        let input = runtime.upload_scalars(&inputs).expect("upload");
        let output = map_times_two_plus_one(runtime, &input, DemoElementType::U32, size as u64)
            .expect("map runs");
        let results: Vec<u32> = runtime.download_scalars(&output).expect("download");
        let expected: Vec<u32> = inputs
            .iter()
            .map(|value| value.wrapping_mul(2).wrapping_add(1))
            .collect();
        assert!(results == expected, "map u32 differs at size {size}");
    }
}

fn check_map_f32(runtime: &Runtime) {
    for size in CHECKED_SIZES {
        let inputs = f32_inputs(size);
        let input = runtime.upload_scalars(&inputs).expect("upload");
        let output = map_times_two_plus_one(runtime, &input, DemoElementType::F32, size as u64)
            .expect("map runs");
        let results: Vec<f32> = runtime.download_scalars(&output).expect("download");
        let expected: Vec<f32> = inputs.iter().map(|value| value * 2.0 + 1.0).collect();
        let same_bits = results.len() == expected.len()
            && results
                .iter()
                .zip(&expected)
                .all(|(result, wanted)| result.to_bits() == wanted.to_bits());
        assert!(same_bits, "map f32 differs at size {size}");
    }
}

fn check_reduce(runtime: &Runtime) {
    for size in CHECKED_SIZES {
        let inputs = u32_inputs(size);
        let input = runtime.upload_scalars(&inputs).expect("upload");
        let total = reduce_sum(runtime, &input, DemoElementType::U32, size as u64).expect("reduce");
        let result: Vec<u32> = runtime.download_scalars(&total).expect("download");
        let expected = inputs
            .iter()
            .fold(0u32, |sum, value| sum.wrapping_add(*value));
        assert_eq!(result, vec![expected], "reduce u32 at size {size}");

        // Small integers: every partial sum is exact in f32, so the order of
        // additions does not matter and the comparison can be exact.
        let inputs: Vec<f32> = (0..size).map(|index| (index % 3) as f32).collect();
        let input = runtime.upload_scalars(&inputs).expect("upload");
        let total = reduce_sum(runtime, &input, DemoElementType::F32, size as u64).expect("reduce");
        let result: Vec<f32> = runtime.download_scalars(&total).expect("download");
        let expected: f32 = inputs.iter().sum();
        assert_eq!(result, vec![expected], "reduce f32 at size {size}");
    }
}

#[test]
fn map_u32_equals_the_cpu_at_every_checked_size() {
    let runtime = shared_runtime();
    check_map_u32(runtime);
    assert_no_validation_messages(runtime);
}

#[test]
fn map_f32_equals_the_cpu_bitwise_at_every_checked_size() {
    let runtime = shared_runtime();
    check_map_f32(runtime);
    assert_no_validation_messages(runtime);
}

#[test]
fn reduce_sum_equals_the_cpu_at_every_checked_size() {
    let runtime = shared_runtime();
    check_reduce(runtime);
    assert_no_validation_messages(runtime);
}

#[test]
fn kernels_give_the_same_results_through_staging_buffers() {
    let runtime = staging_runtime();
    assert!(runtime.uses_staging());
    check_map_u32(runtime);
    check_reduce(runtime);
    let bytes: Vec<u8> = (0..1001u32).map(|value| value as u8).collect();
    let buffer = runtime.upload_bytes(&bytes).expect("upload");
    assert_eq!(runtime.download_bytes(&buffer).expect("download"), bytes);
    assert_no_validation_messages(runtime);
}

#[test]
fn pipelines_and_buffers_are_reused_across_runs() {
    let runtime = shared_runtime();
    let source = &all_demo_kernel_sources()[0];
    let words = compiled_spirv(source).expect("compiles");
    let first = runtime
        .load_kernel(&source.name, &words, source.binding_interface())
        .expect("loads");
    let (hits_before, _) = runtime.pipeline_cache_statistics();
    let second = runtime
        .load_kernel(&source.name, &words, source.binding_interface())
        .expect("loads");
    let (hits_after, _) = runtime.pipeline_cache_statistics();
    assert!(std::sync::Arc::ptr_eq(&first, &second));
    assert!(hits_after > hits_before);

    // An odd size no other test allocates, so this test owns the size class.
    let byte_length = 3 * 1024 * 1024 + 12;
    drop(runtime.allocate_buffer(byte_length).expect("allocates"));
    let (reused_before, _) = runtime.buffer_pool_statistics();
    let again = runtime.allocate_buffer(byte_length).expect("allocates");
    let (reused_after, _) = runtime.buffer_pool_statistics();
    assert!(
        reused_after > reused_before,
        "the dropped buffer was not reused"
    );
    drop(again);
    assert_no_validation_messages(runtime);
}

#[test]
fn buffers_beyond_max_storage_buffer_range_are_refused_clearly() {
    let runtime = shared_runtime();
    let limit = u64::from(runtime.device_info().max_storage_buffer_range);
    let error = runtime
        .allocate_buffer(limit + 1)
        .expect_err("a buffer past maxStorageBufferRange");
    assert!(
        matches!(
            error,
            GpuError::BufferTooLarge {
                limit_name: "maxStorageBufferRange",
                ..
            }
        ),
        "{error}"
    );
    assert!(
        error.to_string().contains("maxStorageBufferRange"),
        "{error}"
    );
    assert_no_validation_messages(runtime);
}

#[test]
fn bad_dispatches_are_errors_not_panics() {
    let runtime = shared_runtime();
    let source = gpu::kernels::map::map_times_two_plus_one_source(DemoElementType::U32);
    let kernel = runtime
        .load_kernel(
            &source.name,
            &compiled_spirv(&source).expect("compiles"),
            source.binding_interface(),
        )
        .expect("loads");
    let buffer = runtime.upload_scalars(&[1u32, 2, 3]).expect("upload");
    let too_many = runtime.device_info().max_workgroup_count[0].saturating_add(1);
    if too_many > runtime.device_info().max_workgroup_count[0] {
        let error = runtime
            .dispatch(&kernel, &[&buffer, &buffer], None, &[3], [too_many, 1, 1])
            .expect_err("too many workgroups");
        assert!(
            matches!(error, GpuError::TooManyWorkgroups { .. }),
            "{error}"
        );
    }
    let error = runtime
        .dispatch(&kernel, &[&buffer], None, &[3], [1, 1, 1])
        .expect_err("a missing buffer");
    assert!(
        error.to_string().contains("binds 2 storage buffers"),
        "{error}"
    );
    // A launch must give at least the push constants the module reads (the
    // element count here), and no more than the layout's range.
    let error = runtime
        .dispatch(&kernel, &[&buffer, &buffer], None, &[], [1, 1, 1])
        .expect_err("missing push constants");
    assert!(
        error
            .to_string()
            .contains("reads 4 bytes of push constants but 0 were given"),
        "{error}"
    );
    let error = runtime
        .dispatch(&kernel, &[&buffer, &buffer], None, &[0; 33], [1, 1, 1])
        .expect_err("more push constants than the range");
    assert!(error.to_string().contains("push constants"), "{error}");
    let error = runtime
        .write_bytes(&buffer, &[0u8; 5])
        .expect_err("wrong length");
    assert!(matches!(error, GpuError::LengthMismatch { .. }), "{error}");
    assert_no_validation_messages(runtime);
}

#[test]
fn an_unknown_requested_device_is_a_clear_error() {
    let options = RuntimeOptions {
        device_request: DeviceRequest::Named("no such device anywhere".to_owned()),
        ..validated_options(TransferMode::Automatic)
    };
    match Runtime::new(options) {
        Err(GpuError::RequestedDeviceNotFound { available, .. }) => {
            assert!(!available.is_empty())
        }
        Err(other) => panic!("expected RequestedDeviceNotFound, got {other}"),
        Ok(_) => panic!("a device matched a name no device has"),
    }
}

#[test]
fn the_device_reports_what_kernels_need() {
    let runtime = shared_runtime();
    let info = runtime.device_info();
    let subgroup_size = info
        .subgroup_size
        .expect("Vulkan 1.1 reports a subgroup size");
    assert!(subgroup_size.is_power_of_two(), "{subgroup_size}");
    assert!(info.max_workgroup_count[0] >= 65_535);
    assert!(info.max_storage_buffer_range >= 1 << 27);
    assert!(info.max_shared_memory_bytes >= 16 << 10);
    assert!(runtime.enabled_features().subgroup_arithmetic);
    assert_no_validation_messages(runtime);
}

#[test]
fn every_generated_spirv_module_passes_spirv_val() {
    let directory =
        std::env::temp_dir().join(format!("runestone-spirv-val-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("temporary directory");
    for source in all_demo_kernel_sources() {
        let words = compiled_spirv(&source).expect("compiles");
        let bytes: Vec<u8> = words.iter().flat_map(|word| word.to_le_bytes()).collect();
        let path = directory.join(format!("{}.spv", source.name));
        std::fs::write(&path, bytes).expect("write module");
        let output = match std::process::Command::new("spirv-val")
            .arg("--target-env")
            .arg(gpu::compile::TARGET_VULKAN_VERSION_NAME)
            .arg(&path)
            .output()
        {
            Ok(output) => output,
            Err(error) => panic!(
                "cannot run spirv-val ({error}); install it with `apt-get install spirv-tools`"
            ),
        };
        assert!(
            output.status.success(),
            "spirv-val rejects {}:\n{}{}",
            source.name,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&directory);
}
