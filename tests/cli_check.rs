//! `runestone check` end to end: Fig. 3 prints Fig. 5 and Fig. 3b and the
//! Proposition 6.1 verdict with exit status 0; a rejected program prints a
//! located diagnostic naming the rule and exits with status 1.

mod common;

use common::runestone_code_and_text as runestone;

#[test]
fn check_prints_figure_5_figure_3b_and_the_verdict() {
    let (status, stdout, _) = runestone(&["check", "tests/modules/fig3.fut", "--env", "--target"]);
    assert_eq!(status, 0, "{stdout}");
    assert!(
        stdout.contains("Main ↦ ({}, {f ↦ i32 → i32}, {}, {})"),
        "{stdout}"
    );
    assert!(stdout.contains(" = 8\n"), "{stdout}");
    assert!(stdout.contains("Proposition 6.1 holds"), "{stdout}");
}

#[test]
fn check_trace_prints_the_derivation() {
    let (status, stdout, _) = runestone(&["check", "tests/modules/fig3.fut", "--trace"]);
    assert_eq!(status, 0);
    assert!(stdout.contains("ICFP18 rule 29: E ⊢ H(mexp)"), "{stdout}");
}

#[test]
fn check_rejects_with_the_rule_and_location() {
    let (status, _, stderr) = runestone(&["check", "tests/modules/errors/apply-missing-val.fut"]);
    assert_eq!(status, 1);
    assert!(stderr.contains("error[rule 29]: rule 29: argument does not match the parameter module type: missing val b"), "{stderr}");
    assert!(stderr.contains("apply-missing-val.fut:4:14"), "{stderr}");
}
