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
//!   equal statements that can fail is sound: the first runs first. An
//!   assertion is keyed by its condition alone: one whose condition an
//!   assertion in scope has checked cannot fail, whatever its message (the
//!   size checks a lambda repeats from its entry point's parameters).
//! - **Dead code**: a statement none of whose results is used goes, unless
//!   it can fail ([`crate::ir::effects::can_fail`]): `Assert`s, bounds-checked
//!   operations, loops and calls of functions that may fail stay, so
//!   run-time errors are preserved (a call of a function whose body cannot
//!   fail, [`crate::ir::effects::TotalFunctions`], goes: the first-order
//!   program evaluates every top-level constant before an entry point's
//!   body, and most of them are unused and cannot fail). Functions no
//!   entry point reaches go.
//!   Unused outputs of `map` (and the mapped outputs of `redomap`/`scanomap`)
//!   are removed from the lambda. A statement the forward walk proved unable
//!   to fail goes too: a read whose every index is known to be within its
//!   dimension, an array literal whose rows have its row type.
//! - **Facts** gathered on the way (names are unique, so one map per
//!   function): the type of every name, the elements of array literals
//!   (`lit[1, 2]` with constant in-bounds indices folds to the element), and
//!   index ranges: a loop index `for i < d`, a row `i` of `iota d` and
//!   `x % d` lie in the range of `mod d`, which proves `xs[i]` in bounds
//!   when `d` is `xs`'s dimension (dimensions are never negative, and a
//!   `% 0` has failed before). For a row of `iota d`, `i % d` and
//!   `(i + d) % d` fold to `i` (the `iota` is materialised, so `d` is far
//!   below 2⁶² and `i + d` cannot wrap). A `reshape` to the shape its
//!   array already has is a copy; `x == x`, `x <= x`, `x >= x` are `true`
//!   (`!=`, `<`, `>` `false`) except on floats (NaN).

use std::collections::{HashMap, HashSet};

use super::traverse::*;
use crate::cpu::prim;
use crate::ir::effects::*;
use crate::ir::*;

/// Rounds of forward simplification and dead-code elimination at most (each
/// round runs until nothing changes, usually two or three).
const MAX_ROUNDS: usize = 10;

/// The pass: simplifies every function to a fixpoint.
pub fn simplify(mut program: Program) -> Program {
    for _ in 0..MAX_ROUNDS {
        let before = program.functions.clone();
        let total = TotalFunctions::of_program(&program);
        for function in &mut program.functions {
            simplify_function(function, &total);
        }
        remove_unreachable_functions(&mut program);
        if program.functions == before {
            break;
        }
    }
    program
}

/// One round on one function: forward (substitution, folding, CSE) then
/// backward (dead code; a call of one of `total` is dead code when its
/// results are unused).
fn simplify_function(function: &mut Function, total: &TotalFunctions) {
    let mut substitution = Substitution::default();
    let mut facts = Facts::default();
    for p in &function.params {
        facts.types.insert(p.name.clone(), p.ty.clone());
    }
    let body = std::mem::take(&mut function.body);
    function.body = simplify_body(
        body,
        &mut substitution,
        &AvailableExpressions::default(),
        &mut facts,
    );
    let mut live = HashSet::new();
    let dead = DeadCode {
        infallible: &facts.infallible,
        total,
    };
    dead.eliminate(&mut function.body, &mut live);
}

/// Drops the functions no entry point calls, directly or through others.
fn remove_unreachable_functions(program: &mut Program) {
    let by_name: HashMap<&FunName, &Function> =
        program.functions.iter().map(|f| (&f.name, f)).collect();
    let mut reachable: HashSet<FunName> = HashSet::new();
    let mut work: Vec<&FunName> = program.entry_points.iter().map(|e| &e.function).collect();
    while let Some(name) = work.pop() {
        if !reachable.insert(name.clone()) {
            continue;
        }
        if let Some(function) = by_name.get(name) {
            let mut callees = HashSet::new();
            collect_callees(&function.body, &mut callees);
            work.extend(callees);
        }
    }
    program.functions.retain(|f| reachable.contains(&f.name));
}

/// What the forward walk knows about the names bound so far (names are
/// unique, so one map per function serves every scope).
#[derive(Default)]
struct Facts {
    /// The type of each name (after substitution).
    types: HashMap<VName, Type>,
    /// The elements of each array literal.
    literals: HashMap<VName, Vec<SubExp>>,
    /// `i ↦ d`: `i` is within the range of `mod d` (`0 ≤ i < d`, or `d < i
    /// ≤ 0`): a loop index `for i < d`, a row of `iota d`, `x % d`.
    below: HashMap<VName, SubExp>,
    /// `i ↦ d`: `0 ≤ i < d` where `d` is the length of a materialised
    /// `iota` (so far below 2⁶²: `i + d` cannot wrap).
    iota_rows: HashMap<VName, SubExp>,
    /// `x ↦ (a, b)`: `x = a + b` on `i64`.
    sums: HashMap<VName, (SubExp, SubExp)>,
    /// `v ↦ d`: `v = iota(d, 0, 1)` of `i64`.
    iotas: HashMap<VName, SubExp>,
    /// Statements proven unable to fail although [`can_fail`] says they
    /// may (an index in bounds, an array literal whose rows have its row
    /// type), named by their pattern's names: dead code may remove them.
    infallible: HashSet<VName>,
}

impl Facts {
    fn note_params<'a>(&mut self, params: impl IntoIterator<Item = &'a Param>) {
        for p in params {
            self.types.insert(p.name.clone(), p.ty.clone());
        }
    }

    /// The binders of `exp`'s lambdas and loop, and the ranges of loop
    /// indices and of rows of `iota`s.
    fn note_nested_binders(&mut self, exp: &Exp) {
        for lambda in exp.lambdas() {
            self.note_params(&lambda.params);
        }
        match exp {
            Exp::Loop { params, form, .. } => {
                self.note_params(params.iter().map(|(p, _)| p));
                if let LoopForm::For { index, bound } = form {
                    self.below.insert(index.clone(), bound.clone());
                }
            }
            Exp::Soac(
                Soac::Map { lambda, arrays, .. }
                | Soac::Redomap {
                    map_lambda: lambda,
                    arrays,
                    ..
                }
                | Soac::Scanomap {
                    map_lambda: lambda,
                    arrays,
                    ..
                }
                | Soac::Filter {
                    predicate: lambda,
                    arrays,
                    ..
                },
            ) => {
                for (param, array) in lambda.params.iter().zip(arrays) {
                    if let Some(length) = self.iotas.get(array).cloned() {
                        self.below.insert(param.name.clone(), length.clone());
                        self.iota_rows.insert(param.name.clone(), length);
                    }
                }
            }
            _ => {}
        }
    }

    /// What a kept statement tells about its results.
    fn note_statement(&mut self, statement: &Statement) {
        self.note_params(&statement.pattern);
        let [element] = statement.pattern.as_slice() else {
            return;
        };
        let name = element.name.clone();
        match &statement.expression {
            Exp::ArrayLiteral { elements, row_type } => {
                if elements.iter().all(|e| match e {
                    SubExp::Var(v) => self.types.get(v) == Some(row_type),
                    SubExp::Constant(_) => row_type.rank() == 0,
                }) {
                    self.infallible.insert(name.clone());
                }
                self.literals.insert(name, elements.clone());
            }
            Exp::Index { array, indices } if self.in_bounds(array, indices) => {
                self.infallible.insert(name);
            }
            Exp::BinOp {
                op: BinOp::Mod,
                ty: PrimType::I64,
                right,
                ..
            } => {
                self.below.insert(name, right.clone());
            }
            Exp::BinOp {
                op: BinOp::Add,
                ty: PrimType::I64,
                left,
                right,
            } => {
                self.sums.insert(name, (left.clone(), right.clone()));
            }
            Exp::Iota {
                length,
                start: SubExp::Constant(PrimValue::I64(0)),
                step: SubExp::Constant(PrimValue::I64(1)),
                element: PrimType::I64,
            } => {
                self.iotas.insert(name, length.clone());
            }
            _ => {}
        }
    }

    /// Whether every index is within its dimension of `array`: a constant
    /// below a constant dimension, or a name known `below` the dimension
    /// (a dimension is never negative, and `x % d` with `d = 0` has failed
    /// before).
    fn in_bounds(&self, array: &VName, indices: &[SubExp]) -> bool {
        let Some(ty) = self.types.get(array) else {
            return false;
        };
        indices.len() <= ty.rank()
            && indices
                .iter()
                .zip(ty.shape())
                .all(|(index, dimension)| match (index, dimension) {
                    (SubExp::Constant(PrimValue::I64(i)), SubExp::Constant(PrimValue::I64(d))) => {
                        0 <= *i && i < d
                    }
                    (SubExp::Var(i), _) => self.below.get(i) == Some(dimension),
                    _ => false,
                })
    }

    /// `x % d` as a simpler operand: `i` when `x` is `i` or `i + d` and `i`
    /// is a row of `iota d` (`0 ≤ i < d`, and `i + d` does not wrap).
    fn reduced_mod(&self, x: &SubExp, d: &SubExp) -> Option<SubExp> {
        let is_row_below_d = |i: &SubExp| match i {
            SubExp::Var(i) => self.iota_rows.get(i) == Some(d),
            SubExp::Constant(_) => false,
        };
        if is_row_below_d(x) {
            return Some(x.clone());
        }
        let (a, b) = self.sums.get(x.as_var()?)?;
        if b == d && is_row_below_d(a) {
            Some(a.clone())
        } else if a == d && is_row_below_d(b) {
            Some(b.clone())
        } else {
            None
        }
    }

    /// `array[indices]` when `array` is an array literal (of array
    /// literals, …) and every index is a constant in bounds: the element.
    fn literal_element(&self, array: &VName, indices: &[SubExp]) -> Option<SubExp> {
        let (first, rest) = indices.split_first()?;
        let elements = self.literals.get(array)?;
        let i = match first {
            SubExp::Constant(c) => usize::try_from(prim::as_i64(*c)?).ok()?,
            SubExp::Var(_) => return None,
        };
        let element = elements.get(i)?;
        match (rest.is_empty(), element) {
            (true, _) => Some(element.clone()),
            (false, SubExp::Var(row)) => self.literal_element(row, rest),
            (false, SubExp::Constant(_)) => None,
        }
    }
}

/// An expression that CSE may merge: pure apart from failures that the
/// earlier copy would raise first, with no nested body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum CseKey {
    BinOp(BinOp, PrimType, SubExp, SubExp),
    UnOp(UnOp, PrimType, SubExp),
    Fma(PrimType, SubExp, SubExp, SubExp),
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
    /// An assertion, by its condition alone: a later assertion of a
    /// condition an earlier one in scope has checked cannot fail (its
    /// message is never shown), so it goes.
    Assert(SubExp),
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
        Exp::Fma { ty, a, b, c } => CseKey::Fma(ty, a, b, c),
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
        Exp::Assert { condition, .. } => CseKey::Assert(condition),
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
    facts: &mut Facts,
) -> Body {
    let mut available = available.clone();
    let mut statements = Vec::with_capacity(body.statements.len());
    for mut statement in body.statements {
        walk_statement(&mut statement, substitution);
        facts.note_nested_binders(&statement.expression);
        for nested in nested_bodies_mut(&mut statement.expression) {
            let inner = std::mem::take(nested);
            *nested = simplify_body(inner, substitution, &available, facts);
        }
        let pattern: Vec<VName> = statement.pattern.iter().map(|p| p.name.clone()).collect();
        match fold_statement(statement, facts) {
            Outcome::Keep(statement) => {
                let statement = *statement;
                facts.note_statement(&statement);
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
fn fold_statement(statement: Statement, facts: &Facts) -> Outcome {
    let (pattern, span) = (statement.pattern.clone(), statement.span);
    match fold_statement_freely(statement, facts) {
        Outcome::Replace(mut spliced, operands) => {
            // Every name of the pattern, not only a single one: a loop of no
            // iterations stands for its initial values, of which several may
            // be negative constants (value oracle, seed 424242, program 13620).
            for (param, operand) in pattern.iter().zip(&operands) {
                if matches!(operand, SubExp::Constant(PrimValue::I64(n)) if *n < 0) {
                    spliced.push(Statement {
                        pattern: vec![param.clone()],
                        expression: Exp::SubExp(operand.clone()),
                        span,
                    });
                }
            }
            Outcome::Replace(spliced, operands)
        }
        outcome => outcome,
    }
}

fn fold_statement_freely(statement: Statement, facts: &Facts) -> Outcome {
    let replace = |operands: Vec<SubExp>| Outcome::Replace(Vec::new(), operands);
    match &statement.expression {
        Exp::SubExp(s) => replace(vec![s.clone()]),
        // `map (\x1 … xk -> x1 … xk) a1 … ak` is its arrays (a copy; arrays
        // are values), when each has the result's type: a library's
        // conversion that is the identity at this instance, say.
        Exp::Soac(Soac::Map { lambda, arrays, .. })
            if lambda.body.statements.is_empty()
                && lambda.params.len() == arrays.len()
                && lambda
                    .body
                    .result
                    .iter()
                    .zip(&lambda.params)
                    .all(|(result, param)| result.as_var() == Some(&param.name))
                && lambda.body.result.len() == lambda.params.len()
                && arrays
                    .iter()
                    .zip(&statement.pattern)
                    .all(|(array, result)| facts.types.get(array) == Some(&result.ty)) =>
        {
            replace(arrays.iter().cloned().map(SubExp::Var).collect())
        }
        // A constant in-bounds element of an array literal (the literal's
        // own statement stays if it can fail).
        Exp::Index { array, indices } => match facts.literal_element(array, indices) {
            Some(element) => replace(vec![element]),
            None => Outcome::Keep(Box::new(statement)),
        },
        // `i % d` and `(i + d) % d` where `i` is a row of `iota d`.
        Exp::BinOp {
            op: BinOp::Mod,
            ty: PrimType::I64,
            left,
            right,
        } if facts.reduced_mod(left, right).is_some() => {
            replace(vec![facts.reduced_mod(left, right).expect("checked")])
        }
        // A reshape to the shape the array already has.
        Exp::Reshape { shape, array }
            if facts
                .types
                .get(array)
                .is_some_and(|t| t.shape() == shape.as_slice()) =>
        {
            replace(vec![SubExp::Var(array.clone())])
        }
        // `x == x`, `x <= x`, `x >= x` are true and `x != x`, `x < x`,
        // `x > x` false on integers and booleans (not on floats: NaN).
        Exp::CmpOp {
            op,
            ty,
            left: SubExp::Var(a),
            right: SubExp::Var(b),
        } if a == b && !ty.is_float() => {
            let holds = matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge);
            replace(vec![SubExp::Constant(PrimValue::Bool(holds))])
        }
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
        Exp::Fma {
            a: SubExp::Constant(a),
            b: SubExp::Constant(b),
            c: SubExp::Constant(c),
            ..
        } => match prim::fma(*a, *b, *c) {
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

/// What dead-code elimination may remove although [`can_fail`] says it
/// may fail.
struct DeadCode<'a> {
    /// Statements the forward walk proved unable to fail, by the names of
    /// their patterns.
    infallible: &'a HashSet<VName>,
    /// Functions whose calls cannot fail.
    total: &'a TotalFunctions,
}

impl DeadCode<'_> {
    /// Removes dead statements of `body` (backwards), given the names used
    /// after it; adds the names `body` uses to `live`.
    fn eliminate(&self, body: &mut Body, live: &mut HashSet<VName>) {
        for r in &body.result {
            if let SubExp::Var(v) = r {
                live.insert(v.clone());
            }
        }
        let mut kept = Vec::with_capacity(body.statements.len());
        for mut statement in std::mem::take(&mut body.statements).into_iter().rev() {
            let needed = statement.pattern.iter().any(|p| live.contains(&p.name));
            let proven_safe = !statement.pattern.is_empty()
                && statement
                    .pattern
                    .iter()
                    .all(|p| self.infallible.contains(&p.name));
            if !needed && (proven_safe || !can_fail_with(&statement.expression, self.total)) {
                continue;
            }
            remove_dead_map_outputs(&mut statement, live);
            for nested in nested_bodies_mut(&mut statement.expression) {
                self.eliminate(nested, live);
            }
            live.extend(used_in_statement(&statement));
            kept.push(statement);
        }
        kept.reverse();
        body.statements = kept;
    }
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
