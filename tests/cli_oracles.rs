//! `runestone fuzz --oracle verdict|defunc|value`: a short campaign prints its
//! summary, outcome table and rule coverage, and exits 0 when nothing
//! disagrees.

mod common;

use common::runestone_code_and_text as runestone;

#[test]
fn short_oracle_campaigns_print_a_summary_and_coverage() {
    for (oracle, rule) in [
        ("verdict", "TFP18 T-Lam"),
        ("defunc", "TFP18 D-Lam"),
        ("value", "TFP18 D-Lam"),
    ] {
        let (code, stdout, stderr) = runestone(&[
            "fuzz", "--oracle", oracle, "--seed", "1", "--count", "20", "--jobs", "2",
        ]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(stdout.contains("summary: 20 programs"), "{stdout}");
        assert!(stdout.contains("rule coverage"), "{stdout}");
        assert!(stdout.contains(rule), "{stdout}");
    }
}

#[test]
fn a_campaigns_json_has_its_totals_and_findings() {
    let path =
        std::env::temp_dir().join(format!("runestone-fuzz-json-{}.json", std::process::id()));
    let (code, stdout, stderr) = runestone(&[
        "fuzz",
        "--oracle",
        "verdict",
        "--seed",
        "3",
        "--count",
        "12",
        "--json",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the JSON file"))
            .expect("JSON");
    assert_eq!(doc["oracle"], "verdict");
    assert_eq!(doc["seed"], 3);
    assert_eq!(doc["programs"], 12);
    assert_eq!(doc["disagreements"], 0);
    assert_eq!(doc["findings"].as_array().map(Vec::len), Some(0));
    let kinds: u64 = doc["kinds"]
        .as_object()
        .expect("kinds")
        .values()
        .map(|k| k["agree"].as_u64().unwrap_or(0) + k["discard"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(kinds, 12, "{doc}");
    std::fs::remove_file(&path).ok();
}

#[test]
fn reduce_refuses_a_program_without_a_difference() {
    let (code, stdout, stderr) =
        runestone(&["reduce", "tests/programs/entries/entry_calls_entry.fut"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("agree on") && stderr.contains("nothing to reduce"),
        "{stderr}"
    );
    assert!(!std::path::Path::new("tests/programs/entries/entry_calls_entry.reduced.fut").exists());
}
