//! `runestone run FILE [-e ENTRY] [--backend B]`: runs an entry point on
//! Futhark values read from stdin and prints the result values, through the
//! backend abstraction of [`super::backends`]. Run-time errors print their
//! source location and exit 1; a backend that cannot run programs yet exits 2.

use super::common::{
    load_error_exit, read_source, record_if_traced, report, traced_text, write_stdout, TraceFormat,
};
use driver::{Backend, LoadOptions, RunErrorKind};
use reference::derivation::{TracedOutcome, TracedRun, Verdict};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The program.
    file: PathBuf,
    /// TFP'18 §7: allow conditionals of function type (also enabled by a
    /// line `-- runestone-options: or-conditionals` in the program).
    #[arg(long)]
    or_conditionals: bool,
    /// The step limit of each evaluation (default: the reference's).
    #[arg(long)]
    fuel: Option<u64>,
    /// The memory limit of each run, e.g. `512M`, `8G` (default: the
    /// program's `-- runestone-options: memory-limit=SIZE`, or half of this
    /// machine's memory): an array past it ends the run with a located error.
    #[arg(long, value_name = "SIZE", value_parser = spec::memory::MemoryLimit::parse)]
    memory_limit: Option<spec::memory::MemoryLimit>,
    /// The entry point to run.
    #[arg(short = 'e', long = "entry", default_value = "main")]
    entry: String,
    /// The backend (the optimising compiler's CPU backend unless told).
    #[arg(long, value_enum, default_value = "cpu")]
    backend: Backend,
    #[command(flatten)]
    ir: super::common::IrChoice,
    /// With `--backend reference`: print the derivation (the TFP'18
    /// pipeline's phases and the evaluation, Σ ⊢ e ↓ r, each phase up to
    /// `reference::derivation::NODES_PER_PHASE` nodes): `text` (the
    /// default) or `json` (schema `proofs-notes/derivation.schema.json`).
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, default_missing_value = "text")]
    trace: Option<TraceFormat>,
}

pub fn run(args: Args) -> ExitCode {
    if args.trace.is_some() && args.backend != Backend::Reference {
        eprintln!(
            "runestone run: --trace records the reference's derivation: use --backend reference"
        );
        return ExitCode::from(2);
    }
    let options = LoadOptions {
        or_conditionals: args.or_conditionals,
        fuel: args.fuel,
        memory_limit: args.memory_limit,
        segmented: args.ir.segmented,
    };
    let mut input = Vec::new();
    let mut loaded = match read_source(&args.file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let file = args.file.display().to_string();
    let (ran, derivation) = record_if_traced(args.trace, || {
        let program = driver::load(args.backend, &mut loaded.sources, loaded.file, options)
            .map_err(Failure::Load)?;
        std::io::stdin()
            .read_to_end(&mut input)
            .map_err(Failure::Stdin)?;
        let values = spec::value::read_values(&input).map_err(Failure::Input)?;
        program.run(&args.entry, &values).map_err(Failure::Run)
    });
    let (outcome, output, exit) = match &ran {
        Ok(result) => (
            TracedOutcome::default(),
            spec::value::print_values(result),
            ExitCode::SUCCESS,
        ),
        Err(Failure::Load(error)) => {
            let outcome = match error.diagnostic() {
                Some(diagnostic) => TracedOutcome::from_diagnostic(diagnostic),
                None => TracedOutcome {
                    verdict: Verdict::Failed,
                    ..TracedOutcome::default()
                },
            };
            (
                outcome,
                String::new(),
                load_error_exit(error, &loaded.sources),
            )
        }
        Err(Failure::Stdin(error)) => {
            eprintln!("error: cannot read stdin: {error}");
            let outcome = TracedOutcome {
                verdict: Verdict::Failed,
                code: Some(RunErrorKind::Input.name()),
                ..TracedOutcome::default()
            };
            (outcome, String::new(), ExitCode::from(1))
        }
        Err(Failure::Input(error)) => {
            let id = loaded
                .sources
                .add("<stdin>", spec::value::diagnostic_text(&input));
            let diagnostic = error.to_diagnostic(id);
            let exit = report(&diagnostic, &loaded.sources);
            let outcome = TracedOutcome {
                verdict: Verdict::Failed,
                code: Some(RunErrorKind::Input.name()),
                message: Some(&error.message),
                span: None,
            };
            (outcome, String::new(), exit)
        }
        Err(Failure::Run(error)) => {
            eprintln!("{error}");
            let outcome = TracedOutcome {
                verdict: Verdict::Failed,
                code: Some(error.kind.name()),
                message: Some(&error.message),
                span: error.span,
            };
            (outcome, String::new(), ExitCode::from(1))
        }
    };
    let run = TracedRun {
        command: "run",
        file: &file,
        outcome,
        output: &output,
    };
    write_stdout(&traced_text(args.trace, &derivation, &run, &loaded.sources));
    exit
}

/// Why `run` produced no values.
enum Failure {
    Load(driver::LoadError),
    Stdin(std::io::Error),
    Input(spec::value::ValueError),
    Run(driver::RunError),
}
