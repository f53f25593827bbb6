//! The `extern "C"` functions native code calls for the operations it does
//! not emit as instructions (integer `**`, float `min`/`max`/`%`/`**`,
//! transcendental functions, narrow float-to-integer conversions, ...).
//! Each one decodes its operands, delegates to [`crate::cpu::prim`] (so the
//! semantics are the element-wise path's by construction) and encodes the
//! result.
//!
//! Values cross the boundary as 64 raw bits ([`PrimValue::to_bits`], [`from_bits`]):
//! an integer or `bool` zero-extended from its width, an `f32` as its bit
//! pattern in the low 32 bits, an `f64` as its bit pattern. Operators and
//! types cross as their index in [`BINOPS`], [`UNOPS`] and [`PrimType::ALL`].

use crate::cpu::prim;
use crate::ir::{BinOp, ConvOp, PrimType, PrimValue, UnOp};

/// Every binary operator, in the order of their codes.
pub const BINOPS: [BinOp; 20] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Mod,
    BinOp::Quot,
    BinOp::Rem,
    BinOp::Pow,
    BinOp::Min,
    BinOp::Max,
    BinOp::Atan2,
    BinOp::And,
    BinOp::Or,
    BinOp::Xor,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::UShr,
    BinOp::LogAnd,
    BinOp::LogOr,
    BinOp::MulHi,
];

/// Every unary operator, in the order of their codes.
pub const UNOPS: [UnOp; 38] = [
    UnOp::Neg,
    UnOp::Not,
    UnOp::Abs,
    UnOp::Signum,
    UnOp::Sqrt,
    UnOp::Exp,
    UnOp::Log,
    UnOp::Log2,
    UnOp::Log10,
    UnOp::Sin,
    UnOp::Cos,
    UnOp::Tan,
    UnOp::Asin,
    UnOp::Acos,
    UnOp::Atan,
    UnOp::Sinh,
    UnOp::Cosh,
    UnOp::Tanh,
    UnOp::Asinh,
    UnOp::Acosh,
    UnOp::Atanh,
    UnOp::Floor,
    UnOp::Ceil,
    UnOp::Round,
    UnOp::Trunc,
    UnOp::IsNan,
    UnOp::IsInf,
    UnOp::Popc,
    UnOp::Clz,
    UnOp::Ctz,
    UnOp::Cbrt,
    UnOp::Log1p,
    UnOp::Gamma,
    UnOp::Lgamma,
    UnOp::Erf,
    UnOp::Erfc,
    UnOp::ToBits,
    UnOp::FromBits,
];

/// The code of `t` (its index in [`PrimType::ALL`]).
pub fn type_code(t: PrimType) -> u32 {
    PrimType::ALL.iter().position(|x| *x == t).unwrap_or(0) as u32
}

/// The code of `op` (its index in [`BINOPS`]).
pub fn binop_code(op: BinOp) -> u32 {
    BINOPS.iter().position(|x| *x == op).unwrap_or(0) as u32
}

/// The code of `op` (its index in [`UNOPS`]).
pub fn unop_code(op: UnOp) -> u32 {
    UNOPS.iter().position(|x| *x == op).unwrap_or(0) as u32
}

/// The value of type `t` that `bits` encodes.
pub fn from_bits(t: PrimType, bits: u64) -> PrimValue {
    match t {
        PrimType::I8 => PrimValue::I8(bits as u8 as i8),
        PrimType::I16 => PrimValue::I16(bits as u16 as i16),
        PrimType::I32 => PrimValue::I32(bits as u32 as i32),
        PrimType::I64 => PrimValue::I64(bits as i64),
        PrimType::U8 => PrimValue::U8(bits as u8),
        PrimType::U16 => PrimValue::U16(bits as u16),
        PrimType::U32 => PrimValue::U32(bits as u32),
        PrimType::U64 => PrimValue::U64(bits),
        PrimType::F32 => PrimValue::F32(f32::from_bits(bits as u32)),
        PrimType::F64 => PrimValue::F64(f64::from_bits(bits)),
        PrimType::Bool => PrimValue::Bool(bits & 1 != 0),
    }
}

fn type_of(code: u32) -> PrimType {
    PrimType::ALL[code as usize % PrimType::ALL.len()]
}

/// `a op b` at type `ty`; writes the result to `out` and returns 0, or
/// returns 1 when the operation fails (division by zero, negative
/// exponent).
///
/// # Safety
/// `out` must be valid for an 8-byte write.
pub unsafe extern "C" fn binop(op: u32, ty: u32, a: u64, b: u64, out: *mut u64) -> u32 {
    let t = type_of(ty);
    let op = BINOPS[op as usize % BINOPS.len()];
    match prim::binop_dynamic(op, from_bits(t, a), from_bits(t, b)) {
        Ok(v) => {
            // SAFETY: the caller passes a valid 8-byte slot.
            unsafe { out.write_unaligned(v.to_bits()) };
            0
        }
        Err(_) => 1,
    }
}

/// `op a` at type `ty` (unary operations do not fail on well-typed
/// operands; an ill-typed one gives 0).
pub extern "C" fn unop(op: u32, ty: u32, a: u64) -> u64 {
    let op = UNOPS[op as usize % UNOPS.len()];
    prim::unop(op, from_bits(type_of(ty), a)).map_or(0, PrimValue::to_bits)
}

/// `a` converted from type `from` to type `to`.
pub extern "C" fn convert(from: u32, to: u32, a: u64) -> u64 {
    let op = ConvOp {
        from: type_of(from),
        to: type_of(to),
    };
    prim::convert(op, from_bits(op.from, a)).to_bits()
}
