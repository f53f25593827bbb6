//! Argument parsing and dispatch. One module per subcommand; each exposes
//! `Args` (clap) and `run(Args) -> ExitCode`.
//!
//! Exit codes, for every subcommand: 0 success, 1 the input was rejected (a
//! diagnostic was printed) or a check failed, 2 a usage error or a command that is
//! not implemented yet.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod ablate;
mod bench;
mod benchcmp;
mod check;
mod common;
mod compile;
mod defunc;
mod devices;
mod explain;
mod fuzz;
mod nested;
mod parse;
mod reduce;
mod run;
mod serve;
mod statistics;
mod test;
mod test_worker;
mod values;

/// Static interpretation of higher-order modules, defunctionalisation and
/// flattening of nested data parallelism: a reference (the papers' judgments,
/// executable) and an optimising compiler, for a Futhark subset.
#[derive(Parser)]
#[command(name = "runestone", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a program and print it normalised (or its syntax error, exit 1).
    Parse(parse::Args),
    /// Read Futhark values (text or binary) and print them normalised.
    Values(values::Args),
    /// λP/λC programs: type-check, closure-convert, flatten to λA, evaluate
    /// both sides and check the thesis' theorems.
    Nested(nested::Args),
    /// Run a differential-testing or theorem-checking campaign.
    Fuzz(fuzz::Args),
    /// Premise ablation: run a paper's campaign once per premise of its
    /// rules, that premise switched off, and report which theorem noticed
    /// (`--list` prints the registry of premises).
    Ablate(ablate::Args),
    /// Compile a program with the optimising compiler (type inference, static
    /// interpretation, monomorphisation, defunctionalisation, the SOAC IR and
    /// its passes, the CPU backend); `--dump PHASE` prints a phase's result
    /// (`typed`, `static` and `core` run the front end only), `--timings` the
    /// time of each phase.
    Compile(compile::Args),
    /// List the Vulkan devices and mark the one the GPU backend uses.
    Devices(devices::Args),
    /// Run the reference on a program: elaborate, interpret statically, check
    /// Proposition 6.1.
    Check(check::Args),
    /// Run an entry point on values read from stdin (`--backend cpu`, the
    /// default; `reference`; `gpu` on a Vulkan device).
    Run(run::Args),
    /// Run the `-- ==` test cases of programs and print `N passed, N failed`
    /// (results compared as `futhark test` compares them: floats within a
    /// relative 0.2 %); each program runs in a worker process, so a crash or
    /// a timeout (`--timeout`) is its failure, not the end of the run.
    Test(test::Args),
    /// One program on one backend, its cases' events on stdout: what `test`
    /// runs in each worker process.
    #[command(hide = true)]
    TestWorker(test_worker::Args),
    /// Serve a program over Futhark's server protocol on stdin/stdout (what
    /// `futhark test`/`bench` and the `futhark-server` Python client speak).
    Serve(serve::Args),
    /// Reduce a program on which the reference and the optimising compiler
    /// differ to a small test program on which they still do.
    Reduce(reduce::Args),
    /// Print a program after TFP'18 defunctionalisation.
    Defunc(defunc::Args),
    /// Write one self-contained HTML page to explore what the reference
    /// derived for a program: collapsible derivation trees, each rule linked
    /// to its paper, figure and rules.toml entry, the source span of a node
    /// on hover, search by rule id, a failed premise in place with its
    /// diagnostic, and for λP/λC a stepper over both sides of Theorem 6.37.
    Explain(explain::Args),
    /// Time the entry points of programs on their `-- ==` cases
    /// (`futhark bench` style): runs until the 95 % confidence interval
    /// converges; mean, interval, min and stddev per case; `--json FILE` in
    /// `futhark bench`'s layout.
    Bench(bench::Args),
    /// Compare two `bench --json` results: speedup per dataset and whether
    /// the difference is significant.
    Benchcmp(benchcmp::Args),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Parse(args) => parse::run(args),
        Command::Values(args) => values::run(args),
        Command::Nested(args) => nested::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::Ablate(args) => ablate::run(args),
        Command::Compile(args) => compile::run(args),
        Command::Devices(args) => devices::run(args),
        Command::Check(args) => check::run(args),
        Command::Run(args) => run::run(args),
        Command::Test(args) => test::run(args),
        Command::TestWorker(args) => test_worker::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Reduce(args) => reduce::run(args),
        Command::Defunc(args) => defunc::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Benchcmp(args) => benchcmp::run(args),
    }
}
