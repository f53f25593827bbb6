//! The optimising compiler of runestone's Futhark subset.
//!
//! Planned pipeline (ARCHITECTURE-notes.md): parse (`spec`) → **type check**
//! (inference with diagnostics) → static interpretation of modules with
//! memoised functor application → monomorphisation → defunctionalisation
//! (lambda lifting, dynamic functions) → typed first-order SOAC IR, re-checked
//! after every pass → simplify, inline, fusion, hoisting → CPU backend (rayon).
//!
//! Implemented so far: the semantic types ([`types`]) and the type checker
//! ([`typecheck`]) for the core language and the module language
//! (structures, module types, opaque ascription, functors, higher-order
//! included, parametric abstract types, `import`, the prelude's numeric
//! modules); the IR ([`ir`]), its optimisation passes ([`passes`]:
//! simplification, inlining, fusion, hoisting) and the CPU backend ([`cpu`]).
//!
//! It never calls into `reference/`: the two implementations stay independent
//! so that the differential tests mean something.

pub mod cpu;
pub mod ir;
pub mod passes;
pub mod typecheck;
pub mod types;
