//! `runestone bench PATH... [--backend B] [--runs N] [--json] [--exclude-tag T]`:
//! times the entry points of programs on the cases of their `-- ==` blocks,
//! following `futhark bench`'s conventions.
//!
//! For every case of every entry point a block names (cases with `nobench`,
//! with an expected run-time error, and `compiled` cases on the reference are
//! skipped; blocks tagged with an `--exclude-tag` are skipped): the input is
//! produced once (inline, `@ FILE` or `random input`, not timed), one warm-up
//! run is validated against `output { ... }`/`output @ FILE` where the case
//! gives one, then `--runs` runs are timed with a monotonic clock. Each case
//! prints its mean, minimum and standard deviation in microseconds; `--json`
//! prints one JSON document instead (the per-case lines then go to stderr).
//! When a warm-up run takes longer than a second, each timed run prints a
//! progress line on stderr. Exit status: 0, or 1 if a result is wrong or a
//! run fails, or 2 if the backend cannot run programs yet.

use super::common::unavailable_exit;
use driver::cases::{case_label, read_test_program, TestProgram};
use driver::discover::programs_under;
use driver::{load, Backend, LoadError, LoadOptions, LoadedProgram};
use spec::testblock::{case_expected_output, case_input, BlockKind, Case, Expected};
use spec::value::{compare, Tolerance};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Programs or directories (searched recursively for `.fut` files).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The backend timed (the optimising compiler's CPU backend unless told).
    #[arg(long, value_enum, default_value = "cpu")]
    backend: Backend,
    /// Timed runs per case, after one warm-up run.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Print the results as one JSON document on stdout.
    #[arg(long)]
    json: bool,
    /// Skip the blocks carrying this tag (`tags { large }`); repeatable.
    #[arg(long = "exclude-tag", value_name = "TAG")]
    exclude_tags: Vec<String>,
    /// The reference's step limit per evaluation.
    #[arg(long)]
    fuel: Option<u64>,
}

/// The timing of one case.
struct Measurement {
    program: String,
    entry: String,
    case: String,
    /// Whether the warm-up run was checked against an expected output.
    validated: bool,
    runs: Vec<Duration>,
}

/// Mean, minimum and sample standard deviation, in microseconds.
struct Statistics {
    mean_us: f64,
    min_us: f64,
    stddev_us: f64,
}

impl Measurement {
    fn statistics(&self) -> Statistics {
        let us: Vec<f64> = self.runs.iter().map(|d| d.as_secs_f64() * 1e6).collect();
        let n = us.len() as f64;
        let mean_us = us.iter().sum::<f64>() / n;
        let min_us = us.iter().copied().fold(f64::INFINITY, f64::min);
        let variance = if us.len() > 1 {
            us.iter().map(|x| (x - mean_us).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        Statistics {
            mean_us,
            min_us,
            stddev_us: variance.sqrt(),
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    let options = LoadOptions {
        or_conditionals: false,
        fuel: args.fuel,
    };
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
        if program.blocks.is_empty() {
            continue;
        }
        let loaded = match load(args.backend, &mut program.sources, program.file, options) {
            Ok(p) => p,
            Err(LoadError::Unavailable { backend, reason }) => {
                return unavailable_exit(backend, &reason)
            }
            Err(error) => {
                failures.push(format!(
                    "{}: does not compile:\n{}",
                    program.name,
                    error.render(&program.sources)
                ));
                continue;
            }
        };
        bench_program(
            &mut program,
            loaded.as_ref(),
            &args,
            &mut measurements,
            &mut failures,
        );
    }
    if args.json {
        println!(
            "{}",
            json_report(args.backend, args.runs, &measurements, &failures)
        );
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

/// Benchmarks every case of one program.
fn bench_program(
    program: &mut TestProgram,
    loaded: &dyn LoadedProgram,
    args: &Args,
    measurements: &mut Vec<Measurement>,
    failures: &mut Vec<String>,
) {
    let blocks = std::mem::take(&mut program.blocks);
    for block in &blocks {
        let BlockKind::Cases(cases) = &block.kind else {
            continue;
        };
        if block
            .tags
            .iter()
            .any(|t| args.exclude_tags.contains(&t.name))
        {
            continue;
        }
        let entry_points = loaded.entry_points();
        for entry in &block.entries {
            if !entry_points.contains(&entry.name) {
                failures.push(format!(
                    "{}: the block names entry point {}, which the program does not define (it defines {})",
                    program.name,
                    entry.name,
                    entry_points.join(", ")
                ));
                continue;
            }
            for (index, case) in cases.iter().enumerate() {
                let skipped = case.flags.nobench
                    || case
                        .flags
                        .tags
                        .iter()
                        .any(|t| args.exclude_tags.contains(t))
                    || matches!(case.expected, Expected::RuntimeError(_))
                    || (case.flags.compiled && args.backend == Backend::Reference);
                if skipped {
                    continue;
                }
                let label = case_label(index, case);
                match bench_case(program, loaded, &entry.name, case, &label, args.runs) {
                    Ok(measurement) => {
                        let line = result_line(&measurement);
                        if args.json {
                            eprintln!("{line}");
                        } else {
                            println!("{line}");
                        }
                        measurements.push(measurement);
                    }
                    Err(why) => failures.push(format!(
                        "{}: entry {} case {label}: {why}",
                        program.name, entry.name
                    )),
                }
            }
        }
    }
}

/// Produces the input, validates a warm-up run, and times `runs` runs.
fn bench_case(
    program: &mut TestProgram,
    loaded: &dyn LoadedProgram,
    entry: &str,
    case: &Case,
    label: &str,
    runs: u32,
) -> Result<Measurement, String> {
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
    let mut times = Vec::with_capacity(runs as usize);
    for run in 1..=runs {
        let start = Instant::now();
        let result = loaded.run(entry, &input);
        let elapsed = start.elapsed();
        result.map_err(|e| format!("run {run}: {e}"))?;
        if show_progress {
            eprintln!(
                "  {}:{entry} {label}: run {run}/{runs}: {:.0}µs",
                program.name,
                elapsed.as_secs_f64() * 1e6
            );
        }
        times.push(elapsed);
    }
    Ok(Measurement {
        program: program.name.clone(),
        entry: entry.to_string(),
        case: label.to_string(),
        validated: expected.is_some(),
        runs: times,
    })
}

/// `prog.fut:main #0 (input ...): 1234µs mean, 1200µs min, 20µs stddev (10 runs)`.
fn result_line(m: &Measurement) -> String {
    let s = m.statistics();
    format!(
        "{}:{} {}: {:.0}µs mean, {:.0}µs min, {:.0}µs stddev ({} runs{})",
        m.program,
        m.entry,
        m.case,
        s.mean_us,
        s.min_us,
        s.stddev_us,
        m.runs.len(),
        if m.validated { ", result checked" } else { "" }
    )
}

/// The results as JSON: `{"backend", "runs", "results": [{"program",
/// "entry", "case", "validated", "runs_us", "mean_us", "min_us",
/// "stddev_us"}], "failures": [...]}`.
fn json_report(
    backend: Backend,
    runs: u32,
    measurements: &[Measurement],
    failures: &[String],
) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\"backend\":{},\"runs\":{runs},\"results\":[",
        json_string(backend.name())
    );
    for (i, m) in measurements.iter().enumerate() {
        let s = m.statistics();
        let runs_us: Vec<String> = m
            .runs
            .iter()
            .map(|d| format!("{:.3}", d.as_secs_f64() * 1e6))
            .collect();
        let _ = write!(
            out,
            "{}{{\"program\":{},\"entry\":{},\"case\":{},\"validated\":{},\"runs_us\":[{}],\"mean_us\":{:.3},\"min_us\":{:.3},\"stddev_us\":{:.3}}}",
            if i == 0 { "" } else { "," },
            json_string(&m.program),
            json_string(&m.entry),
            json_string(&m.case),
            m.validated,
            runs_us.join(","),
            s.mean_us,
            s.min_us,
            s.stddev_us
        );
    }
    out.push_str("],\"failures\":[");
    let failures: Vec<String> = failures.iter().map(|f| json_string(f)).collect();
    out.push_str(&failures.join(","));
    out.push_str("]}");
    out
}

/// A JSON string literal (RFC 8259 escapes).
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
