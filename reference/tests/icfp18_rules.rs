//! Every ICFP'18 rule id listed in `proofs-notes/rules.toml` is tagged exactly
//! once in `reference/src/modules/` (`// ICFP18 rule 29`, `// Extension:
//! ICFP18 ...`), every ICFP18 tag there is listed, and every rule fires on at
//! least one test program of `tests/modules/` (valid or negative).

mod icfp18_common;

use icfp18_common::{check_file, programs, workspace};
use reference::coverage;
use std::collections::BTreeMap;

fn icfp18_ids() -> Vec<String> {
    let text =
        std::fs::read_to_string(workspace().join("proofs-notes/rules.toml")).expect("rules.toml");
    let mut ids = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(value) = line.strip_prefix("id = ") {
            current = Some(value.trim_matches('"').to_string());
        }
        if let Some(value) = line.strip_prefix("paper = ") {
            if value.trim_matches('"') == "icfp18" {
                if let Some(id) = current.take() {
                    ids.push(id);
                }
            }
        }
    }
    ids
}

fn tags_in_modules() -> BTreeMap<String, usize> {
    let mut tags = BTreeMap::new();
    let dir = workspace().join("reference/src/modules");
    for entry in std::fs::read_dir(dir).expect("modules dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|ext| ext != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("source");
        for line in text.lines() {
            let Some(comment) = line.trim().strip_prefix("// ") else {
                continue;
            };
            let tag = comment.strip_prefix("Extension: ").unwrap_or(comment);
            let words: Vec<&str> = tag.split_whitespace().collect();
            let numbered =
                words.len() == 3 && words[1] == "rule" && words[2].parse::<u32>().is_ok();
            let named = words.len() == 2;
            if words.first() == Some(&"ICFP18") && (numbered || named) {
                *tags.entry(tag.to_string()).or_insert(0) += 1;
            }
        }
    }
    tags
}

#[test]
fn every_icfp18_rule_is_tagged_exactly_once_and_every_tag_is_listed() {
    let ids = icfp18_ids();
    assert_eq!(
        ids.iter()
            .filter(|id| id.starts_with("ICFP18 rule "))
            .count(),
        62,
        "rules 9–70"
    );
    let tags = tags_in_modules();
    for id in &ids {
        assert_eq!(tags.get(id), Some(&1), "{id} must be tagged exactly once");
    }
    for tag in tags.keys() {
        assert!(ids.contains(tag), "tag {tag} is not listed in rules.toml");
    }
}

#[test]
fn every_icfp18_rule_fires_on_a_test_program() {
    let mut files = programs("tests/modules");
    files.extend(programs("tests/modules/errors"));
    let ((), counts) = coverage::record(|| {
        for path in &files {
            let _ = check_file(path);
        }
    });
    let silent: Vec<String> = icfp18_ids()
        .into_iter()
        .filter(|id| counts.get(id.as_str()).copied().unwrap_or(0) == 0)
        .collect();
    assert!(silent.is_empty(), "rules that never fire: {silent:?}");
}
