//! Compilation of IR functions to closures.
//!
//! Every function body is compiled once into a vector of boxed closures, one
//! per statement, over a [`Frame`]: a vector of value slots. Every variable of
//! the function (parameters, pattern elements, loop and lambda parameters) is
//! resolved to its slot index at compile time, every primitive operation to a
//! function pointer, every callee to its index; running a statement is one
//! indirect call. SOACs are compiled here too and run by [`super::soac`].
//!
//! In-place updates: an `Update` (or a `Scatter`/`Hist` destination) whose
//! array is used for the last time by that statement and was bound in the
//! same body *moves* the array out of its slot, so that copy-on-write finds
//! it unshared; loop and branch bodies clear their locals after their results
//! are read, so that loop-carried arrays stay unshared between iterations.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::native;
use super::offload::{SoacCall, SoacOffload};
use super::ops::{self, SliceDim};
use super::prim;
use super::soac;
use super::value::{ArrayVal, Val};
use super::vector;
use super::RuntimeError;
use crate::ir::{
    Body, DimIndex, Exp, FunName, Function, Lambda, LoopForm, PrimType, PrimValue, Program, Soac,
    Span, SubExp, Type, VName,
};

/// The value slots of one function activation.
pub type Frame = Vec<Val>;

/// One compiled statement.
pub type Step = Box<dyn Fn(&mut Frame, &Machine) -> Result<(), RuntimeError> + Send + Sync>;

/// A compiled program: its functions, by index.
pub struct Machine {
    pub(crate) functions: Vec<CompiledFunction>,
    pub(crate) by_name: HashMap<FunName, usize>,
    pub(crate) statistics: BackendStatistics,
}

/// Which paths the backend compiled a program's SOACs for (`runestone
/// compile --timings` prints them; the optimisation oracle of `fuzz/` checks
/// that generated programs get the fast ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackendStatistics {
    /// SOAC statements compiled, nested ones included.
    pub soacs: usize,
    /// Those with a native (Cranelift) kernel.
    pub native: usize,
    /// Those with a vectorised form (block-vectorised or lane-parallel).
    pub vectorised: usize,
}

impl BackendStatistics {
    fn record(&mut self, soac: &soac::CompiledSoac) {
        let (native, vectorised) = soac.fast_paths();
        self.soacs += 1;
        self.native += usize::from(native);
        self.vectorised += usize::from(vectorised);
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: BackendStatistics) {
        self.soacs += other.soacs;
        self.native += other.native;
        self.vectorised += other.vectorised;
    }
}

pub(crate) struct CompiledFunction {
    pub frame_size: usize,
    pub params: Vec<usize>,
    pub body: CompiledBody,
}

/// An operand: a slot or a constant.
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    Slot(usize),
    Const(PrimValue),
}

impl Operand {
    #[inline]
    pub fn get(&self, frame: &Frame) -> Val {
        match self {
            Operand::Slot(s) => frame[*s].clone(),
            Operand::Const(c) => Val::Prim(*c),
        }
    }

    /// The primitive value (the checker guarantees one).
    #[inline]
    pub fn prim(&self, frame: &Frame) -> PrimValue {
        match self {
            Operand::Const(c) => *c,
            Operand::Slot(s) => match &frame[*s] {
                Val::Prim(p) => *p,
                Val::Array(_) => PrimValue::Bool(false),
            },
        }
    }

    /// The value as an `i64` (sizes and indices).
    #[inline]
    pub fn int(&self, frame: &Frame) -> i64 {
        prim::as_i64(self.prim(frame)).unwrap_or(0)
    }
}

/// A compiled body: its statements, its results, and the slots it binds
/// (cleared after loop and branch bodies).
pub(crate) struct CompiledBody {
    pub steps: Vec<Step>,
    pub result: Vec<Operand>,
    pub locals: Vec<usize>,
}

impl CompiledBody {
    #[inline]
    pub fn run(&self, frame: &mut Frame, machine: &Machine) -> Result<(), RuntimeError> {
        for step in &self.steps {
            step(frame, machine)?;
        }
        Ok(())
    }

    /// The results (after [`Self::run`]), then the locals cleared.
    pub fn take_results(&self, frame: &mut Frame) -> Vec<Val> {
        let results = self.result.iter().map(|r| r.get(frame)).collect();
        for &l in &self.locals {
            frame[l] = Val::default();
        }
        results
    }

    /// Like [`Self::take_results`], writing the results to `slots` (all
    /// read before any is written) without allocating when there are at
    /// most [`INLINE_RESULTS`] of them: a loop's iteration.
    pub fn take_results_into(&self, frame: &mut Frame, slots: &[usize]) {
        if self.result.len() > INLINE_RESULTS {
            for (slot, v) in slots.iter().zip(self.take_results(frame)) {
                frame[*slot] = v;
            }
            return;
        }
        let mut results: [Val; INLINE_RESULTS] = std::array::from_fn(|_| Val::default());
        for (value, r) in results.iter_mut().zip(&self.result) {
            *value = r.get(frame);
        }
        for &l in &self.locals {
            frame[l] = Val::default();
        }
        for (slot, v) in slots.iter().zip(results) {
            frame[*slot] = v;
        }
    }
}

/// Results a loop body hands back without a heap allocation.
const INLINE_RESULTS: usize = 8;

/// A type whose dimensions are read from the frame at run time.
#[derive(Clone, Debug)]
pub(crate) struct ShapeSpec {
    pub element: PrimType,
    pub dims: Vec<Operand>,
}

impl ShapeSpec {
    pub fn shape(&self, frame: &Frame) -> Vec<usize> {
        self.dims
            .iter()
            .map(|d| d.int(frame).max(0) as usize)
            .collect()
    }
}

pub(crate) struct CompiledLambda {
    pub params: Vec<usize>,
    pub body: CompiledBody,
    pub returns: Vec<ShapeSpec>,
}

impl CompiledLambda {
    /// Binds `args` to the parameters from position `from`, runs the body.
    #[inline]
    pub fn bind(&self, frame: &mut Frame, from: usize, args: impl Iterator<Item = Val>) {
        for (slot, v) in self.params[from..].iter().zip(args) {
            frame[*slot] = v;
        }
    }

    #[inline]
    pub fn run(&self, frame: &mut Frame, machine: &Machine) -> Result<(), RuntimeError> {
        self.body.run(frame, machine)
    }

    /// Result `k` (after a run).
    #[inline]
    pub fn result(&self, frame: &Frame, k: usize) -> Val {
        self.body.result[k].get(frame)
    }
}

/// An array operand: moved out of its slot at its last use, shared otherwise.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArrayRef {
    pub slot: usize,
    pub movable: bool,
}

impl ArrayRef {
    pub fn fetch(&self, frame: &mut Frame) -> ArrayVal {
        let v = if self.movable {
            std::mem::take(&mut frame[self.slot])
        } else {
            frame[self.slot].clone()
        };
        match v {
            Val::Array(a) => a,
            Val::Prim(_) => ArrayVal {
                shape: vec![0],
                data: super::value::Data::zeros(PrimType::Bool, 0),
            },
        }
    }
}

/// Borrows the array in `slot`.
#[inline]
pub(crate) fn array_at(frame: &Frame, slot: usize) -> &ArrayVal {
    match &frame[slot] {
        Val::Array(a) => a,
        Val::Prim(_) => {
            panic!("slot {slot} holds no array (the IR checker admits no such program)")
        }
    }
}

fn error(message: impl Into<String>, span: Span) -> RuntimeError {
    RuntimeError {
        message: message.into(),
        span,
    }
}

/// Compiles every function of a (checked) program.
pub fn compile_program(program: &Program) -> Machine {
    compile_program_with_offload(program, None)
}

/// Compiles every function of a (checked) program; the top-level SOAC
/// statements `offload` claims consult it when they run
/// ([`super::offload`]).
pub fn compile_program_with_offload(
    program: &Program,
    offload: Option<&Arc<dyn SoacOffload>>,
) -> Machine {
    let by_name: HashMap<FunName, usize> = program
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.clone(), i))
        .collect();
    let mut statistics = BackendStatistics::default();
    let functions = program
        .functions
        .iter()
        .enumerate()
        .map(|(index, f)| {
            let mut compiler = FunctionCompiler::new(&by_name);
            compiler.offload = offload.map(|o| (o.clone(), index));
            let (function, function_statistics) = compiler.function(f);
            statistics.add(function_statistics);
            function
        })
        .collect();
    Machine {
        functions,
        by_name,
        statistics,
    }
}

struct FunctionCompiler<'a> {
    slots: HashMap<VName, usize>,
    by_name: &'a HashMap<FunName, usize>,
    /// The offload and the index of the function being compiled.
    offload: Option<(Arc<dyn SoacOffload>, usize)>,
    /// True only while the next body compiled is the function's own.
    function_body_next: bool,
    statistics: BackendStatistics,
}

/// Calls `f` on every variable an expression mentions (nested bodies and
/// lambdas included).
fn names_in_exp(exp: &Exp, f: &mut impl FnMut(&VName)) {
    let sub = |s: &SubExp, f: &mut dyn FnMut(&VName)| {
        if let SubExp::Var(v) = s {
            f(v)
        }
    };
    match exp {
        Exp::SubExp(s) | Exp::UnOp { operand: s, .. } | Exp::ConvOp { operand: s, .. } => sub(s, f),
        Exp::BinOp { left, right, .. } | Exp::CmpOp { left, right, .. } => {
            sub(left, f);
            sub(right, f);
        }
        Exp::Apply { args, .. } => args.iter().for_each(|a| sub(a, f)),
        Exp::If {
            condition,
            then_body,
            else_body,
            ..
        } => {
            sub(condition, f);
            names_in_body(then_body, f);
            names_in_body(else_body, f);
        }
        Exp::Loop { params, form, body } => {
            for (p, init) in params {
                sub(init, f);
                p.ty.shape().iter().for_each(|d| sub(d, f));
            }
            match form {
                LoopForm::For { bound, .. } => sub(bound, f),
                LoopForm::While { condition_param } => f(condition_param),
            }
            names_in_body(body, f);
        }
        Exp::Index { array, indices } => {
            f(array);
            indices.iter().for_each(|i| sub(i, f));
        }
        Exp::Slice { array, slice } => {
            f(array);
            for d in slice {
                match d {
                    DimIndex::Fix(i) => sub(i, f),
                    DimIndex::Range {
                        start,
                        length,
                        stride,
                    } => {
                        sub(start, f);
                        sub(length, f);
                        sub(stride, f);
                    }
                }
            }
        }
        Exp::Update {
            array,
            indices,
            value,
        } => {
            f(array);
            indices.iter().for_each(|i| sub(i, f));
            sub(value, f);
        }
        Exp::Iota {
            length,
            start,
            step,
            ..
        } => {
            sub(length, f);
            sub(start, f);
            sub(step, f);
        }
        Exp::Replicate { shape, value } => {
            shape.iter().for_each(|d| sub(d, f));
            sub(value, f);
        }
        Exp::ArrayLiteral { elements, row_type } => {
            elements.iter().for_each(|e| sub(e, f));
            row_type.shape().iter().for_each(|d| sub(d, f));
        }
        Exp::Concat { arrays, length } => {
            arrays.iter().for_each(&mut *f);
            sub(length, f);
        }
        Exp::Rearrange { array, .. } | Exp::Reverse { array } | Exp::Copy { array } => f(array),
        Exp::Reshape { shape, array } => {
            shape.iter().for_each(|d| sub(d, f));
            f(array);
        }
        Exp::Rotate { amount, array } => {
            sub(amount, f);
            f(array);
        }
        Exp::Assert {
            condition,
            operands,
            ..
        } => {
            sub(condition, f);
            operands.iter().for_each(|o| sub(o, f));
        }
        Exp::Soac(soac) => {
            sub(soac.width(), f);
            match soac {
                Soac::Map { arrays, .. } | Soac::Filter { arrays, .. } => {
                    arrays.iter().for_each(&mut *f)
                }
                Soac::Reduce {
                    neutral, arrays, ..
                }
                | Soac::Scan {
                    neutral, arrays, ..
                }
                | Soac::Redomap {
                    neutral, arrays, ..
                }
                | Soac::Scanomap {
                    neutral, arrays, ..
                } => {
                    neutral.iter().for_each(|n| sub(n, f));
                    arrays.iter().for_each(&mut *f);
                }
                Soac::Scatter {
                    destinations,
                    indices,
                    values,
                    ..
                } => {
                    destinations.iter().for_each(&mut *f);
                    f(indices);
                    values.iter().for_each(&mut *f);
                }
                Soac::Hist {
                    destinations,
                    neutral,
                    indices,
                    values,
                    ..
                } => {
                    destinations.iter().for_each(&mut *f);
                    neutral.iter().for_each(|n| sub(n, f));
                    f(indices);
                    values.iter().for_each(&mut *f);
                }
            }
            for lambda in soac.lambdas() {
                for t in &lambda.return_types {
                    t.shape().iter().for_each(|d| sub(d, f));
                }
                names_in_body(&lambda.body, f);
            }
        }
    }
}

pub(crate) fn names_in_body(body: &Body, f: &mut impl FnMut(&VName)) {
    for statement in &body.statements {
        for p in &statement.pattern {
            p.ty.shape().iter().for_each(|d| {
                if let SubExp::Var(v) = d {
                    f(v)
                }
            });
        }
        names_in_exp(&statement.expression, f);
    }
    for r in &body.result {
        if let SubExp::Var(v) = r {
            f(v)
        }
    }
}

/// What a body compiler knows about which arrays it may move.
struct BodyContext {
    /// The last statement index that mentions each name (`usize::MAX`: the
    /// result does).
    last_use: HashMap<VName, usize>,
    /// Names bound by this body (its parameters and pattern elements).
    bound_here: std::collections::HashSet<VName>,
    /// The statement being compiled.
    current: usize,
}

impl BodyContext {
    fn movable(&self, name: &VName) -> bool {
        self.bound_here.contains(name) && self.last_use.get(name) == Some(&self.current)
    }
}

impl<'a> FunctionCompiler<'a> {
    fn new(by_name: &'a HashMap<FunName, usize>) -> FunctionCompiler<'a> {
        FunctionCompiler {
            slots: HashMap::new(),
            by_name,
            offload: None,
            function_body_next: false,
            statistics: BackendStatistics::default(),
        }
    }

    fn slot(&mut self, name: &VName) -> usize {
        let next = self.slots.len();
        *self.slots.entry(name.clone()).or_insert(next)
    }

    fn operand(&mut self, s: &SubExp) -> Operand {
        match s {
            SubExp::Var(v) => Operand::Slot(self.slot(v)),
            SubExp::Constant(c) => Operand::Const(*c),
        }
    }

    fn operands(&mut self, s: &[SubExp]) -> Vec<Operand> {
        s.iter().map(|s| self.operand(s)).collect()
    }

    fn shape_spec(&mut self, ty: &Type) -> ShapeSpec {
        ShapeSpec {
            element: ty.element(),
            dims: self.operands(ty.shape()),
        }
    }

    fn function(mut self, function: &Function) -> (CompiledFunction, BackendStatistics) {
        let params: Vec<usize> = function.params.iter().map(|p| self.slot(&p.name)).collect();
        let bound: Vec<VName> = function.params.iter().map(|p| p.name.clone()).collect();
        self.function_body_next = true;
        let body = self.body(&function.body, &bound);
        let compiled = CompiledFunction {
            frame_size: self.slots.len(),
            params,
            body,
        };
        (compiled, self.statistics)
    }

    /// Compiles a body whose parameters (bound by the enclosing construct)
    /// are `params`.
    fn body(&mut self, body: &Body, params: &[VName]) -> CompiledBody {
        let function_body = std::mem::replace(&mut self.function_body_next, false);
        let mut last_use = HashMap::new();
        for (i, statement) in body.statements.iter().enumerate() {
            names_in_exp(&statement.expression, &mut |v: &VName| {
                last_use.insert(v.clone(), i);
            });
        }
        for r in &body.result {
            if let SubExp::Var(v) = r {
                last_use.insert(v.clone(), usize::MAX);
            }
        }
        let mut context = BodyContext {
            last_use,
            bound_here: params.iter().cloned().collect(),
            current: 0,
        };
        let mut steps = Vec::with_capacity(body.statements.len());
        let mut locals = Vec::new();
        for (i, statement) in body.statements.iter().enumerate() {
            context.current = i;
            let targets: Vec<usize> = statement
                .pattern
                .iter()
                .map(|p| self.slot(&p.name))
                .collect();
            let step = self.statement(
                &statement.expression,
                targets.clone(),
                statement.span,
                &context,
            );
            steps.push(match (&statement.expression, function_body) {
                (Exp::Soac(soac), true) => self.offloaded(
                    &statement.expression,
                    soac,
                    i,
                    step,
                    targets.clone(),
                    statement.span,
                    &context.bound_here,
                ),
                _ => step,
            });
            // Only array locals need clearing (to keep arrays unshared);
            // primitives hold nothing and are rebound before any use.
            locals.extend(
                statement
                    .pattern
                    .iter()
                    .zip(targets)
                    .filter(|(p, _)| matches!(p.ty, crate::ir::Type::Array { .. }))
                    .map(|(_, t)| t),
            );
            for p in &statement.pattern {
                context.bound_here.insert(p.name.clone());
            }
        }
        let result = self.operands(&body.result);
        CompiledBody {
            steps,
            result,
            locals,
        }
    }

    fn lambda(&mut self, lambda: &Lambda) -> CompiledLambda {
        let params: Vec<usize> = lambda.params.iter().map(|p| self.slot(&p.name)).collect();
        let names: Vec<VName> = lambda.params.iter().map(|p| p.name.clone()).collect();
        let body = self.body(&lambda.body, &names);
        let returns = lambda
            .return_types
            .iter()
            .map(|t| self.shape_spec(t))
            .collect();
        CompiledLambda {
            params,
            body,
            returns,
        }
    }

    fn array_ref(&mut self, name: &VName, context: &BodyContext) -> ArrayRef {
        ArrayRef {
            slot: self.slot(name),
            movable: context.movable(name),
        }
    }

    fn statement(
        &mut self,
        exp: &Exp,
        targets: Vec<usize>,
        span: Span,
        context: &BodyContext,
    ) -> Step {
        let target = targets.first().copied().unwrap_or(0);
        match exp {
            Exp::SubExp(s) => {
                let s = self.operand(s);
                Box::new(move |frame, _| {
                    frame[target] = s.get(frame);
                    Ok(())
                })
            }
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => {
                let f = prim::binop_fn(*op, *ty);
                let (l, r) = (self.operand(left), self.operand(right));
                Box::new(move |frame, _| {
                    let v = f(l.prim(frame), r.prim(frame)).map_err(|m| error(m, span))?;
                    frame[target] = Val::Prim(v);
                    Ok(())
                })
            }
            Exp::UnOp { op, operand, .. } => {
                let op = *op;
                let x = self.operand(operand);
                Box::new(move |frame, _| {
                    let v = prim::unop(op, x.prim(frame)).map_err(|m| error(m, span))?;
                    frame[target] = Val::Prim(v);
                    Ok(())
                })
            }
            Exp::CmpOp {
                op, left, right, ..
            } => {
                let op = *op;
                let (l, r) = (self.operand(left), self.operand(right));
                Box::new(move |frame, _| {
                    let v = prim::cmpop(op, l.prim(frame), r.prim(frame))
                        .map_err(|m| error(m, span))?;
                    frame[target] = Val::Prim(PrimValue::Bool(v));
                    Ok(())
                })
            }
            Exp::ConvOp { op, operand } => {
                let op = *op;
                let x = self.operand(operand);
                Box::new(move |frame, _| {
                    frame[target] = Val::Prim(prim::convert(op, x.prim(frame)));
                    Ok(())
                })
            }
            Exp::Apply { function, args } => {
                let index = self.by_name[function];
                let args = self.operands(args);
                Box::new(move |frame, machine| {
                    let callee = &machine.functions[index];
                    let mut inner = vec![Val::default(); callee.frame_size];
                    for (slot, a) in callee.params.iter().zip(&args) {
                        inner[*slot] = a.get(frame);
                    }
                    callee.body.run(&mut inner, machine)?;
                    let results: Vec<Val> =
                        callee.body.result.iter().map(|r| r.get(&inner)).collect();
                    drop(inner);
                    for (t, v) in targets.iter().zip(results) {
                        frame[*t] = v;
                    }
                    Ok(())
                })
            }
            Exp::If {
                condition,
                then_body,
                else_body,
                ..
            } => {
                let c = self.operand(condition);
                let then_body = self.body(then_body, &[]);
                let else_body = self.body(else_body, &[]);
                Box::new(move |frame, machine| {
                    let body = if matches!(c.prim(frame), PrimValue::Bool(true)) {
                        &then_body
                    } else {
                        &else_body
                    };
                    body.run(frame, machine)?;
                    for (t, v) in targets.iter().zip(body.take_results(frame)) {
                        frame[*t] = v;
                    }
                    Ok(())
                })
            }
            Exp::Loop { params, form, body } => self.loop_statement(params, form, body, targets),
            Exp::Index { array, indices } => {
                let a = self.slot(array);
                let indices = self.operands(indices);
                Box::new(move |frame, _| {
                    let is: Vec<i64> = indices.iter().map(|i| i.int(frame)).collect();
                    let v = ops::index(array_at(frame, a), &is).map_err(|m| error(m, span))?;
                    frame[target] = v;
                    Ok(())
                })
            }
            Exp::Slice { array, slice } => {
                let a = self.slot(array);
                let dims: Vec<(Operand, Option<(Operand, Operand)>)> = slice
                    .iter()
                    .map(|d| match d {
                        DimIndex::Fix(i) => (self.operand(i), None),
                        DimIndex::Range {
                            start,
                            length,
                            stride,
                        } => (
                            self.operand(start),
                            Some((self.operand(length), self.operand(stride))),
                        ),
                    })
                    .collect();
                Box::new(move |frame, _| {
                    let dims: Vec<SliceDim> = dims
                        .iter()
                        .map(|(s, rest)| match rest {
                            None => SliceDim::Fix(s.int(frame)),
                            Some((l, st)) => SliceDim::Range {
                                start: s.int(frame),
                                length: l.int(frame),
                                stride: st.int(frame),
                            },
                        })
                        .collect();
                    let v = ops::slice(array_at(frame, a), &dims).map_err(|m| error(m, span))?;
                    frame[target] = v;
                    Ok(())
                })
            }
            Exp::Update {
                array,
                indices,
                value,
            } => {
                let a = self.array_ref(array, context);
                let indices = self.operands(indices);
                let value = self.operand(value);
                Box::new(move |frame, _| {
                    let is: Vec<i64> = indices.iter().map(|i| i.int(frame)).collect();
                    let v = value.get(frame);
                    let array = a.fetch(frame);
                    let updated = ops::update(array, &is, &v).map_err(|m| error(m, span))?;
                    frame[target] = Val::Array(updated);
                    Ok(())
                })
            }
            Exp::Iota {
                length,
                start,
                step,
                element,
            } => {
                let (n, s, st, ty) = (
                    self.operand(length),
                    self.operand(start),
                    self.operand(step),
                    *element,
                );
                Box::new(move |frame, _| {
                    let a = ops::iota(n.int(frame), s.prim(frame), st.prim(frame), ty)
                        .map_err(|m| error(m, span))?;
                    frame[target] = Val::Array(a);
                    Ok(())
                })
            }
            Exp::Replicate { shape, value } => {
                let shape = self.operands(shape);
                let value = self.operand(value);
                Box::new(move |frame, _| {
                    let dims: Vec<i64> = shape.iter().map(|d| d.int(frame)).collect();
                    let a = ops::replicate(&dims, &value.get(frame)).map_err(|m| error(m, span))?;
                    frame[target] = Val::Array(a);
                    Ok(())
                })
            }
            Exp::ArrayLiteral { elements, row_type } => {
                let elements = self.operands(elements);
                let row = self.shape_spec(row_type);
                Box::new(move |frame, _| {
                    let values: Vec<Val> = elements.iter().map(|e| e.get(frame)).collect();
                    let a = ops::array_literal(&values, &row.shape(frame), row.element)
                        .map_err(|m| error(m, span))?;
                    frame[target] = Val::Array(a);
                    Ok(())
                })
            }
            Exp::Concat { arrays, length } => {
                let arrays: Vec<usize> = arrays.iter().map(|a| self.slot(a)).collect();
                let length = self.operand(length);
                Box::new(move |frame, _| {
                    let parts: Vec<&ArrayVal> =
                        arrays.iter().map(|a| array_at(frame, *a)).collect();
                    let a = ops::concat(&parts, length.int(frame)).map_err(|m| error(m, span))?;
                    frame[target] = Val::Array(a);
                    Ok(())
                })
            }
            Exp::Rearrange { permutation, array } => {
                let a = self.slot(array);
                let permutation = permutation.clone();
                Box::new(move |frame, _| {
                    frame[target] = Val::Array(ops::rearrange(array_at(frame, a), &permutation));
                    Ok(())
                })
            }
            Exp::Reshape { shape, array } => {
                let a = self.slot(array);
                let shape = self.operands(shape);
                Box::new(move |frame, _| {
                    let dims: Vec<i64> = shape.iter().map(|d| d.int(frame)).collect();
                    let r = ops::reshape(array_at(frame, a), &dims).map_err(|m| error(m, span))?;
                    frame[target] = Val::Array(r);
                    Ok(())
                })
            }
            Exp::Reverse { array } => {
                let a = self.slot(array);
                Box::new(move |frame, _| {
                    frame[target] = Val::Array(ops::reverse(array_at(frame, a)));
                    Ok(())
                })
            }
            Exp::Rotate { amount, array } => {
                let a = self.slot(array);
                let amount = self.operand(amount);
                Box::new(move |frame, _| {
                    frame[target] = Val::Array(ops::rotate(array_at(frame, a), amount.int(frame)));
                    Ok(())
                })
            }
            Exp::Copy { array } => {
                let a = self.slot(array);
                Box::new(move |frame, _| {
                    frame[target] = Val::Array(ops::copy(array_at(frame, a)));
                    Ok(())
                })
            }
            Exp::Assert {
                condition,
                message,
                operands,
                span,
            } => {
                let c = self.operand(condition);
                let values = self.operands(operands);
                let (message, span) = (message.clone(), *span);
                Box::new(move |frame, _| {
                    if matches!(c.prim(frame), PrimValue::Bool(true)) {
                        Ok(())
                    } else {
                        let values: Vec<PrimValue> = values.iter().map(|v| v.prim(frame)).collect();
                        Err(error(crate::ir::message::fill(&message, &values), span))
                    }
                })
            }
            Exp::Soac(s) => self.soac(s, targets, span, context),
        }
    }

    fn loop_statement(
        &mut self,
        params: &[(crate::ir::Param, SubExp)],
        form: &LoopForm,
        body: &Body,
        targets: Vec<usize>,
    ) -> Step {
        let param_slots: Vec<usize> = params.iter().map(|(p, _)| self.slot(&p.name)).collect();
        let initial: Vec<Operand> = params.iter().map(|(_, init)| self.operand(init)).collect();
        let mut bound: Vec<VName> = params.iter().map(|(p, _)| p.name.clone()).collect();
        enum Form {
            For { index: usize, bound: Operand },
            While { condition: usize },
        }
        let form = match form {
            LoopForm::For { index, bound: b } => {
                bound.push(index.clone());
                Form::For {
                    index: self.slot(index),
                    bound: self.operand(b),
                }
            }
            LoopForm::While { condition_param } => Form::While {
                condition: self.slot(condition_param),
            },
        };
        let body = self.body(body, &bound);
        Box::new(move |frame, machine| {
            let values: Vec<Val> = initial.iter().map(|i| i.get(frame)).collect();
            for (slot, v) in param_slots.iter().zip(values) {
                frame[*slot] = v;
            }
            let iterate = |frame: &mut Frame| -> Result<(), RuntimeError> {
                body.run(frame, machine)?;
                body.take_results_into(frame, &param_slots);
                Ok(())
            };
            match &form {
                Form::For { index, bound } => {
                    let b = bound.prim(frame);
                    let ty = b.prim_type();
                    let n = prim::as_i64(b).unwrap_or(0);
                    for i in 0..n {
                        frame[*index] = Val::Prim(prim::from_i64(i, ty));
                        iterate(frame)?;
                    }
                }
                Form::While { condition } => {
                    while matches!(frame[*condition], Val::Prim(PrimValue::Bool(true))) {
                        iterate(frame)?;
                    }
                }
            }
            for (t, slot) in targets.iter().zip(&param_slots) {
                frame[*t] = std::mem::take(&mut frame[*slot]);
            }
            Ok(())
        })
    }

    /// `host` (the compiled SOAC statement `statement` of the function
    /// body), or, when the offload claims the statement, a step that offers
    /// it to the offload first and runs `host` only when it is handed back.
    #[allow(clippy::too_many_arguments)]
    fn offloaded(
        &mut self,
        expression: &Exp,
        soac: &Soac,
        statement: usize,
        host: Step,
        targets: Vec<usize>,
        span: Span,
        in_scope: &std::collections::HashSet<VName>,
    ) -> Step {
        let Some((offload, function)) = self.offload.clone() else {
            return host;
        };
        if !offload.claims(function, statement) {
            return host;
        }
        let width = self.operand(soac.width());
        let input_names = soac_input_arrays(soac);
        let inputs: Vec<usize> = input_names.iter().map(|a| self.slot(a)).collect();
        // The other variables of the function's scope the SOAC reads (its
        // width, neutral elements, free variables of its lambdas).
        let mut free_names: Vec<VName> = Vec::new();
        names_in_exp(expression, &mut |v: &VName| {
            if in_scope.contains(v) && !input_names.contains(&v) && !free_names.contains(v) {
                free_names.push(v.clone());
            }
        });
        let free_slots: Vec<usize> = free_names.iter().map(|v| self.slot(v)).collect();
        Box::new(move |frame, machine| {
            let w = width.int(frame);
            if w >= 0 {
                let values: Vec<Val> = inputs.iter().map(|s| frame[*s].clone()).collect();
                let free_values: Vec<Val> = free_slots.iter().map(|s| frame[*s].clone()).collect();
                let call = SoacCall {
                    function,
                    statement,
                    width: w as usize,
                    inputs: &values,
                    free_names: &free_names,
                    free_values: &free_values,
                    span,
                };
                let answer = offload.run(&call)?;
                // The inputs are released before the host version runs, so
                // that it finds arrays it may update in place unshared.
                drop(values);
                drop(free_values);
                if let Some(results) = answer {
                    for (t, v) in targets.iter().zip(results) {
                        frame[*t] = v;
                    }
                    return Ok(());
                }
            }
            host(frame, machine)
        })
    }

    /// The native kernels of a `scan` (`map: None`) or `scanomap`.
    fn native_scan(&mut self, map: Option<&Lambda>, operator: &Lambda) -> Option<soac::NativeScan> {
        let mut slot = |v: &VName| self.slot(v);
        Some(soac::NativeScan {
            totals: native::NativeKernel::new(
                map,
                Some(operator),
                native::Mode::FoldOnly,
                &mut slot,
            )?,
            scan: native::NativeKernel::new(map, Some(operator), native::Mode::Scan, &mut slot)?,
        })
    }

    /// The vectorised form of a reduction, when both parts qualify.
    fn vector_reduce(&mut self, map: &Lambda, operator: &Lambda) -> Option<soac::VectorReduce> {
        let operators = vector::simple_operator(operator)?;
        let map = vector::plan(map, &mut |v| self.slot(v))?;
        Some(soac::VectorReduce { map, operators })
    }

    /// The vectorised operator (and map part) for the lane-parallel
    /// `reduce`/`scan` (`soac::lanes`), when the simpler vectorised form
    /// does not apply.
    fn lane_plan(
        &mut self,
        map: Option<&Lambda>,
        operator: &Lambda,
        simple: &Option<soac::VectorReduce>,
    ) -> Option<soac::LanePlan> {
        if simple.is_some() {
            return None;
        }
        let operator = vector::plan(operator, &mut |v| self.slot(v))?;
        let map = map.and_then(|map| vector::plan(map, &mut |v| self.slot(v)));
        Some(soac::LanePlan { map, operator })
    }

    fn soac(
        &mut self,
        soac: &Soac,
        targets: Vec<usize>,
        span: Span,
        context: &BodyContext,
    ) -> Step {
        let width = self.operand(soac.width());
        let slots = |this: &mut Self, arrays: &[VName]| -> Vec<usize> {
            arrays.iter().map(|a| this.slot(a)).collect()
        };
        let compiled = match soac {
            Soac::Map { lambda, arrays, .. } => soac::CompiledSoac::Map {
                native: native::NativeKernel::new(
                    Some(lambda),
                    None,
                    native::Mode::Map,
                    &mut |v| self.slot(v),
                )
                .map(Box::new),
                lambda: self.lambda(lambda),
                arrays: slots(self, arrays),
                vector: vector::plan(lambda, &mut |v| self.slot(v)),
                nested_work: holds_nested_work(&lambda.body),
            },
            Soac::Reduce {
                lambda,
                neutral,
                arrays,
                ..
            } => {
                let vector = self.vector_reduce(&vector::identity_of(lambda), lambda);
                soac::CompiledSoac::Reduce {
                    native: native::NativeKernel::new(
                        None,
                        Some(lambda),
                        native::Mode::Fold,
                        &mut |v| self.slot(v),
                    )
                    .map(Box::new),
                    operator: self.lambda(lambda),
                    neutral: self.operands(neutral),
                    arrays: slots(self, arrays),
                    lanes: self
                        .lane_plan(None, lambda, &vector)
                        .map(|plan| plan.operator),
                    vector,
                }
            }
            Soac::Scan {
                lambda,
                neutral,
                arrays,
                ..
            } => {
                let vector = self.vector_reduce(&vector::identity_of(lambda), lambda);
                soac::CompiledSoac::Scan {
                    native: self.native_scan(None, lambda).map(Box::new),
                    operator: self.lambda(lambda),
                    neutral: self.operands(neutral),
                    arrays: slots(self, arrays),
                    lanes: self
                        .lane_plan(None, lambda, &vector)
                        .map(|plan| plan.operator),
                    vector,
                }
            }
            Soac::Filter {
                predicate, arrays, ..
            } => soac::CompiledSoac::Filter {
                predicate: self.lambda(predicate),
                arrays: slots(self, arrays),
            },
            Soac::Scatter {
                destinations,
                indices,
                values,
                ..
            } => soac::CompiledSoac::Scatter {
                destinations: destinations
                    .iter()
                    .map(|d| self.array_ref(d, context))
                    .collect(),
                indices: self.slot(indices),
                values: slots(self, values),
            },
            Soac::Hist {
                destinations,
                operator,
                neutral,
                indices,
                values,
                ..
            } => soac::CompiledSoac::Hist {
                destinations: destinations
                    .iter()
                    .map(|d| self.array_ref(d, context))
                    .collect(),
                operator: self.lambda(operator),
                neutral: self.operands(neutral),
                indices: self.slot(indices),
                values: slots(self, values),
            },
            Soac::Redomap {
                map_lambda,
                reduce_lambda,
                neutral,
                arrays,
                ..
            } => {
                let vector = self.vector_reduce(map_lambda, reduce_lambda);
                soac::CompiledSoac::Redomap {
                    native: native::NativeKernel::new(
                        Some(map_lambda),
                        Some(reduce_lambda),
                        native::Mode::Fold,
                        &mut |v| self.slot(v),
                    )
                    .map(Box::new),
                    map: self.lambda(map_lambda),
                    operator: self.lambda(reduce_lambda),
                    neutral: self.operands(neutral),
                    arrays: slots(self, arrays),
                    lanes: self.lane_plan(Some(map_lambda), reduce_lambda, &vector),
                    vector,
                }
            }
            Soac::Scanomap {
                map_lambda,
                scan_lambda,
                neutral,
                arrays,
                ..
            } => {
                let vector = self.vector_reduce(map_lambda, scan_lambda);
                soac::CompiledSoac::Scanomap {
                    native: self
                        .native_scan(Some(map_lambda), scan_lambda)
                        .map(Box::new),
                    map: self.lambda(map_lambda),
                    operator: self.lambda(scan_lambda),
                    neutral: self.operands(neutral),
                    arrays: slots(self, arrays),
                    lanes: self.lane_plan(Some(map_lambda), scan_lambda, &vector),
                    vector,
                }
            }
        };
        self.statistics.record(&compiled);
        Box::new(move |frame, machine| {
            let w = width.int(frame);
            if w < 0 {
                return Err(error(format!("Negative SOAC width {w}."), span));
            }
            let results = compiled.run(frame, machine, w as usize, span)?;
            for (t, v) in targets.iter().zip(results) {
                frame[*t] = v;
            }
            Ok(())
        })
    }
}

/// The arrays a SOAC reads, in the order [`SoacCall::inputs`] documents.
fn soac_input_arrays(soac: &Soac) -> Vec<&VName> {
    match soac {
        Soac::Map { arrays, .. }
        | Soac::Filter { arrays, .. }
        | Soac::Reduce { arrays, .. }
        | Soac::Scan { arrays, .. }
        | Soac::Redomap { arrays, .. }
        | Soac::Scanomap { arrays, .. } => arrays.iter().collect(),
        Soac::Scatter {
            destinations,
            indices,
            values,
            ..
        }
        | Soac::Hist {
            destinations,
            indices,
            values,
            ..
        } => destinations
            .iter()
            .chain(std::iter::once(indices))
            .chain(values)
            .collect(),
    }
}

/// Whether `body` holds work whose cost grows with the data rather than a
/// fixed number of scalar operations: a SOAC, a loop or a call (of a
/// function that may hold either), at any depth.
pub(crate) fn holds_nested_work(body: &Body) -> bool {
    body.statements.iter().any(|s| match &s.expression {
        Exp::Soac(_) | Exp::Loop { .. } | Exp::Apply { .. } => true,
        Exp::If {
            then_body,
            else_body,
            ..
        } => holds_nested_work(then_body) || holds_nested_work(else_body),
        _ => false,
    })
}

/// The chunks of a `map` of `width` elements: those of [`chunk_ranges`],
/// unless each element holds nested work ([`holds_nested_work`]: an outer
/// map over the rows of a 2-D result, a map whose elements loop). Such a
/// map runs in parallel from [`super::NESTED_PARALLEL_THRESHOLD`] elements
/// up, in up to 16 chunks per worker thread so that rayon balances elements
/// of unequal cost (mandelbrot's rows), unless it already runs inside a
/// parallel chunk (on a rayon worker thread: the enclosing SOAC keeps the
/// threads busy, as for mandelbrot's inner map). A map's results do not
/// depend on its chunks, and the first failing element is still the one
/// reported (the chunks' outcomes are read in order).
pub(crate) fn map_ranges(width: usize, nested_work: bool) -> Vec<Range<usize>> {
    if !nested_work || rayon::current_thread_index().is_some() {
        return chunk_ranges(width);
    }
    nested_work_ranges(width, rayon::current_num_threads())
}

/// [`map_ranges`] of a map with nested work run from outside the pool, on
/// `threads` threads.
fn nested_work_ranges(width: usize, threads: usize) -> Vec<Range<usize>> {
    if !(super::NESTED_PARALLEL_THRESHOLD..super::PARALLEL_THRESHOLD).contains(&width)
        || threads <= 1
    {
        return chunk_ranges(width);
    }
    even_ranges(width, (threads * 16).min(width))
}

/// The chunks a SOAC of `width` elements is split into: one chunk below
/// [`super::PARALLEL_THRESHOLD`] (run sequentially, on the caller's frame),
/// otherwise about four per worker thread.
pub(crate) fn chunk_ranges(width: usize) -> Vec<Range<usize>> {
    let threads = rayon::current_num_threads();
    if width < super::PARALLEL_THRESHOLD || threads <= 1 {
        #[allow(clippy::single_range_in_vec_init)]
        return vec![0..width];
    }
    let chunks = (threads * 4)
        .min(width / (super::PARALLEL_THRESHOLD / 4))
        .max(1);
    even_ranges(width, chunks)
}

/// `0..width` (not empty) cut into at most `chunks` (at least 1) consecutive
/// ranges of equal length, the last one possibly shorter.
fn even_ranges(width: usize, chunks: usize) -> Vec<Range<usize>> {
    let size = width.div_ceil(chunks);
    (0..width)
        .step_by(size)
        .map(|s| s..(s + size).min(width))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{chunk_ranges, map_ranges, nested_work_ranges};

    /// A map with nested work on `threads` threads: its chunks cover
    /// `0..width` in order, and there are `chunks` of them (`None`: those
    /// of [`chunk_ranges`], which depend on the machine).
    fn check(threads: usize, width: usize, chunks: Option<usize>) {
        let ranges = nested_work_ranges(width, threads);
        let mut next = 0;
        for range in &ranges {
            assert_eq!(range.start, next, "{threads} {width}: {ranges:?}");
            assert!(range.end > range.start || width == 0, "{ranges:?}");
            next = range.end;
        }
        assert_eq!(next, width, "{ranges:?}");
        match chunks {
            Some(chunks) => assert_eq!(ranges.len(), chunks, "{threads} {width}: {ranges:?}"),
            None => assert_eq!(ranges, chunk_ranges(width)),
        }
    }

    #[test]
    fn maps_with_nested_work_split_from_a_few_rows() {
        for (threads, width, chunks) in [
            (2, 0, None),
            (2, 15, None),
            (2, 16, Some(16)),
            (2, 40, Some(20)),
            (2, 1000, Some(32)),
            (4, 1000, Some(63)),
            (2, 4095, Some(32)),
            (2, 4096, None),
            (1, 1000, None),
        ] {
            check(threads, width, chunks);
        }
    }

    /// Without nested work, and inside a parallel chunk (on a worker
    /// thread), a map has the chunks of every other SOAC.
    #[test]
    fn maps_without_nested_work_or_on_a_worker_split_as_other_soacs() {
        for width in [0, 16, 1000, 5000, 100_000] {
            assert_eq!(map_ranges(width, false), chunk_ranges(width));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a thread pool");
        assert_eq!(pool.install(|| map_ranges(1000, true)), vec![0..1000]);
    }
}
