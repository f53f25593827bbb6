//! Block-vectorised execution of simple lambdas: the fast path of `map`,
//! `reduce`, `redomap`, `scan` and `scanomap`.
//!
//! A lambda qualifies when its parameters and results are primitives, its
//! body is scalar arithmetic (`SubExp`, `BinOp`, `UnOp`, `CmpOp`, `ConvOp`),
//! `if`s whose branches are such straight-line code, and `loop`s over
//! primitive parameters whose bodies qualify in turn, elements of free
//! arrays (`xs[i]`, a gather) and assertions. Such a lambda runs statement
//! by statement over blocks of
//! [`BLOCK`] elements held in typed columns, each statement one tight loop
//! over the block: the interpretive overhead is paid per block, not per
//! element. Free variables are read from the frame once per block.
//!
//! * An `if` runs both branches over the whole block and selects each
//!   lane's results by its condition (its branches are loop-free and
//!   infallible, so running a branch for lanes that do not take it is
//!   unobservable).
//! * A `loop` runs its body over the lanes still iterating, kept dense: a
//!   `while` loop drops the lanes whose condition parameter became false
//!   (their parameters are the loop's results, written to their lanes) and
//!   compacts the columns the body reads; a `for` loop's bound must be the
//!   same for every lane (a constant or a free variable), so every lane
//!   runs the same iterations and the index is one scalar.
//!
//! An operation that fails for some lane (an index out of bounds, a
//! division by zero, a false assertion) makes the run return [`Fallback`]:
//! the SOAC then runs again element by element, which reports the error of
//! the first failing element, as the element-wise path always does (SOACs
//! are pure, so running one again is unobservable). Branches run for lanes
//! that do not take them, so they may contain no operation that can fail.
//!
//! The results are bitwise those of the element-wise path: the same
//! operations in the same order per element, and reductions fold each block
//! in element order.

use super::columns::{OutSlice, Slice};
use super::machine::{Frame, Operand};
use super::prim;
use super::value::{Data, Val};
use crate::ir::{BinOp, CmpOp, Exp, Lambda, PrimType, PrimValue, SubExp, Type, UnOp, VName};
use std::collections::HashMap;

/// Elements per block.
pub const BLOCK: usize = 1024;

/// A typed column of up to [`BLOCK`] values.
#[derive(Clone, Debug, Default)]
pub enum Col {
    #[default]
    Empty,
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
}

macro_rules! col_cases {
    ($m:ident) => {
        $m!(I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, Bool)
    };
}

impl Col {
    fn new(t: PrimType) -> Col {
        match t {
            PrimType::I8 => Col::I8(vec![0; BLOCK]),
            PrimType::I16 => Col::I16(vec![0; BLOCK]),
            PrimType::I32 => Col::I32(vec![0; BLOCK]),
            PrimType::I64 => Col::I64(vec![0; BLOCK]),
            PrimType::U8 => Col::U8(vec![0; BLOCK]),
            PrimType::U16 => Col::U16(vec![0; BLOCK]),
            PrimType::U32 => Col::U32(vec![0; BLOCK]),
            PrimType::U64 => Col::U64(vec![0; BLOCK]),
            PrimType::F32 => Col::F32(vec![0.0; BLOCK]),
            PrimType::F64 => Col::F64(vec![0.0; BLOCK]),
            PrimType::Bool => Col::Bool(vec![false; BLOCK]),
        }
    }

    #[inline]
    fn set(&mut self, j: usize, value: PrimValue) {
        macro_rules! set {
            ($($v:ident),*) => {
                match (self, value) {
                    $((Col::$v(c), PrimValue::$v(x)) => c[j] = x,)*
                    _ => {}
                }
            };
        }
        col_cases!(set)
    }

    /// The first `len` values.
    fn slice(&self, len: usize) -> Slice<'_> {
        macro_rules! slice {
            ($($v:ident),*) => {
                match self {
                    $(Col::$v(c) => Slice::$v(&c[..len]),)*
                    Col::Empty => Slice::Bool(&[]),
                }
            };
        }
        col_cases!(slice)
    }
}

/// Where an instruction reads an operand.
#[derive(Clone, Copy, Debug)]
pub enum Src {
    Reg(usize),
    /// A constant or a free variable (read once per block).
    Scalar(Operand),
    /// The index of an enclosing `for` loop (the same in every lane): the
    /// `k`th of [`Registers::uniforms`].
    Uniform(usize),
}

#[derive(Clone, Debug)]
enum Instr {
    Copy {
        dst: usize,
        a: Src,
    },
    Bin {
        op: BinOp,
        ty: PrimType,
        dst: usize,
        a: Src,
        b: Src,
    },
    Un {
        op: UnOp,
        dst: usize,
        a: Src,
    },
    Cmp {
        op: CmpOp,
        dst: usize,
        a: Src,
        b: Src,
    },
    Conv {
        op: crate::ir::ConvOp,
        dst: usize,
        a: Src,
    },
    /// `dst = if cond then a else b`, lane by lane (an `if` whose branches
    /// ran over the whole block).
    Select {
        dst: usize,
        cond: Src,
        a: Src,
        b: Src,
    },
    Loop(Box<VectorLoop>),
    /// `dst = array[indices]`, an element of a free array of primitives;
    /// with a guard, only the lanes it selects are read (and checked), the
    /// others get an arbitrary value.
    Gather {
        dst: usize,
        array: usize,
        indices: Vec<Src>,
        guard: Option<Src>,
    },
    /// Every lane's `cond` holds.
    Assert {
        cond: Src,
    },
}

/// The run of a vectorised lambda failed for some element: run the SOAC
/// element by element instead (it finds the first failing element).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fallback;

/// A `loop` over primitive parameters, run over the lanes still iterating.
#[derive(Clone, Debug)]
struct VectorLoop {
    /// The registers of the loop parameters inside the loop.
    params: Vec<usize>,
    /// Their initial values (read in the enclosing lanes).
    inits: Vec<Src>,
    /// A scratch register per parameter: the body's results are copied
    /// there first (the parameters are assigned simultaneously).
    next: Vec<usize>,
    /// `(outer, inner)`: a column of the enclosing lanes the body reads, and
    /// the register holding its values for the lanes still iterating.
    invariants: Vec<(usize, usize)>,
    form: VectorLoopForm,
    body: Vec<Instr>,
    results: Vec<Src>,
    /// The registers of the loop's results, in the enclosing lanes.
    dsts: Vec<usize>,
    /// This loop's index in [`Registers::lanes`].
    id: usize,
}

#[derive(Clone, Debug)]
enum VectorLoopForm {
    /// `for i < bound`, `bound` the same in every lane; the index is
    /// [`Registers::uniforms`]`[uniform]`.
    For { bound: Operand, uniform: usize },
    /// `for i < bound[lane]`: the index and the bound are registers inside
    /// the loop (the bound one of its invariants); a lane stops when its
    /// index reaches its bound.
    ForLanes { bound: usize, index: usize },
    /// `while params[condition]`.
    While { condition: usize },
}

/// A lambda compiled to block instructions.
#[derive(Clone, Debug)]
pub struct VectorLambda {
    /// The register types (parameters first).
    registers: Vec<PrimType>,
    params: usize,
    instrs: Vec<Instr>,
    /// Where each result is.
    results: Vec<Src>,
    pub result_types: Vec<PrimType>,
    /// How many `for` loop indices and how many loops the body has.
    uniforms: usize,
    loops: usize,
}

/// Compiles `lambda` for blocks if it qualifies; `slot` resolves free
/// variables to frame slots.
pub fn plan(lambda: &Lambda, slot: &mut dyn FnMut(&VName) -> usize) -> Option<VectorLambda> {
    let mut planner = Planner {
        registers: Vec::new(),
        scopes: vec![Scope::default()],
        slot,
        uniforms: 0,
        loops: 0,
    };
    for p in &lambda.params {
        let Type::Prim(t) = p.ty else { return None };
        let r = planner.register(t);
        planner.bind(&p.name, r);
    }
    let params = planner.registers.len();
    let mut instrs = Vec::new();
    planner.statements(&lambda.body.statements, &mut instrs, None)?;
    let mut result_types = Vec::new();
    for t in &lambda.return_types {
        let Type::Prim(t) = t else { return None };
        result_types.push(*t);
    }
    let results = lambda.body.result.iter().map(|r| planner.src(r)).collect();
    Some(VectorLambda {
        registers: planner.registers,
        params,
        instrs,
        results,
        result_types,
        uniforms: planner.uniforms,
        loops: planner.loops,
    })
}

/// The names of one loop body (or of the lambda) and the enclosing columns
/// the body reads.
#[derive(Default)]
struct Scope {
    names: HashMap<VName, Src>,
    invariants: Vec<(usize, usize)>,
}

struct Planner<'s> {
    registers: Vec<PrimType>,
    /// The lambda's scope, then one per enclosing loop body.
    scopes: Vec<Scope>,
    slot: &'s mut dyn FnMut(&VName) -> usize,
    uniforms: usize,
    loops: usize,
}

impl Planner<'_> {
    fn register(&mut self, t: PrimType) -> usize {
        self.registers.push(t);
        self.registers.len() - 1
    }

    fn bind(&mut self, name: &VName, r: usize) {
        self.bind_src(name, Src::Reg(r));
    }

    fn bind_src(&mut self, name: &VName, src: Src) {
        let scope = self.scopes.last_mut().expect("a scope");
        scope.names.insert(name.clone(), src);
    }

    /// Where `s` is read in the innermost scope. A column bound outside an
    /// enclosing loop becomes an invariant of every loop in between (its
    /// values follow the loop's lanes).
    fn src(&mut self, s: &SubExp) -> Src {
        let v = match s {
            SubExp::Constant(c) => return Src::Scalar(Operand::Const(*c)),
            SubExp::Var(v) => v,
        };
        let Some(found) = (0..self.scopes.len())
            .rev()
            .find(|&k| self.scopes[k].names.contains_key(v))
        else {
            return Src::Scalar(Operand::Slot((self.slot)(v)));
        };
        let mut src = self.scopes[found].names[v];
        for k in found + 1..self.scopes.len() {
            if let Src::Reg(outer) = src {
                let inner = self.register(self.registers[outer]);
                self.scopes[k].invariants.push((outer, inner));
                self.scopes[k].names.insert(v.clone(), Src::Reg(inner));
                src = Src::Reg(inner);
            }
        }
        src
    }

    /// Plans `statements` into `instrs`; `guard`: inside an `if` branch,
    /// the lanes that take it (a `bool` operand). A branch runs for every
    /// lane, so loops (which might not end for lanes that do not take it)
    /// and operations that can fail are refused there, except gathers,
    /// which check bounds only for the lanes the guard selects.
    fn statements(
        &mut self,
        statements: &[crate::ir::Statement],
        instrs: &mut Vec<Instr>,
        guard: Option<Src>,
    ) -> Option<()> {
        for statement in statements {
            self.statement(statement, instrs, guard)?;
        }
        Some(())
    }

    fn statement(
        &mut self,
        statement: &crate::ir::Statement,
        instrs: &mut Vec<Instr>,
        guard: Option<Src>,
    ) -> Option<()> {
        let in_branch = guard.is_some();
        let mut types = Vec::with_capacity(statement.pattern.len());
        for p in &statement.pattern {
            let Type::Prim(t) = p.ty else { return None };
            types.push(t);
        }
        match &statement.expression {
            Exp::If {
                condition,
                then_body,
                else_body,
                ..
            } => {
                let cond = self.src(condition);
                let then_guard = self.guard(guard, cond, false, instrs);
                self.statements(&then_body.statements, instrs, Some(then_guard))?;
                let a: Vec<Src> = then_body.result.iter().map(|r| self.src(r)).collect();
                let else_guard = self.guard(guard, cond, true, instrs);
                self.statements(&else_body.statements, instrs, Some(else_guard))?;
                let b: Vec<Src> = else_body.result.iter().map(|r| self.src(r)).collect();
                for ((p, t), (a, b)) in statement
                    .pattern
                    .iter()
                    .zip(types)
                    .zip(a.into_iter().zip(b))
                {
                    let dst = self.register(t);
                    instrs.push(Instr::Select { dst, cond, a, b });
                    self.bind(&p.name, dst);
                }
                Some(())
            }
            Exp::Loop { params, form, body } if !in_branch => {
                self.plan_loop(statement, &types, params, form, body, instrs)
            }
            Exp::Assert { condition, .. } if !in_branch => {
                let cond = self.src(condition);
                instrs.push(Instr::Assert { cond });
                Some(())
            }
            expression => {
                let [pattern] = statement.pattern.as_slice() else {
                    return None;
                };
                let dst = self.register(types[0]);
                let instr = self.scalar(expression, dst, guard)?;
                self.bind(&pattern.name, dst);
                instrs.push(instr);
                Some(())
            }
        }
    }

    /// The lanes of a branch: `cond` (or its negation, `negate`) within
    /// the enclosing branch's `outer` lanes.
    fn guard(
        &mut self,
        outer: Option<Src>,
        cond: Src,
        negate: bool,
        instrs: &mut Vec<Instr>,
    ) -> Src {
        let mut lanes = cond;
        if negate {
            let dst = self.register(PrimType::Bool);
            instrs.push(Instr::Un {
                op: UnOp::Not,
                dst,
                a: lanes,
            });
            lanes = Src::Reg(dst);
        }
        if let Some(outer) = outer {
            let dst = self.register(PrimType::Bool);
            instrs.push(Instr::Bin {
                op: BinOp::LogAnd,
                ty: PrimType::Bool,
                dst,
                a: outer,
                b: lanes,
            });
            lanes = Src::Reg(dst);
        }
        lanes
    }

    /// One scalar operation writing `dst`; in a branch (`guard`), only one
    /// that cannot fail or a gather checked for the guarded lanes.
    fn scalar(&mut self, expression: &Exp, dst: usize, guard: Option<Src>) -> Option<Instr> {
        let in_branch = guard.is_some();
        Some(match expression {
            Exp::SubExp(a) => Instr::Copy {
                dst,
                a: self.src(a),
            },
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => {
                // A guarded lane computes its operation whether or not
                // its branch is taken: nothing that can fail.
                if in_branch && crate::ir::effects::binop_can_fail(*op, *ty, right) {
                    return None;
                }
                Instr::Bin {
                    op: *op,
                    ty: *ty,
                    dst,
                    a: self.src(left),
                    b: self.src(right),
                }
            }
            Exp::UnOp { op, operand, .. } => Instr::Un {
                op: *op,
                dst,
                a: self.src(operand),
            },
            Exp::CmpOp {
                op, left, right, ..
            } => Instr::Cmp {
                op: *op,
                dst,
                a: self.src(left),
                b: self.src(right),
            },
            Exp::ConvOp { op, operand } => Instr::Conv {
                op: *op,
                dst,
                a: self.src(operand),
            },
            Exp::Index { array, indices } => {
                // Only free arrays: arrays bound inside the lambda are not
                // vectorised, so a name the planner knows is a primitive.
                let Src::Scalar(Operand::Slot(array)) = self.src(&SubExp::Var(array.clone()))
                else {
                    return None;
                };
                Instr::Gather {
                    dst,
                    array,
                    indices: indices.iter().map(|i| self.src(i)).collect(),
                    guard,
                }
            }
            _ => return None,
        })
    }

    fn plan_loop(
        &mut self,
        statement: &crate::ir::Statement,
        types: &[PrimType],
        params: &[(crate::ir::Param, SubExp)],
        form: &crate::ir::LoopForm,
        body: &crate::ir::Body,
        instrs: &mut Vec<Instr>,
    ) -> Option<()> {
        let inits: Vec<Src> = params.iter().map(|(_, init)| self.src(init)).collect();
        // The form as seen from outside the loop; a per-lane bound is
        // resolved again inside it (as an invariant).
        enum Outside<'a> {
            Uniform(&'a VName, Operand),
            Lanes(&'a VName, &'a SubExp),
            While(usize),
        }
        let outside = match form {
            crate::ir::LoopForm::For { index, bound } => match self.src(bound) {
                Src::Scalar(operand) => Outside::Uniform(index, operand),
                Src::Reg(_) => Outside::Lanes(index, bound),
                Src::Uniform(_) => return None,
            },
            crate::ir::LoopForm::While { condition_param } => Outside::While(
                params
                    .iter()
                    .position(|(p, _)| &p.name == condition_param)?,
            ),
        };
        self.scopes.push(Scope::default());
        let mut param_registers = Vec::with_capacity(params.len());
        let mut next = Vec::with_capacity(params.len());
        for (p, _) in params {
            let Type::Prim(t) = p.ty else {
                self.scopes.pop();
                return None;
            };
            let r = self.register(t);
            self.bind(&p.name, r);
            param_registers.push(r);
            next.push(self.register(t));
        }
        let form = match outside {
            Outside::Uniform(index, bound) => {
                self.uniforms += 1;
                let uniform = self.uniforms - 1;
                self.bind_src(index, Src::Uniform(uniform));
                VectorLoopForm::For { bound, uniform }
            }
            Outside::Lanes(index, bound) => {
                let Src::Reg(bound) = self.src(bound) else {
                    unreachable!("a column outside the loop is a column inside it")
                };
                let index_register = self.register(self.registers[bound]);
                self.bind(index, index_register);
                VectorLoopForm::ForLanes {
                    bound,
                    index: index_register,
                }
            }
            Outside::While(condition) => VectorLoopForm::While { condition },
        };
        let mut body_instrs = Vec::new();
        let planned = self.statements(&body.statements, &mut body_instrs, None);
        let results: Vec<Src> = body.result.iter().map(|r| self.src(r)).collect();
        let scope = self.scopes.pop().expect("the loop's scope");
        planned?;
        let id = self.loops;
        self.loops += 1;
        let mut dsts = Vec::with_capacity(types.len());
        for (p, t) in statement.pattern.iter().zip(types) {
            let dst = self.register(*t);
            self.bind(&p.name, dst);
            dsts.push(dst);
        }
        instrs.push(Instr::Loop(Box::new(VectorLoop {
            params: param_registers,
            inits,
            next,
            invariants: scope.invariants,
            form,
            body: body_instrs,
            results,
            dsts,
            id,
        })));
        Some(())
    }
}

/// The registers of one worker, reused from block to block: a column per
/// computed value, and the input arrays with the current block's bounds
/// (parameters are read in place).
pub struct Registers {
    cols: Vec<Col>,
    inputs: Vec<Data>,
    from: usize,
    len: usize,
    /// The current index of each `for` loop.
    uniforms: Vec<PrimValue>,
    /// Per loop: the enclosing lane of each lane still iterating.
    lanes: Vec<Vec<u32>>,
    /// Scratch: which lanes keep iterating.
    keep: Vec<bool>,
}

impl Registers {
    /// The arrays the parameters read.
    pub(crate) fn inputs(&self) -> &[Data] {
        &self.inputs
    }

    /// The arrays the parameters read, to update between runs.
    pub(crate) fn inputs_mut(&mut self) -> &mut [Data] {
        &mut self.inputs
    }
}

/// At most this many spare columns are kept per thread.
const POOL_LIMIT: usize = 512;

thread_local! {
    /// Spare columns of finished runs, by type: a SOAC nested in another
    /// SOAC's lambda runs once per outer element, and allocating and
    /// zeroing its registers each time would cost more than running it.
    static COLUMN_POOL: std::cell::RefCell<Vec<Col>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A column of type `t` ([`BLOCK`] long) from the pool, or a new one. Its
/// values are whatever the last user left: every register is written
/// before it is read.
fn pooled_column(t: PrimType) -> Col {
    COLUMN_POOL
        .with(|pool| {
            let mut pool = pool.borrow_mut();
            let found = pool.iter().rposition(|c| c.has_type(t))?;
            Some(pool.swap_remove(found))
        })
        .unwrap_or_else(|| Col::new(t))
}

impl Drop for Registers {
    fn drop(&mut self) {
        COLUMN_POOL.with(|pool| {
            let mut pool = pool.borrow_mut();
            for col in self.cols.drain(..) {
                if pool.len() >= POOL_LIMIT {
                    break;
                }
                if !matches!(col, Col::Empty) {
                    pool.push(col);
                }
            }
        });
    }
}

/// An operand of a kernel: a column or a scalar broadcast over the block.
enum Arg<'a> {
    Col(Slice<'a>),
    Scalar(PrimValue),
}

impl VectorLambda {
    /// The registers of one worker reading its parameters from `inputs`
    /// (one array per parameter, in order).
    pub fn registers(&self, inputs: impl IntoIterator<Item = Data>) -> Registers {
        Registers {
            cols: self
                .registers
                .iter()
                .enumerate()
                .map(|(r, t)| {
                    if r < self.params {
                        Col::Empty
                    } else {
                        pooled_column(*t)
                    }
                })
                .collect(),
            inputs: inputs.into_iter().take(self.params).collect(),
            from: 0,
            len: 0,
            uniforms: vec![PrimValue::I64(0); self.uniforms],
            lanes: vec![Vec::with_capacity(BLOCK); self.loops],
            keep: Vec::with_capacity(BLOCK),
        }
    }

    /// Writes result `k` of the block's first `len` lanes into input `p`
    /// at `at..at + len` (the lane scan feeds an operator's results back as
    /// its next accumulator: `soac::lanes`). Input `p` is updated in place
    /// when unshared.
    pub(crate) fn result_into_input(
        &self,
        regs: &mut Registers,
        frame: &Frame,
        k: usize,
        p: usize,
        at: usize,
        len: usize,
    ) {
        match self.results[k] {
            // A computed column: copied straight into the input.
            Src::Reg(r) if r >= self.params => {
                regs.cols[r].slice(len).store_into(&mut regs.inputs[p], at);
            }
            src => {
                let values = match arg(regs, frame, src) {
                    Arg::Col(c) => c.to_data(len),
                    Arg::Scalar(v) => Data::filled(v, len),
                };
                regs.inputs[p].copy_within_from(at, &values, 0, len);
            }
        }
    }

    /// Moves the registers to the block `from..from + len` of the inputs.
    pub fn select_block(&self, regs: &mut Registers, from: usize, len: usize) {
        regs.from = from;
        regs.len = len;
    }

    /// How many parameters (columns loaded per block) the lambda has.
    pub fn param_count(&self) -> usize {
        self.params
    }

    /// Runs the instructions over the first `len` elements of the block.
    pub fn run(&self, regs: &mut Registers, frame: &Frame, len: usize) -> Result<(), Fallback> {
        run_instrs(&self.instrs, regs, frame, len)
    }

    /// Writes result `k` of the block to `out[at..at + len]`.
    pub(crate) fn store_result(
        &self,
        regs: &Registers,
        frame: &Frame,
        k: usize,
        out: &mut OutSlice<'_>,
        at: usize,
        len: usize,
    ) {
        match arg(regs, frame, self.results[k]) {
            Arg::Col(c) => out.store_col(c, at, len),
            Arg::Scalar(v) => {
                let value = super::value::Val::Prim(v);
                for j in 0..len {
                    out.write(at + j, 1, &value);
                }
            }
        }
    }

    /// Folds result `k` of the block's first `len` elements into `acc` with
    /// `op`, in element order.
    pub fn fold_result(
        &self,
        regs: &Registers,
        frame: &Frame,
        k: usize,
        op: BinOp,
        acc: PrimValue,
        len: usize,
    ) -> PrimValue {
        let a = arg(regs, frame, self.results[k]);
        macro_rules! fold {
            ($variant:ident, $f:expr) => {
                if let (Arg::Col(Slice::$variant(c)), PrimValue::$variant(mut x)) = (&a, acc) {
                    let f = $f;
                    for &y in &c[..len] {
                        x = f(x, y);
                    }
                    return PrimValue::$variant(x);
                }
            };
        }
        match op {
            BinOp::Add => {
                fold!(F32, |x: f32, y: f32| x + y);
                fold!(F64, |x: f64, y: f64| x + y);
                fold!(I32, |x: i32, y: i32| x.wrapping_add(y));
                fold!(I64, |x: i64, y: i64| x.wrapping_add(y));
            }
            BinOp::Mul => {
                fold!(F32, |x: f32, y: f32| x * y);
                fold!(F64, |x: f64, y: f64| x * y);
                fold!(I32, |x: i32, y: i32| x.wrapping_mul(y));
                fold!(I64, |x: i64, y: i64| x.wrapping_mul(y));
            }
            BinOp::Max => {
                fold!(F32, |x: f32, y: f32| x.max(y));
                fold!(F64, |x: f64, y: f64| x.max(y));
                fold!(I32, |x: i32, y: i32| x.max(y));
                fold!(I64, |x: i64, y: i64| x.max(y));
            }
            BinOp::Min => {
                fold!(F32, |x: f32, y: f32| x.min(y));
                fold!(F64, |x: f64, y: f64| x.min(y));
                fold!(I32, |x: i32, y: i32| x.min(y));
                fold!(I64, |x: i64, y: i64| x.min(y));
            }
            _ => {}
        }
        let mut x = acc;
        for j in 0..len {
            x = prim::binop_dynamic(op, x, a.get(j)).unwrap_or(x);
        }
        x
    }
}

/// Runs `instrs` over the first `len` lanes.
fn run_instrs(
    instrs: &[Instr],
    regs: &mut Registers,
    frame: &Frame,
    len: usize,
) -> Result<(), Fallback> {
    for instr in instrs {
        match instr {
            Instr::Copy { dst, a } => {
                let mut out = std::mem::take(&mut regs.cols[*dst]);
                copy(arg(regs, frame, *a), &mut out, len);
                regs.cols[*dst] = out;
            }
            Instr::Bin { op, ty, dst, a, b } => {
                let mut out = std::mem::take(&mut regs.cols[*dst]);
                let done = binary(
                    *op,
                    *ty,
                    arg(regs, frame, *a),
                    arg(regs, frame, *b),
                    &mut out,
                    len,
                );
                regs.cols[*dst] = out;
                done?;
            }
            Instr::Un { op, dst, a } => {
                let mut out = std::mem::take(&mut regs.cols[*dst]);
                let done = unary(*op, arg(regs, frame, *a), &mut out, len);
                regs.cols[*dst] = out;
                done?;
            }
            Instr::Cmp { op, dst, a, b } => {
                let mut out = std::mem::take(&mut regs.cols[*dst]);
                compare(
                    *op,
                    arg(regs, frame, *a),
                    arg(regs, frame, *b),
                    &mut out,
                    len,
                );
                regs.cols[*dst] = out;
            }
            Instr::Conv { op, dst, a } => {
                let mut out = std::mem::take(&mut regs.cols[*dst]);
                match arg(regs, frame, *a) {
                    Arg::Scalar(x) => copy(Arg::Scalar(prim::convert(*op, x)), &mut out, len),
                    a => {
                        for j in 0..len {
                            out.set(j, prim::convert(*op, a.get(j)));
                        }
                    }
                }
                regs.cols[*dst] = out;
            }
            Instr::Select { dst, cond, a, b } => {
                let mut out = std::mem::take(&mut regs.cols[*dst]);
                select(
                    arg(regs, frame, *cond),
                    arg(regs, frame, *a),
                    arg(regs, frame, *b),
                    &mut out,
                    len,
                );
                regs.cols[*dst] = out;
            }
            Instr::Loop(l) => run_loop(l, regs, frame, len)?,
            Instr::Gather {
                dst,
                array,
                indices,
                guard,
            } => {
                let mut out = std::mem::take(&mut regs.cols[*dst]);
                let guard = guard.map(|g| arg(regs, frame, g));
                let done = gather(regs, frame, *array, indices, guard, &mut out, len);
                regs.cols[*dst] = out;
                done?;
            }
            Instr::Assert { cond } => match arg(regs, frame, *cond) {
                Arg::Scalar(PrimValue::Bool(true)) => {}
                Arg::Col(Slice::Bool(c)) if c[..len].iter().all(|&c| c) => {}
                _ => return Err(Fallback),
            },
        }
    }
    Ok(())
}

/// `out[j] = array[indices[j]]` for the first `len` lanes (those `guard`
/// selects, if any).
fn gather(
    regs: &Registers,
    frame: &Frame,
    array: usize,
    indices: &[Src],
    guard: Option<Arg<'_>>,
    out: &mut Col,
    len: usize,
) -> Result<(), Fallback> {
    let Val::Array(array) = &frame[array] else {
        unreachable!("an indexed variable is an array")
    };
    if array.shape.len() != indices.len() {
        unreachable!("a gather reads a primitive element")
    }
    let indices: Vec<Arg<'_>> = indices.iter().map(|i| arg(regs, frame, *i)).collect();
    let selected = |j: usize| match &guard {
        None => true,
        Some(g) => matches!(g.get(j), PrimValue::Bool(true)),
    };
    if guard.is_some() {
        // Guarded: element by element, in bounds or not selected.
        for j in 0..len {
            let mut offset = Some(0usize);
            for (index, &n) in indices.iter().zip(&array.shape) {
                let i = prim::as_i64(index.get(j)).unwrap_or(-1);
                offset = offset.filter(|_| 0 <= i && (i as u64) < n as u64);
                offset = offset.map(|o| o * n + i as usize);
            }
            match offset {
                Some(offset) => out.set(j, array.data.get(offset)),
                None if selected(j) => return Err(Fallback),
                None => {}
            }
        }
        return Ok(());
    }
    if indices.iter().all(|i| matches!(i, Arg::Scalar(_))) {
        // The same element for every lane (an index of an enclosing
        // uniform loop, a free variable, a constant).
        let mut offset = 0usize;
        for (index, &n) in indices.iter().zip(&array.shape) {
            let i = prim::as_i64(index.get(0)).unwrap_or(-1);
            if i < 0 || i as u64 >= n as u64 {
                return Err(Fallback);
            }
            offset = offset * n + i as usize;
        }
        copy(Arg::Scalar(array.data.get(offset)), out, len);
        return Ok(());
    }
    if indices.len() > 1
        && indices
            .iter()
            .all(|i| matches!(i, Arg::Scalar(PrimValue::I64(_)) | Arg::Col(Slice::I64(_))))
    {
        // Several dimensions: flat offsets first (bounds checked), then one
        // typed gather.
        let mut offsets = vec![0usize; len];
        for (index, &n) in indices.iter().zip(&array.shape) {
            let mut in_bounds = true;
            match index {
                Arg::Col(Slice::I64(is)) => {
                    for (o, &i) in offsets.iter_mut().zip(&is[..len]) {
                        in_bounds &= 0 <= i && (i as u64) < n as u64;
                        *o = *o * n + i as usize;
                    }
                }
                Arg::Scalar(PrimValue::I64(i)) => {
                    in_bounds = 0 <= *i && (*i as u64) < n as u64;
                    for o in offsets.iter_mut() {
                        *o = *o * n + *i as usize;
                    }
                }
                _ => unreachable!("checked above"),
            }
            if !in_bounds {
                return Err(Fallback);
            }
        }
        macro_rules! by_offsets {
            ($($v:ident),*) => {
                match (&array.data, &mut *out) {
                    $((Data::$v(d), Col::$v(o)) => {
                        for (o, &k) in o[..len].iter_mut().zip(&offsets) {
                            *o = d[k];
                        }
                        return Ok(());
                    })*
                    _ => {}
                }
            };
        }
        col_cases!(by_offsets);
    }
    if let ([Arg::Col(Slice::I64(is))], [n]) = (indices.as_slice(), array.shape.as_slice()) {
        // The common case: one dimension, a column of indices.
        if is[..len].iter().any(|&i| i < 0 || i as u64 >= *n as u64) {
            return Err(Fallback);
        }
        macro_rules! typed {
            ($($v:ident),*) => {
                match (&array.data, &mut *out) {
                    $((Data::$v(d), Col::$v(o)) => {
                        for (o, &i) in o[..len].iter_mut().zip(&is[..len]) {
                            *o = d[i as usize];
                        }
                        return Ok(());
                    })*
                    _ => {}
                }
            };
        }
        col_cases!(typed);
    }
    for j in 0..len {
        let mut offset = 0usize;
        for (index, &n) in indices.iter().zip(&array.shape) {
            let i = prim::as_i64(index.get(j)).unwrap_or(-1);
            if i < 0 || i as u64 >= n as u64 {
                return Err(Fallback);
            }
            offset = offset * n + i as usize;
        }
        out.set(j, array.data.get(offset));
    }
    Ok(())
}

/// Runs a loop for the first `len` lanes, writing its results to
/// `l.dsts`.
fn run_loop(
    l: &VectorLoop,
    regs: &mut Registers,
    frame: &Frame,
    len: usize,
) -> Result<(), Fallback> {
    let assign = |regs: &mut Registers, targets: &[usize], sources: &[Src], count: usize| {
        for (&target, &source) in targets.iter().zip(sources) {
            let mut out = std::mem::take(&mut regs.cols[target]);
            copy(arg(regs, frame, source), &mut out, count);
            regs.cols[target] = out;
        }
    };
    assign(regs, &l.params, &l.inits, len);
    for &(outer, inner) in &l.invariants {
        let mut out = std::mem::take(&mut regs.cols[inner]);
        copy(arg(regs, frame, Src::Reg(outer)), &mut out, len);
        regs.cols[inner] = out;
    }
    let mut count = len;
    match l.form {
        VectorLoopForm::For { bound, uniform } => {
            let bound = bound.prim(frame);
            let iterations = prim::as_i64(bound).unwrap_or(0);
            for i in 0..iterations {
                regs.uniforms[uniform] = prim::from_i64(i, bound.prim_type());
                run_instrs(&l.body, regs, frame, count)?;
                assign(regs, &l.next, &l.results, count);
                for (&p, &n) in l.params.iter().zip(&l.next) {
                    regs.cols.swap(p, n);
                }
            }
            // Every lane ran every iteration: the lanes are in order.
            let params: Vec<Src> = l.params.iter().map(|&p| Src::Reg(p)).collect();
            assign(regs, &l.dsts, &params, count);
        }
        VectorLoopForm::While { .. } | VectorLoopForm::ForLanes { .. } => {
            let mut lanes = std::mem::take(&mut regs.lanes[l.id]);
            lanes.clear();
            lanes.extend(0..len as u32);
            let mut keep = std::mem::take(&mut regs.keep);
            if let VectorLoopForm::ForLanes { index, .. } = l.form {
                let zero = Arg::Scalar(prim::zero(regs.cols[index].prim_type()));
                let mut out = std::mem::take(&mut regs.cols[index]);
                copy(zero, &mut out, len);
                regs.cols[index] = out;
            }
            let outcome = loop {
                keep.clear();
                match l.form {
                    VectorLoopForm::While { condition } => match &regs.cols[l.params[condition]] {
                        Col::Bool(c) => keep.extend_from_slice(&c[..count]),
                        _ => unreachable!("a while loop's condition is a bool"),
                    },
                    VectorLoopForm::ForLanes { bound, index } => {
                        keep.resize(count, false);
                        let mut below = Col::Bool(std::mem::take(&mut keep));
                        compare(
                            CmpOp::Lt,
                            arg(regs, frame, Src::Reg(index)),
                            arg(regs, frame, Src::Reg(bound)),
                            &mut below,
                            count,
                        );
                        let Col::Bool(below) = below else {
                            unreachable!("a comparison is a bool")
                        };
                        keep = below;
                    }
                    VectorLoopForm::For { .. } => unreachable!("a uniform loop does not compact"),
                }
                if keep.iter().any(|k| !k) {
                    for (&p, &dst) in l.params.iter().zip(&l.dsts) {
                        let (source, target) = two_columns(&mut regs.cols, p, dst);
                        target.write_finished(source, &keep, &lanes, count);
                    }
                    let mut kept = 0;
                    for j in 0..count {
                        lanes[kept] = lanes[j];
                        kept += keep[j] as usize;
                    }
                    lanes.truncate(kept);
                    for r in l.carried() {
                        regs.cols[r].compact(&keep, count);
                    }
                    count = kept;
                }
                if count == 0 {
                    break Ok(());
                }
                if let Err(fallback) = run_instrs(&l.body, regs, frame, count) {
                    break Err(fallback);
                }
                assign(regs, &l.next, &l.results, count);
                for (&p, &n) in l.params.iter().zip(&l.next) {
                    regs.cols.swap(p, n);
                }
                if let VectorLoopForm::ForLanes { index, .. } = l.form {
                    regs.cols[index].increment(count);
                }
            };
            regs.lanes[l.id] = lanes;
            regs.keep = keep;
            outcome?;
        }
    }
    Ok(())
}

impl VectorLoop {
    /// The registers whose lanes follow the lanes still iterating: the
    /// parameters, the invariants and a per-lane index.
    fn carried(&self) -> impl Iterator<Item = usize> + '_ {
        let index = match self.form {
            VectorLoopForm::ForLanes { index, .. } => Some(index),
            _ => None,
        };
        self.params
            .iter()
            .copied()
            .chain(self.invariants.iter().map(|&(_, inner)| inner))
            .chain(index)
    }
}

/// Two distinct columns, the first shared and the second mutable.
fn two_columns(cols: &mut [Col], read: usize, write: usize) -> (&Col, &mut Col) {
    debug_assert_ne!(read, write);
    if read < write {
        let (low, high) = cols.split_at_mut(write);
        (&low[read], &mut high[0])
    } else {
        let (low, high) = cols.split_at_mut(read);
        (&high[0], &mut low[write])
    }
}

impl Col {
    /// Whether the column holds values of type `t`.
    fn has_type(&self, t: PrimType) -> bool {
        !matches!(self, Col::Empty) && self.prim_type() == t
    }

    /// Adds one to the first `count` values (a loop index: an integer).
    fn increment(&mut self, count: usize) {
        macro_rules! increment {
            ($($v:ident),*) => {
                match self {
                    $(Col::$v(c) => {
                        for x in &mut c[..count] {
                            *x = x.wrapping_add(1);
                        }
                    })*
                    _ => unreachable!("a loop index is an integer"),
                }
            };
        }
        increment!(I8, I16, I32, I64, U8, U16, U32, U64)
    }

    /// The type of the column's values.
    fn prim_type(&self) -> PrimType {
        macro_rules! prim_type {
            ($($v:ident),*) => {
                match self {
                    $(Col::$v(_) => PrimType::$v,)*
                    Col::Empty => unreachable!("a parameter's column is never computed"),
                }
            };
        }
        col_cases!(prim_type)
    }

    /// Keeps the lanes `j < count` with `keep[j]`, in order, at the front.
    fn compact(&mut self, keep: &[bool], count: usize) {
        macro_rules! compact {
            ($($v:ident),*) => {
                match self {
                    $(Col::$v(c) => {
                        // Branch-free: the store is overwritten unless kept.
                        let mut kept = 0;
                        for j in 0..count {
                            c[kept] = c[j];
                            kept += keep[j] as usize;
                        }
                    })*
                    Col::Empty => {}
                }
            };
        }
        col_cases!(compact)
    }

    /// `self[lanes[j]] = source[j]` for the lanes `j < count` that stop
    /// (`!keep[j]`).
    fn write_finished(&mut self, source: &Col, keep: &[bool], lanes: &[u32], count: usize) {
        macro_rules! write_finished {
            ($($v:ident),*) => {
                match (self, source) {
                    $((Col::$v(target), Col::$v(source)) => {
                        for j in 0..count {
                            if !keep[j] {
                                target[lanes[j] as usize] = source[j];
                            }
                        }
                    })*
                    _ => unreachable!("a loop parameter and its result have one type"),
                }
            };
        }
        col_cases!(write_finished)
    }
}

/// `out[..len] = a`, typed.
fn copy(a: Arg<'_>, out: &mut Col, len: usize) {
    macro_rules! copy {
        ($($v:ident),*) => {
            match (&mut *out, &a) {
                $((Col::$v(o), Arg::Col(Slice::$v(x))) => {
                    o[..len].copy_from_slice(&x[..len]);
                    return;
                })*
                $((Col::$v(o), Arg::Scalar(PrimValue::$v(x))) => {
                    o[..len].fill(*x);
                    return;
                })*
                _ => {}
            }
        };
    }
    col_cases!(copy);
    unreachable!("an operand's type is its destination's")
}

/// `out[j] = if cond[j] then a[j] else b[j]`.
fn select(cond: Arg<'_>, a: Arg<'_>, b: Arg<'_>, out: &mut Col, len: usize) {
    match cond {
        Arg::Scalar(PrimValue::Bool(c)) => copy(if c { a } else { b }, out, len),
        Arg::Col(Slice::Bool(c)) => {
            macro_rules! typed {
                ($($v:ident),*) => {
                    match (&mut *out, &a, &b) {
                        $((Col::$v(o), Arg::Col(Slice::$v(x)), Arg::Col(Slice::$v(y))) => {
                            // Zipped slices: no bounds checks, so the loop vectorises.
                            let lanes = o[..len].iter_mut().zip(&c[..len]).zip(&x[..len]).zip(&y[..len]);
                            for (((o, &c), &x), &y) in lanes {
                                *o = if c { x } else { y };
                            }
                            return;
                        })*
                        $((Col::$v(o), Arg::Col(Slice::$v(x)), Arg::Scalar(PrimValue::$v(y))) => {
                            for ((o, &c), &x) in o[..len].iter_mut().zip(&c[..len]).zip(&x[..len]) {
                                *o = if c { x } else { *y };
                            }
                            return;
                        })*
                        $((Col::$v(o), Arg::Scalar(PrimValue::$v(x)), Arg::Col(Slice::$v(y))) => {
                            for ((o, &c), &y) in o[..len].iter_mut().zip(&c[..len]).zip(&y[..len]) {
                                *o = if c { *x } else { y };
                            }
                            return;
                        })*
                        $((Col::$v(o), Arg::Scalar(PrimValue::$v(x)), Arg::Scalar(PrimValue::$v(y))) => {
                            for (o, &c) in o[..len].iter_mut().zip(&c[..len]) {
                                *o = if c { *x } else { *y };
                            }
                            return;
                        })*
                        _ => {}
                    }
                };
            }
            col_cases!(typed);
            for (j, &c) in c[..len].iter().enumerate() {
                out.set(j, if c { a.get(j) } else { b.get(j) });
            }
        }
        _ => unreachable!("a condition is a bool"),
    }
}

fn arg<'a>(regs: &'a Registers, frame: &Frame, src: Src) -> Arg<'a> {
    match src {
        Src::Reg(r) if r < regs.inputs.len() => {
            Arg::Col(Slice::of_data(&regs.inputs[r], regs.from, regs.len))
        }
        Src::Reg(r) => Arg::Col(regs.cols[r].slice(regs.len)),
        Src::Scalar(o) => Arg::Scalar(o.prim(frame)),
        Src::Uniform(k) => Arg::Scalar(regs.uniforms[k]),
    }
}

impl Arg<'_> {
    #[inline]
    fn get(&self, j: usize) -> PrimValue {
        match self {
            Arg::Col(c) => c.get(j),
            Arg::Scalar(v) => *v,
        }
    }
}

/// Typed loops for the common cases, the element-wise primitive otherwise.
fn binary(
    op: BinOp,
    ty: PrimType,
    a: Arg<'_>,
    b: Arg<'_>,
    out: &mut Col,
    len: usize,
) -> Result<(), Fallback> {
    if let (Arg::Scalar(x), Arg::Scalar(y)) = (&a, &b) {
        // The same operands in every lane: computed once.
        let value = prim::binop_fn(op, ty)(*x, *y).map_err(|_| Fallback)?;
        copy(Arg::Scalar(value), out, len);
        return Ok(());
    }
    macro_rules! typed {
        ($variant:ident, $t:ty, $f:expr) => {
            if let Col::$variant(o) = out {
                let f = $f;
                match (&a, &b) {
                    (Arg::Col(Slice::$variant(x)), Arg::Col(Slice::$variant(y))) => {
                        for ((o, x), y) in o[..len].iter_mut().zip(&x[..len]).zip(&y[..len]) {
                            *o = f(*x, *y);
                        }
                        return Ok(());
                    }
                    (Arg::Scalar(PrimValue::$variant(x)), Arg::Col(Slice::$variant(y))) => {
                        for (o, y) in o[..len].iter_mut().zip(&y[..len]) {
                            *o = f(*x, *y);
                        }
                        return Ok(());
                    }
                    (Arg::Col(Slice::$variant(x)), Arg::Scalar(PrimValue::$variant(y))) => {
                        for (o, x) in o[..len].iter_mut().zip(&x[..len]) {
                            *o = f(*x, *y);
                        }
                        return Ok(());
                    }
                    _ => {}
                }
            }
        };
    }
    // Floor division and modulo by a positive scalar (Futhark's `/` and
    // `%`): Euclidean division agrees with flooring for positive divisors.
    macro_rules! by_positive {
        ($variant:ident, $f:expr) => {
            if let (
                Col::$variant(o),
                Arg::Col(Slice::$variant(x)),
                Arg::Scalar(PrimValue::$variant(d)),
            ) = (&mut *out, &a, &b)
            {
                if *d > 0 {
                    let f = $f;
                    for (o, x) in o[..len].iter_mut().zip(&x[..len]) {
                        *o = f(*x, *d);
                    }
                    return Ok(());
                }
            }
        };
    }
    match (op, ty) {
        (BinOp::Mod, PrimType::I64) => by_positive!(I64, i64::rem_euclid),
        (BinOp::Mod, PrimType::I32) => by_positive!(I32, i32::rem_euclid),
        (BinOp::Div, PrimType::I64) => by_positive!(I64, i64::div_euclid),
        (BinOp::Div, PrimType::I32) => by_positive!(I32, i32::div_euclid),
        (BinOp::LogAnd | BinOp::And, PrimType::Bool) => {
            typed!(Bool, bool, |x: bool, y: bool| x && y)
        }
        (BinOp::LogOr | BinOp::Or, PrimType::Bool) => typed!(Bool, bool, |x: bool, y: bool| x || y),
        _ => {}
    }
    match (op, ty) {
        (BinOp::Add, PrimType::F32) => typed!(F32, f32, |x: f32, y: f32| x + y),
        (BinOp::Sub, PrimType::F32) => typed!(F32, f32, |x: f32, y: f32| x - y),
        (BinOp::Mul, PrimType::F32) => typed!(F32, f32, |x: f32, y: f32| x * y),
        (BinOp::Div, PrimType::F32) => typed!(F32, f32, |x: f32, y: f32| x / y),
        (BinOp::Add, PrimType::F64) => typed!(F64, f64, |x: f64, y: f64| x + y),
        (BinOp::Sub, PrimType::F64) => typed!(F64, f64, |x: f64, y: f64| x - y),
        (BinOp::Mul, PrimType::F64) => typed!(F64, f64, |x: f64, y: f64| x * y),
        (BinOp::Div, PrimType::F64) => typed!(F64, f64, |x: f64, y: f64| x / y),
        (BinOp::Add, PrimType::I32) => typed!(I32, i32, |x: i32, y: i32| x.wrapping_add(y)),
        (BinOp::Sub, PrimType::I32) => typed!(I32, i32, |x: i32, y: i32| x.wrapping_sub(y)),
        (BinOp::Mul, PrimType::I32) => typed!(I32, i32, |x: i32, y: i32| x.wrapping_mul(y)),
        (BinOp::Add, PrimType::I64) => typed!(I64, i64, |x: i64, y: i64| x.wrapping_add(y)),
        (BinOp::Sub, PrimType::I64) => typed!(I64, i64, |x: i64, y: i64| x.wrapping_sub(y)),
        (BinOp::Mul, PrimType::I64) => typed!(I64, i64, |x: i64, y: i64| x.wrapping_mul(y)),
        _ => {}
    }
    let f = prim::binop_fn(op, ty);
    for j in 0..len {
        out.set(j, f(a.get(j), b.get(j)).map_err(|_| Fallback)?);
    }
    Ok(())
}

fn unary(op: UnOp, a: Arg<'_>, out: &mut Col, len: usize) -> Result<(), Fallback> {
    if let Arg::Scalar(x) = a {
        let value = prim::unop(op, x).map_err(|_| Fallback)?;
        copy(Arg::Scalar(value), out, len);
        return Ok(());
    }
    macro_rules! typed {
        ($variant:ident, $f:expr) => {
            if let (Col::$variant(o), Arg::Col(Slice::$variant(x))) = (&mut *out, &a) {
                let f = $f;
                for (o, x) in o[..len].iter_mut().zip(&x[..len]) {
                    *o = f(*x);
                }
                return Ok(());
            }
        };
    }
    match op {
        UnOp::Not => typed!(Bool, |x: bool| !x),
        UnOp::Sqrt => {
            typed!(F32, f32::sqrt);
            typed!(F64, f64::sqrt);
        }
        UnOp::Neg => {
            typed!(F32, |x: f32| -x);
            typed!(F64, |x: f64| -x);
        }
        _ => {}
    }
    for j in 0..len {
        out.set(j, prim::unop(op, a.get(j)).map_err(|_| Fallback)?);
    }
    Ok(())
}

fn compare(op: CmpOp, a: Arg<'_>, b: Arg<'_>, out: &mut Col, len: usize) {
    if let (Arg::Scalar(x), Arg::Scalar(y)) = (&a, &b) {
        if let Ok(value) = prim::cmpop(op, *x, *y) {
            copy(Arg::Scalar(PrimValue::Bool(value)), out, len);
            return;
        }
    }
    if let Col::Bool(o) = &mut *out {
        macro_rules! typed {
            ($variant:ident, $f:expr) => {
                let f = $f;
                match (&a, &b) {
                    (Arg::Col(Slice::$variant(x)), Arg::Col(Slice::$variant(y))) => {
                        for ((o, x), y) in o[..len].iter_mut().zip(&x[..len]).zip(&y[..len]) {
                            *o = f(*x, *y);
                        }
                        return;
                    }
                    (Arg::Scalar(PrimValue::$variant(x)), Arg::Col(Slice::$variant(y))) => {
                        for (o, y) in o[..len].iter_mut().zip(&y[..len]) {
                            *o = f(*x, *y);
                        }
                        return;
                    }
                    (Arg::Col(Slice::$variant(x)), Arg::Scalar(PrimValue::$variant(y))) => {
                        for (o, x) in o[..len].iter_mut().zip(&x[..len]) {
                            *o = f(*x, *y);
                        }
                        return;
                    }
                    _ => {}
                }
            };
        }
        macro_rules! ordered {
            ($($variant:ident),*) => {
                match op {
                    CmpOp::Lt => { $(typed!($variant, |x, y| x < y);)* }
                    CmpOp::Le => { $(typed!($variant, |x, y| x <= y);)* }
                    CmpOp::Gt => { $(typed!($variant, |x, y| x > y);)* }
                    CmpOp::Ge => { $(typed!($variant, |x, y| x >= y);)* }
                    CmpOp::Eq | CmpOp::Ne => {}
                }
            };
        }
        ordered!(I32, I64, F32, F64);
    }
    for j in 0..len {
        if let Ok(v) = prim::cmpop(op, a.get(j), b.get(j)) {
            out.set(j, PrimValue::Bool(v));
        }
    }
}

impl VectorLambda {
    /// Scans result `k` of the block's first `len` elements from `acc` with
    /// `op`, in element order, writing every prefix to `out[at..]`; returns
    /// the last prefix.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn scan_result(
        &self,
        regs: &Registers,
        frame: &Frame,
        k: usize,
        op: BinOp,
        acc: PrimValue,
        out: &mut OutSlice<'_>,
        at: usize,
        len: usize,
    ) -> PrimValue {
        let a = arg(regs, frame, self.results[k]);
        macro_rules! scan {
            ($variant:ident, $f:expr) => {
                if let (
                    Arg::Col(Slice::$variant(c)),
                    PrimValue::$variant(mut x),
                    OutSlice::$variant(o),
                ) = (&a, acc, &mut *out)
                {
                    let f = $f;
                    for (o, &y) in o[at..at + len].iter_mut().zip(&c[..len]) {
                        x = f(x, y);
                        *o = x;
                    }
                    return PrimValue::$variant(x);
                }
            };
        }
        if op == BinOp::Add {
            scan!(F32, |x: f32, y: f32| x + y);
            scan!(F64, |x: f64, y: f64| x + y);
            scan!(I32, |x: i32, y: i32| x.wrapping_add(y));
            scan!(I64, |x: i64, y: i64| x.wrapping_add(y));
        }
        let mut x = acc;
        for j in 0..len {
            x = prim::binop_dynamic(op, x, a.get(j)).unwrap_or(x);
            out.write(at + j, 1, &super::value::Val::Prim(x));
        }
        x
    }
}

/// The per-component operators of a reduction operator of the form
/// `\(a1…ak, b1…bk) -> (a1 op1 b1, …)` with commutative, infallible `opi`
/// (so that folding a block in element order equals the element-wise path).
pub fn simple_operator(operator: &Lambda) -> Option<Vec<(BinOp, PrimType)>> {
    let k = operator.params.len() / 2;
    if operator.body.statements.len() != k || operator.body.result.len() != k {
        return None;
    }
    let mut ops = Vec::with_capacity(k);
    for (i, r) in operator.body.result.iter().enumerate() {
        let v = r.as_var()?;
        let statement = operator
            .body
            .statements
            .iter()
            .find(|s| s.pattern.len() == 1 && &s.pattern[0].name == v)?;
        let Exp::BinOp {
            op,
            ty,
            left,
            right,
        } = &statement.expression
        else {
            return None;
        };
        let commutative = matches!(
            op,
            BinOp::Add
                | BinOp::Mul
                | BinOp::Min
                | BinOp::Max
                | BinOp::And
                | BinOp::Or
                | BinOp::Xor
                | BinOp::LogAnd
                | BinOp::LogOr
        );
        let (a, b) = (&operator.params[i].name, &operator.params[k + i].name);
        let operands = (left.as_var()?, right.as_var()?);
        if !commutative || !(operands == (a, b) || operands == (b, a)) {
            return None;
        }
        ops.push((*op, *ty));
    }
    Some(ops)
}

/// The identity on the rows of `k` arrays whose types are the operator's
/// second parameters (the map part of a plain `reduce`).
pub fn identity_of(operator: &Lambda) -> Lambda {
    let k = operator.params.len() / 2;
    let params = operator.params[k..].to_vec();
    Lambda {
        body: crate::ir::Body {
            statements: Vec::new(),
            result: params.iter().map(|p| SubExp::Var(p.name.clone())).collect(),
        },
        return_types: params.iter().map(|p| p.ty.clone()).collect(),
        params,
    }
}
