//! Full unrolling of small `for` loops with a constant trip count (issue 5:
//! the modular Game of Life's `loop s = 0 for k < 9i64`).
//!
//! `loop {p = init} for i < n do body`, with `n` a constant in
//! `1..=MAX_TRIP_COUNT` and `n` copies of `body` within
//! [`UNROLL_BUDGET`] statements (nested statements counted), becomes the
//! `n` copies of `body` in a row: copy `k` has its binders renamed freshly,
//! the index bound to the constant `k` and the parameters to the results
//! of copy `k - 1` (the initial values for copy 0), by `let` copies. The loop's pattern then
//! names the last copy's results (a `let` copy per result, which the
//! simplifier propagates). The simplifier that runs next folds the now
//! constant index arithmetic.
//!
//! Errors are preserved: the copies run the same statements in the same
//! order as the iterations did, each with its own span. A loop whose
//! parameter types mention another loop parameter (a loop-variant size) is
//! left alone, so the pattern's types are the parameters' own. Inner loops
//! are unrolled first; the budget bounds the product of nested trip counts.

use std::collections::HashMap;

use super::inline::statement_count;
use super::traverse::*;
use crate::cpu::prim;
use crate::ir::*;

/// The largest trip count unrolled.
pub const MAX_TRIP_COUNT: i64 = 16;

/// The most statements (nested statements included) the unrolled copies
/// may have together.
pub const UNROLL_BUDGET: usize = 200;

/// The pass.
pub fn unroll(mut program: Program) -> Program {
    let mut names = NameSource::fresh_for(&program);
    for function in &mut program.functions {
        unroll_in_body(&mut function.body, &mut names);
    }
    program
}

fn unroll_in_body(body: &mut Body, names: &mut NameSource) {
    let mut statements = Vec::with_capacity(body.statements.len());
    for mut statement in std::mem::take(&mut body.statements) {
        for nested in nested_bodies_mut(&mut statement.expression) {
            unroll_in_body(nested, names);
        }
        match unrolled(&statement, names) {
            Some(copies) => statements.extend(copies),
            None => statements.push(statement),
        }
    }
    body.statements = statements;
}

/// The statements replacing `statement` when it is a loop to unroll.
fn unrolled(statement: &Statement, names: &mut NameSource) -> Option<Vec<Statement>> {
    let Exp::Loop {
        params,
        form: LoopForm::For { index, bound },
        body,
    } = &statement.expression
    else {
        return None;
    };
    let SubExp::Constant(bound_value) = bound else {
        return None;
    };
    let trips = prim::as_i64(*bound_value)?;
    if !(1..=MAX_TRIP_COUNT).contains(&trips) {
        return None;
    }
    if (trips as usize).saturating_mul(statement_count(body).max(1)) > UNROLL_BUDGET {
        return None;
    }
    let param_names: Vec<&VName> = params.iter().map(|(p, _)| &p.name).collect();
    let mentions_param = |ty: &Type| {
        ty.shape()
            .iter()
            .any(|d| matches!(d, SubExp::Var(v) if param_names.contains(&v)))
    };
    if params.iter().any(|(p, _)| mentions_param(&p.ty)) {
        return None;
    }
    let index_type = bound_value.prim_type();
    let mut current: Vec<SubExp> = params.iter().map(|(_, init)| init.clone()).collect();
    let mut statements = Vec::new();
    for k in 0..trips {
        let mut copy = body.clone();
        rename_binders_fresh(names, |v| walk_body(&mut copy, v));
        // The parameters and the index of copy `k` are bound by copies
        // under fresh names (the simplifier propagates them, keeping a
        // binding where a negative constant would become a dimension).
        let mut map: HashMap<VName, SubExp> = HashMap::new();
        for ((param, _), value) in params.iter().zip(&current) {
            let fresh = names.fresh(&param.name.base);
            map.insert(param.name.clone(), SubExp::Var(fresh.clone()));
            statements.push(copy_statement(
                fresh,
                param.ty.clone(),
                value.clone(),
                statement.span,
            ));
        }
        let fresh_index = names.fresh(&index.base);
        map.insert(index.clone(), SubExp::Var(fresh_index.clone()));
        statements.push(copy_statement(
            fresh_index,
            Type::Prim(index_type),
            SubExp::Constant(prim::from_i64(k, index_type)),
            statement.span,
        ));
        let mut substitution = Substitution { map };
        walk_body(&mut copy, &mut substitution);
        statements.extend(copy.statements);
        current = copy.result;
    }
    for (element, value) in statement.pattern.iter().zip(current) {
        statements.push(copy_statement(
            element.name.clone(),
            element.ty.clone(),
            value,
            statement.span,
        ));
    }
    Some(statements)
}

/// `let {name: ty} = value`.
fn copy_statement(name: VName, ty: Type, value: SubExp, span: Span) -> Statement {
    Statement {
        pattern: vec![Param { name, ty }],
        expression: Exp::SubExp(value),
        span,
    }
}
