//! What every kernel-library test shares: one validated runtime (the Khronos
//! layer on, no message allowed), `spirv-val` over every module compiled so
//! far, and host columns.

#![allow(dead_code)]

use gpu::kernels::all_compiled_modules;
use gpu::kernels::element::HostColumn;
use gpu::kernels::soac::DeviceArrays;
use gpu::runtime::instance::ValidationMode;
use gpu::{Runtime, RuntimeOptions};
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// The validated runtime of this test binary.
pub fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    match RUNTIME.get_or_init(|| {
        Runtime::new(RuntimeOptions {
            validation: ValidationMode::Required,
            ..RuntimeOptions::default()
        })
        .map_err(|error| error.to_string())
    }) {
        Ok(runtime) => runtime,
        Err(message) => panic!("cannot create a validated GPU runtime: {message}"),
    }
}

/// Fail on any validation message so far, and run `spirv-val` on every
/// module compiled so far that no earlier call validated (all of them: the
/// process's module cache must not have forgotten one).
pub fn assert_clean(runtime: &Runtime) {
    assert!(runtime.validation_enabled(), "validation must be on");
    assert_eq!(
        gpu::kernels::compiled_modules_evicted(),
        0,
        "the module cache forgot modules before spirv-val saw them"
    );
    let messages = runtime.validation_messages();
    assert!(
        messages.is_empty(),
        "validation messages:\n{}",
        messages.join("\n")
    );
    static VALIDATED: OnceLock<Mutex<HashSet<Vec<u32>>>> = OnceLock::new();
    let validated = VALIDATED.get_or_init(|| Mutex::new(HashSet::new()));
    for (name, words) in all_compiled_modules() {
        if validated
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .contains(words.as_ref())
        {
            continue;
        }
        run_spirv_val(&name, &words);
        validated
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(words.as_ref().clone());
    }
}

fn run_spirv_val(name: &str, words: &[u32]) {
    // One directory per process and thread, removed after the check (so no
    // other thread can be writing into it).
    let directory = std::env::temp_dir().join(
        format!(
            "runestone-soac-spirv-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        )
        .replace(['(', ')'], ""),
    );
    std::fs::create_dir_all(&directory).expect("temporary directory");
    let path = directory.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|word| word.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write module");
    let output = std::process::Command::new("spirv-val")
        .arg("--target-env")
        .arg(gpu::compile::TARGET_VULKAN_VERSION_NAME)
        .arg(&path)
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run spirv-val ({error}); install it with `apt-get install spirv-tools`")
        });
    let _ = std::fs::remove_dir_all(&directory);
    assert!(
        output.status.success(),
        "spirv-val rejects {name}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Upload columns.
pub fn upload(runtime: &Runtime, columns: &[HostColumn]) -> DeviceArrays {
    DeviceArrays::upload(runtime, columns).unwrap_or_else(|error| panic!("upload: {error}"))
}

/// Download columns.
pub fn download(runtime: &Runtime, arrays: &DeviceArrays) -> Vec<HostColumn> {
    arrays
        .download(runtime)
        .unwrap_or_else(|error| panic!("download: {error}"))
}

/// A deterministic pseudo-random sequence (SplitMix64).
pub fn pseudo_random(seed: u64, length: usize) -> Vec<u64> {
    let mut state = seed;
    (0..length)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut mixed = state;
            mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            mixed ^ (mixed >> 31)
        })
        .collect()
}
