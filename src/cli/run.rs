//! `runestone run FILE [-e ENTRY] [--backend reference]`: runs an entry point
//! on Futhark values read from stdin and prints the result values. Run-time
//! errors print their source location and exit 1; the `cpu` and `gpu`
//! backends are not implemented yet (exit 2).

use super::common::{read_source, report};
use reference::core::pipeline::{compile_with, Options};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Which implementation runs the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    Reference,
    Cpu,
    Gpu,
}

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
    /// The entry point to run.
    #[arg(short = 'e', long = "entry", default_value = "main")]
    entry: String,
    #[arg(long, value_enum, default_value = "reference")]
    backend: Backend,
}

/// Says that a backend is not implemented yet (exit 2), if it is not the reference.
pub fn require_reference(backend: Backend) -> Result<(), ExitCode> {
    match backend {
        Backend::Reference => Ok(()),
        other => {
            eprintln!(
                "runestone: the {other:?} backend is not implemented yet; use --backend reference."
            );
            Err(ExitCode::from(2))
        }
    }
}

pub fn run(args: Args) -> ExitCode {
    if let Err(code) = require_reference(args.backend) {
        return code;
    }
    let mut loaded = match read_source(&args.file) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut options = Options::from_source(&loaded.sources.get(loaded.file).text);
    options.or_conditionals |= args.or_conditionals;
    if let Some(fuel) = args.fuel {
        options.fuel = fuel;
    }
    let compiled = match compile_with(&mut loaded.sources, loaded.file, options) {
        Ok(c) => c,
        Err(d) => return report(&d, &loaded.sources),
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
    match compiled.run(&args.entry, &values) {
        Ok(result) => {
            print!("{}", spec::value::print_values(&result));
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("{}", describe_run_error(&err, &loaded.sources));
            ExitCode::from(1)
        }
    }
}

pub use reference::core::harness::describe_run_error;
