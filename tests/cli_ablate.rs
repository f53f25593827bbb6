//! `runestone ablate`: the registry is listed, a usage error is exit 2, and
//! one premise's ablation prints the baseline, its line and the table,
//! writing the counterexample it found.

mod common;

use common::{runestone, text, ScratchDirectory};

#[test]
fn list_prints_every_premise_of_the_registry() {
    let out = runestone(&["ablate", "--list"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    assert_eq!(
        listed.lines().count(),
        reference::ablation::PREMISES.len(),
        "{listed}"
    );
    assert!(listed.contains("TFP18_T_IF_ORDER_ZERO"), "{listed}");
    assert!(listed.contains("ICFP18 rule 37"), "{listed}");
}

#[test]
fn unknown_names_are_usage_errors() {
    for args in [
        ["ablate", "--paper", "popl19"],
        ["ablate", "--premise", "NO_SUCH"],
        ["ablate", "--rule", "TFP18 T-Nothing"],
    ] {
        let out = runestone(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("runestone ablate:"), "{args:?}");
    }
}

#[test]
fn one_premise_is_ablated_and_its_counterexample_written() {
    let dir = ScratchDirectory::new("cli-ablate");
    let table = dir.join("table.md");
    let out = runestone(&[
        "ablate",
        "--premise",
        "TFP18_T_IF_ORDER_ZERO",
        "--count",
        "200",
        "--jobs",
        "2",
        "--out",
        dir.join("out").to_str().expect("utf-8 path"),
        "--markdown",
        table.to_str().expect("utf-8 path"),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("tfp18 baseline: 200 programs, 0 disagreements"),
        "{stdout}"
    );
    assert!(stdout.contains("[1/1] TFP18_T_IF_ORDER_ZERO"), "{stdout}");
    assert!(stdout.contains("Theorem 1"), "{stdout}");
    let written = std::fs::read_to_string(dir.join("out/ablation-tfp18-t-if-order-zero.fut"))
        .expect("the counterexample");
    assert!(written.contains("-- Check: Theorem 1"), "{written}");
    let markdown = std::fs::read_to_string(&table).expect("the table");
    assert!(
        markdown.contains("| `TFP18_T_IF_ORDER_ZERO` | TFP18 T-If |"),
        "{markdown}"
    );
}
