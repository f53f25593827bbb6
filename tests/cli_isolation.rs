//! `runestone test` runs each program in a worker process: a case that
//! never ends (`--timeout`) and a worker killed by a signal are that
//! program's failures, the next program still runs, and the run exits 1.
//! The inputs are under `tests/cli-inputs/`: `loops_forever.fut` (case #0
//! passes, case #1 loops forever on the cpu backend) and `passes.fut`.

mod common;

use common::{runestone_command, text};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const LOOPS_FOREVER: &str = "tests/cli-inputs/loops_forever.fut";
const PASSES: &str = "tests/cli-inputs/passes.fut";

fn finished(command: &mut Command) -> Output {
    command.output().expect("runestone runs")
}

#[test]
fn a_case_that_never_ends_times_out_and_the_run_goes_on() {
    let start = Instant::now();
    let out = finished(&mut runestone(&[
        "test",
        LOOPS_FOREVER,
        PASSES,
        "--backend",
        "cpu",
        "--timeout",
        "2",
    ]));
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!(
            "FAIL {LOOPS_FOREVER}: entry main case #1: timed out after 2 s\n"
        )),
        "{stdout}"
    );
    // Case #0 of the looping program and the next program passed.
    assert!(
        stdout.trim_end().ends_with("2 passed, 1 failed"),
        "{stdout}"
    );
    assert!(start.elapsed() < Duration::from_secs(120), "{stdout}");
}

#[test]
fn a_decimal_timeout_is_accepted_and_a_bad_one_is_a_usage_error() {
    let out = finished(&mut runestone(&["test", PASSES, "--timeout", "2.5"]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).trim_end().ends_with("1 passed, 0 failed"),
        "{}",
        text(&out.stdout)
    );
    for bad in ["0", "-1", "soon", "NaN", "inf"] {
        let option = format!("--timeout={bad}");
        let out = finished(&mut runestone(&["test", PASSES, &option]));
        assert_eq!(out.status.code(), Some(2), "--timeout {bad}");
        assert!(text(&out.stderr).contains("--timeout"), "{bad}");
    }
}

/// The processes whose parent is `parent`, with the CPU time (clock ticks)
/// each has used (Linux's `/proc/PID/stat`).
#[cfg(target_os = "linux")]
fn children_of(parent: u32) -> Vec<(u32, u64)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command's name, in parentheses: state, ppid, ... with
        // utime and stime the 12th and 13th fields.
        let Some((_, fields)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = fields.split_whitespace().collect();
        let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        if number(1) == Some(u64::from(parent)) {
            let ticks = number(11).unwrap_or(0) + number(12).unwrap_or(0);
            children.push((pid, ticks));
        }
    }
    children
}

#[cfg(target_os = "linux")]
#[test]
fn a_worker_killed_by_a_signal_is_a_crash_and_the_run_goes_on() {
    // The safety net: a worker that is not killed still ends, timed out.
    let child = runestone(&[
        "test",
        LOOPS_FOREVER,
        PASSES,
        "--backend",
        "cpu",
        "--timeout",
        "90",
    ])
    .spawn()
    .expect("runestone runs");
    // The worker of the looping program is in case #1 once it has used a
    // second of CPU time (compiling the program takes far less).
    let start = Instant::now();
    let mut killed = false;
    while !killed && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(100));
        if let Some((worker, _)) = children_of(child.id())
            .into_iter()
            .find(|&(_, ticks)| ticks >= 100)
        {
            let status = Command::new("kill")
                .args(["-KILL", &worker.to_string()])
                .status()
                .expect("kill runs");
            killed = status.success();
        }
    }
    let out = child.wait_with_output().expect("runestone finishes");
    let stdout = text(&out.stdout);
    assert!(killed, "no looping worker found to kill:\n{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!(
            "FAIL {LOOPS_FOREVER}: internal error: the cpu backend crashed (signal 9, SIGKILL) \
             while running entry main case #1"
        )),
        "{stdout}"
    );
    assert!(
        stdout.trim_end().ends_with("2 passed, 1 failed"),
        "{stdout}"
    );
}

/// `runestone ARGS` with no stdin and its output captured, not started.
fn runestone(args: &[&str]) -> Command {
    let mut command = runestone_command(args);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}
