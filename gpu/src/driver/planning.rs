//! Which top-level SOAC statements the driver claims (each planned once,
//! when the program is compiled: the scalars it reads are bound when it
//! runs); functions called per element of a SOAC are never offloaded.

use crate::codegen::extract::{plan_statement, KernelPlan, Placement};
use optimized::ir::{Body, Exp, FunName, Program, Soac, Statement, Type, VName};
use std::collections::{HashMap, HashSet};

/// How statement `index` (`statement`, whose expression is `soac`) runs on
/// the device, if it can (`types`: the variables in scope).
pub(super) fn plan(
    index: usize,
    statement: &Statement,
    soac: &Soac,
    types: &HashMap<VName, Type>,
) -> Option<KernelPlan> {
    match plan_statement(index, statement, soac, types) {
        Placement::Kernel(plan) => Some(*plan),
        Placement::Host { .. } => None,
    }
}

/// The functions called, directly or not, from inside a SOAC's lambda:
/// their SOACs run once per element of the enclosing SOAC (possibly on
/// several threads), where one kernel per element would cost far more than
/// the host's loop, so they are never offloaded.
pub(super) fn called_from_lambdas(program: &Program) -> HashSet<FunName> {
    let mut callees: HashMap<&FunName, Vec<FunName>> = HashMap::new();
    let mut roots = Vec::new();
    for function in &program.functions {
        let mut all = Vec::new();
        calls_in_body(&function.body, false, &mut all, &mut roots);
        callees.insert(&function.name, all);
    }
    let mut reached: HashSet<FunName> = HashSet::new();
    while let Some(name) = roots.pop() {
        if reached.insert(name.clone()) {
            roots.extend(callees.get(&name).into_iter().flatten().cloned());
        }
    }
    reached
}

/// Pushes every function `body` calls to `all`, and those called inside a
/// SOAC lambda (or anywhere, when `in_lambda`) to `from_lambdas`.
pub(super) fn calls_in_body(
    body: &Body,
    in_lambda: bool,
    all: &mut Vec<FunName>,
    from_lambdas: &mut Vec<FunName>,
) {
    for statement in &body.statements {
        match &statement.expression {
            Exp::Apply { function, .. } => {
                all.push(function.clone());
                if in_lambda {
                    from_lambdas.push(function.clone());
                }
            }
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                calls_in_body(then_body, in_lambda, all, from_lambdas);
                calls_in_body(else_body, in_lambda, all, from_lambdas);
            }
            Exp::Loop { body, .. } => calls_in_body(body, in_lambda, all, from_lambdas),
            Exp::Soac(soac) => {
                for lambda in soac.lambdas() {
                    calls_in_body(&lambda.body, true, all, from_lambdas);
                }
            }
            _ => {}
        }
    }
}
