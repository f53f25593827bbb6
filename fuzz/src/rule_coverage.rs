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

/// A rule generated programs do not fire, and why. Reasons of three sorts:
/// *by design* (the generators exclude it on purpose), *not generated yet*
/// (a construct missing from the generators; `fuzz/src/gen/typing_notes.md`,
/// "Not generated yet"), and *unreachable* (no well-typed program reaches
/// it; none such today).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CannotFire {
    pub rule: &'static str,
    pub reason: &'static str,
}

const REDUCE_BY_INDEX: &str =
    "not generated yet: the core generator has no `reduce_by_index` (typing_notes.md, \"Not generated yet\")";
const OR_DECLARATION: &str = "not generated yet: Theorem 2's relation ⊨ v : sv is checked on top-level declarations' values only (core::theorems), and no generated top-level declaration is function-valued, so none has an Or static value";
const POLY_PAPER_CORE: &str = "not generated yet: ICFP'18 §8.1's polymorphic functions (encoded as functors) need type parameters, which the paper-core generator (GenConfig::paper_core) does not emit";
const BOTTOM: &str = "by design: the nested generators never emit the `bottom` primitive (a deliberate failure), so the theorems compare values, not errors";
const MEMORY_LIMIT: &str = "not generated yet: generated programs size their arrays for fast campaigns, far below the memory limit (SPEC_NOTES TFP18-29); it fires on tests/programs/limits (checked by reference/tests/rules_tidy.rs)";
const NESTED: &str = "not generated yet: no term of the nested generators (fuzz::nested) reaches it; it fires on the hand-written exercises (reference::nested::exercises, checked by reference/tests/rules_tidy.rs)";

/// The rules no generated program fires within [`budget_coverage`]'s budget
/// (`fuzz/tests/rule_coverage.rs`: seed 1, 1 000 items per campaign), with
/// the reason.
pub const CANNOT_FIRE: &[CannotFire] = &[
    CannotFire {
        rule: "TFP18 E-ReduceByIndex",
        reason: REDUCE_BY_INDEX,
    },
    CannotFire {
        rule: "TFP18 D-ReduceByIndex",
        reason: REDUCE_BY_INDEX,
    },
    CannotFire {
        rule: "TFP18 E-ReduceByIndexErr",
        reason: REDUCE_BY_INDEX,
    },
    CannotFire {
        rule: "TFP18 R-ValueOr",
        reason: OR_DECLARATION,
    },
    CannotFire {
        rule: "TFP18 E-MemoryLimit",
        reason: MEMORY_LIMIT,
    },
    CannotFire {
        rule: "ICFP18 poly-instantiate",
        reason: POLY_PAPER_CORE,
    },
    CannotFire {
        rule: "ICFP18 interpret-poly-instantiate",
        reason: POLY_PAPER_CORE,
    },
    CannotFire {
        rule: "L05 AppB bottom",
        reason: BOTTOM,
    },
    CannotFire {
        rule: "L05 AppC bottom",
        reason: BOTTOM,
    },
    CannotFire {
        rule: "L05 AppB truesP-falsesP",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 AppC truesP-falsesP",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 AppC combineP-Fun",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 AppC concat-Fun",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 AppC gatherP-Clo",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 AppC index-Clo",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 Ch4 cappP",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 Fig5.7 EQUIV-ETA",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 Fig6.3 A-Clo-Cong-Lifted",
        reason: NESTED,
    },
    CannotFire {
        rule: "L05 Fig6.3 A-Clo-Cong-Vectorised",
        reason: NESTED,
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
/// that did not fire, with its [`CANNOT_FIRE`] reason if listed — a rule
/// not listed there is fired by another campaign, see [`budget_coverage`]),
/// then how many fired.
pub fn render_table(counts: &RuleCounts, papers: &[&str]) -> String {
    let rows = table(counts, papers);
    let mut text = String::new();
    for (rule, n) in &rows {
        if *n > 0 {
            text.push_str(&format!("  {rule:<45} {n:>10}\n"));
        } else {
            let why = cannot_fire(rule).unwrap_or("not fired by this campaign");
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
/// items of each oracle of [`OracleKind::ALL`] that runs the reference (not
/// `gpu` or `optimisation`, which fire no paper rule) and of the nested
/// campaign, with
/// `jobs` threads.
pub fn budget_coverage(seed: u64, programs: u64, jobs: usize) -> RuleCounts {
    let mut counts = RuleCounts::new();
    for kind in OracleKind::ALL
        .into_iter()
        .filter(|kind| !kind.papers().is_empty())
    {
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
