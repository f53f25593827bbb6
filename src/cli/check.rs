//! `runestone check FILE`: the reference on one program. Elaborates it with the
//! ICFP'18 rules over the paper's core, interprets it statically, and checks
//! Proposition 6.1; optionally prints the elaborated environment (Fig. 5
//! notation), the target code (Fig. 3b) and the derivation (`--trace`).

use super::common::{executed, read_source, record_if_traced, report, Executed, TraceFormat};
use reference::derivation::{Derivation, TracedOutcome, TracedRun, Verdict};
use reference::modules::{self, paper_core::PaperCore, print};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `runestone check`.
#[derive(clap::Args)]
pub struct Args {
    /// The program (`.fut`).
    file: PathBuf,
    /// Print the elaborated environment ∃T.E in the notation of ICFP'18 Fig. 5.
    #[arg(long)]
    env: bool,
    /// Print the target code of static interpretation (ICFP'18 Fig. 3b).
    #[arg(long)]
    target: bool,
    /// Print the derivation (ICFP'18 elaboration, static interpretation and
    /// Proposition 6.1's checks): `text` (the default) one rule a line,
    /// indented by depth; `json` one document of schema
    /// `proofs-notes/derivation.schema.json` on stdout.
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, default_missing_value = "text")]
    trace: Option<TraceFormat>,
}

impl Args {
    /// `check FILE --trace json` (what `runestone explain` runs).
    pub fn traced_json(file: PathBuf) -> Args {
        Args {
            file,
            env: false,
            target: false,
            trace: Some(TraceFormat::Json),
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    execute(args).finish()
}

/// `check` up to what it prints on stdout (diagnostics go to stderr).
pub fn execute(args: Args) -> Executed {
    let loaded = match read_source(&args.file) {
        Ok(loaded) => loaded,
        Err(exit) => return Executed::not_started(exit),
    };
    let file = args.file.display().to_string();
    let traced = |derivation: Derivation, outcome: TracedOutcome, output: &str, exit| {
        let run = TracedRun {
            command: "check",
            file: &file,
            outcome,
            output,
        };
        executed(args.trace, derivation, &run, &loaded.sources, exit)
    };
    let program = match spec::syntax::parse_program(loaded.file, loaded.text()) {
        Ok(program) => program,
        Err(diagnostic) => {
            let outcome = TracedOutcome::from_diagnostic(&diagnostic);
            let exit = report(&diagnostic, &loaded.sources);
            return traced(Derivation::default(), outcome, "", exit);
        }
    };
    let (outcome, derivation) =
        record_if_traced(args.trace, || modules::check_program::<PaperCore>(&program));
    let checked = match outcome {
        Ok(checked) => checked,
        Err(failure) => {
            let diagnostic = failure.to_diagnostic();
            let outcome = TracedOutcome::from_diagnostic(&diagnostic);
            let exit = report(&diagnostic, &loaded.sources);
            return traced(derivation, outcome, "", exit);
        }
    };
    let mut output = String::new();
    if args.env {
        output.push_str(&print::program_env(&checked.bound, &checked.env));
    }
    if args.target {
        output.push_str(&print::code(&checked.code()));
    }
    match &checked.verdict {
        Ok(summary) => {
            output.push_str(&format!("{summary}\n"));
            traced(
                derivation,
                TracedOutcome::default(),
                &output,
                ExitCode::SUCCESS,
            )
        }
        Err(failure) => {
            let outcome = TracedOutcome {
                verdict: Verdict::Failed,
                code: Some(spec::diagnostic::codes::ICFP18_PROPOSITION_6_1),
                message: Some(failure),
                span: None,
            };
            eprintln!("error[Proposition 6.1]: the check fails: {failure}");
            traced(derivation, outcome, &output, ExitCode::from(1))
        }
    }
}
