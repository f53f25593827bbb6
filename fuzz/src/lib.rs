//! Differential testing: generators of well-typed programs, the oracles that
//! compare implementations and check the papers' theorems, and campaigns.
//!
//! Implemented so far:
//!
//! - [`gen`]: type-directed generators of well-typed surface programs (module
//!   level and core), their ill-typed mutants, proptest strategies with
//!   type-preserving shrinking, quickcheck wrappers and coverage reports.
//! - `nested`: generators of closed well-typed λP and λC terms (Leshchinskiy)
//!   and the campaign that checks Theorems 5.27 and 6.37, Lemma 6.3 and the
//!   evaluators' agreement on them (`runestone fuzz --oracle nested`).
//!
//! The generators of surface syntax trees used by the parser's round-trip
//! property live with the parser's tests in `spec/tests/` until this crate
//! takes them over.

pub mod campaign;
pub mod gen;
pub mod nested;
pub mod oracles;
