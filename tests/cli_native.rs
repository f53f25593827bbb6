//! The CPU backend with the native path off (`RUNESTONE_NATIVE=0`) on a
//! representative subset of the corpus (SOACs, loops, run-time errors and
//! the benchmark programs): both paths stay tested, since the rest of the
//! suite runs with native code on (the default).

mod common;

use common::{runestone_with_environment, text};

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

/// `runestone test PATHS --backend cpu` with `RUNESTONE_NATIVE=native`:
/// whether it passed, and its stdout.
fn runestone_test(paths: &[&str], native: &str) -> (bool, String) {
    let mut args = vec!["test"];
    args.extend_from_slice(paths);
    args.extend_from_slice(&["--backend", "cpu"]);
    let out = runestone_with_environment(&args, &[("RUNESTONE_NATIVE", native)]);
    (out.status.success(), text(&out.stdout))
}
