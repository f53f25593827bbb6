//! `runestone nested` and `runestone fuzz` from the outside: exit codes,
//! located diagnostics, printed stages and observations.

mod common;

use common::{runestone_code_and_text as runestone, ScratchDirectory};

#[test]
fn the_lifting_example_prints_every_stage_and_its_observation() {
    let (code, stdout, stderr) = runestone(&[
        "nested",
        "tests/nested/lifting.lp",
        "--stage",
        "p",
        "--stage",
        "c",
        "--stage",
        "a",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("λP : [Int]"), "{stdout}");
    assert!(stdout.contains("λC : [Int]"), "{stdout}");
    assert!(stdout.contains("<<"), "closures in the λC stage: {stdout}");
    assert!(
        stdout.contains("attachP"),
        "lifting in the λA stage: {stdout}"
    );
    assert!(stdout.contains("λC         [17, 25]"), "{stdout}");
    assert!(stdout.contains("λA         [17, 25]"), "{stdout}");
    assert!(
        stdout.contains("expectation: both sides observe [17, 25]"),
        "{stdout}"
    );
}

#[test]
fn an_ill_typed_program_gets_a_located_diagnostic_and_exit_1() {
    let directory = ScratchDirectory::new("cli-nested");
    let path = directory.join("bad.lp");
    std::fs::write(&path, "let x = 1 in\n  x + true\n").expect("write");
    let (code, stdout, stderr) = runestone(&["nested", path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stderr.contains("bad.lp:2:3"), "{stderr}");
    assert!(stderr.contains("x + true"), "{stderr}");
    assert!(stderr.contains("^^^^^^^^"), "underlined: {stderr}");
    assert!(stderr.contains("L05 Fig5.2 APP"), "{stderr}");
    std::fs::write(&path, "let x = in 3").expect("write");
    let (code, _, stderr) = runestone(&["nested", path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1);
    assert!(stderr.contains("bad.lp:1:9"), "{stderr}");
    assert!(stderr.contains("syntax"), "{stderr}");
}

#[test]
fn checks_can_be_selected_and_lambda_c_files_run() {
    let (code, stdout, stderr) = runestone(&[
        "nested",
        "tests/nested/lambda_c_terms.lc",
        "--check",
        "6.37",
        "--stage",
        "p",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("the input is a λC program"), "{stdout}");
    assert!(stdout.contains("Thm 6.37"), "{stdout}");
    assert!(!stdout.contains("Thm 5.27"), "{stdout}");
    assert!(
        stdout.contains("both sides observe (42, ([6, 7], (42, 10)))"),
        "{stdout}"
    );
}

#[test]
fn a_wrong_expectation_fails_the_run() {
    let directory = ScratchDirectory::new("cli-expect");
    let path = directory.join("wrong.lp");
    std::fs::write(&path, "-- expect: 5\n2 + 2\n").expect("write");
    let (code, stdout, _) = runestone(&["nested", "--quick", path.to_str().expect("utf-8 path")]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("λC observes 4, the file expects 5"),
        "{stdout}"
    );
}

#[test]
fn fuzz_runs_the_nested_oracle_and_refuses_the_others() {
    let (code, stdout, stderr) =
        runestone(&["fuzz", "--oracle", "nested", "--seed", "3", "--count", "20"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("summary: 20 terms"), "{stdout}");
    assert!(stdout.contains("Thm 6.37"), "{stdout}");
    assert!(stdout.contains("rule coverage"), "{stdout}");
    assert!(stdout.contains("L05 Fig5.8 V-Lam"), "{stdout}");
    let (code, _, stderr) = runestone(&["fuzz", "--oracle", "typo", "--count", "1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not implemented yet"), "{stderr}");
    assert!(stderr.contains("value, gpu"), "{stderr}");
}

/// `--memory-limit`: an array past it ends that side's evaluation with an
/// unknown observation that names the limit, and the run ends normally (exit
/// 1: the file's expectation is not observed on that side), never with an
/// allocation failure.
#[test]
fn an_array_past_the_memory_limit_is_an_unknown_observation_not_an_abort() {
    let (code, stdout, stderr) = runestone(&[
        "nested",
        "--quick",
        "--memory-limit",
        "1G",
        "tests/nested_limits/replicate_past_the_memory_limit.lp",
    ]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("λC         1"), "{stdout}");
    assert!(
        stdout.contains("λA         unknown (allocating 80000000000 bytes"),
        "{stdout}"
    );
    assert!(
        stdout.contains("memory limit of 1073741824 bytes"),
        "{stdout}"
    );
    assert!(!stdout.contains("VIOLATED"), "{stdout}");
}
