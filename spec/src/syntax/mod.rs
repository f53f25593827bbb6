//! The surface syntax of runestone's Futhark subset (DESIGN.md, "The surface
//! language"): the tree ([`ast`]), its lexer and parser, and a printer whose
//! output re-parses to the same tree.

pub mod ast;
pub mod operators;
pub mod printer;
