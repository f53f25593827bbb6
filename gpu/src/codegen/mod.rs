//! IR → GPU code generation (issue 7, first slice): first-order SOAC IR
//! (`optimized::ir`) lambdas become the GLSL snippets of the kernel library
//! ([`crate::kernels::lambda`]), and the top-level SOACs of a function body
//! become plans naming the library kernel that runs them.
//!
//! * [`lambda`]: straight-line scalar lambdas (primitive operations with
//!   Futhark's semantics, `if` with scalar results, math functions) →
//!   [`crate::kernels::lambda::MapLambda`] / [`crate::kernels::lambda::Operator`];
//! * [`extract`]: a function body's `map`/`reduce`/`scan`/`redomap`/
//!   `scanomap`/`filter`/`scatter`/`reduce_by_index` over 1-D arrays of
//!   primitives → [`extract::KernelPlan`]s, the rest reported as running on
//!   the host;
//! * [`failure`]: which lambdas may raise a run-time error (their kernels
//!   set a status word the driver reads).

pub mod extract;
pub mod failure;
pub mod lambda;

use std::fmt;

/// Why an IR construct has no GPU translation (yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodegenError {
    /// The construct, in words (`loop`, `call of f`, `array value xs_3`, …).
    Unsupported { construct: String },
}

impl CodegenError {
    pub fn unsupported(construct: impl Into<String>) -> CodegenError {
        CodegenError::Unsupported {
            construct: construct.into(),
        }
    }
}

impl fmt::Display for CodegenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodegenError::Unsupported { construct } => {
                write!(f, "not translated to GPU code: {construct}")
            }
        }
    }
}

impl std::error::Error for CodegenError {}
