//! Which emitted declarations are total: evaluating them (a constant), or
//! applying them to total arguments (a function), neither fails nor runs
//! forever. Static interpretation keeps every constant of the program's own
//! files although no entry point uses it, because the program evaluates
//! every top-level constant before its entry point (`lower`: a failing
//! constant fails the run, used or not); a total constant that no entry
//! point reaches can go, and with it whatever only it used. On the functor
//! tower each level's structure `S_i` defines a constant `value` that only
//! the last level's is used: without this, the whole program went through
//! elaboration, monomorphisation and defunctionalisation
//! (measured in `benches/RESULTS.md`, the whole optimising pipeline on the
//! tower).
//!
//! The judgement is syntactic and conservative. A declaration is *locally
//! total* when its body uses only constructs that cannot fail: literals,
//! variables (not built-ins), tuples, records and their fields,
//! applications, lambdas, `let`, `if`, ascriptions, constructors, and the
//! built-in operators other than division, remainder and power (those only
//! by a nonzero integer literal). Indexing, slicing, array literals and
//! ranges (shapes), loops (termination), `match`, coercions, in-place
//! updates and every built-in function (`map`, `zip`, conversions, …) may
//! fail. A declaration is *total* when it is locally total and every global
//! it uses is total: the least fixpoint, leaves first, so a cycle of uses
//! is never total. Applying a function parameter is locally total: the
//! parameter is assumed total, which holds because every argument a total
//! function receives is an expression of a total caller (a total global, a
//! lambda whose body was judged with the caller's, or the caller's own
//! parameter).

use std::collections::HashSet;

use spec::syntax::ast::{BinOp, Dec, Expr, Literal, Name, QualName};

use super::{provisional_symbol, Symbol};
use crate::fixpoint::least_fixpoint;

/// For each symbol, whether its declaration is total: it holds locally
/// and every global it refers to is total ([`least_fixpoint`]).
pub(crate) fn total_symbols(symbols: &[Symbol], built_ins: &HashSet<Name>) -> Vec<bool> {
    let candidates = symbols.iter().enumerate().filter_map(|(index, symbol)| {
        let locally_total = match &symbol.dec {
            Some(Dec::Type(_)) => true,
            Some(Dec::Value(bind)) => expression_is_total(&bind.body, built_ins),
            _ => false,
        };
        locally_total.then(|| {
            let uses = symbol.uses.iter().map(|used| Some(used.0 as usize));
            (index, uses.collect())
        })
    });
    least_fixpoint(symbols.len(), candidates)
}

/// The local judgement: `expr` contains no construct that may fail.
fn expression_is_total(expr: &Expr, built_ins: &HashSet<Name>) -> bool {
    let total = |e: &Expr| expression_is_total(e, built_ins);
    match expr {
        Expr::Literal { .. } | Expr::ProjectSection { .. } => true,
        Expr::Var(name) => !is_built_in(name, built_ins),
        Expr::Project { expr, .. } | Expr::Negate { expr, .. } | Expr::Not { expr, .. } => {
            total(expr)
        }
        Expr::Ascribe { expr, .. } | Expr::Attr { expr, .. } => total(expr),
        Expr::Tuple { elements, .. } => elements.iter().all(total),
        Expr::Record { fields, .. } => fields.iter().all(|(_, e)| total(e)),
        Expr::Constructor { payload, .. } => payload.iter().all(total),
        Expr::Apply {
            function, argument, ..
        } => total(function) && total(argument),
        Expr::BinOp { op, lhs, rhs, .. } => {
            operator_is_total(op, Some(rhs)) && total(lhs) && total(rhs)
        }
        Expr::OpSection { op, .. } => operator_is_total(op, None),
        Expr::LeftSection { op, left, .. } => operator_is_total(op, None) && total(left),
        Expr::RightSection { op, right, .. } => operator_is_total(op, Some(right)) && total(right),
        Expr::If {
            condition,
            then_branch,
            else_branch,
            ..
        } => total(condition) && total(then_branch) && total(else_branch),
        Expr::Let { value, body, .. } | Expr::LetFun { value, body, .. } => {
            total(value) && total(body)
        }
        Expr::Lambda { body, .. } => total(body),
        Expr::RecordUpdate { target, value, .. } => total(target) && total(value),
        Expr::Array { .. }
        | Expr::Range { .. }
        | Expr::Index { .. }
        | Expr::IndexSection { .. }
        | Expr::LetWith { .. }
        | Expr::Loop { .. }
        | Expr::Update { .. }
        | Expr::Coerce { .. }
        | Expr::Match { .. }
        | Expr::OpenIn { .. } => false,
    }
}

/// A name the program uses unbound (a built-in). A qualified name that
/// static interpretation left is a field of a variable (`p.0`, `r.x.y`):
/// judged by its head.
fn is_built_in(name: &QualName, built_ins: &HashSet<Name>) -> bool {
    let head = name.qualifiers.first().unwrap_or(&name.name);
    provisional_symbol(head).is_none() && built_ins.contains(head)
}

/// A global operator (judged by the fixpoint), or a built-in one that
/// cannot fail: all but division, remainder and power, which are total
/// only by a nonzero integer literal (`right`, when known).
fn operator_is_total(op: &BinOp, right: Option<&Expr>) -> bool {
    let name = op.name();
    if provisional_symbol(&name.name).is_some() {
        return true;
    }
    if !name.qualifiers.is_empty() {
        return false;
    }
    match name.name.as_str() {
        "+" | "-" | "*" | "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||" | "&" | "|" | "^"
        | "<<" | ">>" | ">>>" => true,
        "/" | "%" | "//" | "%%" => matches!(
            right,
            Some(Expr::Literal {
                literal: Literal::Int { value, .. },
                ..
            }) if *value != 0
        ),
        // `|>` and `<|` apply a function: the function and the argument are
        // judged as expressions.
        "|>" | "<|" => true,
        _ => false,
    }
}
