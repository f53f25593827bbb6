//! Bounded campaigns of the verdict, defunc, modules and value oracles (fixed seed,
//! 300 programs each): no disagreement beyond the known ones
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
    // The four kinds of program, each examined: module programs through the
    // module calculus, the §7 `Or` option, run-time errors.
    for kind in fuzz::oracles::DefuncItem::ALL {
        let (agree, _, _) = summary.kinds[kind.label()];
        // Module programs: about a third are rejected by the reference
        // (an open defect, discarded with its own reason).
        let least = if kind == fuzz::oracles::DefuncItem::Modules {
            40
        } else {
            60
        };
        assert!(
            agree >= least,
            "{}: only {agree} agreements; discards: {:?}",
            kind.label(),
            summary.discard_reasons
        );
    }
    for rule in [
        "TFP18 D-AppOr",
        "TFP18 E-IndexErr",
        "ICFP18 rule 29",
        "TFP18 D-App",
    ] {
        assert!(summary.coverage.contains_key(rule), "{rule} never fired");
    }
}

#[test]
fn modules_oracle_finds_no_violation_on_300_programs_and_mutants() {
    let summary = campaign(OracleKind::Modules);
    assert_clean(&summary);
    let (accepted, _, _) = summary.kinds["well-typed module program"];
    assert_eq!(accepted, 150, "{:?}", summary.kinds);
    assert!(
        summary
            .kinds
            .keys()
            .filter(|k| k.starts_with("mutant:"))
            .count()
            >= 5,
        "{:?}",
        summary.kinds
    );
    assert!(summary.coverage.contains_key("ICFP18 rule 14"));
}

#[test]
fn value_oracle_agrees_on_300_programs() {
    let summary = campaign(OracleKind::Value);
    assert_clean(&summary);
    assert!(summary.progress.valid >= 250, "{:?}", summary.progress);
    // The four kinds of program, each run on both sides: module programs
    // (about a third rejected by the reference, an open defect discarded
    // with its own reason), the §7 `Or` option, run-time errors.
    for kind in fuzz::oracles::DefuncItem::ALL {
        let (agree, _, _) = summary.kinds[kind.label()];
        let least = if kind == fuzz::oracles::DefuncItem::Modules {
            40
        } else {
            60
        };
        assert!(
            agree >= least,
            "{}: only {agree} agreements; discards: {:?}",
            kind.label(),
            summary.discard_reasons
        );
    }
    for rule in ["TFP18 E-IndexErr", "ICFP18 rule 29", "TFP18 D-AppOr"] {
        assert!(summary.coverage.contains_key(rule), "{rule} never fired");
    }
}

/// The value oracle's verdicts on hand-written programs: agreement on
/// values and on run-time errors, and each way the two sides can differ
/// named by its check.
#[test]
fn value_oracle_compares_values_errors_and_verdicts() {
    use fuzz::oracles::value::{compare_runs, examine_value, Run};
    use fuzz::oracles::Outcome;
    use spec::value::{PrimValue, Value};
    let i32s = |v: i32| Value::Prim(PrimValue::I32(v));
    let check = |source: &str, arguments: &[Value], expected: Result<bool, &str>| {
        let outcome = examine_value(source, arguments, 1_000_000, false);
        match (expected, &outcome) {
            (Ok(valid), Outcome::Agree { valid: v }) if valid == *v => {}
            (Err(wanted), Outcome::Disagree { check, .. }) if check == wanted => {}
            _ => panic!("{source}: expected {expected:?}, got {outcome:?}"),
        }
    };
    check(
        "entry main (x: i32) : i32 = x * 2 + 1",
        &[i32s(20)],
        Ok(true),
    );
    check(
        "entry main (xs: []i32) (i: i64) : i32 = xs[i]",
        &spec::value::read_values("[1, 2, 3] 7i64").expect("values"),
        Ok(true),
    );
    check("entry main (x: i32) : bool = x", &[i32s(1)], Ok(false));
    let failed = |location: &str| Run::Failed {
        message: "index out of bounds".into(),
        location: location.into(),
    };
    let cases = [
        (
            Run::Values(vec![i32s(1)]),
            Run::Values(vec![i32s(2)]),
            "different values",
        ),
        (
            failed("generated.fut:1:5"),
            failed("generated.fut:1:6"),
            "different run-time errors",
        ),
        (
            Run::Values(vec![i32s(1)]),
            failed("generated.fut:1:5"),
            "reference gives values, optimized fails at run time",
        ),
        (
            Run::Rejected("no".into()),
            Run::Values(vec![i32s(1)]),
            "reference rejects, optimized gives values",
        ),
        (
            failed("generated.fut:1:5"),
            Run::Rejected("no".into()),
            "reference fails at run time, optimized rejects",
        ),
        (
            Run::Values(vec![i32s(1)]),
            Run::Broken("panic".into()),
            "reference gives values, optimized breaks",
        ),
    ];
    for (reference, optimized, wanted) in cases {
        match compare_runs(&reference, &optimized) {
            Outcome::Disagree { check, .. } => assert_eq!(check, wanted),
            other => panic!("{wanted}: got {other:?}"),
        }
    }
    assert_eq!(
        compare_runs(&Run::OutOfFuel, &Run::Values(vec![i32s(1)])),
        Outcome::Discard("the reference runs out of fuel".into())
    );
}

#[test]
fn the_size_distribution_is_reported() {
    let mut config = OracleConfig::new(OracleKind::Verdict, 3);
    config.count = Some(40);
    let summary = run_campaign(&config, Duration::from_secs(3600), |_| {});
    assert_eq!(summary.program_lines.len(), 40);
    let sizes = summary.size_distribution().expect("programs were examined");
    assert!(sizes.median >= 3 && sizes.median <= sizes.p90 && sizes.p90 <= sizes.max);
    assert_eq!(sizes.max, *summary.program_lines.iter().max().unwrap());
}
