//! Loop-invariant code motion (issue 5, item 5): statements of a `loop`
//! body or a SOAC lambda that depend on nothing the loop or lambda binds
//! move to just before the loop or SOAC, innermost first (so a statement
//! can leave several levels).
//!
//! Conservative about errors: only statements that cannot fail
//! ([`crate::ir::effects::can_fail`]; an array literal whose elements all have
//! its row type, constant or named sizes compared as written, cannot fail
//! either) move. Such a statement may now run when
//! the loop runs zero times or the SOAC has width zero, which costs time
//! but cannot change a result or an error. Statements with nested bodies
//! (branches, loops, SOACs) move only if they cannot fail either. `if`
//! branches are optimised inside but nothing leaves a branch (that would
//! compute what the other branch does not need).

use std::collections::{HashMap, HashSet};

use super::traverse::*;
use crate::ir::effects::*;
use crate::ir::*;

/// The pass.
pub fn hoisting(mut program: Program) -> Program {
    for function in &mut program.functions {
        let mut types = Types::new();
        for p in &function.params {
            types.insert(p.name.clone(), p.ty.clone());
        }
        note_types(&function.body, &mut types);
        let body = std::mem::take(&mut function.body);
        function.body = hoist_in_body(body, &types);
    }
    program
}

/// The type of every name a function's statements bind (names are unique).
type Types = HashMap<VName, Type>;

fn note_types(body: &Body, types: &mut Types) {
    for statement in &body.statements {
        for p in &statement.pattern {
            types.insert(p.name.clone(), p.ty.clone());
        }
        for inner in statement.expression.bodies() {
            note_types(inner, types);
        }
        for lambda in statement.expression.lambdas() {
            note_types(&lambda.body, types);
        }
    }
}

/// Whether `exp` may fail at run time: [`can_fail`], except that an array
/// literal whose elements are known to have its row type cannot.
fn may_fail(exp: &Exp, types: &Types) -> bool {
    match exp {
        Exp::ArrayLiteral { elements, row_type } => !elements.iter().all(|e| match e {
            SubExp::Var(v) => types.get(v) == Some(row_type),
            SubExp::Constant(_) => row_type.rank() == 0,
        }),
        _ => can_fail(exp),
    }
}

/// Hoists out of every loop and lambda of `body`; the hoisted statements
/// land in `body` before the statement they left.
fn hoist_in_body(body: Body, types: &Types) -> Body {
    let mut statements = Vec::with_capacity(body.statements.len());
    for statement in body.statements {
        let (hoisted, statement) = hoist_out_of_statement(statement, types);
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
fn hoist_out_of_statement(mut statement: Statement, types: &Types) -> (Vec<Statement>, Statement) {
    let mut hoisted = Vec::new();
    match &mut statement.expression {
        Exp::Loop { params, form, body } => {
            let mut variant: HashSet<VName> = params.iter().map(|(p, _)| p.name.clone()).collect();
            if let LoopForm::For { index, .. } = form {
                variant.insert(index.clone());
            }
            let inner = hoist_in_body(std::mem::take(body), types);
            *body = split_invariant(inner, variant, &mut hoisted, types);
        }
        Exp::Soac(soac) => {
            for lambda in soac_lambdas_mut(soac) {
                let variant: HashSet<VName> =
                    lambda.params.iter().map(|p| p.name.clone()).collect();
                let inner = hoist_in_body(std::mem::take(&mut lambda.body), types);
                lambda.body = split_invariant(inner, variant, &mut hoisted, types);
            }
        }
        Exp::If {
            then_body,
            else_body,
            ..
        } => {
            *then_body = hoist_in_body(std::mem::take(then_body), types);
            *else_body = hoist_in_body(std::mem::take(else_body), types);
        }
        _ => {}
    }
    (hoisted, statement)
}

/// Moves the statements of `body` that use no name of `variant` (the
/// parameters, then every statement that stays) and cannot fail to
/// `hoisted`; returns the rest.
fn split_invariant(
    body: Body,
    mut variant: HashSet<VName>,
    hoisted: &mut Vec<Statement>,
    types: &Types,
) -> Body {
    let mut staying = Vec::with_capacity(body.statements.len());
    for statement in body.statements {
        let used = used_in_statement(&statement);
        let invariant = used.is_disjoint(&variant) && !may_fail(&statement.expression, types);
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
