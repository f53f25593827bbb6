//! Compilation of IR functions to closures over the runtime model of
//! [`super::machine`].
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

use spec::memory::MemoryLimit;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::machine::{
    array_at, ArrayRef, BackendStatistics, CompiledBody, CompiledFunction, CompiledLambda, Frame,
    Machine, Operand, ShapeSpec, Step,
};
use super::native;
use super::offload::{host_soac_statements, SoacCall, SoacOffload};
use super::ops::{self, SliceDim};
use super::prim;
use super::schedule::holds_nested_work;
use super::soac;
use super::value::{ArrayVal, Val};
use super::vector;
use super::RuntimeError;
use crate::ir::visit::for_each_use_in_exp;
use crate::ir::{
    Body, DimIndex, Exp, FunName, Function, Lambda, LoopForm, PrimValue, Program, Soac, Span,
    Statement, SubExp, Type, VName,
};

/// Counts a compiled SOAC and the fast paths it got.
fn record_soac(statistics: &mut BackendStatistics, soac: &soac::CompiledSoac) {
    let (native, vectorised) = soac.fast_paths();
    statistics.soacs += 1;
    statistics.native += usize::from(native);
    statistics.vectorised += usize::from(vectorised);
}

/// The elements of data of a value and the bytes of each.
fn data_size(value: &Val) -> (u64, u64) {
    match value {
        Val::Prim(p) => (1, p.prim_type().byte_size() as u64),
        Val::Array(a) => (a.data.len() as u64, a.data.prim_type().byte_size() as u64),
    }
}

fn error(message: impl Into<String>, span: Span) -> RuntimeError {
    RuntimeError::program(message, span)
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
        memory_limit: MemoryLimit::of_this_machine(),
    }
}

struct FunctionCompiler<'a> {
    slots: HashMap<VName, usize>,
    by_name: &'a HashMap<FunName, usize>,
    /// The offload and the index of the function being compiled.
    offload: Option<(Arc<dyn SoacOffload>, usize)>,
    /// The function's top-level SOAC statements claimed by the offload
    /// (`offload::host_soac_statements`), by address: their index there and
    /// the variables in scope where they stand.
    claimed: HashMap<*const Statement, (usize, HashSet<VName>)>,
    statistics: BackendStatistics,
}

/// What a body compiler knows about which arrays it may move.
struct BodyContext {
    /// The last statement index that mentions each name (`usize::MAX`: the
    /// result does).
    last_use: HashMap<VName, usize>,
    /// Names their last statement mentions more than once (`hist` into
    /// `{rep, rep}` after CSE): moving the first occurrence would leave the
    /// second an emptied slot, so they are never moved.
    used_twice_at_last_use: HashSet<VName>,
    /// Names bound by this body (its parameters and pattern elements).
    bound_here: HashSet<VName>,
    /// The statement being compiled.
    current: usize,
}

impl BodyContext {
    fn movable(&self, name: &VName) -> bool {
        self.bound_here.contains(name)
            && self.last_use.get(name) == Some(&self.current)
            && !self.used_twice_at_last_use.contains(name)
    }
}

impl<'a> FunctionCompiler<'a> {
    fn new(by_name: &'a HashMap<FunName, usize>) -> FunctionCompiler<'a> {
        FunctionCompiler {
            slots: HashMap::new(),
            by_name,
            offload: None,
            claimed: HashMap::new(),
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
        if let Some((offload, function_index)) = &self.offload {
            self.claimed = host_soac_statements(function)
                .into_iter()
                .enumerate()
                .filter(|(index, _)| offload.claims(*function_index, *index))
                .map(|(index, host)| {
                    let in_scope = host.in_scope.into_iter().map(|(name, _)| name).collect();
                    (host.statement as *const Statement, (index, in_scope))
                })
                .collect();
        }
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
        let mut last_use = HashMap::new();
        let mut used_twice_at_last_use = HashSet::new();
        for (i, statement) in body.statements.iter().enumerate() {
            let mut uses: HashMap<VName, usize> = HashMap::new();
            for_each_use_in_exp(&statement.expression, |v: &VName| {
                *uses.entry(v.clone()).or_default() += 1;
            });
            for (v, count) in uses {
                if count > 1 {
                    used_twice_at_last_use.insert(v.clone());
                } else {
                    used_twice_at_last_use.remove(&v);
                }
                last_use.insert(v, i);
            }
        }
        for r in &body.result {
            if let SubExp::Var(v) = r {
                last_use.insert(v.clone(), usize::MAX);
            }
        }
        let mut context = BodyContext {
            last_use,
            used_twice_at_last_use,
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
            let claimed = self.claimed.get(&(statement as *const Statement)).cloned();
            steps.push(match (&statement.expression, claimed) {
                (Exp::Soac(soac), Some((index, in_scope))) => self.offloaded(
                    &statement.expression,
                    soac,
                    index,
                    step,
                    targets.clone(),
                    statement.span,
                    &in_scope,
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
            Exp::Fma { a, b, c, .. } => {
                let (a, b, c) = (self.operand(a), self.operand(b), self.operand(c));
                Box::new(move |frame, _| {
                    let v = prim::fma(a.prim(frame), b.prim(frame), c.prim(frame))
                        .map_err(|m| error(m, span))?;
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
                Box::new(move |frame, machine| {
                    let length = n.int(frame);
                    machine.admit(length.max(0) as u64, ty.byte_size() as u64, span)?;
                    let a = ops::iota(length, s.prim(frame), st.prim(frame), ty)
                        .map_err(|m| error(m, span))?;
                    frame[target] = Val::Array(a);
                    Ok(())
                })
            }
            Exp::Replicate { shape, value } => {
                let shape = self.operands(shape);
                let value = self.operand(value);
                Box::new(move |frame, machine| {
                    let dims: Vec<i64> = shape.iter().map(|d| d.int(frame)).collect();
                    let value = value.get(frame);
                    let (row_elements, element_bytes) = data_size(&value);
                    let elements = dims
                        .iter()
                        .try_fold(row_elements, |n, d| n.checked_mul((*d).max(0) as u64));
                    machine.admit(elements.unwrap_or(u64::MAX), element_bytes, span)?;
                    let a = ops::replicate(&dims, &value).map_err(|m| error(m, span))?;
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
                Box::new(move |frame, machine| {
                    let parts: Vec<&ArrayVal> =
                        arrays.iter().map(|a| array_at(frame, *a)).collect();
                    let elements = parts.iter().map(|a| a.data.len() as u64).sum();
                    let element_bytes = parts[0].data.prim_type().byte_size() as u64;
                    machine.admit(elements, element_bytes, span)?;
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
            // `CompiledProgram::new` expands segmented operations into
            // SOACs first (`super::segmented`); none reaches this point.
            Exp::Seg(op) => {
                let keyword = op.keyword();
                Box::new(move |_, _| {
                    Err(RuntimeError::program(
                        format!("internal error: an unexpanded {keyword} reached the CPU backend"),
                        span,
                    ))
                })
            }
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

    /// A step that offers the claimed SOAC statement `statement` (its index
    /// in the function's `host_soac_statements`; `in_scope`: the variables
    /// in scope there) to the offload first and runs `host`, its compiled
    /// host version, only when it is handed back.
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
        let width = self.operand(soac.width());
        let input_names = soac_input_arrays(soac);
        let inputs: Vec<usize> = input_names.iter().map(|a| self.slot(a)).collect();
        // The other variables of the function's scope the SOAC reads (its
        // width, neutral elements, free variables of its lambdas).
        let mut free_names: Vec<VName> = Vec::new();
        for_each_use_in_exp(expression, |v: &VName| {
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
        record_soac(&mut self.statistics, &compiled);
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
