//! The reference: an executable, rule-by-rule transcription of the papers'
//! judgments (ICFP'18 module calculus, TFP'18 core and defunctionalisation,
//! Leshchinskiy's λP → λC → λA). It is the oracle of the differential tests.
//!
//! - [`core`]: TFP'18, the core language (typing, big-step semantics with
//!   `err`, defunctionalisation, the relations and theorems as checks);
//! - [`modules`]: ICFP'18 §4–§8, the module calculus over a pluggable core
//!   language (the paper's own core among them);
//! - [`nested`]: Leshchinskiy's λP → λC → λA (closure conversion, flattening,
//!   small-step semantics, the thesis' theorems as checks);
//! - [`front`]: not a paper judgment: the front end that prepares the
//!   judgments' input (surface programs to core programs, module programs
//!   through the calculus on the TFP'18 core, monomorphisation) and the
//!   whole-program driver that `runestone run`, `test` and `defunc` use;
//! - [`coverage`]: which rules fired, for the tidy tests and the campaigns;
//! - [`ablation`]: the registry of premises a campaign can switch off, one
//!   at a time, to see which theorem needs each.
//!
//! Dependencies: `front` uses `core` and `modules`; neither of those uses
//! `front`, and `core` and `modules` do not use each other.

pub mod ablation;
pub mod core;
pub mod coverage;
pub mod derivation;
pub mod front;
pub mod modules;
pub mod nested;
