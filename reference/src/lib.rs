//! The reference: an executable, rule-by-rule transcription of the papers'
//! judgments (ICFP'18 module calculus, TFP'18 core and defunctionalisation,
//! Leshchinskiy's λP → λC → λA). It is the oracle of the differential tests.
//!
//! - [`core`]: TFP'18, the core language (typing, big-step semantics with
//!   `err`, defunctionalisation, the relations and theorems as checks), with a
//!   module-free front end; `runestone run`, `test` and `defunc` use it.
//! - [`modules`]: ICFP'18 §4–§8, the module calculus over a pluggable core language;
//! - [`nested`]: Leshchinskiy's λP → λC → λA (closure conversion, flattening,
//!   small-step semantics, the thesis' theorems as checks);
//! - [`coverage`]: which rules fired, for the tidy tests and the campaigns.

pub mod core;
pub mod coverage;
pub mod modules;
pub mod nested;
