//! Which lambdas can raise a run-time error on the CPU backend.
//!
//! Kernels cannot report errors yet (NOTES.md, "Whole programs"), so a SOAC
//! whose lambda can fail runs on the host, where the error carries its
//! message and source location. The check is conservative: every expression
//! other than the scalar operations [`super::lambda`] translates counts as
//! fallible; among those, an integer division or remainder can fail unless
//! its divisor is a non-zero constant, and a signed integer power unless its
//! exponent is a non-negative constant (`optimized::cpu::prim`).

use optimized::ir::{BinOp, Body, Exp, Lambda, PrimType, PrimValue, SubExp};

/// The first construct of `lambda` that can fail, in words; `None` when
/// none can.
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
        Exp::SubExp(_) | Exp::UnOp { .. } | Exp::CmpOp { .. } | Exp::ConvOp { .. } => None,
        Exp::BinOp { op, ty, right, .. } => binop_may_fail(*op, *ty, right),
        Exp::If {
            then_body,
            else_body,
            ..
        } => body_may_fail(then_body).or_else(|| body_may_fail(else_body)),
        Exp::Assert { .. } => Some("an assertion".to_owned()),
        _ => Some("an expression other than scalar operations".to_owned()),
    }
}

fn binop_may_fail(op: BinOp, ty: PrimType, right: &SubExp) -> Option<String> {
    let integer = !matches!(ty, PrimType::F32 | PrimType::F64 | PrimType::Bool);
    if !integer {
        return None;
    }
    let constant = match right {
        SubExp::Constant(value) => integer_value(*value),
        SubExp::Var(_) => None,
    };
    match op {
        BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem if constant.is_none_or(|c| c == 0) => {
            Some(format!(
                "an integer {} whose divisor may be zero",
                binop_name(op)
            ))
        }
        BinOp::Pow if is_signed(ty) && constant.is_none_or(|c| c < 0) => {
            Some("an integer power whose exponent may be negative".to_owned())
        }
        _ => None,
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

fn is_signed(ty: PrimType) -> bool {
    matches!(
        ty,
        PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64
    )
}

/// An integer constant's value (wide enough for every integer type).
fn integer_value(value: PrimValue) -> Option<i128> {
    match value {
        PrimValue::I8(x) => Some(x.into()),
        PrimValue::I16(x) => Some(x.into()),
        PrimValue::I32(x) => Some(x.into()),
        PrimValue::I64(x) => Some(x.into()),
        PrimValue::U8(x) => Some(x.into()),
        PrimValue::U16(x) => Some(x.into()),
        PrimValue::U32(x) => Some(x.into()),
        PrimValue::U64(x) => Some(x.into()),
        _ => None,
    }
}
