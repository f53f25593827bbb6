//! The generator's own types: what it knows about every expression it builds.
//!
//! [`Ty`] mirrors the surface types the generator uses, with sizes tracked
//! *conservatively*: a [`Size::Named`] or [`Size::Const`] size is a size every
//! implementation must also know statically; [`Size::Unknown`] is a size the
//! generator does not claim to know (an existential size from `filter`, `++`,
//! slicing, or `[]` in a parameter). A request for an array of unknown size
//! accepts any array; a request for a known size accepts only that size.

use spec::value::PrimType;

/// An array dimension as the generator tracks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    Const(u64),
    /// A size parameter or `let [n]` size, also in scope as an `i64` value.
    Named(String),
    Unknown,
}

/// A type as the generator tracks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Prim(PrimType),
    Array(Size, Box<Ty>),
    /// Zero or at least two elements.
    Tuple(Vec<Ty>),
    Record(Vec<(String, Ty)>),
    /// A sum type, always named by a type abbreviation (`abbreviation`).
    Sum {
        abbreviation: String,
        constructors: Vec<(String, Vec<Ty>)>,
    },
    Arrow(Box<Ty>, Box<Ty>),
    /// A type parameter `'a` (rigid inside its function; a unification
    /// variable in a [`Scheme`]).
    Param(String),
    /// A lifted type parameter `'^a`: may stand for a function type, so it
    /// is never order zero (TFP'18 §2.2).
    LiftedParam(String),
    /// An abstract type `M.t` (or `t` inside a signature description).
    Abstract(Vec<String>),
}

/// A possibly polymorphic, possibly size-polymorphic value type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub size_params: Vec<String>,
    pub type_params: Vec<String>,
    pub ty: Ty,
}

impl Scheme {
    pub fn mono(ty: Ty) -> Scheme {
        Scheme {
            size_params: Vec::new(),
            type_params: Vec::new(),
            ty,
        }
    }

    pub fn is_mono(&self) -> bool {
        self.size_params.is_empty() && self.type_params.is_empty()
    }
}

pub fn i32_ty() -> Ty {
    Ty::Prim(PrimType::I32)
}
pub fn i64_ty() -> Ty {
    Ty::Prim(PrimType::I64)
}
pub fn bool_ty() -> Ty {
    Ty::Prim(PrimType::Bool)
}
pub fn arrow(from: Ty, to: Ty) -> Ty {
    Ty::Arrow(Box::new(from), Box::new(to))
}
pub fn array(size: Size, element: Ty) -> Ty {
    Ty::Array(size, Box::new(element))
}

impl Ty {
    /// TFP'18 `orderZero`: no function types and no (possibly lifted) type
    /// parameters standing for functions. The generator only declares unlifted
    /// type parameters, so parameters are order zero.
    pub fn order_zero(&self) -> bool {
        match self {
            Ty::Prim(_) | Ty::Param(_) | Ty::Abstract(_) => true,
            Ty::LiftedParam(_) => false,
            Ty::Array(_, element) => element.order_zero(),
            Ty::Tuple(elements) => elements.iter().all(Ty::order_zero),
            Ty::Record(fields) => fields.iter().all(|(_, t)| t.order_zero()),
            Ty::Sum { constructors, .. } => constructors
                .iter()
                .all(|(_, payload)| payload.iter().all(Ty::order_zero)),
            Ty::Arrow(..) => false,
        }
    }

    /// Whether a value of the type may hold an array that a top-level
    /// constant holds (a lifted type parameter is left out: `copy` does not
    /// take one).
    pub fn holds_arrays(&self) -> bool {
        match self {
            Ty::Prim(_) | Ty::LiftedParam(_) | Ty::Arrow(..) => false,
            Ty::Array(..) | Ty::Param(_) | Ty::Abstract(_) => true,
            Ty::Tuple(elements) => elements.iter().any(Ty::holds_arrays),
            Ty::Record(fields) => fields.iter().any(|(_, t)| t.holds_arrays()),
            Ty::Sum { constructors, .. } => constructors
                .iter()
                .any(|(_, payload)| payload.iter().any(Ty::holds_arrays)),
        }
    }

    /// Whether some array size in the type is [`Size::Unknown`].
    pub fn has_unknown_size(&self) -> bool {
        match self {
            Ty::Prim(_) | Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => false,
            Ty::Array(size, element) => *size == Size::Unknown || element.has_unknown_size(),
            Ty::Tuple(elements) => elements.iter().any(Ty::has_unknown_size),
            Ty::Record(fields) => fields.iter().any(|(_, t)| t.has_unknown_size()),
            Ty::Sum { constructors, .. } => constructors
                .iter()
                .any(|(_, payload)| payload.iter().any(Ty::has_unknown_size)),
            Ty::Arrow(from, to) => from.has_unknown_size() || to.has_unknown_size(),
        }
    }

    /// Whether the type mentions a type parameter or an abstract type.
    pub fn has_opaque_part(&self) -> bool {
        match self {
            Ty::Prim(_) => false,
            Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => true,
            Ty::Array(_, element) => element.has_opaque_part(),
            Ty::Tuple(elements) => elements.iter().any(Ty::has_opaque_part),
            Ty::Record(fields) => fields.iter().any(|(_, t)| t.has_opaque_part()),
            Ty::Sum { constructors, .. } => constructors
                .iter()
                .any(|(_, payload)| payload.iter().any(Ty::has_opaque_part)),
            Ty::Arrow(from, to) => from.has_opaque_part() || to.has_opaque_part(),
        }
    }

    /// Whether the type mentions the size name `name`.
    pub fn mentions_size(&self, name: &str) -> bool {
        match self {
            Ty::Prim(_) | Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => false,
            Ty::Array(size, element) => {
                matches!(size, Size::Named(n) if n == name) || element.mentions_size(name)
            }
            Ty::Tuple(elements) => elements.iter().any(|t| t.mentions_size(name)),
            Ty::Record(fields) => fields.iter().any(|(_, t)| t.mentions_size(name)),
            Ty::Sum { constructors, .. } => constructors
                .iter()
                .any(|(_, payload)| payload.iter().any(|t| t.mentions_size(name))),
            Ty::Arrow(from, to) => from.mentions_size(name) || to.mentions_size(name),
        }
    }

    /// The parameters and the final result of a curried function type.
    pub fn uncurry(&self) -> (Vec<&Ty>, &Ty) {
        let mut params = Vec::new();
        let mut current = self;
        while let Ty::Arrow(from, to) = current {
            params.push(from.as_ref());
            current = to;
        }
        (params, current)
    }

    /// Replaces every [`Size::Unknown`] by a constant (for building literals,
    /// whose rows must all have one size).
    pub fn concretise(&self, constant: u64) -> Ty {
        self.map_sizes(&|size| match size {
            Size::Unknown => Size::Const(constant),
            other => other.clone(),
        })
    }

    pub fn map_sizes(&self, f: &dyn Fn(&Size) -> Size) -> Ty {
        match self {
            Ty::Prim(_) | Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => self.clone(),
            Ty::Array(size, element) => Ty::Array(f(size), Box::new(element.map_sizes(f))),
            Ty::Tuple(elements) => Ty::Tuple(elements.iter().map(|t| t.map_sizes(f)).collect()),
            Ty::Record(fields) => Ty::Record(
                fields
                    .iter()
                    .map(|(n, t)| (n.clone(), t.map_sizes(f)))
                    .collect(),
            ),
            Ty::Sum {
                abbreviation,
                constructors,
            } => Ty::Sum {
                abbreviation: abbreviation.clone(),
                constructors: constructors
                    .iter()
                    .map(|(n, p)| (n.clone(), p.iter().map(|t| t.map_sizes(f)).collect()))
                    .collect(),
            },
            Ty::Arrow(from, to) => {
                Ty::Arrow(Box::new(from.map_sizes(f)), Box::new(to.map_sizes(f)))
            }
        }
    }

    /// Replaces opaque parts (type parameters, abstract types) by `f`'s answer.
    pub fn map_opaque(&self, f: &dyn Fn(&Ty) -> Option<Ty>) -> Ty {
        if let Some(replacement) = f(self) {
            return replacement;
        }
        match self {
            Ty::Prim(_) | Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => self.clone(),
            Ty::Array(size, element) => Ty::Array(size.clone(), Box::new(element.map_opaque(f))),
            Ty::Tuple(elements) => Ty::Tuple(elements.iter().map(|t| t.map_opaque(f)).collect()),
            Ty::Record(fields) => Ty::Record(
                fields
                    .iter()
                    .map(|(n, t)| (n.clone(), t.map_opaque(f)))
                    .collect(),
            ),
            Ty::Sum {
                abbreviation,
                constructors,
            } => Ty::Sum {
                abbreviation: abbreviation.clone(),
                constructors: constructors
                    .iter()
                    .map(|(n, p)| (n.clone(), p.iter().map(|t| t.map_opaque(f)).collect()))
                    .collect(),
            },
            Ty::Arrow(from, to) => {
                Ty::Arrow(Box::new(from.map_opaque(f)), Box::new(to.map_opaque(f)))
            }
        }
    }

    /// Whether a value of type `self` may stand where `requested` is asked
    /// for: the same type, where an unknown requested size accepts any size.
    pub fn fits(&self, requested: &Ty) -> bool {
        match (self, requested) {
            (Ty::Array(size, element), Ty::Array(wanted, wanted_element)) => {
                (*wanted == Size::Unknown || size == wanted) && element.fits(wanted_element)
            }
            (Ty::Tuple(a), Ty::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.fits(y))
            }
            (Ty::Record(a), Ty::Record(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|((n, x), (m, y))| n == m && x.fits(y))
            }
            // Function types are never requested with unknown sizes.
            (a, b) => a == b,
        }
    }
}

/// A substitution for the parameters of a [`Scheme`].
#[derive(Clone, Debug, Default)]
pub struct Substitution {
    pub types: Vec<(String, Ty)>,
    pub sizes: Vec<(String, Size)>,
}

impl Substitution {
    pub fn apply(&self, ty: &Ty) -> Ty {
        let with_types = ty.map_opaque(&|t| match t {
            Ty::Param(name) | Ty::LiftedParam(name) => self
                .types
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| t.clone()),
            _ => None,
        });
        with_types.map_sizes(&|size| match size {
            Size::Named(name) => self
                .sizes
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, s)| s.clone())
                .unwrap_or_else(|| size.clone()),
            other => other.clone(),
        })
    }
}

/// Matches a scheme's type `pattern` against a requested type `target`,
/// extending `substitution` for the scheme's parameters. A scheme size left
/// unbound because the target's size is unknown is chosen later by the caller.
pub fn unify(scheme: &Scheme, pattern: &Ty, target: &Ty, substitution: &mut Substitution) -> bool {
    match (pattern, target) {
        (Ty::Param(name), _) if scheme.type_params.contains(name) => {
            if let Some((_, bound)) = substitution.types.iter().find(|(n, _)| n == name) {
                let bound = bound.clone();
                return bound.fits(target);
            }
            if !target.order_zero() || target.has_unknown_size() {
                return false;
            }
            substitution.types.push((name.clone(), target.clone()));
            true
        }
        (Ty::LiftedParam(name), _) if scheme.type_params.contains(name) => {
            if let Some((_, bound)) = substitution.types.iter().find(|(n, _)| n == name) {
                let bound = bound.clone();
                return bound.fits(target);
            }
            if target.has_unknown_size() {
                return false;
            }
            substitution.types.push((name.clone(), target.clone()));
            true
        }
        (Ty::Array(size, element), Ty::Array(wanted, wanted_element)) => {
            let sizes_agree = match (size, wanted) {
                (_, Size::Unknown) => true,
                (Size::Named(n), _) if scheme.size_params.contains(n) => {
                    match substitution.sizes.iter().find(|(m, _)| m == n) {
                        Some((_, bound)) => bound == wanted,
                        None => {
                            substitution.sizes.push((n.clone(), wanted.clone()));
                            true
                        }
                    }
                }
                (Size::Unknown, _) => false,
                (a, b) => a == b,
            };
            sizes_agree && unify(scheme, element, wanted_element, substitution)
        }
        (Ty::Tuple(a), Ty::Tuple(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| unify(scheme, x, y, substitution))
        }
        (Ty::Record(a), Ty::Record(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((n, x), (m, y))| n == m && unify(scheme, x, y, substitution))
        }
        (Ty::Arrow(a, b), Ty::Arrow(c, d)) => {
            unify(scheme, a, c, substitution) && unify(scheme, b, d, substitution)
        }
        (Ty::Sum { .. }, Ty::Sum { .. }) => pattern == target,
        (a, b) => a == b && !matches!(a, Ty::Array(..)),
    }
}
