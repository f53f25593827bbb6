//! `runestone values` (not implemented yet).

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

pub fn run(_args: Args) -> ExitCode {
    eprintln!("runestone values: not implemented yet.");
    ExitCode::from(2)
}
