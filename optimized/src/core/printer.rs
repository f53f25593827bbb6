//! The core printed in a Futhark-like syntax (`runestone compile FILE --dump
//! core` and `--dump mono`): every binder with its unique id (`x_12`),
//! instantiations as `f_3@[i32]`, intrinsics by name with their type
//! arguments (`map@[i32, f32]`), typed operators (`+@i32`). Meant for
//! reading and snapshots, not for re-parsing.

use std::fmt::Write;

use super::{
    DimIndex, Expr, ExprKind, FieldName, Function, Instance, LoopForm, Pat, PatKind, PrimValue,
    Program, Size, Type, UnOp, VarName,
};
use spec::syntax::ast::RangeEnd;

/// The whole program, one definition after the other.
pub fn print_program(program: &Program) -> String {
    let mut out = String::new();
    for definition in &program.definitions {
        let keyword = if definition.entry { "entry" } else { "def" };
        print_function(&mut out, keyword, &definition.function, 0);
        out.push('\n');
    }
    out
}

/// A variable as printed: `x_12`, operators `(>->)_3`.
pub fn var(name: &VarName) -> String {
    if spec::syntax::operators::is_operator_name(&name.base) {
        format!("({})_{}", name.base, name.id)
    } else {
        format!("{}_{}", name.base, name.id)
    }
}

/// A type in source syntax (`[n_2]i32 -> {x: f64}`).
pub fn print_type(ty: &Type) -> String {
    let mut out = String::new();
    write_type(&mut out, ty, false);
    out
}

fn write_size(out: &mut String, size: &Size) {
    match size {
        Size::Constant(n) => {
            let _ = write!(out, "[{n}]");
        }
        Size::Var(name) => {
            let _ = write!(out, "[{}]", var(name));
        }
        Size::Unknown => out.push_str("[]"),
    }
}

fn write_type(out: &mut String, ty: &Type, parenthesise_arrow: bool) {
    match ty {
        Type::Prim(prim) => out.push_str(prim.name()),
        Type::Param(param) => {
            let _ = write!(out, "{}_{}", param.base, param.id);
        }
        Type::Array { size, element } => {
            write_size(out, size);
            write_type(out, element, true);
        }
        Type::Record(fields) => {
            if is_tuple(fields.keys()) {
                out.push('(');
                for (index, ty) in fields.values().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    write_type(out, ty, false);
                }
                out.push(')');
            } else {
                out.push('{');
                for (index, (field, ty)) in fields.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{}: ", field.0);
                    write_type(out, ty, false);
                }
                out.push('}');
            }
        }
        Type::Sum(constructors) => {
            if parenthesise_arrow {
                out.push('(');
            }
            for (index, (name, payload)) in constructors.iter().enumerate() {
                if index > 0 {
                    out.push_str(" | ");
                }
                let _ = write!(out, "#{name}");
                for ty in payload {
                    out.push(' ');
                    write_type(out, ty, true);
                }
            }
            if parenthesise_arrow {
                out.push(')');
            }
        }
        Type::Arrow { param, from, to } => {
            if parenthesise_arrow {
                out.push('(');
            }
            match param {
                Some(param) => {
                    let _ = write!(out, "({}: ", var(param));
                    write_type(out, from, false);
                    out.push(')');
                }
                None => write_type(out, from, true),
            }
            out.push_str(" -> ");
            write_type(out, to, false);
            if parenthesise_arrow {
                out.push(')');
            }
        }
    }
}

/// Whether record fields are `0..n` with `n != 1` (printed as a tuple).
fn is_tuple<'a>(fields: impl ExactSizeIterator<Item = &'a FieldName>) -> bool {
    fields.len() != 1
        && fields
            .enumerate()
            .all(|(index, field)| field.0 == index.to_string())
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn print_function(out: &mut String, keyword: &str, function: &Function, depth: usize) {
    let _ = write!(out, "{keyword} {}", var(&function.name));
    for param in &function.type_params {
        let _ = write!(out, " '{}_{}", param.base, param.id);
    }
    for size in &function.size_params {
        let _ = write!(out, " [{}]", var(size));
    }
    for param in &function.params {
        out.push(' ');
        write_pat(out, param, true);
    }
    out.push_str(" : ");
    write_type(out, &function.result, false);
    out.push_str(" =\n");
    indent(out, depth + 1);
    write_expr(out, &function.body, depth + 1);
}

fn write_pat(out: &mut String, pat: &Pat, annotate: bool) {
    match &pat.kind {
        PatKind::Var(name) => {
            if annotate {
                let _ = write!(out, "({}: ", var(name));
                write_type(out, &pat.ty, false);
                out.push(')');
            } else {
                out.push_str(&var(name));
            }
        }
        PatKind::Wildcard => {
            out.push_str("(_: ");
            write_type(out, &pat.ty, false);
            out.push(')');
        }
        PatKind::Record(fields) => {
            let tuple = is_tuple(fields.iter().map(|(field, _)| field));
            out.push(if tuple { '(' } else { '{' });
            for (index, (field, pat)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                if !tuple {
                    let _ = write!(out, "{} = ", field.0);
                }
                write_pat(out, pat, annotate);
            }
            out.push(if tuple { ')' } else { '}' });
        }
        PatKind::Literal(value) => write_value(out, *value),
        PatKind::Constructor { name, payload } => {
            out.push('(');
            let _ = write!(out, "#{name}");
            for pat in payload {
                out.push(' ');
                write_pat(out, pat, annotate);
            }
            out.push_str(" : ");
            write_type(out, &pat.ty, false);
            out.push(')');
        }
    }
}

fn write_value(out: &mut String, value: PrimValue) {
    let _ = match value {
        PrimValue::I8(v) => write!(out, "{v}i8"),
        PrimValue::I16(v) => write!(out, "{v}i16"),
        PrimValue::I32(v) => write!(out, "{v}i32"),
        PrimValue::I64(v) => write!(out, "{v}i64"),
        PrimValue::U8(v) => write!(out, "{v}u8"),
        PrimValue::U16(v) => write!(out, "{v}u16"),
        PrimValue::U32(v) => write!(out, "{v}u32"),
        PrimValue::U64(v) => write!(out, "{v}u64"),
        PrimValue::F32(v) => write!(out, "{v:?}f32"),
        PrimValue::F64(v) => write!(out, "{v:?}f64"),
        PrimValue::Bool(v) => write!(out, "{v}"),
    };
}

fn write_instance(out: &mut String, instance: &Instance) {
    if instance.is_empty() {
        return;
    }
    out.push_str("@[");
    let mut first = true;
    for ty in &instance.types {
        if !first {
            out.push_str(", ");
        }
        first = false;
        write_type(out, ty, false);
    }
    for size in &instance.sizes {
        if !first {
            out.push_str(", ");
        }
        first = false;
        write_size(out, size);
    }
    out.push(']');
}

fn write_indices(out: &mut String, indices: &[DimIndex], depth: usize) {
    out.push('[');
    for (index, dim) in indices.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        match dim {
            DimIndex::Index(expr) => write_expr(out, expr, depth),
            DimIndex::Slice { start, end, stride } => {
                if let Some(start) = start {
                    write_expr(out, start, depth);
                }
                out.push(':');
                if let Some(end) = end {
                    write_expr(out, end, depth);
                }
                if let Some(stride) = stride {
                    out.push(':');
                    write_expr(out, stride, depth);
                }
            }
        }
    }
    out.push(']');
}

/// Whether an expression prints as an atom (no parentheses needed).
fn is_atom(expr: &Expr) -> bool {
    matches!(
        expr.kind,
        ExprKind::Literal(_)
            | ExprKind::Var { .. }
            | ExprKind::Record(_)
            | ExprKind::ArrayLit(_)
            | ExprKind::Project { .. }
    )
}

fn write_atom(out: &mut String, expr: &Expr, depth: usize) {
    if is_atom(expr) {
        write_expr(out, expr, depth);
    } else {
        out.push('(');
        write_expr(out, expr, depth);
        out.push(')');
    }
}

fn write_expr(out: &mut String, expr: &Expr, depth: usize) {
    spec::recursion::with_stack(|| write_expr_inner(out, expr, depth))
}

fn write_expr_inner(out: &mut String, expr: &Expr, depth: usize) {
    match &expr.kind {
        ExprKind::Literal(value) => write_value(out, *value),
        ExprKind::Var { name, instance } => {
            out.push_str(&var(name));
            write_instance(out, instance);
        }
        ExprKind::Intrinsic {
            intrinsic,
            type_args,
            args,
        } => {
            out.push_str(&intrinsic.name());
            write_instance(
                out,
                &Instance {
                    types: type_args.clone(),
                    sizes: Vec::new(),
                },
            );
            for arg in args {
                out.push(' ');
                write_atom(out, arg, depth);
            }
        }
        ExprKind::BinOp { op, lhs, rhs } => {
            write_atom(out, lhs, depth);
            let _ = write!(out, " {}@{} ", op.symbol(), op.operand().name());
            write_atom(out, rhs, depth);
        }
        ExprKind::UnOp { op, operand } => {
            let _ = match op {
                UnOp::Neg(prim) => write!(out, "-@{}", prim.name()),
                UnOp::Not(prim) => write!(out, "!@{}", prim.name()),
            };
            out.push(' ');
            write_atom(out, operand, depth);
        }
        ExprKind::Equal { negated, lhs, rhs } => {
            write_atom(out, lhs, depth);
            out.push_str(if *negated { " != " } else { " == " });
            write_atom(out, rhs, depth);
        }
        ExprKind::Record(fields) => {
            let tuple = is_tuple(fields.iter().map(|(field, _)| field));
            out.push(if tuple { '(' } else { '{' });
            for (index, (field, value)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                if !tuple {
                    let _ = write!(out, "{} = ", field.0);
                }
                write_expr(out, value, depth);
            }
            out.push(if tuple { ')' } else { '}' });
        }
        ExprKind::Project { record, field } => {
            write_atom(out, record, depth);
            let _ = write!(out, ".{}", field.0);
        }
        ExprKind::RecordUpdate {
            target,
            path,
            value,
        } => {
            write_atom(out, target, depth);
            out.push_str(" with ");
            let names: Vec<&str> = path.iter().map(|field| field.0.as_str()).collect();
            out.push_str(&names.join("."));
            out.push_str(" = ");
            write_atom(out, value, depth);
        }
        ExprKind::Constructor { name, payload } => {
            let _ = write!(out, "#{name}");
            for value in payload {
                out.push(' ');
                write_atom(out, value, depth);
            }
            out.push_str(" : ");
            write_type(out, &expr.ty, false);
        }
        ExprKind::ArrayLit(elements) => {
            out.push('[');
            for (index, element) in elements.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_expr(out, element, depth);
            }
            out.push(']');
            if elements.is_empty() {
                out.push_str(" : ");
                write_type(out, &expr.ty, false);
            }
        }
        ExprKind::Range {
            start,
            step,
            end,
            end_kind,
        } => {
            write_atom(out, start, depth);
            if let Some(step) = step {
                out.push_str("..");
                write_atom(out, step, depth);
            }
            out.push_str(match end_kind {
                RangeEnd::Inclusive => "...",
                RangeEnd::UpToExclusive => "..<",
                RangeEnd::DownToExclusive => "..>",
            });
            write_atom(out, end, depth);
        }
        ExprKind::Index { array, indices } => {
            write_atom(out, array, depth);
            write_indices(out, indices, depth);
        }
        ExprKind::Update {
            target,
            indices,
            value,
        } => {
            write_atom(out, target, depth);
            out.push_str(" with ");
            write_indices(out, indices, depth);
            out.push_str(" = ");
            write_atom(out, value, depth);
        }
        ExprKind::Let {
            sizes,
            pat,
            value,
            body,
        } => {
            out.push_str("let ");
            for size in sizes {
                let _ = write!(out, "[{}] ", var(size));
            }
            write_pat(out, pat, true);
            out.push_str(" = ");
            write_expr(out, value, depth + 1);
            out.push_str(" in\n");
            indent(out, depth);
            write_expr(out, body, depth);
        }
        ExprKind::LetFun { function, body } => {
            print_function(out, "let", function, depth);
            out.push_str(" in\n");
            indent(out, depth);
            write_expr(out, body, depth);
        }
        ExprKind::Lambda { params, body } => {
            out.push('\\');
            for (index, param) in params.iter().enumerate() {
                if index > 0 {
                    out.push(' ');
                }
                write_pat(out, param, true);
            }
            out.push_str(" -> ");
            write_expr(out, body, depth);
        }
        ExprKind::Apply { function, args } => {
            write_atom(out, function, depth);
            for arg in args {
                out.push(' ');
                write_atom(out, arg, depth);
            }
        }
        ExprKind::If {
            condition,
            then_branch,
            else_branch,
        } => {
            out.push_str("if ");
            write_expr(out, condition, depth);
            out.push('\n');
            indent(out, depth + 1);
            out.push_str("then ");
            write_expr(out, then_branch, depth + 2);
            out.push('\n');
            indent(out, depth + 1);
            out.push_str("else ");
            write_expr(out, else_branch, depth + 2);
        }
        ExprKind::Match { scrutinee, cases } => {
            out.push_str("match ");
            write_expr(out, scrutinee, depth);
            for case in cases {
                out.push('\n');
                indent(out, depth + 1);
                out.push_str("case ");
                write_pat(out, &case.pat, false);
                out.push_str(" -> ");
                write_expr(out, &case.body, depth + 2);
            }
        }
        ExprKind::Loop {
            pat,
            init,
            form,
            body,
            ..
        } => {
            out.push_str("loop ");
            write_pat(out, pat, true);
            out.push_str(" = ");
            write_expr(out, init, depth + 1);
            match form {
                LoopForm::For { var: index, bound } => {
                    let _ = write!(out, " for {} < ", var(index));
                    write_atom(out, bound, depth + 1);
                }
                LoopForm::ForIn { pat, array } => {
                    out.push_str(" for ");
                    write_pat(out, pat, true);
                    out.push_str(" in ");
                    write_atom(out, array, depth + 1);
                }
                LoopForm::While { condition } => {
                    out.push_str(" while ");
                    write_atom(out, condition, depth + 1);
                }
            }
            out.push_str(" do\n");
            indent(out, depth + 1);
            write_expr(out, body, depth + 1);
        }
        ExprKind::Coerce(inner) => {
            write_atom(out, inner, depth);
            out.push_str(" :> ");
            write_type(out, &expr.ty, false);
        }
    }
}
