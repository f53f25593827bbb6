//! `runestone test PATH... [--backend reference|cpu|gpu|all] [--exclude-tag T]
//! [--timeout SECONDS]`: runs every `-- ==` case of the given programs
//! (directories are searched recursively for `.fut` files) on the chosen
//! backends through the driver ([`driver::cases::test_program`]), prints a
//! diff for each failure and the line `N passed, N failed`; exits 1 on any
//! failure. With `--backend all`, every available backend runs, each with
//! its own summary line, and the backends that cannot run programs are
//! listed as skipped. The gpu backend also prints what its driver did: how
//! many SOAC statement runs went to the device as kernels.
//!
//! Each program runs on each backend in a worker process: this binary again,
//! as the hidden `runestone test-worker` ([`super::test_worker`]), which
//! streams its cases' events to this process ([`driver::isolation`]). A
//! panic, a crash (a stack overflow, any signal, an abnormal exit) or, with
//! `--timeout`, a case that runs too long is that program's failure
//! (`FAIL p.fut: internal error: the cpu backend crashed ...`, `FAIL p.fut:
//! entry main case #2: timed out after 2 s`): the run goes on with the next
//! program. The gpu summary adds up the workers' counters.
//!
//! `--jobs J` runs J workers at once (default: the machine's cores); each
//! program's report is printed in the order of the programs all the same.
//! `--json FILE` also writes every program's report per backend as JSON.

use super::common::unavailable_exit;
use driver::discover::programs_under;
use driver::isolation::test_program_in_worker;
use driver::isolation::WorkerOutcome;
use driver::load::{availability, gpu_usage, GpuUsage};
use driver::{Backend, BackendSelection};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Programs or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "reference")]
    backend: BackendSelection,
    #[command(flatten)]
    ir: super::common::IrChoice,
    /// The reference's step limit per evaluation (default: its own, or a
    /// program's `-- runestone-options: fuel=N`).
    #[arg(long)]
    fuel: Option<u64>,
    /// The memory limit of each run, e.g. `512M`, `8G` (default: the
    /// program's `-- runestone-options: memory-limit=SIZE`, or half of this
    /// machine's memory): an array past it ends the run with a located error.
    #[arg(long, value_name = "SIZE", value_parser = spec::memory::MemoryLimit::parse)]
    memory_limit: Option<spec::memory::MemoryLimit>,
    /// Skip the blocks (`tags { T }`) and the cases (`T input ...`) tagged
    /// T, as `futhark test --exclude` does (`--exclude` is accepted too);
    /// may be repeated. On backend B, `no_B` is always excluded.
    #[arg(long = "exclude-tag", visible_alias = "exclude", value_name = "TAG")]
    exclude_tags: Vec<String>,
    /// How many programs are tested at once, each in its own worker
    /// (default: the number of cores).
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
    /// Also write the results as JSON to FILE: `{"passed", "failed",
    /// "backends_run", "backends_skipped", "programs": [{"program",
    /// "backend", "passed", "failures", "skipped"}]}`.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Stop a case that runs longer than this many seconds (an integer or a
    /// decimal number: `10`, `0.5`; also the limit for loading a program)
    /// and fail it as timed out, as `futhark test --timeout` does; the run
    /// goes on with the next program (default: no limit).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
}

/// `--timeout`'s value: a positive number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(format!("{text:?} is not a positive number of seconds"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|error| format!("{text:?}: {error}"))
}

pub fn run(args: Args) -> ExitCode {
    let selected = args.backend.backends();
    let single = selected.len() == 1;
    let executable = match std::env::current_exe() {
        Ok(path) => path,
        Err(error) => {
            eprintln!("runestone test: cannot find its own executable to run workers: {error}");
            return ExitCode::from(2);
        }
    };
    let files = programs_under(&args.paths);
    let (mut passed, mut failed) = (0, 0);
    let mut ran = Vec::new();
    let mut skipped = Vec::new();
    let mut json_programs = Vec::new();
    for backend in selected {
        if let Err(reason) = availability(backend) {
            if single {
                return unavailable_exit(backend, &reason);
            }
            skipped.push(format!("{backend} ({reason})"));
            continue;
        }
        let prefix = if single {
            String::new()
        } else {
            format!("[{backend}] ")
        };
        let (mut backend_passed, mut backend_failed) = (0, 0);
        // This process opened the device to see whether it is available.
        let mut backend_gpu_usage = gpu_usage().filter(|_| backend == Backend::Gpu);
        let jobs = args.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |j| j as usize,
        );
        let run_one = |file: &Path| {
            let worker = worker_command(&executable, file, backend, &args);
            test_program_in_worker(worker, &file.display().to_string(), backend, args.timeout)
        };
        in_order(&files, jobs, run_one, |index, outcome| {
            let report = outcome.report;
            for skipped in &report.skipped {
                println!("{prefix}skipped {skipped}");
            }
            for failure in &report.failures {
                println!("{prefix}{failure}");
            }
            backend_passed += report.passed;
            backend_failed += report.failures.len();
            backend_gpu_usage = [backend_gpu_usage, outcome.gpu_usage]
                .into_iter()
                .flatten()
                .reduce(GpuUsage::merge);
            json_programs.push(serde_json::json!({
                "program": files[index].display().to_string(),
                "backend": backend.name(),
                "passed": report.passed,
                "failures": report.failures,
                "skipped": report.skipped,
            }));
        });
        if let Some(usage) = backend_gpu_usage {
            println!("gpu: {usage}");
        }
        if !single {
            println!("{backend}: {backend_passed} passed, {backend_failed} failed");
        }
        passed += backend_passed;
        failed += backend_failed;
        ran.push(backend.name().to_string());
    }
    if !single {
        let skipped = if skipped.is_empty() {
            "none".to_string()
        } else {
            skipped.join(", ")
        };
        println!("backends run: {}; skipped: {skipped}", ran.join(", "));
    }
    println!("{passed} passed, {failed} failed");
    if let Some(path) = &args.json {
        let document = serde_json::json!({
            "passed": passed,
            "failed": failed,
            "backends_run": ran,
            "backends_skipped": skipped,
            "programs": json_programs,
        });
        if let Err(error) = std::fs::write(path, document.to_string() + "\n") {
            eprintln!("runestone test: cannot write {}: {error}", path.display());
            return ExitCode::from(1);
        }
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `runestone test-worker --backend B [--fuel N] [--memory-limit BYTES]
/// [--exclude-tag T]... [--segmented] --
/// PROGRAM`: one program on one backend, in a child process.
fn worker_command(executable: &Path, program: &Path, backend: Backend, args: &Args) -> Command {
    let mut worker = Command::new(executable);
    worker.args(["test-worker", "--backend", backend.name()]);
    if let Some(fuel) = args.fuel {
        worker.arg("--fuel").arg(fuel.to_string());
    }
    if let Some(limit) = args.memory_limit {
        worker.arg("--memory-limit").arg(limit.bytes().to_string());
    }
    for tag in &args.exclude_tags {
        worker.arg("--exclude-tag").arg(tag);
    }
    if args.ir.segmented {
        worker.arg("--segmented");
    }
    worker.arg("--").arg(program);
    worker
}

/// Runs `run_one` on every file, `jobs` at a time, and gives `each` the
/// outcomes in the order of `files` as soon as every earlier one is known.
fn in_order(
    files: &[PathBuf],
    jobs: usize,
    run_one: impl Fn(&Path) -> WorkerOutcome + Sync,
    mut each: impl FnMut(usize, WorkerOutcome),
) {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, files.len().max(1)) {
            let (sender, next, run_one) = (sender.clone(), &next, &run_one);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(index) else {
                    break;
                };
                if sender.send((index, run_one(file))).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut given = 0;
        for (index, outcome) in receiver {
            waiting.insert(index, outcome);
            while let Some(outcome) = waiting.remove(&given) {
                each(given, outcome);
                given += 1;
            }
        }
    });
}
