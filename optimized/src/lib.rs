//! The optimising compiler of runestone's Futhark subset.
//!
//! The pipeline (ARCHITECTURE.md, "optimized/"): parse (`spec`) → **type check**
//! (inference with diagnostics) → static interpretation of modules with
//! memoised functor application → monomorphisation → defunctionalisation
//! (lambda lifting, dynamic functions) → typed first-order SOAC IR, re-checked
//! after every pass → simplify, inline, fusion, hoisting → (flattening into
//! the segmented IR) → CPU backend (rayon).
//!
//! Implemented so far: the semantic types ([`types`]) and the type checker
//! ([`typecheck`]) for the core language and the module language
//! (structures, module types, opaque ascription, functors, higher-order
//! included, parametric abstract types, `import`, the prelude's numeric
//! modules), static interpretation ([`static_interp`]: the module-free
//! program, with memoised functor application), the typed core and its
//! elaboration ([`core`]), monomorphisation ([`mono`]), defunctionalisation
//! ([`defunc`]), lowering ([`lower`]) into the typed first-order SOAC IR with
//! its checker and pass manager ([`ir`]), the rayon CPU backend that runs it
//! ([`cpu`]), and the whole pipeline ([`pipeline`]); the IR's optimisation passes ([`passes`]: simplification,
//! inlining, fusion, hoisting) run after lowering, and flattening
//! ([`flatten`]) turns the fused IR into the segmented IR on request.
//!
//! It never calls into `reference/`: the two implementations stay independent
//! so that the differential tests mean something.

pub mod core;
pub mod cpu;
pub mod defunc;
pub mod fixpoint;
pub mod flatten;
pub mod imports;
pub mod ir;
pub mod lower;
pub mod mono;
pub mod passes;
pub mod pipeline;
pub mod static_interp;
pub mod typecheck;
pub mod types;
