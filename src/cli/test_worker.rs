//! `runestone test-worker PROGRAM --backend B [--fuel N] [--memory-limit BYTES]
//! [--exclude-tag T]...`
//! (hidden): what `runestone test` runs in a child process for each program
//! and backend. It tests the one program
//! ([`driver::cases::test_program_observed`]) and writes each case's events
//! to stdout as they happen ([`driver::worker_events`]), then, on the gpu
//! backend, what the GPU driver did, and `finished`. Exit status 0 once
//! every event is written (failures are events); the supervisor
//! ([`driver::isolation`]) takes any other end for a crash.

use driver::cases::test_program_observed;
use driver::load::gpu_usage;
use driver::worker_events::{EventWriter, WorkerEvent};
use driver::{Backend, LoadOptions};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The program.
    program: PathBuf,
    #[arg(long, value_enum)]
    backend: Backend,
    /// `cpu`: run through the segmented IR (the fused IR flattened into
    /// `segmap`/`segred`/`segscan`, `runestone compile --dump seg`) instead
    /// of the SOAC IR, while both paths exist; other backends ignore it.
    #[arg(long)]
    segmented: bool,
    #[arg(long)]
    fuel: Option<u64>,
    #[arg(long, value_parser = spec::memory::MemoryLimit::parse)]
    memory_limit: Option<spec::memory::MemoryLimit>,
    #[arg(long = "exclude-tag", value_name = "TAG")]
    exclude_tags: Vec<String>,
}

pub fn run(args: Args) -> ExitCode {
    let options = LoadOptions {
        or_conditionals: false,
        fuel: args.fuel,
        memory_limit: args.memory_limit,
        segmented: args.segmented,
    };
    let mut events = EventWriter::new(std::io::stdout());
    test_program_observed(
        &args.program,
        args.backend,
        options,
        &args.exclude_tags,
        &mut events,
    );
    if args.backend == Backend::Gpu {
        if let Some(usage) = gpu_usage() {
            events.send(&WorkerEvent::GpuUsage(usage));
        }
    }
    events.send(&WorkerEvent::Finished);
    match events.finish() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("runestone test-worker: cannot write its events: {error}");
            ExitCode::from(1)
        }
    }
}
