//! Parallel execution of SOACs with rayon.
//!
//! Work is split into chunks ([`super::schedule::chunk_ranges`]); below
//! [`super::PARALLEL_THRESHOLD`] elements a SOAC runs as one chunk on the
//! caller's frame, with no thread hand-off. Each parallel chunk clones the
//! frame once (sharing the arrays: a clone is reference-count increments)
//! and then runs its lambda per element with no allocation for primitive
//! rows.
//!
//! - `map` (and the map part of `redomap`/`scanomap`) writes into output
//!   arrays allocated once, unboxed, split into one disjoint slice per chunk.
//! - `reduce`/`redomap`: each chunk folds its elements from the neutral
//!   element, then the chunk results are combined *in order* (the operator
//!   must be associative, need not be commutative).
//! - `scan`: two passes: per-chunk reductions, an exclusive prefix of them,
//!   then per-chunk scans starting from their prefix. `scanomap` maps first
//!   (into arrays), then scans.
//! - `filter`: per-chunk flags and counts, an exclusive prefix of the counts,
//!   then a parallel copy of the kept rows to their offsets.
//! - `hist`: per-chunk private histograms (when the bins are few compared to
//!   the input) merged into the destination with the operator; otherwise
//!   sequential.
//! - `scatter`: sequential (documented choice: writes are cheap, and
//!   sequential order makes duplicate indices deterministic: the last wins).
//!   Out-of-bounds indices are ignored, as in Futhark.
//!
//! The first error in element order is the one reported.
//!
//! A `map` first tries its native kernel ([`super::native`]), then its
//! block-vectorised lambda ([`super::vector`]); `reduce`, `redomap`,
//! `scan` and `scanomap` first try the block-vectorised form when their
//! operators are simple (its block loops are the faster there), then their
//! native kernels, then (`reduce`/`scan` with a non-simple operator) the
//! lane-parallel path ([`lanes`]); all finally run element by element. A
//! faster path that fails or does not apply hands over to the next.

use std::ops::Range;

use rayon::prelude::*;

use super::columns::OutSlice;
use super::machine::{array_at, ArrayRef, CompiledLambda, Frame, Machine, Operand};
use super::native::NativeKernel;
use super::ops;
use super::schedule::{chunk_ranges, map_ranges};
use super::value::{ArrayVal, Data, Val};
use super::vector::{Fallback, VectorLambda, BLOCK};
use super::RuntimeError;
use crate::ir::{PrimValue, Span};

mod lanes;

pub(crate) enum CompiledSoac {
    Map {
        lambda: CompiledLambda,
        arrays: Vec<usize>,
        vector: Option<VectorLambda>,
        native: Option<Box<NativeKernel>>,
        /// The lambda holds nested work: its element-wise run splits as
        /// [`super::schedule::map_ranges`] says.
        nested_work: bool,
    },
    Reduce {
        native: Option<Box<NativeKernel>>,
        operator: CompiledLambda,
        neutral: Vec<Operand>,
        arrays: Vec<usize>,
        vector: Option<VectorReduce>,
        /// The operator for [`lanes`] when `vector` does not apply.
        lanes: Option<VectorLambda>,
    },
    Scan {
        native: Option<Box<NativeScan>>,
        operator: CompiledLambda,
        neutral: Vec<Operand>,
        arrays: Vec<usize>,
        vector: Option<VectorReduce>,
        /// The operator for [`lanes`] when `vector` does not apply.
        lanes: Option<VectorLambda>,
    },
    Filter {
        predicate: CompiledLambda,
        arrays: Vec<usize>,
    },
    Scatter {
        destinations: Vec<ArrayRef>,
        indices: usize,
        values: Vec<usize>,
    },
    Hist {
        destinations: Vec<ArrayRef>,
        operator: CompiledLambda,
        neutral: Vec<Operand>,
        indices: usize,
        values: Vec<usize>,
    },
    Redomap {
        native: Option<Box<NativeKernel>>,
        map: CompiledLambda,
        operator: CompiledLambda,
        neutral: Vec<Operand>,
        arrays: Vec<usize>,
        vector: Option<VectorReduce>,
        /// The map part and operator for [`lanes`] when `vector` does not
        /// apply.
        lanes: Option<LanePlan>,
    },
    Scanomap {
        native: Option<Box<NativeScan>>,
        map: CompiledLambda,
        operator: CompiledLambda,
        neutral: Vec<Operand>,
        arrays: Vec<usize>,
        vector: Option<VectorReduce>,
        /// The map part and operator for [`lanes`] when `vector` does not
        /// apply.
        lanes: Option<LanePlan>,
    },
}

impl CompiledSoac {
    /// Whether the SOAC has a native kernel, and whether it has a
    /// vectorised form (block-vectorised or lane-parallel).
    pub(crate) fn fast_paths(&self) -> (bool, bool) {
        match self {
            CompiledSoac::Map { native, vector, .. } => (native.is_some(), vector.is_some()),
            CompiledSoac::Reduce {
                native,
                vector,
                lanes,
                ..
            } => (native.is_some(), vector.is_some() || lanes.is_some()),
            CompiledSoac::Scan {
                native,
                vector,
                lanes,
                ..
            } => (native.is_some(), vector.is_some() || lanes.is_some()),
            CompiledSoac::Redomap {
                native,
                vector,
                lanes,
                ..
            } => (native.is_some(), vector.is_some() || lanes.is_some()),
            CompiledSoac::Scanomap {
                native,
                vector,
                lanes,
                ..
            } => (native.is_some(), vector.is_some() || lanes.is_some()),
            CompiledSoac::Filter { .. }
            | CompiledSoac::Scatter { .. }
            | CompiledSoac::Hist { .. } => (false, false),
        }
    }
}

/// The native kernels of a `scan`/`scanomap`: the chunks' totals (first
/// pass), then the scan of each chunk from its start (second pass).
pub(crate) struct NativeScan {
    pub totals: NativeKernel,
    pub scan: NativeKernel,
}

/// The vectorised parts of a `redomap`/`scanomap` whose operator is not
/// simple ([`lanes`]): the operator, and the map part when it vectorises
/// too (its mapped arrays are computed first).
pub(crate) struct LanePlan {
    pub map: Option<VectorLambda>,
    pub operator: VectorLambda,
}

type Outcome<T> = Result<T, RuntimeError>;

/// The block-vectorised form of a `reduce`/`redomap`: the map part and one
/// simple operator per reduced component.
pub(crate) struct VectorReduce {
    pub map: VectorLambda,
    pub operators: Vec<(crate::ir::BinOp, crate::ir::PrimType)>,
}

fn error(message: impl Into<String>, span: Span) -> RuntimeError {
    RuntimeError::program(message, span)
}

/// The input arrays, each checked to have `width` rows.
fn inputs(frame: &Frame, slots: &[usize], width: usize, span: Span) -> Outcome<Vec<ArrayVal>> {
    slots
        .iter()
        .map(|s| {
            let a = array_at(frame, *s);
            if a.len() != width {
                return Err(error(
                    format!("Sizes [{width}] and [{}] do not match.", a.len()),
                    span,
                ));
            }
            Ok(a.clone())
        })
        .collect()
}

/// Runs `body` on every chunk: on the caller's frame when there is one
/// chunk, otherwise in parallel, each chunk on its own copy of the frame.
/// Returns the chunks' results in order, or the first chunk's error.
fn run_chunks<T: Send, W: Send>(
    frame: &mut Frame,
    ranges: Vec<Range<usize>>,
    writers: Vec<W>,
    body: impl Fn(&mut Frame, Range<usize>, W) -> Outcome<T> + Sync,
) -> Outcome<Vec<T>> {
    if ranges.len() == 1 {
        let writer = writers.into_iter().next().expect("one writer per chunk");
        return Ok(vec![body(frame, ranges[0].clone(), writer)?]);
    }
    let base: &Frame = frame;
    let results: Vec<Outcome<T>> = ranges
        .into_par_iter()
        .zip(writers)
        .map(|(range, writer)| {
            let mut local = base.clone();
            body(&mut local, range, writer)
        })
        .collect();
    results.into_iter().collect()
}

/// Output arrays of `width` rows for the lambda's results `from..`.
struct Outputs {
    data: Vec<Data>,
    row_shapes: Vec<Vec<usize>>,
    row_lens: Vec<usize>,
}

impl Outputs {
    /// The output arrays of a `map` lambda, admitted by the memory limit
    /// first: a row's shape comes from values (`map (\i -> replicate m i)
    /// xs`), so the arrays may be far larger than the inputs.
    fn admitted(
        lambda: &CompiledLambda,
        from: usize,
        frame: &Frame,
        width: usize,
        machine: &Machine,
        span: Span,
    ) -> Outcome<Outputs> {
        for spec in &lambda.returns[from..] {
            let elements = spec
                .shape(frame)
                .iter()
                .try_fold(width as u64, |n, d| n.checked_mul(*d as u64));
            machine.admit(
                elements.unwrap_or(u64::MAX),
                spec.element.byte_size() as u64,
                span,
            )?;
        }
        Ok(Outputs::new(lambda, from, frame, width))
    }

    /// The output arrays, unchecked: for a `scan`, whose rows are its
    /// inputs' rows.
    fn new(lambda: &CompiledLambda, from: usize, frame: &Frame, width: usize) -> Outputs {
        let mut outputs = Outputs {
            data: Vec::new(),
            row_shapes: Vec::new(),
            row_lens: Vec::new(),
        };
        for spec in &lambda.returns[from..] {
            let shape = spec.shape(frame);
            let row_len: usize = shape.iter().product();
            outputs
                .data
                .push(Data::zeros(spec.element, width * row_len));
            outputs.row_shapes.push(shape);
            outputs.row_lens.push(row_len);
        }
        outputs
    }

    /// One list of pieces per chunk, the chunks having `rows` rows each.
    fn split(&mut self, rows: &[usize]) -> Vec<Vec<OutSlice<'_>>> {
        let mut per_chunk: Vec<Vec<OutSlice<'_>>> = rows.iter().map(|_| Vec::new()).collect();
        for (data, row_len) in self.data.iter_mut().zip(&self.row_lens) {
            let lengths: Vec<usize> = rows.iter().map(|r| r * row_len).collect();
            for (chunk, piece) in per_chunk.iter_mut().zip(OutSlice::split(data, &lengths)) {
                chunk.push(piece);
            }
        }
        per_chunk
    }

    fn into_arrays(self, width: usize) -> Vec<Val> {
        self.data
            .into_iter()
            .zip(self.row_shapes)
            .map(|(data, row_shape)| {
                let mut shape = vec![width];
                shape.extend(row_shape);
                Val::Array(ArrayVal { shape, data })
            })
            .collect()
    }
}

/// Writes the lambda's results `from..` (after a run) at row `j` of `pieces`.
#[inline]
fn write_results(
    lambda: &CompiledLambda,
    from: usize,
    frame: &Frame,
    pieces: &mut [OutSlice<'_>],
    j: usize,
    outputs_shapes: &[Vec<usize>],
    span: Span,
) -> Outcome<()> {
    for (k, piece) in pieces.iter_mut().enumerate() {
        let shape = &outputs_shapes[k];
        let value = lambda.result(frame, from + k);
        let written = match &value {
            // The common case: a primitive row, no shape to compare.
            Val::Prim(_) => shape.is_empty() && piece.write(j, 1, &value),
            Val::Array(a) => a.shape == *shape && piece.write(j, a.data.len(), &value),
        };
        if !written {
            return Err(error(
                format!(
                    "A row of shape {} is not of the declared shape {}.",
                    shape_text(value.shape()),
                    shape_text(shape)
                ),
                span,
            ));
        }
    }
    Ok(())
}

fn shape_text(shape: &[usize]) -> String {
    if shape.is_empty() {
        return "[]".to_string();
    }
    shape.iter().map(|d| format!("[{d}]")).collect()
}

/// Binds row `i` of every input to the lambda's parameters from `from`.
#[inline]
fn bind_rows(
    lambda: &CompiledLambda,
    frame: &mut Frame,
    from: usize,
    inputs: &[ArrayVal],
    i: usize,
) {
    lambda.bind(frame, from, inputs.iter().map(|a| a.row(i)));
}

/// The mapped arrays of a `redomap`/`scanomap`: vectorised when the map
/// part is, element-wise otherwise (or when a lane fails).
fn map_part(
    plan: &LanePlan,
    map_lambda: &CompiledLambda,
    frame: &mut Frame,
    machine: &Machine,
    width: usize,
    inputs: &[ArrayVal],
    span: Span,
) -> Outcome<Vec<Val>> {
    if let Some(Ok(mapped)) = plan
        .map
        .as_ref()
        .map(|vector| map_vector(vector, frame, width, inputs))
    {
        return Ok(mapped);
    }
    let ranges = chunk_ranges(width);
    map(map_lambda, frame, machine, ranges, width, inputs, span)
}

/// The arrays among SOAC results (all of them: `map` returns arrays).
fn array_values(values: &[Val]) -> Vec<ArrayVal> {
    values
        .iter()
        .map(|v| match v {
            Val::Array(a) => a.clone(),
            Val::Prim(_) => unreachable!("map returns arrays"),
        })
        .collect()
}

/// Whether a `reduce`/`scan` of `width` elements takes the lane-parallel
/// path ([`lanes`]) when its operator qualifies: from the size at which the
/// element-wise path also splits the work (and so also reassociates).
fn use_lanes(width: usize) -> bool {
    width >= super::PARALLEL_THRESHOLD
}

/// `acc = operator(acc, values)` on the frame.
#[inline]
fn combine(
    operator: &CompiledLambda,
    frame: &mut Frame,
    machine: &Machine,
    acc: &mut Vec<Val>,
    values: impl Iterator<Item = Val>,
) -> Outcome<()> {
    let k = acc.len();
    operator.bind(frame, 0, acc.drain(..));
    operator.bind(frame, k, values);
    operator.run(frame, machine)?;
    acc.extend((0..k).map(|r| operator.result(frame, r)));
    Ok(())
}

impl CompiledSoac {
    pub fn run(
        &self,
        frame: &mut Frame,
        machine: &Machine,
        width: usize,
        span: Span,
    ) -> Outcome<Vec<Val>> {
        match self {
            CompiledSoac::Map {
                lambda,
                arrays,
                vector,
                native,
                nested_work,
            } => {
                let inputs = inputs(frame, arrays, width, span)?;
                if let Some(Ok(results)) = native.as_ref().map(|k| k.map(frame, width, &inputs)) {
                    return Ok(results);
                }
                if let Some(Ok(results)) = vector
                    .as_ref()
                    .map(|plan| map_vector(plan, frame, width, &inputs))
                {
                    return Ok(results);
                }
                let ranges = map_ranges(width, *nested_work);
                map(lambda, frame, machine, ranges, width, &inputs, span)
            }
            CompiledSoac::Reduce {
                native,
                operator,
                neutral,
                arrays,
                vector,
                lanes,
            } => {
                let inputs = inputs(frame, arrays, width, span)?;
                let neutral: Vec<Val> = neutral.iter().map(|n| n.get(frame)).collect();
                if let Some(Ok(results)) = vector
                    .as_ref()
                    .map(|plan| redomap_vector(plan, &neutral, frame, width, &inputs))
                {
                    return Ok(results);
                }
                if let Some(results) =
                    native_fold(native, operator, &neutral, frame, machine, width, &inputs)?
                {
                    return Ok(results);
                }
                if let Some(plan) = lanes.as_ref().filter(|_| use_lanes(width)) {
                    let op = lanes::LaneOperator {
                        plan,
                        operator,
                        machine,
                        inputs: &inputs,
                    };
                    if let Ok(results) = lanes::reduce(&op, &neutral, frame, width) {
                        return Ok(results);
                    }
                }
                redomap(
                    None, operator, &neutral, frame, machine, width, &inputs, span,
                )
            }
            CompiledSoac::Redomap {
                native,
                map,
                operator,
                neutral,
                arrays,
                vector,
                lanes,
            } => {
                let inputs = inputs(frame, arrays, width, span)?;
                let neutral: Vec<Val> = neutral.iter().map(|n| n.get(frame)).collect();
                if let Some(Ok(results)) = vector
                    .as_ref()
                    .map(|plan| redomap_vector(plan, &neutral, frame, width, &inputs))
                {
                    return Ok(results);
                }
                if let Some(results) =
                    native_fold(native, operator, &neutral, frame, machine, width, &inputs)?
                {
                    return Ok(results);
                }
                if let Some(plan) = lanes.as_ref().filter(|_| use_lanes(width)) {
                    let k = neutral.len();
                    let mapped = map_part(plan, map, frame, machine, width, &inputs, span)?;
                    let op = lanes::LaneOperator {
                        plan: &plan.operator,
                        operator,
                        machine,
                        inputs: &array_values(&mapped[..k]),
                    };
                    if let Ok(mut results) = lanes::reduce(&op, &neutral, frame, width) {
                        results.extend(mapped.into_iter().skip(k));
                        return Ok(results);
                    }
                }
                redomap(
                    Some(map),
                    operator,
                    &neutral,
                    frame,
                    machine,
                    width,
                    &inputs,
                    span,
                )
            }
            CompiledSoac::Scan {
                native,
                operator,
                neutral,
                arrays,
                vector,
                lanes,
            } => {
                let inputs = inputs(frame, arrays, width, span)?;
                let neutral: Vec<Val> = neutral.iter().map(|n| n.get(frame)).collect();
                if let Some(Ok(results)) = vector
                    .as_ref()
                    .map(|plan| scan_vector(plan, &neutral, frame, width, &inputs))
                {
                    return Ok(results);
                }
                if let Some(results) =
                    native_scan(native, operator, &neutral, frame, machine, width, &inputs)?
                {
                    return Ok(results);
                }
                if let Some(plan) = lanes.as_ref().filter(|_| use_lanes(width)) {
                    let op = lanes::LaneOperator {
                        plan,
                        operator,
                        machine,
                        inputs: &inputs,
                    };
                    if let Ok(results) = lanes::scan(&op, &neutral, frame, width, span) {
                        return Ok(results);
                    }
                }
                scan(operator, &neutral, frame, machine, width, &inputs, span)
            }
            CompiledSoac::Scanomap {
                native,
                map: map_lambda,
                operator,
                neutral,
                arrays,
                vector,
                lanes,
            } => {
                let inputs = inputs(frame, arrays, width, span)?;
                let neutral: Vec<Val> = neutral.iter().map(|n| n.get(frame)).collect();
                if let Some(Ok(results)) = vector
                    .as_ref()
                    .map(|plan| scan_vector(plan, &neutral, frame, width, &inputs))
                {
                    return Ok(results);
                }
                if let Some(results) =
                    native_scan(native, operator, &neutral, frame, machine, width, &inputs)?
                {
                    return Ok(results);
                }
                let mapped = match lanes {
                    Some(plan) => map_part(plan, map_lambda, frame, machine, width, &inputs, span)?,
                    None => {
                        let ranges = chunk_ranges(width);
                        map(map_lambda, frame, machine, ranges, width, &inputs, span)?
                    }
                };
                let k = neutral.len();
                let scan_inputs = array_values(&mapped[..k]);
                if let Some(plan) = lanes.as_ref().filter(|_| use_lanes(width)) {
                    let op = lanes::LaneOperator {
                        plan: &plan.operator,
                        operator,
                        machine,
                        inputs: &scan_inputs,
                    };
                    if let Ok(mut results) = lanes::scan(&op, &neutral, frame, width, span) {
                        results.extend(mapped.into_iter().skip(k));
                        return Ok(results);
                    }
                }
                let mut results = scan(
                    operator,
                    &neutral,
                    frame,
                    machine,
                    width,
                    &scan_inputs,
                    span,
                )?;
                results.extend(mapped.into_iter().skip(k));
                Ok(results)
            }
            CompiledSoac::Filter { predicate, arrays } => {
                let inputs = inputs(frame, arrays, width, span)?;
                filter(predicate, frame, machine, width, &inputs)
            }
            CompiledSoac::Scatter {
                destinations,
                indices,
                values,
            } => {
                let indices = inputs(frame, std::slice::from_ref(indices), width, span)?.remove(0);
                let values = inputs(frame, values, width, span)?;
                let mut destinations: Vec<ArrayVal> =
                    destinations.iter().map(|d| d.fetch(frame)).collect();
                scatter(&mut destinations, &indices, &values, span)?;
                Ok(destinations.into_iter().map(Val::Array).collect())
            }
            CompiledSoac::Hist {
                destinations,
                operator,
                neutral,
                indices,
                values,
            } => {
                let indices = inputs(frame, std::slice::from_ref(indices), width, span)?.remove(0);
                let values = inputs(frame, values, width, span)?;
                let neutral: Vec<Val> = neutral.iter().map(|n| n.get(frame)).collect();
                let mut destinations: Vec<ArrayVal> =
                    destinations.iter().map(|d| d.fetch(frame)).collect();
                hist(
                    operator,
                    &neutral,
                    frame,
                    machine,
                    &mut destinations,
                    &indices,
                    &values,
                    span,
                )?;
                Ok(destinations.into_iter().map(Val::Array).collect())
            }
        }
    }
}

/// `reduce`/`redomap` through a native kernel: its chunks' folds combined
/// in order with the operator, as [`redomap`] combines them, then the
/// mapped arrays; `None` when there is no kernel or it failed (run the
/// other paths).
fn native_fold(
    native: &Option<Box<NativeKernel>>,
    operator: &CompiledLambda,
    neutral: &[Val],
    frame: &mut Frame,
    machine: &Machine,
    width: usize,
    inputs: &[ArrayVal],
) -> Outcome<Option<Vec<Val>>> {
    let Some(kernel) = native else {
        return Ok(None);
    };
    let Ok((partials, mapped)) = kernel.fold(frame, width, inputs, &[neutral.to_vec()]) else {
        return Ok(None);
    };
    let mut partials = partials
        .into_iter()
        .map(|p| p.into_iter().map(Val::Prim).collect::<Vec<Val>>());
    let mut acc = partials.next().unwrap_or_else(|| neutral.to_vec());
    for partial in partials {
        combine(operator, frame, machine, &mut acc, partial.into_iter())?;
    }
    acc.extend(mapped);
    Ok(Some(acc))
}

/// `scan`/`scanomap` through native kernels, in the two passes of [`scan`]
/// over the same chunks: the chunks' totals, their exclusive prefix
/// combined in order with the operator, then each chunk scanned from its
/// start; the scanned arrays, then the mapped ones. `None` when there are
/// no kernels or one failed (run the other paths).
fn native_scan(
    native: &Option<Box<NativeScan>>,
    operator: &CompiledLambda,
    neutral: &[Val],
    frame: &mut Frame,
    machine: &Machine,
    width: usize,
    inputs: &[ArrayVal],
) -> Outcome<Option<Vec<Val>>> {
    let Some(kernels) = native else {
        return Ok(None);
    };
    let mut starts = vec![neutral.to_vec()];
    if chunk_ranges(width).len() > 1 {
        let Ok((sums, _)) = kernels
            .totals
            .fold(frame, width, inputs, &[neutral.to_vec()])
        else {
            return Ok(None);
        };
        for sum in &sums[..sums.len() - 1] {
            let mut next = starts.last().expect("one start").clone();
            combine(
                operator,
                frame,
                machine,
                &mut next,
                sum.iter().map(|p| Val::Prim(*p)),
            )?;
            starts.push(next);
        }
    }
    match kernels.scan.fold(frame, width, inputs, &starts) {
        Ok((_, arrays)) => Ok(Some(arrays)),
        Err(_) => Ok(None),
    }
}

/// `map` element by element, in the chunks `ranges` (covering `0..width`
/// in order).
fn map(
    lambda: &CompiledLambda,
    frame: &mut Frame,
    machine: &Machine,
    ranges: Vec<Range<usize>>,
    width: usize,
    inputs: &[ArrayVal],
    span: Span,
) -> Outcome<Vec<Val>> {
    let mut outputs = Outputs::admitted(lambda, 0, frame, width, machine, span)?;
    let shapes = outputs.row_shapes.clone();
    let rows: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
    let writers = outputs.split(&rows);
    run_chunks(frame, ranges, writers, |frame, range, mut pieces| {
        let start = range.start;
        for i in range {
            bind_rows(lambda, frame, 0, inputs, i);
            lambda.run(frame, machine)?;
            write_results(lambda, 0, frame, &mut pieces, i - start, &shapes, span)?;
        }
        Ok(())
    })?;
    Ok(outputs.into_arrays(width))
}

/// `reduce` (no map lambda) or `redomap`: the reduced values, then the
/// mapped arrays.
#[allow(clippy::too_many_arguments)]
fn redomap(
    map_lambda: Option<&CompiledLambda>,
    operator: &CompiledLambda,
    neutral: &[Val],
    frame: &mut Frame,
    machine: &Machine,
    width: usize,
    inputs: &[ArrayVal],
    span: Span,
) -> Outcome<Vec<Val>> {
    let k = neutral.len();
    let ranges = chunk_ranges(width);
    let rows: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
    let mut outputs = map_lambda
        .map(|lambda| Outputs::admitted(lambda, k, frame, width, machine, span))
        .transpose()?;
    let shapes = outputs
        .as_ref()
        .map(|o| o.row_shapes.clone())
        .unwrap_or_default();
    let writers: Vec<Vec<OutSlice<'_>>> = match &mut outputs {
        Some(o) => o.split(&rows),
        None => rows.iter().map(|_| Vec::new()).collect(),
    };
    let partials = run_chunks(frame, ranges, writers, |frame, range, mut pieces| {
        let start = range.start;
        let mut acc: Vec<Val> = neutral.to_vec();
        let mut mapped: Vec<Val> = Vec::with_capacity(k);
        for i in range {
            match map_lambda {
                Some(lambda) => {
                    bind_rows(lambda, frame, 0, inputs, i);
                    lambda.run(frame, machine)?;
                    write_results(lambda, k, frame, &mut pieces, i - start, &shapes, span)?;
                    mapped.clear();
                    mapped.extend((0..k).map(|r| lambda.result(frame, r)));
                    combine(operator, frame, machine, &mut acc, mapped.drain(..))?;
                }
                None => combine(
                    operator,
                    frame,
                    machine,
                    &mut acc,
                    inputs.iter().map(|a| a.row(i)),
                )?,
            }
        }
        Ok(acc)
    })?;
    let mut partials = partials.into_iter();
    let mut acc = partials.next().unwrap_or_else(|| neutral.to_vec());
    for partial in partials {
        combine(operator, frame, machine, &mut acc, partial.into_iter())?;
    }
    if let Some(o) = outputs {
        acc.extend(o.into_arrays(width));
    }
    Ok(acc)
}

/// Inclusive scan, two passes when parallel.
fn scan(
    operator: &CompiledLambda,
    neutral: &[Val],
    frame: &mut Frame,
    machine: &Machine,
    width: usize,
    inputs: &[ArrayVal],
    span: Span,
) -> Outcome<Vec<Val>> {
    let ranges = chunk_ranges(width);
    let rows: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
    // Pass 1: each chunk's reduction, then the exclusive prefix of them.
    let mut starts = vec![neutral.to_vec()];
    if ranges.len() > 1 {
        let sums = run_chunks(
            frame,
            ranges.clone(),
            vec![(); ranges.len()],
            |frame, range, ()| {
                let mut acc = neutral.to_vec();
                for i in range {
                    combine(
                        operator,
                        frame,
                        machine,
                        &mut acc,
                        inputs.iter().map(|a| a.row(i)),
                    )?;
                }
                Ok(acc)
            },
        )?;
        for sum in &sums[..sums.len() - 1] {
            let mut next = starts.last().expect("one start").clone();
            combine(operator, frame, machine, &mut next, sum.iter().cloned())?;
            starts.push(next);
        }
    }
    // Pass 2: each chunk scans from its start.
    let mut outputs = Outputs::new(operator, 0, frame, width);
    let shapes = outputs.row_shapes.clone();
    let writers: Vec<(Vec<Val>, Vec<OutSlice<'_>>)> =
        starts.into_iter().zip(outputs.split(&rows)).collect();
    run_chunks(
        frame,
        ranges,
        writers,
        |frame, range, (mut acc, mut pieces)| {
            let start = range.start;
            for i in range {
                combine(
                    operator,
                    frame,
                    machine,
                    &mut acc,
                    inputs.iter().map(|a| a.row(i)),
                )?;
                write_results(operator, 0, frame, &mut pieces, i - start, &shapes, span)?;
            }
            Ok(())
        },
    )?;
    Ok(outputs.into_arrays(width))
}

/// The count of kept rows, then the kept rows of every input.
fn filter(
    predicate: &CompiledLambda,
    frame: &mut Frame,
    machine: &Machine,
    width: usize,
    inputs: &[ArrayVal],
) -> Outcome<Vec<Val>> {
    let ranges = chunk_ranges(width);
    let flags = run_chunks(
        frame,
        ranges.clone(),
        vec![(); ranges.len()],
        |frame, range, ()| {
            let mut flags = Vec::with_capacity(range.len());
            for i in range {
                bind_rows(predicate, frame, 0, inputs, i);
                predicate.run(frame, machine)?;
                flags.push(matches!(
                    predicate.result(frame, 0),
                    Val::Prim(PrimValue::Bool(true))
                ));
            }
            Ok(flags)
        },
    )?;
    let counts: Vec<usize> = flags
        .iter()
        .map(|f| f.iter().filter(|b| **b).count())
        .collect();
    let total: usize = counts.iter().sum();
    let mut results = vec![Val::Prim(PrimValue::I64(total as i64))];
    for input in inputs {
        let row_len = input.row_len();
        let mut data = Data::zeros(input.data.prim_type(), total * row_len);
        {
            let lengths: Vec<usize> = counts.iter().map(|c| c * row_len).collect();
            let pieces = OutSlice::split(&mut data, &lengths);
            let copy =
                |(range, (flags, mut piece)): (&Range<usize>, (&Vec<bool>, OutSlice<'_>))| {
                    let mut j = 0;
                    for (i, keep) in range.clone().zip(flags) {
                        if *keep {
                            piece.copy_row(j, &input.data, i, row_len);
                            j += 1;
                        }
                    }
                };
            if ranges.len() == 1 {
                ranges.iter().zip(flags.iter().zip(pieces)).for_each(copy);
            } else {
                ranges
                    .par_iter()
                    .zip(flags.par_iter().zip(pieces.into_par_iter()))
                    .for_each(copy);
            }
        }
        let mut shape = input.shape.clone();
        shape[0] = total;
        results.push(Val::Array(ArrayVal { shape, data }));
    }
    Ok(results)
}

/// The in-bounds index of `indices[i]` among `n` rows, if any.
#[inline]
fn bin_of(indices: &ArrayVal, i: usize, n: usize) -> Option<usize> {
    match indices.data.get(i) {
        PrimValue::I64(x) if 0 <= x && (x as u64) < n as u64 => Some(x as usize),
        _ => None,
    }
}

fn scatter(
    destinations: &mut [ArrayVal],
    indices: &ArrayVal,
    values: &[ArrayVal],
    span: Span,
) -> Outcome<()> {
    for (d, v) in destinations.iter_mut().zip(values) {
        if d.shape[1..] != v.shape[1..] {
            return Err(error(
                format!(
                    "Cannot scatter values of shape {} into an array of shape {}.",
                    shape_text(&v.shape),
                    shape_text(&d.shape)
                ),
                span,
            ));
        }
        ops::make_unique(d);
        let n = d.len();
        let row_len = d.row_len();
        for i in 0..indices.len() {
            if let Some(b) = bin_of(indices, i, n) {
                d.data
                    .copy_within_from(b * row_len, &v.data, i * row_len, row_len);
            }
        }
    }
    Ok(())
}

/// Applies the values `range` to the bins `destinations`.
#[allow(clippy::too_many_arguments)]
fn hist_sequential(
    operator: &CompiledLambda,
    frame: &mut Frame,
    machine: &Machine,
    destinations: &mut [ArrayVal],
    indices: &ArrayVal,
    values: &[ArrayVal],
    range: Range<usize>,
    span: Span,
) -> Outcome<()> {
    let Some(first) = destinations.first() else {
        return Ok(());
    };
    let n = first.len();
    for d in destinations.iter_mut() {
        ops::make_unique(d);
    }
    let k = destinations.len();
    for i in range {
        let Some(b) = bin_of(indices, i, n) else {
            continue;
        };
        operator.bind(frame, 0, destinations.iter().map(|d| d.row(b)));
        operator.bind(frame, k, values.iter().map(|v| v.row(i)));
        operator.run(frame, machine)?;
        for (r, d) in destinations.iter_mut().enumerate() {
            let row_len = d.row_len();
            let shape = d.shape[1..].to_vec();
            ops::write_at(&mut d.data, b * row_len, &shape, &operator.result(frame, r))
                .map_err(|m| error(m, span))?;
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn hist(
    operator: &CompiledLambda,
    neutral: &[Val],
    frame: &mut Frame,
    machine: &Machine,
    destinations: &mut [ArrayVal],
    indices: &ArrayVal,
    values: &[ArrayVal],
    span: Span,
) -> Outcome<()> {
    let width = indices.len();
    let bins = destinations.first().map_or(0, ArrayVal::len);
    let ranges = chunk_ranges(width);
    // Private histograms pay off only when the bins are few.
    if ranges.len() == 1 || bins.saturating_mul(ranges.len()) > width {
        return hist_sequential(
            operator,
            frame,
            machine,
            destinations,
            indices,
            values,
            0..width,
            span,
        );
    }
    let blank: Vec<ArrayVal> = neutral
        .iter()
        .map(|n| ops::replicate(&[bins as i64], n).map_err(|m| error(m, span)))
        .collect::<Outcome<_>>()?;
    let partials = run_chunks(
        frame,
        ranges.clone(),
        vec![(); ranges.len()],
        |frame, range, ()| {
            let mut local: Vec<ArrayVal> = blank.iter().map(ops::copy).collect();
            hist_sequential(
                operator, frame, machine, &mut local, indices, values, range, span,
            )?;
            Ok(local)
        },
    )?;
    // Merge: dest[b] = op(dest[b], partial[b]) for every partial, in order.
    let merge_indices = ArrayVal {
        shape: vec![bins],
        data: Data::I64(std::sync::Arc::new((0..bins as i64).collect())),
    };
    for partial in partials {
        hist_sequential(
            operator,
            frame,
            machine,
            destinations,
            &merge_indices,
            &partial,
            0..bins,
            span,
        )?;
    }
    Ok(())
}

/// The results `from..` of a vectorised lambda as fresh output arrays.
fn vector_outputs(plan: &VectorLambda, from: usize, width: usize) -> Vec<Data> {
    plan.result_types[from..]
        .iter()
        .map(|t| Data::zeros(*t, width))
        .collect()
}

/// Splits outputs into per-chunk pieces.
fn split_outputs<'a>(outputs: &'a mut [Data], rows: &[usize]) -> Vec<Vec<OutSlice<'a>>> {
    let mut per_chunk: Vec<Vec<OutSlice<'a>>> = rows.iter().map(|_| Vec::new()).collect();
    for data in outputs.iter_mut() {
        for (chunk, piece) in per_chunk.iter_mut().zip(OutSlice::split(data, rows)) {
            chunk.push(piece);
        }
    }
    per_chunk
}

/// Runs a vectorised lambda on the elements `range`, block by block, after
/// each block calling `after(block_start, len, registers)`.
fn run_blocks(
    plan: &VectorLambda,
    frame: &Frame,
    inputs: &[ArrayVal],
    range: Range<usize>,
    mut after: impl FnMut(usize, usize, &super::vector::Registers),
) -> Result<(), Fallback> {
    let mut regs = plan.registers(inputs.iter().map(|input| input.data.clone()));
    let mut start = range.start;
    while start < range.end {
        let len = BLOCK.min(range.end - start);
        plan.select_block(&mut regs, start, len);
        plan.run(&mut regs, frame, len)?;
        after(start, len, &regs);
        start += len;
    }
    Ok(())
}

/// The chunks' results, or [`Fallback`] when a vectorised lambda failed in
/// some chunk.
fn all_chunks<T>(chunks: Outcome<Vec<Result<T, Fallback>>>) -> Result<Vec<T>, Fallback> {
    match chunks {
        Ok(chunks) => chunks.into_iter().collect(),
        Err(_) => unreachable!("vectorised chunks report failures as Fallback"),
    }
}

/// `map` of a vectorisable lambda ([`Fallback`]: run it element-wise).
fn map_vector(
    plan: &VectorLambda,
    frame: &mut Frame,
    width: usize,
    inputs: &[ArrayVal],
) -> Result<Vec<Val>, Fallback> {
    let ranges = chunk_ranges(width);
    let rows: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
    let mut outputs = vector_outputs(plan, 0, width);
    let writers = split_outputs(&mut outputs, &rows);
    let done = run_chunks(frame, ranges, writers, |frame, range, mut pieces| {
        let first = range.start;
        Ok(run_blocks(
            plan,
            frame,
            inputs,
            range,
            |start, len, regs| {
                for (k, piece) in pieces.iter_mut().enumerate() {
                    plan.store_result(regs, frame, k, piece, start - first, len);
                }
            },
        ))
    });
    all_chunks(done)?;
    Ok(outputs
        .into_iter()
        .map(|data| {
            Val::Array(ArrayVal {
                shape: vec![width],
                data,
            })
        })
        .collect())
}

/// `reduce`/`redomap` of a vectorisable map part and simple operators
/// ([`Fallback`]: run it element-wise).
fn redomap_vector(
    plan: &VectorReduce,
    neutral: &[Val],
    frame: &mut Frame,
    width: usize,
    inputs: &[ArrayVal],
) -> Result<Vec<Val>, Fallback> {
    let k = plan.operators.len();
    let neutral: Vec<PrimValue> = neutral
        .iter()
        .map(|n| match n {
            Val::Prim(p) => *p,
            Val::Array(_) => PrimValue::Bool(false),
        })
        .collect();
    let ranges = chunk_ranges(width);
    let rows: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
    let mut outputs = vector_outputs(&plan.map, k, width);
    let writers = split_outputs(&mut outputs, &rows);
    let partials = run_chunks(frame, ranges, writers, |frame, range, mut pieces| {
        let first = range.start;
        let mut acc = neutral.clone();
        let done = run_blocks(&plan.map, frame, inputs, range, |start, len, regs| {
            for (i, (op, _)) in plan.operators.iter().enumerate() {
                acc[i] = plan.map.fold_result(regs, frame, i, *op, acc[i], len);
            }
            for (m, piece) in pieces.iter_mut().enumerate() {
                plan.map
                    .store_result(regs, frame, k + m, piece, start - first, len);
            }
        });
        Ok(done.map(|()| acc))
    });
    let mut partials = all_chunks(partials)?.into_iter();
    let mut acc = partials.next().unwrap_or_else(|| neutral.clone());
    for partial in partials {
        for (i, (op, _)) in plan.operators.iter().enumerate() {
            acc[i] = super::prim::binop_dynamic(*op, acc[i], partial[i]).unwrap_or(acc[i]);
        }
    }
    let mut results: Vec<Val> = acc.into_iter().map(Val::Prim).collect();
    results.extend(outputs.into_iter().map(|data| {
        Val::Array(ArrayVal {
            shape: vec![width],
            data,
        })
    }));
    Ok(results)
}

/// `scan`/`scanomap` of a vectorisable map part and simple operators: the
/// `k` scanned arrays, then the `m` mapped ones ([`Fallback`]: run it
/// element-wise).
fn scan_vector(
    plan: &VectorReduce,
    neutral: &[Val],
    frame: &mut Frame,
    width: usize,
    inputs: &[ArrayVal],
) -> Result<Vec<Val>, Fallback> {
    let k = plan.operators.len();
    let neutral: Vec<PrimValue> = neutral
        .iter()
        .map(|n| match n {
            Val::Prim(p) => *p,
            Val::Array(_) => PrimValue::Bool(false),
        })
        .collect();
    let ranges = chunk_ranges(width);
    let rows: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
    // Pass 1: each chunk's reduction, then their exclusive prefix.
    let mut starts = vec![neutral.clone()];
    if ranges.len() > 1 {
        let sums = run_chunks(
            frame,
            ranges.clone(),
            vec![(); ranges.len()],
            |frame, range, ()| {
                let mut acc = neutral.clone();
                let done = run_blocks(&plan.map, frame, inputs, range, |_, len, regs| {
                    for (i, (op, _)) in plan.operators.iter().enumerate() {
                        acc[i] = plan.map.fold_result(regs, frame, i, *op, acc[i], len);
                    }
                });
                Ok(done.map(|()| acc))
            },
        );
        let sums = all_chunks(sums)?;
        for sum in &sums[..sums.len().saturating_sub(1)] {
            let mut next = starts.last().expect("one start").clone();
            for (i, (op, _)) in plan.operators.iter().enumerate() {
                next[i] = super::prim::binop_dynamic(*op, next[i], sum[i]).unwrap_or(next[i]);
            }
            starts.push(next);
        }
    }
    // Pass 2: each chunk scans from its start and writes the mapped values.
    let mut outputs = vector_outputs(&plan.map, 0, width);
    let writers: Vec<(Vec<PrimValue>, Vec<OutSlice<'_>>)> = starts
        .into_iter()
        .zip(split_outputs(&mut outputs, &rows))
        .collect();
    let done = run_chunks(
        frame,
        ranges,
        writers,
        |frame, range, (mut acc, mut pieces)| {
            let first = range.start;
            Ok(run_blocks(
                &plan.map,
                frame,
                inputs,
                range,
                |start, len, regs| {
                    for (i, piece) in pieces.iter_mut().enumerate() {
                        if i < k {
                            let op = plan.operators[i].0;
                            acc[i] = plan.map.scan_result(
                                regs,
                                frame,
                                i,
                                op,
                                acc[i],
                                piece,
                                start - first,
                                len,
                            );
                        } else {
                            plan.map
                                .store_result(regs, frame, i, piece, start - first, len);
                        }
                    }
                },
            ))
        },
    );
    all_chunks(done)?;
    Ok(outputs
        .into_iter()
        .map(|data| {
            Val::Array(ArrayVal {
                shape: vec![width],
                data,
            })
        })
        .collect())
}
