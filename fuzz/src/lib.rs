//! Differential testing: generators of well-typed programs, the oracles that
//! compare implementations and check the papers' theorems, and campaigns.
//!
//! - [`gen`]: type-directed generators of well-typed programs (module level
//!   and core), their ill-typed mutants, proptest strategies with
//!   type-preserving shrinking, quickcheck wrappers and coverage reports.
//!
//! The oracles and campaigns arrive with the rest of the differential-testing
//! issue.

pub mod gen;
