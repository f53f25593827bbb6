//! `runestone test PATH... [--backend reference]`: runs every `-- ==` case of
//! the given programs (directories are searched recursively for `.fut`
//! files), prints a diff for each failure and the line `N passed, N failed`;
//! exits 1 on any failure. The engine is `reference::core::harness`.

use super::run::{require_reference, Backend};
use reference::core::harness::{collect_programs, test_program, Summary};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Programs or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "reference")]
    backend: Backend,
}

pub fn run(args: Args) -> ExitCode {
    if let Err(code) = require_reference(args.backend) {
        return code;
    }
    let mut files = Vec::new();
    for p in &args.paths {
        collect_programs(p, &mut files);
    }
    let mut summary = Summary::default();
    for f in &files {
        test_program(f, &mut summary);
    }
    for failure in &summary.failures {
        println!("{failure}");
    }
    println!("{} passed, {} failed", summary.passed, summary.failed);
    if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
