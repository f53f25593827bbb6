//! Tidy: no decision on a diagnostic's text (issue 24). Programs are routed,
//! outcomes classified and campaigns triaged on codes and kinds
//! (`spec::diagnostic::codes`, `Diagnostic::kind`, the driver's typed
//! outcomes); a diagnostic's message is for people and may be reworded
//! freely. This test fails on `contains`, `starts_with` or `ends_with`
//! called on a `message` field in library and binary code (tests may inspect
//! messages: files named `tests.rs` or `*_tests.rs`, and everything from a
//! file's `#[cfg(test)]` on, are not searched; nor are comments).

use std::path::{Path, PathBuf};

/// The source folders of the workspace's libraries and binaries.
const SOURCE_FOLDERS: [&str; 8] = [
    "spec/src",
    "reference/src",
    "optimized/src",
    "gpu/src",
    "driver/src",
    "fuzz/src",
    "benches/src",
    "src",
];

/// The string methods that decide on a text.
const TEXT_TESTS: [&str; 3] = ["contains", "starts_with", "ends_with"];

/// `.message.METHOD(` for each of [`TEXT_TESTS`].
fn forbidden() -> Vec<String> {
    TEXT_TESTS
        .iter()
        .map(|method| format!(".message.{method}("))
        .collect()
}

fn rust_files(directory: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests.rs" || name.ends_with("_tests.rs")
}

#[test]
fn no_decision_on_a_diagnostic_message() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for folder in SOURCE_FOLDERS {
        rust_files(&root.join(folder), &mut files);
    }
    assert!(files.len() > 100, "only {} source files found", files.len());
    let forbidden = forbidden();
    let mut offences = Vec::new();
    for path in files.iter().filter(|path| !is_test_file(path)) {
        let text = std::fs::read_to_string(path).expect("readable source");
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let comment = line.trim_start().starts_with("//");
            if !comment
                && forbidden
                    .iter()
                    .any(|pattern| line.contains(pattern.as_str()))
            {
                offences.push(format!(
                    "{}:{}: {}",
                    path.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "decisions on a diagnostic's text (use its code: spec::diagnostic::codes):\n{}",
        offences.join("\n")
    );
}

/// The test has teeth: the patterns it forbids are found where they occur.
#[test]
fn the_patterns_are_found() {
    let line = format!("        if d.message.{}(\"some text\") {{", TEXT_TESTS[0]);
    assert!(forbidden()
        .iter()
        .any(|pattern| line.contains(pattern.as_str())));
}
