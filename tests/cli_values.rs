//! `runestone values` end to end: the built binary on a small input, on
//! binary input, and on malformed input.

mod common;

use common::runestone_with_stdin;
use std::process::Output;

#[test]
fn prints_values_normalised() {
    let out = values(
        &[],
        b"[1, 2] -- comment\n0xffu8 1e3 empty([2][0]f32) (1, true)\n",
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[1i32, 2i32]\n255u8\n1000.0f64\nempty([2][0]f32)\n(1i32, true)\n"
    );
}

#[test]
fn binary_output_reads_back() {
    let out = values(&["--binary"], b"[1.5f32, f32.nan] 7i64");
    assert!(out.status.success());
    assert_eq!(&out.stdout[..2], b"b\x02");
    let back = values(&["-"], &out.stdout);
    assert!(back.status.success());
    assert_eq!(
        String::from_utf8_lossy(&back.stdout),
        "[1.5f32, f32.nan]\n7i64\n"
    );
}

#[test]
fn malformed_input_is_a_located_diagnostic() {
    let out = values(&[], b"[1, 2]\n[3, 300u8]\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("<stdin>:2:5"), "{stderr}");
    assert!(stderr.contains("out of range for u8"), "{stderr}");

    let out = values(&[], b"1 ; 2");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(":1:3"), "{stderr}");
    assert!(stderr.contains("unexpected `;`"), "{stderr}");
}

#[test]
fn compound_values_cannot_be_written_in_binary() {
    let out = values(&["--binary"], b"(1, 2)");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("cannot be written in Futhark's binary format"));
}

#[test]
fn a_missing_file_is_reported() {
    let out = values(&["/nonexistent/input.txt"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/input.txt"));
}

/// `runestone values ARGS` reading `stdin`.
fn values(args: &[&str], stdin: &[u8]) -> Output {
    let mut all = vec!["values"];
    all.extend_from_slice(args);
    runestone_with_stdin(&all, stdin)
}
