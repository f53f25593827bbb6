//! The types of entry points as Futhark's tools see them: "basic Futhark type
//! syntax *without* sizes" (`docs/server-protocol.rst`, "Types"): `i32`,
//! `[][]f32`, `(i32, bool)`, `{a: i32, b: []f64}`, `#none | #some i32`.
//!
//! Each backend derives an entry point's [`EntrySignature`] from its own
//! typed form (the reference's core types, the optimising compiler's IR
//! layouts); the server protocol (`crate::server`) prints these types, parses
//! them back, and checks values against them.
//!
//! Primitives and arrays of primitives are *transparent* (a client reads and
//! writes them in the binary data format); every other type is *opaque*, as
//! in Futhark's C API.

use spec::value::{PrimType, Value, ValueType};
use std::fmt;

/// A value type without array sizes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EntryType {
    Prim(PrimType),
    /// `rank` ≥ 1 dimensions of `element`, never itself an array.
    Array {
        rank: usize,
        element: Box<EntryType>,
    },
    /// Two or more components, or none (`()`).
    Tuple(Vec<EntryType>),
    /// Fields in [`spec::value::field_order`], never tuple-shaped.
    Record(Vec<(String, EntryType)>),
    /// Constructors sorted by name, each with its payload.
    Sum(Vec<(String, Vec<EntryType>)>),
}

/// The kinds the server protocol's `kind` command names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Primitive,
    Array,
    Record,
    Sum,
    Opaque,
}

impl TypeKind {
    pub fn name(self) -> &'static str {
        match self {
            TypeKind::Primitive => "primitive",
            TypeKind::Array => "array",
            TypeKind::Record => "record",
            TypeKind::Sum => "sum",
            TypeKind::Opaque => "opaque",
        }
    }
}

/// An entry point's parameters and results: a returned tuple is several
/// results, as the server protocol's `call` stores them (and as
/// [`crate::LoadedProgram::run`] returns them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrySignature {
    pub inputs: Vec<EntryType>,
    pub outputs: Vec<EntryType>,
}

impl EntrySignature {
    /// The signature of an entry point returning one value of type `result`
    /// (a non-empty tuple is split into its components).
    pub fn new(inputs: Vec<EntryType>, result: EntryType) -> EntrySignature {
        let outputs = match result {
            EntryType::Tuple(components) if !components.is_empty() => components,
            other => vec![other],
        };
        EntrySignature { inputs, outputs }
    }
}

impl EntryType {
    /// `[]…[]element` with `rank` dimensions (an array `element`'s merged in).
    pub fn array(rank: usize, element: EntryType) -> EntryType {
        match element {
            _ if rank == 0 => element,
            EntryType::Array {
                rank: inner,
                element,
            } => EntryType::Array {
                rank: rank + inner,
                element,
            },
            element => EntryType::Array {
                rank,
                element: Box::new(element),
            },
        }
    }

    /// The type of a value, its sizes forgotten (a sum value's type lists
    /// only its own constructor).
    pub fn of_value_type(value_type: &ValueType) -> EntryType {
        match value_type {
            ValueType::Prim(p) => EntryType::Prim(*p),
            ValueType::Array { shape, elem } => {
                EntryType::array(shape.len(), EntryType::of_value_type(elem))
            }
            ValueType::Tuple(components) => {
                EntryType::Tuple(components.iter().map(EntryType::of_value_type).collect())
            }
            ValueType::Record(fields) => EntryType::Record(
                fields
                    .iter()
                    .map(|(name, t)| (name.clone(), EntryType::of_value_type(t)))
                    .collect(),
            ),
            ValueType::Sum(constructors) => EntryType::Sum(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        (
                            name.clone(),
                            payload.iter().map(EntryType::of_value_type).collect(),
                        )
                    })
                    .collect(),
            ),
        }
    }

    /// Whether `value` is a value of this type (sizes are not checked: an
    /// entry point checks its own size constraints).
    pub fn admits(&self, value: &Value) -> bool {
        self.admits_type(&EntryType::of_value_type(&value.value_type()))
    }

    /// Whether values of `other` are values of this type: equal types, except
    /// that `other`'s sums may name fewer constructors.
    fn admits_type(&self, other: &EntryType) -> bool {
        let all = |a: &[EntryType], b: &[EntryType]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.admits_type(y))
        };
        match (self, other) {
            (EntryType::Prim(a), EntryType::Prim(b)) => a == b,
            (
                EntryType::Array { rank, element },
                EntryType::Array {
                    rank: rank2,
                    element: element2,
                },
            ) => rank == rank2 && element.admits_type(element2),
            (EntryType::Tuple(a), EntryType::Tuple(b)) => all(a, b),
            (EntryType::Record(a), EntryType::Record(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((n, x), (m, y))| n == m && x.admits_type(y))
            }
            (EntryType::Sum(a), EntryType::Sum(b)) => b.iter().all(|(name, payload)| {
                a.iter()
                    .any(|(name2, payload2)| name == name2 && all(payload2, payload))
            }),
            _ => false,
        }
    }

    /// Primitives and arrays of primitives: the types a client reads and
    /// writes in the binary data format.
    pub fn is_transparent(&self) -> bool {
        match self {
            EntryType::Prim(_) => true,
            EntryType::Array { element, .. } => matches!(**element, EntryType::Prim(_)),
            _ => false,
        }
    }

    /// The server protocol's kind: transparent types are `primitive` or
    /// `array`; records and tuples `record`; sums `sum`; arrays of
    /// non-primitives `opaque`.
    pub fn kind(&self) -> TypeKind {
        match self {
            EntryType::Prim(_) => TypeKind::Primitive,
            EntryType::Array { .. } if self.is_transparent() => TypeKind::Array,
            EntryType::Array { .. } => TypeKind::Opaque,
            EntryType::Tuple(components) if components.is_empty() => TypeKind::Opaque,
            EntryType::Tuple(_) | EntryType::Record(_) => TypeKind::Record,
            EntryType::Sum(_) => TypeKind::Sum,
        }
    }

    /// The fields of a record or tuple type (a tuple's are `0`, `1`, …), in
    /// the order the protocol's `new` and `zip` take them.
    pub fn fields(&self) -> Option<Vec<(String, EntryType)>> {
        match self {
            EntryType::Tuple(components) if !components.is_empty() => Some(
                components
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (i.to_string(), t.clone()))
                    .collect(),
            ),
            EntryType::Record(fields) => Some(fields.clone()),
            _ => None,
        }
    }

    /// This type and every type inside it, outermost first (an array's
    /// element type included).
    pub fn with_components(&self) -> Vec<EntryType> {
        let mut all = vec![self.clone()];
        match self {
            EntryType::Prim(_) => {}
            EntryType::Array { element, .. } => all.extend(element.with_components()),
            EntryType::Tuple(components) => {
                all.extend(components.iter().flat_map(EntryType::with_components))
            }
            EntryType::Record(fields) => {
                all.extend(fields.iter().flat_map(|(_, t)| t.with_components()))
            }
            EntryType::Sum(constructors) => all.extend(
                constructors
                    .iter()
                    .flat_map(|(_, payload)| payload.iter().flat_map(EntryType::with_components)),
            ),
        }
        all
    }

    /// The transparent type written `text` (`i32`, `[][]f64`), if it is one.
    pub fn parse_transparent(text: &str) -> Option<EntryType> {
        let mut rest = text;
        let mut rank = 0;
        while let Some(after) = rest.strip_prefix("[]") {
            rest = after;
            rank += 1;
        }
        let prim = PrimType::ALL.iter().find(|p| p.name() == rest)?;
        Some(EntryType::array(rank, EntryType::Prim(*prim)))
    }
}

impl fmt::Display for EntryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, items: &[EntryType], separator: &str| {
            for (i, t) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(separator)?;
                }
                write!(f, "{}", Parenthesised(t))?;
            }
            Ok(())
        };
        match self {
            EntryType::Prim(p) => f.write_str(p.name()),
            EntryType::Array { rank, element } => {
                write!(f, "{}{}", "[]".repeat(*rank), Parenthesised(element))
            }
            EntryType::Tuple(components) => {
                f.write_str("(")?;
                for (i, t) in components.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
            EntryType::Record(fields) => {
                f.write_str("{")?;
                for (i, (name, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: {t}")?;
                }
                f.write_str("}")
            }
            EntryType::Sum(constructors) => {
                for (i, (name, payload)) in constructors.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    write!(f, "#{name}")?;
                    if !payload.is_empty() {
                        f.write_str(" ")?;
                        list(f, payload, " ")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// A type in a position that binds tighter than `|` and juxtaposition (an
/// array's element, a constructor's payload): a sum type is parenthesised.
struct Parenthesised<'a>(&'a EntryType);

impl fmt::Display for Parenthesised<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            EntryType::Sum(_) => write!(f, "({})", self.0),
            other => write!(f, "{other}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_print_in_futhark_syntax_without_sizes() {
        let i32_ = EntryType::Prim(PrimType::I32);
        let cases = [
            (EntryType::array(2, i32_.clone()), "[][]i32"),
            (
                EntryType::Tuple(vec![i32_.clone(), EntryType::Prim(PrimType::Bool)]),
                "(i32, bool)",
            ),
            (
                EntryType::Record(vec![
                    ("a".into(), i32_.clone()),
                    (
                        "b".into(),
                        EntryType::array(1, EntryType::Prim(PrimType::F64)),
                    ),
                ]),
                "{a: i32, b: []f64}",
            ),
            (
                EntryType::Sum(vec![
                    ("none".into(), vec![]),
                    ("some".into(), vec![i32_.clone(), i32_.clone()]),
                ]),
                "#none | #some i32 i32",
            ),
            (
                EntryType::array(1, EntryType::Sum(vec![("a".into(), vec![])])),
                "[](#a)",
            ),
        ];
        for (t, text) in cases {
            assert_eq!(t.to_string(), text);
        }
    }

    #[test]
    fn transparent_types_parse_back() {
        for text in ["i32", "[]f32", "[][][]u8", "bool"] {
            let parsed = EntryType::parse_transparent(text).expect(text);
            assert!(parsed.is_transparent());
            assert_eq!(parsed.to_string(), text);
        }
        for text in ["[]", "(i32, i32)", "[]x", "i31"] {
            assert_eq!(EntryType::parse_transparent(text), None, "{text}");
        }
    }

    #[test]
    fn a_sum_type_admits_values_of_each_constructor_only() {
        let option = EntryType::Sum(vec![
            ("none".into(), vec![]),
            ("some".into(), vec![EntryType::Prim(PrimType::I32)]),
        ]);
        assert!(option.admits(&Value::sum("some", vec![Value::from(3i32)]).unwrap()));
        assert!(option.admits(&Value::sum("none", vec![]).unwrap()));
        assert!(!option.admits(&Value::sum("some", vec![Value::from(3i64)]).unwrap()));
        assert!(!option.admits(&Value::sum("other", vec![]).unwrap()));
        assert!(!option.admits(&Value::from(3i32)));
    }
}
