//! Native code for SOAC lambdas, compiled with Cranelift: the fast path of
//! `map` (ahead of the block-vectorised one, [`super::vector`]) and of
//! `reduce`, `redomap`, `scan` and `scanomap` whose operators the
//! block-vectorised form does not take.
//!
//! A lambda qualifies when its parameters and results are primitives and
//! its body is scalar arithmetic (`BinOp`, `UnOp`, `CmpOp`, `ConvOp`),
//! `if`s, `loop`s (`for` with any bound, `while`) over primitive
//! parameters, elements of free arrays of primitives (gathers, any rank,
//! bounds-checked), free scalars and assertions ([`translate`]). A SOAC
//! statement's kernel is compiled once, the first time the statement runs
//! (the frame then tells the free variables' types), to a function that
//! runs a whole chunk of elements: `(env, lo, hi, acc) -> status`
//! ([`jit::KernelFn`]), `env` holding the input, output and free arrays'
//! addresses and the free scalars ([`Layout`]). A `reduce`/`redomap`
//! kernel folds its chunk from `acc` in element order with the operator
//! inlined; the chunk results are combined by the caller exactly as the
//! element-wise path combines them, over the same chunks
//! ([`super::schedule::chunk_ranges`]), so results are bitwise those of the
//! element-wise path.
//!
//! A failing operation (an index out of bounds, a division by zero, a
//! false assertion) makes the kernel return a failure status; the SOAC
//! then runs on the other paths ([`Fallback`]), the element-wise one
//! reporting the first failing element's error. `RUNESTONE_NATIVE=0` in
//! the environment (read once) turns the native path off.

pub mod helpers;
mod jit;

pub use jit::kernel_rejections;
pub mod translate;

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use cranelift_codegen::ir::{types, InstBuilder, MemFlags, Value};
use rayon::prelude::*;

use super::machine::Frame;
use super::schedule::{chunk_ranges, holds_nested_work, map_ranges};
use super::value::{with_data, ArrayVal, Data, Val};
use super::vector::Fallback;
use crate::ir::{Lambda, PrimType, PrimValue, Type, VName};
use translate::{block_args, element_size, machine_type, ArrayView, Translator};

/// Whether the native path is on: unless `RUNESTONE_NATIVE=0`.
pub fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var("RUNESTONE_NATIVE").map_or(true, |v| v.trim() != "0"))
}

/// What a kernel does with each element after running the map part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Write the results (`map`).
    Map,
    /// Fold the first results into the accumulator with the operator and
    /// write the others (`reduce`, `redomap`).
    Fold,
    /// Fold, writing nothing (the first pass of a scan).
    FoldOnly,
    /// Fold, writing each accumulator (the scanned values) and then the
    /// other results (`scan`, `scanomap`).
    Scan,
}

/// What a free variable holds, as the kernel was compiled for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FreeKind {
    Scalar(PrimType),
    Array { element: PrimType, rank: usize },
}

impl FreeKind {
    fn of(value: &Val) -> FreeKind {
        match value {
            Val::Prim(p) => FreeKind::Scalar(p.prim_type()),
            Val::Array(a) => FreeKind::Array {
                element: a.data.prim_type(),
                rank: a.shape.len(),
            },
        }
    }

    /// Words this variable takes in the environment.
    fn words(self) -> usize {
        match self {
            FreeKind::Scalar(_) => 1,
            FreeKind::Array { rank, .. } => 1 + rank,
        }
    }
}

/// The environment's layout: the input arrays' addresses, the output
/// arrays' addresses ([`Mode`] says which), then each free variable (a
/// scalar's bits, or an array's address followed by its dimensions), one
/// 64-bit word each.
struct Layout {
    inputs: Vec<PrimType>,
    /// The accumulator's types (those of the map part's first results).
    reduced: Vec<PrimType>,
    /// The types of the map part's other results.
    mapped: Vec<PrimType>,
    /// The types of the output arrays written.
    outputs: Vec<PrimType>,
    free: Vec<FreeKind>,
}

/// A compiled kernel and the layout it expects.
struct Compiled {
    jit: jit::Jit,
    layout: Layout,
}

/// The native form of one SOAC statement's lambdas, compiled on first use.
pub(crate) struct NativeKernel {
    /// The map part (`None`: the identity, as for `reduce`).
    map: Option<Lambda>,
    /// The reduction operator (`None`: a plain `map`).
    operator: Option<Lambda>,
    mode: Mode,
    /// A `map` whose lambda loops: its chunks are those of
    /// [`map_ranges`] for nested work.
    nested_work: bool,
    /// The free variables and their frame slots.
    free: Vec<(VName, usize)>,
    compiled: OnceLock<Option<Compiled>>,
}

/// The variables `lambdas` read that none of them binds, in first-use order.
fn free_variables(lambdas: &[&Lambda]) -> Vec<VName> {
    let mut bound = HashSet::new();
    for lambda in lambdas {
        crate::ir::visit::for_each_binder_in_lambda(lambda, |name: &VName| {
            bound.insert(name.clone());
        });
    }
    let mut seen = HashSet::new();
    let mut free = Vec::new();
    for lambda in lambdas {
        crate::ir::visit::for_each_use_in_body(&lambda.body, |v: &VName| {
            if !bound.contains(v) && seen.insert(v.clone()) {
                free.push(v.clone());
            }
        });
    }
    free
}

fn all_primitive(types: &[Type]) -> bool {
    types.iter().all(|t| matches!(t, Type::Prim(_)))
}

fn primitive(t: &Type) -> PrimType {
    match t {
        Type::Prim(p) => *p,
        _ => PrimType::Bool,
    }
}

/// The address of an array's elements.
fn data_address(data: &Data) -> u64 {
    with_data!(data, v => v.as_ptr() as u64)
}

/// A value shared with the worker threads: the environment's addresses
/// point into arrays the caller keeps alive and unmoved until every chunk
/// is done, and chunks write disjoint output ranges.
#[derive(Clone, Copy)]
struct SharedEnv(*const u64);
// SAFETY: see the type's documentation.
unsafe impl Send for SharedEnv {}
// SAFETY: see the type's documentation.
unsafe impl Sync for SharedEnv {}

impl NativeKernel {
    /// The kernel of a `map` (`operator: None`), a `reduce` (`map: None`)
    /// or a `redomap`, when the lambdas' parameters and results are
    /// primitives and the native path is on; `slot` resolves free
    /// variables to frame slots.
    pub(crate) fn new(
        map: Option<&Lambda>,
        operator: Option<&Lambda>,
        mode: Mode,
        slot: &mut dyn FnMut(&VName) -> usize,
    ) -> Option<NativeKernel> {
        if !enabled() {
            return None;
        }
        NativeKernel::build(map, operator, mode, slot)
    }

    /// [`Self::new`] whether or not the native path is on.
    pub(crate) fn build(
        map: Option<&Lambda>,
        operator: Option<&Lambda>,
        mode: Mode,
        slot: &mut dyn FnMut(&VName) -> usize,
    ) -> Option<NativeKernel> {
        if (mode == Mode::Map) != operator.is_none() {
            return None;
        }
        let lambdas: Vec<&Lambda> = map.iter().chain(operator.iter()).copied().collect();
        for lambda in &lambdas {
            let params: Vec<Type> = lambda.params.iter().map(|p| p.ty.clone()).collect();
            if !all_primitive(&params) || !all_primitive(&lambda.return_types) {
                return None;
            }
        }
        let free = free_variables(&lambdas)
            .into_iter()
            .map(|v| {
                let s = slot(&v);
                (v, s)
            })
            .collect();
        Some(NativeKernel {
            map: map.cloned(),
            operator: operator.cloned(),
            mode,
            nested_work: mode == Mode::Map && map.is_some_and(|m| holds_nested_work(&m.body)),
            free,
            compiled: OnceLock::new(),
        })
    }

    /// The compiled kernel, compiling it on first use for the free
    /// variables' kinds in `frame`; `None` when the lambdas are outside the
    /// compiled class or the frame does not match what was compiled.
    fn compiled(&self, frame: &Frame) -> Option<&Compiled> {
        let kinds: Vec<FreeKind> = self
            .free
            .iter()
            .map(|(_, s)| FreeKind::of(&frame[*s]))
            .collect();
        let compiled = self
            .compiled
            .get_or_init(|| self.compile(kinds.clone()))
            .as_ref()?;
        (compiled.layout.free == kinds).then_some(compiled)
    }

    fn compile(&self, free: Vec<FreeKind>) -> Option<Compiled> {
        let inputs: Vec<PrimType> = match (&self.map, &self.operator) {
            (Some(map), _) => map.params.iter().map(|p| primitive(&p.ty)).collect(),
            (None, Some(op)) => op.params[op.params.len() / 2..]
                .iter()
                .map(|p| primitive(&p.ty))
                .collect(),
            (None, None) => return None,
        };
        let results: Vec<PrimType> = match &self.map {
            Some(map) => map.return_types.iter().map(primitive).collect(),
            None => inputs.clone(),
        };
        let k = self.operator.as_ref().map_or(0, |op| op.return_types.len());
        if k > results.len() {
            return None;
        }
        let outputs = match self.mode {
            Mode::Map | Mode::Fold => results[k..].to_vec(),
            Mode::FoldOnly => Vec::new(),
            Mode::Scan => results.clone(),
        };
        let layout = Layout {
            inputs,
            reduced: results[..k].to_vec(),
            mapped: results[k..].to_vec(),
            outputs,
            free,
        };
        let jit = jit::compile(|t, params| self.emit(t, params, &layout))?;
        Some(Compiled { jit, layout })
    }

    /// Emits the kernel: read the environment, fold elements `lo..hi`.
    fn emit(
        &self,
        t: &mut Translator<'_, '_>,
        params: jit::KernelParams,
        layout: &Layout,
    ) -> Option<()> {
        let flags = MemFlags::trusted();
        let mut word = 0i32;
        let mut next_word = |t: &mut Translator<'_, '_>| {
            let v = t
                .builder
                .ins()
                .load(types::I64, flags, params.env, word * 8);
            word += 1;
            v
        };
        let inputs: Vec<_> = layout.inputs.iter().map(|_| next_word(t)).collect();
        let outputs: Vec<_> = layout.outputs.iter().map(|_| next_word(t)).collect();
        for ((name, _), kind) in self.free.iter().zip(&layout.free) {
            match *kind {
                FreeKind::Scalar(p) => {
                    let bits = next_word(t);
                    let v = t.decode(bits, p);
                    t.bind(name, v, p);
                }
                FreeKind::Array { element, rank } => {
                    let base = next_word(t);
                    let dims = (0..rank).map(|_| next_word(t)).collect();
                    t.bind_array(
                        name,
                        ArrayView {
                            base,
                            dims,
                            element,
                        },
                    );
                }
            }
        }
        if let Some(map) = &self.map {
            t.hoist(&map.body);
        }
        let mut acc = Vec::with_capacity(layout.reduced.len());
        for (r, p) in layout.reduced.iter().enumerate() {
            let bits = t
                .builder
                .ins()
                .load(types::I64, flags, params.acc, (r * 8) as i32);
            acc.push(t.decode(bits, *p));
        }
        // header(i, acc...): i < hi ? body : exit(acc...)
        let header = t.builder.create_block();
        let body = t.builder.create_block();
        let exit = t.builder.create_block();
        t.builder.append_block_param(header, types::I64);
        for p in &layout.reduced {
            t.builder.append_block_param(header, machine_type(*p));
            t.builder.append_block_param(exit, machine_type(*p));
        }
        let mut start = vec![params.lo];
        start.extend(&acc);
        t.builder.ins().jump(header, &block_args(&start));
        t.builder.switch_to_block(header);
        let header_params = t.builder.block_params(header).to_vec();
        let i = header_params[0];
        let acc = header_params[1..].to_vec();
        let more = t.builder.ins().icmp(
            cranelift_codegen::ir::condcodes::IntCC::SignedLessThan,
            i,
            params.hi,
        );
        t.builder
            .ins()
            .brif(more, body, &[], exit, &block_args(&acc));

        t.builder.switch_to_block(body);
        let mut args = Vec::with_capacity(layout.inputs.len());
        for (base, p) in inputs.iter().zip(&layout.inputs) {
            let offset = t.builder.ins().imul_imm(i, element_size(*p));
            let address = t.builder.ins().iadd(*base, offset);
            let v = t.builder.ins().load(machine_type(*p), flags, address, 0);
            args.push((v, *p));
        }
        let results = match &self.map {
            Some(map) => t.lambda(map, &args)?,
            None => args,
        };
        let k = layout.reduced.len();
        if results.len() != k + layout.mapped.len() {
            return None;
        }
        let mut written: Vec<Value> = Vec::new();
        let mut next = vec![t.builder.ins().iadd_imm(i, 1)];
        if let Some(operator) = &self.operator {
            let mut operands: Vec<_> = acc
                .iter()
                .zip(&layout.reduced)
                .map(|(v, p)| (*v, *p))
                .collect();
            operands.extend(results[..k].iter().copied());
            let folded = t.lambda(operator, &operands)?;
            if folded.len() != k {
                return None;
            }
            next.extend(folded.iter().map(|r| r.0));
            if self.mode == Mode::Scan {
                written.extend(folded.iter().map(|r| r.0));
            }
        }
        if self.mode != Mode::FoldOnly {
            written.extend(results[k..].iter().map(|r| r.0));
        }
        for ((base, p), v) in outputs.iter().zip(&layout.outputs).zip(&written) {
            let offset = t.builder.ins().imul_imm(i, element_size(*p));
            let address = t.builder.ins().iadd(*base, offset);
            t.builder.ins().store(flags, *v, address, 0);
        }
        t.builder.ins().jump(header, &block_args(&next));

        t.builder.switch_to_block(exit);
        let finals = t.builder.block_params(exit).to_vec();
        for (r, (v, p)) in finals.iter().zip(&layout.reduced).enumerate() {
            let bits = t.encode(*v, *p);
            t.builder
                .ins()
                .store(flags, bits, params.acc, (r * 8) as i32);
        }
        let zero = t.builder.ins().iconst(types::I32, 0);
        t.builder.ins().return_(&[zero]);
        Some(())
    }

    /// The environment for a run, or `None` when an input does not have
    /// the layout's element type.
    fn environment(
        &self,
        layout: &Layout,
        frame: &Frame,
        inputs: &[ArrayVal],
        outputs: &mut [Data],
    ) -> Option<Vec<u64>> {
        if inputs.len() != layout.inputs.len() {
            return None;
        }
        let mut env = Vec::new();
        for (input, p) in inputs.iter().zip(&layout.inputs) {
            if input.data.prim_type() != *p || input.shape.len() != 1 {
                return None;
            }
            env.push(data_address(&input.data));
        }
        for output in outputs.iter_mut() {
            env.push(with_data!(output, v => Arc::get_mut(v)?.as_mut_ptr() as u64));
        }
        for ((_, s), kind) in self.free.iter().zip(&layout.free) {
            match (&frame[*s], kind) {
                (Val::Prim(p), FreeKind::Scalar(_)) => env.push(p.to_bits()),
                (Val::Array(a), FreeKind::Array { .. }) => {
                    env.push(data_address(&a.data));
                    env.extend(a.shape.iter().map(|d| *d as u64));
                }
                _ => return None,
            }
        }
        debug_assert_eq!(
            env.len(),
            layout.inputs.len()
                + layout.outputs.len()
                + layout.free.iter().map(|k| k.words()).sum::<usize>()
        );
        Some(env)
    }

    /// Runs the kernel over `width` elements in the chunks of
    /// [`chunk_ranges`] ([`map_ranges`] for a `map`); each chunk's accumulator (chunk `c` starting at
    /// `starts[c]`, or at `starts[0]` when there is one start), and the
    /// output arrays.
    fn run(
        &self,
        frame: &Frame,
        width: usize,
        inputs: &[ArrayVal],
        starts: &[Vec<PrimValue>],
    ) -> Result<(Vec<Vec<PrimValue>>, Vec<Val>), Fallback> {
        let compiled = self.compiled(frame).ok_or(Fallback)?;
        let layout = &compiled.layout;
        for start in starts {
            if start.len() != layout.reduced.len()
                || start
                    .iter()
                    .zip(&layout.reduced)
                    .any(|(n, p)| n.prim_type() != *p)
            {
                return Err(Fallback);
            }
        }
        let ranges = match self.mode {
            Mode::Map => map_ranges(width, self.nested_work),
            _ => chunk_ranges(width),
        };
        if starts.len() != 1 && starts.len() != ranges.len() {
            return Err(Fallback);
        }
        let starts: Vec<Vec<u64>> = starts
            .iter()
            .map(|s| s.iter().map(|n| n.to_bits()).collect())
            .collect();
        let mut outputs: Vec<Data> = layout
            .outputs
            .iter()
            .map(|p| Data::zeros(*p, width))
            .collect();
        let env = self
            .environment(layout, frame, inputs, &mut outputs)
            .ok_or(Fallback)?;
        let shared = SharedEnv(env.as_ptr());
        let entry = compiled.jit.entry;
        let chunk =
            |(c, range): (usize, std::ops::Range<usize>)| -> Result<Vec<PrimValue>, Fallback> {
                let env = shared;
                let mut acc = starts[c.min(starts.len() - 1)].clone();
                acc.push(0);
                // SAFETY: `env` matches the layout the kernel was compiled for
                // (checked above), its arrays outlive the call, and `range` is
                // within every input and output.
                let status = unsafe {
                    entry(
                        env.0,
                        range.start as i64,
                        range.end as i64,
                        acc.as_mut_ptr(),
                    )
                };
                if status != 0 {
                    return Err(Fallback);
                }
                Ok(acc
                    .iter()
                    .zip(&layout.reduced)
                    .map(|(bits, p)| helpers::from_bits(*p, *bits))
                    .collect())
            };
        let partials: Vec<Vec<PrimValue>> = if ranges.len() == 1 {
            vec![chunk((0, ranges[0].clone()))?]
        } else {
            ranges
                .into_par_iter()
                .enumerate()
                .map(chunk)
                .collect::<Result<Vec<_>, Fallback>>()?
        };
        drop(env);
        let arrays = outputs
            .into_iter()
            .map(|data| {
                Val::Array(ArrayVal {
                    shape: vec![width],
                    data,
                })
            })
            .collect();
        Ok((partials, arrays))
    }

    /// `map`: the result arrays.
    pub(crate) fn map(
        &self,
        frame: &Frame,
        width: usize,
        inputs: &[ArrayVal],
    ) -> Result<Vec<Val>, Fallback> {
        if self.operator.is_some() {
            return Err(Fallback);
        }
        Ok(self.run(frame, width, inputs, &[Vec::new()])?.1)
    }

    /// `reduce`/`redomap` (and the passes of `scan`/`scanomap`): each
    /// chunk's fold (in the chunks of [`chunk_ranges`], in order; chunk `c`
    /// from `starts[c]`, or every chunk from `starts[0]`), and the output
    /// arrays.
    pub(crate) fn fold(
        &self,
        frame: &Frame,
        width: usize,
        inputs: &[ArrayVal],
        starts: &[Vec<Val>],
    ) -> Result<(Vec<Vec<PrimValue>>, Vec<Val>), Fallback> {
        let starts: Vec<Vec<PrimValue>> = starts
            .iter()
            .map(|s| {
                s.iter()
                    .map(|n| match n {
                        Val::Prim(p) => Ok(*p),
                        Val::Array(_) => Err(Fallback),
                    })
                    .collect::<Result<_, _>>()
            })
            .collect::<Result<_, _>>()?;
        self.run(frame, width, inputs, &starts)
    }
}

#[cfg(test)]
mod tests;
