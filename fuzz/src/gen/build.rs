//! Small constructors for surface syntax trees (every span is the default
//! span: generated trees compare structurally).

use spec::source::Span;
use spec::syntax::ast::*;
use spec::value::PrimType;

pub fn span() -> Span {
    Span::default()
}

pub fn qual(qualifiers: &[String], name: &str) -> QualName {
    QualName {
        qualifiers: qualifiers.to_vec(),
        name: name.to_string(),
        span: span(),
    }
}

pub fn var(name: &str) -> Expr {
    Expr::Var(qual(&[], name))
}

pub fn qualified_var(qualifiers: &[String], name: &str) -> Expr {
    Expr::Var(qual(qualifiers, name))
}

pub fn apply(function: Expr, argument: Expr) -> Expr {
    Expr::Apply {
        function: Box::new(function),
        argument: Box::new(argument),
        span: span(),
    }
}

pub fn apply_all(function: Expr, arguments: Vec<Expr>) -> Expr {
    arguments.into_iter().fold(function, apply)
}

pub fn call(name: &str, arguments: Vec<Expr>) -> Expr {
    apply_all(var(name), arguments)
}

pub fn binop(op: &str, lhs: Expr, rhs: Expr) -> Expr {
    Expr::BinOp {
        op: BinOp::Symbol(qual(&[], op)),
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
        span: span(),
    }
}

pub fn int_type(prim: PrimType) -> Option<IntType> {
    Some(match prim {
        PrimType::I8 => IntType::I8,
        PrimType::I16 => IntType::I16,
        PrimType::I32 => IntType::I32,
        PrimType::I64 => IntType::I64,
        PrimType::U8 => IntType::U8,
        PrimType::U16 => IntType::U16,
        PrimType::U32 => IntType::U32,
        PrimType::U64 => IntType::U64,
        _ => return None,
    })
}

/// A suffixed non-negative literal of a numeric type, or a boolean.
pub fn literal(prim: PrimType, magnitude: u64) -> Expr {
    let literal = match prim {
        PrimType::Bool => Literal::Bool(magnitude % 2 == 1),
        PrimType::F32 => Literal::float(magnitude as f64 / 2.0, Some(FloatType::F32)),
        PrimType::F64 => Literal::float(magnitude as f64 / 4.0, Some(FloatType::F64)),
        integer => Literal::Int {
            value: magnitude,
            suffix: int_type(integer),
        },
    };
    Expr::Literal {
        literal,
        span: span(),
    }
}

pub fn i64_literal(value: u64) -> Expr {
    literal(PrimType::I64, value)
}

pub fn tuple(elements: Vec<Expr>) -> Expr {
    Expr::Tuple {
        elements,
        span: span(),
    }
}

pub fn if_then_else(condition: Expr, then_branch: Expr, else_branch: Expr) -> Expr {
    Expr::If {
        condition: Box::new(condition),
        then_branch: Box::new(then_branch),
        else_branch: Box::new(else_branch),
        span: span(),
    }
}

pub fn let_in(pat: Pat, value: Expr, body: Expr) -> Expr {
    Expr::Let {
        sizes: Vec::new(),
        pat,
        value: Box::new(value),
        body: Box::new(body),
        span: span(),
    }
}

pub fn pat_var(name: &str) -> Pat {
    Pat::Var {
        name: name.to_string(),
        span: span(),
    }
}

pub fn pat_ascribe(pat: Pat, ty: TypeExp) -> Pat {
    Pat::Ascribe {
        pat: Box::new(pat),
        ty,
        span: span(),
    }
}

pub fn index(array: Expr, index: Expr) -> Expr {
    Expr::Index {
        array: Box::new(array),
        indices: vec![DimIndex::Index(index)],
        span: span(),
    }
}

pub fn lambda(params: Vec<Pat>, return_type: Option<TypeExp>, body: Expr) -> Expr {
    Expr::Lambda {
        params,
        return_type,
        body: Box::new(body),
        span: span(),
    }
}

pub fn ascribe(expr: Expr, ty: TypeExp) -> Expr {
    Expr::Ascribe {
        expr: Box::new(expr),
        ty,
        span: span(),
    }
}

pub fn op_section(op: &str) -> Expr {
    Expr::OpSection {
        op: BinOp::Symbol(qual(&[], op)),
        span: span(),
    }
}
