//! TFP'18 §2.3: evaluation environments Σ and values v, and the conversion
//! between core values and the observable values of `spec::value`.
//!
//! ```text
//! Σ ::= · | Σ, x ↦ v
//! v ::= n | true | false | clos(λx:τ. e0, Σ) | {(ℓi = vi)} | [(vi)]
//! ```
//!
//! extended with every primitive value and sum values `#c v…`. Arrays are
//! lists of rows that also know the [`Shape`] of a row, so an empty array of
//! arrays keeps its inner dimensions (`replicate 0 [1, 2, 3]` is `[0][3]`):
//! Fig. 3's lists cannot say it, but a well-typed program's empty array has
//! a static row shape (see `proofs-notes/SPEC_NOTES.md`, TFP18-6).

use super::syntax::{Lambda, Name, PrimType, PrimValue, Type};
use spec::value as obs;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Σ: an evaluation environment (a persistent map; `Σ, x ↦ v` is `update`).
pub type ValueEnv = imbl::OrdMap<Name, Value>;

/// clos(λx:τ. e0, Σ).
#[derive(Clone, Debug, PartialEq)]
pub struct Closure {
    pub lambda: Rc<Lambda>,
    pub env: ValueEnv,
}

/// v: a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Prim(PrimValue),
    Closure(Rc<Closure>),
    /// Fields shared: Σ's persistent updates clone values.
    Record(Rc<BTreeMap<Name, Value>>),
    Array(Rc<ArrayValue>),
    /// Extension: a sum value.
    Sum(Name, Vec<Value>),
}

/// The shape of a value: its array dimensions, down to the primitive types
/// and constructors of its leaves. An empty array remembers the shape of the
/// rows it would have (SPEC_NOTES TFP18-6).
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Prim(PrimType),
    /// `[n]` rows of the shape.
    Array(usize, Rc<Shape>),
    Record(BTreeMap<Name, Shape>),
    /// A sum value's constructor and the shapes of its payload.
    Sum(Name, Vec<Shape>),
    /// Not known: a function, or the rows of an empty array whose element
    /// type is not known where it is built.
    Unknown,
}

/// `[(vi)]`: the rows, and the shape of a row (used when there are none;
/// a non-empty array's row shape is its first row's).
#[derive(Clone, Debug)]
pub struct ArrayValue {
    rows: Vec<Value>,
    empty_row_shape: Shape,
}

impl ArrayValue {
    /// An array of `rows`; `row_shape` is the shape of its rows should there
    /// be none.
    pub fn new(rows: Vec<Value>, row_shape: Shape) -> ArrayValue {
        ArrayValue {
            rows,
            empty_row_shape: row_shape,
        }
    }
    pub fn rows(&self) -> &[Value] {
        &self.rows
    }
    /// The shape of a row (of every row, in a well-typed program).
    pub fn row_shape(&self) -> Shape {
        match self.rows.first() {
            Some(first) => shape_of(first),
            None => self.empty_row_shape.clone(),
        }
    }
}

impl std::ops::Deref for ArrayValue {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        &self.rows
    }
}

impl PartialEq for ArrayValue {
    fn eq(&self, other: &ArrayValue) -> bool {
        self.rows == other.rows && (!self.rows.is_empty() || self.row_shape() == other.row_shape())
    }
}

/// The shape of a value.
pub fn shape_of(v: &Value) -> Shape {
    match v {
        Value::Prim(p) => Shape::Prim(p.prim_type()),
        Value::Array(a) => Shape::Array(a.len(), Rc::new(a.row_shape())),
        Value::Record(fields) => Shape::Record(
            fields
                .iter()
                .map(|(l, v)| (l.clone(), shape_of(v)))
                .collect(),
        ),
        Value::Sum(c, payload) => Shape::Sum(c.clone(), payload.iter().map(shape_of).collect()),
        Value::Closure(_) => Shape::Unknown,
    }
}

/// The shape of an empty array's rows known from its element type alone:
/// inner arrays are empty, a sum takes its first constructor.
pub fn empty_shape_of_type(ty: &Type) -> Shape {
    match ty {
        Type::Prim(t) => Shape::Prim(*t),
        Type::Array(elem) => Shape::Array(0, Rc::new(empty_shape_of_type(elem))),
        Type::Record(fields) => Shape::Record(
            fields
                .iter()
                .map(|(l, t)| (l.clone(), empty_shape_of_type(t)))
                .collect(),
        ),
        Type::Sum(cs) => match cs.iter().next() {
            Some((c, ts)) => Shape::Sum(c.clone(), ts.iter().map(empty_shape_of_type).collect()),
            None => Shape::Unknown,
        },
        _ => Shape::Unknown,
    }
}

/// A value of shape `shape` (zeros and `false` at the leaves), if the shape
/// is known.
pub fn blank(shape: &Shape) -> Option<Value> {
    Some(match shape {
        Shape::Prim(t) => Value::Prim(super::primitive::from_i64(0, *t)),
        Shape::Array(n, row) => {
            let one = blank(row)?;
            Value::array(vec![one; *n], (**row).clone())
        }
        Shape::Record(fields) => Value::record(
            fields
                .iter()
                .map(|(l, s)| Some((l.clone(), blank(s)?)))
                .collect::<Option<_>>()?,
        ),
        Shape::Sum(c, payload) => {
            Value::Sum(c.clone(), payload.iter().map(blank).collect::<Option<_>>()?)
        }
        Shape::Unknown => return None,
    })
}

impl Value {
    pub fn bool(b: bool) -> Value {
        Value::Prim(PrimValue::Bool(b))
    }
    pub fn i64(n: i64) -> Value {
        Value::Prim(PrimValue::I64(n))
    }
    pub fn record(fields: BTreeMap<Name, Value>) -> Value {
        Value::Record(Rc::new(fields))
    }
    /// An array of `rows`; `row_shape` is the shape of its rows should
    /// there be none.
    pub fn array(rows: Vec<Value>, row_shape: Shape) -> Value {
        Value::Array(Rc::new(ArrayValue::new(rows, row_shape)))
    }
    pub fn tuple(elems: Vec<Value>) -> Value {
        Value::record(
            elems
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
        )
    }
    pub fn as_prim(&self) -> Option<PrimValue> {
        match self {
            Value::Prim(p) => Some(*p),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Rc<ArrayValue>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// The observable value of `v` at type `ty` (order zero). Fails on closures
/// and on values that do not fit the type.
pub fn to_observable(v: &Value, ty: &Type) -> Result<obs::Value, String> {
    spec::recursion::with_stack(|| match (v, ty) {
        (Value::Prim(p), Type::Prim(t)) if p.prim_type() == *t => Ok(obs::Value::Prim(*p)),
        (Value::Record(fields), Type::Record(types)) => {
            let mut out = Vec::new();
            for (label, t) in types {
                let fv = fields
                    .get(label)
                    .ok_or_else(|| format!("missing field {label}"))?;
                out.push((label.clone(), to_observable(fv, t)?));
            }
            obs::Value::record(out).map_err(|e| e.message)
        }
        (Value::Array(rows), Type::Array(elem)) => {
            if rows.is_empty() {
                let elem_type = observable_type_of_shape(elem, &rows.row_shape())?;
                return obs::Array::empty(vec![0], elem_type)
                    .map(obs::Value::Array)
                    .map_err(|e| e.message);
            }
            let rows = rows
                .iter()
                .map(|r| to_observable(r, elem))
                .collect::<Result<Vec<_>, _>>()?;
            obs::Array::from_rows(rows)
                .map(obs::Value::Array)
                .map_err(|e| e.message)
        }
        (Value::Sum(c, payload), Type::Sum(cs)) => {
            let types = cs
                .get(c)
                .ok_or_else(|| format!("constructor #{c} not in the type"))?;
            let payload = payload
                .iter()
                .zip(types)
                .map(|(v, t)| to_observable(v, t))
                .collect::<Result<Vec<_>, _>>()?;
            obs::Value::sum(c.clone(), payload).map_err(|e| e.message)
        }
        (Value::Closure(_), _) => Err("a function value is not observable".into()),
        (v, t) => Err(format!("the value {v:?} is not of type {t:?}")),
    })
}

/// The observable type of the values of `ty` of shape `shape`: the
/// dimensions the shape knows, 0 for the others.
fn observable_type_of_shape(ty: &Type, shape: &Shape) -> Result<obs::ValueType, String> {
    match (ty, shape) {
        (Type::Array(elem), Shape::Array(n, row)) => Ok(obs::ValueType::array(
            vec![*n],
            observable_type_of_shape(elem, row)?,
        )),
        (Type::Record(fields), Shape::Record(shapes)) => obs::ValueType::record(
            fields
                .iter()
                .map(|(l, t)| {
                    let s = shapes.get(l).unwrap_or(&Shape::Unknown);
                    Ok((l.clone(), observable_type_of_shape(t, s)?))
                })
                .collect::<Result<Vec<_>, String>>()?,
        )
        .map_err(|e| e.message),
        _ => observable_type(ty),
    }
}

/// The shape of the values of an observable type (a sum's first
/// constructor).
fn shape_of_observable_type(ty: &obs::ValueType) -> Shape {
    use obs::ValueType as T;
    match ty {
        T::Prim(t) => Shape::Prim(*t),
        T::Array { shape, elem } => shape
            .iter()
            .rev()
            .fold(shape_of_observable_type(elem), |row, n| {
                Shape::Array(*n, Rc::new(row))
            }),
        T::Tuple(elems) => Shape::Record(
            elems
                .iter()
                .enumerate()
                .map(|(i, t)| (i.to_string(), shape_of_observable_type(t)))
                .collect(),
        ),
        T::Record(fields) => Shape::Record(
            fields
                .iter()
                .map(|(l, t)| (l.clone(), shape_of_observable_type(t)))
                .collect(),
        ),
        T::Sum(cs) => match cs.first() {
            Some((c, ts)) => {
                Shape::Sum(c.clone(), ts.iter().map(shape_of_observable_type).collect())
            }
            None => Shape::Unknown,
        },
    }
}

/// The observable type of an order-zero type; unknown inner dimensions of
/// array types are 0.
pub fn observable_type(ty: &Type) -> Result<obs::ValueType, String> {
    match ty {
        Type::Prim(t) => Ok(obs::ValueType::Prim(*t)),
        Type::Array(elem) => Ok(obs::ValueType::array(vec![0], observable_type(elem)?)),
        Type::Record(fields) => obs::ValueType::record(
            fields
                .iter()
                .map(|(l, t)| Ok((l.clone(), observable_type(t)?)))
                .collect::<Result<Vec<_>, String>>()?,
        )
        .map_err(|e| e.message),
        Type::Sum(cs) => obs::ValueType::sum(
            cs.iter()
                .map(|(c, ts)| {
                    Ok((
                        c.clone(),
                        ts.iter()
                            .map(observable_type)
                            .collect::<Result<_, String>>()?,
                    ))
                })
                .collect::<Result<Vec<_>, String>>()?,
        )
        .map_err(|e| e.message),
        other => Err(format!("the type {other:?} has no observable values")),
    }
}

/// The core value of an observable value, checked against `ty`.
pub fn from_observable(v: &obs::Value, ty: &Type) -> Result<Value, String> {
    spec::recursion::with_stack(|| match (v, ty) {
        (obs::Value::Prim(p), Type::Prim(t)) if p.prim_type() == *t => Ok(Value::Prim(*p)),
        (obs::Value::Array(a), Type::Array(elem)) => {
            let rows = a
                .rows()
                .map(|r| from_observable(&r, elem))
                .collect::<Result<Vec<_>, _>>()?;
            let mut row_type = a.elem_type();
            if a.rank() > 1 {
                row_type = obs::ValueType::array(a.shape()[1..].to_vec(), row_type);
            }
            if rows.is_empty() {
                // The element type must still agree.
                let expected = observable_type(elem)?;
                if !same_type_ignoring_shape(&row_type, &expected) {
                    return Err(format!(
                        "expected an array of {}, got an empty array of {row_type}",
                        type_name(elem)
                    ));
                }
            }
            Ok(Value::array(rows, shape_of_observable_type(&row_type)))
        }
        (obs::Value::Tuple(vs), Type::Record(fields))
            if Type::tuple_arity(fields) == Some(vs.len()) =>
        {
            let mut out = BTreeMap::new();
            for (i, v) in vs.iter().enumerate() {
                out.insert(i.to_string(), from_observable(v, &fields[&i.to_string()])?);
            }
            Ok(Value::record(out))
        }
        (obs::Value::Record(r), Type::Record(fields)) if r.fields().len() == fields.len() => {
            let mut out = BTreeMap::new();
            for (label, t) in fields {
                let fv = r
                    .get(label)
                    .ok_or_else(|| format!("expected a record with field {label}"))?;
                out.insert(label.clone(), from_observable(fv, t)?);
            }
            Ok(Value::record(out))
        }
        (obs::Value::Sum(s), Type::Sum(cs)) => {
            let types = cs.get(s.constructor()).ok_or_else(|| {
                format!(
                    "constructor #{} is not of type {}",
                    s.constructor(),
                    type_name(ty)
                )
            })?;
            if types.len() != s.payload().len() {
                return Err(format!("wrong payload for #{}", s.constructor()));
            }
            let payload = s
                .payload()
                .iter()
                .zip(types)
                .map(|(v, t)| from_observable(v, t))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Sum(s.constructor().to_string(), payload))
        }
        (v, t) => Err(format!(
            "expected a value of type {}, got {} of type {}",
            type_name(t),
            v,
            v.value_type()
        )),
    })
}

fn same_type_ignoring_shape(a: &obs::ValueType, b: &obs::ValueType) -> bool {
    use obs::ValueType as T;
    match (a, b) {
        (T::Prim(x), T::Prim(y)) => x == y,
        (
            T::Array {
                shape: s1,
                elem: e1,
            },
            T::Array {
                shape: s2,
                elem: e2,
            },
        ) => s1.len() == s2.len() && same_type_ignoring_shape(e1, e2),
        (T::Tuple(xs), T::Tuple(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|(x, y)| same_type_ignoring_shape(x, y))
        }
        (T::Record(xs), T::Record(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys)
                    .all(|((n, x), (m, y))| n == m && same_type_ignoring_shape(x, y))
        }
        (T::Sum(_), T::Sum(_)) => true,
        _ => false,
    }
}

/// A type written as Futhark writes it (`[]i32`, `(i32, bool)`, `{a: f32}`).
pub fn type_name(ty: &Type) -> String {
    match ty {
        Type::Prim(t) => t.name().to_string(),
        Type::Arrow(a, b) => {
            let left = match **a {
                Type::Arrow(..) => format!("({})", type_name(a)),
                _ => type_name(a),
            };
            format!("{left} -> {}", type_name(b))
        }
        Type::Record(fields) => match Type::tuple_arity(fields) {
            Some(n) => format!(
                "({})",
                (0..n)
                    .map(|i| type_name(&fields[&i.to_string()]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!(
                "{{{}}}",
                fields
                    .iter()
                    .map(|(l, t)| format!("{l}: {}", type_name(t)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
        Type::Array(elem) => format!("[]{}", type_name(elem)),
        Type::Sum(cs) => cs
            .iter()
            .map(|(c, ts)| {
                let mut s = format!("#{c}");
                for t in ts {
                    s.push(' ');
                    s.push_str(&type_name(t));
                }
                s
            })
            .collect::<Vec<_>>()
            .join(" | "),
        Type::Param(name, _) => name.clone(),
        Type::Meta(n) => format!("?{n}"),
    }
}

/// Whether `t` is an integer type.
pub fn is_int(t: PrimType) -> bool {
    t.is_integer()
}
