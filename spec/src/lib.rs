//! The language definition shared by every runestone implementation.
//!
//! `spec` is the common ground of the reference (`reference/`) and the optimising
//! compiler (`optimized/`): the surface syntax of the Futhark subset (DESIGN.md,
//! "The surface language"), the diagnostics every implementation reports with, the
//! observable values every backend produces, and the `-- ==` test-block format.
//! Nothing here gives a program meaning; that is the implementations' work.

pub mod diagnostic;
pub mod imports;
pub mod memory;
pub mod recursion;
pub mod source;
pub mod syntax;
pub mod testblock;
pub mod value;
