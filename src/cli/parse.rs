//! `runestone parse FILE`: parse a program and print it normalised, or print
//! the syntax error and exit 1.

use super::common::{read_source, report};
use std::path::PathBuf;
use std::process::ExitCode;

/// Parse a `.fut` file and print it normalised (the printed program parses
/// back to the same syntax tree).
#[derive(clap::Args)]
pub struct Args {
    /// The program to parse.
    file: PathBuf,
    /// Print the syntax tree (Rust debug notation) instead of the program.
    #[arg(long)]
    tree: bool,
}

pub fn run(args: Args) -> ExitCode {
    let source = match read_source(&args.file) {
        Ok(source) => source,
        Err(code) => return code,
    };
    match spec::syntax::parse_program(source.file, source.text()) {
        Ok(program) if args.tree => {
            println!("{program:#?}");
            ExitCode::SUCCESS
        }
        Ok(program) => {
            print!("{}", spec::syntax::printer::print_program(&program));
            ExitCode::SUCCESS
        }
        Err(diagnostic) => report(&diagnostic, &source.sources),
    }
}
