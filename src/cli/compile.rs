//! `runestone compile FILE`: the optimising compiler's front end.
//!
//! Today it parses and type-checks (`--dump typed` prints the inferred type of
//! every top-level binding, `main : [n]i32 -> i32`); `--timings` prints the
//! wall time of each phase on stderr. Later phases are offered as `--dump`
//! values only once they exist.

use clap::ValueEnum;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::common::{read_source, report};

#[derive(clap::Args)]
pub struct Args {
    /// The program to compile.
    file: PathBuf,
    /// Print the program after this phase.
    #[arg(long, value_enum)]
    dump: Option<Phase>,
    /// Print the wall time of each phase on stderr.
    #[arg(long)]
    timings: bool,
}

/// The phases whose result can be printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Phase {
    /// The type of every top-level binding after type inference.
    Typed,
}

pub fn run(args: Args) -> ExitCode {
    let loaded = match read_source(&args.file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut timings: Vec<(&str, Duration)> = Vec::new();
    let started = Instant::now();
    let parsed = spec::syntax::parse_program(loaded.file, loaded.text());
    timings.push(("parse", started.elapsed()));
    let program = match parsed {
        Ok(program) => program,
        Err(diagnostic) => {
            print_timings(args.timings, &timings);
            return report(&diagnostic, &loaded.sources);
        }
    };
    let started = Instant::now();
    let checked = spec::recursion::with_stack(|| optimized::typecheck::check_program(&program));
    timings.push(("typecheck", started.elapsed()));
    print_timings(args.timings, &timings);
    let checked = match checked {
        Ok(checked) => checked,
        Err(diagnostics) => {
            for diagnostic in &diagnostics {
                eprint!("{}", diagnostic.render(&loaded.sources));
            }
            return ExitCode::from(1);
        }
    };
    match args.dump {
        Some(Phase::Typed) => {
            for binding in &checked.bindings {
                println!("{}", binding.signature());
            }
        }
        None => eprintln!(
            "runestone compile: {} type-checks; the phases after type checking are not implemented yet",
            args.file.display()
        ),
    }
    ExitCode::SUCCESS
}

fn print_timings(enabled: bool, timings: &[(&str, Duration)]) {
    if enabled {
        for (phase, duration) in timings {
            eprintln!("{phase:>10}: {:>10.3} ms", duration.as_secs_f64() * 1000.0);
        }
    }
}
