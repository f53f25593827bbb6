//! `runestone check FILE`: the reference on one program. Elaborates it with the
//! ICFP'18 rules over the paper's core, interprets it statically, and checks
//! Proposition 6.1; optionally prints the elaborated environment (Fig. 5
//! notation), the target code (Fig. 3b) and the derivation.

use super::common::{read_source, report};
use reference::modules::{self, paper_core::PaperCore, print, trace};
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
    /// Print the derivation: every rule applied, indented by depth.
    #[arg(long)]
    trace: bool,
}

pub fn run(args: Args) -> ExitCode {
    let loaded = match read_source(&args.file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let program = match spec::syntax::parse_program(loaded.file, loaded.text()) {
        Ok(program) => program,
        Err(diagnostic) => return report(&diagnostic, &loaded.sources),
    };
    let (outcome, steps) = trace::record(|| modules::check_program::<PaperCore>(&program));
    if args.trace {
        print!("{}", trace::render(&steps));
    }
    let checked = match outcome {
        Ok(checked) => checked,
        Err(failure) => return report(&failure.to_diagnostic(), &loaded.sources),
    };
    if args.env {
        print!("{}", print::program_env(&checked.bound, &checked.env));
    }
    if args.target {
        print!("{}", print::code(&checked.code()));
    }
    match &checked.verdict {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("error[Proposition 6.1]: the check fails: {failure}");
            ExitCode::from(1)
        }
    }
}
