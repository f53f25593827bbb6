//! Data-driven tests: every `tests/nested/*.lp` program goes through the whole
//! pipeline (λP → λC → λA, evaluation, readback, theorem checks); both sides
//! must observe the value of the file's `-- expect:` line, and every check
//! must hold: neither violated nor unknown (a researcher checking the thesis'
//! claims on its own examples needs a verdict). One `check` helper runs every
//! file.

use reference::nested::concrete::expected_observation;
use reference::nested::machine::with_large_stack;
use reference::nested::pipeline::{run_file, Options, Rejection};
use reference::nested::theorems::{Outcome, Verdict};
use spec::source::SourceMap;
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/nested");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&directory)
        .expect("tests/nested exists")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "lp" || e == "lc"))
        .collect();
    files.sort();
    files
}

/// Runs one program; returns a description of every failure.
fn check(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable program");
    let name = path.display().to_string();
    let Some(expected) = expected_observation(&text) else {
        return vec![format!("{name}: no `-- expect:` line")];
    };
    let report = with_large_stack(move || {
        let mut sources = SourceMap::new();
        let file = sources.add(name.clone(), text.clone());
        let options = Options {
            subject_reduction_steps: 25,
            ..Options::default()
        };
        match run_file(file, &name, &text, &options) {
            Ok(report) => Ok(report),
            Err(Rejection::Source(d)) => Err(d.render(&sources)),
            Err(Rejection::Internal(m)) => Err(m),
        }
    });
    let name = path.display().to_string();
    let report = match report {
        Ok(report) => report,
        Err(message) => return vec![format!("{name}: rejected: {message}")],
    };
    let mut failures = Vec::new();
    for (side, outcome) in [("λC", &report.outcome_c), ("λA", &report.outcome_a)] {
        match outcome {
            Outcome::Observed(o) if o.to_string() == expected => {}
            other => failures.push(format!("{name}: {side} gives {other}, expected {expected}")),
        }
    }
    for check in &report.checks {
        if check.verdict != Verdict::Holds {
            failures.push(format!("{name}: {}: {:?}", check.name, check.verdict));
        }
    }
    failures
}

#[test]
fn every_thesis_example_observes_its_expectation_on_both_sides() {
    let files = programs();
    assert!(
        files.len() >= 10,
        "expected the thesis examples, found {files:?}"
    );
    let failures: Vec<String> = files.iter().flat_map(|f| check(f)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
