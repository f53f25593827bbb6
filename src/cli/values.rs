//! `runestone values`: read Futhark values (textual, binary, or both mixed) and
//! print them normalised, as text or in Futhark's binary data format.

use spec::source::SourceMap;
use spec::value;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Read Futhark values and print them normalised, one per line.
#[derive(clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    /// The file to read; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Write the values in Futhark's binary data format instead of text.
    #[arg(long)]
    binary: bool,
}

const HELP: &str = "\
The input is Futhark's value format as `futhark test` and `futhark dataset` use
it: literals such as 1i32, -3i8, 0xffu8, 2.5f32, f64.nan, true; arrays
[[1, 2], [3, 4]]; empty arrays empty([2][0]i32); `--` comments; and binary
values (`b`, version 2, rank, type, shape, data) mixed freely with text. As a
runestone extension, tuples (1i32, true), records {a = 1i32} and sums #some 1i32
are accepted too.

The output gives every literal its type suffix and every float the shortest
digits that read back to the same bits: a canonical form. With --binary the
values are written in the binary format instead (primitives and arrays of
primitives only).

Exit status: 0 on success; 1 if the input is malformed (a diagnostic with
file:line:col is printed on stderr), cannot be read, or cannot be written in
binary.

Examples:
  echo '[1, 2] 0xffu8 1e3' | runestone values
  runestone values --binary input.txt > input.bin
  runestone values input.bin";

pub fn run(args: Args) -> ExitCode {
    let (name, input) = match read_input(args.file.as_deref()) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("runestone values: {message}");
            return ExitCode::from(1);
        }
    };
    let values = match value::read_values(&input) {
        Ok(values) => values,
        Err(error) => {
            let mut sources = SourceMap::new();
            let file = sources.add(name, value::diagnostic_text(&input));
            eprint!("{}", error.to_diagnostic(file).render(&sources));
            return ExitCode::from(1);
        }
    };
    let output = if args.binary {
        match value::write_values_binary(&values) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("runestone values: {error}");
                return ExitCode::from(1);
            }
        }
    } else {
        value::print_values(&values).into_bytes()
    };
    let mut stdout = io::stdout().lock();
    match stdout.write_all(&output).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("runestone values: cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}

/// The input's name for diagnostics and its bytes.
fn read_input(file: Option<&std::path::Path>) -> Result<(String, Vec<u8>), String> {
    let mut bytes = Vec::new();
    match file {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            bytes = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
            Ok((name, bytes))
        }
        _ => {
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(("<stdin>".to_string(), bytes))
        }
    }
}
