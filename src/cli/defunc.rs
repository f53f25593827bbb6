//! `runestone defunc FILE [--inline]`: prints the program after TFP'18
//! defunctionalisation: by default with the lambda lifting of §5.3 (TFP'18
//! Fig. 1a prints as Fig. 1b, up to names), with `--inline` as the literal
//! Fig. 5 translation (D-App copies the function body).

use super::common::{read_source, report};
use reference::core::printer::print_target;
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
}

pub fn run(args: Args) -> ExitCode {
    let mut loaded = match read_source(&args.file) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut options = Options::from_source(&loaded.sources.get(loaded.file).text);
    options.or_conditionals |= args.or_conditionals;
    let compiled = match compile_with(&mut loaded.sources, loaded.file, options) {
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
