//! Primitive types and primitive values.
//!
//! The primitive types are Futhark's `i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 bool`;
//! `f16` is not supported anywhere in runestone. [`PrimValue`]'s equality is
//! *identity*: floats are equal when their bits are (so `-0.0 != 0.0` and a NaN
//! equals a NaN with the same bits). Test comparison, which canonicalises NaNs and
//! may allow a tolerance, is [`super::compare()`].

use std::fmt;

/// A primitive type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    Bool,
}

impl PrimType {
    /// Every primitive type, in the order of the enum.
    pub const ALL: [PrimType; 11] = [
        PrimType::I8,
        PrimType::I16,
        PrimType::I32,
        PrimType::I64,
        PrimType::U8,
        PrimType::U16,
        PrimType::U32,
        PrimType::U64,
        PrimType::F32,
        PrimType::F64,
        PrimType::Bool,
    ];

    /// The Futhark name (`i32`, `bool`, ...), also the literal suffix.
    pub fn name(self) -> &'static str {
        match self {
            PrimType::I8 => "i8",
            PrimType::I16 => "i16",
            PrimType::I32 => "i32",
            PrimType::I64 => "i64",
            PrimType::U8 => "u8",
            PrimType::U16 => "u16",
            PrimType::U32 => "u32",
            PrimType::U64 => "u64",
            PrimType::F32 => "f32",
            PrimType::F64 => "f64",
            PrimType::Bool => "bool",
        }
    }

    /// The type named `name`; `None` for anything else, `f16` included.
    pub fn from_name(name: &str) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn is_float(self) -> bool {
        matches!(self, PrimType::F32 | PrimType::F64)
    }

    pub fn is_integer(self) -> bool {
        !self.is_float() && self != PrimType::Bool
    }

    pub fn is_signed_integer(self) -> bool {
        matches!(
            self,
            PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64
        )
    }

    /// The smallest and largest value of an integer type (`None` for the
    /// float types and `bool`): the range a literal of the type must lie in
    /// (SPEC_NOTES TFP18-32).
    pub fn integer_range(self) -> Option<(i128, i128)> {
        Some(match self {
            PrimType::I8 => (i8::MIN.into(), i8::MAX.into()),
            PrimType::I16 => (i16::MIN.into(), i16::MAX.into()),
            PrimType::I32 => (i32::MIN.into(), i32::MAX.into()),
            PrimType::I64 => (i64::MIN.into(), i64::MAX.into()),
            PrimType::U8 => (0, u8::MAX.into()),
            PrimType::U16 => (0, u16::MAX.into()),
            PrimType::U32 => (0, u32::MAX.into()),
            PrimType::U64 => (0, u64::MAX.into()),
            PrimType::F32 | PrimType::F64 | PrimType::Bool => return None,
        })
    }

    /// The type of an integer literal with suffix `suffix` (`1u8`).
    pub fn from_int_suffix(suffix: crate::syntax::ast::IntType) -> PrimType {
        use crate::syntax::ast::IntType;
        match suffix {
            IntType::I8 => PrimType::I8,
            IntType::I16 => PrimType::I16,
            IntType::I32 => PrimType::I32,
            IntType::I64 => PrimType::I64,
            IntType::U8 => PrimType::U8,
            IntType::U16 => PrimType::U16,
            IntType::U32 => PrimType::U32,
            IntType::U64 => PrimType::U64,
        }
    }

    /// The type of a float literal with suffix `suffix` (`1f32`).
    pub fn from_float_suffix(suffix: crate::syntax::ast::FloatType) -> PrimType {
        use crate::syntax::ast::FloatType;
        match suffix {
            FloatType::F32 => PrimType::F32,
            FloatType::F64 => PrimType::F64,
        }
    }

    /// Size of one element in Futhark's binary format.
    pub fn byte_size(self) -> usize {
        match self {
            PrimType::I8 | PrimType::U8 | PrimType::Bool => 1,
            PrimType::I16 | PrimType::U16 => 2,
            PrimType::I32 | PrimType::U32 | PrimType::F32 => 4,
            PrimType::I64 | PrimType::U64 | PrimType::F64 => 8,
        }
    }
}

impl fmt::Display for PrimType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A primitive value. Equality is identity (floats by bits): see the module doc.
#[derive(Clone, Copy, Debug)]
pub enum PrimValue {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Bool(bool),
}

impl PrimValue {
    /// The value's bit pattern, zero-extended to 64 bits (a float's IEEE
    /// bits, `bool` as 0 or 1): equal exactly when the values are identical
    /// (`-0.0` and `0.0` differ, a NaN equals itself bit for bit).
    pub fn to_bits(self) -> u64 {
        match self {
            PrimValue::I8(x) => x as u8 as u64,
            PrimValue::I16(x) => x as u16 as u64,
            PrimValue::I32(x) => x as u32 as u64,
            PrimValue::I64(x) => x as u64,
            PrimValue::U8(x) => x as u64,
            PrimValue::U16(x) => x as u64,
            PrimValue::U32(x) => x as u64,
            PrimValue::U64(x) => x,
            PrimValue::F32(x) => x.to_bits() as u64,
            PrimValue::F64(x) => x.to_bits(),
            PrimValue::Bool(b) => b as u64,
        }
    }

    pub fn prim_type(self) -> PrimType {
        match self {
            PrimValue::I8(_) => PrimType::I8,
            PrimValue::I16(_) => PrimType::I16,
            PrimValue::I32(_) => PrimType::I32,
            PrimValue::I64(_) => PrimType::I64,
            PrimValue::U8(_) => PrimType::U8,
            PrimValue::U16(_) => PrimType::U16,
            PrimValue::U32(_) => PrimType::U32,
            PrimValue::U64(_) => PrimType::U64,
            PrimValue::F32(_) => PrimType::F32,
            PrimValue::F64(_) => PrimType::F64,
            PrimValue::Bool(_) => PrimType::Bool,
        }
    }
}

impl PartialEq for PrimValue {
    fn eq(&self, other: &Self) -> bool {
        use PrimValue::*;
        match (*self, *other) {
            (F32(a), F32(b)) => a.to_bits() == b.to_bits(),
            (F64(a), F64(b)) => a.to_bits() == b.to_bits(),
            (I8(a), I8(b)) => a == b,
            (I16(a), I16(b)) => a == b,
            (I32(a), I32(b)) => a == b,
            (I64(a), I64(b)) => a == b,
            (U8(a), U8(b)) => a == b,
            (U16(a), U16(b)) => a == b,
            (U32(a), U32(b)) => a == b,
            (U64(a), U64(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            _ => false,
        }
    }
}
impl Eq for PrimValue {}

macro_rules! prim_from {
    ($($variant:ident($ty:ty)),*) => {$(
        impl From<$ty> for PrimValue {
            fn from(x: $ty) -> PrimValue {
                PrimValue::$variant(x)
            }
        }
    )*};
}
prim_from!(
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Bool(bool)
);
