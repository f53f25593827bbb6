//! The CPU backend with the native path off (`RUNESTONE_NATIVE=0`) on a
//! representative subset of the corpus (SOACs, loops, run-time errors and
//! the benchmark programs): both paths stay tested, since the rest of the
//! suite runs with native code on (the default).

use std::path::Path;
use std::process::Command;

fn runestone_test(paths: &[&str], native: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_runestone"))
        .arg("test")
        .args(paths)
        .args(["--backend", "cpu"])
        .env("RUNESTONE_NATIVE", native)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("runestone runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const SUBSET: [&str; 5] = [
    "tests/programs/soacs",
    "tests/programs/loops",
    "tests/programs/errors",
    "tests/programs/arith",
    "benches/programs",
];

#[test]
fn the_subset_passes_with_native_code_off() {
    let (ok, stdout) = runestone_test(&SUBSET, "0");
    assert!(ok, "{stdout}");
    assert!(stdout.trim_end().ends_with("passed, 0 failed"), "{stdout}");
}

#[test]
fn the_subset_passes_with_native_code_on() {
    let (ok, stdout) = runestone_test(&SUBSET, "1");
    assert!(ok, "{stdout}");
    assert!(stdout.trim_end().ends_with("passed, 0 failed"), "{stdout}");
}
