//! The normalised textual printer: `Display` for [`Value`], [`ValueType`] and
//! [`PrimValue`].
//!
//! Output is canonical, so that printing is a good way to compare and store
//! values: literals always carry their type suffix (`1i32`, `-3i8`, `2.5f32`),
//! floats use the shortest digits that read back to the same bits and always
//! contain a `.` or an exponent, non-finite floats are `f32.nan`, `f64.inf`,
//! `-f64.inf`, arrays are `[1i32, 2i32]`, and arrays without elements are
//! `empty([2][0]i32)`. Reading printed text gives back an identical value
//! (NaN payloads aside: every NaN prints as `nan`).

use super::array::{dispatch, shape_to_string};
use super::{Array, ArrayData, PrimValue, Value, ValueType};
use std::fmt::{self, Display, Formatter, Write};

/// The values, one per line (each line ends with a newline).
pub fn print_values(values: &[Value]) -> String {
    let mut out = String::new();
    for v in values {
        writeln!(out, "{v}").expect("writing to a String");
    }
    out
}

impl Display for PrimValue {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            PrimValue::I8(x) => write!(f, "{x}i8"),
            PrimValue::I16(x) => write!(f, "{x}i16"),
            PrimValue::I32(x) => write!(f, "{x}i32"),
            PrimValue::I64(x) => write!(f, "{x}i64"),
            PrimValue::U8(x) => write!(f, "{x}u8"),
            PrimValue::U16(x) => write!(f, "{x}u16"),
            PrimValue::U32(x) => write!(f, "{x}u32"),
            PrimValue::U64(x) => write!(f, "{x}u64"),
            PrimValue::F32(x) => write_float(f, x.is_nan(), x.is_infinite(), x < 0.0, x, "f32"),
            PrimValue::F64(x) => write_float(f, x.is_nan(), x.is_infinite(), x < 0.0, x, "f64"),
            PrimValue::Bool(x) => write!(f, "{x}"),
        }
    }
}

/// `{:?}` of a finite float is its shortest round-trip representation and
/// always has a `.` or an exponent (`1.0`, `1e20`, `-0.0`, `1.5e-7`).
fn write_float(
    f: &mut Formatter<'_>,
    nan: bool,
    inf: bool,
    negative: bool,
    x: impl fmt::Debug,
    suffix: &str,
) -> fmt::Result {
    if nan {
        write!(f, "{suffix}.nan")
    } else if inf {
        write!(f, "{}{suffix}.inf", if negative { "-" } else { "" })
    } else {
        write!(f, "{x:?}{suffix}")
    }
}

impl Display for Value {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_value(f, self, Place::Top)
    }
}

/// Where a value is printed: sums need parentheses at top level and as payload,
/// where their own payload would otherwise swallow what follows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Top,
    Delimited,
    Payload,
}

fn write_value(f: &mut Formatter<'_>, v: &Value, place: Place) -> fmt::Result {
    match v {
        Value::Prim(p) => write!(f, "{p}"),
        Value::Array(a) => write_array(f, a),
        Value::Tuple(vs) => {
            f.write_char('(')?;
            for (i, v) in vs.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_value(f, v, Place::Delimited)?;
            }
            if vs.len() == 1 {
                f.write_char(',')?;
            }
            f.write_char(')')
        }
        Value::Record(r) => {
            f.write_char('{')?;
            for (i, (name, v)) in r.fields().iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{name} = ")?;
                write_value(f, v, Place::Delimited)?;
            }
            f.write_char('}')
        }
        Value::Sum(s) => {
            let parens = place != Place::Delimited;
            if parens {
                f.write_char('(')?;
            }
            write!(f, "#{}", s.constructor())?;
            for v in s.payload() {
                f.write_char(' ')?;
                write_value(f, v, Place::Payload)?;
            }
            if parens {
                f.write_char(')')?;
            }
            Ok(())
        }
    }
}

fn write_array(f: &mut Formatter<'_>, a: &Array) -> fmt::Result {
    if a.is_empty() {
        write!(f, "empty({}", shape_to_string(a.shape()))?;
        write_elem_type(f, &a.elem_type())?;
        return f.write_char(')');
    }
    write_rows(f, a.shape(), a.data(), &mut 0)
}

/// Writes the array of `shape` whose elements start at `*next`, advancing it.
fn write_rows(
    f: &mut Formatter<'_>,
    shape: &[usize],
    data: &ArrayData,
    next: &mut usize,
) -> fmt::Result {
    f.write_char('[')?;
    for i in 0..shape[0] {
        if i > 0 {
            f.write_str(", ")?;
        }
        if shape.len() > 1 {
            write_rows(f, &shape[1..], data, next)?;
        } else {
            let at = *next;
            dispatch!(data, v => write!(f, "{}", PrimValue::from(v[at]))?,
                      _e, elems => write_value(f, &elems[at], Place::Delimited)?);
            *next += 1;
        }
    }
    f.write_char(']')
}

/// An element type after a shape: sums in parentheses, `[0](#a | #b)`.
fn write_elem_type(f: &mut Formatter<'_>, t: &ValueType) -> fmt::Result {
    match t {
        ValueType::Sum(_) => write!(f, "({t})"),
        _ => write!(f, "{t}"),
    }
}

impl Display for ValueType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ValueType::Prim(p) => write!(f, "{p}"),
            ValueType::Array { shape, elem } => {
                f.write_str(&shape_to_string(shape))?;
                write_elem_type(f, elem)
            }
            ValueType::Tuple(ts) => {
                f.write_char('(')?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if ts.len() == 1 {
                    f.write_char(',')?;
                }
                f.write_char(')')
            }
            ValueType::Record(fields) => {
                f.write_char('{')?;
                for (i, (name, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: {t}")?;
                }
                f.write_char('}')
            }
            ValueType::Sum(constructors) => {
                for (i, (name, payload)) in constructors.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    write!(f, "#{name}")?;
                    for t in payload {
                        f.write_char(' ')?;
                        write_elem_type(f, t)?;
                    }
                }
                Ok(())
            }
        }
    }
}
