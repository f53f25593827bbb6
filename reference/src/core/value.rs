//! TFP'18 §2.3: evaluation environments Σ and values v, and the conversion
//! between core values and the observable values of `spec::value`.
//!
//! ```text
//! Σ ::= · | Σ, x ↦ v
//! v ::= n | true | false | clos(λx:τ. e0, Σ) | {(ℓi = vi)} | [(vi)]
//! ```
//!
//! extended with every primitive value and sum values `#c v…`. Arrays are
//! lists of rows; an empty array does not remember the shape of its rows, so
//! an empty array of arrays converts to an observable value whose inner
//! dimensions are 0 (see `proofs-notes/SPEC_NOTES.md`, TFP18-6).

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
    Array(Rc<Vec<Value>>),
    /// Extension: a sum value.
    Sum(Name, Vec<Value>),
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
    pub fn array(rows: Vec<Value>) -> Value {
        Value::Array(Rc::new(rows))
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
    pub fn as_array(&self) -> Option<&Rc<Vec<Value>>> {
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
                let elem_type = observable_type(elem)?;
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
            if rows.is_empty() {
                // The element type must still agree.
                let expected = observable_type(elem)?;
                let mut actual = a.elem_type();
                if a.rank() > 1 {
                    actual = obs::ValueType::array(a.shape()[1..].to_vec(), actual);
                }
                if !same_type_ignoring_shape(&actual, &expected) {
                    return Err(format!(
                        "expected an array of {}, got an empty array of {actual}",
                        type_name(elem)
                    ));
                }
            }
            Ok(Value::array(rows))
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
