//! `runestone bench PATH... [--backend B] [--runs N] [--json FILE] [--timeout S]`:
//! times the entry points of programs on the cases of their `-- ==` blocks,
//! following `futhark bench`'s conventions.
//!
//! For every case of every entry point a block names (cases with `nobench`,
//! with an expected run-time error, and `compiled` cases on the reference are
//! skipped; blocks tagged with an `--exclude-tag` are skipped): the input is
//! produced once (inline, `@ FILE` or `random input`, not timed), one warm-up
//! run is validated against `output { ... }`/`output @ FILE` where the case
//! gives one, then at least `--runs` runs are timed with a monotonic clock;
//! the convergence phase adds runs until the 95 % confidence interval of the
//! mean is within `--relative-ci` of it, or `--convergence-max-seconds` have
//! passed, or `--max-runs` runs were made. Each case prints its mean with the
//! interval, minimum and standard deviation in microseconds; `--json FILE`
//! writes `futhark bench`'s JSON layout (`runestone benchcmp` compares two).
//! `--timeout` bounds the time of all runs of a case (checked between runs: a
//! run in progress is not interrupted). When a warm-up run takes longer than
//! a second, each timed run prints a progress line on stderr. Exit status: 0,
//! or 1 if a result is wrong, a run fails or a case times out, or 2 if the
//! backend cannot run programs.

use super::common::unavailable_exit;
use super::statistics::{summary, Summary};
use driver::cases::{case_label, read_test_program, TestProgram};
use driver::discover::programs_under;
use driver::{load, Backend, LoadError, LoadOptions, LoadedProgram};
use spec::testblock::{case_expected_output, case_input, BlockKind, Case, Expected};
use spec::value::{compare, Tolerance};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    /// Programs or directories (searched recursively for `.fut` files).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The backend timed (the optimising compiler's CPU backend unless told).
    #[arg(long, value_enum, default_value = "cpu")]
    backend: Backend,
    #[command(flatten)]
    ir: super::common::IrChoice,
    /// The fewest timed runs per case, after one warm-up run.
    #[arg(short = 'r', long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// No convergence phase: exactly `--runs` runs per case.
    #[arg(long)]
    no_convergence_phase: bool,
    /// The convergence phase stops once the 95 % confidence interval's
    /// half-width is at most this fraction of the mean.
    #[arg(long, default_value_t = 0.01)]
    relative_ci: f64,
    /// The convergence phase stops after this many seconds of runs of a case.
    #[arg(long, default_value_t = 5.0)]
    convergence_max_seconds: f64,
    /// The most timed runs per case.
    #[arg(long, default_value_t = 10_000)]
    max_runs: u32,
    /// A case whose runs together take longer than this many seconds fails
    /// (checked between runs).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Write the results in `futhark bench`'s JSON layout to FILE (`-`:
    /// stdout, the per-case lines then go to stderr).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Skip the blocks and cases carrying this tag (`tags { large }`);
    /// repeatable.
    #[arg(long = "exclude-tag", value_name = "TAG")]
    exclude_tags: Vec<String>,
    /// The reference's step limit per evaluation.
    #[arg(long)]
    fuel: Option<u64>,
    /// The memory limit of each run, e.g. `512M`, `8G` (default: the
    /// program's `-- runestone-options: memory-limit=SIZE`, or half of this
    /// machine's memory): an array past it ends the run with a located error.
    #[arg(long, value_name = "SIZE", value_parser = spec::memory::MemoryLimit::parse)]
    memory_limit: Option<spec::memory::MemoryLimit>,
}

const HELP: &str = "\
Each case prints one line:
  prog.fut:main #0 (input { ... }): 1234µs mean ± 12µs (95% CI), 1200µs min, 20µs stddev (37 runs, result checked)

The JSON file has `futhark bench`'s layout: an object with one key per
program and entry point (`prog.fut:main`), each {\"datasets\": {CASE: RESULT}},
where RESULT is {\"runtimes\": [microseconds, ...], \"bytes\": {}, \"stderr\": \"\"}
(runestone does not measure memory: `bytes` is empty) or, for a case that
failed, the error message. `runestone benchcmp OLD.json NEW.json` compares
two such files.";

/// The timing of one case, or why it has none.
struct Measurement {
    /// `prog.fut:entry`, the JSON layout's key.
    benchmark: String,
    case: String,
    result: Result<Timing, String>,
}

struct Timing {
    /// Whether the warm-up run was checked against an expected output.
    validated: bool,
    runs: Vec<Duration>,
}

impl Timing {
    fn microseconds(&self) -> Vec<f64> {
        self.runs.iter().map(|d| d.as_secs_f64() * 1e6).collect()
    }

    fn summary(&self) -> Summary {
        summary(&self.microseconds())
    }
}

/// When to stop timing a case.
struct Plan {
    min_runs: u32,
    max_runs: u32,
    converge: bool,
    relative_ci: f64,
    convergence_max: Duration,
    timeout: Option<Duration>,
}

impl Plan {
    fn of(args: &Args) -> Result<Plan, String> {
        let seconds = |name: &str, s: f64| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| format!("--{name} must be a non-negative number of seconds, not {s}"))
        };
        if args.relative_ci.is_nan() || args.relative_ci <= 0.0 {
            return Err(format!(
                "--relative-ci must be positive, not {}",
                args.relative_ci
            ));
        }
        Ok(Plan {
            min_runs: args.runs,
            max_runs: args.max_runs.max(args.runs),
            converge: !args.no_convergence_phase,
            relative_ci: args.relative_ci,
            convergence_max: seconds("convergence-max-seconds", args.convergence_max_seconds)?,
            timeout: args.timeout.map(|s| seconds("timeout", s)).transpose()?,
        })
    }

    /// Whether to time one more run after `runs`, `spent` since the first.
    fn another_run(&self, runs: &[Duration], spent: Duration) -> bool {
        let count = runs.len() as u32;
        if count < self.min_runs {
            return true;
        }
        if !self.converge || count >= self.max_runs || spent >= self.convergence_max {
            return false;
        }
        let microseconds: Vec<f64> = runs.iter().map(|d| d.as_secs_f64() * 1e6).collect();
        let s = summary(&microseconds);
        s.ci95_half_width > self.relative_ci * s.mean
    }
}

pub fn run(args: Args) -> ExitCode {
    let plan = match Plan::of(&args) {
        Ok(plan) => plan,
        Err(message) => {
            eprintln!("runestone bench: {message}");
            return ExitCode::from(2);
        }
    };
    let options = LoadOptions {
        or_conditionals: false,
        fuel: args.fuel,
        memory_limit: args.memory_limit,
        segmented: args.ir.segmented,
    };
    let lines_to_stderr = args.json.as_deref().is_some_and(|p| p.as_os_str() == "-");
    let mut measurements = Vec::new();
    let mut failures = Vec::new();
    for path in programs_under(&args.paths) {
        let mut program = match read_test_program(&path) {
            Ok(p) => p,
            Err(report) => {
                failures.push(report);
                continue;
            }
        };
        let cases = selected_cases(&program, &args);
        if cases.is_empty() {
            continue;
        }
        let loaded = match load(args.backend, &mut program.sources, program.file, options) {
            Ok(p) => p,
            Err(LoadError::Unavailable { backend, reason }) => {
                return unavailable_exit(backend, &reason)
            }
            Err(error) => {
                let why = format!("does not compile:\n{}", error.render(&program.sources));
                failures.push(format!("{}: {why}", program.name));
                for (entry, label, _) in cases {
                    measurements.push(Measurement {
                        benchmark: format!("{}:{entry}", program.name),
                        case: label,
                        result: Err(why.clone()),
                    });
                }
                continue;
            }
        };
        let entry_points = loaded.entry_points();
        for (entry, label, case) in cases {
            let result = if entry_points.contains(&entry) {
                bench_case(&mut program, loaded.as_ref(), &entry, &case, &label, &plan)
            } else {
                Err(format!(
                    "the block names entry point {entry}, which the program does not define (it defines {})",
                    entry_points.join(", ")
                ))
            };
            let measurement = Measurement {
                benchmark: format!("{}:{entry}", program.name),
                case: label,
                result,
            };
            match &measurement.result {
                Ok(timing) => {
                    let line = result_line(&measurement, timing);
                    if lines_to_stderr {
                        eprintln!("{line}");
                    } else {
                        println!("{line}");
                    }
                }
                Err(why) => failures.push(format!(
                    "{} case {}: {why}",
                    measurement.benchmark, measurement.case
                )),
            }
            measurements.push(measurement);
        }
    }
    if let Some(path) = &args.json {
        let document = json_report(&measurements);
        let written = if path.as_os_str() == "-" {
            println!("{document}");
            Ok(())
        } else {
            std::fs::write(path, document + "\n")
        };
        if let Err(e) = written {
            eprintln!("runestone bench: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    for failure in &failures {
        eprintln!("FAIL {failure}");
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The cases of a program that are timed: (entry point, label, case).
fn selected_cases(program: &TestProgram, args: &Args) -> Vec<(String, String, Case)> {
    let excluded = |tag: &String| args.exclude_tags.contains(tag);
    let mut selected = Vec::new();
    for block in &program.blocks {
        let BlockKind::Cases(cases) = &block.kind else {
            continue;
        };
        if block.tags.iter().any(|t| excluded(&t.name)) {
            continue;
        }
        for entry in &block.entries {
            for (index, case) in cases.iter().enumerate() {
                let skipped = case.flags.nobench
                    || case.flags.tags.iter().any(excluded)
                    || matches!(case.expected, Expected::RuntimeError(_))
                    || (case.flags.compiled && args.backend == Backend::Reference);
                if !skipped {
                    selected.push((entry.name.clone(), case_label(index, case), case.clone()));
                }
            }
        }
    }
    selected
}

/// Produces the input, validates a warm-up run, and times runs as `plan`
/// says.
fn bench_case(
    program: &mut TestProgram,
    loaded: &dyn LoadedProgram,
    entry: &str,
    case: &Case,
    label: &str,
    plan: &Plan,
) -> Result<Timing, String> {
    let input = case_input(case, &program.dir, &mut program.sources)
        .map_err(|d| format!("bad input:\n{}", d.render(&program.sources)))?;
    let expected = case_expected_output(&case.expected, &program.dir, &mut program.sources)
        .map_err(|d| format!("bad expected output:\n{}", d.render(&program.sources)))?;
    let warm_up_start = Instant::now();
    let actual = loaded.run(entry, &input).map_err(|e| e.to_string())?;
    let warm_up = warm_up_start.elapsed();
    if let Some(expected) = &expected {
        compare(expected, &actual, Tolerance::FutharkTest)
            .map_err(|m| format!("wrong result: {m}"))?;
    }
    let show_progress = warm_up > Duration::from_secs(1);
    let mut runs = Vec::with_capacity(plan.min_runs as usize);
    let first = Instant::now();
    while plan.another_run(&runs, first.elapsed()) {
        if let Some(limit) = plan.timeout {
            if first.elapsed() > limit {
                return Err(format!(
                    "timed out: {} runs took {:.1}s, more than --timeout {}s",
                    runs.len(),
                    first.elapsed().as_secs_f64(),
                    limit.as_secs_f64()
                ));
            }
        }
        let start = Instant::now();
        let result = loaded.run(entry, &input);
        let elapsed = start.elapsed();
        result.map_err(|e| format!("run {}: {e}", runs.len() + 1))?;
        runs.push(elapsed);
        if show_progress {
            eprintln!(
                "  {}:{entry} {label}: run {}: {:.0}µs",
                program.name,
                runs.len(),
                elapsed.as_secs_f64() * 1e6
            );
        }
    }
    Ok(Timing {
        validated: expected.is_some(),
        runs,
    })
}

/// `prog.fut:main #0 (input ...): 1234µs mean ± 12µs (95% CI), 1200µs min,
/// 20µs stddev (10 runs, result checked)`.
fn result_line(m: &Measurement, timing: &Timing) -> String {
    let s = timing.summary();
    format!(
        "{} {}: {:.0}µs mean ± {:.1}µs (95% CI), {:.0}µs min, {:.0}µs stddev ({} runs{})",
        m.benchmark,
        m.case,
        s.mean,
        s.ci95_half_width,
        s.min,
        s.stddev,
        s.count,
        if timing.validated {
            ", result checked"
        } else {
            ""
        }
    )
}

/// `futhark bench`'s JSON layout: `{"prog.fut:entry": {"datasets": {CASE:
/// {"runtimes": [µs], "bytes": {}, "stderr": ""} or "error"}}}`.
fn json_report(measurements: &[Measurement]) -> String {
    let mut benchmarks = serde_json::Map::new();
    for m in measurements {
        let benchmark = benchmarks
            .entry(m.benchmark.clone())
            .or_insert_with(|| serde_json::json!({ "datasets": {} }));
        let result = match &m.result {
            Ok(timing) => serde_json::json!({
                "runtimes": timing.runs.iter().map(|d| d.as_micros() as u64).collect::<Vec<_>>(),
                "bytes": {},
                "stderr": "",
            }),
            Err(why) => serde_json::Value::String(why.clone()),
        };
        benchmark["datasets"][&m.case] = result;
    }
    serde_json::to_string(&serde_json::Value::Object(benchmarks)).expect("JSON")
}
