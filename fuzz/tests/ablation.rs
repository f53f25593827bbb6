//! Premise ablation (`fuzz::ablation`, `runestone ablate`) on premises whose
//! fate is known from the papers: ICFP'18 Proposition 6.1 needs rule 12's
//! ascription premise (a mistyped core expression reaches static
//! interpretation), TFP'18 Theorem 1 needs T-If's orderZero premise (D-If
//! cannot name one static value for a conditional that returns two
//! different functions), and rule 28's freshness side condition is never
//! false (the name supply guarantees it). The campaigns without ablation are
//! clean, so that what the ablated ones find is the premise's doing.

use fuzz::ablation::{ablate, campaign_config, AblationConfig, Finding};
use fuzz::oracles::run_campaign;
use reference::ablation::{Paper, ICFP18_12_ASCRIPTION, ICFP18_28_FRESH, TFP18_T_IF_ORDER_ZERO};
use std::time::Duration;

const CONFIG: AblationConfig = AblationConfig {
    seed: 0,
    count: 200,
    jobs: 2,
};

#[test]
fn the_campaigns_with_every_premise_on_are_clean() {
    for paper in [Paper::Icfp18, Paper::Tfp18] {
        let summary = run_campaign(
            &campaign_config(paper, None, CONFIG),
            Duration::from_secs(3600),
            |_| {},
        );
        assert_eq!(summary.progress.programs, CONFIG.count);
        assert_eq!(summary.items_overriding_the_premise, 0);
        assert!(
            summary.counterexamples.is_empty(),
            "{}: {:?}",
            paper.name(),
            summary
                .counterexamples
                .iter()
                .map(|c| &c.program)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn theorem_1_needs_the_orderzero_premise_of_t_if() {
    let result = ablate(&TFP18_T_IF_ORDER_ZERO, CONFIG);
    assert!(result.items_overriding > 0);
    match &result.finding {
        Finding::CheckFailed {
            checks,
            counterexample,
        } => {
            assert!(checks.contains_key("Theorem 1"), "{checks:?}");
            assert!(
                counterexample.program.contains("if "),
                "{}",
                counterexample.program
            );
            assert!(counterexample
                .program
                .contains("runestone ablate --premise TFP18_T_IF_ORDER_ZERO"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn proposition_6_1_needs_the_ascription_premise_of_rule_12() {
    let result = ablate(&ICFP18_12_ASCRIPTION, CONFIG);
    match &result.finding {
        Finding::CheckFailed { checks, .. } => {
            assert!(checks.contains_key("Proposition 6.1"), "{checks:?}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_freshness_side_condition_of_rule_28_is_never_false() {
    let result = ablate(&ICFP18_28_FRESH, CONFIG);
    assert_eq!(result.programs, CONFIG.count);
    assert!(
        matches!(result.finding, Finding::NeverFalse),
        "{:?}",
        result.finding
    );
}

/// `(premise, seed, item, check)` from a counterexample's header, as
/// `runestone ablate` writes it.
fn header_of(text: &str) -> Option<(String, u64, u64, String)> {
    let mut lines = text.lines();
    let found = lines
        .next()?
        .strip_prefix("-- Counterexample found by `runestone ablate --premise ")?;
    let (premise, rest) = found.split_once(" --seed ")?;
    let (seed, rest) = rest.split_once("` (program ")?;
    let item = rest.strip_suffix(").")?;
    let check = lines.next()?.strip_prefix("-- Check: ")?;
    Some((
        premise.to_string(),
        seed.parse().ok()?,
        item.parse().ok()?,
        check.to_string(),
    ))
}

/// Each counterexample of `proofs-notes/ablation.md` (under
/// `tests/ablation/`) replays: its campaign item, with its premise switched
/// off, fails the check its header names, and with every premise on is
/// clean.
#[test]
fn every_ablation_counterexample_replays() {
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/ablation");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&directory).expect("tests/ablation") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_none_or(|e| e != "fut") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let (name, seed, item, check) =
            header_of(&text).unwrap_or_else(|| panic!("{}: no ablation header", path.display()));
        let premise = reference::ablation::premise_named(&name)
            .unwrap_or_else(|| panic!("{}: no premise {name}", path.display()));
        let ablated = fuzz::ablation::replay(premise, seed, item);
        assert!(
            ablated.counterexamples.iter().any(|c| c.check == check),
            "{}: {:?}",
            path.display(),
            ablated
                .counterexamples
                .iter()
                .map(|c| &c.check)
                .collect::<Vec<_>>()
        );
        let mut baseline = campaign_config(
            premise.paper,
            None,
            AblationConfig {
                seed,
                count: 1,
                jobs: 1,
            },
        );
        baseline.start = item;
        let clean = run_campaign(&baseline, Duration::from_secs(3600), |_| {});
        assert_eq!(clean.progress.disagreements, 0, "{}", path.display());
        replayed += 1;
    }
    assert!(
        replayed >= 3,
        "only {replayed} counterexamples under tests/ablation"
    );
}
