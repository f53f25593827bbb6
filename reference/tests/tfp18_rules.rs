//! TFP'18 rule coverage and the theorem checks on every test program.
//!
//! * every `TFP18` rule id of `proofs-notes/rules.toml` is tagged exactly once
//!   (`// TFP18 X` or `// Extension: TFP18 X`) in `reference/src/core/`, and
//!   every such tag is listed;
//! * every test program of the core's folders of `tests/programs/` (and the
//!   TFP'18 example) passes on the reference, which checks Theorems 1–2 and
//!   Corollary 1 on every case (a violation fails the case);
//! * every TFP18 rule fires on at least one of these programs.

use reference::core::harness::{collect_programs, test_program, Summary};
use reference::coverage;
use std::path::{Path, PathBuf};

/// The folders of `tests/programs/` that the module-free core runs.
const CORE_FOLDERS: &[&str] = &[
    "arith",
    "arrays",
    "errors",
    "hof",
    "loops",
    "or_conditionals",
    "paper",
    "polymorphism",
    "records",
    "restrictions",
    "sizes",
    "soacs",
    "sums",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rule_ids() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("proofs-notes/rules.toml")).expect("rules.toml");
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("id = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|id| id.starts_with("TFP18 "))
        .map(String::from)
        .collect()
}

fn core_sources() -> Vec<(PathBuf, String)> {
    let dir = root().join("reference/src/core");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("core dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source");
            out.push((path, text));
        }
    }
    out
}

fn tags(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix("// Extension: TFP18 ")
                .or_else(|| l.strip_prefix("// TFP18 "))
                .map(|rest| format!("TFP18 {}", rest.trim()))
        })
        .collect()
}

#[test]
fn every_rule_is_tagged_exactly_once_and_every_tag_is_listed() {
    let ids = rule_ids();
    assert!(
        ids.len() > 100,
        "rules.toml lists {} TFP18 rules",
        ids.len()
    );
    let all_tags: Vec<String> = core_sources().iter().flat_map(|(_, t)| tags(t)).collect();
    for id in &ids {
        let n = all_tags.iter().filter(|t| *t == id).count();
        assert_eq!(n, 1, "{id} is tagged {n} times in reference/src/core");
    }
    for tag in &all_tags {
        assert!(
            ids.contains(tag),
            "{tag} is tagged but not listed in rules.toml"
        );
    }
}

#[test]
fn every_program_passes_with_the_theorems_checked_and_every_rule_fires() {
    let mut files = Vec::new();
    for folder in CORE_FOLDERS {
        collect_programs(&root().join("tests/programs").join(folder), &mut files);
    }
    files.push(root().join("examples/paper/tfp18_fig1a.fut"));
    assert!(files.len() >= 130, "only {} programs", files.len());
    let mut summary = Summary::default();
    let ((), counts) = coverage::record(|| {
        for f in &files {
            test_program(f, &mut summary);
        }
    });
    assert!(
        summary.failed == 0,
        "{} failed:\n{}",
        summary.failed,
        summary.failures.join("\n")
    );
    let never: Vec<String> = rule_ids()
        .into_iter()
        .filter(|id| !counts.keys().any(|k| k == id))
        .collect();
    assert!(never.is_empty(), "rules that never fire: {never:?}");
}
