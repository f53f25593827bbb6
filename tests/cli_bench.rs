//! `runestone bench`, and `runestone test` across backends, end to end.

use std::path::Path;
use std::process::{Command, Output};

fn runestone(args: &[&str]) -> Output {
    runestone_with(args, &[])
}

fn runestone_with(args: &[&str], environment: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_runestone"))
        .args(args)
        .envs(environment.iter().copied())
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("runestone runs")
}

/// Makes the gpu backend unavailable: no device has this name.
const NO_DEVICE: (&str, &str) = ("RUNESTONE_DEVICE", "no-such-device-anywhere");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A program in a fresh directory; removed by the caller.
fn temp_program(name: &str, source: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("runestone-cli-bench-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.fut"));
    std::fs::write(&path, source).expect("write");
    path
}

#[test]
fn test_all_backends_reports_what_ran_and_what_was_skipped() {
    let out = runestone(&["test", "tests/programs/inputs", "--backend", "all"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("reference: 9 passed, 0 failed"), "{stdout}");
    assert!(stdout.contains("cpu: 9 passed, 0 failed"), "{stdout}");
    assert!(stdout.contains("gpu: 9 passed, 0 failed"), "{stdout}");
    assert!(
        stdout.contains("backends run: reference, cpu, gpu; skipped: none"),
        "{stdout}"
    );
    assert!(
        stdout.trim_end().ends_with("27 passed, 0 failed"),
        "{stdout}"
    );
    let without_gpu = runestone_with(
        &["test", "tests/programs/inputs", "--backend", "all"],
        &[NO_DEVICE],
    );
    let stdout = text(&without_gpu.stdout);
    assert!(without_gpu.status.success(), "{stdout}");
    assert!(
        stdout.contains("backends run: reference, cpu; skipped: gpu ("),
        "{stdout}"
    );
    assert!(
        stdout.trim_end().ends_with("18 passed, 0 failed"),
        "{stdout}"
    );
}

#[test]
fn test_on_one_unavailable_backend_exits_2() {
    let out = runestone_with(
        &["test", "tests/programs/inputs", "--backend", "gpu"],
        &[NO_DEVICE],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the gpu backend is unavailable"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn test_reports_a_wrong_result_on_random_input() {
    let path = temp_program(
        "wrong_random",
        "-- ==\n-- random input { [10]i32 } output { 1i64 }\ndef main [n] (xs: [n]i32) : i64 = n\n",
    );
    let out = runestone(&["test", path.to_str().expect("utf-8")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("expected 1i64, got 10i64"), "{stdout}");
    std::fs::remove_dir_all(path.parent().expect("dir")).ok();
}

#[test]
fn bench_times_every_case_and_validates_results() {
    let out = runestone(&[
        "bench",
        "benches/programs/saxpy.fut",
        "--exclude-tag",
        "large",
        "--runs",
        "3",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("benches/programs/saxpy.fut:main #0 (input "),
        "{stdout}"
    );
    assert!(lines[0].ends_with("(3 runs, result checked)"), "{stdout}");
    assert!(
        lines[1].contains("#1 (random input { f32 [1000]f32 [1000]f32 })"),
        "{stdout}"
    );
    assert!(lines[1].ends_with("(3 runs)"), "{stdout}");
    for line in lines {
        assert!(
            line.contains("µs mean, ") && line.contains("µs min, ") && line.contains("µs stddev")
        );
    }
}

#[test]
fn bench_json_lists_every_run() {
    let out = runestone(&[
        "bench",
        "benches/programs/sum_scan.fut",
        "--exclude-tag",
        "large",
        "--runs",
        "2",
        "--json",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("{\"backend\":\"cpu\",\"runs\":2,\"results\":["),
        "{stdout}"
    );
    // sum: 3 cases, prefix_sum: 2 cases.
    assert_eq!(stdout.matches("\"program\":").count(), 5, "{stdout}");
    assert_eq!(
        stdout.matches("\"entry\":\"prefix_sum\"").count(),
        2,
        "{stdout}"
    );
    assert_eq!(stdout.matches("\"runs_us\":[").count(), 5, "{stdout}");
    assert!(stdout.trim_end().ends_with("\"failures\":[]}"), "{stdout}");
}

#[test]
fn bench_exits_1_on_a_wrong_result() {
    let path = temp_program(
        "wrong_output",
        "-- ==\n-- input { 1 } output { 3 }\n-- input { 2 } output { 3 }\ndef main (x: i32) = x + 1\n",
    );
    let out = runestone(&["bench", path.to_str().expect("utf-8"), "--runs", "1"]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().count(),
        1,
        "the right case is timed: {stdout}"
    );
    assert!(
        stderr.contains("case #0 (input { 1 }): wrong result: value #0: expected 3i32, got 2i32"),
        "{stderr}"
    );
    std::fs::remove_dir_all(path.parent().expect("dir")).ok();
}

#[test]
fn bench_on_an_unavailable_backend_exits_2() {
    let out = runestone_with(
        &["bench", "benches/programs/saxpy.fut", "--backend", "gpu"],
        &[NO_DEVICE],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the gpu backend is unavailable"));
}
