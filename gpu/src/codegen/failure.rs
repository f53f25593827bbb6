//! Which lambdas the GPU kernels cannot run: those that can raise a run-time
//! error on the CPU backend, and those with expressions the kernels do not
//! translate.
//!
//! Kernels cannot report errors yet (NOTES.md, "Whole programs"), so a SOAC
//! whose lambda can fail runs on the host, where the error carries its
//! message and source location. Whether an operation can fail is the IR's
//! one effects judgement (`optimized::ir::effects`); every expression other
//! than the scalar operations [`super::lambda`] translates is refused as it
//! stands (a kernel could not report its failure either).

use optimized::ir::effects::binop_can_fail;
use optimized::ir::{BinOp, Body, Exp, Lambda};

/// The first construct of `lambda` that can fail (or that kernels do not
/// translate), in words; `None` when none can.
pub fn may_fail(lambda: &Lambda) -> Option<String> {
    body_may_fail(&lambda.body)
}

fn body_may_fail(body: &Body) -> Option<String> {
    body.statements
        .iter()
        .find_map(|statement| expression_may_fail(&statement.expression))
}

fn expression_may_fail(expression: &Exp) -> Option<String> {
    match expression {
        Exp::SubExp(_)
        | Exp::UnOp { .. }
        | Exp::Fma { .. }
        | Exp::CmpOp { .. }
        | Exp::ConvOp { .. } => None,
        Exp::BinOp { op, ty, right, .. } if binop_can_fail(*op, *ty, right) => Some(match op {
            BinOp::Pow => "an integer power whose exponent may be negative".to_owned(),
            _ => format!("an integer {} whose divisor may be zero", binop_name(*op)),
        }),
        Exp::BinOp { .. } => None,
        Exp::If {
            then_body,
            else_body,
            ..
        } => body_may_fail(then_body).or_else(|| body_may_fail(else_body)),
        Exp::Assert { .. } => Some("an assertion".to_owned()),
        _ => Some("an expression other than scalar operations".to_owned()),
    }
}

fn binop_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Div => "division",
        BinOp::Mod => "modulo",
        BinOp::Quot => "quotient",
        _ => "remainder",
    }
}
