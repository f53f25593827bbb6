//! The reference: an executable, rule-by-rule transcription of the papers'
//! judgments (ICFP'18 module calculus, TFP'18 core and defunctionalisation,
//! Leshchinskiy's λP → λC → λA). It is the oracle of the differential tests.
//!
//! [`modules`] transcribes ICFP'18 §4–§8 over a pluggable core language.

pub mod coverage;
pub mod modules;
