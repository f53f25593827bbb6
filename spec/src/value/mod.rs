//! Observable values: what every backend's result is, and what every test
//! compares, plus Futhark's value formats.
//!
//! A [`Value`] is a primitive, a regular array of rank ≥ 1 (possibly empty: an
//! empty array keeps its element type and its full shape, e.g. `[2][0]`), a tuple
//! (`()` is the empty tuple), a record, or a sum-type value. Arrays of primitives
//! are stored unboxed ([`mod@array`]). [`ValueType`] is the type of a value including
//! its array shapes.
//!
//! - [`mod@text`]: the reader of Futhark's textual value format (`futhark test`,
//!   `futhark dataset`), mixed freely with binary values: [`read_values`].
//! - [`mod@print`]: the normalised textual printer (`Display` for [`Value`]).
//! - [`mod@binary`]: Futhark's binary data format.
//! - [`mod@compare`]: comparing expected and actual results, with a readable
//!   [`Mismatch`].
//! - [`mod@random`]: deterministic pseudo-random values of a type
//!   (`random input { ... }` test cases), [`random_values`].
//! - [`mod@error`]: [`ValueError`], a located reader error that becomes a
//!   [`crate::diagnostic::Diagnostic`].
//!
//! **runestone extension.** Futhark's value format has only primitives and arrays
//! of primitives. runestone's printer and reader also accept tuples `(1i32, true)`
//! (a 1-tuple, which Futhark has not, is written `(x,)`), records
//! `{a = 1i32, b = 2.0f32}`, sum values `#some 1i32`, arrays of these, and their
//! types in empty arrays (`empty([0](i32, bool))`, `empty([0](#none | #some
//! i32))`), so that every result a program can produce can be printed and read
//! back. A sum value's payload extends over the following values up to the next
//! `,`, `]`, `)` or `}`, so the printer parenthesises sums at top level and as
//! payloads: `(#some 1i32)`.
//!
//! As in Futhark, a record whose fields are `0`..`n-1` with `n ≥ 2` *is* a tuple,
//! and the empty record `{}` is the unit `()`: [`Value::record`] normalises them.

pub mod array;
pub mod binary;
pub mod compare;
pub mod error;
pub mod prim;
pub mod print;
pub mod random;
pub mod text;

pub use array::{Array, ArrayBuilder, ArrayData, Element};
pub use binary::{read_binary_value, write_binary, write_values_binary, BinaryWriteError};
pub use compare::{
    compare, Mismatch, MismatchKind, Tolerance, COMPILED_FLOAT_ULPS,
    FUTHARK_TEST_RELATIVE_TOLERANCE,
};
pub use error::{diagnostic_text, ValueError};
pub use prim::{PrimType, PrimValue};
pub use print::print_values;
pub use random::{random_values, SplitMix64};
pub use text::{read_types, read_value, read_values, MAX_NESTING};

use std::cmp::Ordering;
use std::fmt;

/// A value that cannot be built because it would break an invariant (an
/// irregular array, a duplicate field, a bad name, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidValue {
    pub message: String,
}

impl InvalidValue {
    pub fn new(message: impl Into<String>) -> InvalidValue {
        InvalidValue {
            message: message.into(),
        }
    }
}

impl fmt::Display for InvalidValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InvalidValue {}

/// An observable value. Equality is identity (floats by bits); use
/// [`compare()`] to check a result against an expected one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Prim(PrimValue),
    Array(Array),
    /// A tuple; `()` is the unit value. Never built from a record.
    Tuple(Vec<Value>),
    Record(Record),
    Sum(Sum),
}

/// A record value: fields in [`field_order`], never tuple-shaped (see
/// [`Value::record`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    fields: Vec<(String, Value)>,
}

impl Record {
    pub fn fields(&self) -> &[(String, Value)] {
        &self.fields
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// A sum-type value: a constructor (without the `#`) and its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sum {
    constructor: String,
    payload: Vec<Value>,
}

impl Sum {
    pub fn constructor(&self) -> &str {
        &self.constructor
    }

    pub fn payload(&self) -> &[Value] {
        &self.payload
    }
}

impl Value {
    /// A record from its fields, in any order. Fails on a duplicate or invalid
    /// field name. Fields `0`..`n-1` with `n ≥ 2` give a tuple, no fields `()`.
    pub fn record(mut fields: Vec<(String, Value)>) -> Result<Value, InvalidValue> {
        let names = check_fields(fields.iter().map(|(n, _)| n.as_str()).collect())?;
        if is_tuple_fields(&names) {
            fields.sort_by(|a, b| field_order(&a.0, &b.0));
            return Ok(Value::Tuple(fields.into_iter().map(|(_, v)| v).collect()));
        }
        fields.sort_by(|a, b| field_order(&a.0, &b.0));
        Ok(Value::Record(Record { fields }))
    }

    /// A sum value `#constructor payload...`; fails if the name is not an
    /// identifier.
    pub fn sum(constructor: impl Into<String>, payload: Vec<Value>) -> Result<Value, InvalidValue> {
        let constructor = constructor.into();
        if !is_identifier(&constructor) {
            return Err(InvalidValue::new(format!(
                "`{constructor}` is not a constructor name (an identifier, written after `#`)"
            )));
        }
        Ok(Value::Sum(Sum {
            constructor,
            payload,
        }))
    }

    /// The unit value `()`.
    pub fn unit() -> Value {
        Value::Tuple(Vec::new())
    }

    /// The value's type, array shapes included. A sum value's type lists only
    /// its own constructor.
    pub fn value_type(&self) -> ValueType {
        match self {
            Value::Prim(p) => ValueType::Prim(p.prim_type()),
            Value::Array(a) => ValueType::Array {
                shape: a.shape().to_vec(),
                elem: Box::new(a.elem_type()),
            },
            Value::Tuple(vs) => ValueType::Tuple(vs.iter().map(Value::value_type).collect()),
            Value::Record(r) => ValueType::Record(
                r.fields
                    .iter()
                    .map(|(n, v)| (n.clone(), v.value_type()))
                    .collect(),
            ),
            Value::Sum(s) => ValueType::Sum(vec![(
                s.constructor.clone(),
                s.payload.iter().map(Value::value_type).collect(),
            )]),
        }
    }

    pub fn as_prim(&self) -> Option<PrimValue> {
        match self {
            Value::Prim(p) => Some(*p),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

impl<T: Into<PrimValue>> From<T> for Value {
    fn from(x: T) -> Value {
        Value::Prim(x.into())
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Value {
        Value::Array(a)
    }
}

/// The type of a value, array shapes included (`[2][0]i32`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    Prim(PrimType),
    /// `shape` has at least one dimension; `elem` is never an array type.
    Array {
        shape: Vec<usize>,
        elem: Box<ValueType>,
    },
    Tuple(Vec<ValueType>),
    /// Fields in [`field_order`], never tuple-shaped.
    Record(Vec<(String, ValueType)>),
    /// Constructors sorted by name, each with its payload types.
    Sum(Vec<(String, Vec<ValueType>)>),
}

impl ValueType {
    /// `[shape]elem`, merging the shape of an array `elem` into `shape`.
    pub fn array(mut shape: Vec<usize>, elem: ValueType) -> ValueType {
        let elem = match elem {
            ValueType::Array { shape: inner, elem } => {
                shape.extend(inner);
                *elem
            }
            elem => elem,
        };
        if shape.is_empty() {
            return elem;
        }
        ValueType::Array {
            shape,
            elem: Box::new(elem),
        }
    }

    /// A record type from fields in any order, normalised like [`Value::record`].
    pub fn record(mut fields: Vec<(String, ValueType)>) -> Result<ValueType, InvalidValue> {
        let names = check_fields(fields.iter().map(|(n, _)| n.as_str()).collect())?;
        fields.sort_by(|a, b| field_order(&a.0, &b.0));
        if is_tuple_fields(&names) {
            return Ok(ValueType::Tuple(
                fields.into_iter().map(|(_, t)| t).collect(),
            ));
        }
        Ok(ValueType::Record(fields))
    }

    /// A sum type from constructors in any order; fails on a duplicate or a name
    /// that is not an identifier, and when there are no constructors.
    pub fn sum(mut constructors: Vec<(String, Vec<ValueType>)>) -> Result<ValueType, InvalidValue> {
        if constructors.is_empty() {
            return Err(InvalidValue::new("a sum type has at least one constructor"));
        }
        constructors.sort_by(|a, b| a.0.cmp(&b.0));
        for pair in constructors.windows(2) {
            if pair[0].0 == pair[1].0 {
                return Err(InvalidValue::new(format!(
                    "duplicate constructor `#{}`",
                    pair[0].0
                )));
            }
        }
        if let Some((bad, _)) = constructors.iter().find(|(n, _)| !is_identifier(n)) {
            return Err(InvalidValue::new(format!(
                "`{bad}` is not a constructor name"
            )));
        }
        Ok(ValueType::Sum(constructors))
    }

    /// Whether a value of type `self` is a value of type `other`: the same
    /// type, except that a sum type fits any sum type with more constructors.
    pub fn fits(&self, other: &ValueType) -> bool {
        match (self, other) {
            (ValueType::Prim(a), ValueType::Prim(b)) => a == b,
            (
                ValueType::Array { shape, elem },
                ValueType::Array {
                    shape: shape2,
                    elem: elem2,
                },
            ) => shape == shape2 && elem.fits(elem2),
            (ValueType::Tuple(a), ValueType::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.fits(y))
            }
            (ValueType::Record(a), ValueType::Record(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|((n, x), (m, y))| n == m && x.fits(y))
            }
            (ValueType::Sum(a), ValueType::Sum(b)) => a.iter().all(|(name, payload)| {
                b.iter().any(|(name2, payload2)| {
                    name == name2
                        && payload.len() == payload2.len()
                        && payload.iter().zip(payload2).all(|(x, y)| x.fits(y))
                })
            }),
            _ => false,
        }
    }

    /// The smallest type both `self` and `other` fit, if any: equal types, or
    /// sum types whose constructors are united.
    pub fn join(&self, other: &ValueType) -> Option<ValueType> {
        fn all(a: &[ValueType], b: &[ValueType]) -> Option<Vec<ValueType>> {
            if a.len() != b.len() {
                return None;
            }
            a.iter().zip(b).map(|(x, y)| x.join(y)).collect()
        }
        Some(match (self, other) {
            (ValueType::Prim(a), ValueType::Prim(b)) if a == b => ValueType::Prim(*a),
            (
                ValueType::Array { shape, elem },
                ValueType::Array {
                    shape: shape2,
                    elem: elem2,
                },
            ) if shape == shape2 => ValueType::Array {
                shape: shape.clone(),
                elem: Box::new(elem.join(elem2)?),
            },
            (ValueType::Tuple(a), ValueType::Tuple(b)) => ValueType::Tuple(all(a, b)?),
            (ValueType::Record(a), ValueType::Record(b)) => {
                if a.len() != b.len() || a.iter().zip(b).any(|((n, _), (m, _))| n != m) {
                    return None;
                }
                let (names, ts): (Vec<_>, Vec<_>) = a.iter().cloned().unzip();
                let ts2: Vec<_> = b.iter().map(|(_, t)| t.clone()).collect();
                ValueType::Record(names.into_iter().zip(all(&ts, &ts2)?).collect())
            }
            (ValueType::Sum(a), ValueType::Sum(b)) => {
                let mut out = a.clone();
                for (name, payload) in b {
                    match out.iter_mut().find(|(n, _)| n == name) {
                        Some((_, mine)) => *mine = all(mine, payload)?,
                        None => out.push((name.clone(), payload.clone())),
                    }
                }
                out.sort_by(|x, y| x.0.cmp(&y.0));
                ValueType::Sum(out)
            }
            _ => return None,
        })
    }
}

/// The order of record fields: numerals first, by numeric value, then other
/// names in byte order (so `{0, 1, 2, 10, a, b}`).
pub fn field_order(a: &str, b: &str) -> Ordering {
    let key = |s: &str| (!is_numeral(s), if is_numeral(s) { s.len() } else { 0 });
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

/// `0` or a decimal numeral without leading zeros.
pub fn is_numeral(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}

/// `[A-Za-z_][A-Za-z0-9_']*`.
pub fn is_identifier(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'\'')
}

/// A record field name: a numeral or an identifier.
pub fn is_field_name(s: &str) -> bool {
    is_numeral(s) || is_identifier(s)
}

/// Checks field names (valid, no duplicates) and returns them sorted.
fn check_fields(mut names: Vec<&str>) -> Result<Vec<String>, InvalidValue> {
    if let Some(bad) = names.iter().find(|n| !is_field_name(n)) {
        return Err(InvalidValue::new(format!(
            "`{bad}` is not a field name (an identifier or a numeral)"
        )));
    }
    names.sort_by(|a, b| field_order(a, b));
    for pair in names.windows(2) {
        if pair[0] == pair[1] {
            return Err(InvalidValue::new(format!("duplicate field `{}`", pair[0])));
        }
    }
    Ok(names.into_iter().map(String::from).collect())
}

/// Sorted names that make a tuple: none, or `0`..`n-1` with `n ≥ 2`.
fn is_tuple_fields(sorted: &[String]) -> bool {
    sorted.is_empty()
        || (sorted.len() >= 2 && sorted.iter().enumerate().all(|(i, n)| *n == i.to_string()))
}

#[cfg(test)]
mod tests;
