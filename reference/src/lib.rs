//! The reference: an executable, rule-by-rule transcription of the papers'
//! judgments (ICFP'18 module calculus, TFP'18 core and defunctionalisation,
//! Leshchinskiy's λP → λC → λA). It is the oracle of the differential tests.
//!
//! - [`core`]: TFP'18, the core language (typing, big-step semantics with
//!   `err`, defunctionalisation, the relations and theorems as checks), with a
//!   module-free front end; `runestone run`, `test` and `defunc` use it.
//! - The ICFP'18 module calculus (`modules`) and Leshchinskiy's flattening
//!   (`nested`) arrive with their issues.

pub mod core;
pub mod coverage;
