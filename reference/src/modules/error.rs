//! Failed derivations: which rule could not be applied, which premise failed,
//! and where (DESIGN.md: "a failed elaboration names the rule and the premise").

use spec::diagnostic::Diagnostic;
use spec::source::Span;

/// A failed premise of a rule: `rule 29: argument does not match the parameter
/// module type: missing val b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `rule 29`, `outside the paper's core`, `Proposition 6.1`, ...
    pub rule: String,
    /// The premise that failed, in words.
    pub premise: String,
    /// What was found, in words (`missing val b`).
    pub detail: String,
    pub span: Span,
}

impl Failure {
    pub fn new(
        rule: impl Into<String>,
        premise: impl Into<String>,
        detail: impl Into<String>,
        span: Span,
    ) -> Failure {
        Failure {
            rule: rule.into(),
            premise: premise.into(),
            detail: detail.into(),
            span,
        }
    }

    /// The one-line message: `rule 29: <premise>: <detail>`.
    pub fn message(&self) -> String {
        if self.detail.is_empty() {
            format!("{}: {}", self.rule, self.premise)
        } else {
            format!("{}: {}: {}", self.rule, self.premise, self.detail)
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(self.message())
            .with_code(self.rule.clone())
            .with_primary(self.span, self.premise.clone())
    }
}

/// `Failure` for a rule of the paper: `rule(29, ...)` gives code `rule 29`.
pub fn rule_failure(
    rule: u32,
    premise: impl Into<String>,
    detail: impl Into<String>,
    span: Span,
) -> Failure {
    Failure::new(format!("rule {rule}"), premise, detail, span)
}

/// A construct outside the core or module fragment transcribed here.
pub fn outside(what: impl Into<String>, core_name: &str, span: Span) -> Failure {
    Failure::new(format!("outside {core_name}"), what, String::new(), span)
}
