//! The test-block table: each row is a program and the summary its blocks print
//! as (`Display for TestFile`), or the errors it reports as `line:col: message`.

use super::*;
use crate::source::SourceMap;

/// Parses `source` and compares the summary (or the errors) with `expected`,
/// both trimmed. Returns a description of the mismatch, if any.
fn check(source: &str, expected: &str) -> Result<(), String> {
    let mut sources = SourceMap::new();
    let file = sources.add("test.fut", source);
    let actual = match parse_test_file(file, source) {
        Ok(parsed) => parsed.to_string(),
        Err(errors) => errors
            .iter()
            .map(|d| {
                let at = d
                    .primary_span()
                    .map(|s| {
                        let (line, column) = sources.get(s.file).line_column(s.start as usize);
                        format!("{line}:{column}")
                    })
                    .unwrap_or_default();
                format!("{at}: {}", d.message)
            })
            .collect::<Vec<_>>()
            .join("\n"),
    };
    if actual.trim() == expected.trim() {
        Ok(())
    } else {
        Err(format!(
            "--- source\n{source}\n--- expected\n{}\n--- actual\n{}\n",
            expected.trim(),
            actual.trim()
        ))
    }
}

/// (name, source, expected summary or errors).
const TABLE: &[(&str, &str, &str)] = &[
    ("no block", "def main (x: i32) = x\n", ""),
    (
        "comment without divider is not a block",
        "-- input { 1 } output { 2 }\ndef main (x: i32) = x + 1\n",
        "",
    ),
    (
        "one case, default entry",
        "-- ==\n-- input { 1 } output { 2 }\ndef main (x: i32) = x + 1\n",
        "block entry: main\n  input { 1 } -> output { 2 }",
    ),
    (
        "description above the divider",
        "-- Adds one.\n-- Really.\n-- ==\n-- input { 1 } output { 2 }\n",
        "block entry: main\n  description: \"Adds one.\\nReally.\"\n  input { 1 } -> output { 2 }",
    ),
    (
        "several cases on several lines, no trailing newline",
        "-- ==\n-- input { [1,2,3] 4i64 }\n-- output { 10 }\n-- input { [] 0i64 }\n-- output { 0 }",
        "block entry: main\n  input { [1,2,3] 4i64 } -> output { 10 }\n  input { [] 0i64 } -> output { 0 }",
    ),
    (
        "multi-line values keep their lines, markers blanked",
        "-- ==\n-- input {\n--   [[1, 2],\n--    [3, 4]]\n-- }\n-- output { [4, 6] }\n",
        "block entry: main\n  input { [[1, 2], [3, 4]] } -> output { [4, 6] }",
    ),
    (
        "record value with balanced braces",
        "-- ==\n-- input { {a = 1, b = {c = 2}} } output { 3 }\n",
        "block entry: main\n  input { {a = 1, b = {c = 2}} } -> output { 3 }",
    ),
    (
        "entry points and tags",
        "-- ==\n-- tags { slow no-gpu x_1 }\n-- entry: add1 add_2 _sub\n-- input { 1 } output { 2 }\n",
        "block entry: add1 add_2 _sub tags { slow no-gpu x_1 }\n  input { 1 } -> output { 2 }",
    ),
    (
        "entry before tags is fine too",
        "-- ==\n-- entry: f\n-- tags { t }\n-- input { 1 }\n",
        "block entry: f tags { t }\n  input { 1 } -> success",
    ),
    (
        "runtime error regex runs to end of line, trimmed",
        "-- ==\n-- input { [1] 5i64 } error: Error.* index [0-9]+   \n-- input { [1] 0i64 } output { 1 }\n",
        "block entry: main\n  input { [1] 5i64 } -> error: Error.* index [0-9]+\n  input { [1] 0i64 } -> output { 1 }",
    ),
    (
        "empty error regex matches anything",
        "-- ==\n-- input { 1 } error:\n",
        "block entry: main\n  input { 1 } -> error: ",
    ),
    (
        "input and output files",
        "-- ==\n-- input @ data/a.in output @ data/a.out\n-- input @data/b.in\n-- output @ data/b.out\n-- input { 1 } output @ one.out\n",
        "block entry: main\n  input @ data/a.in -> output @ data/a.out\n  input @ data/b.in -> output @ data/b.out\n  input { 1 } -> output @ one.out",
    ),
    (
        "random input and auto output",
        "-- ==\n-- random input { [100]i32 [100]f32 } auto output\n-- random input { [10][20]f64 }\n",
        "block entry: main\n  random input { [100]i32 [100]f32 } -> auto output\n  random input { [10][20]f64 } -> success",
    ),
    (
        "script input, inline and from a file",
        "-- ==\n-- script input { mk 10i64 } output { 55 }\n-- script input @ gen.futharkscript\n",
        "block entry: main\n  script input { mk 10i64 } -> output { 55 }\n  script input @ gen.futharkscript -> success",
    ),
    (
        "flags and names",
        "-- ==\n-- compiled input { 1 } output { 1 }\n-- nobench notest input { 2 }\n-- \"big one\" compiled random input { [1000]i32 } auto output\n",
        "block entry: main\n  compiled input { 1 } -> output { 1 }\n  nobench notest input { 2 } -> success\n  \"big one\" compiled random input { [1000]i32 } -> auto output",
    ),
    (
        "input without outcome followed by another case",
        "-- ==\n-- input { 1 }\n-- input { 2 } output { 2 }\n",
        "block entry: main\n  input { 1 } -> success\n  input { 2 } -> output { 2 }",
    ),
    (
        "compile-time error",
        "-- ==\n-- error: Type mismatch.*i32\ndef main = 1 + true\n",
        "block entry: main\n  compile error: Type mismatch.*i32",
    ),
    (
        "compile-time error with entry and structure",
        "-- ==\n-- entry: f\n-- error: bad\n-- structure { Map 1 }\n",
        "block entry: f\n  compile error: bad\n  structure { Map 1 }",
    ),
    (
        "structure blocks kept raw",
        "-- ==\n-- input { 1 } output { 1 }\n-- structure { /Screma 1 /Loop 0 }\n-- structure gpu-mem {\n--   Alloc 2\n-- }\n",
        "block entry: main\n  input { 1 } -> output { 1 }\n  structure { /Screma 1 /Loop 0 }\n  structure gpu-mem { Alloc 2 }",
    ),
    (
        "expected compiler warnings",
        "-- ==\n-- input { 1 } output { 1 }\n-- warning: unused.*x\n-- warning: shadow\n",
        "block entry: main\n  input { 1 } -> output { 1 }\n  warning: unused.*x\n  warning: shadow",
    ),
    (
        "properties",
        "-- ==\n-- property: rev_involution sorted\n",
        "block entry: main\n  property: rev_involution sorted",
    ),
    (
        "empty block",
        "-- ==\ndef main = 0\n",
        "block entry: main",
    ),
    (
        "several blocks, each with its own entries",
        "def add (x: i32) (y: i32) = x + y\n\n-- ==\n-- entry: add1\n-- input { 1 } output { 2 }\n-- input { 2 } output { 3 }\n\nentry add1 x = add x 1\n\n-- Subtracting.\n-- ==\n-- entry: sub1\n-- input { 1 } output { 0 }\nentry sub1 x = add x (-1)\n",
        "block entry: add1\n  input { 1 } -> output { 2 }\n  input { 2 } -> output { 3 }\nblock entry: sub1\n  description: \"Subtracting.\"\n  input { 1 } -> output { 0 }",
    ),
    (
        "a divider inside a block starts a new block",
        "-- ==\n-- input { 1 }\n-- ==\n-- entry: g\n-- input { 2 }\n",
        "block entry: main\n  input { 1 } -> success\nblock entry: g\n  input { 2 } -> success",
    ),
    (
        "block ends at the first non-comment line",
        "-- ==\n-- input { 1 } output { 1 }\ndef main (x: i32) = x\n-- input { 2 } output { 2 }\n",
        "block entry: main\n  input { 1 } -> output { 1 }",
    ),
    (
        "indented comments do not continue a block",
        "-- ==\n-- input { 1 }\n  -- output { 2 }\n",
        "block entry: main\n  input { 1 } -> success",
    ),
    (
        "trailing whitespace everywhere",
        "-- ==   \n-- entry: f g  \t\n-- input {  1  }   \n--   output { 2 }  \n",
        "block entry: f g\n  input { 1 } -> output { 2 }",
    ),
    (
        "divider with no space",
        "--==\n-- input { 1 } output { 1 }\n",
        "block entry: main\n  input { 1 } -> output { 1 }",
    ),
    (
        "CRLF line endings",
        "-- Doc.\r\n-- ==\r\n-- entry: f\r\n-- input {\r\n--   [1, 2]\r\n-- }\r\n-- output { 3 }\r\n-- input { [] } error: empty\r\n-- input @ x.in output @ x.out\r\ndef f = 0\r\n",
        "block entry: f\n  description: \"Doc.\"\n  input { [1, 2] } -> output { 3 }\n  input { [] } -> error: empty\n  input @ x.in -> output @ x.out",
    ),
    (
        "non-ASCII text in values and descriptions",
        "-- Größe ∑\n-- ==\n-- input { \"λ\" } output { ∑ }\n",
        "block entry: main\n  description: \"Größe ∑\"\n  input { \"λ\" } -> output { ∑ }",
    ),
    // Errors.
    (
        "a misspelt keyword reads as a case tag: located where `input` is missing",
        "-- ==\n-- inptu { 1 } output { 2 }\n",
        "2:10: expected `input`, found `{`",
    ),
    (
        "free-form case tags, as futhark test reads them",
        "-- ==\n-- compiled no_python no-opencl input { 1 }\n-- \"named\" slow nobench input { 2 } output { 2 }\n",
        "block entry: main\n  compiled no_python no-opencl input { 1 } -> success\n  \"named\" nobench slow input { 2 } -> output { 2 }",
    ),
    (
        "a case tag given twice",
        "-- ==\n-- slow slow input { 1 }\n",
        "2:9: tag `slow` given twice",
    ),
    (
        "a keyword is never a case tag",
        "-- ==\n-- slow output { 1 }\n",
        "2:9: expected `input`, found `output`",
    ),
    (
        "unclosed brace at end of block",
        "-- ==\n-- input { [1, 2]\n-- output { 3 }\ndef main = 0\n",
        "2:10: unclosed `{`",
    ),
    (
        "unbalanced record braces",
        "-- ==\n-- input { {a = 1 } output { 1 }\n",
        "2:10: unclosed `{`",
    ),
    ("unmatched close brace", "-- ==\n-- }\n", "2:4: unmatched `}`"),
    (
        "stray punctuation",
        "-- ==\n-- @ foo\n",
        "2:4: unexpected `@` in test block",
    ),
    (
        "bad runtime regex",
        "-- ==\n-- input { 1 } error: (unclosed\n",
        "2:23: invalid regex",
    ),
    (
        "bad compile-time regex",
        "-- ==\n-- error: a[\n",
        "2:11: invalid regex",
    ),
    (
        "output without input",
        "-- ==\n-- output { 1 }\n",
        "2:4: `output` without `input`",
    ),
    (
        "auto output without input",
        "-- ==\n-- auto output\n",
        "2:4: `output` without `input`",
    ),
    (
        "two outputs for one input",
        "-- ==\n-- input { 1 } output { 1 } output { 2 }\n",
        "2:29: `output` without `input`",
    ),
    (
        "error after an outcome",
        "-- ==\n-- input { 1 } output { 1 } error: x\n",
        "2:29: `error:` without `input`",
    ),
    (
        "case after compile-time error",
        "-- ==\n-- error: x\n-- input { 1 }\n",
        "3:4: test case in a block that expects a compile-time error",
    ),
    (
        "case in a property block",
        "-- ==\n-- property: p\n-- input { 1 }\n",
        "3:4: test case in a block of properties",
    ),
    (
        "property after cases",
        "-- ==\n-- input { 1 }\n-- property: p\n",
        "3:4: `property:` in a block that already has tests",
    ),
    (
        "entry after a case",
        "-- ==\n-- input { 1 }\n-- entry: f\n",
        "3:4: `entry` must come before the block's test cases",
    ),
    (
        "second entry line",
        "-- ==\n-- entry: f\n-- entry: g\n",
        "3:4: second `entry` in one test block",
    ),
    (
        "entry without names",
        "-- ==\n-- entry:\n-- input { 1 }\n",
        "2:10: expected entry point names after `entry:`",
    ),
    (
        "entry without colon",
        "-- ==\n-- entry f\n",
        "2:10: expected `:` after `entry`, found `f`",
    ),
    (
        "invalid entry name",
        "-- ==\n-- entry: f 1g\n",
        "2:13: invalid entry point name `1g`",
    ),
    (
        "entry names have no apostrophe",
        "-- ==\n-- entry: f'\n",
        "2:11: invalid entry point name `f'`",
    ),
    (
        "bad warning regex",
        "-- ==\n-- input { 1 }\n-- warning: *\n",
        "3:13: invalid regex",
    ),
    (
        "duplicate entry name",
        "-- ==\n-- entry: f f\n",
        "2:13: duplicate entry point name `f`",
    ),
    (
        "invalid tag",
        "-- ==\n-- tags { ok b@d }\n",
        "2:14: invalid tag `b@d`",
    ),
    (
        "input without values",
        "-- ==\n-- input output { 1 }\n",
        "2:10: expected `{` after `input`, found `output`",
    ),
    (
        "input at end of block",
        "-- ==\n-- input\n",
        "2:9: expected `{` after `input`, found the end of the test block",
    ),
    (
        "at without file name",
        "-- ==\n-- input @\n-- output { 1 }\n",
        "2:11: expected a file name after `@`, found the end of the line",
    ),
    (
        "random input from a file",
        "-- ==\n-- random input @ x.in\n",
        "2:17: `random input` cannot read a file",
    ),
    (
        "random without input",
        "-- ==\n-- random output { 1 }\n",
        "2:11: expected `input` after `random`",
    ),
    (
        "auto output after script input",
        "-- ==\n-- script input { f 1 } auto output\n",
        "2:25: `auto output` cannot follow `script input`",
    ),
    (
        "auto without output",
        "-- ==\n-- input { 1 } auto\n",
        "2:20: expected `output` after `auto`, found the end of the test block",
    ),
    (
        "flag given twice",
        "-- ==\n-- compiled compiled input { 1 }\n",
        "2:13: `compiled` given twice",
    ),
    (
        "unterminated case name",
        "-- ==\n-- \"abc input { 1 }\n",
        "2:4: unterminated case name",
    ),
    (
        "duplicate case names across blocks",
        "-- ==\n-- \"a\" input { 1 }\n\n-- ==\n-- entry: f\n-- \"a\" input { 2 }\n",
        "6:4: duplicate test case name \"a\"",
    ),
    (
        "one error per block, all blocks reported",
        "-- ==\n-- }\n-- input { 1 }\ndef x = 0\n-- ==\n-- output { 1 }\n",
        "2:4: unmatched `}`\n6:4: `output` without `input`",
    ),
    (
        "errors are located in CRLF files",
        "-- ==\r\n-- input { 1 }\r\n-- wat\r\n",
        "3:8: expected `input`, found the end of the test block",
    ),
];

#[test]
fn table() {
    let failures: Vec<String> = TABLE
        .iter()
        .filter_map(|(name, source, expected)| {
            check(source, expected)
                .err()
                .map(|why| format!("=== {name}\n{why}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        TABLE.len(),
        failures.join("\n")
    );
}

#[test]
fn raw_text_is_aligned_with_the_source() {
    let source = "-- ==\r\n-- input {\r\n--   [1,\r\n--    2] }\r\n";
    let parsed = parse_test_file(FileId(0), source).expect("parses");
    let BlockKind::Cases(cases) = &parsed.blocks[0].kind else {
        panic!("expected cases")
    };
    let Input::Values(raw) = &cases[0].input else {
        panic!("expected inline values")
    };
    assert_eq!(raw.text, " \n     [1, \n      2] ");
    assert_eq!(raw.text.len(), raw.span.range().len());
    let two = raw.text.find('2').expect("has a 2");
    let span = raw.sub_span(two..two + 1);
    assert_eq!(&source[span.range()], "2");
}

#[test]
fn spans_point_at_what_was_written() {
    let source = "-- ==\n-- entry: f g\n-- input @ d/x.in error: boom$\n";
    let parsed = parse_test_file(FileId(3), source).expect("parses");
    let block = &parsed.blocks[0];
    assert_eq!(&source[block.entries[1].span.range()], "g");
    let BlockKind::Cases(cases) = &block.kind else {
        panic!("expected cases")
    };
    let Input::ValuesFile(file) = &cases[0].input else {
        panic!("expected a file")
    };
    assert_eq!(&source[file.span.range()], "d/x.in");
    assert_eq!(
        file.resolve(Path::new("tests/programs")),
        Path::new("tests/programs/d/x.in")
    );
    let Expected::RuntimeError(regex) = &cases[0].expected else {
        panic!("expected an error")
    };
    assert_eq!(&source[regex.span.range()], "boom$");
    assert!(regex.matches("it went boom"));
    assert!(!regex.matches("boom!"));
    assert_eq!(
        &source[cases[0].span.range()],
        "input @ d/x.in error: boom$"
    );
    assert_eq!(block.span.file, FileId(3));
    assert_eq!(&source[block.span.range()], &source[..source.len() - 1]);
}
