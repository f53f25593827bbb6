//! Extension of TFP'18 §2.3 (E-Plus, E-LeqT/F): Futhark's arithmetic on
//! every primitive type. Integers wrap (two's complement); `/` and `%` round
//! towards negative infinity and `//`, `%%` towards zero, and integer
//! division by zero is a run-time error; shifts take the shift amount modulo
//! nothing (an amount at least the bit width gives 0, or -1 for an arithmetic
//! right shift of a negative number); floats are IEEE 754 (Rust's `f32`/`f64`
//! operations); conversions between integers wrap, float to integer truncates
//! towards zero and saturates (NaN gives 0), `bool` converts to and from 0/1.

use super::syntax::{BinOp, MathFun, PrimType, PrimValue, UnOp};

/// A primitive operation that has no result (integer division by zero).
pub type PrimResult = Result<PrimValue, String>;

macro_rules! int_ops {
    ($op:expr, $a:expr, $b:expr, $ty:ty, $uty:ty, $variant:ident, $bits:expr, $signed:expr) => {{
        let (a, b): ($ty, $ty) = ($a, $b);
        let v: $ty = match $op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem if b == 0 => {
                return Err("division by zero".to_string())
            }
            BinOp::Div => {
                let q = a.wrapping_div(b);
                if (a.wrapping_rem(b) != 0) && ((a < (0 as $ty)) != (b < (0 as $ty))) {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
            BinOp::Mod => {
                let r = a.wrapping_rem(b);
                if r != 0 && ((r < (0 as $ty)) != (b < (0 as $ty))) {
                    r.wrapping_add(b)
                } else {
                    r
                }
            }
            BinOp::Quot => a.wrapping_div(b),
            BinOp::Rem => a.wrapping_rem(b),
            BinOp::Pow => {
                if $signed && b < (0 as $ty) {
                    return Err("negative exponent".to_string());
                }
                let mut result: $ty = 1;
                let mut base = a;
                let mut exp = b as $uty;
                while exp > 0 {
                    if exp & 1 == 1 {
                        result = result.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    exp >>= 1;
                }
                result
            }
            BinOp::BitAnd => a & b,
            BinOp::BitOr => a | b,
            BinOp::BitXor => a ^ b,
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
                if s >= $bits {
                    if a < (0 as $ty) {
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
            BinOp::Eq => return Ok(PrimValue::Bool(a == b)),
            BinOp::Neq => return Ok(PrimValue::Bool(a != b)),
            BinOp::Lt => return Ok(PrimValue::Bool(a < b)),
            BinOp::Le => return Ok(PrimValue::Bool(a <= b)),
            BinOp::Gt => return Ok(PrimValue::Bool(a > b)),
            BinOp::Ge => return Ok(PrimValue::Bool(a >= b)),
            BinOp::And | BinOp::Or => return Err(format!("`{}` on integers", $op.symbol())),
        };
        Ok(PrimValue::$variant(v))
    }};
}

macro_rules! float_ops {
    ($op:expr, $a:expr, $b:expr, $variant:ident) => {{
        let (a, b) = ($a, $b);
        let v = match $op {
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
            BinOp::Eq => return Ok(PrimValue::Bool(a == b)),
            BinOp::Neq => return Ok(PrimValue::Bool(a != b)),
            BinOp::Lt => return Ok(PrimValue::Bool(a < b)),
            BinOp::Le => return Ok(PrimValue::Bool(a <= b)),
            BinOp::Gt => return Ok(PrimValue::Bool(a > b)),
            BinOp::Ge => return Ok(PrimValue::Bool(a >= b)),
            other => return Err(format!("`{}` on floats", other.symbol())),
        };
        Ok(PrimValue::$variant(v))
    }};
}

/// `v1 op v2` (both operands of one primitive type, checked by typing).
pub fn binary(op: BinOp, a: PrimValue, b: PrimValue) -> PrimResult {
    use PrimValue::*;
    match (a, b) {
        (I8(a), I8(b)) => int_ops!(op, a, b, i8, u8, I8, 8, true),
        (I16(a), I16(b)) => int_ops!(op, a, b, i16, u16, I16, 16, true),
        (I32(a), I32(b)) => int_ops!(op, a, b, i32, u32, I32, 32, true),
        (I64(a), I64(b)) => int_ops!(op, a, b, i64, u64, I64, 64, true),
        (U8(a), U8(b)) => int_ops!(op, a, b, u8, u8, U8, 8, false),
        (U16(a), U16(b)) => int_ops!(op, a, b, u16, u16, U16, 16, false),
        (U32(a), U32(b)) => int_ops!(op, a, b, u32, u32, U32, 32, false),
        (U64(a), U64(b)) => int_ops!(op, a, b, u64, u64, U64, 64, false),
        (F32(a), F32(b)) => float_ops!(op, a, b, F32),
        (F64(a), F64(b)) => float_ops!(op, a, b, F64),
        (Bool(a), Bool(b)) => Ok(Bool(match op {
            BinOp::And => a && b,
            BinOp::Or => a || b,
            BinOp::Eq => a == b,
            BinOp::Neq => a != b,
            BinOp::Lt => !a & b,
            BinOp::Le => a <= b,
            BinOp::Gt => a & !b,
            BinOp::Ge => a >= b,
            BinOp::BitAnd => a & b,
            BinOp::BitOr => a | b,
            BinOp::BitXor => a ^ b,
            other => return Err(format!("`{}` on booleans", other.symbol())),
        })),
        (a, b) => Err(format!(
            "operands of `{}` have different types {} and {}",
            op.symbol(),
            a.prim_type(),
            b.prim_type()
        )),
    }
}

/// `-v` and `!v`.
pub fn unary(op: UnOp, v: PrimValue) -> PrimResult {
    use PrimValue::*;
    Ok(match (op, v) {
        (UnOp::Neg, I8(x)) => I8(x.wrapping_neg()),
        (UnOp::Neg, I16(x)) => I16(x.wrapping_neg()),
        (UnOp::Neg, I32(x)) => I32(x.wrapping_neg()),
        (UnOp::Neg, I64(x)) => I64(x.wrapping_neg()),
        (UnOp::Neg, U8(x)) => U8(x.wrapping_neg()),
        (UnOp::Neg, U16(x)) => U16(x.wrapping_neg()),
        (UnOp::Neg, U32(x)) => U32(x.wrapping_neg()),
        (UnOp::Neg, U64(x)) => U64(x.wrapping_neg()),
        (UnOp::Neg, F32(x)) => F32(-x),
        (UnOp::Neg, F64(x)) => F64(-x),
        (UnOp::Not, Bool(b)) => Bool(!b),
        (UnOp::Not, I8(x)) => I8(!x),
        (UnOp::Not, I16(x)) => I16(!x),
        (UnOp::Not, I32(x)) => I32(!x),
        (UnOp::Not, I64(x)) => I64(!x),
        (UnOp::Not, U8(x)) => U8(!x),
        (UnOp::Not, U16(x)) => U16(!x),
        (UnOp::Not, U32(x)) => U32(!x),
        (UnOp::Not, U64(x)) => U64(!x),
        (op, v) => return Err(format!("{op:?} on {}", v.prim_type())),
    })
}

/// The bits of `v` read as `to`, a primitive type of the same width and the
/// other kind (f32 ↔ u32, f64 ↔ u64).
pub fn reinterpret(v: PrimValue, to: PrimType) -> PrimResult {
    use PrimValue::*;
    Ok(match (v, to) {
        (F32(x), PrimType::U32) => U32(x.to_bits()),
        (F64(x), PrimType::U64) => U64(x.to_bits()),
        (U32(x), PrimType::F32) => F32(f32::from_bits(x)),
        (U64(x), PrimType::F64) => F64(f64::from_bits(x)),
        (v, to) => {
            return Err(format!(
                "the bits of {} cannot be read as {to}",
                v.prim_type()
            ))
        }
    })
}

/// Whether [`reinterpret`] reads a `from` as a `to`.
pub fn reinterpretable(from: PrimType, to: PrimType) -> bool {
    matches!(
        (from, to),
        (PrimType::F32, PrimType::U32)
            | (PrimType::F64, PrimType::U64)
            | (PrimType::U32, PrimType::F32)
            | (PrimType::U64, PrimType::F64)
    )
}

/// The special functions Rust's standard library lacks, from the `libm`
/// crate (a port of musl's), at both float widths.
mod special {
    pub trait Special: Copy {
        fn gamma_function(self) -> Self;
        fn log_gamma(self) -> Self;
        fn error_function(self) -> Self;
        fn complementary_error_function(self) -> Self;
    }
    impl Special for f32 {
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
    impl Special for f64 {
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
    pub fn gamma<T: Special>(x: T) -> T {
        x.gamma_function()
    }
    pub fn lgamma<T: Special>(x: T) -> T {
        x.log_gamma()
    }
    pub fn erf<T: Special>(x: T) -> T {
        x.error_function()
    }
    pub fn erfc<T: Special>(x: T) -> T {
        x.complementary_error_function()
    }
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

fn as_f64(v: PrimValue) -> f64 {
    use PrimValue::*;
    match v {
        F32(x) => x as f64,
        F64(x) => x,
        U64(x) => x as f64,
        other => as_i128(other) as f64,
    }
}

/// Converts `v` to the primitive type `to`.
pub fn convert(v: PrimValue, to: PrimType) -> PrimValue {
    use PrimValue::*;
    let float_source = matches!(v, F32(_) | F64(_));
    // Float to integer saturates at the target's bounds, as Rust's `as`.
    macro_rules! to_int {
        ($ty:ty, $variant:ident) => {
            $variant(match v {
                F32(x) => x as $ty,
                F64(x) => x as $ty,
                _ => as_i128(v) as $ty,
            })
        };
    }
    match to {
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
        PrimType::F64 => F64(as_f64(v)),
        PrimType::Bool => Bool(if float_source {
            as_f64(v) != 0.0
        } else {
            as_i128(v) != 0
        }),
    }
}

/// The primitive functions of the numeric modules.
pub fn math(f: MathFun, args: &[PrimValue]) -> PrimResult {
    use PrimValue::*;
    macro_rules! float1 {
        ($x:expr, $variant:ident) => {{
            let x = $x;
            Ok(match f {
                MathFun::Sqrt => $variant(x.sqrt()),
                MathFun::Exp => $variant(x.exp()),
                MathFun::Log => $variant(x.ln()),
                MathFun::Log2 => $variant(x.log2()),
                MathFun::Log10 => $variant(x.log10()),
                MathFun::Asin => $variant(x.asin()),
                MathFun::Acos => $variant(x.acos()),
                MathFun::Atan => $variant(x.atan()),
                MathFun::Sinh => $variant(x.sinh()),
                MathFun::Cosh => $variant(x.cosh()),
                MathFun::Tanh => $variant(x.tanh()),
                MathFun::Asinh => $variant(x.asinh()),
                MathFun::Acosh => $variant(x.acosh()),
                MathFun::Atanh => $variant(x.atanh()),
                MathFun::Cbrt => $variant(x.cbrt()),
                MathFun::Log1p => $variant(x.ln_1p()),
                MathFun::Gamma => $variant(special::gamma(x)),
                MathFun::Lgamma => $variant(special::lgamma(x)),
                MathFun::Erf => $variant(special::erf(x)),
                MathFun::Erfc => $variant(special::erfc(x)),
                MathFun::Trunc => $variant(x.trunc()),
                MathFun::Sin => $variant(x.sin()),
                MathFun::Cos => $variant(x.cos()),
                MathFun::Tan => $variant(x.tan()),
                MathFun::Floor => $variant(x.floor()),
                MathFun::Ceil => $variant(x.ceil()),
                MathFun::Round => $variant(x.round_ties_even()),
                MathFun::Abs => $variant(x.abs()),
                MathFun::Signum => $variant(if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    x
                }),
                MathFun::IsNan => Bool(x.is_nan()),
                MathFun::IsInf => Bool(x.is_infinite()),
                other => return Err(format!("{} is not defined on floats", other.name())),
            })
        }};
    }
    match (f, args) {
        (MathFun::Min, [a, b]) | (MathFun::Max, [a, b]) => {
            let lt = matches!(binary(BinOp::Lt, *a, *b)?, Bool(true));
            Ok(match (f, a, b) {
                (MathFun::Min, F32(x), F32(y)) => F32(x.min(*y)),
                (MathFun::Max, F32(x), F32(y)) => F32(x.max(*y)),
                (MathFun::Min, F64(x), F64(y)) => F64(x.min(*y)),
                (MathFun::Max, F64(x), F64(y)) => F64(x.max(*y)),
                (MathFun::Min, _, _) => {
                    if lt {
                        *a
                    } else {
                        *b
                    }
                }
                _ => {
                    if lt {
                        *b
                    } else {
                        *a
                    }
                }
            })
        }
        (MathFun::Popc | MathFun::Clz | MathFun::Ctz, [v]) if v.prim_type().is_integer() => {
            let width = v.prim_type().byte_size() as u32 * 8;
            // The bits of `v`, zero-extended.
            let bits = (as_i128(*v) as u128) & (u128::MAX >> (128 - width));
            Ok(I32(match f {
                MathFun::Popc => bits.count_ones(),
                MathFun::Clz => bits.leading_zeros() - (128 - width),
                _ => bits.trailing_zeros().min(width),
            } as i32))
        }
        (MathFun::MulHi, [a, b])
            if a.prim_type().is_integer() && a.prim_type() == b.prim_type() =>
        {
            // The exact product of the two values (signed or unsigned by the
            // type) fits in 128 bits; its high half is the product shifted
            // right by the width, wrapped to the type.
            let width = a.prim_type().byte_size() as u32 * 8;
            let product = as_i128(*a).wrapping_mul(as_i128(*b));
            Ok(convert(I64((product >> width) as i64), a.prim_type()))
        }
        // The exact `a * b + c`, rounded once (IEEE 754 fusedMultiplyAdd).
        (MathFun::Fma, [F32(a), F32(b), F32(c)]) => Ok(F32(a.mul_add(*b, *c))),
        (MathFun::Fma, [F64(a), F64(b), F64(c)]) => Ok(F64(a.mul_add(*b, *c))),
        (MathFun::Atan2, [F32(y), F32(x)]) => Ok(F32(y.atan2(*x))),
        (MathFun::Atan2, [F64(y), F64(x)]) => Ok(F64(y.atan2(*x))),
        (_, [F32(x)]) => float1!(*x, F32),
        (_, [F64(x)]) => float1!(*x, F64),
        (MathFun::Abs, [v]) => {
            let zero = convert(I32(0), v.prim_type());
            if matches!(binary(BinOp::Lt, *v, zero)?, Bool(true)) {
                unary(UnOp::Neg, *v)
            } else {
                Ok(*v)
            }
        }
        (MathFun::Signum, [v]) => {
            let zero = convert(I32(0), v.prim_type());
            let one = convert(I32(1), v.prim_type());
            if matches!(binary(BinOp::Lt, *v, zero)?, Bool(true)) {
                unary(UnOp::Neg, one)
            } else if *v == zero {
                Ok(zero)
            } else {
                Ok(one)
            }
        }
        (f, args) => Err(format!(
            "{} is not defined on {} argument(s) of these types",
            f.name(),
            args.len()
        )),
    }
}

/// The integer value of `v` as an `i64` index, if it is an integer.
pub fn as_index(v: PrimValue) -> Option<i64> {
    match v {
        PrimValue::F32(_) | PrimValue::F64(_) | PrimValue::Bool(_) => None,
        PrimValue::U64(x) => Some(x.min(i64::MAX as u64) as i64),
        other => Some(as_i128(other) as i64),
    }
}

/// `n` as a value of the integer type `t` (wrapping).
pub fn from_i64(n: i64, t: PrimType) -> PrimValue {
    convert(PrimValue::I64(n), t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use PrimValue::*;

    #[test]
    fn integer_division_rounds_like_futhark() {
        let cases = [
            (BinOp::Div, -7, 2, -4),
            (BinOp::Mod, -7, 2, 1),
            (BinOp::Quot, -7, 2, -3),
            (BinOp::Rem, -7, 2, -1),
            (BinOp::Div, 7, -2, -4),
            (BinOp::Mod, 7, -2, -1),
            (BinOp::Div, i32::MIN, -1, i32::MIN),
        ];
        for (op, a, b, expected) in cases {
            assert_eq!(
                binary(op, I32(a), I32(b)),
                Ok(I32(expected)),
                "{a} {op:?} {b}"
            );
        }
        assert!(binary(BinOp::Div, I32(1), I32(0)).is_err());
        assert!(binary(BinOp::Rem, U8(1), U8(0)).is_err());
    }

    #[test]
    fn integers_wrap_and_shift() {
        assert_eq!(binary(BinOp::Add, U8(250), U8(10)), Ok(U8(4)));
        assert_eq!(binary(BinOp::Mul, I8(100), I8(2)), Ok(I8(-56)));
        assert_eq!(binary(BinOp::Shl, I32(1), I32(40)), Ok(I32(0)));
        assert_eq!(binary(BinOp::Shr, I32(-8), I32(40)), Ok(I32(-1)));
        assert_eq!(binary(BinOp::UShr, I32(-8), I32(2)), Ok(I32(1073741822)));
        assert_eq!(binary(BinOp::Pow, I64(3), I64(4)), Ok(I64(81)));
        assert_eq!(unary(UnOp::Neg, I32(i32::MIN)), Ok(I32(i32::MIN)));
    }

    #[test]
    fn conversions_wrap_truncate_and_saturate() {
        assert_eq!(convert(I32(300), PrimType::U8), U8(44));
        assert_eq!(convert(F64(-2.7), PrimType::I32), I32(-2));
        assert_eq!(convert(F64(1e20), PrimType::I32), I32(i32::MAX));
        assert_eq!(convert(F32(f32::NAN), PrimType::I64), I64(0));
        assert_eq!(convert(Bool(true), PrimType::F32), F32(1.0));
        assert_eq!(convert(U64(u64::MAX), PrimType::F64), F64(u64::MAX as f64));
    }

    #[test]
    fn floats_are_ieee() {
        assert_eq!(
            binary(BinOp::Div, F64(1.0), F64(0.0)),
            Ok(F64(f64::INFINITY))
        );
        assert_eq!(
            binary(BinOp::Eq, F64(f64::NAN), F64(f64::NAN)),
            Ok(Bool(false))
        );
        assert_eq!(binary(BinOp::Eq, F64(-0.0), F64(0.0)), Ok(Bool(true)));
        assert_eq!(math(MathFun::Sqrt, &[F32(16.0)]), Ok(F32(4.0)));
        assert_eq!(math(MathFun::Max, &[I32(-3), I32(7)]), Ok(I32(7)));
    }
}
