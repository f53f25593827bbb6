//! Defunctionalisation (issue 5, item 3; TFP'18 §3 and §5): the monomorphic
//! core (after monomorphisation) to a first-order core in which no value is
//! a function. The only lambdas left are the function arguments of SOAC
//! intrinsics (`map`, `reduce`, `scan`, `filter`, `partition`,
//! `reduce_by_index`), which are first-order and refer to the variables of
//! their closures directly; lowering turns them into IR lambdas.
//!
//! - [`static_value`]: the static values `Dyn`, `Lam`, `Rcd`;
//! - [`free_vars`]: what a closure captures, and which bodies are trivial
//!   enough to inline;
//! - [`translate`]: the translation itself, with lambda lifting memoised by
//!   code and static-value shape (no blow-up from partial applications).
//!
//! The TFP'18 restrictions (no functions in arrays, `if`/`match` results,
//! loop parameters or entry points), checked by the type checker, make the
//! translation total; an impossible case is an `internal` diagnostic with the
//! span, never a panic.

pub mod free_vars;
pub mod static_value;
pub mod translate;

use spec::diagnostic::Diagnostic;

use crate::core::Program;
pub use translate::DefuncStats;

/// Defunctionalises a monomorphic core program.
pub fn defunctionalise(program: &Program) -> Result<(Program, DefuncStats), Diagnostic> {
    translate::Defunctionaliser::new(program.next_id).program(program)
}
