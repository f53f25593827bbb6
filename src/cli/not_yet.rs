//! Subcommands that are announced but not implemented yet: they say what they
//! will do and exit with status 2, never pretending to work.

use std::process::ExitCode;

/// Whatever arguments were given; they are reported, not interpreted.
#[derive(clap::Args)]
pub struct Args {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

pub fn run(command: &str, purpose: &str, _args: Args) -> ExitCode {
    eprintln!("runestone {command}: not implemented yet; it will {purpose}.");
    ExitCode::from(2)
}
