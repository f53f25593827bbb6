//! λP abstract syntax (Fig. 5.1): the simply-typed λ-calculus with value
//! recursion `μv:τ.e`, tuples and parallel arrays, every term annotated `u^τ`.
//!
//! Annotations are optional in what the parser produces; the λP checker
//! (`typing_p.rs`) computes them (the witness of rule ANN) and returns a fully
//! annotated term. Constants may likewise omit their type arguments when they are
//! applied; the checker infers them from the argument. A λ may omit its
//! parameter type only when it is applied directly (`let` sugar).

use super::constants::{write_type_args, Prim};
use super::types::Type;
use spec::source::Span;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// `e ::= u^τ`, with the source span it was parsed from (default when built).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprP {
    pub term: TermP,
    pub annotation: Option<Type>,
    pub span: Span,
}

/// `u`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermP {
    Int(i64),
    Bool(bool),
    Unit,
    /// `c^n_⟨τ̄⟩`; `None` until the checker has inferred the instance.
    Const(Prim, Option<Vec<Type>>),
    Var(Rc<str>),
    Tuple(Box<ExprP>, Box<ExprP>),
    /// `e.i`, `i ∈ {1, 2}`.
    Proj(Box<ExprP>, u8),
    App(Box<ExprP>, Box<ExprP>),
    /// `λv:τ. e` (`None` only under `let` sugar, before checking).
    Lam(Rc<str>, Option<Type>, Box<ExprP>),
    /// `μv:τ. e`.
    Mu(Rc<str>, Type, Box<ExprP>),
}

impl ExprP {
    pub fn new(term: TermP, span: Span) -> ExprP {
        ExprP {
            term,
            annotation: None,
            span,
        }
    }

    pub fn annotated(term: TermP, ty: Type) -> ExprP {
        ExprP {
            term,
            annotation: Some(ty),
            span: Span::default(),
        }
    }

    /// The annotation of a checked term.
    pub fn ty(&self) -> &Type {
        self.annotation
            .as_ref()
            .expect("λP term checked by typing_p::annotate carries its type")
    }

    /// `FVS(e)` with the annotated type of each free variable, ordered by name
    /// (the deterministic order closure conversion uses; SPEC_NOTES L05-5).
    pub fn free_variables(&self) -> BTreeMap<Rc<str>, Type> {
        let mut free = BTreeMap::new();
        self.collect_free(&mut Vec::new(), &mut free);
        free
    }

    fn collect_free(&self, bound: &mut Vec<Rc<str>>, free: &mut BTreeMap<Rc<str>, Type>) {
        match &self.term {
            TermP::Int(_) | TermP::Bool(_) | TermP::Unit | TermP::Const(..) => {}
            TermP::Var(name) => {
                if !bound.contains(name) {
                    let ty = self.annotation.clone().unwrap_or(Type::Unit);
                    free.entry(name.clone()).or_insert(ty);
                }
            }
            TermP::Tuple(a, b) | TermP::App(a, b) => {
                a.collect_free(bound, free);
                b.collect_free(bound, free);
            }
            TermP::Proj(e, _) => e.collect_free(bound, free),
            TermP::Lam(name, _, body) | TermP::Mu(name, _, body) => {
                bound.push(name.clone());
                body.collect_free(bound, free);
                bound.pop();
            }
        }
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        match &self.term {
            TermP::Int(_) | TermP::Bool(_) | TermP::Unit | TermP::Const(..) | TermP::Var(_) => 1,
            TermP::Tuple(a, b) | TermP::App(a, b) => 1 + a.size() + b.size(),
            TermP::Proj(e, _) | TermP::Lam(_, _, e) | TermP::Mu(_, _, e) => 1 + e.size(),
        }
    }
}

/// Printed in the concrete syntax (`concrete.rs`), annotations left out; the
/// printed text parses back to the same term (checked by a round-trip test).
impl fmt::Display for ExprP {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self, 0)
    }
}

/// Context precedence: 0 = anywhere, 1 = application function/argument position.
fn write_expr(f: &mut fmt::Formatter<'_>, e: &ExprP, context: u8) -> fmt::Result {
    match &e.term {
        TermP::Int(i) if *i < 0 && context > 0 => write!(f, "({i})"),
        TermP::Int(i) => write!(f, "{i}"),
        TermP::Bool(b) => write!(f, "{b}"),
        TermP::Unit => write!(f, "()"),
        TermP::Const(prim, args) => {
            write!(f, "{}", prim.name())?;
            if let Some(args) = args {
                write_type_args(f, args)?;
            }
            Ok(())
        }
        TermP::Var(name) => write!(f, "{name}"),
        TermP::Tuple(a, b) => {
            write!(f, "(")?;
            write_expr(f, a, 0)?;
            write!(f, ", ")?;
            write_expr(f, b, 0)?;
            write!(f, ")")
        }
        TermP::Proj(inner, i) => {
            write_expr(f, inner, 2)?;
            write!(f, ".{i}")
        }
        TermP::App(function, argument) => {
            if context > 1 {
                write!(f, "(")?;
            }
            write_expr(f, function, 1)?;
            write!(f, " ")?;
            write_expr(f, argument, 2)?;
            if context > 1 {
                write!(f, ")")?;
            }
            Ok(())
        }
        TermP::Lam(name, ty, body) => {
            if context > 0 {
                write!(f, "(")?;
            }
            match ty {
                Some(ty) => write!(f, "\\({name} : {ty}) -> ")?,
                None => write!(f, "\\{name} -> ")?,
            }
            write_expr(f, body, 0)?;
            if context > 0 {
                write!(f, ")")?;
            }
            Ok(())
        }
        TermP::Mu(name, ty, body) => {
            if context > 0 {
                write!(f, "(")?;
            }
            write!(f, "mu ({name} : {ty}) -> ")?;
            write_expr(f, body, 0)?;
            if context > 0 {
                write!(f, ")")?;
            }
            Ok(())
        }
    }
}
