//! Primitive operations of the IR with Futhark's semantics (see
//! [`crate::ir::BinOp`]): wrapping integers, IEEE floats, integer division
//! rounding towards negative infinity (`Div`, `Mod`) or zero (`Quot`, `Rem`),
//! run-time errors for integer division by zero and negative integer
//! exponents, saturating float-to-integer conversions.
//!
//! Each operation is resolved once, when a statement is compiled, to a plain
//! function pointer over [`PrimValue`]s.

use crate::ir::{BinOp, CmpOp, ConvOp, PrimType, PrimValue, UnOp};

/// A binary operation; `Err` carries the run-time error message.
pub type BinFn = fn(PrimValue, PrimValue) -> Result<PrimValue, &'static str>;

macro_rules! int_binop {
    ($op:expr, $a:expr, $b:expr, $ty:ty, $uty:ty, $bits:expr, $signed:expr) => {{
        let (a, b): ($ty, $ty) = ($a, $b);
        Ok(match $op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem if b == 0 => {
                return Err("division by zero")
            }
            BinOp::Div => {
                let q = a.wrapping_div(b);
                #[allow(unused_comparisons)]
                let negative = (a < 0) != (b < 0);
                if a.wrapping_rem(b) != 0 && negative {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
            BinOp::Mod => {
                let r = a.wrapping_rem(b);
                #[allow(unused_comparisons)]
                let opposite = (r < 0) != (b < 0);
                if r != 0 && opposite {
                    r.wrapping_add(b)
                } else {
                    r
                }
            }
            BinOp::Quot => a.wrapping_div(b),
            BinOp::Rem => a.wrapping_rem(b),
            BinOp::Pow => {
                #[allow(unused_comparisons)]
                if $signed && b < 0 {
                    return Err("negative exponent");
                }
                let mut result: $ty = 1;
                let mut base = a;
                let mut exponent = b as $uty;
                while exponent > 0 {
                    if exponent & 1 == 1 {
                        result = result.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    exponent >>= 1;
                }
                result
            }
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Shl => {
                let s = b as $uty as u64;
                if s >= $bits {
                    0
                } else {
                    a.wrapping_shl(s as u32)
                }
            }
            BinOp::Shr => {
                let s = b as $uty as u64;
                #[allow(unused_comparisons)]
                let negative = a < 0;
                if s >= $bits {
                    if negative {
                        (0 as $ty).wrapping_sub(1)
                    } else {
                        0
                    }
                } else {
                    a.wrapping_shr(s as u32)
                }
            }
            BinOp::UShr => {
                let s = b as $uty as u64;
                if s >= $bits {
                    0
                } else {
                    ((a as $uty) >> s) as $ty
                }
            }
            BinOp::MulHi => {
                // The double-width product's high half: the wrapped 128-bit
                // product has the exact product's low 128 bits, and the
                // exact product of two 64-bit operands fits in them.
                ((a as i128).wrapping_mul(b as i128) >> $bits) as $ty
            }
            BinOp::Atan2 | BinOp::LogAnd | BinOp::LogOr => return Err("ill-typed operation"),
        })
    }};
}

macro_rules! float_binop {
    ($op:expr, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        Ok(match $op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => a / b,
            BinOp::Mod => {
                let r = a % b;
                if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
                    r + b
                } else {
                    r
                }
            }
            BinOp::Quot => (a / b).trunc(),
            BinOp::Rem => a % b,
            BinOp::Pow => a.powf(b),
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
            BinOp::Atan2 => a.atan2(b),
            _ => return Err("ill-typed operation"),
        })
    }};
}

/// Generates one monomorphic function per (operator, type) so that the
/// choice is made at compile time.
macro_rules! binop_fns {
    ($($name:ident: $op:expr;)*) => {
        $(
            fn $name(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
                binop_dynamic($op, a, b)
            }
        )*
    };
}

/// `a op b` where both operands have the same type.
pub fn binop_dynamic(op: BinOp, a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    use PrimValue::*;
    match (a, b) {
        (I8(a), I8(b)) => int_binop!(op, a, b, i8, u8, 8, true).map(I8),
        (I16(a), I16(b)) => int_binop!(op, a, b, i16, u16, 16, true).map(I16),
        (I32(a), I32(b)) => int_binop!(op, a, b, i32, u32, 32, true).map(I32),
        (I64(a), I64(b)) => int_binop!(op, a, b, i64, u64, 64, true).map(I64),
        (U8(a), U8(b)) => int_binop!(op, a, b, u8, u8, 8, false).map(U8),
        (U16(a), U16(b)) => int_binop!(op, a, b, u16, u16, 16, false).map(U16),
        (U32(a), U32(b)) => int_binop!(op, a, b, u32, u32, 32, false).map(U32),
        (U64(a), U64(b)) => int_binop!(op, a, b, u64, u64, 64, false).map(U64),
        (F32(a), F32(b)) => float_binop!(op, a, b).map(F32),
        (F64(a), F64(b)) => float_binop!(op, a, b).map(F64),
        (Bool(a), Bool(b)) => Ok(Bool(match op {
            BinOp::And | BinOp::LogAnd | BinOp::Min => a && b,
            BinOp::Or | BinOp::LogOr | BinOp::Max => a || b,
            BinOp::Xor => a ^ b,
            _ => return Err("ill-typed operation"),
        })),
        _ => Err("operands of different types"),
    }
}

binop_fns! {
    add: BinOp::Add;
    sub: BinOp::Sub;
    mul: BinOp::Mul;
    div: BinOp::Div;
    modulo: BinOp::Mod;
    quot: BinOp::Quot;
    rem: BinOp::Rem;
    pow: BinOp::Pow;
    min: BinOp::Min;
    max: BinOp::Max;
    atan2: BinOp::Atan2;
    mul_hi: BinOp::MulHi;
    and: BinOp::And;
    or: BinOp::Or;
    xor: BinOp::Xor;
    shl: BinOp::Shl;
    shr: BinOp::Shr;
    ushr: BinOp::UShr;
    logand: BinOp::LogAnd;
    logor: BinOp::LogOr;
}

/// Fast paths for the commonest arithmetic; everything else goes through
/// [`binop_dynamic`].
fn add_f32(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    match (a, b) {
        (PrimValue::F32(a), PrimValue::F32(b)) => Ok(PrimValue::F32(a + b)),
        _ => add(a, b),
    }
}

fn mul_f32(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    match (a, b) {
        (PrimValue::F32(a), PrimValue::F32(b)) => Ok(PrimValue::F32(a * b)),
        _ => mul(a, b),
    }
}

fn add_i64(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    match (a, b) {
        (PrimValue::I64(a), PrimValue::I64(b)) => Ok(PrimValue::I64(a.wrapping_add(b))),
        _ => add(a, b),
    }
}

fn add_i32(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    match (a, b) {
        (PrimValue::I32(a), PrimValue::I32(b)) => Ok(PrimValue::I32(a.wrapping_add(b))),
        _ => add(a, b),
    }
}

fn mul_i64(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    match (a, b) {
        (PrimValue::I64(a), PrimValue::I64(b)) => Ok(PrimValue::I64(a.wrapping_mul(b))),
        _ => mul(a, b),
    }
}

fn add_f64(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    match (a, b) {
        (PrimValue::F64(a), PrimValue::F64(b)) => Ok(PrimValue::F64(a + b)),
        _ => add(a, b),
    }
}

fn mul_f64(a: PrimValue, b: PrimValue) -> Result<PrimValue, &'static str> {
    match (a, b) {
        (PrimValue::F64(a), PrimValue::F64(b)) => Ok(PrimValue::F64(a * b)),
        _ => mul(a, b),
    }
}

/// The function computing `op` at type `ty`.
pub fn binop_fn(op: BinOp, ty: PrimType) -> BinFn {
    match (op, ty) {
        (BinOp::Add, PrimType::F32) => add_f32,
        (BinOp::Mul, PrimType::F32) => mul_f32,
        (BinOp::Add, PrimType::F64) => add_f64,
        (BinOp::Mul, PrimType::F64) => mul_f64,
        (BinOp::Add, PrimType::I64) => add_i64,
        (BinOp::Add, PrimType::I32) => add_i32,
        (BinOp::Mul, PrimType::I64) => mul_i64,
        (BinOp::Add, _) => add,
        (BinOp::Sub, _) => sub,
        (BinOp::Mul, _) => mul,
        (BinOp::Div, _) => div,
        (BinOp::Mod, _) => modulo,
        (BinOp::Quot, _) => quot,
        (BinOp::Rem, _) => rem,
        (BinOp::Pow, _) => pow,
        (BinOp::Min, _) => min,
        (BinOp::Max, _) => max,
        (BinOp::Atan2, _) => atan2,
        (BinOp::MulHi, _) => mul_hi,
        (BinOp::And, _) => and,
        (BinOp::Or, _) => or,
        (BinOp::Xor, _) => xor,
        (BinOp::Shl, _) => shl,
        (BinOp::Shr, _) => shr,
        (BinOp::UShr, _) => ushr,
        (BinOp::LogAnd, _) => logand,
        (BinOp::LogOr, _) => logor,
    }
}

macro_rules! float_unop {
    ($op:expr, $x:expr, $variant:ident) => {{
        let x = $x;
        Ok(match $op {
            UnOp::Neg => $variant(-x),
            UnOp::Abs => $variant(x.abs()),
            UnOp::Signum => $variant(if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }),
            UnOp::Sqrt => $variant(x.sqrt()),
            UnOp::Exp => $variant(x.exp()),
            UnOp::Log => $variant(x.ln()),
            UnOp::Log2 => $variant(x.log2()),
            UnOp::Log10 => $variant(x.log10()),
            UnOp::Sin => $variant(x.sin()),
            UnOp::Cos => $variant(x.cos()),
            UnOp::Tan => $variant(x.tan()),
            UnOp::Asin => $variant(x.asin()),
            UnOp::Acos => $variant(x.acos()),
            UnOp::Atan => $variant(x.atan()),
            UnOp::Sinh => $variant(x.sinh()),
            UnOp::Cosh => $variant(x.cosh()),
            UnOp::Tanh => $variant(x.tanh()),
            UnOp::Asinh => $variant(x.asinh()),
            UnOp::Acosh => $variant(x.acosh()),
            UnOp::Atanh => $variant(x.atanh()),
            UnOp::Cbrt => $variant(x.cbrt()),
            UnOp::Log1p => $variant(x.ln_1p()),
            UnOp::Gamma => $variant(x.gamma_function()),
            UnOp::Lgamma => $variant(x.log_gamma()),
            UnOp::Erf => $variant(x.error_function()),
            UnOp::Erfc => $variant(x.complementary_error_function()),
            UnOp::Floor => $variant(x.floor()),
            UnOp::Ceil => $variant(x.ceil()),
            UnOp::Round => $variant(x.round_ties_even()),
            UnOp::Trunc => $variant(x.trunc()),
            UnOp::IsNan => Bool(x.is_nan()),
            UnOp::IsInf => Bool(x.is_infinite()),
            UnOp::Not | UnOp::Popc | UnOp::Clz | UnOp::Ctz | UnOp::ToBits | UnOp::FromBits => {
                return Err("ill-typed operation")
            }
        })
    }};
}

/// The special functions Rust's standard library lacks, from the `libm`
/// crate (a port of musl's), at both float widths.
trait SpecialFunctions: Copy {
    fn gamma_function(self) -> Self;
    fn log_gamma(self) -> Self;
    fn error_function(self) -> Self;
    fn complementary_error_function(self) -> Self;
}

impl SpecialFunctions for f32 {
    fn gamma_function(self) -> f32 {
        libm::tgammaf(self)
    }
    fn log_gamma(self) -> f32 {
        libm::lgammaf(self)
    }
    fn error_function(self) -> f32 {
        libm::erff(self)
    }
    fn complementary_error_function(self) -> f32 {
        libm::erfcf(self)
    }
}

impl SpecialFunctions for f64 {
    fn gamma_function(self) -> f64 {
        libm::tgamma(self)
    }
    fn log_gamma(self) -> f64 {
        libm::lgamma(self)
    }
    fn error_function(self) -> f64 {
        libm::erf(self)
    }
    fn complementary_error_function(self) -> f64 {
        libm::erfc(self)
    }
}

macro_rules! int_unop {
    ($op:expr, $x:expr, $variant:ident) => {{
        let x = $x;
        Ok(match $op {
            UnOp::Neg => $variant(x.wrapping_neg()),
            UnOp::Not => $variant(!x),
            #[allow(unused_comparisons)]
            UnOp::Abs => $variant(if x < 0 { x.wrapping_neg() } else { x }),
            #[allow(unused_comparisons)]
            UnOp::Signum => $variant(if x < 0 {
                (x ^ x).wrapping_sub(1)
            } else if x == 0 {
                0
            } else {
                1
            }),
            UnOp::Popc => I32(x.count_ones() as i32),
            UnOp::Clz => I32(x.leading_zeros() as i32),
            UnOp::Ctz => I32(x.trailing_zeros() as i32),
            _ => return Err("ill-typed operation"),
        })
    }};
}

/// `op x`.
pub fn unop(op: UnOp, x: PrimValue) -> Result<PrimValue, &'static str> {
    use PrimValue::*;
    match (op, x) {
        (UnOp::ToBits, F32(x)) => return Ok(U32(x.to_bits())),
        (UnOp::ToBits, F64(x)) => return Ok(U64(x.to_bits())),
        (UnOp::FromBits, U32(x)) => return Ok(F32(f32::from_bits(x))),
        (UnOp::FromBits, U64(x)) => return Ok(F64(f64::from_bits(x))),
        (UnOp::ToBits | UnOp::FromBits, _) => return Err("ill-typed operation"),
        _ => {}
    }
    match x {
        F32(x) => float_unop!(op, x, F32),
        F64(x) => float_unop!(op, x, F64),
        I8(x) => int_unop!(op, x, I8),
        I16(x) => int_unop!(op, x, I16),
        I32(x) => int_unop!(op, x, I32),
        I64(x) => int_unop!(op, x, I64),
        U8(x) => int_unop!(op, x, U8),
        U16(x) => int_unop!(op, x, U16),
        U32(x) => int_unop!(op, x, U32),
        U64(x) => int_unop!(op, x, U64),
        Bool(b) => match op {
            UnOp::Not => Ok(Bool(!b)),
            _ => Err("ill-typed operation"),
        },
    }
}

/// `fma a b c`: the exact `a * b + c` rounded once (floats of one type).
pub fn fma(a: PrimValue, b: PrimValue, c: PrimValue) -> Result<PrimValue, &'static str> {
    use PrimValue::*;
    match (a, b, c) {
        (F32(a), F32(b), F32(c)) => Ok(F32(a.mul_add(b, c))),
        (F64(a), F64(b), F64(c)) => Ok(F64(a.mul_add(b, c))),
        _ => Err("ill-typed operation"),
    }
}

/// `a op b` as a `bool` (IEEE comparison on floats; `false < true`).
pub fn cmpop(op: CmpOp, a: PrimValue, b: PrimValue) -> Result<bool, &'static str> {
    use PrimValue::*;
    macro_rules! compare {
        ($a:expr, $b:expr) => {{
            let (a, b) = ($a, $b);
            match op {
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
                CmpOp::Gt => a > b,
                CmpOp::Ge => a >= b,
            }
        }};
    }
    Ok(match (a, b) {
        (I8(a), I8(b)) => compare!(a, b),
        (I16(a), I16(b)) => compare!(a, b),
        (I32(a), I32(b)) => compare!(a, b),
        (I64(a), I64(b)) => compare!(a, b),
        (U8(a), U8(b)) => compare!(a, b),
        (U16(a), U16(b)) => compare!(a, b),
        (U32(a), U32(b)) => compare!(a, b),
        (U64(a), U64(b)) => compare!(a, b),
        (F32(a), F32(b)) => compare!(a, b),
        (F64(a), F64(b)) => compare!(a, b),
        (Bool(a), Bool(b)) => compare!(a, b),
        _ => return Err("operands of different types"),
    })
}

/// The value as a wide integer (floats truncated and saturated; NaN is 0).
fn as_i128(v: PrimValue) -> i128 {
    use PrimValue::*;
    match v {
        I8(x) => x as i128,
        I16(x) => x as i128,
        I32(x) => x as i128,
        I64(x) => x as i128,
        U8(x) => x as i128,
        U16(x) => x as i128,
        U32(x) => x as i128,
        U64(x) => x as i128,
        F32(x) => x as i128,
        F64(x) => x as i128,
        Bool(b) => b as i128,
    }
}

/// `op.to(v)` (see [`ConvOp`]).
pub fn convert(op: ConvOp, v: PrimValue) -> PrimValue {
    use PrimValue::*;
    macro_rules! to_int {
        ($ty:ty, $variant:ident) => {
            $variant(match v {
                F32(x) => x as $ty,
                F64(x) => x as $ty,
                _ => as_i128(v) as $ty,
            })
        };
    }
    match op.to {
        PrimType::I8 => to_int!(i8, I8),
        PrimType::I16 => to_int!(i16, I16),
        PrimType::I32 => to_int!(i32, I32),
        PrimType::I64 => to_int!(i64, I64),
        PrimType::U8 => to_int!(u8, U8),
        PrimType::U16 => to_int!(u16, U16),
        PrimType::U32 => to_int!(u32, U32),
        PrimType::U64 => to_int!(u64, U64),
        PrimType::F32 => F32(match v {
            F32(x) => x,
            F64(x) => x as f32,
            U64(x) => x as f32,
            _ => as_i128(v) as f32,
        }),
        PrimType::F64 => F64(match v {
            F32(x) => x as f64,
            F64(x) => x,
            U64(x) => x as f64,
            _ => as_i128(v) as f64,
        }),
        PrimType::Bool => Bool(match v {
            F32(x) => x != 0.0,
            F64(x) => x != 0.0,
            _ => as_i128(v) != 0,
        }),
    }
}

/// An integer value as an `i64` (loop counters, indices); `None` for floats
/// and booleans.
pub fn as_i64(v: PrimValue) -> Option<i64> {
    match v {
        PrimValue::F32(_) | PrimValue::F64(_) | PrimValue::Bool(_) => None,
        other => Some(as_i128(other) as i64),
    }
}

/// The integer `n` at integer type `ty` (wrapping).
pub fn from_i64(n: i64, ty: PrimType) -> PrimValue {
    convert(
        ConvOp {
            from: PrimType::I64,
            to: ty,
        },
        PrimValue::I64(n),
    )
}

/// The zero of a type (`false` for `bool`).
pub fn zero(ty: PrimType) -> PrimValue {
    from_i64(0, ty)
}
