//! The test-block parser: finds the blocks line by line, then reads each block's
//! items with a recursive-descent cursor over the block's text.
//!
//! The cursor reads a *blanked* copy of the file: every comment line's leading
//! `--` and every carriage return replaced by spaces. The copy has the file's
//! length and byte offsets, so every position the cursor holds is a source
//! position, and values spanning several comment lines are one contiguous slice.

use super::{
    BlockKind, Case, CaseFlags, DataFile, ErrorRegex, Expected, Input, Name, RawText, Structure,
    TestBlock, TestFile,
};
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
use regex::Regex;

/// The diagnostic code of every test-block error.
const CODE: &str = "test-block";

/// What a block may hold, for the note under "unknown keyword" errors.
const KEYWORDS: &str = "expected one of `input`, `random input`, `script input`, `compiled`, \
     `nobench`, `notest`, a case tag, a quoted case name, `output`, `auto output`, `error:`, \
     `entry:`, `tags`, `property:`, `structure`, `warning:`";

/// The words of a block that are never a case's tag: the block's own
/// keywords and those of a case's input and outcome.
const RESERVED_WORDS: &[&str] = &[
    "tags",
    "entry",
    "structure",
    "warning",
    "error",
    "property",
    "output",
    "auto",
    "input",
    "random",
    "script",
];

/// A free-form tag of a case (`no_python`, `no_opencl`, ...), written
/// before its input as `futhark test` allows.
fn is_case_tag(word: &str) -> bool {
    is_tag(word) && !RESERVED_WORDS.contains(&word)
}

pub(super) fn parse(file: FileId, text: &str) -> Result<TestFile, Vec<Diagnostic>> {
    let lines = Lines::new(text);
    let blanked = lines.blanked(text);
    let mut blocks = Vec::new();
    let mut errors = Vec::new();
    let mut description_start: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        if !lines.is_comment(text, i) {
            description_start = None;
            i += 1;
            continue;
        }
        if !lines.is_divider(text, i) {
            description_start.get_or_insert(i);
            i += 1;
            continue;
        }
        // Lines i+1..j are the block's body.
        let mut j = i + 1;
        while j < lines.len() && lines.is_comment(text, j) && !lines.is_divider(text, j) {
            j += 1;
        }
        let divider = lines.range(i);
        let body_start = if j > i + 1 {
            lines.range(i + 1).start
        } else {
            divider.end
        };
        let body_end = if j > i + 1 {
            lines.range(j - 1).end
        } else {
            divider.end
        };
        let description = description_start
            .map(|start| lines.comment_text(text, start..i))
            .unwrap_or_default();
        let mut cursor = Cursor {
            file,
            src: &blanked,
            pos: body_start,
            end: body_end,
        };
        let divider_span = Span::new(file, divider.start, divider.end);
        match cursor.block(divider_span, description) {
            Ok(block) => blocks.push(block),
            Err(diagnostic) => errors.push(diagnostic),
        }
        description_start = None;
        i = j;
    }
    check_unique_names(&blocks, &mut errors);
    if errors.is_empty() {
        Ok(TestFile { blocks })
    } else {
        Err(errors)
    }
}

/// Dataset names must be unique across the file (`futhark bench` keys results
/// by them).
fn check_unique_names(blocks: &[TestBlock], errors: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(&str, Span)> = Vec::new();
    for block in blocks {
        let BlockKind::Cases(cases) = &block.kind else {
            continue;
        };
        for case in cases {
            let Some(name) = &case.name else { continue };
            if let Some((_, first)) = seen.iter().find(|(n, _)| n == name) {
                errors.push(
                    error(format!("duplicate test case name {name:?}"))
                        .with_primary(case.span, "second case with this name")
                        .with_secondary(*first, "first case with this name"),
                );
            } else {
                seen.push((name, case.span));
            }
        }
    }
}

fn error(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(message).with_code(CODE)
}

/// Line boundaries of a file: line `i` is `starts[i]..ends[i]`, newline excluded.
struct Lines {
    starts: Vec<usize>,
    ends: Vec<usize>,
}

impl Lines {
    fn new(text: &str) -> Lines {
        let mut starts = Vec::new();
        let mut ends = Vec::new();
        let mut start = 0;
        for line in text.split('\n') {
            starts.push(start);
            ends.push(start + line.len());
            start += line.len() + 1;
        }
        Lines { starts, ends }
    }

    fn len(&self) -> usize {
        self.starts.len()
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.starts[i]..self.ends[i]
    }

    fn is_comment(&self, text: &str, i: usize) -> bool {
        text[self.range(i)].starts_with("--")
    }

    /// `-- ==`, with any whitespace around the `==`.
    fn is_divider(&self, text: &str, i: usize) -> bool {
        self.is_comment(text, i) && text[self.range(i)][2..].trim() == "=="
    }

    /// The comment lines `range` without their `--`, trimmed, joined by `\n`.
    fn comment_text(&self, text: &str, range: std::ops::Range<usize>) -> String {
        let lines: Vec<&str> = range.map(|i| text[self.range(i)][2..].trim()).collect();
        lines.join("\n").trim().to_string()
    }

    /// The file with comment markers and carriage returns replaced by spaces.
    fn blanked(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for i in 0..self.len() {
            let line = &text[self.range(i)];
            let rest = match line.strip_prefix("--") {
                Some(rest) => {
                    out.push_str("  ");
                    rest
                }
                None => line,
            };
            out.push_str(&rest.replace('\r', " "));
            if i + 1 < self.len() {
                out.push('\n');
            }
        }
        out
    }
}

/// The body being built while a block is read.
enum Body {
    Empty,
    Cases(Vec<Case>),
    CompileError(ErrorRegex),
    Properties(Vec<Name>),
}

/// Which keyword introduced an input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum InputKind {
    Values,
    Random,
    Script,
}

/// A position in one block of the blanked file; `pos <= end`, both on character
/// boundaries.
struct Cursor<'a> {
    file: FileId,
    src: &'a str,
    pos: usize,
    end: usize,
}

type PResult<T> = Result<T, Diagnostic>;

fn is_punct(c: char) -> bool {
    matches!(c, '{' | '}' | '@' | ':' | '"')
}

/// A Futhark identifier without `'`, which entry point names may not contain.
fn is_entry_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_tag(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl<'a> Cursor<'a> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn here(&self) -> Span {
        self.span(self.pos, self.pos)
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..self.end]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(c) if c.is_whitespace()) {
            self.bump();
        }
    }

    /// Skips whitespace that does not end the line.
    fn skip_hspace(&mut self) {
        while matches!(self.peek(), Some(c) if c.is_whitespace() && c != '\n') {
            self.bump();
        }
    }

    /// The word at the cursor (no whitespace, no punctuation), without moving.
    fn peek_word(&self) -> Option<(&'a str, Span)> {
        let rest = self.rest();
        let len = rest
            .find(|c: char| c.is_whitespace() || is_punct(c))
            .unwrap_or(rest.len());
        (len > 0).then(|| (&rest[..len], self.span(self.pos, self.pos + len)))
    }

    fn take_word(&mut self) -> Option<(&'a str, Span)> {
        let word = self.peek_word();
        if let Some((w, _)) = word {
            self.pos += w.len();
        }
        word
    }

    /// Consumes `keyword`, which must be the next word after whitespace.
    fn expect_word(&mut self, keyword: &str, after: &str) -> PResult<Span> {
        self.skip_ws();
        match self.peek_word() {
            Some((w, span)) if w == keyword => {
                self.pos += w.len();
                Ok(span)
            }
            Some((w, span)) => Err(error(format!("expected `{keyword}` after `{after}`"))
                .with_primary(span, format!("found `{w}`"))),
            None => Err(self.expected_here(&format!("`{keyword}` after `{after}`"))),
        }
    }

    /// Consumes `:` on the current line.
    fn expect_colon(&mut self, after: &str) -> PResult<()> {
        self.skip_hspace();
        if self.peek() == Some(':') {
            self.bump();
            Ok(())
        } else {
            Err(self.expected_here(&format!("`:` after `{after}`")))
        }
    }

    fn expected_here(&self, what: &str) -> Diagnostic {
        let found = match self.peek() {
            None => "the end of the test block".to_string(),
            Some('\n') => "the end of the line".to_string(),
            Some(_) => match self.peek_word() {
                Some((w, _)) => format!("`{w}`"),
                None => format!("`{}`", self.peek().unwrap_or(' ')),
            },
        };
        let span = match self.peek() {
            Some(c) if c != '\n' => self.span(
                self.pos,
                self.peek_word()
                    .map_or(self.pos + c.len_utf8(), |(_, s)| s.end as usize),
            ),
            _ => self.here(),
        };
        error(format!("expected {what}, found {found}")).with_primary(span, "here")
    }

    /// The rest of the current line, trimmed, with its span; the cursor moves to
    /// the end of the line.
    fn rest_of_line(&mut self) -> (&'a str, Span) {
        let rest = self.rest();
        let len = rest.find('\n').unwrap_or(rest.len());
        let line = &rest[..len];
        let lead = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        let start = self.pos + lead;
        self.pos += len;
        (trimmed, self.span(start, start + trimmed.len()))
    }

    /// `{ ... }` with balanced braces; the text between the outer braces.
    fn braces(&mut self, after: &str) -> PResult<RawText> {
        self.skip_ws();
        if self.peek() != Some('{') {
            return Err(self.expected_here(&format!("`{{` after `{after}`")));
        }
        let open = self.span(self.pos, self.pos + 1);
        self.bump();
        let start = self.pos;
        let mut depth = 1usize;
        while let Some(c) = self.peek() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        let end = self.pos;
                        self.bump();
                        return Ok(RawText {
                            text: self.src[start..end].to_string(),
                            span: self.span(start, end),
                        });
                    }
                }
                _ => {}
            }
            self.bump();
        }
        Err(error("unclosed `{`")
            .with_primary(open, "this `{` is never closed")
            .with_secondary(self.here(), "the test block ends here"))
    }

    /// `@ FILE`, the file name on the same line.
    fn data_file(&mut self) -> PResult<DataFile> {
        self.bump(); // '@'
        self.skip_hspace();
        let rest = self.rest();
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if len == 0 {
            return Err(self.expected_here("a file name after `@`"));
        }
        let span = self.span(self.pos, self.pos + len);
        self.pos += len;
        Ok(DataFile {
            path: rest[..len].to_string(),
            span,
        })
    }

    /// The regex running to the end of the line, compiled.
    fn regex(&mut self) -> PResult<ErrorRegex> {
        let (text, span) = self.rest_of_line();
        match Regex::new(text) {
            Ok(regex) => Ok(ErrorRegex { regex, span }),
            Err(err) => Err(error("invalid regex")
                .with_primary(span, "this regex does not compile")
                .with_note(err.to_string())),
        }
    }

    /// The names on the rest of the line, each checked by `valid`.
    fn names(&mut self, after: &str, what: &str, valid: fn(&str) -> bool) -> PResult<Vec<Name>> {
        let (line, span) = self.rest_of_line();
        self.check_names(line, span, after, what, valid)
    }

    fn check_names(
        &self,
        text: &str,
        span: Span,
        after: &str,
        what: &str,
        valid: fn(&str) -> bool,
    ) -> PResult<Vec<Name>> {
        let mut names: Vec<Name> = Vec::new();
        let base = span.start as usize;
        let mut offset = 0;
        for word in text.split_whitespace() {
            // `split_whitespace` yields subslices of `text` in order.
            let at = offset + text[offset..].find(word).unwrap_or(0);
            offset = at + word.len();
            let word_span = self.span(base + at, base + offset);
            if !valid(word) {
                return Err(error(format!("invalid {what} `{word}`"))
                    .with_primary(word_span, format!("not a valid {what}")));
            }
            if let Some(first) = names.iter().find(|n| n.name == word) {
                return Err(error(format!("duplicate {what} `{word}`"))
                    .with_primary(word_span, "named again here")
                    .with_secondary(first.span, "first named here"));
            }
            names.push(Name {
                name: word.to_string(),
                span: word_span,
            });
        }
        if names.is_empty() {
            return Err(error(format!("expected {what}s after `{after}`"))
                .with_primary(span, format!("no {what}s here")));
        }
        Ok(names)
    }

    /// A quoted case name, on one line.
    fn case_name(&mut self) -> PResult<String> {
        let open = self.pos;
        self.bump(); // '"'
        let rest = self.rest();
        match rest.find(['"', '\n']) {
            Some(len) if rest[len..].starts_with('"') => {
                self.pos += len + 1;
                Ok(rest[..len].to_string())
            }
            _ => Err(error("unterminated case name")
                .with_primary(self.span(open, open + 1), "this `\"` is never closed")),
        }
    }

    /// Reads the block body up to `end`.
    fn block(&mut self, divider: Span, description: String) -> PResult<TestBlock> {
        let mut entries: Option<Vec<Name>> = None;
        let mut tags: Option<Vec<Name>> = None;
        let mut structures = Vec::new();
        let mut warnings = Vec::new();
        let mut body = Body::Empty;
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else { break };
            if c == '"' {
                let case = self.case()?;
                add_case(&mut body, case)?;
                continue;
            }
            let Some((word, span)) = self.peek_word() else {
                let span = self.span(self.pos, self.pos + c.len_utf8());
                let (message, label) = match c {
                    '}' => ("unmatched `}`".to_string(), "no `{` opens this"),
                    _ => (format!("unexpected `{c}` in test block"), "here"),
                };
                return Err(error(message).with_primary(span, label).with_note(KEYWORDS));
            };
            match word {
                "tags" | "entry" => {
                    self.pos += word.len();
                    if !matches!(body, Body::Empty) {
                        return Err(error(format!(
                            "`{word}` must come before the block's test cases"
                        ))
                        .with_primary(span, "after a test case"));
                    }
                    let slot = if word == "tags" {
                        &mut tags
                    } else {
                        &mut entries
                    };
                    if slot.is_some() {
                        return Err(error(format!("second `{word}` in one test block"))
                            .with_primary(span, "a block has at most one"));
                    }
                    *slot = Some(if word == "tags" {
                        let raw = self.braces("tags")?;
                        self.check_names(&raw.text, raw.span, "tags", "tag", is_tag)?
                    } else {
                        self.expect_colon("entry")?;
                        self.names("entry:", "entry point name", is_entry_name)?
                    });
                }
                "structure" => {
                    self.pos += word.len();
                    self.skip_ws();
                    let backend = self.take_word().map(|(backend, _)| backend.to_string());
                    let body = self.braces("structure")?;
                    structures.push(Structure { backend, body });
                }
                "warning" => {
                    self.pos += word.len();
                    self.expect_colon("warning")?;
                    warnings.push(self.regex()?);
                }
                "error" => {
                    self.pos += word.len();
                    self.expect_colon("error")?;
                    let regex = self.regex()?;
                    match body {
                        Body::Empty => body = Body::CompileError(regex),
                        _ => {
                            return Err(error("`error:` without `input`")
                                .with_primary(span, "no `input` precedes this")
                                .with_note(
                                    "an `error:` after a case's outcome, or after another \
                                     `error:`, belongs to no case; a block expecting a \
                                     compile-time error holds no cases",
                                ))
                        }
                    }
                }
                "property" => {
                    self.pos += word.len();
                    self.expect_colon("property")?;
                    let names = self.names("property:", "property name", is_entry_name)?;
                    match &mut body {
                        Body::Empty => body = Body::Properties(names),
                        _ => {
                            return Err(error("`property:` in a block that already has tests")
                                .with_primary(span, "here")
                                .with_note(
                                    "a block holds either cases, a compile-time `error:`, \
                                     or one `property:` line",
                                ))
                        }
                    }
                }
                "output" | "auto" => {
                    return Err(error("`output` without `input`")
                        .with_primary(span, "no `input` precedes this")
                        .with_note("each `output` follows the `input` it belongs to"));
                }
                "input" | "random" | "script" | "compiled" | "nobench" | "notest" => {
                    let case = self.case()?;
                    add_case(&mut body, case)?;
                }
                _ if is_case_tag(word) => {
                    let case = self.case()?;
                    add_case(&mut body, case)?;
                }
                _ => {
                    return Err(error(format!("unknown keyword `{word}` in test block"))
                        .with_primary(span, "unknown keyword")
                        .with_note(KEYWORDS));
                }
            }
        }
        let kind = match body {
            Body::Empty => BlockKind::Cases(Vec::new()),
            Body::Cases(cases) => BlockKind::Cases(cases),
            Body::CompileError(regex) => BlockKind::CompileError(regex),
            Body::Properties(names) => BlockKind::Properties(names),
        };
        Ok(TestBlock {
            span: divider.to(self.here()),
            description,
            entries: entries.unwrap_or_else(|| {
                vec![Name {
                    name: "main".to_string(),
                    span: divider,
                }]
            }),
            tags: tags.unwrap_or_default(),
            kind,
            structures,
            warnings,
        })
    }

    /// `["name"] [flags] INPUT [OUTCOME]`.
    fn case(&mut self) -> PResult<Case> {
        self.skip_ws();
        let start = self.pos;
        let name = if self.peek() == Some('"') {
            Some(self.case_name()?)
        } else {
            None
        };
        let mut flags = CaseFlags::default();
        let (kind, input_span) = loop {
            self.skip_ws();
            let Some((word, span)) = self.peek_word() else {
                return Err(self.expected_here("`input`"));
            };
            let flag = match word {
                "compiled" => &mut flags.compiled,
                "nobench" => &mut flags.nobench,
                "notest" => &mut flags.notest,
                "input" => {
                    self.pos += word.len();
                    break (InputKind::Values, span);
                }
                "random" | "script" => {
                    self.pos += word.len();
                    let input = self.expect_word("input", word)?;
                    let kind = if word == "random" {
                        InputKind::Random
                    } else {
                        InputKind::Script
                    };
                    break (kind, span.to(input));
                }
                _ if is_case_tag(word) => {
                    if flags.tags.iter().any(|tag| tag == word) {
                        return Err(error(format!("tag `{word}` given twice"))
                            .with_primary(span, "repeated here"));
                    }
                    flags.tags.push(word.to_string());
                    self.pos += word.len();
                    continue;
                }
                _ => {
                    return Err(error(format!("expected `input`, found `{word}`"))
                        .with_primary(span, "not a case keyword")
                        .with_note(
                            "a case is `[\"name\"] [compiled] [nobench] [notest] [TAG...] \
                             [random | script] input ...`",
                        ))
                }
            };
            if *flag {
                return Err(
                    error(format!("`{word}` given twice")).with_primary(span, "repeated here")
                );
            }
            *flag = true;
            self.pos += word.len();
        };
        self.skip_ws();
        let from_file = self.peek() == Some('@');
        let input = match (kind, from_file) {
            (InputKind::Values, false) => Input::Values(self.braces("input")?),
            (InputKind::Values, true) => Input::ValuesFile(self.data_file()?),
            (InputKind::Script, false) => Input::Script(self.braces("script input")?),
            (InputKind::Script, true) => Input::ScriptFile(self.data_file()?),
            (InputKind::Random, false) => Input::Random(self.braces("random input")?),
            (InputKind::Random, true) => {
                return Err(error("`random input` cannot read a file")
                    .with_primary(self.span(self.pos, self.pos + 1), "`@` not allowed here")
                    .with_secondary(input_span, "random input")
                    .with_note("write the types to generate: `random input { [100]i32 }`"))
            }
        };
        let after_input = self.pos;
        self.skip_ws();
        let expected = match self.peek_word() {
            Some(("output", _)) => {
                self.pos += "output".len();
                self.skip_ws();
                if self.peek() == Some('@') {
                    Expected::OutputFile(self.data_file()?)
                } else {
                    Expected::Output(self.braces("output")?)
                }
            }
            Some(("auto", span)) => {
                self.pos += "auto".len();
                let output = self.expect_word("output", "auto")?;
                if kind == InputKind::Script {
                    return Err(error("`auto output` cannot follow `script input`")
                        .with_primary(span.to(output), "not computable for a script input")
                        .with_secondary(input_span, "script input"));
                }
                Expected::AutoOutput
            }
            Some(("error", _)) => {
                self.pos += "error".len();
                self.expect_colon("error")?;
                Expected::RuntimeError(self.regex()?)
            }
            _ => {
                self.pos = after_input;
                Expected::Success
            }
        };
        Ok(Case {
            span: self.span(start, self.pos),
            name,
            flags,
            input,
            expected,
        })
    }
}

fn add_case(body: &mut Body, case: Case) -> PResult<()> {
    match body {
        Body::Empty => *body = Body::Cases(vec![case]),
        Body::Cases(cases) => cases.push(case),
        Body::CompileError(regex) => {
            return Err(
                error("test case in a block that expects a compile-time error")
                    .with_primary(case.span, "this case")
                    .with_secondary(regex.span, "the expected compile-time error")
                    .with_note(
                        "`error:` with no `input` before it means the program must not \
                         compile; put the cases in another block",
                    ),
            )
        }
        Body::Properties(_) => {
            return Err(error("test case in a block of properties")
                .with_primary(case.span, "this case")
                .with_note("a block holds either cases or one `property:` line"))
        }
    }
    Ok(())
}
