//! Printing core and target programs in Futhark-like syntax (for
//! `runestone defunc`): TFP'18 Fig. 1b is the printed form of Fig. 1a's
//! defunctionalisation. Compound subexpressions are parenthesised; records
//! print as `{a = e}`, tuples as `(e1, e2)`, lifted functions as `def`s.

use super::defunc::TargetProgram;
use super::syntax::{Expr, ExprKind, LoopForm, Pat, PrimValue, ReduceKind, Type};
use super::value::type_name;
use std::fmt::Write;

/// A target program: declarations, lifted functions, entry points. Declarations
/// no function or entry point needs are left out.
pub fn print_target(target: &TargetProgram) -> String {
    let mut needed: Vec<String> = Vec::new();
    let mark = |e: &Expr, needed: &mut Vec<String>| {
        for v in super::syntax::free_vars(e) {
            if !needed.contains(&v) {
                needed.push(v);
            }
        }
    };
    for e in &target.entries {
        mark(&e.body, &mut needed);
    }
    for d in target.decs.iter().rev() {
        if needed.contains(&d.name) {
            mark(&d.value, &mut needed);
        }
    }
    // The lifted functions the printed code calls, transitively.
    let mut called: Vec<String> = Vec::new();
    let mut work: Vec<&Expr> = target.entries.iter().map(|e| &e.body).collect();
    work.extend(
        target
            .decs
            .iter()
            .filter(|d| needed.contains(&d.name))
            .map(|d| &d.value),
    );
    while let Some(e) = work.pop() {
        if let ExprKind::Call { function, .. } = &e.kind {
            if !called.contains(function) {
                called.push(function.clone());
                if let Some(f) = target.functions.iter().find(|f| f.name == *function) {
                    work.push(&f.body);
                }
            }
        }
        work.extend(super::defunc::children(e));
    }
    let mut out = String::new();
    for f in target.functions.iter().filter(|f| called.contains(&f.name)) {
        let params: Vec<String> = f
            .params
            .iter()
            .map(|(x, t)| format!("({x}: {})", type_name(t)))
            .collect();
        let _ = writeln!(
            out,
            "def {} {} : {} =\n  {}\n",
            f.name,
            params.join(" "),
            type_name(&f.result_type),
            expr(&f.body, 1)
        );
    }
    for d in &target.decs {
        if needed.contains(&d.name) {
            let _ = writeln!(
                out,
                "def {} : {} =\n  {}\n",
                d.name,
                type_name(&d.ty),
                expr(&d.value, 1)
            );
        }
    }
    for e in &target.entries {
        let params: Vec<String> = e
            .params
            .iter()
            .map(|(x, t)| format!("({x}: {})", type_name(t)))
            .collect();
        let _ = writeln!(
            out,
            "entry {} {} : {} =\n  {}\n",
            e.name,
            params.join(" "),
            type_name(&e.result_type),
            expr(&e.body, 1)
        );
    }
    out
}

fn atom(e: &Expr, indent: usize) -> String {
    match &e.kind {
        ExprKind::Var { .. }
        | ExprKind::Literal(_)
        | ExprKind::Record(_)
        | ExprKind::Array { .. }
        | ExprKind::Project { .. }
        | ExprKind::Index { .. } => expr(e, indent),
        _ => format!("({})", expr(e, indent)),
    }
}

fn lit(p: &PrimValue) -> String {
    p.to_string()
}

/// One expression.
pub fn expr(e: &Expr, indent: usize) -> String {
    spec::recursion::with_stack(|| expr_inner(e, indent))
}

fn nl(indent: usize) -> String {
    format!("\n{}", "  ".repeat(indent))
}

fn expr_inner(e: &Expr, indent: usize) -> String {
    match &e.kind {
        ExprKind::Var { name, type_args } if type_args.is_empty() => name.clone(),
        ExprKind::Var { name, type_args } => format!(
            "{name}[{}]",
            type_args
                .iter()
                .map(type_name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::Literal(p) => lit(p),
        ExprKind::BinOp { op, lhs, rhs } => format!(
            "{} {} {}",
            atom(lhs, indent),
            op.symbol(),
            atom(rhs, indent)
        ),
        ExprKind::UnOp { op, operand } => {
            let symbol = match op {
                super::syntax::UnOp::Neg => "-",
                super::syntax::UnOp::Not => "!",
            };
            format!("{symbol}{}", atom(operand, indent))
        }
        ExprKind::If {
            condition,
            then_branch,
            else_branch,
        } => format!(
            "if {} then {} else {}",
            expr(condition, indent),
            atom(then_branch, indent),
            atom(else_branch, indent)
        ),
        ExprKind::Lambda(l) => format!(
            "\\({}: {}) -> {}",
            l.param,
            type_name(&l.param_type),
            expr(&l.body, indent)
        ),
        ExprKind::Apply { function, argument } => {
            format!("{} {}", atom_app(function, indent), atom(argument, indent))
        }
        ExprKind::Let { name, value, body } => format!(
            "let {name} = {}{}in {}",
            expr(value, indent + 1),
            nl(indent),
            expr(body, indent)
        ),
        ExprKind::Record(fields) => {
            let labels: Vec<&str> = fields.iter().map(|(l, _)| l.as_str()).collect();
            let is_tuple =
                labels.len() >= 2 && labels.iter().enumerate().all(|(i, l)| *l == i.to_string());
            if is_tuple {
                format!(
                    "({})",
                    fields
                        .iter()
                        .map(|(_, e)| expr(e, indent))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                format!(
                    "{{{}}}",
                    fields
                        .iter()
                        .map(|(l, e)| format!("{l} = {}", expr(e, indent)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        }
        ExprKind::Project { record, label } => format!("{}.{label}", atom(record, indent)),
        ExprKind::Array {
            elements,
            elem_type,
        } if elements.is_empty() => format!("([] : []{})", type_name(elem_type)),
        ExprKind::Array { elements, .. } => format!(
            "[{}]",
            elements
                .iter()
                .map(|e| expr(e, indent))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ExprKind::Index { array, index } => {
            format!("{}[{}]", atom(array, indent), expr(index, indent))
        }
        ExprKind::Update {
            array,
            index,
            value,
        } => format!(
            "{} with [{}] = {}",
            atom(array, indent),
            expr(index, indent),
            atom(value, indent)
        ),
        ExprKind::Length(a) => format!("length {}", atom(a, indent)),
        ExprKind::Map { param, body, array } => format!(
            "map (\\{param} -> {}) {}",
            expr(body, indent + 1),
            atom(array, indent)
        ),
        ExprKind::Loop {
            param,
            init,
            form,
            body,
            ..
        } => {
            let header = match form {
                LoopForm::ForIn { var, array } => format!("for {var} in {}", atom(array, indent)),
                LoopForm::While { condition } => format!("while {}", atom(condition, indent)),
            };
            format!(
                "loop {param} = {} {header} do{}{}",
                atom(init, indent),
                nl(indent + 1),
                expr(body, indent + 1)
            )
        }
        ExprKind::Reduce {
            kind,
            x,
            y,
            operator,
            neutral,
            array,
        } => {
            let name = match kind {
                ReduceKind::Reduce => "reduce",
                ReduceKind::Scan => "scan",
            };
            format!(
                "{name} (\\{x} {y} -> {}) {} {}",
                expr(operator, indent + 1),
                atom(neutral, indent),
                atom(array, indent)
            )
        }
        ExprKind::Filter {
            param,
            predicate,
            array,
        } => format!(
            "filter (\\{param} -> {}) {}",
            expr(predicate, indent + 1),
            atom(array, indent)
        ),
        ExprKind::ReduceByIndex {
            dest,
            x,
            y,
            operator,
            neutral,
            indices,
            values,
        } => format!(
            "reduce_by_index {} (\\{x} {y} -> {}) {} {} {}",
            atom(dest, indent),
            expr(operator, indent + 1),
            atom(neutral, indent),
            atom(indices, indent),
            atom(values, indent)
        ),
        ExprKind::Slice {
            array,
            start,
            end,
            stride,
        } => {
            let part =
                |p: &Option<Box<Expr>>| p.as_ref().map(|e| expr(e, indent)).unwrap_or_default();
            let mut s = format!("{}[{}:{}", atom(array, indent), part(start), part(end));
            if stride.is_some() {
                s.push(':');
                s.push_str(&part(stride));
            }
            s.push(']');
            s
        }
        ExprKind::Intrinsic { op, args } => format!(
            "{} {}",
            op.name(),
            args.iter()
                .map(|a| atom(a, indent))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        ExprKind::Assert {
            condition,
            message,
            body,
        } => format!(
            "assert ({}) {:?}{}in {}",
            expr(condition, indent),
            message,
            nl(indent),
            expr(body, indent)
        ),
        ExprKind::Constructor {
            name,
            payload,
            sum_type,
        } => {
            let mut s = format!("(#{name}");
            for p in payload {
                s.push(' ');
                s.push_str(&atom(p, indent));
            }
            let _ = write!(s, " : {})", type_name(sum_type));
            s
        }
        ExprKind::Match { scrutinee, cases } => {
            let mut s = format!("match {}", expr(scrutinee, indent));
            for (p, b) in cases {
                let _ = write!(
                    s,
                    "{}case {} -> {}",
                    nl(indent),
                    pat(p),
                    expr(b, indent + 1)
                );
            }
            s
        }
        ExprKind::Call { function, args } => format!(
            "{function} {}",
            args.iter()
                .map(|a| atom(a, indent))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

fn atom_app(e: &Expr, indent: usize) -> String {
    match &e.kind {
        ExprKind::Apply { .. } => expr(e, indent),
        _ => atom(e, indent),
    }
}

fn pat(p: &Pat) -> String {
    match p {
        Pat::Wildcard => "_".into(),
        Pat::Var(x) => x.clone(),
        Pat::Literal(v) => lit(v),
        Pat::Record(fields) => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|(l, p)| format!("{l} = {}", pat(p)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Pat::Constructor(c, ps) => {
            let mut s = format!("(#{c}");
            for p in ps {
                s.push(' ');
                s.push_str(&pat(p));
            }
            s.push(')');
            s
        }
    }
}

/// A type, for printing.
pub fn ty(t: &Type) -> String {
    type_name(t)
}
