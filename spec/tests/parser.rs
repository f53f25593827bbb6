//! Data-driven parser tests.
//!
//! - Every program under `examples/` and `tests/programs/` parses, and printing
//!   it gives a program that parses back to the same tree (and prints the same).
//! - Every program under `tests/syntax-errors/` is rejected with the diagnostic
//!   recorded in its snapshot (`spec/tests/snapshots/`).
//! - Pathological nesting ends with the nesting diagnostic, never a crash.

use spec::source::SourceMap;
use spec::syntax::{parse_program, printer::print_program};
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("spec/ has a parent")
        .to_path_buf()
}

fn fut_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            fut_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "fut") {
            out.push(path);
        }
    }
}

/// Parses `text`, prints it, re-parses and re-prints: the trees and the two
/// printings must agree.
fn check_round_trip(name: &str, text: &str) {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    let program = match parse_program(file, text) {
        Ok(program) => program,
        Err(d) => panic!("{name} does not parse:\n{}", d.render(&sources)),
    };
    let printed = print_program(&program);
    let reprinted_file = sources.add(format!("{name} (printed)"), printed.clone());
    let reparsed = match parse_program(reprinted_file, &printed) {
        Ok(program) => program,
        Err(d) => panic!(
            "the printing of {name} does not parse:\n{}\n--- printed ---\n{printed}",
            d.render(&sources)
        ),
    };
    assert!(
        reparsed == program,
        "{name}: the printed program parses to a different tree\n--- printed ---\n{printed}"
    );
    assert_eq!(
        print_program(&reparsed),
        printed,
        "{name}: printing is not idempotent"
    );
}

#[test]
fn every_example_and_test_program_round_trips() {
    let root = workspace_root();
    let mut files = Vec::new();
    fut_files(&root.join("examples"), &mut files);
    fut_files(&root.join("tests/programs"), &mut files);
    assert!(
        !files.is_empty(),
        "no .fut files found under examples/ or tests/programs/"
    );
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        check_round_trip(&path.display().to_string(), &text);
    }
}

#[test]
fn syntax_errors_match_their_snapshots() {
    insta::glob!("../../tests/syntax-errors", "*.fut", |path| {
        let text = std::fs::read_to_string(path).expect("readable");
        let name = format!(
            "tests/syntax-errors/{}",
            path.file_name().expect("a file").to_string_lossy()
        );
        let mut sources = SourceMap::new();
        let file = sources.add(name.clone(), text.clone());
        match parse_program(file, &text) {
            Ok(_) => panic!("{name} should be rejected"),
            Err(diagnostic) => insta::assert_snapshot!(diagnostic.render(&sources)),
        }
    });
}

fn nesting_error(text: &str) -> String {
    let mut sources = SourceMap::new();
    let file = sources.add("deep.fut", text);
    match parse_program(file, text) {
        Ok(_) => "accepted".to_string(),
        Err(d) => d.message,
    }
}

#[test]
fn deep_nesting_ends_with_a_diagnostic() {
    let n = 100_000;
    let cases = [
        format!("def x = {}1{}", "(".repeat(n), ")".repeat(n)),
        format!("def x = {}1{}", "[".repeat(n), "]".repeat(n)),
        format!("def x = {}1", "- ".repeat(n)),
        format!("def x = {}true", "! ".repeat(n)),
        format!("def x = {}", vec!["1"; n].join(" + ")),
        format!("def x = {}", vec!["1"; n].join(" ** ")),
        format!("def x = f {}", vec!["1"; n].join(" ")),
        format!("def x = {} 1", "let y = 1 in ".repeat(n)),
        format!("type t = {}i32", "[]".repeat(n)),
        format!("module m = {}{}", "{ module m = ".repeat(n), "}".repeat(n)),
        format!("def x : {}", "(".repeat(n)),
    ];
    for text in cases {
        let message = nesting_error(&text);
        assert!(
            message.contains("levels deep"),
            "expected the nesting diagnostic for {:?}…, got {}",
            &text[..40],
            message.chars().take(200).collect::<String>()
        );
    }
}

#[test]
fn moderately_deep_programs_are_accepted() {
    let cases = [
        format!("def x = {}1{}", "(".repeat(500), ")".repeat(500)),
        format!("def x = {}", vec!["1"; 1000].join(" + ")),
        format!("def x = {} 1", "let y = 1 in ".repeat(1000)),
        format!("def x = {} 1", "let y = 1\n".repeat(1000) + "in"),
    ];
    for text in cases {
        assert_eq!(nesting_error(&text), "accepted", "{}", &text[..40]);
    }
}
