//! `runestone`: the command line of the reference, the optimising compiler and
//! the differential tester. Each subcommand lives in its own module of `cli/`.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
