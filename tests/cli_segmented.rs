//! The segmented IR from the command line: `runestone compile --dump seg`
//! prints the flattened program, `--timings` with `--segmented` counts its
//! segmented operations, and `run`/`test --segmented` run programs through
//! it with the SOAC IR's results and errors.

mod common;

use common::{runestone, runestone_code_and_text, runestone_with_stdin, text};

const MAP_OF_REDUCE: &str = "tests/programs/flattening/map_reduce.fut";
const NEST_ERRORS: &str = "tests/programs/flattening/nest_errors_first_in_order.fut";

#[test]
fn dump_seg_prints_the_segmented_operations() {
    let (code, stdout, stderr) =
        runestone_code_and_text(&["compile", MAP_OF_REDUCE, "--dump", "seg"]);
    assert_eq!(code, 0, "{stderr}");
    // One segmented reduction over the rows and their elements.
    assert_eq!(stdout.matches("segred((").count(), 1, "{stdout}");
    let space = stdout
        .lines()
        .find(|line| line.contains("segred(("))
        .expect("the segred line");
    assert_eq!(space.matches(" < ").count(), 2, "{space}");
    assert!(!stdout.contains("reduce("), "{stdout}");
}

#[test]
fn timings_count_the_segmented_operations() {
    let (code, _, stderr) =
        runestone_code_and_text(&["compile", NEST_ERRORS, "--segmented", "--timings"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "segmented IR: 1 segmap, 0 segred, 0 segscan (index spaces of up to 2 dimensions); 0 SOAC statements left in host code"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("flatten:"), "{stderr}");
}

#[test]
fn run_segmented_gives_the_soac_irs_results_and_errors() {
    let input = b"[[1, 2], [3, 4]] [[1, 1], [0, 7]]";
    for extra in [&[][..], &["--segmented"][..]] {
        let mut args = vec!["run", NEST_ERRORS];
        args.extend_from_slice(extra);
        let output = runestone_with_stdin(&args, input);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("nest_errors_first_in_order.fut:9:50: division by zero"),
            "{args:?}: {stderr}"
        );
    }
    let output = runestone_with_stdin(&["run", MAP_OF_REDUCE, "--segmented"], b"[[1, 2], [3, 4]]");
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).trim(), "[3i32, 7i32]");
}

#[test]
fn test_segmented_runs_the_flattening_programs() {
    let output = runestone(&[
        "test",
        "--backend",
        "cpu",
        "--segmented",
        "tests/programs/flattening",
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
