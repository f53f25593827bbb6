//! Properties of the `-- ==` test-block parser: it never panics, whatever the
//! input, and what it returns is well located.
//!
//! Two input distributions: arbitrary Unicode strings, and "token soup" drawn from
//! the format's own vocabulary (dividers, keywords, braces, `@`, regexes, CRLF),
//! which reaches deep into the parser far more often than random text does.

use proptest::prelude::*;
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap, Span};
use spec::testblock::{parse_test_file, BlockKind, Expected, Input, RawText, TestFile};

const TOKENS: &[&str] = &[
    "-- ==\n",
    "-- ==\r\n",
    "--==",
    "--",
    "-- ",
    "\n",
    "\r\n",
    "\n-- ",
    " ",
    "\t",
    "{",
    "}",
    "{ 1 }",
    "{ [1, 2] }",
    "{ {a = 1} }",
    "@",
    "@ data/x.in",
    ":",
    "\"",
    "\"name\"",
    "input",
    "output",
    "random",
    "script",
    "auto",
    "error:",
    "error: a[",
    "error: (x|y)+$",
    "entry:",
    "entry: f g",
    "tags",
    "tags { a b }",
    "property:",
    "warning: x+",
    "structure",
    "gpu",
    "compiled",
    "nobench",
    "notest",
    "main",
    "def main = 0",
    "λ",
    "∑",
    "é",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|tokens| tokens.concat())
}

/// One well-formed case, as text.
fn case() -> impl Strategy<Value = String> {
    let flags = prop::sample::subsequence(vec!["compiled", "nobench", "notest"], 0..=3);
    let input = prop_oneof![
        Just("input { 1 [2, 3] }".to_string()),
        Just("input {\n--   [[1], [2]]\n-- }".to_string()),
        Just("input @ data/a.in".to_string()),
        Just("random input { [10]i32 }".to_string()),
        Just("script input { f 3 }".to_string()),
    ];
    let outcome = prop_oneof![
        Just(String::new()),
        Just(" output { {a = 1} }".to_string()),
        Just("\n-- output @ b.out".to_string()),
        // A regex runs to the end of its line.
        Just(" error: [Ii]ndex.*bounds\n-- ".to_string()),
    ];
    (flags, input, outcome).prop_map(|(flags, input, outcome)| {
        let mut text: String = flags.iter().map(|f| format!("{f} ")).collect();
        text.push_str(&input);
        text.push_str(&outcome);
        text
    })
}

/// A well-formed block with its number of cases; `script input` never meets
/// `auto output`, which the format forbids.
fn block() -> impl Strategy<Value = (String, usize)> {
    let separator = prop_oneof![Just(" "), Just("\n-- "), Just("\r\n--   ")];
    (
        prop::bool::ANY,
        prop::collection::vec((case(), separator), 0..6),
    )
        .prop_map(|(entry, cases)| {
            let mut text = String::from("-- ==\n-- ");
            if entry {
                text.push_str("entry: main f\n-- ");
            }
            for (case, separator) in &cases {
                text.push_str(case);
                text.push_str(separator);
            }
            text.push_str("\ndef main = 0\n");
            (text, cases.len())
        })
}

/// Spans lie inside the text, on character boundaries.
fn check_span(text: &str, span: Span) -> Result<(), TestCaseError> {
    let range = span.range();
    prop_assert!(range.start <= range.end && range.end <= text.len());
    prop_assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
    Ok(())
}

/// Raw text is the source with comment markers and carriage returns blanked.
fn check_raw(text: &str, raw: &RawText) -> Result<(), TestCaseError> {
    check_span(text, raw.span)?;
    let source = &text[raw.span.range()];
    prop_assert_eq!(raw.text.len(), source.len());
    for (got, was) in raw.text.bytes().zip(source.bytes()) {
        prop_assert!(got == was || (got == b' ' && matches!(was, b'-' | b'\r')));
    }
    Ok(())
}

fn check_ok(text: &str, parsed: &TestFile) -> Result<(), TestCaseError> {
    for block in &parsed.blocks {
        check_span(text, block.span)?;
        prop_assert!(!block.entries.is_empty());
        for name in block.entries.iter().chain(&block.tags) {
            check_span(text, name.span)?;
        }
        for structure in &block.structures {
            check_raw(text, &structure.body)?;
        }
        for warning in &block.warnings {
            check_span(text, warning.span)?;
        }
        match &block.kind {
            BlockKind::Cases(cases) => {
                for case in cases {
                    check_span(text, case.span)?;
                    match &case.input {
                        Input::Values(raw) | Input::Random(raw) | Input::Script(raw) => {
                            check_raw(text, raw)?
                        }
                        Input::ValuesFile(file) | Input::ScriptFile(file) => {
                            check_span(text, file.span)?;
                            prop_assert!(!file.path.is_empty());
                        }
                    }
                    match &case.expected {
                        Expected::Output(raw) => check_raw(text, raw)?,
                        Expected::OutputFile(file) => check_span(text, file.span)?,
                        Expected::RuntimeError(regex) => check_span(text, regex.span)?,
                        Expected::Success | Expected::AutoOutput => {}
                    }
                }
            }
            BlockKind::CompileError(regex) => check_span(text, regex.span)?,
            BlockKind::Properties(names) => {
                prop_assert!(!names.is_empty());
                for name in names {
                    check_span(text, name.span)?;
                }
            }
        }
    }
    // Printing never panics either.
    let _ = parsed.to_string();
    Ok(())
}

fn check_err(text: &str, errors: &[Diagnostic]) -> Result<(), TestCaseError> {
    prop_assert!(!errors.is_empty());
    let mut sources = SourceMap::new();
    let file = sources.add("prop.fut", text);
    for error in errors {
        let primary = error.primary_span();
        prop_assert!(primary.is_some(), "no primary span: {:?}", error);
        for label in &error.labels {
            check_span(text, label.span)?;
            prop_assert_eq!(label.span.file, file);
        }
        let rendered = error.render(&sources);
        prop_assert!(rendered.contains(&error.message));
    }
    Ok(())
}

fn check(text: &str) -> Result<(), TestCaseError> {
    match parse_test_file(FileId(0), text) {
        Ok(parsed) => check_ok(text, &parsed),
        Err(errors) => check_err(text, &errors),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn never_panics_on_arbitrary_text(text in any::<String>()) {
        check(&text)?;
    }

    #[test]
    fn never_panics_on_token_soup(text in token_soup()) {
        check(&text)?;
    }

    #[test]
    fn well_formed_blocks_parse(blocks in prop::collection::vec(block(), 1..4)) {
        let text: String = blocks.iter().map(|(text, _)| text.as_str()).collect();
        let parsed = parse_test_file(FileId(0), &text);
        prop_assert!(parsed.is_ok(), "{:?}", parsed);
        let parsed = parsed.unwrap_or_default();
        check_ok(&text, &parsed)?;
        prop_assert_eq!(parsed.blocks.len(), blocks.len());
        for (block, (_, cases)) in parsed.blocks.iter().zip(&blocks) {
            match &block.kind {
                BlockKind::Cases(parsed_cases) => prop_assert_eq!(parsed_cases.len(), *cases),
                other => prop_assert!(false, "not cases: {:?}", other),
            }
        }
    }

    #[test]
    fn never_panics_on_damaged_blocks(
        (text, _) in block(),
        cut in any::<prop::sample::Index>(),
        insert in prop::sample::select(TOKENS),
    ) {
        // Splice a token in at a random character boundary.
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let at = boundaries[cut.index(boundaries.len())];
        check(&format!("{}{insert}{}", &text[..at], &text[at..]))?;
    }

    #[test]
    fn never_panics_on_test_blocks_with_noise(
        body in token_soup(),
        noise in "[ -~\n\r{}λ]{0,40}",
    ) {
        check(&format!("-- ==\n-- {body}{noise}"))?;
    }
}
