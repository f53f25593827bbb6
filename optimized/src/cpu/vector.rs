//! Block-vectorised execution of simple lambdas: the fast path of `map`,
//! `reduce`, `redomap`, `scan` and `scanomap`.
//!
//! A lambda qualifies when its parameters and results are primitives, its
//! body is straight-line scalar arithmetic (`SubExp`, `BinOp`, `UnOp`,
//! `CmpOp`, `ConvOp`) and none of its operations can fail (integer
//! division, remainder and power are excluded, so no error can arise and the
//! first-error-in-order rule holds trivially). Such a lambda runs
//! statement by statement over blocks of [`BLOCK`] elements held in typed
//! columns, each statement one tight loop over the block: the interpretive
//! overhead is paid per block, not per element. Free variables are read from
//! the frame once per block. The results are bitwise those of the
//! element-wise path: the same operations in the same order per element, and
//! reductions fold each block in element order.

use super::compile::{Frame, Operand};
use super::prim;
use super::value::Data;
use crate::ir::{BinOp, CmpOp, Exp, Lambda, PrimType, PrimValue, SubExp, Type, UnOp, VName};

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
    fn get(&self, j: usize) -> PrimValue {
        macro_rules! get {
            ($($v:ident),*) => {
                match self {
                    $(Col::$v(c) => PrimValue::$v(c[j]),)*
                    Col::Empty => PrimValue::Bool(false),
                }
            };
        }
        col_cases!(get)
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

    /// Loads `data[from..from + len]`.
    fn load(&mut self, data: &Data, from: usize, len: usize) {
        macro_rules! load {
            ($($v:ident),*) => {
                match (self, data) {
                    $((Col::$v(c), Data::$v(d)) => c[..len].copy_from_slice(&d[from..from + len]),)*
                    _ => {}
                }
            };
        }
        col_cases!(load)
    }
}

/// Where an instruction reads an operand.
#[derive(Clone, Copy, Debug)]
pub enum Src {
    Reg(usize),
    /// A constant or a free variable (read once per block).
    Scalar(Operand),
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
}

/// Whether an operation can fail at run time.
fn may_fail(op: BinOp, ty: PrimType) -> bool {
    ty.is_integer()
        && matches!(
            op,
            BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem | BinOp::Pow
        )
}

/// Compiles `lambda` for blocks if it qualifies; `slot` resolves free
/// variables to frame slots.
pub fn plan(lambda: &Lambda, slot: &mut dyn FnMut(&VName) -> usize) -> Option<VectorLambda> {
    let mut registers: Vec<PrimType> = Vec::new();
    let mut names: std::collections::HashMap<VName, usize> = std::collections::HashMap::new();
    for p in &lambda.params {
        let Type::Prim(t) = p.ty else { return None };
        names.insert(p.name.clone(), registers.len());
        registers.push(t);
    }
    let params = registers.len();
    let mut src = |s: &SubExp, names: &std::collections::HashMap<VName, usize>| match s {
        SubExp::Constant(c) => Src::Scalar(Operand::Const(*c)),
        SubExp::Var(v) => match names.get(v) {
            Some(r) => Src::Reg(*r),
            None => Src::Scalar(Operand::Slot(slot(v))),
        },
    };
    let mut instrs = Vec::new();
    for statement in &lambda.body.statements {
        let [pattern] = statement.pattern.as_slice() else {
            return None;
        };
        let Type::Prim(t) = pattern.ty else {
            return None;
        };
        let dst = registers.len();
        let instr = match &statement.expression {
            Exp::SubExp(a) => Instr::Copy {
                dst,
                a: src(a, &names),
            },
            Exp::BinOp {
                op,
                ty,
                left,
                right,
            } => {
                if may_fail(*op, *ty) {
                    return None;
                }
                Instr::Bin {
                    op: *op,
                    ty: *ty,
                    dst,
                    a: src(left, &names),
                    b: src(right, &names),
                }
            }
            Exp::UnOp { op, operand, .. } => Instr::Un {
                op: *op,
                dst,
                a: src(operand, &names),
            },
            Exp::CmpOp {
                op, left, right, ..
            } => Instr::Cmp {
                op: *op,
                dst,
                a: src(left, &names),
                b: src(right, &names),
            },
            Exp::ConvOp { op, operand } => Instr::Conv {
                op: *op,
                dst,
                a: src(operand, &names),
            },
            _ => return None,
        };
        names.insert(pattern.name.clone(), dst);
        registers.push(t);
        instrs.push(instr);
    }
    let mut result_types = Vec::new();
    for t in &lambda.return_types {
        let Type::Prim(t) = t else { return None };
        result_types.push(*t);
    }
    let results = lambda.body.result.iter().map(|r| src(r, &names)).collect();
    Some(VectorLambda {
        registers,
        params,
        instrs,
        results,
        result_types,
    })
}

/// The registers of one worker, reused from block to block.
pub struct Registers {
    cols: Vec<Col>,
}

/// An operand of a kernel: a column or a scalar broadcast over the block.
enum Arg<'a> {
    Col(&'a Col),
    Scalar(PrimValue),
}

impl VectorLambda {
    pub fn registers(&self) -> Registers {
        Registers {
            cols: self.registers.iter().map(|t| Col::new(*t)).collect(),
        }
    }

    /// Loads parameter `k`'s block from `data`.
    pub fn load_param(&self, regs: &mut Registers, k: usize, data: &Data, from: usize, len: usize) {
        regs.cols[k].load(data, from, len);
    }

    /// How many parameters (columns loaded per block) the lambda has.
    pub fn param_count(&self) -> usize {
        self.params
    }

    /// Runs the instructions over the first `len` elements of the block.
    pub fn run(&self, regs: &mut Registers, frame: &Frame, len: usize) {
        for instr in &self.instrs {
            match instr {
                Instr::Copy { dst, a } => {
                    let mut out = std::mem::take(&mut regs.cols[*dst]);
                    let a = arg(regs, frame, *a);
                    for j in 0..len {
                        out.set(j, a.get(j));
                    }
                    regs.cols[*dst] = out;
                }
                Instr::Bin { op, ty, dst, a, b } => {
                    let mut out = std::mem::take(&mut regs.cols[*dst]);
                    binary(
                        *op,
                        *ty,
                        arg(regs, frame, *a),
                        arg(regs, frame, *b),
                        &mut out,
                        len,
                    );
                    regs.cols[*dst] = out;
                }
                Instr::Un { op, dst, a } => {
                    let mut out = std::mem::take(&mut regs.cols[*dst]);
                    unary(*op, arg(regs, frame, *a), &mut out, len);
                    regs.cols[*dst] = out;
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
                    let a = arg(regs, frame, *a);
                    for j in 0..len {
                        out.set(j, prim::convert(*op, a.get(j)));
                    }
                    regs.cols[*dst] = out;
                }
            }
        }
    }

    /// Writes result `k` of the block to `out[at..at + len]`.
    pub(crate) fn store_result(
        &self,
        regs: &Registers,
        frame: &Frame,
        k: usize,
        out: &mut super::soac::OutSlice<'_>,
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
                if let (Arg::Col(Col::$variant(c)), PrimValue::$variant(mut x)) = (&a, acc) {
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

fn arg<'a>(regs: &'a Registers, frame: &Frame, src: Src) -> Arg<'a> {
    match src {
        Src::Reg(r) => Arg::Col(&regs.cols[r]),
        Src::Scalar(o) => Arg::Scalar(o.prim(frame)),
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
fn binary(op: BinOp, ty: PrimType, a: Arg<'_>, b: Arg<'_>, out: &mut Col, len: usize) {
    macro_rules! typed {
        ($variant:ident, $t:ty, $f:expr) => {
            if let Col::$variant(o) = out {
                let f = $f;
                match (&a, &b) {
                    (Arg::Col(Col::$variant(x)), Arg::Col(Col::$variant(y))) => {
                        for ((o, x), y) in o[..len].iter_mut().zip(&x[..len]).zip(&y[..len]) {
                            *o = f(*x, *y);
                        }
                        return;
                    }
                    (Arg::Scalar(PrimValue::$variant(x)), Arg::Col(Col::$variant(y))) => {
                        for (o, y) in o[..len].iter_mut().zip(&y[..len]) {
                            *o = f(*x, *y);
                        }
                        return;
                    }
                    (Arg::Col(Col::$variant(x)), Arg::Scalar(PrimValue::$variant(y))) => {
                        for (o, x) in o[..len].iter_mut().zip(&x[..len]) {
                            *o = f(*x, *y);
                        }
                        return;
                    }
                    _ => {}
                }
            }
        };
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
        if let Ok(v) = f(a.get(j), b.get(j)) {
            out.set(j, v);
        }
    }
}

fn unary(op: UnOp, a: Arg<'_>, out: &mut Col, len: usize) {
    macro_rules! typed {
        ($variant:ident, $f:expr) => {
            if let (Col::$variant(o), Arg::Col(Col::$variant(x))) = (&mut *out, &a) {
                let f = $f;
                for (o, x) in o[..len].iter_mut().zip(&x[..len]) {
                    *o = f(*x);
                }
                return;
            }
        };
    }
    match op {
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
        if let Ok(v) = prim::unop(op, a.get(j)) {
            out.set(j, v);
        }
    }
}

fn compare(op: CmpOp, a: Arg<'_>, b: Arg<'_>, out: &mut Col, len: usize) {
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
        out: &mut super::soac::OutSlice<'_>,
        at: usize,
        len: usize,
    ) -> PrimValue {
        use super::soac::OutSlice;
        let a = arg(regs, frame, self.results[k]);
        macro_rules! scan {
            ($variant:ident, $f:expr) => {
                if let (
                    Arg::Col(Col::$variant(c)),
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
