//! The simplifier (issue 5, item 5): constant folding, copy propagation,
//! `if` on constants, common-subexpression elimination and dead-code
//! elimination, repeated to a fixpoint.
//!
//! - **Constant folding** evaluates operators on constants with the CPU
//!   backend's own primitive semantics ([`crate::cpu::prim`]: wrapping
//!   integers, IEEE floats), and folds only operations that succeed: an
//!   integer division by zero or a negative integer power stays in the
//!   program so that it fails at run time as before. Algebraic identities are
//!   applied only where they are exact (`x + 0`, `x * 1`, `x * 0` on
//!   integers; `x * 1.0`, `x / 1.0`, `x - 0.0` on floats; `true && x`, …).
//! - **Copy propagation**: `let x = y` disappears, uses of `x` (types
//!   included) become `y`. Branches on constants, calls inlined elsewhere and
//!   loops that run zero times become copies too.
//! - **CSE** of side-effect-free scalar and array expressions with equal
//!   operands and equal pattern types, scoped (an expression of an enclosing
//!   body is available in nested bodies, not the reverse). Merging two
//!   equal statements that can fail is sound: the first runs first.
//! - **Dead code**: a statement none of whose results is used goes, unless
//!   it can fail ([`super::traverse::can_fail`]): `Assert`s, bounds-checked
//!   operations, calls and loops stay, so run-time errors are preserved.
//!   Unused outputs of `map` (and the mapped outputs of `redomap`/`scanomap`)
//!   are removed from the lambda.

use std::collections::HashSet;

use super::traverse::*;
use crate::cpu::prim;
use crate::ir::*;

/// Rounds of forward simplification and dead-code elimination at most (each
/// round runs until nothing changes, usually two or three).
const MAX_ROUNDS: usize = 10;

/// The pass: simplifies every function to a fixpoint.
pub fn simplify(mut program: Program) -> Program {
    for _ in 0..MAX_ROUNDS {
        let before = program.functions.clone();
        for function in &mut program.functions {
            simplify_function(function);
        }
        if program.functions == before {
            break;
        }
    }
    program
}

/// One round on one function: forward (substitution, folding, CSE) then
/// backward (dead code).
pub fn simplify_function(function: &mut Function) {
    let mut substitution = Substitution::default();
    let body = std::mem::take(&mut function.body);
    function.body = simplify_body(body, &mut substitution, &AvailableExpressions::default());
    let mut live = HashSet::new();
    eliminate_dead_code(&mut function.body, &mut live);
}

/// An expression that CSE may merge: pure apart from failures that the
/// earlier copy would raise first, with no nested body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum CseKey {
    BinOp(BinOp, PrimType, SubExp, SubExp),
    UnOp(UnOp, PrimType, SubExp),
    CmpOp(CmpOp, PrimType, SubExp, SubExp),
    ConvOp(ConvOp, SubExp),
    Index(VName, Vec<SubExp>),
    Slice(VName, Vec<DimIndex>),
    Iota(SubExp, SubExp, SubExp, PrimType),
    Replicate(Vec<SubExp>, SubExp),
    Rearrange(Vec<usize>, VName),
    Reshape(Vec<SubExp>, VName),
    Reverse(VName),
    Rotate(SubExp, VName),
}

fn cse_key(exp: &Exp) -> Option<CseKey> {
    Some(match exp.clone() {
        Exp::BinOp {
            op,
            ty,
            left,
            right,
        } => CseKey::BinOp(op, ty, left, right),
        Exp::UnOp { op, ty, operand } => CseKey::UnOp(op, ty, operand),
        Exp::CmpOp {
            op,
            ty,
            left,
            right,
        } => CseKey::CmpOp(op, ty, left, right),
        Exp::ConvOp { op, operand } => CseKey::ConvOp(op, operand),
        Exp::Index { array, indices } => CseKey::Index(array, indices),
        Exp::Slice { array, slice } => CseKey::Slice(array, slice),
        Exp::Iota {
            length,
            start,
            step,
            element,
        } => CseKey::Iota(length, start, step, element),
        Exp::Replicate { shape, value } => CseKey::Replicate(shape, value),
        Exp::Rearrange { permutation, array } => CseKey::Rearrange(permutation, array),
        Exp::Reshape { shape, array } => CseKey::Reshape(shape, array),
        Exp::Reverse { array } => CseKey::Reverse(array),
        Exp::Rotate { amount, array } => CseKey::Rotate(amount, array),
        _ => return None,
    })
}

/// The expressions computed so far in the enclosing bodies, with their
/// pattern types, and the names that hold their results.
type AvailableExpressions = imbl::HashMap<(CseKey, Vec<Type>), Vec<VName>>;

/// What becomes of one statement.
enum Outcome {
    /// It stays (perhaps rewritten).
    Keep(Box<Statement>),
    /// These statements take its place (perhaps none), and the names of its
    /// pattern become these operands.
    Replace(Vec<Statement>, Vec<SubExp>),
}

fn simplify_body(
    body: Body,
    substitution: &mut Substitution,
    available: &AvailableExpressions,
) -> Body {
    let mut available = available.clone();
    let mut statements = Vec::with_capacity(body.statements.len());
    for mut statement in body.statements {
        walk_statement(&mut statement, substitution);
        for nested in nested_bodies_mut(&mut statement.expression) {
            let inner = std::mem::take(nested);
            *nested = simplify_body(inner, substitution, &available);
        }
        let pattern: Vec<VName> = statement.pattern.iter().map(|p| p.name.clone()).collect();
        match fold_statement(statement) {
            Outcome::Keep(statement) => {
                let statement = *statement;
                let key = cse_key(&statement.expression).map(|k| {
                    let types = statement.pattern.iter().map(|p| p.ty.clone()).collect();
                    (k, types)
                });
                match key.as_ref().and_then(|k| available.get(k)) {
                    Some(earlier) => {
                        let operands = earlier.iter().cloned().map(SubExp::Var).collect();
                        record(substitution, &pattern, operands);
                    }
                    None => {
                        if let Some(key) = key {
                            available.insert(key, pattern);
                        }
                        statements.push(statement);
                    }
                }
            }
            Outcome::Replace(spliced, operands) => {
                statements.extend(spliced);
                record(substitution, &pattern, operands);
            }
        }
    }
    let mut result = body.result;
    for r in &mut result {
        // A result may be an existential size (`visit_dimension`).
        substitution.visit_dimension(r);
    }
    Body { statements, result }
}

/// Records that the names of a removed pattern stand for `operands`.
fn record(substitution: &mut Substitution, pattern: &[VName], operands: Vec<SubExp>) {
    for (name, operand) in pattern.iter().zip(operands) {
        substitution.map.insert(name.clone(), operand);
    }
}

/// Folds one statement whose operands are already substituted and whose
/// nested bodies are already simplified. A name whose value folds to a
/// negative `i64` constant keeps its binding (`let n = -1i64`) beside the
/// substitution: it may be a dimension (the length of a slice whose bounds
/// check fails at run time, before the slice is taken), where the constant
/// is not substituted (`Substitution::visit_dimension`: a negative constant
/// dimension is ill-typed IR); dead code removes the binding otherwise.
fn fold_statement(statement: Statement) -> Outcome {
    let (pattern, span) = (statement.pattern.clone(), statement.span);
    match fold_statement_freely(statement) {
        Outcome::Replace(spliced, operands)
            if spliced.is_empty()
                && pattern.len() == 1
                && matches!(
                    operands.as_slice(),
                    [SubExp::Constant(PrimValue::I64(n))] if *n < 0
                ) =>
        {
            let binding = Statement {
                pattern,
                expression: Exp::SubExp(operands[0].clone()),
                span,
            };
            Outcome::Replace(vec![binding], operands)
        }
        outcome => outcome,
    }
}

fn fold_statement_freely(statement: Statement) -> Outcome {
    let replace = |operands: Vec<SubExp>| Outcome::Replace(Vec::new(), operands);
    match &statement.expression {
        Exp::SubExp(s) => replace(vec![s.clone()]),
        Exp::BinOp {
            op,
            ty,
            left,
            right,
        } => match fold_binop(*op, *ty, left, right) {
            Some(s) => replace(vec![s]),
            None => Outcome::Keep(Box::new(statement)),
        },
        Exp::CmpOp {
            op,
            left: SubExp::Constant(a),
            right: SubExp::Constant(b),
            ..
        } => match prim::cmpop(*op, *a, *b) {
            Ok(v) => replace(vec![SubExp::Constant(PrimValue::Bool(v))]),
            Err(_) => Outcome::Keep(Box::new(statement)),
        },
        Exp::UnOp {
            op,
            operand: SubExp::Constant(a),
            ..
        } => match prim::unop(*op, *a) {
            Ok(v) => replace(vec![SubExp::Constant(v)]),
            Err(_) => Outcome::Keep(Box::new(statement)),
        },
        Exp::ConvOp { op, operand } => match operand {
            SubExp::Constant(a) => replace(vec![SubExp::Constant(prim::convert(*op, *a))]),
            SubExp::Var(_) if op.from == op.to => replace(vec![operand.clone()]),
            SubExp::Var(_) => Outcome::Keep(Box::new(statement)),
        },
        Exp::If {
            condition: SubExp::Constant(PrimValue::Bool(c)),
            ..
        } => {
            let c = *c;
            let Exp::If {
                then_body,
                else_body,
                ..
            } = statement.expression
            else {
                unreachable!("matched above")
            };
            let chosen = if c { then_body } else { else_body };
            Outcome::Replace(chosen.statements, chosen.result)
        }
        Exp::If {
            then_body,
            else_body,
            ..
        } if then_body.statements.is_empty()
            && else_body.statements.is_empty()
            && then_body.result == else_body.result =>
        {
            replace(then_body.result.clone())
        }
        Exp::Assert {
            condition: SubExp::Constant(PrimValue::Bool(true)),
            ..
        } => replace(Vec::new()),
        Exp::Loop {
            params,
            form:
                LoopForm::For {
                    bound: SubExp::Constant(n),
                    ..
                },
            ..
        } if prim::as_i64(*n).is_some_and(|n| n <= 0) => {
            replace(params.iter().map(|(_, init)| init.clone()).collect())
        }
        _ => Outcome::Keep(Box::new(statement)),
    }
}

/// `left op right` as a constant or one operand, where that is exact.
fn fold_binop(op: BinOp, ty: PrimType, left: &SubExp, right: &SubExp) -> Option<SubExp> {
    if let (SubExp::Constant(a), SubExp::Constant(b)) = (left, right) {
        return prim::binop_dynamic(op, *a, *b).ok().map(SubExp::Constant);
    }
    let is = |s: &SubExp, n: i64| match s {
        SubExp::Constant(c) if ty.is_integer() => prim::as_i64(*c) == Some(n),
        SubExp::Constant(PrimValue::F32(x)) => *x as f64 == n as f64,
        SubExp::Constant(PrimValue::F64(x)) => *x == n as f64,
        _ => false,
    };
    let is_bool = |s: &SubExp, b: bool| *s == SubExp::Constant(PrimValue::Bool(b));
    let is_negative_zero = |s: &SubExp| match s {
        SubExp::Constant(PrimValue::F32(x)) => *x == 0.0 && x.is_sign_negative(),
        SubExp::Constant(PrimValue::F64(x)) => *x == 0.0 && x.is_sign_negative(),
        _ => false,
    };
    let integer = ty.is_integer();
    match op {
        BinOp::Add if integer && is(right, 0) => Some(left.clone()),
        BinOp::Add if integer && is(left, 0) => Some(right.clone()),
        BinOp::Add if is_negative_zero(right) => Some(left.clone()),
        BinOp::Sub if is(right, 0) && (integer || !is_negative_zero(right)) => {
            // x - 0 = x on integers; x - (+0.0) = x on floats (-0 - +0 = -0).
            Some(left.clone())
        }
        BinOp::Mul if is(right, 1) => Some(left.clone()),
        BinOp::Mul if is(left, 1) => Some(right.clone()),
        BinOp::Mul if integer && is(right, 0) => Some(right.clone()),
        BinOp::Mul if integer && is(left, 0) => Some(left.clone()),
        BinOp::Div if is(right, 1) => Some(left.clone()),
        BinOp::Quot if integer && is(right, 1) => Some(left.clone()),
        BinOp::LogAnd | BinOp::And if is_bool(left, true) => Some(right.clone()),
        BinOp::LogAnd | BinOp::And if is_bool(right, true) => Some(left.clone()),
        BinOp::LogAnd | BinOp::And if is_bool(left, false) || is_bool(right, false) => {
            Some(SubExp::Constant(PrimValue::Bool(false)))
        }
        BinOp::LogOr | BinOp::Or if is_bool(left, false) => Some(right.clone()),
        BinOp::LogOr | BinOp::Or if is_bool(right, false) => Some(left.clone()),
        BinOp::LogOr | BinOp::Or if is_bool(left, true) || is_bool(right, true) => {
            Some(SubExp::Constant(PrimValue::Bool(true)))
        }
        _ => None,
    }
}

/// Removes dead statements of `body` (backwards), given the names used
/// after it; adds the names `body` uses to `live`.
pub fn eliminate_dead_code(body: &mut Body, live: &mut HashSet<VName>) {
    for r in &body.result {
        if let SubExp::Var(v) = r {
            live.insert(v.clone());
        }
    }
    let mut kept = Vec::with_capacity(body.statements.len());
    for mut statement in std::mem::take(&mut body.statements).into_iter().rev() {
        let needed = statement.pattern.iter().any(|p| live.contains(&p.name));
        if !needed && !can_fail(&statement.expression) {
            continue;
        }
        remove_dead_map_outputs(&mut statement, live);
        for nested in nested_bodies_mut(&mut statement.expression) {
            eliminate_dead_code(nested, live);
        }
        live.extend(used_in_statement(&mut statement));
        kept.push(statement);
    }
    kept.reverse();
    body.statements = kept;
}

/// Drops the outputs of a `map` (or the mapped outputs of a `redomap` /
/// `scanomap`) that nobody uses, from the pattern and the lambda, keeping at
/// least one output of a `map`.
fn remove_dead_map_outputs(statement: &mut Statement, live: &HashSet<VName>) {
    let (lambda, first_mapped) = match &mut statement.expression {
        Exp::Soac(Soac::Map { lambda, .. }) => (lambda, 0),
        Exp::Soac(Soac::Redomap {
            map_lambda,
            neutral,
            ..
        })
        | Exp::Soac(Soac::Scanomap {
            map_lambda,
            neutral,
            ..
        }) => {
            let k = neutral.len();
            (map_lambda, k)
        }
        _ => return,
    };
    let dead: Vec<bool> = statement
        .pattern
        .iter()
        .enumerate()
        .map(|(i, p)| i >= first_mapped && !live.contains(&p.name))
        .collect();
    if !dead.iter().any(|d| *d) || dead.iter().all(|d| *d) {
        return;
    }
    let keep = |i: &usize| !dead[*i];
    statement.pattern = retain_positions(std::mem::take(&mut statement.pattern), keep);
    lambda.body.result = retain_positions(std::mem::take(&mut lambda.body.result), keep);
    lambda.return_types = retain_positions(std::mem::take(&mut lambda.return_types), keep);
}

fn retain_positions<T>(items: Vec<T>, keep: impl Fn(&usize) -> bool) -> Vec<T> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep(i))
        .map(|(_, x)| x)
        .collect()
}
