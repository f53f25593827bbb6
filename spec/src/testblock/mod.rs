//! Futhark's `-- ==` test blocks: the format of data-driven tests.
//!
//! A test program is an ordinary Futhark program with one or more *test blocks* in
//! line comments, in the format `futhark test` reads (Futhark's manual page
//! `futhark-test(1)`):
//!
//! ```text
//! -- A description (optional; the comment lines just above the divider).
//! -- ==
//! -- tags { slow loops }
//! -- entry: add1 add1'
//! -- input { [1, 2, 3] 4i64 } output { 10 }
//! -- compiled input @ data/big.in output @ data/big.out
//! -- "named" nobench input { 1 } error: index out of bounds
//! -- random input { [100]i32 [100]f32 } auto output
//! -- script input { mk_input 10i64 }
//! -- structure gpu { SegMap 1 }
//! ```
//!
//! A block starts at a line `-- ==` and runs over the lines immediately after it
//! that start with `--` (at the start of the line). Inside the block the leading
//! `--` of each line is dropped and what remains is read as a free-form sequence
//! of items; values may span several lines. A file may hold several blocks, each
//! testing the entry points it names (`main` when it names none).
//!
//! Items, in the order a block may hold them:
//! - `tags { t1 t2 }` and `entry: e1 e2`, each at most once, before any case;
//! - then exactly one of:
//!   - cases: `["name"] [compiled] [nobench] [notest] [TAG...] INPUT [OUTCOME]`, where INPUT
//!     is `input { VALUES }`, `input @ FILE`, `random input { TYPES }`,
//!     `script input { EXPR }` or `script input @ FILE`, and OUTCOME is
//!     `output { VALUES }`, `output @ FILE`, `auto output` or `error: REGEX`
//!     (a run-time error; the regex runs to the end of its line); with no
//!     OUTCOME the run must merely succeed;
//!   - a lone `error: REGEX`: the program must fail to *compile* with a message
//!     matching REGEX;
//!   - `property: p1 p2`: property-based tests (Futhark's `#[prop]` entry points);
//! - `structure [BACKEND] { ... }` anywhere; kept raw, never checked;
//! - `warning: REGEX` anywhere: compiling must warn with a matching message.
//!
//! Values, types and script expressions are kept as [`RawText`] with their source
//! span and are not interpreted here (`spec::value` reads values). Braces inside
//! them must balance. File names are relative to the program's directory
//! ([`DataFile::resolve`]). Every regex is compiled when the block is parsed, so a
//! bad regex is a located diagnostic rather than a failure at test time.
//!
//! A case's free-form tags (`no_python`, `no_opencl`: any word of letters,
//! digits, `_` and `-` that is not a keyword) are kept in [`CaseFlags::tags`].
//!
//! Departure from `futhark test`, on the side of rejecting more: `auto
//! output` after `script input` (which Futhark documents as unsupported) is
//! an error.
//!
//! The entry point is [`parse_test_file`]; it never panics, whatever its input.
//! [`data`] produces the values of a case: its arguments (inline, from a file,
//! or generated for `random input`) and its expected results.

pub mod data;
#[cfg(test)]
mod data_tests;
mod parse;
#[cfg(test)]
mod tests;

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
pub use data::{case_expected_output, case_input, random_seed};
use regex::Regex;
use std::fmt;
use std::path::{Path, PathBuf};

/// Parses every `-- ==` test block of the program `text` (the contents of
/// `file`). Returns the blocks in source order (none when the file has no block),
/// or every error found: a block with an error is skipped after its first error,
/// so each block reports at most one diagnostic.
pub fn parse_test_file(file: FileId, text: &str) -> Result<TestFile, Vec<Diagnostic>> {
    parse::parse(file, text)
}

/// All test blocks of one program, in source order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TestFile {
    pub blocks: Vec<TestBlock>,
}

/// One `-- ==` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestBlock {
    /// From the `-- ==` line to the end of the block's last line.
    pub span: Span,
    /// The comment lines just above the divider, without their `--`, trimmed and
    /// joined with `\n`; empty when there are none.
    pub description: String,
    /// The entry points the block tests; never empty (`main` by default, then
    /// spanned on the divider line).
    pub entries: Vec<Name>,
    /// `tags { ... }`, in order, without duplicates.
    pub tags: Vec<Name>,
    pub kind: BlockKind,
    /// `structure` items, kept raw.
    pub structures: Vec<Structure>,
    /// `warning: REGEX` items: compiling must emit a warning matching each.
    pub warnings: Vec<ErrorRegex>,
}

/// What a block expects of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// Run the entry points on each case (possibly none).
    Cases(Vec<Case>),
    /// `error: REGEX` with no `input`: compilation must fail with a message
    /// matching the regex.
    CompileError(ErrorRegex),
    /// `property: p1 p2 ...`: property-based tests (never empty).
    Properties(Vec<Name>),
}

/// A name written in a block: an entry point, tag, or property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub name: String,
    pub span: Span,
}

/// One test case: an input and what running on it must give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// From the first word of the case to the end of its outcome.
    pub span: Span,
    /// The quoted dataset name, unique in the file.
    pub name: Option<String>,
    pub flags: CaseFlags,
    pub input: Input,
    pub expected: Expected,
}

/// The words that may precede `input`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CaseFlags {
    /// `compiled`: never run by an interpreter (the reference).
    pub compiled: bool,
    /// `nobench`: too small to benchmark.
    pub nobench: bool,
    /// `notest`: only for benchmarking.
    pub notest: bool,
    /// Free-form tags (`no_python`, `no_opencl`, ...), in source order:
    /// `runestone test --exclude-tag` and `bench --exclude-tag` skip a
    /// case carrying one.
    pub tags: Vec<String>,
}

/// Where a case's arguments come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// `input { VALUES }`.
    Values(RawText),
    /// `input @ FILE`: values read from a file.
    ValuesFile(DataFile),
    /// `random input { TYPES }`: values of these types (with sizes) generated.
    Random(RawText),
    /// `script input { EXPR }`: a FutharkScript expression computes the input.
    Script(RawText),
    /// `script input @ FILE`: the expression is read from a file.
    ScriptFile(DataFile),
}

/// What a run must produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// No outcome written: the run must succeed; its result is not checked.
    Success,
    /// `output { VALUES }`.
    Output(RawText),
    /// `output @ FILE`.
    OutputFile(DataFile),
    /// `auto output`: the expected values are computed by a reference
    /// implementation.
    AutoOutput,
    /// `error: REGEX`: the run must fail with a message matching the regex.
    RuntimeError(ErrorRegex),
}

/// Text inside `{ ... }`, uninterpreted.
///
/// `text` has exactly the bytes of the source in `span`, except that the `--`
/// starting each comment line and every carriage return are replaced by spaces,
/// so byte `i` of `text` is byte `span.start + i` of the file: a reader of the
/// text reports errors at `span.start + i` with no translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawText {
    pub text: String,
    pub span: Span,
}

impl RawText {
    /// The span of `text[range]` in the source file.
    pub fn sub_span(&self, range: std::ops::Range<usize>) -> Span {
        let start = self.span.start as usize;
        Span::new(self.span.file, start + range.start, start + range.end)
    }
}

/// `@ FILE`: a data file named relative to the test program's directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// As written (no whitespace).
    pub path: String,
    pub span: Span,
}

impl DataFile {
    /// The file's path, given the directory the test program lives in.
    pub fn resolve(&self, program_dir: &Path) -> PathBuf {
        program_dir.join(&self.path)
    }
}

/// A regex expected to match an error message; compiled at parse time. The
/// empty regex matches every message.
#[derive(Clone, Debug)]
pub struct ErrorRegex {
    pub regex: Regex,
    pub span: Span,
}

impl ErrorRegex {
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// Whether `message` contains a match.
    pub fn matches(&self, message: &str) -> bool {
        self.regex.is_match(message)
    }
}

/// Regexes are equal when written the same (spans are ignored, as everywhere).
impl PartialEq for ErrorRegex {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}
impl Eq for ErrorRegex {}

/// `structure [BACKEND] { ... }`: expected IR statistics; kept, never checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structure {
    pub backend: Option<String>,
    pub body: RawText,
}

/// One line per item, values with their whitespace collapsed: a summary for
/// listings and tests, not Futhark syntax.
impl fmt::Display for TestFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for block in &self.blocks {
            write!(f, "{block}")?;
        }
        Ok(())
    }
}

impl fmt::Display for TestBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block entry: {}", join_names(&self.entries))?;
        if !self.tags.is_empty() {
            write!(f, " tags {{ {} }}", join_names(&self.tags))?;
        }
        writeln!(f)?;
        if !self.description.is_empty() {
            writeln!(f, "  description: {:?}", self.description)?;
        }
        match &self.kind {
            BlockKind::Cases(cases) => {
                for case in cases {
                    writeln!(f, "  {case}")?;
                }
            }
            BlockKind::CompileError(regex) => writeln!(f, "  compile error: {}", regex.as_str())?,
            BlockKind::Properties(names) => writeln!(f, "  property: {}", join_names(names))?,
        }
        for structure in &self.structures {
            write!(f, "  structure ")?;
            if let Some(backend) = &structure.backend {
                write!(f, "{backend} ")?;
            }
            writeln!(f, "{}", braces(&structure.body))?;
        }
        for warning in &self.warnings {
            writeln!(f, "  warning: {}", warning.as_str())?;
        }
        Ok(())
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.name {
            write!(f, "{name:?} ")?;
        }
        for (set, word) in [
            (self.flags.compiled, "compiled"),
            (self.flags.nobench, "nobench"),
            (self.flags.notest, "notest"),
        ] {
            if set {
                write!(f, "{word} ")?;
            }
        }
        for tag in &self.flags.tags {
            write!(f, "{tag} ")?;
        }
        match &self.input {
            Input::Values(raw) => write!(f, "input {}", braces(raw))?,
            Input::ValuesFile(file) => write!(f, "input @ {}", file.path)?,
            Input::Random(raw) => write!(f, "random input {}", braces(raw))?,
            Input::Script(raw) => write!(f, "script input {}", braces(raw))?,
            Input::ScriptFile(file) => write!(f, "script input @ {}", file.path)?,
        }
        match &self.expected {
            Expected::Success => write!(f, " -> success"),
            Expected::Output(raw) => write!(f, " -> output {}", braces(raw)),
            Expected::OutputFile(file) => write!(f, " -> output @ {}", file.path),
            Expected::AutoOutput => write!(f, " -> auto output"),
            Expected::RuntimeError(regex) => write!(f, " -> error: {}", regex.as_str()),
        }
    }
}

fn join_names(names: &[Name]) -> String {
    names
        .iter()
        .map(|n| n.name.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn braces(raw: &RawText) -> String {
    let words: Vec<&str> = raw.text.split_whitespace().collect();
    if words.is_empty() {
        "{}".to_string()
    } else {
        format!("{{ {} }}", words.join(" "))
    }
}
