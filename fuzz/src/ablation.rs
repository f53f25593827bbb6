//! Premise ablation (issue 28): which premise does each theorem need?
//!
//! For one premise of the registry `reference::ablation::PREMISES`, the
//! paper's campaign runs with that premise switched off in every item — the
//! ICFP'18 one is the `modules` oracle (well-typed module programs over the
//! paper's core and their mutants; Proposition 6.1), the TFP'18 one the
//! `defunc` oracle with mutants among its items (Theorems 1–2 and
//! Corollary 1 on whatever the reference accepts). What the campaign
//! noticed is a [`Finding`]:
//!
//! - a theorem failed (or another of the paper's checks, a panic included):
//!   the theorem needs the premise, and the shrunk program shows why;
//! - only the verdict noticed: a mutant built to break the premise was
//!   accepted and every theorem held of it — the premise keeps programs out
//!   that the theorems do not speak about;
//! - nothing noticed although the premise was false in some items: the
//!   premise is redundant where the campaign reaches, or a check is missing;
//! - the premise was never false: a gap in the generator.
//!
//! `runestone ablate` runs this over the registry and writes the table
//! `proofs-notes/ablation.md` explains.

use crate::oracles::mutants::REFERENCE_ACCEPTS_A_MUTANT;
use crate::oracles::{
    run_campaign, Counterexample, OracleConfig, OracleKind, Summary, ELABORATOR_ACCEPTS_A_MUTANT,
};
use reference::ablation::{Paper, Premise};
use std::collections::BTreeMap;
use std::time::Duration;

/// How large each premise's campaign is.
#[derive(Clone, Copy, Debug)]
pub struct AblationConfig {
    pub seed: u64,
    /// Items per premise (half of them mutants).
    pub count: u64,
    pub jobs: usize,
}

/// What a campaign with one premise switched off noticed.
#[derive(Clone, Debug)]
pub enum Finding {
    /// A check other than the verdict failed: how many items each failed,
    /// and the smallest shrunk counterexample among them.
    CheckFailed {
        checks: BTreeMap<String, u64>,
        counterexample: Counterexample,
    },
    /// Only the verdict noticed: this many mutants were accepted, every
    /// theorem holding of them.
    VerdictOnly {
        accepted_mutants: u64,
        counterexample: Counterexample,
    },
    /// The premise was false in this many items and no check noticed.
    Unnoticed { items: u64 },
    /// The premise was never false in the campaign.
    NeverFalse,
}

impl Finding {
    /// A word for the table: `check`, `verdict`, `unnoticed`, `never false`.
    pub fn label(&self) -> &'static str {
        match self {
            Finding::CheckFailed { .. } => "check",
            Finding::VerdictOnly { .. } => "verdict",
            Finding::Unnoticed { .. } => "unnoticed",
            Finding::NeverFalse => "never false",
        }
    }

    pub fn counterexample(&self) -> Option<&Counterexample> {
        match self {
            Finding::CheckFailed { counterexample, .. }
            | Finding::VerdictOnly { counterexample, .. } => Some(counterexample),
            Finding::Unnoticed { .. } | Finding::NeverFalse => None,
        }
    }
}

/// One premise's ablation.
#[derive(Clone, Debug)]
pub struct PremiseResult {
    pub premise: &'static Premise,
    pub programs: u64,
    /// Items in which the premise was false (and overridden).
    pub items_overriding: u64,
    pub finding: Finding,
    pub elapsed: Duration,
}

/// The paper's campaign, with `ablated` switched off (`None`: the baseline).
pub fn campaign_config(
    paper: Paper,
    ablated: Option<&'static Premise>,
    config: AblationConfig,
) -> OracleConfig {
    let kind = match paper {
        Paper::Icfp18 => OracleKind::Modules,
        Paper::Tfp18 => OracleKind::Defunc,
    };
    let mut oracle = OracleConfig::new(kind, config.seed);
    oracle.count = Some(config.count);
    oracle.jobs = config.jobs;
    oracle.defunc_mutants = true;
    // Every mutation kind, the module programs' rare ones included.
    oracle.gen.extra_mutations = true;
    oracle.ablated = ablated;
    oracle
}

/// Whether `check` is a campaign's verdict on a mutant rather than a
/// theorem (or another check of the paper's claims).
pub fn is_verdict_check(check: &str) -> bool {
    check == ELABORATOR_ACCEPTS_A_MUTANT || check == REFERENCE_ACCEPTS_A_MUTANT
}

/// Runs the paper's campaign with `premise` switched off.
pub fn ablate(premise: &'static Premise, config: AblationConfig) -> PremiseResult {
    let summary = run_campaign(
        &campaign_config(premise.paper, Some(premise), config),
        Duration::from_secs(3600),
        |_| {},
    );
    PremiseResult {
        premise,
        programs: summary.progress.programs,
        items_overriding: summary.items_overriding_the_premise,
        finding: finding(&summary),
        elapsed: summary.progress.elapsed,
    }
}

/// What `summary` (a campaign with one premise switched off) noticed.
pub fn finding(summary: &Summary) -> Finding {
    let smallest = |verdict: bool| {
        summary
            .counterexamples
            .iter()
            .filter(|c| is_verdict_check(&c.check) == verdict)
            .min_by_key(|c| (c.program.len(), c.index))
            .cloned()
    };
    let mut checks = BTreeMap::new();
    for counterexample in &summary.counterexamples {
        if !is_verdict_check(&counterexample.check) {
            *checks.entry(counterexample.check.clone()).or_insert(0) += 1;
        }
    }
    if let Some(counterexample) = smallest(false) {
        return Finding::CheckFailed {
            checks,
            counterexample,
        };
    }
    if let Some(counterexample) = smallest(true) {
        return Finding::VerdictOnly {
            accepted_mutants: summary.counterexamples.len() as u64,
            counterexample,
        };
    }
    match summary.items_overriding_the_premise {
        0 => Finding::NeverFalse,
        items => Finding::Unnoticed { items },
    }
}

/// Item `index` of the campaign with `premise` switched off, alone: how a
/// counterexample of `runestone ablate` (its header names the premise, the
/// seed and the item) is replayed (`fuzz/tests/ablation.rs` replays those
/// under `tests/ablation/`).
pub fn replay(premise: &'static Premise, seed: u64, index: u64) -> Summary {
    let mut oracle = campaign_config(
        premise.paper,
        Some(premise),
        AblationConfig {
            seed,
            count: 1,
            jobs: 1,
        },
    );
    oracle.start = index;
    run_campaign(&oracle, Duration::from_secs(3600), |_| {})
}

/// The premises `--paper` and `--rule` select, in the registry's order.
pub fn selected(paper: Option<Paper>, rule: Option<&str>) -> Vec<&'static Premise> {
    reference::ablation::PREMISES
        .iter()
        .copied()
        .filter(|p| paper.is_none_or(|paper| p.paper == paper))
        .filter(|p| rule.is_none_or(|rule| p.rule == rule))
        .collect()
}

/// A file name for `premise`'s counterexample: `ablation-<name>.fut`.
pub fn counterexample_file_name(premise: &Premise) -> String {
    format!(
        "ablation-{}.fut",
        premise.name.to_lowercase().replace('_', "-")
    )
}

/// The results as a Markdown table: premise, rule, statement, programs,
/// items where it was false, finding, and the checks or the test program.
pub fn markdown_table(results: &[PremiseResult]) -> String {
    let mut table = String::from(
        "| premise | rule | statement | items false | noticed by | shown by |\n\
         |---|---|---|---|---|---|\n",
    );
    for result in results {
        let premise = result.premise;
        let noticed = match &result.finding {
            Finding::CheckFailed { checks, .. } => checks
                .iter()
                .map(|(check, n)| format!("{check} ({n})"))
                .collect::<Vec<_>>()
                .join(", "),
            Finding::VerdictOnly {
                accepted_mutants, ..
            } => format!("the verdict only ({accepted_mutants} mutants accepted)"),
            Finding::Unnoticed { .. } => "nothing".to_string(),
            Finding::NeverFalse => "— (never false)".to_string(),
        };
        let shown = match result.finding.counterexample() {
            Some(_) => format!("`{}`", counterexample_file_name(premise)),
            None => String::new(),
        };
        table.push_str(&format!(
            "| `{}` | {} | {} | {} / {} | {} | {} |\n",
            premise.name,
            premise.rule,
            premise.statement.replace('|', "\\|"),
            result.items_overriding,
            result.programs,
            noticed,
            shown
        ));
    }
    table
}
