//! Which lambdas may fail in a kernel: those with an operation that raises
//! a run-time error on the CPU backend (the IR's one effects judgement,
//! `optimized::ir::effects`). Their kernels set the environment's status
//! word where one fails ([`crate::kernels::environment`]); the driver reads
//! it after running such a SOAC and hands the statement back to the host,
//! which reports the error with its message and source location.

use optimized::ir::effects::binop_can_fail;
use optimized::ir::{Body, Exp, Lambda};

/// Whether an operation of `lambda` may fail: an integer division or
/// remainder whose divisor may be zero, an integer power whose exponent may
/// be negative, an assertion, or indexing (the expressions kernels do not translate
/// are refused by [`super::lambda`], not here).
pub fn can_fail(lambda: &Lambda) -> bool {
    body_can_fail(&lambda.body)
}

fn body_can_fail(body: &Body) -> bool {
    body.statements
        .iter()
        .any(|statement| expression_can_fail(&statement.expression))
}

fn expression_can_fail(expression: &Exp) -> bool {
    match expression {
        Exp::BinOp { op, ty, right, .. } => binop_can_fail(*op, *ty, right),
        Exp::If {
            then_body,
            else_body,
            ..
        } => body_can_fail(then_body) || body_can_fail(else_body),
        Exp::Loop { body, .. } => body_can_fail(body),
        // An inner SOAC, sequentialised in the kernel.
        Exp::Soac(soac) => soac.lambdas().iter().any(|lambda| can_fail(lambda)),
        // An `iota` too long for a kernel hands the statement back.
        Exp::Assert { .. } | Exp::Index { .. } | Exp::Iota { .. } => true,
        _ => false,
    }
}
