//! Static values (TFP'18 §3, Fig. 5's `sv`): what the defunctionaliser knows
//! at compile time about the value an expression computes.
//!
//! * [`StaticVal::Dyn`]: a first-order value known only at run time; its
//!   representation is the value itself.
//! * [`StaticVal::Lam`]: a function whose code is known statically — a lambda,
//!   a local or top-level function, possibly partially applied — together
//!   with the static values of the variables it captures and of the
//!   arguments applied so far. Its run-time representation is the *closure
//!   record*: a tuple of the representations of the captured variables, then
//!   of the applied arguments.
//! * [`StaticVal::Rcd`]: a record (tuples included) some field of which holds
//!   a function; its representation is the record of the fields'
//!   representations.
//!
//! TFP'18's `Arr` is not needed: arrays never hold functions (`orderZero`),
//! so an array is always [`StaticVal::Dyn`]. Sum types holding functions are
//! likewise rejected by the type checker.

use std::collections::BTreeMap;
use std::rc::Rc;

use spec::source::Span;

use crate::core::{Expr, FieldName, Pat, Type, VarName};

/// The code of a function: a lambda, a `let`-bound or a top-level function.
/// `id` identifies it (the address of its body in the input program, which
/// outlives the translation); the lifted instances are memoised by it.
#[derive(Clone, Copy, Debug)]
pub struct LambdaSource<'p> {
    pub id: usize,
    /// The source name (`lambda` for anonymous functions), for printing.
    pub name: &'p str,
    pub size_params: &'p [VarName],
    pub params: &'p [Pat],
    /// The declared result type of a named function.
    pub result: Option<&'p Type>,
    pub body: &'p Expr,
    pub span: Span,
}

/// A function value known statically: its code, the static values of the
/// variables it captures (by their names in the input program) and of the
/// arguments applied to it so far (the first `applied.len()` parameters).
#[derive(Clone, Debug)]
pub struct Closure<'p> {
    pub source: LambdaSource<'p>,
    pub captured: Vec<(VarName, StaticVal<'p>)>,
    pub applied: Vec<StaticVal<'p>>,
}

impl Closure<'_> {
    /// How many parameters are still to be applied.
    pub fn remaining(&self) -> usize {
        self.source.params.len() - self.applied.len()
    }
}

/// A static value.
#[derive(Clone, Debug)]
pub enum StaticVal<'p> {
    /// A first-order value of the given (output-program) type.
    Dyn(Type),
    Lam(Rc<Closure<'p>>),
    /// A record with at least one field holding a function.
    Rcd(BTreeMap<FieldName, StaticVal<'p>>),
    /// TFP'18 §7: one of several static values (of different shapes), known
    /// only at run time — the result of an `if` whose branches return
    /// different functions (the `or-conditionals` option). Represented by a
    /// sum type whose constructor `or<i>` carries the `i`th alternative's
    /// representation.
    Or(Vec<StaticVal<'p>>),
}

/// A static value with its types' sizes forgotten: what distinguishes two
/// lifted instances of one function (sizes are run-time values and never
/// justify a second instance).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Dyn(Type),
    Lam {
        id: usize,
        captured: Vec<Shape>,
        applied: Vec<Shape>,
    },
    Rcd(Vec<(FieldName, Shape)>),
    Or(Vec<Shape>),
}

/// The constructor of an `Or` value's representation for alternative `index`.
pub fn or_constructor(index: usize) -> String {
    format!("or{index}")
}

impl<'p> StaticVal<'p> {
    /// A record's static value: [`StaticVal::Dyn`] when no field holds a
    /// function, so that a first-order record has one static value.
    pub fn record(fields: BTreeMap<FieldName, StaticVal<'p>>) -> StaticVal<'p> {
        if fields.values().all(|sv| matches!(sv, StaticVal::Dyn(_))) {
            StaticVal::Dyn(Type::Record(Rc::new(
                fields
                    .into_iter()
                    .map(|(field, sv)| (field, sv.representation_type()))
                    .collect(),
            )))
        } else {
            StaticVal::Rcd(fields)
        }
    }

    pub fn is_dynamic(&self) -> bool {
        matches!(self, StaticVal::Dyn(_))
    }

    /// The type of the run-time representation (TFP'18's `⟦sv⟧tp`).
    pub fn representation_type(&self) -> Type {
        match self {
            StaticVal::Dyn(ty) => ty.clone(),
            StaticVal::Lam(closure) => Type::tuple(
                closure
                    .captured
                    .iter()
                    .map(|(_, sv)| sv)
                    .chain(&closure.applied)
                    .map(StaticVal::representation_type)
                    .collect(),
            ),
            StaticVal::Rcd(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(field, sv)| (field.clone(), sv.representation_type()))
                    .collect(),
            )),
            StaticVal::Or(alternatives) => Type::Sum(Rc::new(
                alternatives
                    .iter()
                    .enumerate()
                    .map(|(index, sv)| (or_constructor(index), vec![sv.representation_type()]))
                    .collect(),
            )),
        }
    }

    /// The static value of field `field` of a record value.
    pub fn field(&self, field: &FieldName) -> Option<StaticVal<'p>> {
        match self {
            StaticVal::Rcd(fields) => fields.get(field).cloned(),
            StaticVal::Dyn(Type::Record(fields)) => {
                fields.get(field).map(|ty| StaticVal::Dyn(ty.clone()))
            }
            _ => None,
        }
    }

    /// The same static value with every size forgotten.
    pub fn without_sizes(&self) -> StaticVal<'p> {
        self.map_types(&Type::without_sizes)
    }

    /// The same static value with `f` applied to the type of every dynamic
    /// value in it (closures' captured and applied values included).
    pub fn map_types(&self, f: &dyn Fn(&Type) -> Type) -> StaticVal<'p> {
        match self {
            StaticVal::Dyn(ty) => StaticVal::Dyn(f(ty)),
            StaticVal::Lam(closure) => StaticVal::Lam(Rc::new(Closure {
                source: closure.source,
                captured: closure
                    .captured
                    .iter()
                    .map(|(name, sv)| (name.clone(), sv.map_types(f)))
                    .collect(),
                applied: closure.applied.iter().map(|sv| sv.map_types(f)).collect(),
            })),
            StaticVal::Rcd(fields) => StaticVal::Rcd(
                fields
                    .iter()
                    .map(|(field, sv)| (field.clone(), sv.map_types(f)))
                    .collect(),
            ),
            StaticVal::Or(alternatives) => {
                StaticVal::Or(alternatives.iter().map(|sv| sv.map_types(f)).collect())
            }
        }
    }

    /// The memoisation key of the static value.
    pub fn shape(&self) -> Shape {
        match self {
            StaticVal::Dyn(ty) => Shape::Dyn(ty.without_sizes()),
            StaticVal::Lam(closure) => Shape::Lam {
                id: closure.source.id,
                captured: closure.captured.iter().map(|(_, sv)| sv.shape()).collect(),
                applied: closure.applied.iter().map(StaticVal::shape).collect(),
            },
            StaticVal::Rcd(fields) => Shape::Rcd(
                fields
                    .iter()
                    .map(|(field, sv)| (field.clone(), sv.shape()))
                    .collect(),
            ),
            StaticVal::Or(alternatives) => {
                Shape::Or(alternatives.iter().map(StaticVal::shape).collect())
            }
        }
    }
}
