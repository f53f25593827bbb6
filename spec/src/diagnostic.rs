//! Diagnostics: located error reports, rendered with `codespan-reporting`.
//!
//! Every failure a user can cause ends as a [`Diagnostic`]: a message, a primary
//! label on the offending span (rendered as `file:line:col` with the source line
//! underlined), optional secondary labels, and notes (what was expected, which
//! paper rule failed, a hint). Implementations build diagnostics; the CLI renders
//! them with [`Diagnostic::render`].

use crate::source::{FileId, SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A span with a message; the primary label marks the offending location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// A located report. `code` names the class of error (`syntax`, `rule 29`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Option<String>,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code: None,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn with_code(mut self, code: impl Into<String>) -> Diagnostic {
        self.code = Some(code.into());
        self
    }

    pub fn with_primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// The span of the primary label, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }

    /// Renders as plain text: `error[code]: message`, then `┌─ file:line:col`
    /// with the source line and the span underlined, then the notes.
    pub fn render(&self, sources: &SourceMap) -> String {
        let severity = match self.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
        };
        let mut diagnostic = cs::Diagnostic::new(severity).with_message(&self.message);
        if let Some(code) = &self.code {
            diagnostic = diagnostic.with_code(code);
        }
        let labels = self
            .labels
            .iter()
            .map(|label| {
                let style = if label.primary {
                    cs::LabelStyle::Primary
                } else {
                    cs::LabelStyle::Secondary
                };
                cs::Label::new(style, label.span.file, label.span.range())
                    .with_message(&label.message)
            })
            .collect();
        diagnostic = diagnostic
            .with_labels(labels)
            .with_notes(self.notes.clone());
        let config = term::Config::default();
        match term::emit_into_string(&config, &SourceFiles(sources), &diagnostic) {
            Ok(text) => text,
            // A label outside its file is a bug in whoever built the diagnostic;
            // still say what went wrong rather than lose the report.
            Err(err) => format!(
                "error: {} (could not render location: {err})\n",
                self.message
            ),
        }
    }
}

/// The machine-readable codes of [`Diagnostic::code`] that programs decide
/// on. Every decision between "the program is rejected", "a construct is not
/// supported yet" and "the implementation broke" is made on these codes,
/// through [`Diagnostic::kind`], never on a message's text (a tidy test,
/// `driver/tests/tidy.rs`, fails on a `contains` of a message outside tests).
/// Other codes (`syntax`, `type-mismatch`, `rule 29`, `TFP18 T-App`, ...)
/// name the class of a rejection or the paper rule that failed.
pub mod codes {
    /// A construct an implementation does not support yet: no verdict on the
    /// program.
    pub const UNSUPPORTED: &str = "unsupported";
    /// A check of the implementation itself failed (an ill-typed IR after a
    /// pass, a backend that cannot compile what the front end accepted): a
    /// bug, never a verdict.
    pub const INTERNAL: &str = "internal";
    /// The reference's module-free front end met a name of a numeric module
    /// (`f32.sqrt`): its pipeline sends the program through the module
    /// calculus instead. Not a verdict either.
    pub const NEEDS_MODULE_CALCULUS: &str = "needs-module-calculus";
    /// The optimising compiler's core elaboration met a module construct
    /// inside an expression (`m.(e)`): its pipeline runs static
    /// interpretation first instead. Not a verdict.
    pub const MODULE_CONSTRUCT: &str = "module-construct";
    /// TFP'18 Theorem 1 failed on the reference (defunctionalisation of a
    /// well-typed program failed, or its result is ill-typed): a bug in the
    /// reference or a defect of the paper.
    pub const TFP18_THEOREM_1: &str = "TFP18 Theorem 1";
    /// ICFP'18 Proposition 6.1 failed on the reference for a program its
    /// module calculus accepted: a bug in the reference or a defect of the
    /// paper.
    pub const ICFP18_PROPOSITION_6_1: &str = "ICFP18 Proposition 6.1";
    /// The prefix of the codes of constructs outside the fragment of a paper
    /// the reference transcribes (`outside the module language`, `outside
    /// the paper's core`): not supported there.
    pub const OUTSIDE_PREFIX: &str = "outside ";

    /// The rejections of the uniqueness judgment
    /// (`proofs-notes/uniqueness.md` §7), the same in both implementations.
    pub mod uniqueness {
        pub const USE_AFTER_CONSUME: &str = "use-after-consume";
        pub const NOT_CONSUMABLE: &str = "not-consumable";
        pub const UPDATE_ALIASES_TARGET: &str = "update-aliases-target";
        pub const SELF_ALIASING_ARG: &str = "self-aliasing-arg";
        pub const UNIQUE_RETURN_ALIASED: &str = "unique-return-aliased";
        pub const FRESH_RETURN_ALIASED: &str = "fresh-return-aliased";
        pub const RETURN_ALIASES_FREE: &str = "return-aliases-free";
        pub const LOOP_ALIASES: &str = "loop-aliases";
        /// Every code of the uniqueness judgment.
        pub const ALL: [&str; 8] = [
            USE_AFTER_CONSUME,
            NOT_CONSUMABLE,
            UPDATE_ALIASES_TARGET,
            SELF_ALIASING_ARG,
            UNIQUE_RETURN_ALIASED,
            FRESH_RETURN_ALIASED,
            RETURN_ALIASES_FREE,
            LOOP_ALIASES,
        ];
    }
}

/// What a diagnostic says about the program, read from its code alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticKind {
    /// The program is rejected: a verdict (syntax, type, size, module error).
    Rejection,
    /// A construct the implementation does not support yet.
    Unsupported,
    /// The implementation broke (an internal check, a violated theorem).
    Internal,
}

impl Diagnostic {
    /// The kind of [`Diagnostic::code`] ([`codes`]); a diagnostic without a
    /// code is a rejection.
    pub fn kind(&self) -> DiagnosticKind {
        match self.code.as_deref() {
            Some(codes::UNSUPPORTED | codes::NEEDS_MODULE_CALCULUS | codes::MODULE_CONSTRUCT) => {
                DiagnosticKind::Unsupported
            }
            Some(code) if code.starts_with(codes::OUTSIDE_PREFIX) => DiagnosticKind::Unsupported,
            Some(codes::INTERNAL | codes::TFP18_THEOREM_1 | codes::ICFP18_PROPOSITION_6_1) => {
                DiagnosticKind::Internal
            }
            _ => DiagnosticKind::Rejection,
        }
    }

    /// Whether the code is `code`.
    pub fn has_code(&self, code: &str) -> bool {
        self.code.as_deref() == Some(code)
    }
}

/// Adapter giving `codespan-reporting` read access to a [`SourceMap`].
struct SourceFiles<'a>(&'a SourceMap);

impl<'a> Files<'a> for SourceFiles<'a> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        Ok(&self.0.get(id).name)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        Ok(&self.0.get(id).text)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        Ok(self.0.get(id).line_index(byte_index))
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, FilesError> {
        let file = self.0.get(id);
        let range = file
            .line_range(line_index)
            .ok_or(FilesError::LineTooLarge {
                given: line_index,
                max: file.line_index(file.text.len()),
            })?;
        // codespan expects the range to include the line's newline.
        let end = (range.end + 1).min(file.text.len());
        Ok(range.start..end.max(range.end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_underline_and_note() {
        let mut sources = SourceMap::new();
        let file = sources.add("prog.fut", "def x = 1 +\n");
        let d = Diagnostic::error("unexpected end of input")
            .with_code("syntax")
            .with_primary(Span::new(file, 11, 11), "expected an expression")
            .with_note("expected an expression after `+`");
        let text = d.render(&sources);
        assert!(
            text.contains("error[syntax]: unexpected end of input"),
            "{text}"
        );
        assert!(text.contains("prog.fut:1:12"), "{text}");
        assert!(text.contains("def x = 1 +"), "{text}");
        assert!(text.contains("expected an expression after `+`"), "{text}");
    }
}
