//! The rule table `proofs-notes/rules.toml` against the code, for every paper:
//! each listed id is tagged exactly once in `reference/src` (`// <id>` or
//! `// Extension: <id>`, followed by the end of the line or a non-identifier
//! character), every such tag is listed, and every listed id fires at least
//! once while the test programs run (`coverage::record`).
//!
//! The programs run here, per paper: Leshchinskiy — the examples
//! (`tests/nested/*.lp` and `*.lc`, read here) and the coverage exercises of
//! `reference::nested::exercises`; ICFP'18 — every program of `tests/modules/`
//! and `tests/modules/errors/` (a rejected program fires the rules up to the
//! failing premise); TFP'18 — every program of `tests/programs/` and
//! `examples/paper/`.

mod icfp18_common;

use reference::coverage::{record, RuleCounts};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `(id, paper)` of every `[[rule]]` in rules.toml (the simple format of its
/// header, parsed by hand).
fn listed_rules() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../proofs-notes/rules.toml");
    let text = std::fs::read_to_string(path).expect("proofs-notes/rules.toml");
    let mut rules = Vec::new();
    let mut current: Option<(Option<String>, Option<String>)> = None;
    let flush = |current: &mut Option<(Option<String>, Option<String>)>,
                 rules: &mut Vec<(String, String)>| {
        if let Some((id, paper)) = current.take() {
            let id = id.expect("every [[rule]] has an id");
            let paper = paper.unwrap_or_else(|| panic!("rule {id} has no paper"));
            rules.push((id, paper));
        }
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if line == "[[rule]]" {
            flush(&mut current, &mut rules);
            current = Some((None, None));
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            panic!("unexpected line in rules.toml: {line}");
        };
        let value = value.trim().trim_matches('"').to_string();
        let entry = current.as_mut().expect("key outside a [[rule]] table");
        match key.trim() {
            "id" => entry.0 = Some(value),
            "paper" => entry.1 = Some(value),
            "what" => {}
            other => panic!("unknown key {other} in rules.toml"),
        }
    }
    flush(&mut current, &mut rules);
    rules
}

fn source_files(directory: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(directory).expect("readable source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            source_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

const PAPERS: [&str; 4] = ["ICFP18", "ICFP99", "TFP18", "L05"];

/// Every tag in reference/src: the text after `// ` or `// Extension: ` when
/// it starts with a paper prefix, up to the end of the line.
fn tags_in_source() -> BTreeMap<String, usize> {
    let mut files = Vec::new();
    source_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut tags = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable source");
        for line in text.lines() {
            let Some(position) = line.find("// ") else {
                continue;
            };
            let comment = &line[position + 3..];
            let comment = comment.strip_prefix("Extension: ").unwrap_or(comment);
            if PAPERS.iter().any(|p| comment.starts_with(&format!("{p} "))) {
                *tags.entry(comment.trim_end().to_string()).or_insert(0) += 1;
            }
        }
    }
    tags
}

#[test]
fn every_listed_rule_is_tagged_exactly_once_and_every_tag_is_listed() {
    let listed: BTreeSet<String> = listed_rules().into_iter().map(|(id, _)| id).collect();
    let tags = tags_in_source();
    let mut problems = Vec::new();
    for id in &listed {
        match tags.get(id) {
            Some(1) => {}
            Some(n) => problems.push(format!("{id} is tagged {n} times")),
            None => problems.push(format!("{id} is listed but not tagged")),
        }
    }
    for tag in tags.keys() {
        if !listed.contains(tag) {
            problems.push(format!("the tag `{tag}` is not listed in rules.toml"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn rule_ids_are_unique_and_name_their_paper() {
    let rules = listed_rules();
    let mut seen = BTreeSet::new();
    for (id, paper) in &rules {
        assert!(seen.insert(id.clone()), "{id} is listed twice");
        assert!(
            PAPERS.iter().any(|p| id.starts_with(&format!("{p} "))),
            "{id} does not start with a paper"
        );
        assert!(!paper.is_empty(), "{id} has an empty paper");
    }
}

/// `(name, text)` of the λP and λC examples of `tests/nested`, in name order.
fn nested_examples() -> Vec<(String, String)> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/nested");
    let mut programs: Vec<(String, String)> = std::fs::read_dir(&directory)
        .expect("tests/nested")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "lp" || e == "lc"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable example");
            (path.display().to_string(), text)
        })
        .collect();
    programs.sort();
    programs
}

fn fired_by_test_programs() -> RuleCounts {
    let examples = nested_examples();
    let mut counts = reference::nested::machine::with_large_stack(|| {
        let (failures, counts) = record(|| reference::nested::exercises::run_all(examples));
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        counts
    });
    let mut module_programs = icfp18_common::programs("tests/modules");
    module_programs.extend(icfp18_common::programs("tests/modules/errors"));
    let ((), module_counts) = record(|| {
        for path in &module_programs {
            let _ = icfp18_common::check_file(path);
        }
    });
    for (rule, n) in module_counts {
        *counts.entry(rule).or_insert(0) += n;
    }
    // TFP'18: every program of tests/programs/ and examples/paper/ (module
    // programs run on the core through the module calculus).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let core_programs = driver::discover::programs_under(&[
        root.join("tests/programs"),
        root.join("examples/paper"),
    ]);
    let ((), core_counts) = record(|| {
        for path in &core_programs {
            let options = driver::LoadOptions::default();
            driver::cases::test_program(path, driver::Backend::Reference, options, &[]);
        }
    });
    for (rule, n) in core_counts {
        *counts.entry(rule).or_insert(0) += n;
    }
    counts
}

#[test]
fn icfp18_lists_rules_9_to_70() {
    let numbered: BTreeSet<u32> = listed_rules()
        .into_iter()
        .filter_map(|(id, _)| id.strip_prefix("ICFP18 rule ")?.parse().ok())
        .collect();
    assert_eq!(numbered, (9..=70).collect::<BTreeSet<u32>>());
}

#[test]
fn every_listed_rule_fires_on_the_test_programs() {
    let fired = fired_by_test_programs();
    let never: Vec<String> = listed_rules()
        .into_iter()
        .map(|(id, _)| id)
        .filter(|id| !fired.contains_key(id.as_str()))
        .collect();
    assert!(
        never.is_empty(),
        "rules that never fire:\n{}",
        never.join("\n")
    );
}

/// The premise registry (`reference::ablation::PREMISES`) against the rule
/// table and the code: each premise names a listed rule of its paper, and
/// each is tested by name in exactly one place outside the registry (the
/// arm that transcribes its rule), so that switching it off changes that
/// arm and nothing else.
#[test]
fn every_premise_names_a_listed_rule_and_is_tested_in_one_place() {
    let listed: BTreeMap<String, String> = listed_rules().into_iter().collect();
    let mut files = Vec::new();
    source_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let sources: Vec<String> = files
        .iter()
        .filter(|path| !path.ends_with("ablation.rs"))
        .map(|path| std::fs::read_to_string(path).expect("readable source"))
        .collect();
    for premise in reference::ablation::PREMISES {
        let paper = listed
            .get(premise.rule)
            .unwrap_or_else(|| panic!("{}: rule {} is not listed", premise.name, premise.rule));
        let expected_paper = match premise.paper {
            reference::ablation::Paper::Icfp18 => "icfp18",
            reference::ablation::Paper::Tfp18 => "tfp18",
        };
        assert_eq!(paper, expected_paper, "{}", premise.name);
        let uses: usize = sources
            .iter()
            .map(|text| {
                text.match_indices(premise.name)
                    .filter(|(at, _)| {
                        let after = text[at + premise.name.len()..].chars().next();
                        !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    })
                    .count()
            })
            .sum();
        assert_eq!(uses, 1, "{} is tested in {uses} places", premise.name);
    }
}
