//! The front end of the reference. **This is not a paper judgment**: it
//! prepares the judgments' input (surface programs elaborated to core
//! programs, module programs statically interpreted to core code,
//! polymorphic declarations monomorphised) and drives the transcribed
//! judgments of [`crate::core`] and [`crate::modules`] over whole
//! programs. It is part of the trusted base: the papers' theorems, checked
//! on every program, test the judgments, not this code.
//!
//! # Code map
//!
//! | module | what |
//! |---|---|
//! | [`from_surface`] | the module-free elaborator: surface `def`/`entry`/`type` programs to core programs, with type inference by unification; it also elaborates each core declaration of a module program |
//! | [`tfp18_core`] | the TFP'18 core as the core language of the ICFP'18 module calculus ([`crate::modules::core_interface::Core`]), on [`from_surface`]'s elaborator; a module program to a core program |
//! | [`constant_sizes`] | Futhark's static rejection of distinct constant (and rigid) sizes, on the surface program |
//! | [`entry_points`] | an entry point takes every argument of its type (point-free entries eta-expanded; marked extension) |
//! | [`monomorphise`] | TFP'18 §5.1's "programs are monomorphized before being passed to the defunctionaliser" (the paper gives no rules) |
//! | [`pipeline`] | the whole-program driver (`runestone run`, `test`, `defunc`): the above, then TFP'18 typing, defunctionalisation and the theorems of [`crate::core::theorems`] |
//!
//! # Rule tags here
//!
//! Four marked extensions are tagged in this front end, not in the
//! transcriptions, because they judge what only the front end sees: `TFP18
//! T-ConstantSizes` (the surface program's sizes, SPEC_NOTES TFP18-19) in
//! [`constant_sizes`], `TFP18 T-EntryEtaExpansion` (an entry point's
//! declaration, SPEC_NOTES TFP18-24) in [`entry_points`], and the TFP'18 core instance's two extensions of the
//! module calculus, `ICFP18 tfp18-core-polymorphic-value-spec` and `ICFP18
//! tfp18-core-abstract-types-from-gamma` (SPEC_NOTES ICFP18-16/17), in
//! [`tfp18_core`]. Both papers' own rules are all in [`crate::core`] and
//! [`crate::modules`].
//!
//! # Dependencies
//!
//! `front` uses `core` and `modules`; `modules` (the calculus, generic over
//! its core language) and `core` use neither `front` nor each other.

pub mod constant_sizes;
pub mod entry_points;
pub mod from_surface;
pub mod monomorphise;
pub mod pipeline;
pub mod tfp18_core;
