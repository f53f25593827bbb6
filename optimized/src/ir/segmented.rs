//! The segmented operations of the flattened IR (issue 27; DESIGN.md
//! "Optimised": the segmented IR): parallel operations over an
//! n-dimensional index space whose bodies are sequential code, as in
//! Futhark's `SegOp` (Henriksen et al., PLDI'17 §5, moderate flattening).
//!
//! The flattened IR is the SOAC IR of [`super::syntax`] with one more
//! expression, [`super::Exp::Seg`]; the flattening pass
//! (`crate::flatten`) produces it from the fused SOAC IR. Invariants, on
//! top of the SOAC IR's (checked by [`super::check`]):
//!
//! - **An index space is regular.** A [`SegSpace`] lists dimensions
//!   outermost first, each an index name (of type `i64`, bound by the
//!   operation, fresh in the program) and a size (an `i64` operand in scope
//!   *outside* the operation: no size depends on an index).
//! - **A body runs once per point**, with every index of the space bound
//!   to that point's coordinate, and is sequential code: the SOACs inside
//!   it are the inner, sequentialised levels of the nest. Bodies see the
//!   variables in scope where the operation is.
//! - **Results are regular.** The result types of a body are in the scope
//!   of the operation (they mention no index and no local of the body), so
//!   every point returns values of the same shape.
//! - **Segments are the outer dimensions.** [`SegOp::Red`] and
//!   [`SegOp::Scan`] combine along the *innermost* dimension of their space;
//!   the outer dimensions (none for a whole-array reduction) index the
//!   segments. Their operator is associative with the given neutral
//!   element and sees only variables in scope outside the operation.
//!
//! Results, for a space `[n₁]…[nₖ]` and body result types `t₁ … tₘ`:
//! `Map` returns `m` arrays `[n₁]…[nₖ]tⱼ`; `Red` returns `m` values
//! `[n₁]…[nₖ₋₁]tⱼ` (plain `tⱼ` when `k = 1`); `Scan` returns `m` arrays
//! `[n₁]…[nₖ]tⱼ`, each segment scanned inclusively.

use super::syntax::{Body, Lambda, SubExp, Type, VName};

/// An index space: `gtid₁ < n₁, …, gtidₖ < nₖ`, outermost first (`k ≥ 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegSpace {
    pub dims: Vec<SegDim>,
}

/// One dimension of an index space: the index the body sees and its bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegDim {
    pub index: VName,
    pub size: SubExp,
}

impl SegSpace {
    /// The sizes, outermost first.
    pub fn sizes(&self) -> Vec<SubExp> {
        self.dims.iter().map(|d| d.size.clone()).collect()
    }
}

/// A segmented operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SegOp {
    /// At every point, `body` returns one value per `return_types`.
    Map {
        space: SegSpace,
        body: Body,
        return_types: Vec<Type>,
    },
    /// A segmented reduction along the innermost dimension: at every point
    /// `body` returns one value per operand of `operator`; each segment's
    /// values are combined, in index order, from `neutral`.
    Red {
        space: SegSpace,
        body: Body,
        operator: Lambda,
        neutral: Vec<SubExp>,
    },
    /// A segmented inclusive scan along the innermost dimension, as `Red`.
    Scan {
        space: SegSpace,
        body: Body,
        operator: Lambda,
        neutral: Vec<SubExp>,
    },
}

impl SegOp {
    pub fn space(&self) -> &SegSpace {
        match self {
            SegOp::Map { space, .. } | SegOp::Red { space, .. } | SegOp::Scan { space, .. } => {
                space
            }
        }
    }

    pub fn body(&self) -> &Body {
        match self {
            SegOp::Map { body, .. } | SegOp::Red { body, .. } | SegOp::Scan { body, .. } => body,
        }
    }

    pub fn body_mut(&mut self) -> &mut Body {
        match self {
            SegOp::Map { body, .. } | SegOp::Red { body, .. } | SegOp::Scan { body, .. } => body,
        }
    }

    /// The types of the body's results at one point.
    pub fn body_types(&self) -> &[Type] {
        match self {
            SegOp::Map { return_types, .. } => return_types,
            SegOp::Red { operator, .. } | SegOp::Scan { operator, .. } => &operator.return_types,
        }
    }

    /// The operator of a reduction or scan.
    pub fn operator(&self) -> Option<&Lambda> {
        match self {
            SegOp::Map { .. } => None,
            SegOp::Red { operator, .. } | SegOp::Scan { operator, .. } => Some(operator),
        }
    }

    /// The name of the operation as the printer writes it.
    pub fn keyword(&self) -> &'static str {
        match self {
            SegOp::Map { .. } => "segmap",
            SegOp::Red { .. } => "segred",
            SegOp::Scan { .. } => "segscan",
        }
    }

    /// The types of the operation's results (see the module doc).
    pub fn result_types(&self) -> Vec<Type> {
        let sizes = self.space().sizes();
        let outer = match self {
            SegOp::Red { .. } => &sizes[..sizes.len().saturating_sub(1)],
            SegOp::Map { .. } | SegOp::Scan { .. } => &sizes[..],
        };
        self.body_types()
            .iter()
            .map(|t| {
                outer
                    .iter()
                    .rev()
                    .fold(t.clone(), |t, size| t.array_of(size.clone()))
            })
            .collect()
    }
}
