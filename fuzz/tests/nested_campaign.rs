//! The nested generators and a bounded campaign (fixed seed): generated terms
//! are closed and well-typed, varied, and no check is violated on them.

use fuzz::nested::campaign::{run_campaign, CampaignConfig};
use fuzz::nested::generate::{choice_sequences, decode_term};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use reference::nested::typing_p;
use std::collections::BTreeSet;
use std::time::Duration;

fn sample(count: u64) -> Vec<String> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    (0..count)
        .map(|_| {
            let data = choice_sequences(64)
                .new_tree(&mut runner)
                .expect("tree")
                .current();
            let term = decode_term(&data, 24);
            let checked = typing_p::check_program(&term)
                .unwrap_or_else(|e| panic!("generated an ill-typed term {term}: {e:?}"));
            checked.to_string()
        })
        .collect()
}

#[test]
fn generated_terms_are_well_typed_and_varied() {
    let terms = sample(300);
    let distinct: BTreeSet<&String> = terms.iter().collect();
    assert!(
        distinct.len() > 200,
        "only {} distinct terms",
        distinct.len()
    );
    for needle in [
        "mapP", "packP", "combineP", "case", "mu ", "In<", "zipP", "sumP",
    ] {
        assert!(
            terms.iter().any(|t| t.contains(needle)),
            "no generated term uses {needle}"
        );
    }
    if std::env::var("SHOW_TERMS").is_ok() {
        for t in terms.iter().take(40) {
            println!("{t}\n");
        }
    }
}

#[test]
fn a_bounded_campaign_finds_no_violation() {
    let config = CampaignConfig {
        seed: 2026,
        count: Some(500),
        jobs: 2,
        ..CampaignConfig::default()
    };
    let summary = run_campaign(&config, Duration::from_secs(3600), |_| {});
    assert_eq!(summary.progress.terms, 500);
    assert_eq!(summary.progress.ill_typed, 0);
    let programs: Vec<&str> = summary
        .counterexamples
        .iter()
        .map(|c| c.program.as_str())
        .collect();
    assert!(programs.is_empty(), "violations:\n{}", programs.join("\n"));
    let main = summary.verdicts["Thm 6.37 flattening preserves the observation"];
    assert!(main.0 > 400, "Thm 6.37 decided on only {} terms", main.0);
    assert!(summary.coverage.contains_key("L05 Ch4 case-Lifted"));
}

#[test]
fn printed_generated_terms_parse_back() {
    use fuzz::nested::generate_c::decode_term_c;
    use reference::nested::concrete::{parse_lambda_c, parse_program};
    use spec::source::FileId;
    reference::nested::machine::with_large_stack(|| {
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]),
        );
        for _ in 0..200 {
            let data = choice_sequences(64)
                .new_tree(&mut runner)
                .expect("tree")
                .current();
            let p = typing_p::check_program(&decode_term(&data, 24)).expect("λP term checks");
            let reparsed =
                parse_program(FileId(0), &p.to_string()).unwrap_or_else(|d| panic!("{p}: {d:?}"));
            assert_eq!(typing_p::check_program(&reparsed).expect("rechecks"), p);
            let c = reference::nested::typing_c::check_program(&decode_term_c(&data, 24))
                .expect("λC term checks");
            let reparsed =
                parse_lambda_c(FileId(0), &c.to_string()).unwrap_or_else(|d| panic!("{c}: {d:?}"));
            assert_eq!(reparsed, c, "{c}");
        }
    });
}

/// Shrinking works on the choice sequence: a term that uses `mapP` shrinks
/// to a much smaller term that still does.
#[test]
fn shrinking_finds_a_small_term_with_the_same_failure() {
    use fuzz::nested::campaign::shrink_while;
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[5; 32]),
    );
    let uses_map = |data: &[u32]| {
        let term = decode_term(data, 24).to_string();
        term.contains("mapP").then_some(term)
    };
    let mut found = None;
    for _ in 0..200 {
        let tree = choice_sequences(64).new_tree(&mut runner).expect("tree");
        if uses_map(&tree.current()).is_some() {
            found = Some(tree);
            break;
        }
    }
    let mut tree = found.expect("some generated term uses mapP");
    let original = decode_term(&tree.current(), 24).size();
    let (shrunk, message) = shrink_while(&mut tree, uses_map);
    let small = decode_term(&shrunk, 24);
    assert!(message.contains("mapP"));
    assert!(small.to_string().contains("mapP"));
    assert!(
        small.size() <= original,
        "shrunk to {} nodes from {original}: {small}",
        small.size()
    );
    assert!(small.size() < 40, "not small: {small}");
}
