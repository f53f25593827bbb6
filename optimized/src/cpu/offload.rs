//! The hook through which another device runs some of a program's top-level
//! SOAC statements (the GPU driver in `gpu::driver` implements it;
//! `optimized` never depends on `gpu`).
//!
//! When a [`super::CompiledProgram`] is built with an offload
//! ([`super::CompiledProgram::with_offload`]), the compiler asks it once per
//! SOAC statement at the top level of a function body whether it claims the
//! statement ([`SoacOffload::claims`]). A claimed statement is compiled
//! twice: the host version as usual, and a step that evaluates the width and
//! the input arrays and hands them to [`SoacOffload::run`]; when that answers
//! `Ok(None)` the host version runs instead. Statements not claimed, and
//! every statement of a program built without an offload, compile exactly as
//! before: the hook costs nothing off the claimed statements.

use super::value::Val;
use super::RuntimeError;
use crate::ir::{Span, VName};

/// One execution of a claimed SOAC statement.
#[derive(Debug)]
pub struct SoacCall<'a> {
    /// The function's index in `Program::functions`.
    pub function: usize,
    /// The statement's index in the function's body.
    pub statement: usize,
    /// The SOAC's width, evaluated (never negative: a negative width is the
    /// host's error).
    pub width: usize,
    /// The SOAC's input arrays, evaluated, in the order of its `arrays`
    /// (for `scatter` and `reduce_by_index`: the destinations, the indices,
    /// then the values).
    pub inputs: &'a [Val],
    /// The other variables of the function's scope the statement reads
    /// (its width, neutral elements and the free variables of its
    /// lambdas), and their values, in the same order.
    pub free_names: &'a [VName],
    pub free_values: &'a [Val],
    /// The statement's span (for errors).
    pub span: Span,
}

/// Runs some top-level SOAC statements elsewhere than on the CPU.
pub trait SoacOffload: Send + Sync {
    /// Whether statement `statement` of function `function` (indices into
    /// `Program::functions` and the function's body) should be offered to
    /// [`Self::run`]. Asked once, when the program is compiled.
    fn claims(&self, function: usize, statement: usize) -> bool;

    /// Runs a claimed statement: `Ok(Some(values))` are the values its
    /// pattern binds, in order (what the CPU backend would bind: for
    /// `filter`, the count first); `Ok(None)` hands it back to the host
    /// (e.g. inputs the device cannot take); `Err` is a run-time error of the
    /// program.
    fn run(&self, call: &SoacCall<'_>) -> Result<Option<Vec<Val>>, RuntimeError>;
}
