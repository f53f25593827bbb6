//! `runestone run FILE [-e ENTRY] [--backend B]`: runs an entry point on
//! Futhark values read from stdin and prints the result values, through the
//! backend abstraction of [`super::backends`]. Run-time errors print their
//! source location and exit 1; a backend that cannot run programs yet exits 2.

use super::common::{load_program, report};
use driver::{Backend, LoadOptions};
use std::io::Read;
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
    /// The step limit of each evaluation (default: the reference's).
    #[arg(long)]
    fuel: Option<u64>,
    /// The memory limit of each run, e.g. `512M`, `8G` (default: the
    /// program's `-- runestone-options: memory-limit=SIZE`, or half of this
    /// machine's memory): an array past it ends the run with a located error.
    #[arg(long, value_name = "SIZE", value_parser = spec::memory::MemoryLimit::parse)]
    memory_limit: Option<spec::memory::MemoryLimit>,
    /// The entry point to run.
    #[arg(short = 'e', long = "entry", default_value = "main")]
    entry: String,
    /// The backend (the optimising compiler's CPU backend unless told).
    #[arg(long, value_enum, default_value = "cpu")]
    backend: Backend,
    #[command(flatten)]
    ir: super::common::IrChoice,
}

pub fn run(args: Args) -> ExitCode {
    let options = LoadOptions {
        or_conditionals: args.or_conditionals,
        fuel: args.fuel,
        memory_limit: args.memory_limit,
        segmented: args.ir.segmented,
    };
    let (mut loaded, program) = match load_program(&args.file, args.backend, options) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut input = Vec::new();
    if let Err(err) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("error: cannot read stdin: {err}");
        return ExitCode::from(1);
    }
    let values = match spec::value::read_values(&input) {
        Ok(v) => v,
        Err(err) => {
            let id = loaded
                .sources
                .add("<stdin>", spec::value::diagnostic_text(&input));
            return report(&err.to_diagnostic(id), &loaded.sources);
        }
    };
    match program.run(&args.entry, &values) {
        Ok(result) => {
            print!("{}", spec::value::print_values(&result));
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{err}");
            ExitCode::from(1)
        }
    }
}
