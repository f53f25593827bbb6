//! Bounded campaigns of the verdict and defunc oracles (fixed seed, 300
//! programs each): no disagreement beyond the known ones
//! (`fuzz::oracles::KNOWN_DISAGREEMENTS`, counted as discards), and every
//! program ends as agree, discard or disagree.

use fuzz::oracles::{run_campaign, OracleConfig, OracleKind, KNOWN_DISAGREEMENTS};
use std::time::Duration;

fn campaign(kind: OracleKind) -> fuzz::oracles::Summary {
    let mut config = OracleConfig::new(kind, 1);
    config.count = Some(300);
    config.jobs = 2;
    config.known = KNOWN_DISAGREEMENTS.to_vec();
    run_campaign(&config, Duration::from_secs(3600), |_| {})
}

fn assert_clean(summary: &fuzz::oracles::Summary) {
    let progress = &summary.progress;
    assert_eq!(progress.programs, 300);
    let outcomes: u64 = summary.kinds.values().map(|(a, d, x)| a + d + x).sum();
    assert_eq!(outcomes, 300, "every program has an outcome");
    assert_eq!(
        summary.discard_reasons.values().sum::<u64>(),
        progress.discards,
        "every discard has a reason"
    );
    assert!(
        summary.counterexamples.is_empty(),
        "{}",
        summary
            .counterexamples
            .iter()
            .map(|c| c.program.clone())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert!(
        progress.discards * 10 < progress.programs,
        "too many discards: {:?}",
        summary.discard_reasons
    );
}

#[test]
fn verdict_oracle_agrees_on_300_programs_and_mutants() {
    let summary = campaign(OracleKind::Verdict);
    assert_clean(&summary);
    assert!(summary.kinds.contains_key("well-typed"));
    assert!(
        summary
            .kinds
            .keys()
            .filter(|k| k.starts_with("mutant:"))
            .count()
            >= 5
    );
    assert!(summary.coverage.contains_key("TFP18 T-Lam"));
}

#[test]
fn defunc_oracle_finds_no_violation_on_300_programs() {
    let summary = campaign(OracleKind::Defunc);
    assert_clean(&summary);
    assert!(summary.progress.valid >= 250, "{:?}", summary.progress);
    assert!(summary.coverage.contains_key("TFP18 D-App"));
}
