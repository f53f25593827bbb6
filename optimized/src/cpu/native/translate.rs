//! Translation of a lambda's body to Cranelift IR, statement by statement.
//!
//! Every primitive value is one Cranelift value of its natural type
//! ([`machine_type`]: `bool` is an `i8` holding 0 or 1). An operation is
//! emitted as instructions only where Cranelift's semantics are exactly
//! those of [`crate::cpu::prim`] (wrapping integer arithmetic, IEEE float
//! `+ - * /`, `sqrt`, comparisons, saturating float-to-`i32`/`i64`
//! conversions, ...); integer division and shifts get the explicit checks
//! and adjustments Futhark's rounding needs; everything else calls a
//! [`super::helpers`] function that delegates to `prim.rs`.
//!
//! A failing operation (division by zero, an index out of bounds, a false
//! assertion, a failing helper) branches to the function's failure block.
//! [`Translator::body`] returns `None` for any construct outside the class
//! the native path compiles; the caller then abandons the function.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, Block, BlockArg, InstBuilder, MemFlags, SigRef, StackSlot, Type as MachineType, Value,
};
use cranelift_frontend::FunctionBuilder;

use super::helpers;
use crate::ir::{
    BinOp, Body, CmpOp, ConvOp, Exp, Lambda, LoopForm, PrimType, PrimValue, Statement, SubExp,
    Type, UnOp, VName,
};

/// The Cranelift type holding values of `t`.
pub fn machine_type(t: PrimType) -> MachineType {
    match t {
        PrimType::I8 | PrimType::U8 | PrimType::Bool => types::I8,
        PrimType::I16 | PrimType::U16 => types::I16,
        PrimType::I32 | PrimType::U32 => types::I32,
        PrimType::I64 | PrimType::U64 => types::I64,
        PrimType::F32 => types::F32,
        PrimType::F64 => types::F64,
    }
}

/// The size in bytes of an element of type `t` in an array.
pub fn element_size(t: PrimType) -> i64 {
    i64::from(machine_type(t).bytes())
}

/// Bits of an integer type.
fn width(t: PrimType) -> i64 {
    i64::from(machine_type(t).bits())
}

/// The signatures of the helper functions, imported into the function.
#[derive(Clone, Copy)]
pub struct HelperSignatures {
    /// `(op: i32, ty: i32, a: i64, b: i64, out: i64) -> i32`
    pub binop: SigRef,
    /// `(op: i32, ty: i32, a: i64) -> i64`, also for conversions.
    pub unary: SigRef,
}

/// A free array of primitives: its data and its dimensions.
#[derive(Clone)]
pub struct ArrayView {
    pub base: Value,
    pub dims: Vec<Value>,
    pub element: PrimType,
}

/// Block arguments of values.
pub fn block_args(values: &[Value]) -> Vec<BlockArg> {
    values.iter().map(|v| BlockArg::Value(*v)).collect()
}

/// The most statements (nested `if`s' included) a branch run as a select
/// may hold ([`straight_and_infallible`]).
const SELECT_STATEMENTS: usize = 6;

/// Whether a branch is at most [`SELECT_STATEMENTS`] statements of scalar
/// operations that cannot fail and call no helper worth avoiding, gathers
/// from free arrays, and `if`s whose branches are such code (counted with
/// their statements): run both branches of such an `if` and select. A
/// nested `if` is selected too, so a boolean rule such as `sum == 3 ||
/// (alive && sum == 2)` (nested `if`s after lowering) has no branch to
/// mispredict. A gather in a selected branch is predicated
/// ([`Translator::gather`]): out of bounds it reads a scratch slot instead,
/// and fails only when its branch is the one taken.
pub(super) fn straight_and_infallible(body: &Body) -> bool {
    select_cost(body).is_some_and(|n| n <= SELECT_STATEMENTS)
}

/// The statements of `body`, nested ones included, when all of them are
/// infallible scalar operations or `if`s of such code; `None` otherwise.
fn select_cost(body: &Body) -> Option<usize> {
    let mut total = 0;
    for s in &body.statements {
        let own = match &s.expression {
            Exp::SubExp(_) | Exp::CmpOp { .. } => true,
            // Cheap operations that cannot fail (`ir::effects`): both
            // branches run.
            Exp::BinOp { op, ty, right, .. } => {
                let cheap = match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor => {
                        true
                    }
                    BinOp::Div => ty.is_float(),
                    BinOp::LogAnd | BinOp::LogOr => true,
                    BinOp::Min | BinOp::Max => !ty.is_float(),
                    _ => false,
                };
                cheap && !crate::ir::effects::binop_can_fail(*op, *ty, right)
            }
            Exp::UnOp { op, .. } => matches!(op, UnOp::Neg | UnOp::Not),
            Exp::Index { .. } => true,
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                total += select_cost(then_body)? + select_cost(else_body)?;
                true
            }
            _ => false,
        };
        if !own {
            return None;
        }
        total += 1;
        if total > SELECT_STATEMENTS {
            return None;
        }
    }
    Some(total)
}

/// Translates bodies into the function `builder` is building.
pub struct Translator<'a, 'f> {
    pub builder: &'a mut FunctionBuilder<'f>,
    names: HashMap<VName, (Value, PrimType)>,
    arrays: HashMap<VName, ArrayView>,
    /// The block every failure branches to.
    fail: Block,
    /// An 8-byte slot for helper results.
    scratch: StackSlot,
    signatures: HelperSignatures,
    /// Statements (by their pattern's name) already computed before the
    /// element loop ([`Self::hoist`]).
    hoisted: std::collections::HashSet<VName>,
    /// Inside a selected branch ([`Self::selected`]): the condition (an
    /// `i8`) under which its results are used; a gather there fails only
    /// when it holds.
    predicate: Option<Value>,
}

impl<'a, 'f> Translator<'a, 'f> {
    pub fn new(
        builder: &'a mut FunctionBuilder<'f>,
        fail: Block,
        scratch: StackSlot,
        signatures: HelperSignatures,
    ) -> Translator<'a, 'f> {
        Translator {
            builder,
            names: HashMap::new(),
            arrays: HashMap::new(),
            fail,
            scratch,
            signatures,
            hoisted: std::collections::HashSet::new(),
            predicate: None,
        }
    }

    /// Computes here (before the element loop) the top-level statements of
    /// `body` that read only free variables, constants and statements
    /// hoisted before them: they are the same for every element. One that
    /// fails makes the kernel fail, and the SOAC falls back to the
    /// element-wise path, which decides.
    pub fn hoist(&mut self, body: &Body) {
        for statement in &body.statements {
            let [pattern] = statement.pattern.as_slice() else {
                continue;
            };
            let invariant = |s: &SubExp| match s {
                SubExp::Constant(_) => true,
                SubExp::Var(v) => self.names.contains_key(v),
            };
            let ready = match &statement.expression {
                Exp::SubExp(a) | Exp::UnOp { operand: a, .. } | Exp::ConvOp { operand: a, .. } => {
                    invariant(a)
                }
                Exp::BinOp { left, right, .. } | Exp::CmpOp { left, right, .. } => {
                    invariant(left) && invariant(right)
                }
                Exp::Index { array, indices } => {
                    self.arrays.contains_key(array) && indices.iter().all(invariant)
                }
                _ => false,
            };
            if ready && self.statement(statement).is_some() {
                self.hoisted.insert(pattern.name.clone());
            }
        }
    }

    pub fn bind(&mut self, name: &VName, value: Value, t: PrimType) {
        self.names.insert(name.clone(), (value, t));
    }

    pub fn bind_array(&mut self, name: &VName, view: ArrayView) {
        self.arrays.insert(name.clone(), view);
    }

    /// Runs `lambda` on `args`; its results, or `None` when it is outside
    /// the compiled class.
    pub fn lambda(
        &mut self,
        lambda: &Lambda,
        args: &[(Value, PrimType)],
    ) -> Option<Vec<(Value, PrimType)>> {
        if lambda.params.len() != args.len() {
            return None;
        }
        for (p, (v, t)) in lambda.params.iter().zip(args) {
            if p.ty != Type::Prim(*t) {
                return None;
            }
            self.bind(&p.name, *v, *t);
        }
        let results = self.body(&lambda.body)?;
        for (r, t) in results.iter().zip(&lambda.return_types) {
            if Type::Prim(r.1) != *t {
                return None;
            }
        }
        Some(results)
    }

    /// Translates `body`; the values it returns.
    pub fn body(&mut self, body: &Body) -> Option<Vec<(Value, PrimType)>> {
        for statement in &body.statements {
            self.statement(statement)?;
        }
        body.result.iter().map(|r| self.operand(r)).collect()
    }

    /// The value of an operand.
    pub fn operand(&mut self, s: &SubExp) -> Option<(Value, PrimType)> {
        match s {
            SubExp::Constant(c) => Some((self.constant(*c), c.prim_type())),
            SubExp::Var(v) => self.names.get(v).copied(),
        }
    }

    pub fn constant(&mut self, c: PrimValue) -> Value {
        match c {
            PrimValue::F32(x) => self.builder.ins().f32const(x),
            PrimValue::F64(x) => self.builder.ins().f64const(x),
            _ => self
                .builder
                .ins()
                .iconst(machine_type(c.prim_type()), c.to_bits() as i64),
        }
    }

    /// Branches to the failure block when `condition` (an `i8`) holds.
    fn fail_if(&mut self, condition: Value) {
        let next = self.builder.create_block();
        self.builder
            .ins()
            .brif(condition, self.fail, &[], next, &[]);
        self.builder.switch_to_block(next);
    }

    fn statement(&mut self, statement: &Statement) -> Option<()> {
        if let [pattern] = statement.pattern.as_slice() {
            if self.hoisted.contains(&pattern.name) {
                return Some(());
            }
        }
        let mut types = Vec::with_capacity(statement.pattern.len());
        for p in &statement.pattern {
            let Type::Prim(t) = p.ty else { return None };
            types.push(t);
        }
        let values: Vec<Value> = match &statement.expression {
            Exp::If {
                condition,
                then_body,
                else_body,
                ..
            } => {
                let (c, PrimType::Bool) = self.operand(condition)? else {
                    return None;
                };
                if straight_and_infallible(then_body) && straight_and_infallible(else_body) {
                    self.selected(c, then_body, else_body, &types)?
                } else {
                    self.branches(c, then_body, else_body, &types)?
                }
            }
            Exp::Loop { params, form, body } => self.loop_(params, form, body, &types)?,
            Exp::Assert { condition, .. } => {
                let (c, PrimType::Bool) = self.operand(condition)? else {
                    return None;
                };
                let failed = self.builder.ins().icmp_imm(IntCC::Equal, c, 0);
                self.fail_if(failed);
                Vec::new()
            }
            expression => {
                let [_] = statement.pattern.as_slice() else {
                    return None;
                };
                let (v, t) = self.scalar(expression)?;
                if t != types[0] {
                    return None;
                }
                vec![v]
            }
        };
        if values.len() != types.len() {
            return None;
        }
        for ((p, t), v) in statement.pattern.iter().zip(&types).zip(values) {
            self.bind(&p.name, v, *t);
        }
        Some(())
    }

    /// Translates `body` in a scope of its own (its names do not leak).
    fn scoped_body(&mut self, body: &Body) -> Option<Vec<(Value, PrimType)>> {
        let saved = self.names.clone();
        let results = self.body(body);
        self.names = saved;
        results
    }

    /// An `if` whose branches are short straight-line code that cannot
    /// fail ([`straight_and_infallible`]): both run, and each result is
    /// selected by the condition (no branch to mispredict; running the
    /// other branch is unobservable).
    fn selected(
        &mut self,
        condition: Value,
        then_body: &Body,
        else_body: &Body,
        types: &[PrimType],
    ) -> Option<Vec<Value>> {
        let outer = self.predicate;
        let taken = match outer {
            Some(p) => self.builder.ins().band(p, condition),
            None => condition,
        };
        self.predicate = Some(taken);
        let a = self.scoped_body(then_body);
        let not_taken = self.builder.ins().icmp_imm(IntCC::Equal, condition, 0);
        let not_taken = match outer {
            Some(p) => self.builder.ins().band(p, not_taken),
            None => not_taken,
        };
        self.predicate = Some(not_taken);
        let b = self.scoped_body(else_body);
        self.predicate = outer;
        let (a, b) = (a?, b?);
        if a.len() != types.len() || b.len() != types.len() {
            return None;
        }
        let mut values = Vec::with_capacity(types.len());
        for ((x, y), t) in a.iter().zip(&b).zip(types) {
            if x.1 != *t || y.1 != *t {
                return None;
            }
            values.push(self.builder.ins().select(condition, x.0, y.0));
        }
        Some(values)
    }

    fn branches(
        &mut self,
        condition: Value,
        then_body: &Body,
        else_body: &Body,
        types: &[PrimType],
    ) -> Option<Vec<Value>> {
        let then_block = self.builder.create_block();
        let else_block = self.builder.create_block();
        let merge = self.builder.create_block();
        for t in types {
            self.builder.append_block_param(merge, machine_type(*t));
        }
        self.builder
            .ins()
            .brif(condition, then_block, &[], else_block, &[]);
        for (block, body) in [(then_block, then_body), (else_block, else_body)] {
            self.builder.switch_to_block(block);
            let results = self.scoped_body(body)?;
            if results.len() != types.len() || results.iter().zip(types).any(|(r, t)| r.1 != *t) {
                return None;
            }
            let values: Vec<Value> = results.iter().map(|r| r.0).collect();
            self.builder.ins().jump(merge, &block_args(&values));
        }
        self.builder.switch_to_block(merge);
        Some(self.builder.block_params(merge).to_vec())
    }

    fn loop_(
        &mut self,
        params: &[(crate::ir::Param, SubExp)],
        form: &LoopForm,
        body: &Body,
        types: &[PrimType],
    ) -> Option<Vec<Value>> {
        let mut inits = Vec::with_capacity(params.len());
        let mut param_types = Vec::with_capacity(params.len());
        for (p, init) in params {
            let Type::Prim(t) = p.ty else { return None };
            let (v, u) = self.operand(init)?;
            if t != u {
                return None;
            }
            inits.push(v);
            param_types.push(t);
        }
        if param_types != types {
            return None;
        }
        let header = self.builder.create_block();
        let body_block = self.builder.create_block();
        let exit = self.builder.create_block();
        // The `for` index (of its bound's type), if any, is the header's
        // first parameter.
        let counter = match form {
            LoopForm::For { index, bound } => {
                let (bound, t) = self.operand(bound)?;
                if !t.is_integer() {
                    return None;
                }
                self.builder.append_block_param(header, machine_type(t));
                Some((index, bound, t))
            }
            LoopForm::While { .. } => None,
        };
        for t in &param_types {
            self.builder.append_block_param(header, machine_type(*t));
            self.builder.append_block_param(exit, machine_type(*t));
        }
        let mut entry_args = Vec::with_capacity(inits.len() + 1);
        if let Some((_, _, t)) = counter {
            entry_args.push(self.constant(crate::cpu::prim::zero(t)));
        }
        entry_args.extend(&inits);
        self.builder.ins().jump(header, &block_args(&entry_args));

        self.builder.switch_to_block(header);
        let header_params = self.builder.block_params(header).to_vec();
        let (index_value, values) = match counter {
            Some(_) => (Some(header_params[0]), header_params[1..].to_vec()),
            None => (None, header_params),
        };
        let go_on = match (form, counter) {
            (_, Some((_, bound, t))) => {
                let cc = if t.is_signed_integer() {
                    IntCC::SignedLessThan
                } else {
                    IntCC::UnsignedLessThan
                };
                self.builder.ins().icmp(cc, index_value?, bound)
            }
            (LoopForm::While { condition_param }, None) => {
                let k = params
                    .iter()
                    .position(|(p, _)| &p.name == condition_param)?;
                if param_types[k] != PrimType::Bool {
                    return None;
                }
                values[k]
            }
            (LoopForm::For { .. }, None) => return None,
        };
        self.builder
            .ins()
            .brif(go_on, body_block, &[], exit, &block_args(&values));

        self.builder.switch_to_block(body_block);
        let saved = self.names.clone();
        if let Some((index, _, t)) = counter {
            self.bind(index, index_value?, t);
        }
        for (((p, _), v), t) in params.iter().zip(&values).zip(&param_types) {
            self.bind(&p.name, *v, *t);
        }
        let results = self.body(body);
        self.names = saved;
        let results = results?;
        if results.len() != param_types.len()
            || results.iter().zip(&param_types).any(|(r, t)| r.1 != *t)
        {
            return None;
        }
        let mut next: Vec<Value> = Vec::with_capacity(results.len() + 1);
        if let Some(i) = index_value {
            next.push(self.builder.ins().iadd_imm(i, 1));
        }
        next.extend(results.iter().map(|r| r.0));
        self.builder.ins().jump(header, &block_args(&next));

        self.builder.switch_to_block(exit);
        Some(self.builder.block_params(exit).to_vec())
    }

    /// A single-valued expression.
    fn scalar(&mut self, expression: &Exp) -> Option<(Value, PrimType)> {
        match expression {
            Exp::SubExp(s) => self.operand(s),
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => {
                let (a, ta) = self.operand(left)?;
                let (b, tb) = self.operand(right)?;
                if ta != *ty || tb != *ty {
                    return None;
                }
                Some((self.binop(*op, *ty, a, b)?, *ty))
            }
            Exp::UnOp { op, ty, operand } => {
                let (a, t) = self.operand(operand)?;
                if t != *ty {
                    return None;
                }
                self.unop(*op, t, a)
            }
            Exp::CmpOp {
                op,
                ty,
                left,
                right,
            } => {
                let (a, ta) = self.operand(left)?;
                let (b, tb) = self.operand(right)?;
                if ta != *ty || tb != *ty {
                    return None;
                }
                Some((self.cmpop(*op, *ty, a, b), PrimType::Bool))
            }
            Exp::ConvOp { op, operand } => {
                let (a, t) = self.operand(operand)?;
                if t != op.from {
                    return None;
                }
                Some((self.convert(*op, a), op.to))
            }
            Exp::Index { array, indices } => self.gather(array, indices),
            _ => None,
        }
    }

    /// `array[indices]`, one element of a free array, bounds-checked. In a
    /// selected branch (a [`Self::predicate`]) the read is speculative: an
    /// index out of bounds fails only when the predicate holds, and the
    /// read then comes from the scratch slot (its value is not selected).
    fn gather(&mut self, array: &VName, indices: &[SubExp]) -> Option<(Value, PrimType)> {
        let view = self.arrays.get(array)?.clone();
        if view.dims.len() != indices.len() {
            return None;
        }
        let mut flat: Option<Value> = None;
        let mut any_outside: Option<Value> = None;
        for (index, dim) in indices.iter().zip(&view.dims) {
            let (i, t) = self.operand(index)?;
            let i = self.index_as_i64(i, t)?;
            let outside = self
                .builder
                .ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, i, *dim);
            match (self.predicate, any_outside) {
                (None, _) => self.fail_if(outside),
                (Some(_), None) => any_outside = Some(outside),
                (Some(_), Some(o)) => any_outside = Some(self.builder.ins().bor(o, outside)),
            }
            flat = Some(match flat {
                None => i,
                Some(f) => {
                    let scaled = self.builder.ins().imul(f, *dim);
                    self.builder.ins().iadd(scaled, i)
                }
            });
        }
        let flat = match flat {
            Some(f) => f,
            None => self.builder.ins().iconst(types::I64, 0),
        };
        let offset = self
            .builder
            .ins()
            .imul_imm(flat, element_size(view.element));
        let mut address = self.builder.ins().iadd(view.base, offset);
        if let (Some(p), Some(outside)) = (self.predicate, any_outside) {
            let failed = self.builder.ins().band(p, outside);
            self.fail_if(failed);
            let scratch = self.builder.ins().stack_addr(types::I64, self.scratch, 0);
            address = self.builder.ins().select(outside, scratch, address);
        }
        let value =
            self.builder
                .ins()
                .load(machine_type(view.element), MemFlags::trusted(), address, 0);
        Some((value, view.element))
    }

    /// An integer index as an `i64` (sign- or zero-extended by its type).
    fn index_as_i64(&mut self, v: Value, t: PrimType) -> Option<Value> {
        if !t.is_integer() {
            return None;
        }
        Some(match t {
            PrimType::I64 | PrimType::U64 => v,
            _ if t.is_signed_integer() => self.builder.ins().sextend(types::I64, v),
            _ => self.builder.ins().uextend(types::I64, v),
        })
    }

    /// The 64-bit encoding of `v` ([`helpers::to_bits`]).
    pub fn encode(&mut self, v: Value, t: PrimType) -> Value {
        let ins = self.builder.ins();
        match t {
            PrimType::F32 => {
                let bits = ins.bitcast(types::I32, MemFlags::new(), v);
                self.builder.ins().uextend(types::I64, bits)
            }
            PrimType::F64 => ins.bitcast(types::I64, MemFlags::new(), v),
            PrimType::I64 | PrimType::U64 => v,
            _ => ins.uextend(types::I64, v),
        }
    }

    /// The value of type `t` that 64 bits encode ([`helpers::from_bits`]).
    pub fn decode(&mut self, bits: Value, t: PrimType) -> Value {
        let ins = self.builder.ins();
        match t {
            PrimType::F32 => {
                let low = ins.ireduce(types::I32, bits);
                self.builder.ins().bitcast(types::F32, MemFlags::new(), low)
            }
            PrimType::F64 => ins.bitcast(types::F64, MemFlags::new(), bits),
            PrimType::I64 | PrimType::U64 => bits,
            _ => ins.ireduce(machine_type(t), bits),
        }
    }

    /// Calls [`helpers::binop`]; fails when it does.
    fn binop_helper(&mut self, op: BinOp, t: PrimType, a: Value, b: Value) -> Value {
        let a = self.encode(a, t);
        let b = self.encode(b, t);
        let out = self.builder.ins().stack_addr(types::I64, self.scratch, 0);
        let op = self
            .builder
            .ins()
            .iconst(types::I32, i64::from(helpers::binop_code(op)));
        let ty = self
            .builder
            .ins()
            .iconst(types::I32, i64::from(helpers::type_code(t)));
        let callee = self
            .builder
            .ins()
            .iconst(types::I64, helpers::binop as *const () as usize as i64);
        let call =
            self.builder
                .ins()
                .call_indirect(self.signatures.binop, callee, &[op, ty, a, b, out]);
        let status = self.builder.inst_results(call)[0];
        self.fail_if(status);
        let bits = self
            .builder
            .ins()
            .load(types::I64, MemFlags::trusted(), out, 0);
        self.decode(bits, t)
    }

    /// Calls a unary helper ([`helpers::unop`] with `(op, type)` or
    /// [`helpers::convert`] with `(from, to)` as `codes`) on `a` of type
    /// `from`; the result has type `to`.
    fn unary_helper(
        &mut self,
        function: extern "C" fn(u32, u32, u64) -> u64,
        codes: (u32, u32),
        from: PrimType,
        to: PrimType,
        a: Value,
    ) -> Value {
        let a = self.encode(a, from);
        let first = self.builder.ins().iconst(types::I32, i64::from(codes.0));
        let second = self.builder.ins().iconst(types::I32, i64::from(codes.1));
        let callee = self
            .builder
            .ins()
            .iconst(types::I64, function as usize as i64);
        let call =
            self.builder
                .ins()
                .call_indirect(self.signatures.unary, callee, &[first, second, a]);
        let bits = self.builder.inst_results(call)[0];
        self.decode(bits, to)
    }

    pub fn binop(&mut self, op: BinOp, t: PrimType, a: Value, b: Value) -> Option<Value> {
        if t == PrimType::Bool {
            return Some(match op {
                BinOp::And | BinOp::LogAnd | BinOp::Min => self.builder.ins().band(a, b),
                BinOp::Or | BinOp::LogOr | BinOp::Max => self.builder.ins().bor(a, b),
                BinOp::Xor => self.builder.ins().bxor(a, b),
                _ => return None,
            });
        }
        if t.is_float() {
            let ins = self.builder.ins();
            return Some(match op {
                BinOp::Add => ins.fadd(a, b),
                BinOp::Sub => ins.fsub(a, b),
                BinOp::Mul => ins.fmul(a, b),
                BinOp::Div => ins.fdiv(a, b),
                BinOp::Mod
                | BinOp::Quot
                | BinOp::Rem
                | BinOp::Pow
                | BinOp::Min
                | BinOp::Max
                | BinOp::Atan2 => self.binop_helper(op, t, a, b),
                _ => return None,
            });
        }
        let signed = t.is_signed_integer();
        let ins = self.builder.ins();
        Some(match op {
            BinOp::Add => ins.iadd(a, b),
            BinOp::Sub => ins.isub(a, b),
            BinOp::Mul => ins.imul(a, b),
            BinOp::And => ins.band(a, b),
            BinOp::Or => ins.bor(a, b),
            BinOp::Xor => ins.bxor(a, b),
            BinOp::Min | BinOp::Max => {
                let cc = match (op == BinOp::Min, signed) {
                    (true, true) => IntCC::SignedLessThanOrEqual,
                    (true, false) => IntCC::UnsignedLessThanOrEqual,
                    (false, true) => IntCC::SignedGreaterThanOrEqual,
                    (false, false) => IntCC::UnsignedGreaterThanOrEqual,
                };
                let keep_a = ins.icmp(cc, a, b);
                self.builder.ins().select(keep_a, a, b)
            }
            BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem => self.division(op, t, a, b),
            BinOp::Shl | BinOp::Shr | BinOp::UShr => self.shift(op, t, a, b),
            BinOp::Pow | BinOp::MulHi => self.binop_helper(op, t, a, b),
            BinOp::Atan2 | BinOp::LogAnd | BinOp::LogOr => return None,
        })
    }

    /// Integer `/ % // %%`: division by zero fails; the most negative
    /// number divided by -1 wraps; `Div`/`Mod` round towards negative
    /// infinity.
    fn division(&mut self, op: BinOp, t: PrimType, a: Value, b: Value) -> Value {
        let ty = machine_type(t);
        let is_zero = self.builder.ins().icmp_imm(IntCC::Equal, b, 0);
        self.fail_if(is_zero);
        if !t.is_signed_integer() {
            let ins = self.builder.ins();
            return match op {
                BinOp::Div | BinOp::Quot => ins.udiv(a, b),
                _ => ins.urem(a, b),
            };
        }
        let ins = self.builder.ins();
        let all_ones = ins.iconst(ty, crate::cpu::prim::from_i64(-1, t).to_bits() as i64);
        let minus_one = self.builder.ins().icmp(IntCC::Equal, b, all_ones);
        let one = self.builder.ins().iconst(ty, 1);
        let safe = self.builder.ins().select(minus_one, one, b);
        let zero = self.builder.ins().iconst(ty, 0);
        match op {
            BinOp::Quot => {
                let q = self.builder.ins().sdiv(a, safe);
                let negated = self.builder.ins().ineg(a);
                self.builder.ins().select(minus_one, negated, q)
            }
            BinOp::Rem => self.builder.ins().srem(a, safe),
            BinOp::Div => {
                let q = self.builder.ins().sdiv(a, safe);
                let r = self.builder.ins().srem(a, safe);
                let inexact = self.builder.ins().icmp(IntCC::NotEqual, r, zero);
                let signs = self.builder.ins().bxor(a, b);
                let negative = self.builder.ins().icmp(IntCC::SignedLessThan, signs, zero);
                let adjust = self.builder.ins().band(inexact, negative);
                let one = self.builder.ins().iconst(ty, 1);
                let lower = self.builder.ins().isub(q, one);
                let rounded = self.builder.ins().select(adjust, lower, q);
                let negated = self.builder.ins().ineg(a);
                self.builder.ins().select(minus_one, negated, rounded)
            }
            _ => {
                let r = self.builder.ins().srem(a, safe);
                let inexact = self.builder.ins().icmp(IntCC::NotEqual, r, zero);
                let signs = self.builder.ins().bxor(r, b);
                let opposite = self.builder.ins().icmp(IntCC::SignedLessThan, signs, zero);
                let adjust = self.builder.ins().band(inexact, opposite);
                let moved = self.builder.ins().iadd(r, b);
                self.builder.ins().select(adjust, moved, r)
            }
        }
    }

    /// `<< >> >>>`: a shift by at least the width gives 0 (-1 for `>>` of a
    /// negative signed number); the amount is read as unsigned.
    fn shift(&mut self, op: BinOp, t: PrimType, a: Value, b: Value) -> Value {
        let ty = machine_type(t);
        let bits = self.builder.ins().iconst(ty, width(t));
        let big = self
            .builder
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, b, bits);
        let zero = self.builder.ins().iconst(ty, 0);
        match op {
            BinOp::Shl => {
                let shifted = self.builder.ins().ishl(a, b);
                self.builder.ins().select(big, zero, shifted)
            }
            BinOp::Shr if t.is_signed_integer() => {
                let shifted = self.builder.ins().sshr(a, b);
                let sign = self.builder.ins().sshr_imm(a, width(t) - 1);
                self.builder.ins().select(big, sign, shifted)
            }
            _ => {
                let shifted = self.builder.ins().ushr(a, b);
                self.builder.ins().select(big, zero, shifted)
            }
        }
    }

    pub fn unop(&mut self, op: UnOp, t: PrimType, a: Value) -> Option<(Value, PrimType)> {
        if t == PrimType::Bool {
            return match op {
                UnOp::Not => Some((self.builder.ins().icmp_imm(IntCC::Equal, a, 0), t)),
                _ => None,
            };
        }
        let result_type = op.result_type(t)?;
        if t.is_float() {
            let ins = self.builder.ins();
            let v = match op {
                UnOp::Neg => ins.fneg(a),
                UnOp::Abs => ins.fabs(a),
                UnOp::Sqrt => ins.sqrt(a),
                UnOp::Floor => ins.floor(a),
                UnOp::Ceil => ins.ceil(a),
                UnOp::Trunc => ins.trunc(a),
                UnOp::Round => ins.nearest(a),
                UnOp::IsNan => ins.fcmp(FloatCC::Unordered, a, a),
                UnOp::Not | UnOp::Popc | UnOp::Clz | UnOp::Ctz | UnOp::FromBits => return None,
                _ => self.unary_helper(
                    helpers::unop,
                    (helpers::unop_code(op), helpers::type_code(t)),
                    t,
                    result_type,
                    a,
                ),
            };
            return Some((v, result_type));
        }
        let ins = self.builder.ins();
        let v = match op {
            UnOp::Neg => ins.ineg(a),
            UnOp::Not => ins.bnot(a),
            UnOp::Abs | UnOp::Signum | UnOp::Popc | UnOp::Clz | UnOp::Ctz | UnOp::FromBits => self
                .unary_helper(
                    helpers::unop,
                    (helpers::unop_code(op), helpers::type_code(t)),
                    t,
                    result_type,
                    a,
                ),
            _ => return None,
        };
        Some((v, result_type))
    }

    pub fn cmpop(&mut self, op: CmpOp, t: PrimType, a: Value, b: Value) -> Value {
        if t.is_float() {
            let cc = match op {
                CmpOp::Eq => FloatCC::Equal,
                CmpOp::Ne => FloatCC::NotEqual,
                CmpOp::Lt => FloatCC::LessThan,
                CmpOp::Le => FloatCC::LessThanOrEqual,
                CmpOp::Gt => FloatCC::GreaterThan,
                CmpOp::Ge => FloatCC::GreaterThanOrEqual,
            };
            return self.builder.ins().fcmp(cc, a, b);
        }
        let signed = t.is_signed_integer();
        let cc = match (op, signed) {
            (CmpOp::Eq, _) => IntCC::Equal,
            (CmpOp::Ne, _) => IntCC::NotEqual,
            (CmpOp::Lt, true) => IntCC::SignedLessThan,
            (CmpOp::Le, true) => IntCC::SignedLessThanOrEqual,
            (CmpOp::Gt, true) => IntCC::SignedGreaterThan,
            (CmpOp::Ge, true) => IntCC::SignedGreaterThanOrEqual,
            (CmpOp::Lt, false) => IntCC::UnsignedLessThan,
            (CmpOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
            (CmpOp::Gt, false) => IntCC::UnsignedGreaterThan,
            (CmpOp::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
        };
        self.builder.ins().icmp(cc, a, b)
    }

    pub fn convert(&mut self, op: ConvOp, a: Value) -> Value {
        let (from, to) = (op.from, op.to);
        if from == to {
            return a;
        }
        let to_type = machine_type(to);
        let helper = |this: &mut Self| {
            this.unary_helper(
                helpers::convert,
                (helpers::type_code(from), helpers::type_code(to)),
                from,
                to,
                a,
            )
        };
        let from_int = from.is_integer() || from == PrimType::Bool;
        match (from_int, to) {
            (true, PrimType::Bool) => {
                if from == PrimType::Bool {
                    a
                } else {
                    self.builder.ins().icmp_imm(IntCC::NotEqual, a, 0)
                }
            }
            (true, PrimType::F32 | PrimType::F64) => {
                if from == PrimType::U64 {
                    return helper(self);
                }
                let wide = match from {
                    PrimType::I64 => a,
                    _ if from.is_signed_integer() => self.builder.ins().sextend(types::I64, a),
                    _ => self.builder.ins().uextend(types::I64, a),
                };
                self.builder.ins().fcvt_from_sint(to_type, wide)
            }
            (true, _) => {
                let (wf, wt) = (width(from), width(to));
                let signed = from.is_signed_integer();
                let ins = self.builder.ins();
                if wt < wf {
                    ins.ireduce(to_type, a)
                } else if wt > wf && signed {
                    ins.sextend(to_type, a)
                } else if wt > wf {
                    ins.uextend(to_type, a)
                } else {
                    a
                }
            }
            (false, PrimType::Bool) => {
                let zero = match from {
                    PrimType::F32 => self.builder.ins().f32const(0.0),
                    _ => self.builder.ins().f64const(0.0),
                };
                self.builder.ins().fcmp(FloatCC::NotEqual, a, zero)
            }
            (false, PrimType::F32) => self.builder.ins().fdemote(types::F32, a),
            (false, PrimType::F64) => self.builder.ins().fpromote(types::F64, a),
            (false, PrimType::I32 | PrimType::I64) => {
                self.builder.ins().fcvt_to_sint_sat(to_type, a)
            }
            (false, PrimType::U32 | PrimType::U64) => {
                self.builder.ins().fcvt_to_uint_sat(to_type, a)
            }
            (false, _) => helper(self),
        }
    }
}
