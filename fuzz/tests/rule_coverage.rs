//! Rule coverage by generated programs (issue 6): within a fixed-seed budget
//! of every campaign (`fuzz::rule_coverage::budget_coverage`, seed 1, 1 000
//! items per oracle and of the nested campaign), every rule of
//! `proofs-notes/rules.toml` fires, except those listed in
//! `fuzz::rule_coverage::CANNOT_FIRE` — and those must not fire (a rule that
//! starts firing leaves the list). Fails when coverage regresses.

use fuzz::rule_coverage::{budget_coverage, cannot_fire, listed_rules, CANNOT_FIRE};

#[test]
fn every_rule_fires_under_generated_programs_except_the_listed_ones() {
    let counts = budget_coverage(1, 1000, 2);
    let rules = listed_rules();
    assert!(rules.len() > 400, "only {} rules listed", rules.len());
    let mut problems = Vec::new();
    for rule in &rules {
        let fired = counts.get(rule).copied().unwrap_or(0);
        match (cannot_fire(rule), fired) {
            (None, 0) => problems.push(format!("{rule} never fires (coverage regressed)")),
            (Some(_), n) if n > 0 => problems.push(format!(
                "{rule} fires {n} times: remove it from CANNOT_FIRE"
            )),
            _ => {}
        }
    }
    for entry in CANNOT_FIRE {
        if !rules.contains(&entry.rule) {
            problems.push(format!(
                "{} is listed in CANNOT_FIRE but not in rules.toml",
                entry.rule
            ));
        }
        assert!(!entry.reason.is_empty(), "{} has no reason", entry.rule);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
