//! TFP'18 §5.1: "programs are monomorphized before being passed to the
//! defunctionaliser". Every polymorphic top-level declaration is replaced by
//! one copy per instantiation used (`f'1`, `f'2`, …, placed where `f` was),
//! with its type parameters substituted; uninstantiated ones disappear.

use crate::core::syntax::{
    map_children, map_expr_types, Expr, ExprKind, Name, Program, Type, ValueDec,
};
use std::collections::BTreeMap;

/// The monomorphic program equivalent to `program`.
pub fn monomorphise(program: &Program) -> Program {
    // The instances each polymorphic declaration needs, found by
    // instantiating transitively from the monomorphic declarations.
    let poly: BTreeMap<&str, &ValueDec> = program
        .decs
        .iter()
        .filter(|d| !d.type_params.is_empty())
        .map(|d| (d.name.as_str(), d))
        .collect();
    let mut instances: Vec<(Name, Vec<Type>, Name)> = Vec::new();
    let mut counter = 0;
    let mut work: Vec<Expr> = program
        .decs
        .iter()
        .filter(|d| d.type_params.is_empty())
        .map(|d| d.value.clone())
        .collect();
    while let Some(e) = work.pop() {
        for (name, args) in poly_uses(&e) {
            if instances.iter().any(|(n, a, _)| *n == name && *a == args) {
                continue;
            }
            let Some(dec) = poly.get(name.as_str()) else {
                continue;
            };
            counter += 1;
            let instance = format!("{name}'{counter}");
            work.push(instantiate(dec, &args));
            instances.push((name, args, instance));
        }
    }
    let rename = |e: &Expr| rename_uses(e, &instances);
    let mut decs = Vec::new();
    for dec in &program.decs {
        if dec.type_params.is_empty() {
            decs.push(ValueDec {
                value: rename(&dec.value),
                ..dec.clone()
            });
            continue;
        }
        for (name, args, instance) in &instances {
            if *name != dec.name {
                continue;
            }
            let subst = substitution(dec, args);
            decs.push(ValueDec {
                name: instance.clone(),
                type_params: Vec::new(),
                ty: dec.ty.substitute(&subst),
                param_count: dec.param_count,
                value: rename(&instantiate(dec, args)),
                span: dec.span,
            });
        }
    }
    Program {
        decs,
        entries: program.entries.clone(),
    }
}

fn substitution(dec: &ValueDec, args: &[Type]) -> BTreeMap<Name, Type> {
    dec.type_params
        .iter()
        .zip(args)
        .map(|(p, t)| (p.name.clone(), t.clone()))
        .collect()
}

fn instantiate(dec: &ValueDec, args: &[Type]) -> Expr {
    let subst = substitution(dec, args);
    map_expr_types(&dec.value, &mut |t| t.substitute(&subst))
}

/// The instantiated uses `x[τ…]` in an expression.
fn poly_uses(e: &Expr) -> Vec<(Name, Vec<Type>)> {
    let mut out = Vec::new();
    collect(e, &mut out);
    out
}

fn collect(e: &Expr, out: &mut Vec<(Name, Vec<Type>)>) {
    spec::recursion::with_stack(|| {
        if let ExprKind::Var { name, type_args } = &e.kind {
            if !type_args.is_empty() {
                out.push((name.clone(), type_args.clone()));
            }
        }
        for child in crate::core::defunc::children(e) {
            collect(child, out);
        }
    })
}

fn rename_uses(e: &Expr, instances: &[(Name, Vec<Type>, Name)]) -> Expr {
    spec::recursion::with_stack(|| {
        if let ExprKind::Var { name, type_args } = &e.kind {
            if !type_args.is_empty() {
                if let Some((_, _, instance)) = instances
                    .iter()
                    .find(|(n, a, _)| n == name && a == type_args)
                {
                    return Expr::var(instance.clone(), e.span);
                }
            }
            return e.clone();
        }
        map_children(e, &mut |c| rename_uses(c, instances))
    })
}
