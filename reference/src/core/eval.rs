//! TFP'18 §2.3, Figs. 3–4: the big-step semantics `Σ ⊢ e ↓ r` with
//! closures and `err`, and the auxiliary loop judgment
//! `Σ; x = v0; y = (vi) ⊢ e ↓ r`.
//!
//! One function per judgment ([`Evaluator::eval`], [`Evaluator::eval_loop`]),
//! one arm per rule. `err` is [`Failure::Err`] and carries the message and
//! source span of the check that failed (index, update, size, division).
//! The error-propagating twins of every rule (E-AppErr1 etc., omitted from
//! the paper's figure) are one rule here, `TFP18 E-Err`, fired where a
//! premise's `err` becomes the conclusion's (the `?` after [`premise`]):
//! premises are evaluated left to right, so the first failing premise decides.
//!
//! Evaluation always terminates on well-typed programs (Lemma 1) except for
//! `while` loops (an extension); every step costs fuel, and running out is
//! [`Failure::OutOfFuel`], which is not `err`. Extension (SPEC_NOTES
//! TFP18-29): an array whose size comes from values (`iota`, `replicate`,
//! ranges, `concat`) is admitted by the memory limit
//! ([`spec::memory::MemoryLimit::admit`]) before it is built; refused, it is
//! [`Failure::MemoryLimit`], which is not `err` either.

use super::primitive;
use super::syntax::{
    BinOp, Expr, ExprKind, Intrinsic, Lambda, LiftedFunction, LoopForm, Name, Pat, PrimValue,
    ReduceKind, UnOp,
};
use super::value::{
    blank, empty_shape_of_type, shape_of, ArrayValue, Closure, Shape, Value, ValueEnv,
};
use crate::derivation::fire_rule;
use spec::memory::{MemoryLimit, MemoryLimitExceeded};
use spec::source::Span;
use std::collections::HashMap;
use std::rc::Rc;

/// The bytes of data of a value of `shape` as Futhark lays it out: its
/// primitive leaves; a sum value's tag byte and the payload of its
/// constructor (SPEC_NOTES TFP18-29); nothing for what is unknown.
fn data_bytes(shape: &Shape) -> u64 {
    match shape {
        Shape::Prim(t) => t.byte_size() as u64,
        Shape::Array(rows, row) => (*rows as u64).saturating_mul(data_bytes(row)),
        Shape::Record(fields) => fields.values().map(data_bytes).fold(0, u64::saturating_add),
        Shape::Sum(_, payload) => payload.iter().map(data_bytes).fold(1, u64::saturating_add),
        Shape::Unknown => 0,
    }
}

/// `err`: a run-time error at a source location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    pub message: String,
    pub span: Span,
}

/// Why evaluation gave no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The result `err` of Fig. 3.
    Err(RuntimeError),
    /// The step limit was reached (not a result of the semantics).
    OutOfFuel { span: Span },
    /// The memory limit refused the array built at `span` (not a result of
    /// the semantics either).
    MemoryLimit {
        exceeded: MemoryLimitExceeded,
        span: Span,
    },
    /// No rule applies: the program is ill-typed (never happens after the
    /// typing judgment accepted it; reported rather than panicking).
    Stuck { message: String, span: Span },
}

/// r: a result, `v` or `err` (and the two non-results above).
pub type EvalResult = Result<Value, Failure>;

/// The default step limit.
pub const DEFAULT_FUEL: u64 = 20_000_000;

/// The most steps the probe for the row shape of a `map` over an empty
/// array may take ([`Evaluator::empty_map_row_shape`]).
pub const PROBE_FUEL: u64 = 100_000;

/// A premise's result: its `err` propagates (rule E-Err, the twins of Fig. 3).
fn premise(r: EvalResult) -> EvalResult {
    if let Err(Failure::Err(_)) = &r {
        // TFP18 E-Err
        fire_rule("TFP18 E-Err");
    }
    r
}

fn err(message: impl Into<String>, span: Span) -> Failure {
    Failure::Err(RuntimeError {
        message: message.into(),
        span,
    })
}

fn stuck(message: impl Into<String>, span: Span) -> Failure {
    Failure::Stuck {
        message: message.into(),
        span,
    }
}

/// The evaluator: fuel, the memory limit, and the lifted functions of a
/// target program.
pub struct Evaluator {
    pub fuel: u64,
    memory_limit: MemoryLimit,
    functions: HashMap<Name, Rc<LiftedFunction>>,
    /// Whether the evaluation is an empty `map`'s row probe
    /// ([`Self::empty_map_row_shape`]), where an index past an array's end
    /// reads a blank row of the array's row shape.
    probing: bool,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(DEFAULT_FUEL)
    }
}

impl Evaluator {
    pub fn new(fuel: u64) -> Evaluator {
        Evaluator {
            fuel,
            memory_limit: MemoryLimit::of_this_machine(),
            functions: HashMap::new(),
            probing: false,
        }
    }

    /// Arrays built from values must fit `limit` (this machine's default
    /// otherwise).
    pub fn with_memory_limit(mut self, limit: MemoryLimit) -> Evaluator {
        self.memory_limit = limit;
        self
    }

    /// Extension (SPEC_NOTES TFP18-29): an array of `rows` rows of
    /// `row_shape` may be built at `span`.
    fn admit(&self, rows: u64, row_shape: &Shape, span: Span) -> Result<(), Failure> {
        self.memory_limit
            .admit(rows, data_bytes(row_shape))
            .map_err(|exceeded| {
                // Extension: TFP18 E-MemoryLimit
                fire_rule("TFP18 E-MemoryLimit");
                Failure::MemoryLimit { exceeded, span }
            })
    }

    /// Makes lifted functions callable (target programs).
    pub fn with_functions(mut self, functions: &[LiftedFunction]) -> Evaluator {
        for f in functions {
            self.functions.insert(f.name.clone(), Rc::new(f.clone()));
        }
        self
    }

    fn tick(&mut self, span: Span) -> Result<(), Failure> {
        if self.fuel == 0 {
            return Err(Failure::OutOfFuel { span });
        }
        self.fuel -= 1;
        Ok(())
    }

    fn prim(&self, v: &Value, span: Span) -> Result<PrimValue, Failure> {
        v.as_prim()
            .ok_or_else(|| stuck("expected a primitive value", span))
    }

    fn index_of(&self, v: &Value, span: Span) -> Result<i64, Failure> {
        let p = self.prim(v, span)?;
        primitive::as_index(p).ok_or_else(|| stuck("expected an integer", span))
    }

    fn array(&self, v: Value, span: Span) -> Result<Rc<ArrayValue>, Failure> {
        match v {
            Value::Array(rows) => Ok(rows),
            _ => Err(stuck("expected an array", span)),
        }
    }

    /// Applies a closure to an argument (the last premise of E-App).
    pub fn apply(&mut self, function: Value, argument: Value, span: Span) -> EvalResult {
        match function {
            Value::Closure(closure) => {
                let env = closure.env.update(closure.lambda.param.clone(), argument);
                premise(self.eval(&env, &closure.lambda.body))
            }
            _ => Err(stuck("applying a value that is not a function", span)),
        }
    }

    /// Σ ⊢ e ↓ r.
    pub fn eval(&mut self, env: &ValueEnv, expr: &Expr) -> EvalResult {
        crate::derivation::judgment(Some(expr.span), || self.eval_inner(env, expr))
    }

    fn eval_inner(&mut self, env: &ValueEnv, expr: &Expr) -> EvalResult {
        self.tick(expr.span)?;
        let span = expr.span;
        match &expr.kind {
            ExprKind::Var { name, .. } => {
                // TFP18 E-Var
                fire_rule("TFP18 E-Var");
                env.get(name)
                    .cloned()
                    .ok_or_else(|| stuck(format!("unbound variable {name}"), span))
            }
            ExprKind::Literal(PrimValue::Bool(true)) => {
                // TFP18 E-True
                fire_rule("TFP18 E-True");
                Ok(Value::bool(true))
            }
            ExprKind::Literal(PrimValue::Bool(false)) => {
                // TFP18 E-False
                fire_rule("TFP18 E-False");
                Ok(Value::bool(false))
            }
            ExprKind::Literal(p @ (PrimValue::F32(_) | PrimValue::F64(_))) => {
                // Extension: TFP18 E-Float
                fire_rule("TFP18 E-Float");
                Ok(Value::Prim(*p))
            }
            ExprKind::Literal(p) => {
                // TFP18 E-Num
                fire_rule("TFP18 E-Num");
                Ok(Value::Prim(*p))
            }
            ExprKind::BinOp {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                // TFP18 E-Plus
                fire_rule("TFP18 E-Plus");
                let n1 = premise(self.eval(env, lhs))?;
                let n2 = premise(self.eval(env, rhs))?;
                let (n1, n2) = (self.prim(&n1, span)?, self.prim(&n2, span)?);
                primitive::binary(BinOp::Add, n1, n2)
                    .map(Value::Prim)
                    .map_err(|m| stuck(m, span))
            }
            ExprKind::BinOp {
                op: BinOp::Le,
                lhs,
                rhs,
            } => {
                let n1 = premise(self.eval(env, lhs))?;
                let n2 = premise(self.eval(env, rhs))?;
                let (n1, n2) = (self.prim(&n1, span)?, self.prim(&n2, span)?);
                let b = primitive::binary(BinOp::Le, n1, n2).map_err(|m| stuck(m, span))?;
                if b == PrimValue::Bool(true) {
                    // TFP18 E-LeqT
                    fire_rule("TFP18 E-LeqT");
                } else {
                    // TFP18 E-LeqF
                    fire_rule("TFP18 E-LeqF");
                }
                Ok(Value::Prim(b))
            }
            ExprKind::BinOp {
                op: op @ (BinOp::And | BinOp::Or),
                lhs,
                rhs,
            } => {
                // Extension: TFP18 E-ShortCircuit
                fire_rule("TFP18 E-ShortCircuit");
                let b1 = premise(self.eval(env, lhs))?;
                match (op, self.prim(&b1, span)?) {
                    (BinOp::And, PrimValue::Bool(false)) => Ok(b1),
                    (BinOp::Or, PrimValue::Bool(true)) => Ok(b1),
                    _ => premise(self.eval(env, rhs)),
                }
            }
            ExprKind::BinOp {
                op: op @ (BinOp::Eq | BinOp::Neq),
                lhs,
                rhs,
            } => {
                // Extension: TFP18 E-Equal
                fire_rule("TFP18 E-Equal");
                let v1 = premise(self.eval(env, lhs))?;
                let v2 = premise(self.eval(env, rhs))?;
                let equal = structurally_equal(&v1, &v2)
                    .ok_or_else(|| stuck("comparing functions", span))?;
                Ok(Value::bool(equal == (*op == BinOp::Eq)))
            }
            ExprKind::BinOp { op, lhs, rhs } => {
                let n1 = premise(self.eval(env, lhs))?;
                let n2 = premise(self.eval(env, rhs))?;
                let (n1, n2) = (self.prim(&n1, span)?, self.prim(&n2, span)?);
                match primitive::binary(*op, n1, n2) {
                    Ok(v) => {
                        // Extension: TFP18 E-BinOp
                        fire_rule("TFP18 E-BinOp");
                        Ok(Value::Prim(v))
                    }
                    Err(message) => {
                        // Extension: TFP18 E-BinOpErr
                        fire_rule("TFP18 E-BinOpErr");
                        Err(err(message, span))
                    }
                }
            }
            ExprKind::UnOp { op, operand } => {
                // Extension: TFP18 E-UnOp
                fire_rule("TFP18 E-UnOp");
                let v = premise(self.eval(env, operand))?;
                let p = self.prim(&v, span)?;
                primitive::unary(*op, p)
                    .map(Value::Prim)
                    .map_err(|m| stuck(m, span))
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                let c = premise(self.eval(env, condition))?;
                match self.prim(&c, span)? {
                    PrimValue::Bool(true) => {
                        // TFP18 E-IfT
                        fire_rule("TFP18 E-IfT");
                        premise(self.eval(env, then_branch))
                    }
                    PrimValue::Bool(false) => {
                        // TFP18 E-IfF
                        fire_rule("TFP18 E-IfF");
                        premise(self.eval(env, else_branch))
                    }
                    _ => Err(stuck("condition is not a boolean", span)),
                }
            }
            ExprKind::Lambda(lambda) => {
                // TFP18 E-Lam
                fire_rule("TFP18 E-Lam");
                Ok(Value::Closure(Rc::new(Closure {
                    lambda: lambda.clone(),
                    env: env.clone(),
                })))
            }
            ExprKind::Apply { function, argument } => {
                // TFP18 E-App
                fire_rule("TFP18 E-App");
                let f = premise(self.eval(env, function))?;
                let v2 = premise(self.eval(env, argument))?;
                self.apply(f, v2, span)
            }
            ExprKind::Let { name, value, body } => {
                // TFP18 E-Let
                fire_rule("TFP18 E-Let");
                let v1 = premise(self.eval(env, value))?;
                let env = env.update(name.clone(), v1);
                premise(self.eval(&env, body))
            }
            ExprKind::Record(fields) => {
                // TFP18 E-Rcd
                fire_rule("TFP18 E-Rcd");
                let mut out = std::collections::BTreeMap::new();
                for (label, e) in fields {
                    let v = premise(self.eval(env, e))?;
                    out.insert(label.clone(), v);
                }
                Ok(Value::record(out))
            }
            ExprKind::Project { record, label } => {
                // TFP18 E-Proj
                fire_rule("TFP18 E-Proj");
                match premise(self.eval(env, record))? {
                    Value::Record(fields) => fields
                        .get(label)
                        .cloned()
                        .ok_or_else(|| stuck(format!("no field {label}"), span)),
                    _ => Err(stuck("projection from a non-record", span)),
                }
            }
            ExprKind::Array {
                elements,
                elem_type,
            } => {
                // TFP18 E-Array
                fire_rule("TFP18 E-Array");
                let mut rows = Vec::with_capacity(elements.len());
                for e in elements {
                    rows.push(premise(self.eval(env, e))?);
                }
                Ok(Value::array(rows, empty_shape_of_type(elem_type)))
            }
            ExprKind::Index { array, index } => {
                let a = premise(self.eval(env, array))?;
                let i = premise(self.eval(env, index))?;
                let rows = self.array(a, span)?;
                let i = self.index_of(&i, span)?;
                if 0 <= i && (i as usize) < rows.len() {
                    // TFP18 E-Index
                    fire_rule("TFP18 E-Index");
                    Ok(rows[i as usize].clone())
                } else if let Some(row) = self.probing.then(|| blank(&rows.row_shape())).flatten() {
                    // Not a rule: the probe of an empty `map`'s row shape
                    // reads a blank row where the array has none (the
                    // function may index the empty array itself).
                    Ok(row)
                } else {
                    // TFP18 E-IndexErr
                    fire_rule("TFP18 E-IndexErr");
                    Err(err(
                        format!(
                            "Index [{i}] out of bounds for array of shape [{}].",
                            rows.len()
                        ),
                        span,
                    ))
                }
            }
            ExprKind::Update {
                array,
                index,
                value,
            } => {
                let a = premise(self.eval(env, array))?;
                let i = premise(self.eval(env, index))?;
                let v = premise(self.eval(env, value))?;
                let rows = self.array(a, span)?;
                let i = self.index_of(&i, span)?;
                if 0 <= i && (i as usize) < rows.len() {
                    // TFP18 E-Update
                    fire_rule("TFP18 E-Update");
                    let row_shape = rows.row_shape();
                    let mut rows = rows.to_vec();
                    rows[i as usize] = v;
                    Ok(Value::array(rows, row_shape))
                } else {
                    // TFP18 E-UpdateErr
                    fire_rule("TFP18 E-UpdateErr");
                    Err(err(
                        format!(
                            "Index [{i}] out of bounds for array of shape [{}].",
                            rows.len()
                        ),
                        span,
                    ))
                }
            }
            ExprKind::Length(array) => {
                // TFP18 E-Length
                fire_rule("TFP18 E-Length");
                let a = premise(self.eval(env, array))?;
                Ok(Value::i64(self.array(a, span)?.len() as i64))
            }
            ExprKind::Map { param, body, array } => {
                // TFP18 E-Map
                fire_rule("TFP18 E-Map");
                let a = premise(self.eval(env, array))?;
                let rows = self.array(a, span)?;
                let mut out = Vec::with_capacity(rows.len());
                for v in rows.iter() {
                    let env = env.update(param.clone(), v.clone());
                    out.push(premise(self.eval(&env, body))?);
                }
                let row_shape = if out.is_empty() {
                    self.empty_map_row_shape(env, param, body, &rows.row_shape())
                } else {
                    Shape::Unknown
                };
                Ok(Value::array(out, row_shape))
            }
            ExprKind::Loop {
                param,
                init,
                form: LoopForm::ForIn { var, array },
                body,
                ..
            } => {
                // TFP18 E-Loop
                fire_rule("TFP18 E-Loop");
                let v0 = premise(self.eval(env, init))?;
                let a = premise(self.eval(env, array))?;
                let rows = self.array(a, span)?;
                premise(self.eval_loop(env, param, v0, var, &rows, body))
            }
            ExprKind::Loop {
                param,
                init,
                form: LoopForm::While { condition },
                body,
                ..
            } => {
                // Extension: TFP18 E-While
                fire_rule("TFP18 E-While");
                let mut v = premise(self.eval(env, init))?;
                loop {
                    self.tick(span)?;
                    let inner = env.update(param.clone(), v.clone());
                    let c = premise(self.eval(&inner, condition))?;
                    if self.prim(&c, span)? != PrimValue::Bool(true) {
                        return Ok(v);
                    }
                    v = premise(self.eval(&inner, body))?;
                }
            }
            ExprKind::Reduce {
                kind,
                x,
                y,
                operator,
                neutral,
                array,
            } => {
                let ne = premise(self.eval(env, neutral))?;
                let a = premise(self.eval(env, array))?;
                let rows = self.array(a, span)?;
                let mut acc = ne;
                let mut scanned = Vec::new();
                for v in rows.iter() {
                    let inner = env.update(x.clone(), acc).update(y.clone(), v.clone());
                    acc = premise(self.eval(&inner, operator))?;
                    if *kind == ReduceKind::Scan {
                        scanned.push(acc.clone());
                    }
                }
                match kind {
                    ReduceKind::Reduce => {
                        // Extension: TFP18 E-Reduce
                        fire_rule("TFP18 E-Reduce");
                        Ok(acc)
                    }
                    ReduceKind::Scan => {
                        // Extension: TFP18 E-Scan
                        fire_rule("TFP18 E-Scan");
                        Ok(Value::array(scanned, rows.row_shape()))
                    }
                }
            }
            ExprKind::Filter {
                param,
                predicate,
                array,
            } => {
                // Extension: TFP18 E-Filter
                fire_rule("TFP18 E-Filter");
                let a = premise(self.eval(env, array))?;
                let rows = self.array(a, span)?;
                let mut out = Vec::new();
                for v in rows.iter() {
                    let inner = env.update(param.clone(), v.clone());
                    let keep = premise(self.eval(&inner, predicate))?;
                    if self.prim(&keep, span)? == PrimValue::Bool(true) {
                        out.push(v.clone());
                    }
                }
                Ok(Value::array(out, rows.row_shape()))
            }
            ExprKind::ReduceByIndex {
                dest,
                x,
                y,
                operator,
                neutral,
                indices,
                values,
            } => {
                let d = premise(self.eval(env, dest))?;
                let _ne = premise(self.eval(env, neutral))?;
                let is = premise(self.eval(env, indices))?;
                let vs = premise(self.eval(env, values))?;
                let (d, is, vs) = (
                    self.array(d, span)?,
                    self.array(is, span)?,
                    self.array(vs, span)?,
                );
                if is.len() != vs.len() {
                    // Extension: TFP18 E-ReduceByIndexErr
                    fire_rule("TFP18 E-ReduceByIndexErr");
                    return Err(err(
                        format!(
                            "Sizes of indices ({}) and values ({}) do not match.",
                            is.len(),
                            vs.len()
                        ),
                        span,
                    ));
                }
                // Extension: TFP18 E-ReduceByIndex
                fire_rule("TFP18 E-ReduceByIndex");
                let mut out = d.to_vec();
                for (i, v) in is.iter().zip(vs.iter()) {
                    let i = self.index_of(i, span)?;
                    if 0 <= i && (i as usize) < out.len() {
                        let inner = env
                            .update(x.clone(), out[i as usize].clone())
                            .update(y.clone(), v.clone());
                        out[i as usize] = premise(self.eval(&inner, operator))?;
                    }
                }
                Ok(Value::array(out, d.row_shape()))
            }
            ExprKind::Slice {
                array,
                start,
                end,
                stride,
            } => {
                let a = premise(self.eval(env, array))?;
                let rows = self.array(a, span)?;
                let part =
                    |e: &Option<Box<Expr>>, this: &mut Self| -> Result<Option<i64>, Failure> {
                        match e {
                            None => Ok(None),
                            Some(e) => {
                                let v = premise(this.eval(env, e))?;
                                Ok(Some(this.index_of(&v, span)?))
                            }
                        }
                    };
                let i = part(start, self)?;
                let j = part(end, self)?;
                let s = part(stride, self)?.unwrap_or(1);
                let n = rows.len() as i64;
                let (i, j) = if s > 0 {
                    (i.unwrap_or(0), j.unwrap_or(n))
                } else {
                    (i.unwrap_or(n - 1), j.unwrap_or(-1))
                };
                let ok = if s > 0 {
                    0 <= i && i <= j && j <= n
                } else {
                    s < 0 && -1 <= j && j <= i && i < n.max(j + 1)
                };
                if !ok {
                    // Extension: TFP18 E-SliceErr
                    fire_rule("TFP18 E-SliceErr");
                    return Err(err(
                        format!("Index [{i}:{j}:{s}] out of bounds for array of shape [{n}]."),
                        span,
                    ));
                }
                // Extension: TFP18 E-Slice
                fire_rule("TFP18 E-Slice");
                let mut out = Vec::new();
                let mut k = i;
                while (s > 0 && k < j) || (s < 0 && k > j) {
                    out.push(rows[k as usize].clone());
                    k += s;
                }
                Ok(Value::array(out, rows.row_shape()))
            }
            ExprKind::Intrinsic { op, args } => {
                let mut vs = Vec::with_capacity(args.len());
                for a in args {
                    vs.push(premise(self.eval(env, a))?);
                }
                self.intrinsic(op, vs, span)
            }
            ExprKind::Assert {
                condition,
                message,
                body,
            } => {
                let c = premise(self.eval(env, condition))?;
                if self.prim(&c, span)? == PrimValue::Bool(true) {
                    // Extension: TFP18 E-Assert
                    fire_rule("TFP18 E-Assert");
                    premise(self.eval(env, body))
                } else {
                    // Extension: TFP18 E-AssertErr
                    fire_rule("TFP18 E-AssertErr");
                    Err(err(message.clone(), span))
                }
            }
            ExprKind::Constructor { name, payload, .. } => {
                // Extension: TFP18 E-Constructor
                fire_rule("TFP18 E-Constructor");
                let mut vs = Vec::new();
                for e in payload {
                    vs.push(premise(self.eval(env, e))?);
                }
                Ok(Value::Sum(name.clone(), vs))
            }
            ExprKind::Match { scrutinee, cases } => {
                let v = premise(self.eval(env, scrutinee))?;
                for (pat, body) in cases {
                    let mut bound = env.clone();
                    if match_pattern(pat, &v, &mut bound) {
                        // Extension: TFP18 E-Match
                        fire_rule("TFP18 E-Match");
                        return premise(self.eval(&bound, body));
                    }
                }
                // No case matches: unreachable for a well-typed program, whose
                // matches are exhaustive (rule T-MatchExhaustive, SPEC_NOTES
                // TFP18-18); kept as err for terms evaluated untyped.
                Err(err("no case of the match matches the value", span))
            }
            ExprKind::Call { function, args } => {
                // Extension: TFP18 E-Call
                fire_rule("TFP18 E-Call");
                let f = self
                    .functions
                    .get(function)
                    .cloned()
                    .ok_or_else(|| stuck(format!("unknown function {function}"), span))?;
                let mut inner = ValueEnv::new();
                for ((param, _), a) in f.params.iter().zip(args) {
                    let v = premise(self.eval(env, a))?;
                    inner.insert(param.clone(), v);
                }
                premise(self.eval(&inner, &f.body))
            }
        }
    }

    /// Fig. 4: `Σ; x = v0; y = (vi) ⊢ e ↓ r`, iterated rather than recursed
    /// (EL-Cons peels one element; EL-Nil ends).
    pub fn eval_loop(
        &mut self,
        env: &ValueEnv,
        x: &Name,
        v0: Value,
        y: &Name,
        rows: &[Value],
        body: &Expr,
    ) -> EvalResult {
        let mut acc = v0;
        for v in rows {
            // TFP18 EL-Cons
            fire_rule("TFP18 EL-Cons");
            let inner = env.update(x.clone(), acc).update(y.clone(), v.clone());
            acc = premise(self.eval(&inner, body))?;
        }
        // TFP18 EL-Nil
        fire_rule("TFP18 EL-Nil");
        Ok(acc)
    }

    /// The shape of the rows of `map (λx. e) v` where `v` is empty (SPEC_NOTES
    /// TFP18-6): the shape of `e` evaluated with `x` bound to a blank row of
    /// `v`'s row shape (zeros). A well-typed `map`'s row sizes are fixed
    /// before the call (its type is `[n]a → (a → b) → [n]b`), so any row gives
    /// them. The probe is not part of the derivation: it fires no rule,
    /// spends at most [`PROBE_FUEL`] steps of the fuel, reads a blank row
    /// where it indexes past an array's end (the function may read the
    /// empty array itself: `map (\i -> board[i, 0]) (iota n)` with n = 0),
    /// and a probe that fails otherwise leaves the shape unknown (its
    /// dimensions read as 0).
    fn empty_map_row_shape(
        &mut self,
        env: &ValueEnv,
        param: &Name,
        body: &Expr,
        row_shape: &Shape,
    ) -> Shape {
        let Some(row) = blank(row_shape) else {
            return Shape::Unknown;
        };
        let budget = self.fuel.min(PROBE_FUEL);
        let saved = self.fuel;
        self.fuel = budget;
        let was_probing = std::mem::replace(&mut self.probing, true);
        let inner = env.update(param.clone(), row);
        let result = crate::coverage::muted(|| self.eval(&inner, body));
        self.probing = was_probing;
        self.fuel = saved - (budget - self.fuel);
        match result {
            Ok(v) => shape_of(&v),
            Err(_) => Shape::Unknown,
        }
    }

    fn intrinsic(&mut self, op: &Intrinsic, args: Vec<Value>, span: Span) -> EvalResult {
        let fail = |m: String| {
            // Extension: TFP18 E-IntrinsicErr
            fire_rule("TFP18 E-IntrinsicErr");
            Err(err(m, span))
        };
        let mut args = args.into_iter();
        let mut next = || args.next().ok_or_else(|| stuck("missing argument", span));
        let result = match op {
            Intrinsic::Iota => {
                let n = next()?;
                let p = self.prim(&n, span)?;
                let count = primitive::as_index(p).unwrap_or(-1);
                if count < 0 {
                    return fail(format!("Range 0..1..<{count} is invalid."));
                }
                self.admit(count as u64, &Shape::Prim(p.prim_type()), span)?;
                Value::array(
                    (0..count)
                        .map(|i| Value::Prim(primitive::from_i64(i, p.prim_type())))
                        .collect(),
                    Shape::Prim(p.prim_type()),
                )
            }
            Intrinsic::Replicate => {
                let n = self.index_of(&next()?, span)?;
                let v = next()?;
                if n < 0 {
                    return fail(format!(
                        "Cannot replicate a negative number ({n}) of times."
                    ));
                }
                let row_shape = shape_of(&v);
                self.admit(n as u64, &row_shape, span)?;
                Value::array(vec![v; n as usize], row_shape)
            }
            Intrinsic::Zip(k) => {
                let arrays = (0..*k)
                    .map(|_| next().and_then(|a| self.array(a, span)))
                    .collect::<Result<Vec<_>, _>>()?;
                let n = arrays[0].len();
                if let Some(bad) = arrays.iter().find(|a| a.len() != n) {
                    return fail(format!(
                        "Sizes [{n}] and [{}] do not match in zip.",
                        bad.len()
                    ));
                }
                let row_shape = Shape::Record(
                    arrays
                        .iter()
                        .enumerate()
                        .map(|(i, a)| (i.to_string(), a.row_shape()))
                        .collect(),
                );
                Value::array(
                    (0..n)
                        .map(|i| Value::tuple(arrays.iter().map(|a| a[i].clone()).collect()))
                        .collect(),
                    row_shape,
                )
            }
            Intrinsic::Unzip(k) => {
                let rows = self.array(next()?, span)?;
                let mut columns = vec![Vec::with_capacity(rows.len()); *k];
                for row in rows.iter() {
                    match row {
                        Value::Record(fields) => {
                            for (i, column) in columns.iter_mut().enumerate() {
                                column.push(fields[&i.to_string()].clone());
                            }
                        }
                        _ => return Err(stuck("unzip of non-tuples", span)),
                    }
                }
                let row_shape = rows.row_shape();
                let column_shape = |i: usize| match &row_shape {
                    Shape::Record(fields) => fields
                        .get(&i.to_string())
                        .cloned()
                        .unwrap_or(Shape::Unknown),
                    _ => Shape::Unknown,
                };
                Value::tuple(
                    columns
                        .into_iter()
                        .enumerate()
                        .map(|(i, column)| Value::array(column, column_shape(i)))
                        .collect(),
                )
            }
            Intrinsic::Concat => {
                let a = self.array(next()?, span)?;
                let b = self.array(next()?, span)?;
                let row_shape = if a.is_empty() && !b.is_empty() {
                    b.row_shape()
                } else {
                    a.row_shape()
                };
                self.admit((a.len() + b.len()) as u64, &row_shape, span)?;
                Value::array(a.iter().chain(b.iter()).cloned().collect(), row_shape)
            }
            Intrinsic::Transpose => {
                let rows = self.array(next()?, span)?;
                let inner = rows
                    .iter()
                    .map(|r| self.array(r.clone(), span))
                    .collect::<Result<Vec<_>, _>>()?;
                // [n][m]t becomes [m][n]t; with n = 0, m and t are in the
                // row shape.
                let (m, elem_shape) = match rows.row_shape() {
                    Shape::Array(m, elem) => (m, (*elem).clone()),
                    _ => (0, Shape::Unknown),
                };
                // A well-typed program's rows all have m elements; an
                // ill-sized value (the size-agnostic argument V-Clos's check
                // applies a closure to: relations::value_has_type) is stuck.
                if inner.iter().any(|r| r.len() != m) {
                    return Err(stuck("transpose of rows of different sizes", span));
                }
                Value::array(
                    (0..m)
                        .map(|j| {
                            Value::array(
                                inner.iter().map(|r| r[j].clone()).collect(),
                                elem_shape.clone(),
                            )
                        })
                        .collect(),
                    Shape::Array(rows.len(), Rc::new(elem_shape.clone())),
                )
            }
            Intrinsic::Flatten => {
                let rows = self.array(next()?, span)?;
                let mut out = Vec::new();
                for r in rows.iter() {
                    out.extend(self.array(r.clone(), span)?.iter().cloned());
                }
                let elem_shape = match rows.row_shape() {
                    Shape::Array(_, elem) => (*elem).clone(),
                    _ => Shape::Unknown,
                };
                Value::array(out, elem_shape)
            }
            Intrinsic::Unflatten => {
                let n = self.index_of(&next()?, span)?;
                let m = self.index_of(&next()?, span)?;
                let rows = self.array(next()?, span)?;
                if n < 0 || m < 0 || n.checked_mul(m) != Some(rows.len() as i64) {
                    return fail(format!(
                        "Cannot unflatten array of shape [{}] to array of shape [{n}][{m}].",
                        rows.len()
                    ));
                }
                let elem_shape = rows.row_shape();
                Value::array(
                    (0..n as usize)
                        .map(|i| {
                            Value::array(
                                rows[i * m as usize..(i + 1) * m as usize].to_vec(),
                                elem_shape.clone(),
                            )
                        })
                        .collect(),
                    Shape::Array(m as usize, Rc::new(elem_shape.clone())),
                )
            }
            Intrinsic::Reverse => {
                let rows = self.array(next()?, span)?;
                Value::array(rows.iter().rev().cloned().collect(), rows.row_shape())
            }
            Intrinsic::Rotate => {
                let r = self.index_of(&next()?, span)?;
                let rows = self.array(next()?, span)?;
                let n = rows.len() as i64;
                Value::array(
                    (0..n)
                        .map(|i| rows[(i + r).rem_euclid(n.max(1)) as usize].clone())
                        .collect(),
                    rows.row_shape(),
                )
            }
            Intrinsic::Scatter => {
                let dest = self.array(next()?, span)?;
                let is = self.array(next()?, span)?;
                let vs = self.array(next()?, span)?;
                if is.len() != vs.len() {
                    return fail(format!(
                        "Sizes of indices ({}) and values ({}) do not match in scatter.",
                        is.len(),
                        vs.len()
                    ));
                }
                let mut out = dest.to_vec();
                for (i, v) in is.iter().zip(vs.iter()) {
                    let i = self.index_of(i, span)?;
                    if 0 <= i && (i as usize) < out.len() {
                        out[i as usize] = v.clone();
                    }
                }
                Value::array(out, dest.row_shape())
            }
            Intrinsic::Range(kind) => {
                let start = self.prim(&next()?, span)?;
                let step = self.prim(&next()?, span)?;
                let end = self.prim(&next()?, span)?;
                let t = start.prim_type();
                let (s, d, e) = (
                    primitive::as_index(start).unwrap_or(0) as i128,
                    primitive::as_index(step).unwrap_or(0) as i128,
                    primitive::as_index(end).unwrap_or(0) as i128,
                );
                let symbol = match kind {
                    super::syntax::RangeKind::Inclusive => "...",
                    super::syntax::RangeKind::UpToExclusive => "..<",
                    super::syntax::RangeKind::DownToExclusive => "..>",
                };
                let count = match kind {
                    super::syntax::RangeKind::Inclusive if d > 0 && e >= s => (e - s) / d + 1,
                    super::syntax::RangeKind::Inclusive if d < 0 && e <= s => (s - e) / -d + 1,
                    super::syntax::RangeKind::UpToExclusive if d > 0 && e >= s => {
                        (e - s + d - 1) / d
                    }
                    super::syntax::RangeKind::DownToExclusive if d < 0 && e <= s => {
                        (s - e - d - 1) / -d
                    }
                    _ => -1,
                };
                if count < 0 {
                    return fail(format!(
                        "Range {start}..{}{symbol}{end} is invalid.",
                        primitive::from_i64((s + d) as i64, t)
                    ));
                }
                self.admit(
                    u64::try_from(count).unwrap_or(u64::MAX),
                    &Shape::Prim(t),
                    span,
                )?;
                Value::array(
                    (0..count)
                        .map(|i| Value::Prim(primitive::from_i64((s + i * d) as i64, t)))
                        .collect(),
                    Shape::Prim(t),
                )
            }
            Intrinsic::Dim(k) => {
                // Dimension k of the value's shape: below an empty
                // dimension, the row shape the array remembers (TFP18-6);
                // 0 where that is unknown.
                let v = next()?;
                self.array(v.clone(), span)?;
                let mut shape = shape_of(&v);
                let mut size = 0;
                for _ in 0..=*k {
                    match shape {
                        Shape::Array(n, row) => {
                            size = n;
                            shape = (*row).clone();
                        }
                        _ => {
                            size = 0;
                            break;
                        }
                    }
                }
                Value::i64(size as i64)
            }
            Intrinsic::Convert(to) => {
                let p = self.prim(&next()?, span)?;
                Value::Prim(primitive::convert(p, *to))
            }
            Intrinsic::Reinterpret(to) => {
                let p = self.prim(&next()?, span)?;
                match primitive::reinterpret(p, *to) {
                    Ok(v) => Value::Prim(v),
                    Err(m) => return fail(m),
                }
            }
            Intrinsic::Math(f) => {
                let mut ps = Vec::new();
                for _ in 0..f.arity() {
                    ps.push(self.prim(&next()?, span)?);
                }
                match primitive::math(*f, &ps) {
                    Ok(v) => Value::Prim(v),
                    Err(m) => return fail(m),
                }
            }
        };
        // Extension: TFP18 E-Intrinsic
        fire_rule("TFP18 E-Intrinsic");
        Ok(result)
    }
}

/// Futhark's `==` on order-zero values: primitives by IEEE equality (so NaN
/// differs from itself and `-0.0 == 0.0`), arrays of different lengths are
/// different, everything else componentwise; `None` for functions.
pub fn structurally_equal(a: &Value, b: &Value) -> Option<bool> {
    Some(match (a, b) {
        (Value::Prim(x), Value::Prim(y)) => {
            primitive::binary(BinOp::Eq, *x, *y).ok()? == PrimValue::Bool(true)
        }
        (Value::Record(xs), Value::Record(ys)) => {
            let mut all = xs.len() == ys.len();
            for (l, x) in xs.iter() {
                all &= structurally_equal(x, ys.get(l)?)?;
            }
            all
        }
        (Value::Array(xs), Value::Array(ys)) => {
            let mut all = xs.len() == ys.len();
            for (x, y) in xs.iter().zip(ys.iter()) {
                all &= structurally_equal(x, y)?;
            }
            all
        }
        (Value::Sum(c, xs), Value::Sum(d, ys)) => {
            let mut all = c == d && xs.len() == ys.len();
            for (x, y) in xs.iter().zip(ys) {
                all &= structurally_equal(x, y)?;
            }
            all
        }
        _ => return None,
    })
}

/// Whether `v` matches `pat`, binding its variables into `env`.
pub fn match_pattern(pat: &Pat, v: &Value, env: &mut ValueEnv) -> bool {
    match (pat, v) {
        (Pat::Wildcard, _) => true,
        (Pat::Var(x), v) => {
            env.insert(x.clone(), v.clone());
            true
        }
        (Pat::Literal(p), Value::Prim(q)) => p == q,
        (Pat::Record(fields), Value::Record(values)) => fields
            .iter()
            .all(|(l, p)| values.get(l).is_some_and(|fv| match_pattern(p, fv, env))),
        (Pat::Constructor(c, ps), Value::Sum(d, vs)) => {
            c == d
                && ps.len() == vs.len()
                && ps.iter().zip(vs).all(|(p, v)| match_pattern(p, v, env))
        }
        _ => false,
    }
}

/// Makes a closure value of a lambda in an environment (E-Lam), for callers
/// outside the evaluator.
pub fn closure(lambda: Rc<Lambda>, env: ValueEnv) -> Value {
    Value::Closure(Rc::new(Closure { lambda, env }))
}

/// `-v` for callers (used by tests).
pub fn negate(v: PrimValue) -> Option<PrimValue> {
    primitive::unary(UnOp::Neg, v).ok()
}
