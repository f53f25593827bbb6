//! `runestone test PATH... [--backend reference|cpu|gpu|all] [--exclude-tag T]`: runs every
//! `-- ==` case of the given programs (directories are searched recursively
//! for `.fut` files) on the chosen backends through the driver
//! ([`driver::cases::test_program`]), prints a diff for each failure and the
//! line `N passed, N failed`; exits 1 on any failure. With `--backend all`,
//! every available backend runs, each with its own summary line, and the
//! backends that cannot run programs are listed as skipped. The gpu backend
//! also prints what its driver did: how many SOAC statement runs went to
//! the device as kernels.

use super::common::unavailable_exit;
use driver::cases::test_program;
use driver::discover::programs_under;
use driver::load::{availability, gpu_summary};
use driver::{Backend, BackendSelection, LoadOptions};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Programs or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "reference")]
    backend: BackendSelection,
    /// The reference's step limit per evaluation (default: its own, or a
    /// program's `-- runestone-options: fuel=N`).
    #[arg(long)]
    fuel: Option<u64>,
    /// Skip the blocks (`tags { T }`) and the cases (`T input ...`) tagged
    /// T, as `futhark test --exclude` does; may be repeated.
    #[arg(long = "exclude-tag", value_name = "TAG")]
    exclude_tags: Vec<String>,
}

pub fn run(args: Args) -> ExitCode {
    let selected = args.backend.backends();
    let single = selected.len() == 1;
    let options = LoadOptions {
        or_conditionals: false,
        fuel: args.fuel,
    };
    let files = programs_under(&args.paths);
    let (mut passed, mut failed) = (0, 0);
    let mut ran = Vec::new();
    let mut skipped = Vec::new();
    for backend in selected {
        if let Err(reason) = availability(backend) {
            if single {
                return unavailable_exit(backend, &reason);
            }
            skipped.push(format!("{backend} ({reason})"));
            continue;
        }
        let prefix = if single {
            String::new()
        } else {
            format!("[{backend}] ")
        };
        let (mut backend_passed, mut backend_failed) = (0, 0);
        for file in &files {
            let report = test_program(file, backend, options, &args.exclude_tags);
            for skipped in &report.skipped {
                println!("{prefix}skipped {skipped}");
            }
            for failure in &report.failures {
                println!("{prefix}{failure}");
            }
            backend_passed += report.passed;
            backend_failed += report.failures.len();
        }
        if backend == Backend::Gpu {
            if let Some(summary) = gpu_summary() {
                println!("gpu: {summary}");
            }
        }
        if !single {
            println!("{backend}: {backend_passed} passed, {backend_failed} failed");
        }
        passed += backend_passed;
        failed += backend_failed;
        ran.push(backend.name().to_string());
    }
    if !single {
        let skipped = if skipped.is_empty() {
            "none".to_string()
        } else {
            skipped.join(", ")
        };
        println!("backends run: {}; skipped: {skipped}", ran.join(", "));
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
