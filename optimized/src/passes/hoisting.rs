//! Loop-invariant code motion (issue 5, item 5): statements of a `loop`
//! body or a SOAC lambda that depend on nothing the loop or lambda binds
//! move to just before the loop or SOAC, innermost first (so a statement
//! can leave several levels).
//!
//! Conservative about errors: only statements that cannot fail
//! ([`super::traverse::can_fail`]) move. Such a statement may now run when
//! the loop runs zero times or the SOAC has width zero, which costs time
//! but cannot change a result or an error. Statements with nested bodies
//! (branches, loops, SOACs) move only if they cannot fail either. `if`
//! branches are optimised inside but nothing leaves a branch (that would
//! compute what the other branch does not need).

use std::collections::HashSet;

use super::traverse::*;
use crate::ir::*;

/// The pass.
pub fn hoisting(mut program: Program) -> Program {
    for function in &mut program.functions {
        let body = std::mem::take(&mut function.body);
        function.body = hoist_in_body(body);
    }
    program
}

/// Hoists out of every loop and lambda of `body`; the hoisted statements
/// land in `body` before the statement they left.
fn hoist_in_body(body: Body) -> Body {
    let mut statements = Vec::with_capacity(body.statements.len());
    for statement in body.statements {
        let (hoisted, statement) = hoist_out_of_statement(statement);
        statements.extend(hoisted);
        statements.push(statement);
    }
    Body {
        statements,
        result: body.result,
    }
}

/// Returns the statements leaving `statement`'s loop body or lambdas, and
/// the statement without them.
fn hoist_out_of_statement(mut statement: Statement) -> (Vec<Statement>, Statement) {
    let mut hoisted = Vec::new();
    match &mut statement.expression {
        Exp::Loop { params, form, body } => {
            let mut variant: HashSet<VName> = params.iter().map(|(p, _)| p.name.clone()).collect();
            if let LoopForm::For { index, .. } = form {
                variant.insert(index.clone());
            }
            let inner = hoist_in_body(std::mem::take(body));
            *body = split_invariant(inner, variant, &mut hoisted);
        }
        Exp::Soac(soac) => {
            for lambda in soac_lambdas_mut(soac) {
                let variant: HashSet<VName> =
                    lambda.params.iter().map(|p| p.name.clone()).collect();
                let inner = hoist_in_body(std::mem::take(&mut lambda.body));
                lambda.body = split_invariant(inner, variant, &mut hoisted);
            }
        }
        Exp::If {
            then_body,
            else_body,
            ..
        } => {
            *then_body = hoist_in_body(std::mem::take(then_body));
            *else_body = hoist_in_body(std::mem::take(else_body));
        }
        _ => {}
    }
    (hoisted, statement)
}

/// Moves the statements of `body` that use no name of `variant` (the
/// parameters, then every statement that stays) and cannot fail to
/// `hoisted`; returns the rest.
fn split_invariant(body: Body, mut variant: HashSet<VName>, hoisted: &mut Vec<Statement>) -> Body {
    let mut staying = Vec::with_capacity(body.statements.len());
    for mut statement in body.statements {
        let used = used_in_statement(&mut statement);
        let invariant = used.is_disjoint(&variant) && !can_fail(&statement.expression);
        if invariant {
            hoisted.push(statement);
        } else {
            variant.extend(statement.pattern.iter().map(|p| p.name.clone()));
            staying.push(statement);
        }
    }
    Body {
        statements: staying,
        result: body.result,
    }
}
