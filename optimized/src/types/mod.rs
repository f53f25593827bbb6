//! Semantic types of the core language, as the type checker infers them.
//!
//! A [`Type`] is a tree whose leaves may be *unification variables*
//! ([`Type::Var`], [`Size::Flexible`]): indices into the substitution table of
//! [`crate::typecheck::unify`]. Rigid things are [`Type::Param`] (a type
//! parameter `'a` in scope, or a quantified variable of a [`Scheme`]) and
//! [`Size::Rigid`] (a size parameter `[n]`, or an `i64` variable named in a
//! type). Tuples are records whose fields are `0..n` (as in Futhark), so `.0`
//! works on tuples and `(a, b)` equals `{0: a, 1: b}`; [`Type::tuple`] builds them
//! and the printer shows them as tuples again.
//!
//! [`Type::Error`] stands for the type of something already reported as wrong:
//! it unifies with everything, silently, so one mistake gives one diagnostic.

pub mod printer;

use std::collections::BTreeMap;
use std::rc::Rc;

use spec::syntax::ast::{Liftedness, Name};

/// The one primitive type enum of the workspace (`spec::value::PrimType`,
/// the IR's and the GPU kernels' too).
pub use spec::value::PrimType;

/// A primitive type's bit in a [`PrimSet`]: its position in
/// [`PrimType::ALL`].
fn bit(prim: PrimType) -> u16 {
    let index = PrimType::ALL
        .iter()
        .position(|member| *member == prim)
        .unwrap_or(0);
    1 << index
}

/// A set of primitive types: what an overloaded literal or operator accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrimSet(u16);

impl PrimSet {
    pub const EMPTY: PrimSet = PrimSet(0);

    pub fn of(prims: &[PrimType]) -> PrimSet {
        PrimSet(prims.iter().fold(0, |bits, prim| bits | bit(*prim)))
    }

    /// The eight integer types.
    pub fn integers() -> PrimSet {
        PrimSet::of(&PrimType::ALL[0..8])
    }

    /// The two floating-point types.
    pub fn floats() -> PrimSet {
        PrimSet::of(&[PrimType::F32, PrimType::F64])
    }

    /// Integers and floats.
    pub fn numeric() -> PrimSet {
        PrimSet(PrimSet::integers().0 | PrimSet::floats().0)
    }

    /// Every primitive type, `bool` included.
    pub fn all() -> PrimSet {
        PrimSet::of(&PrimType::ALL)
    }

    pub fn contains(self, prim: PrimType) -> bool {
        self.0 & bit(prim) != 0
    }

    pub fn intersection(self, other: PrimSet) -> PrimSet {
        PrimSet(self.0 & other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn members(self) -> impl Iterator<Item = PrimType> {
        PrimType::ALL
            .into_iter()
            .filter(move |prim| self.contains(*prim))
    }

    /// How the set reads in a message: `an integer type`, `a numeric type`, or
    /// the members listed.
    pub fn describe(self) -> String {
        if self == PrimSet::integers() {
            "an integer type".to_string()
        } else if self == PrimSet::numeric() {
            "a numeric type".to_string()
        } else if self == PrimSet::floats() {
            "a floating-point type".to_string()
        } else if self == PrimSet::all() {
            "a primitive type".to_string()
        } else {
            let names: Vec<&str> = self.members().map(PrimType::name).collect();
            format!("one of {}", names.join(", "))
        }
    }
}

/// Index of a type unification variable in the substitution table.
pub type TypeVarId = u32;
/// Index of a size unification variable in the substitution table.
pub type SizeVarId = u32;

/// A rigid name: a type parameter, or a size (an `i64` variable or size
/// parameter). `id` is unique in a checking run; `name` is for printing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RigidName {
    pub id: u32,
    pub name: Name,
}

/// An array dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// `[3]`.
    Constant(u64),
    /// `[n]`: a size parameter or an `i64` variable in scope.
    Rigid(RigidName),
    /// A size still to be inferred (a unification variable).
    Flexible(SizeVarId),
    /// A size the checker does not track (what Futhark makes existential:
    /// results of `filter`, ranges, slices, loop parameters, ...). It agrees with
    /// every size and is checked at run time.
    Unknown,
}

/// A record field name, ordered as Futhark orders fields: numeric names (tuple
/// positions) first, numerically, then the others alphabetically.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldName(pub Name);

impl FieldName {
    pub fn position(index: usize) -> FieldName {
        FieldName(index.to_string())
    }

    fn numeric(&self) -> Option<u64> {
        if self.0.is_empty() || (self.0.len() > 1 && self.0.starts_with('0')) {
            return None;
        }
        self.0.parse().ok()
    }
}

impl Ord for FieldName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self.numeric(), other.numeric()) {
            (Some(a), Some(b)) => a.cmp(&b),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => self.0.cmp(&other.0),
        }
    }
}

impl PartialOrd for FieldName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Prim(PrimType),
    /// A unification variable.
    Var(TypeVarId),
    /// A rigid type parameter; `liftedness` says what it may stand for.
    Param {
        name: RigidName,
        liftedness: Liftedness,
    },
    /// `[size]element`.
    Array {
        size: Size,
        element: Rc<Type>,
    },
    /// A record; tuples are records with fields `0..n`.
    Record(Rc<BTreeMap<FieldName, Type>>),
    /// A sum type `#a t | #b`.
    Sum(Rc<BTreeMap<Name, Vec<Type>>>),
    /// `from -> to`, or `(param: from) -> to` when `to` mentions the size
    /// `param`.
    Arrow {
        param: Option<RigidName>,
        from: Rc<Type>,
        to: Rc<Type>,
    },
    /// An abstract type with parameters, applied: `t i32 [n]` where a module
    /// type specifies `type t 'a [n]`. (Abstract types without parameters are
    /// [`Type::Param`]s.)
    Abstract {
        name: RigidName,
        liftedness: Liftedness,
        args: Rc<[TypeArgument]>,
    },
    /// The type of an expression already reported as ill-typed.
    Error,
}

/// An argument of an applied abstract type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeArgument {
    Type(Type),
    Size(Size),
}

/// A parameter of a [`TypeFunction`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeFunctionParam {
    Type(u32),
    Size(u32),
}

/// What an abstract type with parameters stands for: `\params -> body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeFunction {
    pub params: Vec<TypeFunctionParam>,
    pub body: Type,
}

impl Type {
    pub const BOOL: Type = Type::Prim(PrimType::Bool);
    pub const I64: Type = Type::Prim(PrimType::I64);

    pub fn unit() -> Type {
        Type::Record(Rc::new(BTreeMap::new()))
    }

    pub fn tuple(elements: Vec<Type>) -> Type {
        Type::Record(Rc::new(
            elements
                .into_iter()
                .enumerate()
                .map(|(index, ty)| (FieldName::position(index), ty))
                .collect(),
        ))
    }

    pub fn array(size: Size, element: Type) -> Type {
        Type::Array {
            size,
            element: Rc::new(element),
        }
    }

    pub fn arrow(from: Type, to: Type) -> Type {
        Type::Arrow {
            param: None,
            from: Rc::new(from),
            to: Rc::new(to),
        }
    }

    /// The elements of a record whose fields are exactly `0..n` with `n != 1`.
    pub fn tuple_elements(fields: &BTreeMap<FieldName, Type>) -> Option<Vec<&Type>> {
        if fields.len() == 1 {
            return None;
        }
        fields
            .iter()
            .enumerate()
            .map(|(index, (field, ty))| (field.0 == index.to_string()).then_some(ty))
            .collect()
    }
}

/// A type scheme `∀ type_params sizes. ty`: the type of a polymorphic binding.
/// Instantiation replaces each quantified [`Type::Param`] by a fresh type
/// variable (with the parameter's liftedness) and each quantified
/// [`Size::Rigid`] by a fresh flexible size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub type_params: Vec<(RigidName, Liftedness)>,
    pub size_params: Vec<RigidName>,
    pub ty: Type,
}

impl Scheme {
    pub fn monomorphic(ty: Type) -> Scheme {
        Scheme {
            type_params: Vec::new(),
            size_params: Vec::new(),
            ty,
        }
    }

    pub fn is_polymorphic(&self) -> bool {
        !self.type_params.is_empty()
    }
}

/// Replacements for rigid names: type parameters by types, sizes by sizes.
#[derive(Default)]
pub struct RigidSubstitution {
    pub types: std::collections::HashMap<u32, Type>,
    pub sizes: std::collections::HashMap<u32, Size>,
    /// Abstract types with parameters, by their rigid id.
    pub type_functions: std::collections::HashMap<u32, TypeFunction>,
}

impl RigidSubstitution {
    pub fn is_empty(&self) -> bool {
        self.types.is_empty() && self.sizes.is_empty() && self.type_functions.is_empty()
    }

    /// `ty` with the rigid names of this substitution replaced. `ty` should be
    /// resolved (unification variables are left as they are).
    pub fn apply(&self, ty: &Type) -> Type {
        if self.is_empty() {
            return ty.clone();
        }
        spec::recursion::with_stack(|| match ty {
            Type::Param { name, .. } => self
                .types
                .get(&name.id)
                .cloned()
                .unwrap_or_else(|| ty.clone()),
            Type::Array { size, element } => Type::Array {
                size: self.apply_size(size),
                element: Rc::new(self.apply(element)),
            },
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(field, ty)| (field.clone(), self.apply(ty)))
                    .collect(),
            )),
            Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        (
                            name.clone(),
                            payload.iter().map(|ty| self.apply(ty)).collect(),
                        )
                    })
                    .collect(),
            )),
            Type::Arrow { param, from, to } => Type::Arrow {
                param: param.clone(),
                from: Rc::new(self.apply(from)),
                to: Rc::new(self.apply(to)),
            },
            Type::Abstract {
                name,
                liftedness,
                args,
            } => {
                let args: Vec<TypeArgument> = args
                    .iter()
                    .map(|arg| match arg {
                        TypeArgument::Type(ty) => TypeArgument::Type(self.apply(ty)),
                        TypeArgument::Size(size) => TypeArgument::Size(self.apply_size(size)),
                    })
                    .collect();
                match self.type_functions.get(&name.id) {
                    Some(function) => {
                        let mut inner = RigidSubstitution::default();
                        for (param, arg) in function.params.iter().zip(&args) {
                            match (param, arg) {
                                (TypeFunctionParam::Type(id), TypeArgument::Type(ty)) => {
                                    inner.types.insert(*id, ty.clone());
                                }
                                (TypeFunctionParam::Size(id), TypeArgument::Size(size)) => {
                                    inner.sizes.insert(*id, size.clone());
                                }
                                _ => {}
                            }
                        }
                        inner.apply(&function.body)
                    }
                    None => Type::Abstract {
                        name: name.clone(),
                        liftedness: *liftedness,
                        args: args.into(),
                    },
                }
            }
            Type::Prim(_) | Type::Var(_) | Type::Error => ty.clone(),
        })
    }

    pub fn apply_size(&self, size: &Size) -> Size {
        match size {
            Size::Rigid(name) => self
                .sizes
                .get(&name.id)
                .cloned()
                .unwrap_or_else(|| size.clone()),
            _ => size.clone(),
        }
    }
}

/// Calls `visit` on every size in `ty` (resolved), outermost first.
pub fn for_each_size(ty: &Type, visit: &mut dyn FnMut(&Size)) {
    spec::recursion::with_stack(|| match ty {
        Type::Array { size, element } => {
            visit(size);
            for_each_size(element, visit);
        }
        Type::Record(fields) => fields.values().for_each(|ty| for_each_size(ty, visit)),
        Type::Sum(constructors) => constructors
            .values()
            .flatten()
            .for_each(|ty| for_each_size(ty, visit)),
        Type::Arrow { from, to, .. } => {
            for_each_size(from, visit);
            for_each_size(to, visit);
        }
        Type::Abstract { args, .. } => {
            for arg in args.iter() {
                match arg {
                    TypeArgument::Type(ty) => for_each_size(ty, visit),
                    TypeArgument::Size(size) => visit(size),
                }
            }
        }
        Type::Prim(_) | Type::Var(_) | Type::Param { .. } | Type::Error => {}
    })
}

/// Calls `visit` on every type variable and type parameter in `ty` (resolved).
pub fn for_each_leaf(ty: &Type, visit: &mut dyn FnMut(&Type)) {
    spec::recursion::with_stack(|| match ty {
        Type::Array { element, .. } => for_each_leaf(element, visit),
        Type::Record(fields) => fields.values().for_each(|ty| for_each_leaf(ty, visit)),
        Type::Sum(constructors) => constructors
            .values()
            .flatten()
            .for_each(|ty| for_each_leaf(ty, visit)),
        Type::Arrow { from, to, .. } => {
            for_each_leaf(from, visit);
            for_each_leaf(to, visit);
        }
        Type::Abstract { args, .. } => {
            for arg in args.iter() {
                if let TypeArgument::Type(ty) = arg {
                    for_each_leaf(ty, visit);
                }
            }
        }
        Type::Var(_) | Type::Param { .. } => visit(ty),
        Type::Prim(_) | Type::Error => {}
    })
}

/// `ty` (resolved) with every size replaced by [`Size::Unknown`].
pub fn forget_sizes(ty: &Type) -> Type {
    forget_sizes_but(ty, &|_| false)
}

/// `ty` (resolved) with every size but the constant ones replaced by
/// [`Size::Unknown`] (the sizes a loop parameter's annotation states).
pub fn forget_sizes_but_constants(ty: &Type) -> Type {
    forget_sizes_but(ty, &|size| matches!(size, Size::Constant(_)))
}

/// `ty` (resolved) with every size not kept replaced by [`Size::Unknown`].
fn forget_sizes_but(ty: &Type, kept: &dyn Fn(&Size) -> bool) -> Type {
    let forget = |size: &Size| {
        if kept(size) {
            size.clone()
        } else {
            Size::Unknown
        }
    };
    spec::recursion::with_stack(|| match ty {
        Type::Array { size, element } => Type::Array {
            size: forget(size),
            element: Rc::new(forget_sizes_but(element, kept)),
        },
        Type::Record(fields) => Type::Record(Rc::new(
            fields
                .iter()
                .map(|(field, ty)| (field.clone(), forget_sizes_but(ty, kept)))
                .collect(),
        )),
        Type::Sum(constructors) => Type::Sum(Rc::new(
            constructors
                .iter()
                .map(|(name, payload)| {
                    (
                        name.clone(),
                        payload
                            .iter()
                            .map(|ty| forget_sizes_but(ty, kept))
                            .collect(),
                    )
                })
                .collect(),
        )),
        Type::Arrow { param, from, to } => Type::Arrow {
            param: param.clone(),
            from: Rc::new(forget_sizes_but(from, kept)),
            to: Rc::new(forget_sizes_but(to, kept)),
        },
        Type::Abstract {
            name,
            liftedness,
            args,
        } => Type::Abstract {
            name: name.clone(),
            liftedness: *liftedness,
            args: args
                .iter()
                .map(|arg| match arg {
                    TypeArgument::Type(ty) => TypeArgument::Type(forget_sizes_but(ty, kept)),
                    TypeArgument::Size(size) => TypeArgument::Size(forget(size)),
                })
                .collect(),
        },
        Type::Prim(_) | Type::Var(_) | Type::Param { .. } | Type::Error => ty.clone(),
    })
}
