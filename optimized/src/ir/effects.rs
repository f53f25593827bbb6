//! The one effects judgement of the IR: whether evaluating an expression may
//! end in a run-time error (or not terminate). Every pass consults it before
//! removing, moving or merging a statement (`passes::simplify`, `fusion`,
//! `index_fusion`, `hoisting`), and every backend before running code where
//! an error could not be reported as the CPU backend reports it (the block
//! interpreter's guarded lanes, `cpu::vector`; the native code's selects,
//! `cpu::native`; the GPU kernels, `gpu::codegen::failure`).
//!
//! Consumption (uniqueness types, in-place updates) is not an effect of the
//! IR yet: its updates are functional (`Exp::Update` copies where it must),
//! so no statement consumes a value; issue 23 adds that judgement here.

use std::collections::{HashMap, HashSet};

use crate::fixpoint::least_fixpoint;
use crate::ir::*;

/// Whether evaluating `exp` may end in a run-time error (or not terminate):
/// such a statement is never removed, and is moved or merged only where the
/// first error reported stays the same. Conservative: calls, loops, bounds-
/// and size-checked operations, integer division by anything but a nonzero
/// constant, integer powers with a non-constant or negative exponent, and
/// every SOAC or branch containing one of these.
pub fn can_fail(exp: &Exp) -> bool {
    can_fail_given(exp, &|_| true)
}

/// [`can_fail`], except that a call of one of `total` cannot fail.
pub fn can_fail_with(exp: &Exp, total: &TotalFunctions) -> bool {
    can_fail_given(exp, &|function| !total.contains(function))
}

/// The effect judgement, given whether a call of each function may fail.
fn can_fail_given(exp: &Exp, call_can_fail: &dyn Fn(&FunName) -> bool) -> bool {
    let body_can_fail = |body: &Body| {
        body.statements
            .iter()
            .any(|s| can_fail_given(&s.expression, call_can_fail))
    };
    let lambda_can_fail = |lambda: &Lambda| body_can_fail(&lambda.body);
    match exp {
        Exp::SubExp(_)
        | Exp::UnOp { .. }
        | Exp::Fma { .. }
        | Exp::CmpOp { .. }
        | Exp::ConvOp { .. }
        | Exp::Rearrange { .. }
        | Exp::Reverse { .. }
        | Exp::Rotate { .. }
        | Exp::Copy { .. } => false,
        Exp::BinOp { op, ty, right, .. } => binop_can_fail(*op, *ty, right),
        Exp::Apply { function, .. } => call_can_fail(function),
        Exp::Loop { .. } | Exp::Assert { .. } => true,
        Exp::If {
            then_body,
            else_body,
            ..
        } => body_can_fail(then_body) || body_can_fail(else_body),
        Exp::Index { .. }
        | Exp::Slice { .. }
        | Exp::Update { .. }
        | Exp::Concat { .. }
        | Exp::Reshape { .. } => true,
        Exp::Iota { length, .. } => !is_non_negative_constant(length),
        Exp::Replicate { shape, .. } => !shape.iter().all(is_non_negative_constant),
        Exp::ArrayLiteral { row_type, .. } => row_type.rank() > 0,
        Exp::Soac(soac) => match soac {
            Soac::Map { lambda, .. } => lambda_can_fail(lambda),
            Soac::Filter { predicate, .. } => lambda_can_fail(predicate),
            Soac::Reduce { lambda, .. } | Soac::Scan { lambda, .. } => lambda_can_fail(lambda),
            Soac::Redomap {
                map_lambda,
                reduce_lambda: combine,
                ..
            }
            | Soac::Scanomap {
                map_lambda,
                scan_lambda: combine,
                ..
            } => lambda_can_fail(map_lambda) || lambda_can_fail(combine),
            Soac::Scatter { .. } | Soac::Hist { .. } => true,
        },
        Exp::Seg(op) => body_can_fail(op.body()) || op.operator().is_some_and(lambda_can_fail),
    }
}

/// The functions of a program every call of which returns without a
/// run-time error: those whose bodies contain nothing that [`can_fail`]
/// except calls of total functions ([`least_fixpoint`]: a function on a
/// cycle of calls, recursion, which could run forever, or calling a
/// function the program lacks is never total).
#[derive(Debug, Default)]
pub struct TotalFunctions(HashSet<FunName>);

impl TotalFunctions {
    pub fn of_program(program: &Program) -> TotalFunctions {
        let index: HashMap<&FunName, usize> = program
            .functions
            .iter()
            .enumerate()
            .map(|(position, function)| (&function.name, position))
            .collect();
        let candidates = program
            .functions
            .iter()
            .enumerate()
            .filter(|(_, function)| {
                !function
                    .body
                    .statements
                    .iter()
                    .any(|s| can_fail_given(&s.expression, &|_| false))
            })
            .map(|(position, function)| {
                let mut callees = HashSet::new();
                collect_callees(&function.body, &mut callees);
                let uses = callees.into_iter().map(|callee| index.get(callee).copied());
                (position, uses.collect())
            });
        let holds = least_fixpoint(program.functions.len(), candidates);
        let total = program
            .functions
            .iter()
            .zip(holds)
            .filter(|(_, holds)| *holds)
            .map(|(function, _)| function.name.clone())
            .collect();
        TotalFunctions(total)
    }

    pub fn contains(&self, function: &FunName) -> bool {
        self.0.contains(function)
    }
}

/// The functions called anywhere in `body` (nested bodies and lambdas
/// included).
pub fn collect_callees<'a>(body: &'a Body, callees: &mut HashSet<&'a FunName>) {
    for s in &body.statements {
        if let Exp::Apply { function, .. } = &s.expression {
            callees.insert(function);
        }
        for nested in s.expression.bodies() {
            collect_callees(nested, callees);
        }
        for lambda in s.expression.lambdas() {
            collect_callees(&lambda.body, callees);
        }
    }
}

/// Whether `left op right` at `ty` may fail for some `left`.
pub fn binop_can_fail(op: BinOp, ty: PrimType, right: &SubExp) -> bool {
    if !ty.is_integer() {
        return false;
    }
    match op {
        BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem => match right {
            SubExp::Constant(c) => crate::cpu::prim::as_i64(*c).is_none_or(|n| n == 0),
            SubExp::Var(_) => true,
        },
        BinOp::Pow => match right {
            SubExp::Constant(c) => !is_non_negative_integer_constant(*c),
            SubExp::Var(_) => ty.is_signed_integer(),
        },
        _ => false,
    }
}

fn is_non_negative_integer_constant(c: PrimValue) -> bool {
    use PrimValue::*;
    match c {
        I8(x) => x >= 0,
        I16(x) => x >= 0,
        I32(x) => x >= 0,
        I64(x) => x >= 0,
        U8(_) | U16(_) | U32(_) | U64(_) => true,
        _ => false,
    }
}

fn is_non_negative_constant(s: &SubExp) -> bool {
    matches!(s, SubExp::Constant(c) if is_non_negative_integer_constant(*c))
}

pub fn body_can_fail(body: &Body) -> bool {
    body.statements.iter().any(|s| can_fail(&s.expression))
}

pub fn lambda_can_fail(lambda: &Lambda) -> bool {
    body_can_fail(&lambda.body)
}
