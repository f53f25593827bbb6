//! An entry point's parameters and result (extension `TFP18
//! T-EntryEtaExpansion`, SPEC_NOTES TFP18-24).
//!
//! TFP'18 §3 asks that "the designated main function is first-order"; T-Entry
//! ([`crate::core::typing::check_entry`]) checks it on the entry's parameter
//! types and its result. Futhark counts an entry point's parameters from its
//! *type*, not from its syntax: `entry add = map2 (u8.+)` has the type
//! `[n]u8 -> [n]u8 -> [n]u8` and takes two arguments. The front end
//! therefore eta-expands such a declaration before T-Entry judges it:
//! `λx1…λxn. e` of type `τ1 → … → τn → τn+1 → … → τk → τ` (τ not a function
//! type) becomes `λx1…λxn. λη1:τn+1 … λη(k−n):τk. e η1 … η(k−n)`, which has
//! the same type and denotes the same function, with k parameters. Whether
//! the τi and τ are of order zero is still T-Entry's to judge.

use crate::core::syntax::{
    peel_lambdas, EntryPoint, Expr, ExprKind, Lambda, Name, Type, Uniqueness, ValueDec,
};
use crate::derivation::fire_rule;
use spec::source::Span;
use std::rc::Rc;

/// The entry point `name` running `dec` (a monomorphic declaration), with
/// `dec` eta-expanded to take every argument of its type.
pub fn entry_point(dec: ValueDec, name: Name, span: Span) -> (ValueDec, EntryPoint) {
    let mut param_types = Vec::new();
    let mut result_type = dec.ty.clone();
    while let Type::Arrow(from, to) = result_type {
        param_types.push(*from);
        result_type = *to;
    }
    let dec = if param_types.len() > dec.param_count {
        // Extension: TFP18 T-EntryEtaExpansion
        fire_rule("TFP18 T-EntryEtaExpansion");
        eta_expand(dec, &param_types)
    } else {
        dec
    };
    let entry = EntryPoint {
        name,
        param_types,
        result_type,
        span,
    };
    (dec, entry)
}

/// `dec` with the parameters `param_types[dec.param_count..]` added.
fn eta_expand(dec: ValueDec, param_types: &[Type]) -> ValueDec {
    let Some((params, body)) = peel_lambdas(&dec.value, dec.param_count) else {
        // param_count counts the value's outer lambdas by construction.
        return dec;
    };
    let span = body.span;
    let added: Vec<(Name, Type)> = param_types[dec.param_count..]
        .iter()
        .enumerate()
        // Not a Futhark identifier: no program name is shadowed or captured.
        .map(|(i, t)| (format!("η{}", i + 1), t.clone()))
        .collect();
    // Extension (proofs-notes/uniqueness.md): the written parameters keep
    // their declared uniqueness; the added ones are `·`.
    let declared = declared_param_uniqueness(&dec.value, dec.param_count);
    let mut value = body.clone();
    for (name, _) in &added {
        value = Expr::new(
            ExprKind::Apply {
                function: value.boxed(),
                argument: Expr::var(name.clone(), span).boxed(),
            },
            span,
        );
    }
    for (index, (name, param_type)) in params
        .into_iter()
        .chain(added)
        .collect::<Vec<_>>()
        .into_iter()
        .enumerate()
        .rev()
    {
        value = Expr::new(
            ExprKind::Lambda(Rc::new(Lambda {
                param: name,
                param_type,
                body: value,
                param_uniqueness: declared.get(index).cloned().unwrap_or_default(),
                result_uniqueness: Uniqueness::Nonunique,
            })),
            span,
        );
    }
    ValueDec {
        param_count: param_types.len(),
        value,
        ..dec
    }
}

/// The declared uniqueness of the first `count` λ parameters of `value`.
fn declared_param_uniqueness(value: &Expr, count: usize) -> Vec<Uniqueness> {
    let mut out = Vec::new();
    let mut current = value;
    while out.len() < count {
        let ExprKind::Lambda(lambda) = &current.kind else {
            break;
        };
        out.push(lambda.param_uniqueness.clone());
        current = &lambda.body;
    }
    out
}
