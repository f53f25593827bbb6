//! The oracle campaigns of `runestone fuzz` without the CLI (the fuzz crate
//! links the GPU crate too, for the `gpu` oracle): `cargo run --release -p fuzz --example campaign -- ORACLE SEED
//! COUNT JOBS [DEPTH DECLARATIONS [extra]] [--start INDEX]` (`extra`: the generator's extra
//! mutation kinds too, `GenConfig::extra_mutations`). Prints the summary line, outcomes per
//! program kind, discards by reason, the program size distribution and the
//! number of rules fired (for `nested`: progress lines and each
//! counterexample term); exits 1 on any disagreement. Used for the issue 6
//! measurements.
//!
//! `--start INDEX` runs items `INDEX..INDEX + COUNT` instead of `0..COUNT`
//! (each item is a function of the seed and its index alone, so a
//! campaign's tail, or one item, reruns by itself; not `nested`). `ORACLE SEED --show
//! INDEX [DEPTH DECLARATIONS]` prints item INDEX's program, its
//! arguments (a `-- input` line: `runestone run --backend cpu|gpu FILE`
//! reads them on stdin) and its `Or` option, without running it (not
//! `nested`).
//!
//! `--defunc-mutants`: the `defunc` oracle's odd items are ill-typed mutants
//! (`OracleConfig::defunc_mutants`, premise ablation's TFP'18 campaign).

use fuzz::oracles::{run_campaign, OracleConfig, OracleKind};
use std::process::ExitCode;
use std::time::Duration;

/// The same allocator as the `runestone` binary, so the rates measured here
/// are the CLI's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The value of option `flag` (`--start 5`), removed from `args`.
fn take_option(args: &mut Vec<String>, flag: &str) -> Option<u64> {
    let at = args.iter().position(|a| a == flag)?;
    let value = args.get(at + 1).and_then(|v| v.parse().ok());
    args.drain(at..(at + 2).min(args.len()));
    value
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let start = take_option(&mut args, "--start");
    let show = take_option(&mut args, "--show");
    let defunc_mutants = args.iter().any(|a| a == "--defunc-mutants");
    args.retain(|a| a != "--defunc-mutants");
    if show.is_some() {
        // ORACLE SEED [DEPTH DECLARATIONS]: shift the optional pair to
        // where a campaign's command line has it.
        args.splice(
            2.min(args.len())..2.min(args.len()),
            ["1".into(), "1".into()],
        );
    }
    let number =
        |i: usize, default: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let name = args.first().map(String::as_str).unwrap_or("verdict");
    if name == "nested" {
        let config = fuzz::nested::campaign::CampaignConfig {
            seed: number(1, 0),
            count: Some(number(2, 1000)),
            jobs: number(3, 2) as usize,
            ..Default::default()
        };
        let summary = fuzz::nested::campaign::run_campaign(&config, Duration::from_secs(30), |p| {
            eprintln!("[{:>5.0}s] {} terms", p.elapsed.as_secs_f64(), p.terms)
        });
        let p = &summary.progress;
        println!(
            "nested: {} terms in {:.1}s ({:.1}/s), {} discards, {} violations",
            p.terms,
            p.elapsed.as_secs_f64(),
            p.terms as f64 / p.elapsed.as_secs_f64(),
            p.discards,
            p.violations
        );
        for c in &summary.counterexamples {
            println!(
                "COUNTEREXAMPLE term {} ({}): {}",
                c.index, c.check, c.message
            );
            println!("{}", c.program);
        }
        return if summary.counterexamples.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    let Some(kind) = OracleKind::from_name(name) else {
        eprintln!("unknown oracle {name}");
        return ExitCode::from(2);
    };
    let mut config = OracleConfig::new(kind, number(1, 0));
    config.count = Some(number(2, 1000));
    config.jobs = number(3, 2) as usize;
    config.gen.depth = number(4, u64::from(config.gen.depth)) as u32;
    config.gen.max_declarations = number(5, u64::from(config.gen.max_declarations)) as u32;
    config.gen.extra_mutations = args.get(6).is_some_and(|a| a == "extra");
    config.start = start.unwrap_or(0);
    config.defunc_mutants = defunc_mutants;
    if let Some(index) = show {
        let program = fuzz::oracles::item_program(index, &config);
        println!("-- {} seed {} item {index}", kind.name(), config.seed);
        println!("{}", program.to_file());
        return ExitCode::SUCCESS;
    }
    let summary = run_campaign(&config, Duration::from_secs(30), |p| {
        eprintln!(
            "[{:>5.0}s] {} programs",
            p.elapsed.as_secs_f64(),
            p.programs
        )
    });
    let p = &summary.progress;
    println!(
        "{}: {} programs in {:.1}s ({:.1}/s), {} valid, {} discards, {} disagreements",
        kind.name(),
        p.programs,
        p.elapsed.as_secs_f64(),
        p.programs as f64 / p.elapsed.as_secs_f64(),
        p.valid,
        p.discards,
        p.disagreements
    );
    for (k, (agree, discard, disagree)) in &summary.kinds {
        println!("  {k:<80} agree {agree:>7} discard {discard:>6} disagree {disagree:>4}");
    }
    for (reason, n) in &summary.discard_reasons {
        println!("  discard: {reason}: {n}");
    }
    if let Some(s) = summary.size_distribution() {
        println!(
            "  sizes (lines): median {}, p90 {}, max {}",
            s.median, s.p90, s.max
        );
    }
    println!("  rules fired: {}", summary.coverage.len());
    for c in &summary.counterexamples {
        println!("COUNTEREXAMPLE {}: {}\n{}", c.check, c.message, c.program);
    }
    if summary.counterexamples.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
