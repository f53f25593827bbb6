//! `runestone fuzz --oracle nested --seed S (--count N | --time T) [--jobs J]`:
//! a theorem-checking campaign. Prints a progress line every few seconds
//! (terms/s, discards, violations), a summary with every check's verdict
//! counts and a rule-coverage table; writes each shrunk counterexample as a
//! ready-to-commit `.lp` test program into the directory it names; exits 1 on
//! any violation.
//!
//! `--oracle verdict` / `--oracle defunc` / `--oracle modules` /
//! `--oracle value` / `--oracle gpu` / `--oracle optimisation`: the oracles
//! of `fuzz::oracles` on generated programs, with the same progress lines,
//! summary (outcomes per program kind, discards by reason, the distribution
//! of program sizes in lines), rule-coverage table (every rule of the
//! oracle's papers in `proofs-notes/rules.toml`, `never` included) and
//! `.fut` counterexamples; exit 1 on any disagreement. `gpu` first opens
//! the Vulkan device and checks `spirv-val` (exit 2 with the reason when
//! either is missing) and adds the device's work to the summary: programs
//! that ran a kernel, kernel runs, validation messages, modules checked by
//! `spirv-val`.
//!
//! `--oracle corpus PATH...`: the corpus oracle (`fuzz::oracles::corpus`)
//! on every `.fut` program under the paths (directories searched
//! recursively): the reference and the optimising compiler's CPU backend
//! must give each program the same verdict, and each of its `-- ==` cases
//! the same values or the same run-time error. Prints each difference, a
//! progress line every 50 programs and a summary (programs agreeing,
//! differing, discarded, by reason); exit 1 on any difference.
//!
//! `--json FILE` writes a campaign's totals and findings (seed, index,
//! oracle, check, message, signature, shrunk program) as JSON; the text
//! summary lists the findings by signature (`fuzz::signature`), so that
//! repeated findings of one bug count once.
//!
//! `--emit-tower N`: print the functor-tower benchmark (`fuzz::tower`) with
//! about N functor applications.

use fuzz::nested::campaign::{run_campaign, CampaignConfig};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Which oracle: `nested` (Leshchinskiy's Theorems 5.27 and 6.37),
    /// `verdict` (reference vs optimized accept/reject), `defunc` (TFP'18
    /// Theorems 1–2, Corollary 1 on generated programs), `modules` (ICFP'18
    /// Proposition 6.1 on generated module programs), `value` (reference vs
    /// optimized CPU: compile-time verdicts, values, run-time errors), `gpu`
    /// (optimized CPU vs the GPU backend on a Vulkan device: values,
    /// run-time errors, no validation message, every SPIR-V module passes
    /// `spirv-val`), `optimisation` (the optimising compiler's own output:
    /// constant folding complete, its IR and core checkers rejecting a
    /// broken form of the program), `corpus` (reference vs optimized CPU on
    /// the programs under PATH... and their `-- ==` cases).
    #[arg(long, required_unless_present = "emit_tower")]
    oracle: Option<String>,
    /// Programs or directories (`--oracle corpus` only).
    paths: Vec<PathBuf>,
    /// Print the functor-tower benchmark program with about N functor
    /// applications (`fuzz::tower`) on stdout, and nothing else.
    #[arg(long, value_name = "N")]
    emit_tower: Option<usize>,
    /// Seed of the campaign (term i is generated from (seed, i) alone).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Number of terms.
    #[arg(long, conflicts_with = "time")]
    count: Option<u64>,
    /// Duration, e.g. `30s`, `5m`. The run ends at most 5 s after it:
    /// programs still being examined then (a slow program, a long shrink)
    /// are abandoned and counted apart in the summary.
    #[arg(long)]
    time: Option<String>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Where shrunk counterexamples are written.
    /// (default: `fuzz-counterexamples/ORACLE`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Size budget of generated terms (`nested`); expression depth of
    /// generated programs (other oracles; default 3).
    #[arg(long)]
    size: Option<usize>,
    /// Most top-level function declarations of generated programs besides
    /// the entry point (default 2; not `nested`).
    #[arg(long)]
    declarations: Option<u32>,
    /// Also write the campaign as JSON to FILE: its totals, and every
    /// finding with its seed, index, oracle, check, message, signature and
    /// shrunk program (for `corpus`: each difference, with the program).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// One finding of a campaign, for `--json` and the signature table.
struct Finding<'a> {
    index: u64,
    check: &'a str,
    message: &'a str,
    program: &'a str,
}

impl<'a> Finding<'a> {
    fn new(index: u64, check: &'a str, message: &'a str, program: &'a str) -> Finding<'a> {
        Finding {
            index,
            check,
            message,
            program,
        }
    }
}

/// Prints the findings' signatures with their counts, and writes the
/// campaign's JSON document when asked; false when it cannot be written.
fn report_findings(
    args: &Args,
    oracle: &str,
    totals: serde_json::Value,
    findings: &[Finding],
) -> bool {
    let mut buckets: std::collections::BTreeMap<String, u64> = Default::default();
    let mut listed = Vec::new();
    for finding in findings {
        let signature = fuzz::signature::Signature::of(oracle, finding.check, finding.program);
        *buckets.entry(signature.key()).or_default() += 1;
        listed.push(serde_json::json!({
            "seed": args.seed,
            "index": finding.index,
            "oracle": oracle,
            "check": finding.check,
            "message": finding.message,
            "signature": signature.key(),
            "constructs": signature.constructs,
            "program": finding.program,
        }));
    }
    if !buckets.is_empty() {
        println!(
            "
findings by signature:"
        );
        for (key, count) in &buckets {
            println!("  {count:>5}  {key}");
        }
    }
    let Some(path) = &args.json else {
        return true;
    };
    let mut document = totals;
    document["oracle"] = serde_json::json!(oracle);
    document["seed"] = serde_json::json!(args.seed);
    document["findings"] = serde_json::json!(listed);
    document["signatures"] = serde_json::json!(buckets);
    match std::fs::write(path, document.to_string() + "\n") {
        Ok(()) => true,
        Err(error) => {
            eprintln!("runestone fuzz: cannot write {}: {error}", path.display());
            false
        }
    }
}

fn parse_duration(text: &str) -> Option<Duration> {
    let (number, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = number.parse().ok()?;
    match unit {
        "" | "s" => Some(Duration::from_secs(n)),
        "m" => Some(Duration::from_secs(n * 60)),
        "h" => Some(Duration::from_secs(n * 3600)),
        _ => None,
    }
}

pub fn run(args: Args) -> ExitCode {
    if let Some(applications) = args.emit_tower {
        print!("{}", fuzz::tower::program(applications));
        return ExitCode::SUCCESS;
    }
    let oracle_name = args.oracle.clone().unwrap_or_default();
    if oracle_name == "corpus" {
        return run_corpus(&args);
    }
    if !args.paths.is_empty() {
        eprintln!("runestone fuzz: only `--oracle corpus` takes paths");
        return ExitCode::from(2);
    }
    let oracle = fuzz::oracles::OracleKind::from_name(&oracle_name);
    if oracle_name != "nested" && oracle.is_none() {
        eprintln!(
            "runestone fuzz: the `{}` oracle is not implemented yet (available: nested, verdict, defunc, modules, value, gpu, optimisation, corpus).",
            oracle_name
        );
        return ExitCode::from(2);
    }
    let time = match args.time.as_deref().map(parse_duration) {
        Some(None) => {
            eprintln!(
                "runestone fuzz: cannot read the duration `{}` (use 30s, 5m, 1h)",
                args.time.unwrap_or_default()
            );
            return ExitCode::from(2);
        }
        Some(Some(duration)) => Some(duration),
        None => None,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("fuzz-counterexamples/{}", oracle_name)));
    let count = if time.is_some() {
        None
    } else {
        Some(args.count.unwrap_or(1000))
    };
    if let Some(kind) = oracle {
        return run_oracle(kind, &args, count, time, &out);
    }
    let config = CampaignConfig {
        seed: args.seed,
        count,
        time,
        jobs: args.jobs.max(1),
        term_budget: args.size.unwrap_or(24),
        ..CampaignConfig::default()
    };
    println!(
        "nested campaign: seed {}, {}, {} job(s)",
        config.seed,
        match (config.count, config.time) {
            (Some(n), _) => format!("{n} terms"),
            (None, Some(t)) => format!("{}s", t.as_secs()),
            _ => String::new(),
        },
        config.jobs
    );
    let summary = run_campaign(&config, Duration::from_secs(3), |progress| {
        let seconds = progress.elapsed.as_secs_f64().max(1e-9);
        println!(
            "[{:>6.0}s] {} terms ({:.1}/s), {} discards, {} violations",
            seconds,
            progress.terms,
            progress.terms as f64 / seconds,
            progress.discards,
            progress.violations
        );
    });
    let progress = &summary.progress;
    println!(
        "\nsummary: {} terms in {:.1}s ({:.1}/s), {} discards ({} ill-typed), {} violations",
        progress.terms,
        progress.elapsed.as_secs_f64(),
        progress.terms as f64 / progress.elapsed.as_secs_f64().max(1e-9),
        progress.discards,
        progress.ill_typed,
        progress.violations
    );
    print_abandoned(summary.abandoned, "terms");
    println!(
        "\n{:<50} {:>8} {:>8} {:>8}",
        "check", "holds", "unknown", "violated"
    );
    for (check, (holds, unknown, violated)) in &summary.verdicts {
        println!("{check:<50} {holds:>8} {unknown:>8} {violated:>8}");
    }
    println!("\nrule coverage (times fired):");
    print!(
        "{}",
        fuzz::rule_coverage::render_table(&summary.coverage, &["L05 "])
    );
    let findings: Vec<Finding> = summary
        .counterexamples
        .iter()
        .map(|c| Finding::new(c.index, &c.check, &c.message, &c.program))
        .collect();
    let totals = serde_json::json!({
        "programs": progress.terms,
        "discards": progress.discards,
        "disagreements": progress.violations,
        "abandoned": summary.abandoned,
        "elapsed_seconds": progress.elapsed.as_secs_f64(),
    });
    if !report_findings(&args, "nested", totals, &findings) {
        return ExitCode::from(1);
    }
    if !summary.counterexamples.is_empty() {
        if let Err(error) = std::fs::create_dir_all(&out) {
            eprintln!("cannot create {}: {error}", out.display());
        }
        for counterexample in &summary.counterexamples {
            let extension = match counterexample.language {
                fuzz::nested::campaign::Language::P => "lp",
                fuzz::nested::campaign::Language::C => "lc",
            };
            let path = out.join(format!(
                "seed{}_term{}.{extension}",
                config.seed, counterexample.index
            ));
            match std::fs::write(&path, &counterexample.program) {
                Ok(()) => println!(
                    "counterexample ({}): {}\n  {}",
                    counterexample.check,
                    path.display(),
                    counterexample.message
                ),
                Err(error) => eprintln!("cannot write {}: {error}", path.display()),
            }
        }
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn run_oracle(
    kind: fuzz::oracles::OracleKind,
    args: &Args,
    count: Option<u64>,
    time: Option<Duration>,
    out: &std::path::Path,
) -> ExitCode {
    let mut config = fuzz::oracles::OracleConfig::new(kind, args.seed);
    config.count = count;
    config.time = time;
    config.jobs = args.jobs.max(1);
    if let Some(depth) = args.size {
        config.gen.depth = depth as u32;
    }
    if let Some(declarations) = args.declarations {
        config.gen.max_declarations = declarations;
    }
    let device = if kind == fuzz::oracles::OracleKind::Gpu {
        match fuzz::oracles::gpu::probe() {
            Ok(device) => Some(device),
            Err(reason) => {
                eprintln!("runestone fuzz: the gpu oracle cannot run: {reason}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    println!(
        "{} campaign: seed {}, {}, {} job(s)",
        kind.name(),
        config.seed,
        match (config.count, config.time) {
            (Some(n), _) => format!("{n} programs"),
            (None, Some(t)) => format!("{}s", t.as_secs()),
            _ => String::new(),
        },
        config.jobs
    );
    if let Some(device) = &device {
        println!("device: {device}");
    }
    let line = |p: &fuzz::oracles::Progress| {
        let seconds = p.elapsed.as_secs_f64().max(1e-9);
        format!(
            "{} programs in {:.1}s ({:.1}/s), {:.1}% valid, {} discards, {} disagreements",
            p.programs,
            seconds,
            p.programs as f64 / seconds,
            100.0 * p.valid as f64 / (p.programs.max(1) as f64),
            p.discards,
            p.disagreements
        )
    };
    let summary = fuzz::oracles::run_campaign(&config, Duration::from_secs(3), |p| {
        println!("[{:>6.0}s] {}", p.elapsed.as_secs_f64(), line(p))
    });
    println!("\nsummary: {}", line(&summary.progress));
    print_abandoned(summary.abandoned, "programs");
    if let Some(sizes) = summary.size_distribution() {
        println!(
            "program sizes (lines): median {}, p90 {}, max {}",
            sizes.median, sizes.p90, sizes.max
        );
    }
    println!(
        "\n{:<90} {:>7} {:>7} {:>8}",
        "program kind", "agree", "discard", "disagree"
    );
    for (k, (agree, discard, disagree)) in &summary.kinds {
        println!("{k:<90} {agree:>7} {discard:>7} {disagree:>8}");
    }
    if !summary.discard_reasons.is_empty() {
        println!("\ndiscards by reason:");
        for (reason, n) in &summary.discard_reasons {
            println!("  {reason:<80} {n:>7}");
        }
    }
    if device.is_some() {
        println!("\ndevice: {}", summary.device);
    } else {
        println!("\nrule coverage (times fired):");
        print!(
            "{}",
            fuzz::rule_coverage::render_table(&summary.coverage, kind.papers())
        );
    }
    let findings: Vec<Finding> = summary
        .counterexamples
        .iter()
        .map(|c| Finding::new(c.index, &c.check, &c.message, &c.program))
        .collect();
    let kinds: serde_json::Map<String, serde_json::Value> = summary
        .kinds
        .iter()
        .map(|(kind, (agree, discard, disagree))| {
            (
                kind.clone(),
                serde_json::json!({"agree": agree, "discard": discard, "disagree": disagree}),
            )
        })
        .collect();
    let totals = serde_json::json!({
        "programs": summary.progress.programs,
        "valid": summary.progress.valid,
        "discards": summary.progress.discards,
        "disagreements": summary.progress.disagreements,
        "abandoned": summary.abandoned,
        "elapsed_seconds": summary.progress.elapsed.as_secs_f64(),
        "kinds": kinds,
        "discard_reasons": summary.discard_reasons,
    });
    if !report_findings(args, kind.name(), totals, &findings) {
        return ExitCode::from(1);
    }
    if summary.counterexamples.is_empty() {
        return ExitCode::SUCCESS;
    }
    if let Err(error) = std::fs::create_dir_all(out) {
        eprintln!("cannot create {}: {error}", out.display());
    }
    for c in &summary.counterexamples {
        let path = out.join(format!("seed{}_program{}.fut", config.seed, c.index));
        match std::fs::write(&path, &c.program) {
            Ok(()) => println!(
                "counterexample ({}): {}\n  {}",
                c.check,
                path.display(),
                c.message
            ),
            Err(error) => eprintln!("cannot write {}: {error}", path.display()),
        }
    }
    println!("\ncounterexamples written to {}", out.display());
    ExitCode::from(1)
}

/// `--oracle corpus PATH...`.
fn run_corpus(args: &Args) -> ExitCode {
    let paths = &args.paths;
    if paths.is_empty() {
        eprintln!("runestone fuzz: `--oracle corpus` needs the programs or directories to examine");
        return ExitCode::from(2);
    }
    let programs = driver::discover::programs_under(paths);
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    println!(
        "corpus oracle: {} programs under {} (reference vs optimized CPU)",
        programs.len(),
        shown.join(", ")
    );
    let started = std::time::Instant::now();
    let (mut agreeing, mut differing, mut cases) = (0usize, 0usize, 0usize);
    let mut discards: std::collections::BTreeMap<String, usize> = Default::default();
    let mut found = Vec::new();
    for (index, path) in programs.iter().enumerate() {
        let verdict = fuzz::oracles::corpus::examine_program(path);
        for difference in &verdict.differences {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            found.push((
                index as u64,
                path.display().to_string(),
                difference.clone(),
                text,
            ));
        }
        cases += verdict.agreed + verdict.differences.len();
        for reason in verdict.discards {
            *discards.entry(reason).or_default() += 1;
        }
        if verdict.differences.is_empty() {
            agreeing += 1;
        } else {
            differing += 1;
            for difference in &verdict.differences {
                println!("DIFFER {}: {difference}", path.display());
            }
        }
        if (index + 1) % 50 == 0 {
            println!(
                "[{:>6.0}s] {} of {} programs, {} differ",
                started.elapsed().as_secs_f64(),
                index + 1,
                programs.len(),
                differing
            );
        }
    }
    println!(
        "\nsummary: {} programs in {:.1}s: {agreeing} agree, {differing} differ; {cases} cases and verdicts compared; {} set aside",
        programs.len(),
        started.elapsed().as_secs_f64(),
        discards.values().sum::<usize>()
    );
    for (reason, count) in &discards {
        println!("  set aside {count:>5}  {reason}");
    }
    let findings: Vec<Finding> = found
        .iter()
        .map(|(index, _, difference, text)| {
            Finding::new(*index, &difference.check, &difference.message, text)
        })
        .collect();
    let totals = serde_json::json!({
        "programs": programs.len(),
        "agree": agreeing,
        "differ": differing,
        "cases": cases,
        "set_aside": discards,
        "elapsed_seconds": started.elapsed().as_secs_f64(),
        "paths": found.iter().map(|(_, path, difference, _)| format!("{path}: {difference}")).collect::<Vec<_>>(),
    });
    if !report_findings(args, "corpus", totals, &findings) {
        return ExitCode::from(1);
    }
    if differing == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The items a timed campaign left unfinished when its time and grace
/// period ran out (`fuzz::campaign::GRACE_AFTER_TIME`), if any.
fn print_abandoned(abandoned: u64, items: &str) {
    if abandoned > 0 {
        println!(
            "{abandoned} {items} still being examined {}s after the time ran out were abandoned (not counted above)",
            fuzz::campaign::GRACE_AFTER_TIME.as_secs()
        );
    }
}
