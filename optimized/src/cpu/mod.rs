//! The CPU backend (issue 5, item 6): runs IR programs, SOACs in parallel
//! with rayon.
//!
//! - [`value`]: run-time values (unboxed arrays behind `Arc`, copy-on-write)
//!   and their conversion from and to `spec::value::Value` through an entry
//!   point's layout;
//! - [`prim`]: primitive operations with Futhark's semantics;
//! - [`compile`]: each function compiled once to closures over a frame of
//!   slots;
//! - [`ops`]: sequential array operations;
//! - [`soac`]: chunked parallel SOACs;
//! - [`segmented`]: the segmented IR's operations as SOACs over their
//!   whole index space;
//! - [`native`]: SOAC lambdas compiled to native code with Cranelift (the
//!   fast path of `map`, `reduce`, `redomap`, `scan` and `scanomap`);
//! - [`vector`]: block-vectorised execution of straight-line scalar
//!   lambdas (the fast path of `map`, `reduce`, `redomap`, `scan`,
//!   `scanomap`);
//! - [`offload`]: the hook through which another device (the GPU driver)
//!   runs top-level SOAC statements it claims.
//!
//! Run-time errors are [`RuntimeError`]s carrying a message and the span of
//! the statement (or `Assert`) that failed; the backend never panics on a
//! program the IR checker accepts.

pub mod columns;
pub mod compile;
pub mod machine;
pub mod native;
pub mod offload;
pub mod ops;
pub mod prim;
pub mod schedule;
pub mod segmented;
pub mod soac;
pub mod value;
pub mod vector;

use std::fmt;
use std::sync::Arc;

use spec::value::Value;

use crate::ir::{check_program, Program, Span};
use machine::Machine;
use offload::SoacOffload;
use value::{flatten_value_owned, unflatten_value, Val};

/// SOACs over fewer elements than this run sequentially on the calling
/// thread; above it, in chunks of at least a quarter of it.
pub const PARALLEL_THRESHOLD: usize = 4096;

/// A `map` whose elements hold nested work (a SOAC, a loop, a call:
/// [`schedule::holds_nested_work`]) runs in parallel from this many
/// elements ([`schedule::map_ranges`]).
pub const NESTED_PARALLEL_THRESHOLD: usize = 16;

/// A run-time error: what kind, the message and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    pub kind: RuntimeErrorKind,
    pub message: String,
    pub span: Span,
}

/// What kind of failure a [`RuntimeError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeErrorKind {
    /// The program failed at `span` (index out of bounds, size mismatch...).
    Program,
    /// The arguments do not fit the entry point (or there is no such entry
    /// point); located nowhere.
    Input,
    /// The memory limit refused the array built at `span` (`spec::memory`).
    MemoryLimit,
}

impl RuntimeError {
    /// The program failed at `span`.
    pub fn program(message: impl Into<String>, span: Span) -> RuntimeError {
        RuntimeError {
            kind: RuntimeErrorKind::Program,
            message: message.into(),
            span,
        }
    }

    /// The arguments do not fit the entry point.
    pub fn input(message: impl Into<String>) -> RuntimeError {
        RuntimeError {
            kind: RuntimeErrorKind::Input,
            message: message.into(),
            span: Span::default(),
        }
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}

/// A program compiled for the CPU, ready to run any of its entry points
/// many times.
pub struct CompiledProgram {
    program: Program,
    machine: Machine,
}

impl CompiledProgram {
    /// Checks and compiles `program` (SOAC IR, or flattened IR whose
    /// segmented operations it expands first: [`segmented`]). An ill-typed
    /// program is an error (the backend relies on the checker's guarantees).
    pub fn new(program: Program) -> Result<CompiledProgram, RuntimeError> {
        CompiledProgram::compile(program, None)
    }

    /// Like [`Self::new`], with the top-level SOAC statements `offload`
    /// claims offered to it when they run ([`offload`]).
    pub fn with_offload(
        program: Program,
        offload: Arc<dyn SoacOffload>,
    ) -> Result<CompiledProgram, RuntimeError> {
        CompiledProgram::compile(program, Some(offload))
    }

    fn compile(
        program: Program,
        offload: Option<Arc<dyn SoacOffload>>,
    ) -> Result<CompiledProgram, RuntimeError> {
        let program = segmented::expand_segmented_operations(program);
        check_program(&program)
            .map_err(|e| RuntimeError::program(format!("ill-typed IR: {e}"), e.span))?;
        let machine = compile::compile_program_with_offload(&program, offload.as_ref());
        Ok(CompiledProgram { program, machine })
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Arrays whose size comes from values must fit `limit`
    /// ([`spec::memory`]; half of this machine's memory until set).
    pub fn set_memory_limit(&mut self, limit: spec::memory::MemoryLimit) {
        self.machine.memory_limit = limit;
    }

    /// Which paths its SOACs were compiled for.
    pub fn statistics(&self) -> machine::BackendStatistics {
        self.machine.statistics
    }

    /// Runs entry point `entry_name` on `args` (one per surface parameter).
    pub fn run_entry(&self, entry_name: &str, args: &[Value]) -> Result<Value, RuntimeError> {
        self.run_entry_owned(entry_name, args.to_vec())
    }

    /// Like [`Self::run_entry`], consuming the arguments: arrays of
    /// primitives are moved into the run, not copied.
    pub fn run_entry_owned(
        &self,
        entry_name: &str,
        args: Vec<Value>,
    ) -> Result<Value, RuntimeError> {
        let prepared = self.prepare_arguments(entry_name, args)?;
        self.run_entry_prepared_values(entry_name, prepared.values)
    }

    /// Converts `args` for entry point `entry_name` once (arrays of
    /// primitives are moved, not copied), so that the entry point can run
    /// many times on them with [`Self::run_prepared`] without converting or
    /// copying its inputs again (the arrays are shared, copy-on-write).
    pub fn prepare_arguments(
        &self,
        entry_name: &str,
        args: Vec<Value>,
    ) -> Result<PreparedArguments, RuntimeError> {
        let fail = RuntimeError::input;
        let entry = self
            .program
            .entry_point(entry_name)
            .ok_or_else(|| fail(format!("no entry point {entry_name}")))?;
        if entry.parameters.len() != args.len() {
            return Err(fail(format!(
                "entry point {entry_name} takes {} arguments, given {}",
                entry.parameters.len(),
                args.len()
            )));
        }
        let mut values = Vec::new();
        for (p, a) in entry.parameters.iter().zip(args) {
            flatten_value_owned(&p.layout, a, &mut values)
                .map_err(|e| fail(format!("argument {}: {}", p.name, e.0)))?;
        }
        Ok(PreparedArguments {
            entry_name: entry_name.to_string(),
            values,
        })
    }

    /// Runs the entry point `prepared` was made for on its arguments; the
    /// arguments stay usable for further runs.
    pub fn run_prepared(&self, prepared: &PreparedArguments) -> Result<Value, RuntimeError> {
        self.run_entry_prepared_values(&prepared.entry_name, prepared.values.clone())
    }

    fn run_entry_prepared_values(
        &self,
        entry_name: &str,
        values: Vec<Val>,
    ) -> Result<Value, RuntimeError> {
        let fail = RuntimeError::input;
        let entry = self
            .program
            .entry_point(entry_name)
            .ok_or_else(|| fail(format!("no entry point {entry_name}")))?;
        let index = self.machine.by_name[&entry.function];
        let function = &self.program.functions[index];
        let compiled = &self.machine.functions[index];
        // Size parameters: read from the shapes of the value parameters.
        let value_params = &function.params[entry.size_parameters..];
        let mut frame: Vec<Val> = vec![Val::default(); compiled.frame_size];
        for size in &function.params[..entry.size_parameters] {
            let var = crate::ir::SubExp::Var(size.name.clone());
            let found = value_params.iter().zip(&values).find_map(|(p, v)| {
                p.ty.shape()
                    .iter()
                    .position(|d| d == &var)
                    .and_then(|k| v.shape().get(k).copied())
            });
            let n = found.ok_or_else(|| fail(format!("no argument gives size {}", size.name)))?;
            let slot = compiled.params[function
                .params
                .iter()
                .position(|p| p.name == size.name)
                .unwrap_or(0)];
            frame[slot] = Val::Prim(crate::ir::PrimValue::I64(n as i64));
        }
        // Arguments must have the declared shapes.
        for ((_, v), slot) in value_params
            .iter()
            .zip(&values)
            .zip(&compiled.params[entry.size_parameters..])
        {
            frame[*slot] = v.clone();
        }
        for (p, v) in value_params.iter().zip(&values) {
            let expected: Vec<i64> =
                p.ty.shape()
                    .iter()
                    .map(|d| match d {
                        crate::ir::SubExp::Constant(c) => prim::as_i64(*c).unwrap_or(-1),
                        crate::ir::SubExp::Var(name) => {
                            let k = function
                                .params
                                .iter()
                                .position(|q| &q.name == name)
                                .unwrap_or(0);
                            match &frame[compiled.params[k]] {
                                Val::Prim(c) => prim::as_i64(*c).unwrap_or(-1),
                                Val::Array(_) => -1,
                            }
                        }
                    })
                    .collect();
            let actual: Vec<i64> = v.shape().iter().map(|&d| d as i64).collect();
            if expected != actual {
                return Err(fail(format!(
                    "argument {} has shape {:?}, but the entry point expects {:?}",
                    p.name, actual, expected
                )));
            }
        }
        compiled.body.run(&mut frame, &self.machine)?;
        let results: Vec<Val> = compiled.body.result.iter().map(|r| r.get(&frame)).collect();
        drop(frame);
        let mut rest = results.into_iter().skip(entry.size_results);
        unflatten_value(&entry.result, &mut rest).map_err(|e| fail(e.0))
    }
}

/// An entry point's arguments converted once for repeated runs
/// ([`CompiledProgram::prepare_arguments`]).
pub struct PreparedArguments {
    entry_name: String,
    values: Vec<Val>,
}

/// Checks, compiles and runs `program`'s entry point `entry_name` on `args`.
pub fn run_entry(
    program: &Program,
    entry_name: &str,
    args: &[Value],
) -> Result<Value, RuntimeError> {
    CompiledProgram::new(program.clone())?.run_entry(entry_name, args)
}
