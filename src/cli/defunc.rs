//! `runestone defunc FILE [--inline]`: prints the program after TFP'18
//! defunctionalisation: by default with the lambda lifting of §5.3 (TFP'18
//! Fig. 1a prints as Fig. 1b, up to names), with `--inline` as the literal
//! Fig. 5 translation (D-App copies the function body).

use super::common::{executed, read_source, record_if_traced, report, Executed, TraceFormat};
use reference::core::printer::print_target;
use reference::derivation::{TracedOutcome, TracedRun};
use reference::front::pipeline::{compile_with, Options};
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
    /// Print Fig. 5's translation, which inlines every application.
    #[arg(long)]
    inline: bool,
    /// Print the derivation (the phases of the reference's TFP'18
    /// pipeline: typing, uniqueness, both defunctionalisations):
    /// `text` (the default) or `json` (schema
    /// `proofs-notes/derivation.schema.json`).
    #[arg(long, value_enum, value_name = "FORMAT", num_args = 0..=1, default_missing_value = "text")]
    trace: Option<TraceFormat>,
}

impl Args {
    /// `defunc FILE --trace json` (what `runestone explain` runs).
    pub fn traced_json(file: PathBuf) -> Args {
        Args {
            file,
            or_conditionals: false,
            inline: false,
            trace: Some(TraceFormat::Json),
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    execute(args).finish()
}

/// `defunc` up to what it prints on stdout (diagnostics go to stderr).
pub fn execute(args: Args) -> Executed {
    let mut loaded = match read_source(&args.file) {
        Ok(l) => l,
        Err(exit) => return Executed::not_started(exit),
    };
    let mut options = Options::from_source(&loaded.sources.get(loaded.file).text);
    options.or_conditionals |= args.or_conditionals;
    let (compiled, derivation) = record_if_traced(args.trace, || {
        compile_with(&mut loaded.sources, loaded.file, options)
    });
    let file = args.file.display().to_string();
    let (outcome, output, exit) = match &compiled {
        Ok(compiled) => {
            let target = if args.inline {
                &compiled.inline.target
            } else {
                &compiled.lifted.target
            };
            (
                TracedOutcome::default(),
                print_target(target),
                ExitCode::SUCCESS,
            )
        }
        Err(diagnostic) => {
            let outcome = TracedOutcome::from_diagnostic(diagnostic);
            (outcome, String::new(), report(diagnostic, &loaded.sources))
        }
    };
    let run = TracedRun {
        command: "defunc",
        file: &file,
        outcome,
        output: &output,
    };
    executed(args.trace, derivation, &run, &loaded.sources, exit)
}
