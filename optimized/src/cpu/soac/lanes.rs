//! Lane-parallel `reduce` and `scan` for operators that the block-vectorised
//! path can run but that are not one primitive operator per component
//! (`vector::simple_operator`): tuple operators with branches, such as the
//! segmented scan of ICFP'18 Fig. 2's `SgmScan`, or an arg-max.
//!
//! A chunk (`schedule::chunk_ranges`) is cut into blocks of `LANES × steps`
//! consecutive elements; lane `j` owns the `steps` elements from
//! `j × steps`. A block is laid out transposed (row `t` holds every lane's
//! `t`th element: [`Data::transpose_block_from`]), so that one run of the
//! vectorised operator advances every lane by one element. The operator's
//! accumulator parameters read an array of `steps + 1` rows: row `t + 1` is
//! written from the run over row `t` ([`VectorLambda::result_into_input`]).
//!
//! 1. Every lane folds its own elements, from its first element (the
//!    neutral element is not used inside a chunk): the lanes' totals.
//! 2. The totals are combined in lane order on the element-wise path,
//!    giving each lane its carry-in (lane 0's is the chunk's carry).
//! 3. For `scan`, every lane folds its elements again from its carry-in
//!    (row 0) and the prefix rows are transposed back into the output.
//!
//! Only associativity is used, as by the chunked element-wise path: lane
//! `j`'s element `t` gets `carry ⊕ total_0 ⊕ … ⊕ total_{j-1} ⊕ x_{j,0} ⊕ … ⊕
//! x_{j,t}`. The chunk's carries and the neutral element are used exactly as
//! the element-wise path uses them. Fewer than `LANES` elements left in a
//! chunk are folded element-wise. A lane that fails, or an operator error
//! while combining totals, gives [`Fallback`]: the SOAC runs element-wise
//! again and reports the first error in element order.

use super::{
    all_chunks, chunk_ranges, combine, run_chunks, write_results, ArrayVal, CompiledLambda, Data,
    Fallback, Frame, Machine, Outcome, Outputs, Val, VectorLambda, BLOCK,
};
use crate::cpu::columns::OutSlice;
use crate::ir::Span;

/// Lanes of a block: one vectorised run advances this many elements.
const LANES: usize = BLOCK;

/// At most this many elements per lane and block (a block's transposed
/// copy then stays in the second-level cache).
const STEPS: usize = 64;

/// The operator, its vectorised form and the inputs.
pub(crate) struct LaneOperator<'a> {
    pub plan: &'a VectorLambda,
    pub operator: &'a CompiledLambda,
    pub machine: &'a Machine,
    pub inputs: &'a [ArrayVal],
}

/// How many elements per lane the next block at `start` takes (0: fewer
/// than [`LANES`] are left before `end`).
fn block_steps(start: usize, end: usize) -> usize {
    ((end - start) / LANES).min(STEPS)
}

/// One worker's transposed block: the operator's registers, whose inputs
/// are the `k` accumulator arrays (`STEPS + 1` rows) then the `k` element
/// arrays (`STEPS` rows).
struct Block<'a> {
    op: &'a LaneOperator<'a>,
    regs: super::super::vector::Registers,
    k: usize,
}

impl<'a> Block<'a> {
    fn new(op: &'a LaneOperator<'a>) -> Block<'a> {
        let k = op.inputs.len();
        let types = op.inputs.iter().map(|a| a.data.prim_type());
        let accumulators = types.clone().map(|t| Data::zeros(t, (STEPS + 1) * LANES));
        let elements = types.map(|t| Data::zeros(t, STEPS * LANES));
        let regs = op.plan.registers(accumulators.chain(elements));
        Block { op, regs, k }
    }

    /// Transposes the elements `start .. start + LANES × steps`.
    fn load(&mut self, start: usize, steps: usize) {
        let k = self.k;
        for (c, input) in self.op.inputs.iter().enumerate() {
            self.regs.inputs_mut()[k + c].transpose_block_from(&input.data, start, LANES, steps);
        }
    }

    /// Runs the operator over rows `first..steps`: accumulator row `t + 1`
    /// from accumulator row `t` and element row `t`.
    fn fold_rows(&mut self, frame: &Frame, first: usize, steps: usize) -> Result<(), Fallback> {
        let plan = self.op.plan;
        for t in first..steps {
            plan.select_block(&mut self.regs, t * LANES, LANES);
            plan.run(&mut self.regs, frame, LANES)?;
            for c in 0..self.k {
                plan.result_into_input(&mut self.regs, frame, c, c, (t + 1) * LANES, LANES);
            }
        }
        Ok(())
    }

    /// Step 1: every lane's total of its elements, in accumulator row
    /// `steps`.
    fn lane_totals(&mut self, frame: &Frame, steps: usize) -> Result<(), Fallback> {
        let k = self.k;
        for c in 0..k {
            let (accumulators, elements) = self.regs.inputs_mut().split_at_mut(k);
            accumulators[c].copy_within_from(LANES, &elements[c], 0, LANES);
        }
        self.fold_rows(frame, 1, steps)
    }

    /// Lane `j`'s total (after [`Block::lane_totals`]).
    fn total(&self, j: usize, steps: usize) -> impl Iterator<Item = Val> + '_ {
        self.regs.inputs()[..self.k]
            .iter()
            .map(move |acc| Val::Prim(acc.get(steps * LANES + j)))
    }

    /// `acc = acc ⊕ total_j` for every lane in order; with `carries`, each
    /// lane's carry-in is first stored in accumulator row 0.
    fn combine_totals(
        &mut self,
        frame: &mut Frame,
        acc: &mut Vec<Val>,
        steps: usize,
        carries: bool,
    ) -> Result<(), Fallback> {
        for j in 0..LANES {
            if carries {
                for (c, value) in acc.iter().enumerate() {
                    let Val::Prim(p) = value else {
                        return Err(Fallback);
                    };
                    self.regs.inputs_mut()[c].set(j, *p);
                }
            }
            let total: Vec<Val> = self.total(j, steps).collect();
            combine(
                self.op.operator,
                frame,
                self.op.machine,
                acc,
                total.into_iter(),
            )
            .map_err(|_| Fallback)?;
        }
        Ok(())
    }

    /// Folds a chunk's elements into `acc` (steps 1 and 2 per block).
    fn fold_chunk(
        &mut self,
        frame: &mut Frame,
        range: std::ops::Range<usize>,
        acc: &mut Vec<Val>,
    ) -> Result<(), Fallback> {
        let mut start = range.start;
        while start < range.end {
            let steps = block_steps(start, range.end);
            if steps == 0 {
                for i in start..range.end {
                    let row = self.op.inputs.iter().map(|a| a.row(i));
                    combine(self.op.operator, frame, self.op.machine, acc, row)
                        .map_err(|_| Fallback)?;
                }
                return Ok(());
            }
            self.load(start, steps);
            self.lane_totals(frame, steps)?;
            self.combine_totals(frame, acc, steps, false)?;
            start += steps * LANES;
        }
        Ok(())
    }

    /// Scans a chunk's elements from `acc` into `pieces` (rows from
    /// `range.start`).
    fn scan_chunk(
        &mut self,
        frame: &mut Frame,
        range: std::ops::Range<usize>,
        mut acc: Vec<Val>,
        pieces: &mut [OutSlice<'_>],
        shapes: &[Vec<usize>],
        span: Span,
    ) -> Result<(), Fallback> {
        let first = range.start;
        let mut start = range.start;
        while start < range.end {
            let steps = block_steps(start, range.end);
            if steps == 0 {
                for i in start..range.end {
                    let row = self.op.inputs.iter().map(|a| a.row(i));
                    combine(self.op.operator, frame, self.op.machine, &mut acc, row)
                        .map_err(|_| Fallback)?;
                    write_results(self.op.operator, 0, frame, pieces, i - first, shapes, span)
                        .map_err(|_| Fallback)?;
                }
                return Ok(());
            }
            self.load(start, steps);
            self.lane_totals(frame, steps)?;
            self.combine_totals(frame, &mut acc, steps, true)?;
            self.fold_rows(frame, 0, steps)?;
            for (c, piece) in pieces.iter_mut().enumerate() {
                piece.store_transposed(start - first, &self.regs.inputs()[c], 1, LANES, steps);
            }
            start += steps * LANES;
        }
        Ok(())
    }
}

/// Each chunk of `ranges` folded from the neutral element (steps 1 and 2
/// per block), in chunk order.
fn chunk_totals(
    op: &LaneOperator<'_>,
    neutral: &[Val],
    frame: &mut Frame,
    ranges: &[std::ops::Range<usize>],
) -> Result<Vec<Vec<Val>>, Fallback> {
    let totals = run_chunks(
        frame,
        ranges.to_vec(),
        vec![(); ranges.len()],
        |frame, range, ()| {
            let mut acc = neutral.to_vec();
            Ok(Block::new(op)
                .fold_chunk(frame, range, &mut acc)
                .map(|()| acc))
        },
    );
    all_chunks(totals)
}

/// `acc = acc ⊕ values` on the element-wise path.
fn combine_into(
    op: &LaneOperator<'_>,
    frame: &mut Frame,
    acc: &mut Vec<Val>,
    values: &[Val],
) -> Result<(), Fallback> {
    combine(op.operator, frame, op.machine, acc, values.iter().cloned()).map_err(|_| Fallback)
}

/// `reduce` with a vectorisable operator: each chunk folds from the neutral
/// element, and the chunks' results are combined in order.
pub(crate) fn reduce(
    op: &LaneOperator<'_>,
    neutral: &[Val],
    frame: &mut Frame,
    width: usize,
) -> Result<Vec<Val>, Fallback> {
    let mut partials = chunk_totals(op, neutral, frame, &chunk_ranges(width))?.into_iter();
    let mut acc = partials.next().unwrap_or_else(|| neutral.to_vec());
    for partial in partials {
        combine_into(op, frame, &mut acc, &partial)?;
    }
    Ok(acc)
}

/// Inclusive `scan` with a vectorisable operator: the chunks' totals, their
/// exclusive prefix from the neutral element, then every chunk scanned from
/// its prefix.
pub(crate) fn scan(
    op: &LaneOperator<'_>,
    neutral: &[Val],
    frame: &mut Frame,
    width: usize,
    span: Span,
) -> Result<Vec<Val>, Fallback> {
    let ranges = chunk_ranges(width);
    let rows: Vec<usize> = ranges.iter().map(|r| r.len()).collect();
    let mut starts = vec![neutral.to_vec()];
    if ranges.len() > 1 {
        let sums = chunk_totals(op, neutral, frame, &ranges)?;
        for sum in &sums[..sums.len() - 1] {
            let mut next = starts.last().expect("one start").clone();
            combine_into(op, frame, &mut next, sum)?;
            starts.push(next);
        }
    }
    let mut outputs = Outputs::new(op.operator, 0, frame, width);
    let shapes = outputs.row_shapes.clone();
    let writers: Vec<(Vec<Val>, Vec<OutSlice<'_>>)> =
        starts.into_iter().zip(outputs.split(&rows)).collect();
    let done: Outcome<Vec<Result<(), Fallback>>> =
        run_chunks(frame, ranges, writers, |frame, range, (acc, mut pieces)| {
            Ok(Block::new(op).scan_chunk(frame, range, acc, &mut pieces, &shapes, span))
        });
    all_chunks(done)?;
    Ok(outputs.into_arrays(width))
}
