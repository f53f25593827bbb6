//! TFP'18 (Hovgaard, Henriksen, Elsman: "High-Performance Defunctionalisation
//! in Futhark"): the core language and its defunctionalisation.
//!
//! The interface is documented at the end of this header once complete.

pub mod defunc;
pub mod eval;
pub mod from_surface;
pub mod harness;
pub mod monomorphise;
pub mod pipeline;
pub mod primitive;
pub mod printer;
pub mod relations;
pub mod syntax;
pub mod typing;
pub mod value;
