//! `runestone`: the command line of the reference, the optimising compiler and
//! the differential tester. Each subcommand lives in its own module of `cli/`.

mod cli;

/// The compilers and the campaigns build and drop many small trees
/// (environments, types, names): half of a campaign's time went to the
/// system allocator (`perf`, value oracle); with mimalloc the value
/// campaign runs 1.6× as many programs per second (fuzz/README.md). The
/// counting wrapper gives the memory limit the live heap (`spec::memory`).
#[global_allocator]
static ALLOCATOR: spec::memory::CountingAllocator<mimalloc::MiMalloc> =
    spec::memory::CountingAllocator::new(mimalloc::MiMalloc);

fn main() -> std::process::ExitCode {
    cli::main()
}
