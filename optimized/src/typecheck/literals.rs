//! The range of numeric literals (SPEC_NOTES TFP18-32; the reference's
//! extension rule `TFP18 T-LiteralRange`).
//!
//! A literal must fit the type it ends up with: `256u8`, `300` inferred as a
//! `u8`, `-129` as an `i8` and `1e39f32` are type errors. An unsuffixed
//! literal's type is known only once its definition has been inferred and its
//! overloaded variables defaulted, so the check is postponed to the end of
//! each top-level definition, as exhaustiveness is. A literal under a
//! prefix `-` is checked as the negative number the two write together
//! (`-128i8` fits; `-1u32` does not).

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::Literal;

use super::Checker;
use crate::types::{PrimType, Type};

/// A literal whose range is checked when its definition is finished.
pub(crate) struct PendingLiteralCheck {
    literal: Literal,
    /// Written under a prefix `-` (the span then covers both).
    negated: bool,
    ty: Type,
    span: Span,
}

impl Checker<'_> {
    /// Postpones the range check of `literal`, of type `ty`, to the end of
    /// the definition.
    pub(crate) fn postpone_literal_check(&mut self, literal: Literal, ty: &Type, span: Span) {
        if matches!(literal, Literal::Bool(_)) {
            return;
        }
        self.pending_literal_checks.push(PendingLiteralCheck {
            literal,
            negated: false,
            ty: ty.clone(),
            span,
        });
    }

    /// Marks the literal check postponed last, at position `position`, as
    /// negated by the prefix `-` spanning `span` (if that check exists).
    pub(crate) fn negate_postponed_literal(&mut self, position: usize, span: Span) {
        if position + 1 == self.pending_literal_checks.len() {
            let check = &mut self.pending_literal_checks[position];
            check.negated = true;
            check.span = span;
        }
    }

    /// Runs the postponed range checks of the definition just checked.
    pub(crate) fn check_pending_literals(&mut self) -> Result<(), Diagnostic> {
        let pending = std::mem::take(&mut self.pending_literal_checks);
        for check in pending {
            let Type::Prim(prim) = self.resolve_deep(&check.ty) else {
                continue;
            };
            if let Some(written) = out_of_range(check.literal, check.negated, prim) {
                return Err(Diagnostic::error(format!(
                    "the literal {written} does not fit in {prim}"
                ))
                .with_code("literal-range")
                .with_primary(check.span, format!("not a value of type {prim}"))
                .with_note(
                    "a numeric literal must lie within the range of its type (SPEC_NOTES TFP18-32)",
                ));
            }
        }
        Ok(())
    }
}

/// The literal as written, if it lies outside the range of `prim`.
fn out_of_range(literal: Literal, negated: bool, prim: PrimType) -> Option<String> {
    match literal {
        Literal::Bool(_) => None,
        Literal::Int { value, .. } => {
            let value = if negated {
                -i128::from(value)
            } else {
                i128::from(value)
            };
            // An integer literal at a float type: every `u64` is a finite
            // `f32`.
            let (lowest, highest) = prim.integer_range()?;
            (value < lowest || value > highest).then(|| value.to_string())
        }
        Literal::Float { bits, .. } => {
            let value = f64::from_bits(bits);
            let value = if negated { -value } else { value };
            let finite = match prim {
                PrimType::F32 => (value as f32).is_finite(),
                _ => value.is_finite(),
            };
            (!finite).then(|| format!("{value:e}"))
        }
    }
}
