//! `runestone nested FILE`: a λP program (Leshchinskiy's calculus, concrete
//! syntax in `reference::nested::concrete`) through type checking, closure
//! conversion, flattening and evaluation on both sides, with the thesis'
//! theorems checked. Exit 0 when every check holds (or is unknown), 1 on a
//! rejected program or a violated check or a mismatch with the file's
//! `-- expect:` line, 2 on a usage error.

use super::common::{executed, record_if_traced, Executed, TraceFormat};
use reference::derivation::{TracedOutcome, TracedRun, Verdict as TracedVerdict};
use reference::nested::concrete::expected_observation;
use reference::nested::machine::with_large_stack;
use reference::nested::pipeline::{run_file, Options, Rejection, Report};
use reference::nested::theorems::Verdict;
use spec::source::SourceMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// A stage to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// The checked λP program.
    P,
    /// After closure conversion (λC).
    C,
    /// After flattening (λA).
    A,
}

#[derive(clap::Args)]
pub struct Args {
    /// The program: λP (`.lp`) or λC (`.lc`).
    file: PathBuf,
    /// Print a stage (repeatable): p, c or a.
    #[arg(long = "stage", value_enum)]
    stages: Vec<Stage>,
    /// Contractions allowed on the λC side (λA gets 20 times as many).
    #[arg(long, default_value_t = 200_000)]
    fuel: u64,
    /// Skip the subject-reduction and small-step cross-checks (faster).
    #[arg(long)]
    quick: bool,
    /// Report and judge only the checks whose name contains this text
    /// (repeatable), e.g. `--check 6.37 --check 5.27`.
    #[arg(long = "check")]
    checks: Vec<String>,
    /// The memory limit of the λC and λA evaluations, e.g. `512M`, `8G`
    /// (default: half of this machine's memory): a primitive that would
    /// build an array past it stops that evaluation, and its observation is
    /// unknown.
    #[arg(long, value_name = "SIZE", value_parser = spec::memory::MemoryLimit::parse)]
    memory_limit: Option<spec::memory::MemoryLimit>,
    /// Print the derivation: λP typing, closure conversion, λC typing,
    /// flattening, λA typing and both evaluations' reductions (each phase up
    /// to `reference::derivation::NODES_PER_PHASE` nodes): `text` (the
    /// default) or `json` (schema `proofs-notes/derivation.schema.json`).
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, default_missing_value = "text")]
    trace: Option<TraceFormat>,
}

impl Args {
    /// `nested FILE --quick --trace json` (what `runestone explain` runs).
    pub fn traced_json(file: PathBuf) -> Args {
        Args {
            file,
            stages: Vec::new(),
            fuel: 200_000,
            quick: true,
            checks: Vec::new(),
            memory_limit: None,
            trace: Some(TraceFormat::Json),
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    execute(args).finish()
}

/// `nested` up to what it prints on stdout (diagnostics go to stderr).
pub fn execute(args: Args) -> Executed {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: cannot read {}: {error}", args.file.display());
            return Executed::not_started(ExitCode::from(2));
        }
    };
    let name = args.file.display().to_string();
    if let Some(limit) = args.memory_limit {
        reference::nested::machine::set_memory_limit(limit);
    }
    let mut options = Options {
        fuel: args.fuel,
        ..Options::default()
    };
    if args.quick {
        options.subject_reduction_steps = 0;
        options.small_step_fuel = 0;
    }
    let source_text = text.clone();
    let trace = args.trace;
    let ((result, derivation), sources) = with_large_stack(move || {
        let mut sources = SourceMap::new();
        let file = sources.add(name.clone(), source_text.clone());
        let recorded = record_if_traced(trace, || run_file(file, &name, &source_text, &options));
        (recorded, sources)
    });
    let file = args.file.display().to_string();
    let report = match result {
        Ok(report) => report,
        Err(rejection) => {
            let (outcome, message) = match &rejection {
                Rejection::Source(diagnostic) => (
                    TracedOutcome::from_diagnostic(diagnostic),
                    diagnostic.render(&sources),
                ),
                Rejection::Internal(message) => (
                    TracedOutcome {
                        verdict: TracedVerdict::Failed,
                        message: Some(message),
                        ..TracedOutcome::default()
                    },
                    message.clone(),
                ),
            };
            eprint!("{message}");
            if !message.ends_with('\n') {
                eprintln!();
            }
            let run = TracedRun {
                command: "nested",
                file: &file,
                outcome,
                output: "",
            };
            return executed(args.trace, derivation, &run, &sources, ExitCode::from(1));
        }
    };
    let mut report = report;
    if !args.checks.is_empty() {
        report.checks.retain(|check| {
            args.checks
                .iter()
                .any(|wanted| check.name.contains(wanted.as_str()))
        });
    }
    let mut output = report_text(&report, &args.stages);
    let mut failed = report.violations().count() > 0;
    if let Some(expected) = expected_observation(&text) {
        for (side, outcome) in [("λC", &report.outcome_c), ("λA", &report.outcome_a)] {
            let seen = outcome.to_string();
            if seen != expected {
                let _ = writeln!(
                    output,
                    "expectation: {side} observes {seen}, the file expects {expected}"
                );
                failed = true;
            }
        }
        if !failed {
            let _ = writeln!(output, "expectation: both sides observe {expected}");
        }
    }
    let outcome = TracedOutcome {
        verdict: if failed {
            TracedVerdict::Failed
        } else {
            TracedVerdict::Accepted
        },
        ..TracedOutcome::default()
    };
    let run = TracedRun {
        command: "nested",
        file: &file,
        outcome,
        output: &output,
    };
    let exit = if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    executed(args.trace, derivation, &run, &sources, exit)
}

/// The report's text: the stages asked for, the type, both observations
/// and every check's verdict.
fn report_text(report: &Report, stages: &[Stage]) -> String {
    let mut out = String::new();
    for stage in stages {
        let _ = match stage {
            Stage::P if report.stage_p.is_empty() => {
                writeln!(out, "λP : (the input is a λC program)\n")
            }
            Stage::P => writeln!(out, "λP : {}\n{}\n", report.type_p, report.stage_p),
            Stage::C => writeln!(out, "λC : {}\n{}\n", report.type_c, report.stage_c),
            Stage::A => writeln!(out, "λA : {}\n{}\n", report.type_a, report.stage_a),
        };
    }
    let ty = if report.type_p.is_empty() {
        &report.type_c
    } else {
        &report.type_p
    };
    let _ = writeln!(out, "type       {ty}");
    let _ = writeln!(
        out,
        "λC         {}   ({} steps)",
        report.outcome_c, report.steps_c
    );
    let _ = writeln!(
        out,
        "λA         {}   ({} steps)",
        report.outcome_a, report.steps_a
    );
    for check in &report.checks {
        let verdict = match &check.verdict {
            Verdict::Holds => "holds".to_string(),
            Verdict::Violated(why) => format!("VIOLATED: {why}"),
            Verdict::Unknown(why) => format!("unknown: {why}"),
        };
        let _ = writeln!(out, "check      {:<48} {verdict}", check.name);
    }
    out
}
