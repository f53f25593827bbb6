//! The typed first-order SOAC IR (issue 5, item 4): the target of
//! defunctionalisation (TFP'18 §5, lowered from the monomorphic core), the
//! language of the optimisation passes and the input of the CPU and GPU
//! backends.
//!
//! - [`syntax`]: the definition and its invariants (read its module doc first);
//! - [`segmented`]: the segmented operations the flattening pass produces;
//! - [`printer`]: the readable text form;
//! - `builder` (feature `builder`, for tests and benchmarks only): a small
//!   builder of IR code (fresh names, nested bodies);
//! - [`check`]: the type checker and the pass manager that runs it after
//!   every pass;
//! - [`message`]: assertion messages with the values of their operands;
//! - [`effects`]: the one effects judgement (may fail);
//! - [`visit`]: the one walk over names and binders (shared and mutable).

#[cfg(feature = "builder")]
pub mod builder;
pub mod check;
pub mod effects;
pub mod message;
pub mod printer;
pub mod segmented;
pub mod syntax;
pub mod visit;

pub use check::{check_program, run_pass, IrTypeError, PassError, PassManager};
pub use printer::print_program;
pub use syntax::*;
