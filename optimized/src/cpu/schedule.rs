//! The CPU backend's scheduling policy: how a SOAC of `width` elements is
//! cut into chunks ([`chunk_ranges`], [`map_ranges`]) that rayon runs in
//! parallel, and which bodies hold nested work ([`holds_nested_work`]). A
//! SOAC's results never depend on its chunks, and the first failing
//! element is still the one reported (chunks' outcomes are read in order).

use std::ops::Range;

use crate::ir::{Body, Exp};

/// Whether `body` holds work whose cost grows with the data rather than a
/// fixed number of scalar operations: a SOAC, a loop or a call (of a
/// function that may hold either), at any depth.
pub(crate) fn holds_nested_work(body: &Body) -> bool {
    body.statements.iter().any(|s| match &s.expression {
        Exp::Soac(_) | Exp::Loop { .. } | Exp::Apply { .. } => true,
        Exp::If {
            then_body,
            else_body,
            ..
        } => holds_nested_work(then_body) || holds_nested_work(else_body),
        _ => false,
    })
}

/// The chunks of a `map` of `width` elements: those of [`chunk_ranges`],
/// unless each element holds nested work ([`holds_nested_work`]: an outer
/// map over the rows of a 2-D result, a map whose elements loop). Such a
/// map runs in parallel from [`super::NESTED_PARALLEL_THRESHOLD`] elements
/// up, in up to 16 chunks per worker thread so that rayon balances elements
/// of unequal cost (mandelbrot's rows), unless it already runs inside a
/// parallel chunk (on a rayon worker thread: the enclosing SOAC keeps the
/// threads busy, as for mandelbrot's inner map). A map's results do not
/// depend on its chunks, and the first failing element is still the one
/// reported (the chunks' outcomes are read in order).
pub(crate) fn map_ranges(width: usize, nested_work: bool) -> Vec<Range<usize>> {
    if !nested_work || rayon::current_thread_index().is_some() {
        return chunk_ranges(width);
    }
    nested_work_ranges(width, rayon::current_num_threads())
}

/// [`map_ranges`] of a map with nested work run from outside the pool, on
/// `threads` threads.
fn nested_work_ranges(width: usize, threads: usize) -> Vec<Range<usize>> {
    if !(super::NESTED_PARALLEL_THRESHOLD..super::PARALLEL_THRESHOLD).contains(&width)
        || threads <= 1
    {
        return chunk_ranges(width);
    }
    even_ranges(width, (threads * 16).min(width))
}

/// The chunks a SOAC of `width` elements is split into: one chunk below
/// [`super::PARALLEL_THRESHOLD`] (run sequentially, on the caller's frame),
/// otherwise about four per worker thread.
pub(crate) fn chunk_ranges(width: usize) -> Vec<Range<usize>> {
    let threads = rayon::current_num_threads();
    if width < super::PARALLEL_THRESHOLD || threads <= 1 {
        #[allow(clippy::single_range_in_vec_init)]
        return vec![0..width];
    }
    let chunks = (threads * 4)
        .min(width / (super::PARALLEL_THRESHOLD / 4))
        .max(1);
    even_ranges(width, chunks)
}

/// `0..width` (not empty) cut into at most `chunks` (at least 1) consecutive
/// ranges of equal length, the last one possibly shorter.
fn even_ranges(width: usize, chunks: usize) -> Vec<Range<usize>> {
    let size = width.div_ceil(chunks);
    (0..width)
        .step_by(size)
        .map(|s| s..(s + size).min(width))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{chunk_ranges, map_ranges, nested_work_ranges};

    /// A map with nested work on `threads` threads: its chunks cover
    /// `0..width` in order, and there are `chunks` of them (`None`: those
    /// of [`chunk_ranges`], which depend on the machine).
    fn check(threads: usize, width: usize, chunks: Option<usize>) {
        let ranges = nested_work_ranges(width, threads);
        let mut next = 0;
        for range in &ranges {
            assert_eq!(range.start, next, "{threads} {width}: {ranges:?}");
            assert!(range.end > range.start || width == 0, "{ranges:?}");
            next = range.end;
        }
        assert_eq!(next, width, "{ranges:?}");
        match chunks {
            Some(chunks) => assert_eq!(ranges.len(), chunks, "{threads} {width}: {ranges:?}"),
            None => assert_eq!(ranges, chunk_ranges(width)),
        }
    }

    #[test]
    fn maps_with_nested_work_split_from_a_few_rows() {
        for (threads, width, chunks) in [
            (2, 0, None),
            (2, 15, None),
            (2, 16, Some(16)),
            (2, 40, Some(20)),
            (2, 1000, Some(32)),
            (4, 1000, Some(63)),
            (2, 4095, Some(32)),
            (2, 4096, None),
            (1, 1000, None),
        ] {
            check(threads, width, chunks);
        }
    }

    /// Without nested work, and inside a parallel chunk (on a worker
    /// thread), a map has the chunks of every other SOAC.
    #[test]
    fn maps_without_nested_work_or_on_a_worker_split_as_other_soacs() {
        for width in [0, 16, 1000, 5000, 100_000] {
            assert_eq!(map_ranges(width, false), chunk_ranges(width));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a thread pool");
        assert_eq!(pool.install(|| map_ranges(1000, true)), vec![0..1000]);
    }
}
