//! Typed outcomes: why a backend gives no program ([`LoadError`]) and why a
//! run gives no result ([`RunError`]). Every user of the driver decides on
//! these variants and kinds — the CLI's exit codes, `runestone test`'s
//! verdicts, the differential oracles' agree/discard/disagree — never on a
//! message's text. A compile-time diagnostic is classified by its code
//! alone ([`spec::diagnostic::Diagnostic::kind`]).

use crate::backend::Backend;
use spec::diagnostic::{Diagnostic, DiagnosticKind};
use spec::source::{SourceMap, Span};
use std::fmt;

/// Why a backend gives no program.
#[derive(Clone, Debug)]
pub enum LoadError {
    /// The backend cannot run programs here (no Vulkan device).
    Unavailable { backend: Backend, reason: String },
    /// The program is rejected: a verdict (parse, type, size or module
    /// error). The diagnostic's code names the class of error or the paper
    /// rule that failed (`rule 29`, `TFP18 T-If`).
    Rejected(Diagnostic),
    /// The program uses a construct the implementation does not support yet:
    /// no verdict.
    Unsupported(Diagnostic),
    /// The implementation broke while compiling it (an internal check, a
    /// violated theorem of the reference): never a verdict.
    Internal(Diagnostic),
}

impl LoadError {
    /// The outcome one diagnostic stands for, by its code.
    pub fn from_diagnostic(diagnostic: Diagnostic) -> LoadError {
        match diagnostic.kind() {
            DiagnosticKind::Rejection => LoadError::Rejected(diagnostic),
            DiagnosticKind::Unsupported => LoadError::Unsupported(diagnostic),
            DiagnosticKind::Internal => LoadError::Internal(diagnostic),
        }
    }

    /// The outcome of several diagnostics of one compilation: an unsupported
    /// construct first (no verdict is possible), then an internal failure,
    /// else the first rejection.
    pub fn from_diagnostics(mut diagnostics: Vec<Diagnostic>) -> LoadError {
        for kind in [DiagnosticKind::Unsupported, DiagnosticKind::Internal] {
            if let Some(found) = diagnostics.iter().position(|d| d.kind() == kind) {
                return LoadError::from_diagnostic(diagnostics.swap_remove(found));
            }
        }
        if diagnostics.is_empty() {
            return LoadError::Internal(
                Diagnostic::error("compilation failed without a diagnostic")
                    .with_code(spec::diagnostic::codes::INTERNAL),
            );
        }
        LoadError::Rejected(diagnostics.swap_remove(0))
    }

    /// The diagnostic, for every variant but [`LoadError::Unavailable`].
    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            LoadError::Unavailable { .. } => None,
            LoadError::Rejected(d) | LoadError::Unsupported(d) | LoadError::Internal(d) => Some(d),
        }
    }

    /// The diagnostic's code (`syntax`, `rule 29`, `unsupported`, ...).
    pub fn code(&self) -> Option<&str> {
        self.diagnostic().and_then(|d| d.code.as_deref())
    }

    /// As the user sees it: the rendered diagnostic, or why the backend is
    /// unavailable.
    pub fn render(&self, sources: &SourceMap) -> String {
        match self {
            LoadError::Unavailable { backend, reason } => {
                format!("the {backend} backend is unavailable: {reason}\n")
            }
            LoadError::Rejected(d) | LoadError::Unsupported(d) | LoadError::Internal(d) => {
                d.render(sources)
            }
        }
    }
}

/// Why a run gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    pub kind: RunErrorKind,
    pub message: String,
    /// The failing expression, for [`RunErrorKind::Runtime`].
    pub span: Option<Span>,
    /// `file:line:col` of `span`, described by the program's source map.
    pub location: Option<String>,
}

/// What kind of failure a [`RunError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunErrorKind {
    /// The program failed (index out of bounds, size mismatch, ...): what a
    /// test's `error: REGEX` expects. Located.
    Runtime,
    /// The arguments do not fit the entry point (or there is no such entry).
    Input,
    /// The reference's step limit (fuel) was reached.
    OutOfFuel,
    /// The memory limit refused an array the program asked for
    /// (`spec::memory`): located, the same on every backend for a request
    /// past the limit by itself. Like running out of fuel, a limit of the
    /// implementation, not a result of the program; a test's `error: REGEX`
    /// may expect it.
    MemoryLimit,
    /// A check of the implementation itself failed (a TFP'18 theorem on the
    /// reference, a validation-layer message on the GPU): never what a test
    /// expects.
    Internal,
}

impl RunErrorKind {
    /// The kind's stable name (the `code` of a traced run's outcome).
    pub fn name(self) -> &'static str {
        match self {
            RunErrorKind::Runtime => "runtime",
            RunErrorKind::Input => "input",
            RunErrorKind::OutOfFuel => "out-of-fuel",
            RunErrorKind::MemoryLimit => "memory-limit",
            RunErrorKind::Internal => "internal",
        }
    }
}

impl RunError {
    /// An error of `kind` located nowhere.
    pub fn unlocated(kind: RunErrorKind, message: impl Into<String>) -> RunError {
        RunError {
            kind,
            message: message.into(),
            span: None,
            location: None,
        }
    }

    /// The reference's step limit was reached.
    pub fn out_of_fuel() -> RunError {
        RunError::unlocated(
            RunErrorKind::OutOfFuel,
            "evaluation ran out of fuel (step limit reached)",
        )
    }

    /// A run-time error of the program at `span`.
    pub fn runtime(message: impl Into<String>, span: Span, sources: &SourceMap) -> RunError {
        RunError::located(RunErrorKind::Runtime, message, span, sources)
    }

    /// An error of `kind` at `span`.
    pub fn located(
        kind: RunErrorKind,
        message: impl Into<String>,
        span: Span,
        sources: &SourceMap,
    ) -> RunError {
        RunError {
            kind,
            message: message.into(),
            span: Some(span),
            location: Some(sources.describe(span)),
        }
    }
}

/// As the user sees it: `Error at file:line:col: message` for errors of the
/// program (the format `error: REGEX` cases are matched against), `error: ...`
/// otherwise.
impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.location, self.kind) {
            (Some(location), _) => write!(f, "Error at {location}: {}", self.message),
            (None, RunErrorKind::Runtime) => write!(f, "Error: {}", self.message),
            (None, RunErrorKind::Input) => write!(f, "error: bad input: {}", self.message),
            (None, RunErrorKind::OutOfFuel | RunErrorKind::MemoryLimit) => {
                write!(f, "error: {}", self.message)
            }
            (None, RunErrorKind::Internal) => write!(f, "internal error: {}", self.message),
        }
    }
}
