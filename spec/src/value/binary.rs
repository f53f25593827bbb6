//! Futhark's binary data format.
//!
//! A value is: the byte `b`; the version byte 2; the rank as an `i8` (0 for a
//! scalar); a 4-byte type tag (`"  i8"`, `" i16"`, `" i32"`, `" i64"`, `"  u8"`,
//! `" u16"`, `" u32"`, `" u64"`, `" f32"`, `" f64"`, `"bool"`); `rank` dimensions
//! as little-endian `u64`; then the elements, little-endian, row-major (a `bool`
//! is one byte, 0 or 1). Floats keep their exact bits, NaN payloads included.
//! `" f16"` is recognised and rejected. Only primitives and arrays of primitives
//! have a binary form; tuples, records and sums do not.

use super::array::{dispatch, shape_product};
use super::{Array, ArrayData, PrimType, PrimValue, Value, ValueError, ValueType};
use std::fmt;

/// The version byte this module reads and writes.
pub const VERSION: u8 = 2;

fn tag(t: PrimType) -> &'static [u8; 4] {
    match t {
        PrimType::I8 => b"  i8",
        PrimType::I16 => b" i16",
        PrimType::I32 => b" i32",
        PrimType::I64 => b" i64",
        PrimType::U8 => b"  u8",
        PrimType::U16 => b" u16",
        PrimType::U32 => b" u32",
        PrimType::U64 => b" u64",
        PrimType::F32 => b" f32",
        PrimType::F64 => b" f64",
        PrimType::Bool => b"bool",
    }
}

/// Reads the binary value starting at `input[start]` (which is `b`); returns it
/// and the offset just after it.
pub fn read_binary_value(input: &[u8], start: usize) -> Result<(Value, usize), ValueError> {
    let mut pos = start;
    let mut take = |n: usize, what: &str| -> Result<(usize, &[u8]), ValueError> {
        let at = pos;
        match input.get(at..at.saturating_add(n)) {
            Some(bytes) if at.checked_add(n).is_some() => {
                pos = at + n;
                Ok((at, bytes))
            }
            _ => Err(ValueError::new(
                start..input.len(),
                "binary value ends early",
                format!(
                    "expected {what} ({n} bytes) at byte {at}, but the input ends after {} more",
                    input.len().saturating_sub(at)
                ),
            )),
        }
    };
    let (_, magic) = take(1, "the byte `b`")?;
    if magic != b"b" {
        return Err(ValueError::new(
            start..start + 1,
            "not a binary value",
            "expected the byte `b`",
        ));
    }
    let (at, version) = take(1, "the format version")?;
    if version[0] != VERSION {
        return Err(ValueError::new(
            at..at + 1,
            format!("unsupported binary format version {}", version[0]),
            "expected version 2 after `b` (textual values never start with `b`)",
        ));
    }
    let (at, rank) = take(1, "the rank")?;
    let rank = rank[0] as i8;
    if rank < 0 {
        return Err(ValueError::new(
            at..at + 1,
            format!("negative rank {rank}"),
            "expected a rank from 0 to 127",
        ));
    }
    let (at, type_tag) = take(4, "the type tag")?;
    let ty = match PrimType::ALL.into_iter().find(|t| tag(*t) == type_tag) {
        Some(t) => t,
        None if type_tag == b" f16" => {
            return Err(ValueError::new(
                at..at + 4,
                "f16 is not supported",
                "runestone has no 16-bit floats; use f32",
            ))
        }
        None => {
            return Err(ValueError::new(
                at..at + 4,
                format!("unknown type tag {:?}", String::from_utf8_lossy(type_tag)),
                "expected one of \"  i8\", \" i16\", \" i32\", \" i64\", \"  u8\", \" u16\", \" u32\", \" u64\", \" f32\", \" f64\", \"bool\"",
            ))
        }
    };
    let mut shape = Vec::with_capacity(rank as usize);
    for i in 0..rank {
        let (at, bytes) = take(8, "a dimension")?;
        let d = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        if d > i64::MAX as u64 {
            return Err(ValueError::new(
                at..at + 8,
                format!("dimension {i} is {d}"),
                "expected a size up to 2^63 - 1",
            ));
        }
        shape.push(d as usize);
    }
    let count = shape_product(&shape);
    let bytes_needed = count.and_then(|c| c.checked_mul(ty.byte_size()));
    let Some(bytes_needed) = bytes_needed else {
        return Err(ValueError::new(
            start..pos,
            "binary array too large",
            "its shape has more elements than memory can hold",
        ));
    };
    let (at, data) = take(bytes_needed, "the elements")?;
    let data = decode(ty, data).map_err(|i| {
        ValueError::new(
            at + i..at + i + 1,
            format!("invalid bool byte 0x{:02x}", data[i]),
            "expected 0 (false) or 1 (true)",
        )
    })?;
    let value = if rank == 0 {
        data.get(0).expect("one element")
    } else {
        Value::Array(Array::new(shape, data).expect("shape matches the element count"))
    };
    Ok((value, pos))
}

/// Decodes little-endian elements; `Err(i)` for an invalid bool at byte `i`.
fn decode(ty: PrimType, bytes: &[u8]) -> Result<ArrayData, usize> {
    macro_rules! le {
        ($variant:ident, $t:ty) => {
            ArrayData::$variant(
                bytes
                    .chunks_exact(std::mem::size_of::<$t>())
                    .map(|c| <$t>::from_le_bytes(c.try_into().expect("element size")))
                    .collect(),
            )
        };
    }
    Ok(match ty {
        PrimType::I8 => le!(I8, i8),
        PrimType::I16 => le!(I16, i16),
        PrimType::I32 => le!(I32, i32),
        PrimType::I64 => le!(I64, i64),
        PrimType::U8 => le!(U8, u8),
        PrimType::U16 => le!(U16, u16),
        PrimType::U32 => le!(U32, u32),
        PrimType::U64 => le!(U64, u64),
        PrimType::F32 => le!(F32, f32),
        PrimType::F64 => le!(F64, f64),
        PrimType::Bool => {
            if let Some(i) = bytes.iter().position(|&b| b > 1) {
                return Err(i);
            }
            ArrayData::Bool(bytes.iter().map(|&b| b == 1).collect())
        }
    })
}

/// A value that has no binary form (a tuple, record, sum, or array of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BinaryWriteError {
    pub value_type: ValueType,
}

impl fmt::Display for BinaryWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a value of type {} cannot be written in Futhark's binary format, which holds only primitives and arrays of primitives",
            self.value_type
        )
    }
}

impl std::error::Error for BinaryWriteError {}

/// Appends the binary form of `value` to `out`. Fails, writing nothing, for a
/// value without a binary form (and for an array of rank over 127).
pub fn write_binary(value: &Value, out: &mut Vec<u8>) -> Result<(), BinaryWriteError> {
    let no = || BinaryWriteError {
        value_type: value.value_type(),
    };
    let (shape, ty): (&[usize], PrimType) = match value {
        Value::Prim(p) => (&[], p.prim_type()),
        Value::Array(a) if a.rank() <= i8::MAX as usize => {
            (a.shape(), a.data().prim_type().ok_or_else(no)?)
        }
        _ => return Err(no()),
    };
    out.push(b'b');
    out.push(VERSION);
    out.push(shape.len() as u8);
    out.extend_from_slice(tag(ty));
    for &d in shape {
        out.extend_from_slice(&(d as u64).to_le_bytes());
    }
    macro_rules! le {
        ($x:expr) => {
            out.extend_from_slice(&$x.to_le_bytes())
        };
    }
    match value {
        Value::Prim(p) => match *p {
            PrimValue::I8(x) => le!(x),
            PrimValue::I16(x) => le!(x),
            PrimValue::I32(x) => le!(x),
            PrimValue::I64(x) => le!(x),
            PrimValue::U8(x) => le!(x),
            PrimValue::U16(x) => le!(x),
            PrimValue::U32(x) => le!(x),
            PrimValue::U64(x) => le!(x),
            PrimValue::F32(x) => le!(x),
            PrimValue::F64(x) => le!(x),
            PrimValue::Bool(x) => out.push(u8::from(x)),
        },
        Value::Array(a) => dispatch!(a.data(), v => {
            out.reserve(v.len() * ty.byte_size());
            for x in v {
                x.write_le(out);
            }
        }, _e, _elems => unreachable!("checked to be unboxed")),
        _ => unreachable!("checked above"),
    }
    Ok(())
}

/// All `values`, concatenated in binary.
pub fn write_values_binary(values: &[Value]) -> Result<Vec<u8>, BinaryWriteError> {
    let mut out = Vec::new();
    for v in values {
        write_binary(v, &mut out)?;
    }
    Ok(out)
}

/// Little-endian encoding of one element.
trait WriteLe {
    fn write_le(self, out: &mut Vec<u8>);
}
macro_rules! write_le {
    ($($t:ty),*) => {$(
        impl WriteLe for &$t {
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes())
            }
        }
    )*};
}
write_le!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
impl WriteLe for &bool {
    fn write_le(self, out: &mut Vec<u8>) {
        out.push(u8::from(*self))
    }
}
