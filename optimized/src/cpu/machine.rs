//! The runtime model of the CPU backend: what compiled code is and what it
//! runs over. A function activation is a [`Frame`] of value slots; a
//! compiled statement is a [`Step`] (one boxed closure over the frame); a
//! compiled program is a [`Machine`] of functions by index. Compilation
//! (`super::compile`) builds these; the SOAC runners (`super::soac`,
//! `super::vector`, `super::native`) run over them.

use std::collections::HashMap;

use super::prim;
use super::value::{ArrayVal, Val};
use super::{RuntimeError, RuntimeErrorKind};
use crate::ir::Span;
use crate::ir::{FunName, PrimType, PrimValue};
use spec::memory::MemoryLimit;

/// The value slots of one function activation.
pub type Frame = Vec<Val>;

/// One compiled statement.
pub type Step = Box<dyn Fn(&mut Frame, &Machine) -> Result<(), RuntimeError> + Send + Sync>;

/// A compiled program: its functions, by index.
pub struct Machine {
    pub(crate) functions: Vec<CompiledFunction>,
    pub(crate) by_name: HashMap<FunName, usize>,
    pub(crate) statistics: BackendStatistics,
    /// Arrays whose size comes from values must fit it ([`Machine::admit`]).
    pub(crate) memory_limit: MemoryLimit,
}

impl Machine {
    /// Whether an array of `elements` elements of `element_bytes` bytes
    /// each may be built at `span` (`spec::memory`: its data size, and the
    /// live heap with it, within the limit).
    pub(crate) fn admit(
        &self,
        elements: u64,
        element_bytes: u64,
        span: Span,
    ) -> Result<(), RuntimeError> {
        self.memory_limit
            .admit(elements, element_bytes)
            .map_err(|exceeded| RuntimeError {
                kind: RuntimeErrorKind::MemoryLimit,
                message: exceeded.to_string(),
                span,
            })
    }
}

/// Which paths the backend compiled a program's SOACs for (`runestone
/// compile --timings` prints them; the optimisation oracle of `fuzz/` checks
/// that generated programs get the fast ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackendStatistics {
    /// SOAC statements compiled, nested ones included.
    pub soacs: usize,
    /// Those with a native (Cranelift) kernel.
    pub native: usize,
    /// Those with a vectorised form (block-vectorised or lane-parallel).
    pub vectorised: usize,
}

impl BackendStatistics {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: BackendStatistics) {
        self.soacs += other.soacs;
        self.native += other.native;
        self.vectorised += other.vectorised;
    }
}

pub(crate) struct CompiledFunction {
    pub frame_size: usize,
    pub params: Vec<usize>,
    pub body: CompiledBody,
}

/// An operand: a slot or a constant.
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    Slot(usize),
    Const(PrimValue),
}

impl Operand {
    #[inline]
    pub fn get(&self, frame: &Frame) -> Val {
        match self {
            Operand::Slot(s) => frame[*s].clone(),
            Operand::Const(c) => Val::Prim(*c),
        }
    }

    /// The primitive value (the checker guarantees one).
    #[inline]
    pub fn prim(&self, frame: &Frame) -> PrimValue {
        match self {
            Operand::Const(c) => *c,
            Operand::Slot(s) => match &frame[*s] {
                Val::Prim(p) => *p,
                Val::Array(_) => PrimValue::Bool(false),
            },
        }
    }

    /// The value as an `i64` (sizes and indices).
    #[inline]
    pub fn int(&self, frame: &Frame) -> i64 {
        prim::as_i64(self.prim(frame)).unwrap_or(0)
    }
}

/// A compiled body: its statements, its results, and the slots it binds
/// (cleared after loop and branch bodies).
pub(crate) struct CompiledBody {
    pub steps: Vec<Step>,
    pub result: Vec<Operand>,
    pub locals: Vec<usize>,
}

impl CompiledBody {
    #[inline]
    pub fn run(&self, frame: &mut Frame, machine: &Machine) -> Result<(), RuntimeError> {
        for step in &self.steps {
            step(frame, machine)?;
        }
        Ok(())
    }

    /// The results (after [`Self::run`]), then the locals cleared.
    pub fn take_results(&self, frame: &mut Frame) -> Vec<Val> {
        let results = self.result.iter().map(|r| r.get(frame)).collect();
        for &l in &self.locals {
            frame[l] = Val::default();
        }
        results
    }

    /// Like [`Self::take_results`], writing the results to `slots` (all
    /// read before any is written) without allocating when there are at
    /// most [`INLINE_RESULTS`] of them: a loop's iteration.
    pub fn take_results_into(&self, frame: &mut Frame, slots: &[usize]) {
        if self.result.len() > INLINE_RESULTS {
            for (slot, v) in slots.iter().zip(self.take_results(frame)) {
                frame[*slot] = v;
            }
            return;
        }
        let mut results: [Val; INLINE_RESULTS] = std::array::from_fn(|_| Val::default());
        for (value, r) in results.iter_mut().zip(&self.result) {
            *value = r.get(frame);
        }
        for &l in &self.locals {
            frame[l] = Val::default();
        }
        for (slot, v) in slots.iter().zip(results) {
            frame[*slot] = v;
        }
    }
}

/// Results a loop body hands back without a heap allocation.
const INLINE_RESULTS: usize = 8;

/// A type whose dimensions are read from the frame at run time.
#[derive(Clone, Debug)]
pub(crate) struct ShapeSpec {
    pub element: PrimType,
    pub dims: Vec<Operand>,
}

impl ShapeSpec {
    pub fn shape(&self, frame: &Frame) -> Vec<usize> {
        self.dims
            .iter()
            .map(|d| d.int(frame).max(0) as usize)
            .collect()
    }
}

pub(crate) struct CompiledLambda {
    pub params: Vec<usize>,
    pub body: CompiledBody,
    pub returns: Vec<ShapeSpec>,
}

impl CompiledLambda {
    /// Binds `args` to the parameters from position `from`, runs the body.
    #[inline]
    pub fn bind(&self, frame: &mut Frame, from: usize, args: impl Iterator<Item = Val>) {
        for (slot, v) in self.params[from..].iter().zip(args) {
            frame[*slot] = v;
        }
    }

    #[inline]
    pub fn run(&self, frame: &mut Frame, machine: &Machine) -> Result<(), RuntimeError> {
        self.body.run(frame, machine)
    }

    /// Result `k` (after a run).
    #[inline]
    pub fn result(&self, frame: &Frame, k: usize) -> Val {
        self.body.result[k].get(frame)
    }
}

/// An array operand: moved out of its slot at its last use, shared otherwise.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArrayRef {
    pub slot: usize,
    pub movable: bool,
}

impl ArrayRef {
    pub fn fetch(&self, frame: &mut Frame) -> ArrayVal {
        let v = if self.movable {
            std::mem::take(&mut frame[self.slot])
        } else {
            frame[self.slot].clone()
        };
        match v {
            Val::Array(a) => a,
            Val::Prim(_) => ArrayVal {
                shape: vec![0],
                data: super::value::Data::zeros(PrimType::Bool, 0),
            },
        }
    }
}

/// Borrows the array in `slot`.
#[inline]
pub(crate) fn array_at(frame: &Frame, slot: usize) -> &ArrayVal {
    match &frame[slot] {
        Val::Array(a) => a,
        Val::Prim(_) => {
            panic!("slot {slot} holds no array (the IR checker admits no such program)")
        }
    }
}
