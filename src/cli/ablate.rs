//! `runestone ablate [--paper icfp18|tfp18] [--rule ID] [--premise NAME]
//! [--count N] [--seed S] [--jobs J] [--out DIR] [--markdown FILE]`:
//! premise ablation (`fuzz::ablation`). First the paper's campaign runs as
//! it is (it must be clean: a disagreement there would be blamed on the
//! premises), then once per selected premise with that premise switched
//! off; a line per premise says what noticed it. Each shrunk counterexample
//! is written to `DIR/ablation-<premise>.fut`; `--markdown` writes the
//! table. Exit 0 when every campaign ran (whatever they noticed: an
//! unnoticed premise is a finding, not a failure), 1 when the baseline
//! campaign is not clean, 2 on a usage error.

use fuzz::ablation::{ablate, campaign_config, selected, AblationConfig, Finding, PremiseResult};
use reference::ablation::{premise_named, Paper};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Only the premises of this paper's rules: `icfp18` (the `modules`
    /// campaign: Proposition 6.1 and the elaborator's verdict on mutants)
    /// or `tfp18` (the `defunc` campaign with mutants: Theorems 1–2,
    /// Corollary 1 and the reference's verdict on mutants).
    #[arg(long)]
    paper: Option<String>,
    /// Only the premises of this rule, by its id in `proofs-notes/rules.toml`
    /// (e.g. `"TFP18 T-If"`).
    #[arg(long)]
    rule: Option<String>,
    /// Only this premise, by its registry name (e.g. `TFP18_T_IF_ORDER_ZERO`;
    /// `--list` prints them).
    #[arg(long)]
    premise: Option<String>,
    /// Print the registry (name, rule, statement) and exit.
    #[arg(long)]
    list: bool,
    /// Programs per premise (half of them ill-typed mutants).
    #[arg(long, default_value_t = 400)]
    count: u64,
    /// Seed of every campaign.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Where shrunk counterexamples are written.
    #[arg(long, default_value = "fuzz-counterexamples/ablation")]
    out: PathBuf,
    /// Also write the table as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
}

pub fn run(args: Args) -> ExitCode {
    if args.list {
        let listed: String = reference::ablation::PREMISES
            .iter()
            .map(|premise| {
                format!(
                    "{:<40} {:<24} {}\n",
                    premise.name, premise.rule, premise.statement
                )
            })
            .collect();
        super::common::write_stdout(&listed);
        return ExitCode::SUCCESS;
    }
    let paper = match args
        .paper
        .as_deref()
        .map(|name| (name, Paper::from_name(name)))
    {
        Some((name, None)) => {
            eprintln!("runestone ablate: unknown paper `{name}` (icfp18 or tfp18)");
            return ExitCode::from(2);
        }
        Some((_, paper)) => paper,
        None => None,
    };
    let premises = match &args.premise {
        Some(name) => match premise_named(name) {
            Some(premise) => vec![premise],
            None => {
                eprintln!("runestone ablate: no premise `{name}` (`runestone ablate --list`)");
                return ExitCode::from(2);
            }
        },
        None => selected(paper, args.rule.as_deref()),
    };
    if premises.is_empty() {
        eprintln!("runestone ablate: no premise is selected (`runestone ablate --list`)");
        return ExitCode::from(2);
    }
    if args.count == 0 || args.jobs == 0 {
        eprintln!("runestone ablate: --count and --jobs must be positive");
        return ExitCode::from(2);
    }
    let config = AblationConfig {
        seed: args.seed,
        count: args.count,
        jobs: args.jobs,
    };
    let mut papers: Vec<Paper> = premises.iter().map(|p| p.paper).collect();
    papers.dedup();
    for paper in &papers {
        let summary = fuzz::oracles::run_campaign(
            &campaign_config(*paper, None, config),
            Duration::from_secs(3600),
            |_| {},
        );
        println!(
            "{} baseline: {} programs, {} disagreements ({:.1} s)",
            paper.name(),
            summary.progress.programs,
            summary.progress.disagreements,
            summary.progress.elapsed.as_secs_f64()
        );
        if summary.progress.disagreements > 0 {
            for counterexample in &summary.counterexamples {
                let path = args.out.join(format!(
                    "baseline-{}-{}.fut",
                    paper.name(),
                    counterexample.index
                ));
                let written = std::fs::create_dir_all(&args.out)
                    .and_then(|()| std::fs::write(&path, &counterexample.program));
                match written {
                    Ok(()) => eprintln!("  {}: {}", counterexample.check, path.display()),
                    Err(error) => eprintln!("  cannot write {}: {error}", path.display()),
                }
            }
            eprintln!(
                "runestone ablate: the {} campaign fails with every premise on (`runestone fuzz` finds it); fix that first",
                paper.name()
            );
            return ExitCode::from(1);
        }
    }
    let mut results: Vec<PremiseResult> = Vec::new();
    for (position, premise) in premises.iter().enumerate() {
        let result = ablate(premise, config);
        println!(
            "[{}/{}] {:<40} {:<11} false in {}/{} items{} ({:.1} s)",
            position + 1,
            premises.len(),
            premise.name,
            result.finding.label(),
            result.items_overriding,
            result.programs,
            match &result.finding {
                Finding::CheckFailed { checks, .. } => format!(
                    ": {}",
                    checks.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
                _ => String::new(),
            },
            result.elapsed.as_secs_f64()
        );
        if let Some(counterexample) = result.finding.counterexample() {
            let path = args
                .out
                .join(fuzz::ablation::counterexample_file_name(premise));
            let written = std::fs::create_dir_all(&args.out)
                .and_then(|()| std::fs::write(&path, &counterexample.program));
            if let Err(error) = written {
                eprintln!("runestone ablate: cannot write {}: {error}", path.display());
                return ExitCode::from(1);
            }
        }
        results.push(result);
    }
    let table = fuzz::ablation::markdown_table(&results);
    if let Some(path) = &args.markdown {
        if let Err(error) = std::fs::write(path, &table) {
            eprintln!("runestone ablate: cannot write {}: {error}", path.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
