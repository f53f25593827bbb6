//! Rule coverage by generated programs (issue 6, "every rule id is fired at
//! least once by generated programs, apart from a listed few with the
//! reason"): the rule table `proofs-notes/rules.toml`, the campaigns' coverage
//! tables, and [`CANNOT_FIRE`], the one list of rules that generated
//! programs do not fire, each with its reason. The test
//! `fuzz/tests/rule_coverage.rs` checks, within a fixed-seed budget
//! ([`budget_coverage`]), that every other rule fires and that the listed
//! ones do not (so the list shrinks when a generator learns a construct).

use crate::nested::campaign::{run_campaign as run_nested, CampaignConfig};
use crate::oracles::{run_campaign, OracleConfig, OracleKind};
use reference::coverage::RuleCounts;
use std::time::Duration;

/// The rule table, compiled in.
const RULES_TOML: &str = include_str!("../../proofs-notes/rules.toml");

/// Every rule id of `proofs-notes/rules.toml`, in file order.
pub fn listed_rules() -> Vec<&'static str> {
    RULES_TOML
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once('=')?;
            (key.trim() == "id").then(|| value.trim().trim_matches('"'))
        })
        .collect()
}

/// A rule generated programs do not fire, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CannotFire {
    pub rule: &'static str,
    pub reason: &'static str,
}

const NOT_GENERATED: &str = "not generated yet";

/// The rules no generated program fires (within [`budget_coverage`]'s
/// budget), with the reason. Reasons of three sorts: *unreachable* (no
/// well-typed program reaches the rule, e.g. an error rule that typing
/// excludes), *not generated yet* (the construct is missing from the
/// generators; `fuzz/src/gen/typing_notes.md`, "Not generated yet"), and
/// *fired by hand-written tests only* (reachable, but only by programs the
/// type-directed generators cannot produce).
pub const CANNOT_FIRE: &[CannotFire] = &[
    CannotFire {
        rule: "TFP18 T-ReduceByIndex",
        reason: NOT_GENERATED,
    },
    CannotFire {
        rule: "TFP18 E-ReduceByIndex",
        reason: NOT_GENERATED,
    },
    CannotFire {
        rule: "TFP18 D-ReduceByIndex",
        reason: NOT_GENERATED,
    },
    CannotFire {
        rule: "TFP18 E-ReduceByIndexErr",
        reason: NOT_GENERATED,
    },
];

/// The reason `rule` is listed in [`CANNOT_FIRE`], if it is.
pub fn cannot_fire(rule: &str) -> Option<&'static str> {
    CANNOT_FIRE
        .iter()
        .find(|c| c.rule == rule)
        .map(|c| c.reason)
}

/// The coverage table of the rules whose id starts with one of `papers`:
/// every listed rule, in file order, with how often it fired (zero
/// included).
pub fn table(counts: &RuleCounts, papers: &[&str]) -> Vec<(&'static str, u64)> {
    listed_rules()
        .into_iter()
        .filter(|rule| papers.iter().any(|p| rule.starts_with(p)))
        .map(|rule| (rule, counts.get(rule).copied().unwrap_or(0)))
        .collect()
}

/// The rule-coverage table as text: one line per rule (`never` for a rule
/// that did not fire, with its [`CANNOT_FIRE`] reason if listed), then how
/// many fired.
pub fn render_table(counts: &RuleCounts, papers: &[&str]) -> String {
    let rows = table(counts, papers);
    let mut text = String::new();
    for (rule, n) in &rows {
        if *n > 0 {
            text.push_str(&format!("  {rule:<45} {n:>10}\n"));
        } else {
            let why = cannot_fire(rule).unwrap_or("NOT FIRED");
            text.push_str(&format!("  {rule:<45} {:>10}  ({why})\n", "never"));
        }
    }
    let fired = rows.iter().filter(|(_, n)| *n > 0).count();
    text.push_str(&format!("  {fired} of {} rules fired\n", rows.len()));
    text
}

/// Adds `from` into `into`.
pub fn add_counts(into: &mut RuleCounts, from: &RuleCounts) {
    for (rule, n) in from {
        *into.entry(rule).or_insert(0) += n;
    }
}

/// The rules fired by a fixed-seed budget of every campaign: `programs`
/// items of each oracle of [`OracleKind::ALL`] and of the nested campaign,
/// with `jobs` threads.
pub fn budget_coverage(seed: u64, programs: u64, jobs: usize) -> RuleCounts {
    let mut counts = RuleCounts::new();
    for kind in OracleKind::ALL {
        let mut config = OracleConfig::new(kind, seed);
        config.count = Some(programs);
        config.jobs = jobs;
        let summary = run_campaign(&config, Duration::from_secs(3600), |_| {});
        add_counts(&mut counts, &summary.coverage);
    }
    let nested = CampaignConfig {
        seed,
        count: Some(programs),
        jobs,
        ..CampaignConfig::default()
    };
    let summary = run_nested(&nested, Duration::from_secs(3600), |_| {});
    add_counts(&mut counts, &summary.coverage);
    counts
}
