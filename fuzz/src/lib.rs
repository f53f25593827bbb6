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
//! - [`campaign`]: the worker pool, per-item seeding and shrinking loop that
//!   every campaign shares.
//! - [`oracles`]: the `verdict` (reference vs optimised type checker),
//!   `defunc` (TFP'18 Theorems 1–2, Corollary 1; module programs and the §7
//!   `Or` option included) and `modules` (ICFP'18 Proposition 6.1) oracles
//!   on generated programs (`runestone fuzz --oracle verdict|defunc|modules`).
//! - [`ablation`]: premise ablation: a paper's campaign with one premise of
//!   one rule switched off (`runestone ablate`).
//! - [`rule_coverage`]: the rule table, the campaigns' coverage tables and
//!   the list of rules generated programs cannot fire, with the reason.
//!
//! - [`tower`]: the functor-tower benchmark program of static interpretation
//!   (`runestone fuzz --emit-tower N`).
//!
//! The generators of surface syntax trees used by the parser's round-trip
//! property live with the parser's tests in `spec/tests/` until this crate
//! takes them over.

pub mod ablation;
pub mod campaign;
pub mod gen;
pub mod nested;
pub mod oracles;
pub mod reduce;
pub mod rule_coverage;
pub mod signature;
pub mod tower;
