//! Reader errors: a byte range of the input, what went wrong, and what was
//! expected there; [`ValueError::to_diagnostic`] makes them located diagnostics.

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};
use std::fmt;

/// An error reading values. `start..end` are byte offsets into the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    pub start: usize,
    pub end: usize,
    /// What went wrong (`unexpected `;``, `300 is out of range for u8`).
    pub message: String,
    /// What was expected at that place, shown under the underlined input.
    pub expected: String,
}

impl ValueError {
    pub fn new(
        range: std::ops::Range<usize>,
        message: impl Into<String>,
        expected: impl Into<String>,
    ) -> ValueError {
        ValueError {
            start: range.start,
            end: range.end.max(range.start),
            message: message.into(),
            expected: expected.into(),
        }
    }

    /// A diagnostic (code `value`) for input read from `file`, which must hold
    /// the input's text (see [`diagnostic_text`] for binary input).
    pub fn to_diagnostic(&self, file: FileId) -> Diagnostic {
        Diagnostic::error(self.message.clone())
            .with_code("value")
            .with_primary(Span::new(file, self.start, self.end), self.expected.clone())
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at byte {}: {} ({})",
            self.start, self.message, self.expected
        )
    }
}

impl std::error::Error for ValueError {}

/// The text to register in a [`crate::source::SourceMap`] for diagnostics about
/// `input`: the input itself when it is UTF-8, otherwise the input with every
/// non-ASCII byte replaced by `?` (binary data); ASCII control characters other
/// than line breaks and tabs become `?` too. Byte offsets and lines stay right.
pub fn diagnostic_text(input: &[u8]) -> String {
    let visible = |c: char| {
        if c.is_ascii_control() && !matches!(c, '\n' | '\r' | '\t') {
            '?'
        } else {
            c
        }
    };
    match std::str::from_utf8(input) {
        Ok(text) => text.chars().map(visible).collect(),
        Err(_) => input
            .iter()
            .map(|&b| {
                if b.is_ascii() {
                    visible(b as char)
                } else {
                    '?'
                }
            })
            .collect(),
    }
}
