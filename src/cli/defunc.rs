//! `runestone defunc FILE [--inline]`: prints the program after TFP'18
//! defunctionalisation: by default with the lambda lifting of §5.3 (TFP'18
//! Fig. 1a prints as Fig. 1b, up to names), with `--inline` as the literal
//! Fig. 5 translation (D-App copies the function body).

use super::common::{read_source, report};
use reference::core::pipeline::compile;
use reference::core::printer::print_target;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The program.
    file: PathBuf,
    /// Print Fig. 5's translation, which inlines every application.
    #[arg(long)]
    inline: bool,
}

pub fn run(args: Args) -> ExitCode {
    let mut loaded = match read_source(&args.file) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let compiled = match compile(&mut loaded.sources, loaded.file) {
        Ok(c) => c,
        Err(d) => return report(&d, &loaded.sources),
    };
    let target = if args.inline {
        &compiled.inline.target
    } else {
        &compiled.lifted.target
    };
    print!("{}", print_target(target));
    ExitCode::SUCCESS
}
