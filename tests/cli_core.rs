//! `runestone run`, `test` and `defunc` end to end on the reference.

mod common;

use common::{runestone_with_stdin, text};

#[test]
fn run_prints_the_result_values() {
    let out = runestone(
        &["run", "examples/paper/tfp18_fig1a.fut", "-e", "twice_plus"],
        "5 1",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "11i32\n");
}

#[test]
fn run_prints_a_tuple_as_several_values() {
    let out = runestone(&["run", "tests/programs/soacs/partition.fut"], "[5, 1, 8]");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "[5i32, 8i32]\n[1i32]\n");
}

#[test]
fn a_runtime_error_names_its_location_and_exits_1() {
    let out = runestone(&["run", "tests/programs/errors/error_location.fut"], "5i64");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("tests/programs/errors/error_location.fut:6:6"),
        "{stderr}"
    );
    assert!(stderr.contains("Index [5] out of bounds"), "{stderr}");
}

#[test]
fn a_type_error_is_a_located_diagnostic_and_exits_1() {
    // The default backend (cpu: the optimising compiler's checker) and the
    // reference both name TFP'18's rule and the location.
    for (backend, rule) in [("cpu", "TFP'18 rule T-If"), ("reference", "TFP18 T-If")] {
        let out = runestone(
            &[
                "run",
                "tests/programs/restrictions/if_function.fut",
                "--backend",
                backend,
            ],
            "true 1",
        );
        assert_eq!(out.status.code(), Some(1), "{backend}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(rule), "{backend}: {stderr}");
        assert!(stderr.contains("if_function.fut:5:"), "{backend}: {stderr}");
    }
}

#[test]
fn bad_input_values_are_reported() {
    let out = runestone(
        &["run", "examples/paper/tfp18_fig1a.fut", "-e", "twice_plus"],
        "5 true",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("bad input"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn test_counts_passes_and_failures() {
    let out = runestone(&["test", "tests/programs/hof"], "");
    assert!(out.status.success(), "{}", text(&out.stdout));
    let stdout = text(&out.stdout);
    assert!(stdout.trim_end().ends_with("passed, 0 failed"), "{stdout}");
}

#[test]
fn test_reports_a_failing_case_with_a_diff_and_exits_1() {
    let dir = std::env::temp_dir().join(format!("runestone-cli-core-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("wrong.fut");
    std::fs::write(
        &path,
        "-- ==\n-- input { 1 } output { 3 }\n-- input { 2 } output { 3 }\ndef main (x: i32) = x + 1\n",
    )
    .expect("write");
    let out = runestone(&["test", path.to_str().expect("utf-8")], "");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("expected 3i32, got 2i32"), "{stdout}");
    assert!(
        stdout.trim_end().ends_with("1 passed, 1 failed"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn defunc_prints_fig1b() {
    let out = runestone(&["defunc", "examples/paper/tfp18_fig1a.fut"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("in {g = {a = a}}"), "{stdout}");
    assert!(stdout.contains("lifted_y_3 g (lifted_y_3 g x)"), "{stdout}");
    assert!(!stdout.contains("\\"), "a λ is left: {stdout}");
}

#[test]
fn defunc_inline_has_no_lifted_functions() {
    let out = runestone(
        &["defunc", "--inline", "examples/paper/tfp18_fig1a.fut"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(!stdout.contains("lifted_"), "{stdout}");
    assert!(stdout.contains("entry main"), "{stdout}");
}

#[test]
fn module_programs_run_through_static_interpretation() {
    // ICFP'18 Fig. 3a through the TFP'18 core instance (SPEC_NOTES ICFP18-17).
    let out = runestone(&["run", "examples/paper/fig3.fut"], "5");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "13i32\n");
    for program in [
        "examples/paper/fig3.fut",
        "examples/paper/segscan.fut",
        "examples/paper/life/main.fut",
        "tests/programs/modules",
    ] {
        let out = runestone(&["test", program, "--backend", "reference"], "");
        assert!(out.status.success(), "{program}: {}", text(&out.stdout));
        assert!(
            text(&out.stdout).contains(" 0 failed"),
            "{program}: {}",
            text(&out.stdout)
        );
    }
}

/// `runestone ARGS` reading `stdin`.
fn runestone(args: &[&str], stdin: &str) -> std::process::Output {
    runestone_with_stdin(args, stdin.as_bytes())
}
