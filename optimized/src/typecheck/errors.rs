//! Building the type checker's diagnostics.
//!
//! Every message names the expected and the found type in source syntax, the
//! primary label marks the offending expression, and a note or hint follows
//! where one helps; a broken restriction of TFP'18 cites its rule by name
//! (`typecheck::rules`), as the reference does. Codes: `type-mismatch`, `size-mismatch`, `unknown-name`,
//! `higher-order` (TFP'18 restrictions), `ambiguous-type`, `duplicate-name`,
//! `invalid-type`, `unsupported` (the module language, not handled yet).

use spec::diagnostic::Diagnostic;
use spec::source::Span;

use super::rules::{OrderZeroOrigin, PaperRule};
use super::unify::UnifyError;
use super::Checker;
use crate::types::printer::TypePrinter;
use crate::types::{Size, Type};

/// The note that explains TFP'18's restriction on functions.
pub const ORDER_ZERO_NOTE: &str =
    "functions may not be returned from `if` or `match`, stored in arrays, \
     used as loop parameters, or passed to or returned from entry points \
     (TFP'18 §2.2); this is what lets defunctionalisation remove every function";

impl Checker<'_> {
    /// A size as messages name it.
    fn describe_size(&self, size: &Size) -> String {
        match size {
            Size::Constant(value) => format!("`{value}`"),
            Size::Rigid(name) if !name.name.is_empty() => format!("`{}`", name.name),
            Size::Rigid(name) => self
                .size_descriptions
                .get(&name.id)
                .cloned()
                .unwrap_or_else(|| "an anonymous size `[]`".to_string()),
            Size::Flexible(_) | Size::Unknown => "an unknown size".to_string(),
        }
    }

    /// The diagnostic for a failed `unify(expected, actual)` at `span`; `context`
    /// says what was being checked ("the argument of `f`").
    pub(crate) fn unify_error(
        &self,
        span: Span,
        context: &str,
        expected: &Type,
        actual: &Type,
        error: UnifyError,
    ) -> Diagnostic {
        let mut printer = TypePrinter::new();
        let expected_text = printer.print(&self.subst.resolve_for_display(expected));
        let actual_text = printer.print(&self.subst.resolve_for_display(actual));
        match error {
            UnifyError::Mismatch {
                expected: inner_expected,
                actual: inner_actual,
            } => {
                let inner_expected = printer.print(&self.subst.resolve_for_display(&inner_expected));
                let inner_actual = printer.print(&self.subst.resolve_for_display(&inner_actual));
                let mut diagnostic = Diagnostic::error(format!(
                    "mismatched types: expected `{expected_text}`, found `{actual_text}`"
                ))
                .with_code("type-mismatch")
                .with_primary(span, format!("{context}: expected `{expected_text}`"));
                if inner_expected != expected_text || inner_actual != actual_text {
                    diagnostic = diagnostic.with_note(format!(
                        "`{inner_expected}` and `{inner_actual}` differ"
                    ));
                }
                diagnostic
            }
            UnifyError::SizeMismatch {
                expected: inner_expected,
                actual: inner_actual,
            } => Diagnostic::error(format!(
                "sizes do not match: expected `{expected_text}`, found `{actual_text}`"
            ))
            .with_code("size-mismatch")
            .with_primary(span, format!("{context}: expected `{expected_text}`"))
            .with_note(format!(
                "{} and {} are different sizes",
                self.describe_size(&inner_expected),
                self.describe_size(&inner_actual)
            ))
            .with_note(
                "hint: if the sizes are equal at run time, say so with a size coercion `e :> [n]t`",
            ),
            UnifyError::Occurs { .. } => Diagnostic::error(format!(
                "mismatched types: expected `{expected_text}`, found `{actual_text}` (the type would be infinite)"
            ))
            .with_code("type-mismatch")
            .with_primary(span, format!("{context}: the type would contain itself")),
            UnifyError::NotOrderZero { offending, origin } => {
                let offending = printer.print(&self.subst.resolve_for_display(&offending));
                let mut diagnostic = Diagnostic::error(format!(
                    "a function type is not allowed here: `{offending}` would stand for a type parameter that excludes functions"
                ))
                .with_code("higher-order")
                .with_primary(span, format!("{context}: expected `{expected_text}`, found `{actual_text}`"));
                if origin.file == span.file && !origin.same_location(&span) {
                    diagnostic = diagnostic.with_secondary(origin, "this type may not contain functions");
                }
                let recorded = self.order_zero_origins.get(origin).cloned();
                let citation = match &recorded {
                    Some(OrderZeroOrigin {
                        rule: PaperRule::VarInst,
                        function: Some(function),
                    }) => format!(
                        "{}; a type parameter of `{function}` excludes functions, and `{offending}` is not of order zero (it is or contains a function type or a lifted type parameter)",
                        PaperRule::VarInst.citation()
                    ),
                    Some(recorded) => recorded.rule.order_zero_citation(&offending),
                    None => format!(
                        "TFP'18 orderZero (§2.2): this type stands only for types of order zero, and `{offending}` is not of order zero (it is or contains a function type or a lifted type parameter)"
                    ),
                };
                diagnostic = diagnostic.with_note(citation).with_note(ORDER_ZERO_NOTE);
                match recorded {
                    Some(OrderZeroOrigin {
                        rule: PaperRule::VarInst,
                        ..
                    }) => diagnostic
                        .with_note("hint: a type parameter written `'^a` may stand for functions"),
                    _ => diagnostic,
                }
            }
            UnifyError::NotOverloaded {
                ty,
                allowed,
                what,
                origin,
            } => {
                let ty = printer.print(&self.subst.resolve_for_display(&ty));
                let mut diagnostic = Diagnostic::error(format!(
                    "mismatched types: `{ty}` is not {} (required by {what})",
                    allowed.describe()
                ))
                .with_code("type-mismatch")
                .with_primary(span, format!("{context}: found `{actual_text}`"));
                if origin.file == span.file && !origin.same_location(&span) {
                    diagnostic = diagnostic.with_secondary(origin, what.clone());
                }
                diagnostic
            }
            UnifyError::IncompatibleOverloads {
                first: (first_what, first_allowed, first_origin),
                second: (second_what, second_allowed, second_origin),
            } => {
                let mut diagnostic = Diagnostic::error(format!(
                    "mismatched types: {first_what} must have {}, but {second_what} must have {}",
                    first_allowed.describe(),
                    second_allowed.describe()
                ))
                .with_code("type-mismatch")
                .with_primary(span, format!("{context}: no type is both"));
                for (origin, what) in [(first_origin, first_what), (second_origin, second_what)] {
                    if origin.file == span.file && !origin.same_location(&span) {
                        diagnostic = diagnostic.with_secondary(origin, what.clone());
                    }
                }
                diagnostic
            }
            UnifyError::MissingField {
                field,
                record,
                origin,
            } => {
                let record = printer.print(&self.subst.resolve_for_display(&record));
                let mut diagnostic = Diagnostic::error(format!(
                    "type `{record}` has no field `{}`",
                    field.0
                ))
                .with_code("type-mismatch")
                .with_primary(span, format!("{context}: found `{actual_text}`"));
                if origin.file == span.file && !origin.same_location(&span) {
                    diagnostic = diagnostic.with_secondary(origin, format!("field `{}` is used here", field.0));
                }
                diagnostic
            }
            UnifyError::MissingConstructor {
                constructor,
                sum,
                origin,
            } => {
                let sum = printer.print(&self.subst.resolve_for_display(&sum));
                let mut diagnostic = Diagnostic::error(format!(
                    "type `{sum}` has no constructor `#{constructor}` of this arity"
                ))
                .with_code("type-mismatch")
                .with_primary(span, format!("{context}: found `{actual_text}`"));
                if origin.file == span.file && !origin.same_location(&span) {
                    diagnostic =
                        diagnostic.with_secondary(origin, format!("`#{constructor}` is used here"));
                }
                diagnostic
            }
        }
    }

    /// Unifies, turning a failure into the diagnostic for `span`.
    pub(crate) fn expect_type(
        &mut self,
        span: Span,
        context: &str,
        expected: &Type,
        actual: &Type,
    ) -> Result<(), Diagnostic> {
        self.subst
            .unify(expected, actual, super::unify::SizeMode::Check)
            .map_err(|error| self.unify_error(span, context, expected, actual, error))
    }

    /// Unifies the types of two branches (`if`, `match`) except for their
    /// array sizes, and returns the type of the whole: where the branches'
    /// sizes differ, the result's size is unknown (Futhark makes it
    /// existential and checks it at run time).
    pub(crate) fn join_branches(
        &mut self,
        span: Span,
        context: &str,
        first: &Type,
        other: &Type,
    ) -> Result<Type, Diagnostic> {
        self.subst
            .unify(first, other, super::unify::SizeMode::Ignore)
            .map_err(|error| self.unify_error(span, context, first, other, error))?;
        Ok(self.subst.join_sizes(first, other))
    }

    /// Requires `ty` to be of order zero (TFP'18 `orderZero`), citing `rule`;
    /// `what` describes the construct ("the result of `if`").
    pub(crate) fn require_order_zero(
        &mut self,
        span: Span,
        rule: PaperRule,
        what: &str,
        ty: &Type,
    ) -> Result<(), Diagnostic> {
        self.subst.require_order_zero(ty).map_err(|offending| {
            let mut printer = TypePrinter::new();
            let whole = printer.print(&self.subst.resolve_for_display(ty));
            let offending = printer.print(&offending);
            let mut diagnostic =
                Diagnostic::error(format!("{what} may not be a function: found `{whole}`"))
                    .with_code("higher-order")
                    .with_primary(span, format!("this has type `{whole}`"))
                    .with_note(rule.order_zero_citation(&whole));
            if offending != whole {
                diagnostic = diagnostic.with_note(format!(
                    "`{offending}` is a function type or may stand for one"
                ));
            }
            diagnostic.with_note(ORDER_ZERO_NOTE)
        })
    }

    /// Records that the type variables created at `span` exclude functions
    /// because of `rule` (for [`PaperRule::VarInst`], of the type parameters
    /// of `function`), so that a function type meeting one cites the rule.
    pub(crate) fn record_order_zero_origin(
        &mut self,
        span: Span,
        rule: PaperRule,
        function: Option<String>,
    ) {
        self.order_zero_origins
            .record(span, OrderZeroOrigin { rule, function });
    }

    /// The diagnostic for a construct of the module language, which this
    /// checker does not handle yet.
    pub(crate) fn unsupported(span: Span, what: &str) -> Diagnostic {
        Diagnostic::error(format!(
            "{what} is not supported by the optimising type checker yet"
        ))
        .with_code("unsupported")
        .with_primary(span, "not supported yet")
        .with_note("the optimising type checker does not cover this part of the language yet")
    }
}
