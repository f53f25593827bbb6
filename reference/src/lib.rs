//! The reference: an executable, rule-by-rule transcription of the papers'
//! judgments (ICFP'18 module calculus, TFP'18 core and defunctionalisation,
//! Leshchinskiy's λP → λC → λA). It is the oracle of the differential tests.
//!
//! Nothing is implemented yet: the judgments arrive with the reference issues
//! (modules, core, nested). Until then this crate exposes no API, and the CLI
//! commands that need it (`check`, `run --backend reference`, `defunc`) say so and
//! exit with status 2.

pub mod core;
pub mod coverage;
