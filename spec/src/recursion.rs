//! Deep recursion without stack overflows.
//!
//! Syntax trees nest up to [`crate::syntax::MAX_NESTING`] levels, and every pass
//! over them (parser, printer, elaborators, interpreters) recurses structurally.
//! Rather than sizing every thread's stack for the worst case, each recursive
//! judgment calls [`with_stack`] at its entry: when less than [`RED_ZONE`] bytes
//! of stack remain, the call continues on a freshly allocated segment (the
//! mechanism rustc uses, via the `stacker` crate). Recursion depth is then
//! bounded by the nesting limit and by memory, never by the thread's stack.

/// Stack that must remain for the frames between two `with_stack` calls.
pub const RED_ZONE: usize = 256 * 1024;

/// Size of each new stack segment.
pub const SEGMENT: usize = 8 * 1024 * 1024;

/// Runs `work`, first moving to a new stack segment if this one is nearly full.
#[inline]
pub fn with_stack<R>(work: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, work)
}
