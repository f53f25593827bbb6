//! `runestone run|test --backend gpu` end to end: every test program under
//! `tests/programs/` and `examples/paper/` through the GPU driver (the CPU
//! backend with its planned SOACs run as kernels) on the Vulkan device
//! (lavapipe in CI) under the Khronos validation layer, meeting exactly the
//! expectations the CPU backend meets, with SOACs actually run as kernels.

mod common;

use common::{runestone_with_environment, text};
use std::path::Path;
use std::process::{Command, Output};

/// At least this many SOAC statement runs go to the device over the suite
/// (67 when the driver arrived): the GPU does real work, not just the host.
const MINIMUM_KERNEL_RUNS: u64 = 60;

/// The first line of every failure `runestone test` printed, without the
/// backend's name.
fn failures(stdout: &str, backend: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|line| line.starts_with("FAIL "))
        .map(|line| line.replace(&format!(" {backend} "), " BACKEND "))
        .collect()
}

/// The number in `gpu: N SOAC statement runs on the GPU as kernels, ...`.
fn kernel_runs(stdout: &str) -> Option<u64> {
    let line = stdout.lines().find(|line| line.starts_with("gpu: "))?;
    line.strip_prefix("gpu: ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[test]
fn every_test_program_meets_on_the_gpu_what_it_meets_on_the_cpu() {
    let paths = ["tests/programs", "examples/paper"];
    let cpu = runestone_with_environment(&["test", paths[0], paths[1], "--backend", "cpu"], &[]);
    let gpu = runestone_with_environment(
        &["test", paths[0], paths[1], "--backend", "gpu"],
        &[("RUNESTONE_VALIDATION", "1")],
    );
    let (cpu_out, gpu_out) = (text(&cpu.stdout), text(&gpu.stdout));
    assert_eq!(
        failures(&gpu_out, "gpu"),
        failures(&cpu_out, "cpu"),
        "the gpu backend must fail exactly the cases the cpu backend fails\n\
         gpu:\n{gpu_out}{}",
        text(&gpu.stderr)
    );
    let summary = |out: &str| out.lines().last().unwrap_or("").to_string();
    assert_eq!(summary(&gpu_out), summary(&cpu_out), "{gpu_out}");
    assert!(
        gpu_out.contains("Vulkan validation on, 0 messages"),
        "the run must be validated and clean:\n{gpu_out}"
    );
    let runs = kernel_runs(&gpu_out).unwrap_or_else(|| panic!("no gpu summary:\n{gpu_out}"));
    println!("SOAC statement runs on the GPU over the suite: {runs}");
    println!(
        "{}",
        gpu_out
            .lines()
            .find(|line| line.starts_with("gpu: "))
            .unwrap_or("")
    );
    assert!(
        runs >= MINIMUM_KERNEL_RUNS,
        "only {runs} SOAC statement runs went to the GPU (at least {MINIMUM_KERNEL_RUNS} expected)"
    );
}

/// `runestone run PROGRAM --backend BACKEND` with `input` on stdin.
fn run_with_input(program: &str, backend: &str, input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_runestone"))
        .args(["run", program, "--backend", backend])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runestone runs");
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("runestone finishes")
}

#[test]
fn run_prints_the_results_computed_with_kernels() {
    let out = run_with_input(
        "tests/programs/soacs/partition.fut",
        "gpu",
        "[5, 1, 8, 3, 9]",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "[5i32, 8i32, 9i32]\n[1i32, 3i32]\n");
}

#[test]
fn a_failing_soac_reports_the_cpu_backends_error_and_location() {
    // `map (\x -> 10 / x)` can fail: it stays on the host, so the error
    // and its location are the CPU backend's.
    let program = "tests/programs/errors/division_in_map.fut";
    let cpu = run_with_input(program, "cpu", "[1, 0]");
    let gpu = run_with_input(program, "gpu", "[1, 0]");
    assert_eq!(gpu.status.code(), Some(1), "{}", text(&gpu.stderr));
    assert_eq!(text(&gpu.stderr), text(&cpu.stderr));
    assert!(
        text(&gpu.stderr).contains("division_in_map.fut:5:")
            && text(&gpu.stderr).contains("division by zero"),
        "{}",
        text(&gpu.stderr)
    );
}

#[test]
fn without_a_usable_device_the_gpu_backend_is_unavailable() {
    let environment = [("RUNESTONE_DEVICE", "no-such-device-anywhere")];
    let run = runestone_with_environment(
        &["run", "examples/paper/tfp18_fig1a.fut", "--backend", "gpu"],
        &environment,
    );
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("the gpu backend is unavailable") && stderr.contains("no-such-device"),
        "{stderr}"
    );
    let all = runestone_with_environment(
        &["test", "tests/programs/hof", "--backend", "all"],
        &environment,
    );
    let stdout = text(&all.stdout);
    assert!(all.status.success(), "{stdout}");
    assert!(
        stdout.contains("backends run: reference, cpu; skipped: gpu (no usable Vulkan device"),
        "{stdout}"
    );
}

#[test]
fn test_with_every_backend_includes_the_gpu() {
    let out = runestone_with_environment(&["test", "tests/programs/hof", "--backend", "all"], &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("backends run: reference, cpu, gpu; skipped: none"),
        "{stdout}"
    );
}

/// `--segmented` on the gpu backend: the driver plans the segmented IR,
/// each operation expanded into one SOAC over its whole index space, so a
/// perfect nest of two maps, left on the host by the SOAC IR (its lambda
/// holds a map over a row), becomes one kernel over the flat space.
#[test]
fn the_segmented_ir_runs_a_nest_of_maps_as_one_kernel() {
    const NEST: &str = "tests/programs/flattening/map_map.fut";
    let summary = |extra: &[&str]| {
        let mut args = vec!["test", NEST, "--backend", "gpu"];
        args.extend_from_slice(extra);
        let out = runestone_with_environment(&args, &[("RUNESTONE_VALIDATION", "1")]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}:\n{stdout}");
        assert!(stdout.contains("4 passed, 0 failed"), "{args:?}:\n{stdout}");
        assert!(
            stdout.contains("Vulkan validation on, 0 messages"),
            "{args:?}:\n{stdout}"
        );
        stdout
    };
    let soac_ir = summary(&[]);
    assert!(
        soac_ir.contains(
            "0 top-level SOAC statements planned as kernels, 1 left on the host \
             (run 3 times, 1 more over nothing); 0.0 % of the 3 runs with work ran as kernels"
        ),
        "{soac_ir}"
    );
    let segmented = summary(&["--segmented"]);
    assert!(
        segmented.contains("1 top-level SOAC statements planned as kernels, 0 left on the host"),
        "{segmented}"
    );
    // The two non-empty cases run the kernel; the empty spaces are handed
    // back to the host.
    assert!(
        segmented.contains(
            "gpu: 2 SOAC statement runs on the GPU as kernels, 2 handed back to the host \
             (2 empty, 0 failing, 0 refused)"
        ),
        "{segmented}"
    );
}

/// SOACs in loops and branches of host code are kernels too (they once ran
/// on the host, counted nowhere), and the array a loop carries stays on the
/// device from one iteration's kernel to the next: 13 of the 15 kernels'
/// inputs are found there, 2 uploaded (`xs`, once per case).
#[test]
fn soacs_in_host_loops_and_branches_run_as_kernels() {
    const PROGRAM: &str = "tests/programs/kernels/kernels_inside_host_loops_and_branches.fut";
    for extra in [&[][..], &["--segmented"][..]] {
        let mut args = vec!["test", PROGRAM, "--backend", "gpu"];
        args.extend_from_slice(extra);
        let out = runestone_with_environment(&args, &[("RUNESTONE_VALIDATION", "1")]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}:\n{stdout}");
        assert!(stdout.contains("2 passed, 0 failed"), "{args:?}:\n{stdout}");
        assert!(
            stdout.contains(
                "gpu: 15 SOAC statement runs on the GPU as kernels, 0 handed back to the host \
                 (0 empty, 0 failing, 0 refused); \
                 7 top-level SOAC statements planned as kernels, 0 left on the host \
                 (run 0 times, 0 more over nothing); \
                 100.0 % of the 15 runs with work ran as kernels; \
                 kernel inputs: 2 uploaded, 13 already on the device; \
                 Vulkan validation on, 0 messages"
            ),
            "{args:?}:\n{stdout}"
        );
    }
}

/// Every `scatter` and `reduce_by_index` of the program runs as a kernel
/// (one per histogram strategy of the kernel library), its destination
/// updated on the device, under the validation layer.
#[test]
fn scatters_and_histograms_run_as_kernels() {
    const PROGRAM: &str = "tests/programs/kernels/scatters_and_histograms.fut";
    let args = ["test", PROGRAM, "--backend", "gpu"];
    let out = runestone_with_environment(&args, &[("RUNESTONE_VALIDATION", "1")]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("8 passed, 0 failed"), "{stdout}");
    assert!(
        stdout.contains(
            "gpu: 11 SOAC statement runs on the GPU as kernels, 0 handed back to the host \
             (0 empty, 0 failing, 0 refused); \
             10 top-level SOAC statements planned as kernels, 0 left on the host \
             (run 0 times, 0 more over nothing); \
             100.0 % of the 11 runs with work ran as kernels; \
             kernel inputs: 27 uploaded, 4 already on the device; \
             Vulkan validation on, 0 messages"
        ),
        "{stdout}"
    );
}

/// Every map that reduces or scans its rows runs as one segmented kernel,
/// from the fused IR and from the segmented IR alike; the cases with empty
/// rows or no rows (3 of 10) and the one with a failing row are handed back
/// to the host.
#[test]
fn maps_of_row_reductions_run_as_segmented_kernels() {
    const PROGRAM: &str = "tests/programs/kernels/segmented_reductions_and_scans.fut";
    for (extra, uploaded) in [(&[][..], 9), (&["--segmented"][..], 14)] {
        let mut args = vec!["test", PROGRAM, "--backend", "gpu"];
        args.extend_from_slice(extra);
        let out = runestone_with_environment(&args, &[("RUNESTONE_VALIDATION", "1")]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}:\n{stdout}");
        assert!(
            stdout.contains("10 passed, 0 failed"),
            "{args:?}:\n{stdout}"
        );
        let counters = format!(
            "gpu: 6 SOAC statement runs on the GPU as kernels, 4 handed back to the host \
             (3 empty, 1 failing, 0 refused); \
             6 top-level SOAC statements planned as kernels, 0 left on the host \
             (run 0 times, 0 more over nothing); \
             85.7 % of the 7 runs with work ran as kernels; \
             kernel inputs: {uploaded} uploaded, 0 already on the device; \
             Vulkan validation on, 0 messages"
        );
        assert!(stdout.contains(&counters), "{args:?}:\n{stdout}");
    }
}
