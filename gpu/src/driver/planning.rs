//! Which top-level SOAC statements the driver claims, and how each becomes
//! a kernel: planned once, or planned when it runs on the values of the
//! scalars it reads (`codegen::specialise`); functions called per element
//! of a SOAC are never offloaded.

use crate::codegen::extract::{plan_statement, KernelPlan, Placement};
use crate::codegen::specialise::specialise;
use optimized::ir::{
    Body, Exp, FunName, PrimType, PrimValue, Program, Soac, Statement, Type, VName,
};
use std::collections::{HashMap, HashSet};

/// How a claimed statement becomes a kernel.
pub(super) enum Planned {
    /// Planned once, when the program is compiled.
    Fixed(Box<KernelPlan>),
    /// Planned each time it runs, specialised on the values of the scalars
    /// of the enclosing scope it reads ([`crate::codegen::specialise`]).
    Specialised(Box<Specialisable>),
}

/// A statement planned when it runs: the statement, its SOAC and the types
/// of the variables in scope.
pub(super) struct Specialisable {
    pub(super) statement: Statement,
    pub(super) soac: Soac,
    pub(super) types: HashMap<VName, Type>,
}

/// How statement `index` (`statement`, whose expression is `soac`) runs on
/// the device, if it can: as planned, or planned when it runs with the
/// scalars it reads from the enclosing scope (typed in `types`) as
/// constants, when planning it with stand-in values (one) succeeds.
pub(super) fn plan(
    index: usize,
    statement: &Statement,
    soac: &Soac,
    types: &HashMap<VName, Type>,
) -> Option<Planned> {
    if let Placement::Kernel(plan) = plan_statement(index, statement, soac, types) {
        return Some(Planned::Fixed(plan));
    }
    let stand_in = |name: &VName| match types.get(name) {
        Some(Type::Prim(prim_type)) => Some(one(*prim_type)),
        _ => None,
    };
    let (specialised, replaced) = specialise(soac, &stand_in);
    if replaced.is_empty() {
        return None;
    }
    match plan_statement(index, statement, &specialised, types) {
        Placement::Kernel(_) => Some(Planned::Specialised(Box::new(Specialisable {
            statement: statement.clone(),
            soac: soac.clone(),
            types: types.clone(),
        }))),
        Placement::Host { .. } => None,
    }
}

/// One, of `prim_type` (`true` for `bool`).
pub(super) fn one(prim_type: PrimType) -> PrimValue {
    match prim_type {
        PrimType::I8 => PrimValue::I8(1),
        PrimType::I16 => PrimValue::I16(1),
        PrimType::I32 => PrimValue::I32(1),
        PrimType::I64 => PrimValue::I64(1),
        PrimType::U8 => PrimValue::U8(1),
        PrimType::U16 => PrimValue::U16(1),
        PrimType::U32 => PrimValue::U32(1),
        PrimType::U64 => PrimValue::U64(1),
        PrimType::F32 => PrimValue::F32(1.0),
        PrimType::F64 => PrimValue::F64(1.0),
        PrimType::Bool => PrimValue::Bool(true),
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
