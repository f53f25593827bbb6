//! The CLI end to end: `runestone parse` on good and broken programs, and the
//! announced commands that are not implemented yet (they must say so and exit
//! 2, never pretend to work).

mod common;

use common::{runestone, text};

#[test]
fn parse_prints_a_program_that_parses_again() {
    let out = runestone(&["parse", "examples/paper/fig3.fut"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(printed.contains("module type MT"), "{printed}");
    let dir = std::env::temp_dir().join(format!("runestone-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("printed.fut");
    std::fs::write(&path, &printed).expect("write");
    let again = runestone(&["parse", path.to_str().expect("utf-8 path")]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), printed, "printing is not idempotent");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn parse_reports_a_located_syntax_error_and_exits_1() {
    let out = runestone(&["parse", "tests/syntax-errors/unclosed-paren.fut"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("tests/syntax-errors/unclosed-paren.fut:3:3"),
        "{stderr}"
    );
    assert!(stderr.contains("expected `)`"), "{stderr}");
    assert!(text(&out.stdout).is_empty());
}

#[test]
fn parse_of_a_missing_file_exits_1() {
    let out = runestone(&["parse", "no/such/file.fut"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read no/such/file.fut"));
}

#[test]
fn parse_tree_prints_the_syntax_tree() {
    let out = runestone(&["parse", "--tree", "examples/paper/tfp18_fig1a.fut"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Value("));
}
