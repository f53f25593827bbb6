//! `runestone serve FILE [--backend B]`: the program as a Futhark server
//! executable, speaking the server protocol (`driver::server`) on stdin and
//! stdout, for `futhark-server` clients and tools built on the protocol.

use super::common::load_program;
use driver::{Backend, LoadOptions};
use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

/// Serve a program over Futhark's server protocol on stdin/stdout.
#[derive(clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    /// The program.
    file: PathBuf,
    /// The backend (the optimising compiler's CPU backend unless told).
    #[arg(long, value_enum, default_value = "cpu")]
    backend: Backend,
    /// TFP'18 §7: allow conditionals of function type (also enabled by a
    /// line `-- runestone-options: or-conditionals` in the program).
    #[arg(long)]
    or_conditionals: bool,
    /// The reference's step limit per call (default: the reference's).
    #[arg(long)]
    fuel: Option<u64>,
    /// The memory limit of each run, e.g. `512M`, `8G` (default: the
    /// program's `-- runestone-options: memory-limit=SIZE`, or half of this
    /// machine's memory): an array past it ends the run with a located error.
    #[arg(long, value_name = "SIZE", value_parser = spec::memory::MemoryLimit::parse)]
    memory_limit: Option<spec::memory::MemoryLimit>,
}

const HELP: &str = "\
The program is compiled once; `%%% OK` on stdout says it is ready. Then each
line on stdin is a command of Futhark's server protocol (docs/server-protocol.rst
of Futhark 0.25): call, restore, store, free, rename, inputs, outputs, output,
entry_points, types, kind, type, clear, report, pause_profiling,
unpause_profiling, set_tuning_param, tuning_params, tuning_param_class,
attributes; the array commands rank, elemtype, new_array, set, shape, index,
zip, unzip; the record commands fields, new, project; the sum commands
variants, construct, destruct, variant. Each answer ends with `%%% OK`; a
failed command answers `%%% FAILURE` and its message first.

`call ENTRY O1 .. ON I1 .. IM` stores an entry point's N results (a returned
tuple is several results) and prints `runtime: MICROSECONDS`. Values are read
and written in Futhark's binary data format (primitives and arrays of
primitives); opaque values (tuples, records, sums) are stored in runestone's
text value syntax, which `restore` reads back.

Exit status: 0 at the end of stdin; 1 if the program is rejected (its
diagnostic is printed on stderr, nothing on stdout); 2 if the backend is
unavailable.

Example, with the Python client (pip install futhark-server futhark-data):
  from futhark_server import Server
  import numpy as np
  with Server('runestone', 'serve', 'prog.fut', '--backend', 'cpu') as s:
      s.put_value('xs', np.arange(10, dtype=np.int32))
      s.cmd_call('main', 'out', 'xs')
      print(s.get_value('out'))";

pub fn run(args: Args) -> ExitCode {
    let options = LoadOptions {
        or_conditionals: args.or_conditionals,
        fuel: args.fuel,
        memory_limit: args.memory_limit,
        segmented: false,
    };
    let (_, program) = match load_program(&args.file, args.backend, options) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let stdin = io::stdin().lock();
    let stdout = io::stdout().lock();
    match spec::recursion::with_stack(|| driver::server::serve(program, stdin, stdout)) {
        Ok(()) => ExitCode::SUCCESS,
        // The client closed its end: the session is over.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("runestone serve: {e}");
            ExitCode::from(1)
        }
    }
}
