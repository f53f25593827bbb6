//! The surface syntax of runestone's Futhark subset (DESIGN.md, "The surface
//! language"): the tree ([`ast`]), its lexer and parser, and a printer whose
//! output re-parses to the same tree.

pub mod ast;
pub mod lexer;
pub mod operators;
pub mod parser;
pub mod printer;
pub mod type_exp_children;
pub mod uniqueness;

pub use parser::{
    parse_expr, parse_mod_exp, parse_mod_type, parse_pat, parse_program, parse_type, MAX_NESTING,
};
