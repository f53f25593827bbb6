//! The reference: an executable, rule-by-rule transcription of the papers'
//! judgments (ICFP'18 module calculus, TFP'18 core and defunctionalisation,
//! Leshchinskiy's λP → λC → λA). It is the oracle of the differential tests.
//!
//! Implemented so far: `nested` (Leshchinskiy). The module and core judgments
//! arrive with their issues; until then the CLI commands that need them
//! (`check`, `run --backend reference`, `defunc`) say so and exit with status 2.

pub mod coverage;
pub mod nested;
