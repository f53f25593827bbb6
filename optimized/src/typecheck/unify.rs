//! Unification: the substitution table, levels, and constraints on variables.
//!
//! Type and size variables are indices into [`Substitution`]; a variable is
//! either bound (a link, followed by [`Substitution::resolve`]) or unbound with
//! a *level* (the let-nesting depth where it was created, lowered when it is
//! unified with something older: generalisation quantifies exactly the unbound
//! variables whose level is deeper than the binding's), a *liftedness* (an
//! [`Liftedness::Unlifted`] variable may only stand for an order-zero type: no
//! function inside, TFP'18 §5.1) and a [`Constraint`] (overloaded literals and
//! operators, `x.f` on a type not yet known, `#c` before its sum type is known).
//!
//! The table is a union-find forest without path compression (types are small
//! trees and links are short; compression would need `&mut` on every lookup).

use std::collections::BTreeMap;
use std::rc::Rc;

use spec::source::Span;
use spec::syntax::ast::{Liftedness, Name};

use crate::types::{
    FieldName, PrimSet, PrimType, RigidName, RigidSubstitution, Size, SizeVarId, Type,
    TypeArgument, TypeVarId,
};

/// What an unbound type variable must satisfy beyond its liftedness.
#[derive(Clone, Debug)]
pub enum Constraint {
    None,
    /// One of `allowed` (an overloaded literal or operator); `what` names the
    /// source of the constraint for messages ("the integer literal").
    Overloaded {
        allowed: PrimSet,
        what: String,
    },
    /// A record with at least these fields (from `e.f` on an unknown type).
    HasFields(BTreeMap<FieldName, Type>),
    /// A sum type with at least these constructors (from `#c e`).
    HasConstructors(BTreeMap<Name, Vec<Type>>),
}

/// An unbound type variable.
#[derive(Clone, Debug)]
pub struct UnboundTypeVar {
    pub level: u32,
    pub liftedness: Liftedness,
    pub constraint: Constraint,
    /// Where the variable (or its most important constraint) comes from.
    pub origin: Span,
}

#[derive(Clone, Debug)]
enum TypeVarState {
    Bound(Type),
    Unbound(UnboundTypeVar),
}

#[derive(Clone, Debug)]
enum SizeVarState {
    Bound(Size),
    Unbound { level: u32 },
}

/// Why two types do not unify. The caller reports the whole expected and found
/// types; this says which part conflicts.
#[derive(Clone, Debug)]
pub enum UnifyError {
    /// These two parts differ in shape (`expected` first).
    Mismatch { expected: Type, actual: Type },
    /// Two rigid sizes differ.
    SizeMismatch { expected: Size, actual: Size },
    /// A variable would have to contain itself.
    Occurs { variable: TypeVarId, ty: Type },
    /// A function type (or a lifted type parameter) met a variable that stands
    /// only for order-zero types.
    NotOrderZero { offending: Type, origin: Span },
    /// A type outside the set an overloaded literal or operator allows.
    NotOverloaded {
        ty: Type,
        allowed: PrimSet,
        what: String,
        origin: Span,
    },
    /// Two overloaded uses that no primitive type satisfies both: what each
    /// is, what it allows, and where it is.
    IncompatibleOverloads {
        first: (String, PrimSet, Span),
        second: (String, PrimSet, Span),
    },
    /// A record lacks a field that was projected.
    MissingField {
        field: FieldName,
        record: Type,
        origin: Span,
    },
    /// A sum type lacks a constructor that was used, or has it with another
    /// number of payload values.
    MissingConstructor {
        constructor: Name,
        sum: Type,
        origin: Span,
    },
}

/// Whether sizes take part in unification (`e :> t` ignores them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeMode {
    Check,
    Ignore,
}

/// The substitution: every type and size variable of one checking run.
#[derive(Default)]
pub struct Substitution {
    types: Vec<TypeVarState>,
    sizes: Vec<SizeVarState>,
    next_rigid: u32,
}

impl Substitution {
    pub fn new() -> Substitution {
        Substitution::default()
    }

    /// Number of type variables created so far (a watermark: variables created
    /// after it are `watermark..type_var_count()`).
    pub fn type_var_count(&self) -> u32 {
        self.types.len() as u32
    }

    pub fn fresh_type_var(
        &mut self,
        level: u32,
        liftedness: Liftedness,
        constraint: Constraint,
        origin: Span,
    ) -> Type {
        self.types.push(TypeVarState::Unbound(UnboundTypeVar {
            level,
            liftedness,
            constraint,
            origin,
        }));
        Type::Var(self.types.len() as u32 - 1)
    }

    pub fn fresh_size_var(&mut self, level: u32) -> Size {
        self.sizes.push(SizeVarState::Unbound { level });
        Size::Flexible(self.sizes.len() as u32 - 1)
    }

    /// The next rigid id [`Substitution::fresh_rigid`] would use.
    pub fn next_rigid(&self) -> u32 {
        self.next_rigid + 1
    }

    /// Makes every future rigid id at least `first_free`.
    pub fn reserve_rigids_below(&mut self, first_free: u32) {
        self.next_rigid = self.next_rigid.max(first_free);
    }

    /// A rigid name never used before.
    pub fn fresh_rigid(&mut self, name: impl Into<Name>) -> RigidName {
        self.next_rigid += 1;
        RigidName {
            id: self.next_rigid,
            name: name.into(),
        }
    }

    /// The unbound variable `id`, if it is unbound.
    pub fn unbound(&self, id: TypeVarId) -> Option<&UnboundTypeVar> {
        match &self.types[id as usize] {
            TypeVarState::Unbound(var) => Some(var),
            TypeVarState::Bound(_) => None,
        }
    }

    pub fn size_var_level(&self, id: SizeVarId) -> Option<u32> {
        match &self.sizes[id as usize] {
            SizeVarState::Unbound { level } => Some(*level),
            SizeVarState::Bound(_) => None,
        }
    }

    /// Binds `id` without any check (defaulting, generalisation).
    pub fn bind_type_var_unchecked(&mut self, id: TypeVarId, ty: Type) {
        self.types[id as usize] = TypeVarState::Bound(ty);
    }

    pub fn bind_size_var_unchecked(&mut self, id: SizeVarId, size: Size) {
        self.sizes[id as usize] = SizeVarState::Bound(size);
    }

    /// Follows links at the head of `ty`.
    pub fn resolve(&self, ty: &Type) -> Type {
        let mut current = ty.clone();
        while let Type::Var(id) = current {
            match &self.types[id as usize] {
                TypeVarState::Bound(next) => current = next.clone(),
                TypeVarState::Unbound(_) => break,
            }
        }
        current
    }

    pub fn resolve_size(&self, size: &Size) -> Size {
        let mut current = size.clone();
        while let Size::Flexible(id) = current {
            match &self.sizes[id as usize] {
                SizeVarState::Bound(next) => current = next.clone(),
                SizeVarState::Unbound { .. } => break,
            }
        }
        current
    }

    /// `ty` with every bound variable replaced by what it is bound to.
    pub fn resolve_deep(&self, ty: &Type) -> Type {
        spec::recursion::with_stack(|| match self.resolve(ty) {
            Type::Array { size, element } => Type::Array {
                size: self.resolve_size(&size),
                element: Rc::new(self.resolve_deep(&element)),
            },
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(name, ty)| (name.clone(), self.resolve_deep(ty)))
                    .collect(),
            )),
            Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        (
                            name.clone(),
                            payload.iter().map(|ty| self.resolve_deep(ty)).collect(),
                        )
                    })
                    .collect(),
            )),
            Type::Arrow { param, from, to } => Type::Arrow {
                param,
                from: Rc::new(self.resolve_deep(&from)),
                to: Rc::new(self.resolve_deep(&to)),
            },
            Type::Abstract {
                name,
                liftedness,
                args,
            } => Type::Abstract {
                name,
                liftedness,
                args: args
                    .iter()
                    .map(|arg| match arg {
                        TypeArgument::Type(ty) => TypeArgument::Type(self.resolve_deep(ty)),
                        TypeArgument::Size(size) => TypeArgument::Size(self.resolve_size(size)),
                    })
                    .collect(),
            },
            other => other,
        })
    }

    /// Like [`Substitution::resolve_deep`], for messages: a variable known only
    /// by its fields or constructors shows as that record or sum type.
    pub fn resolve_for_display(&self, ty: &Type) -> Type {
        spec::recursion::with_stack(|| match self.resolve(ty) {
            Type::Var(id) => match self.unbound(id).map(|var| &var.constraint) {
                Some(Constraint::HasFields(fields)) => Type::Record(Rc::new(
                    fields
                        .iter()
                        .map(|(name, ty)| (name.clone(), self.resolve_for_display(ty)))
                        .collect(),
                )),
                Some(Constraint::HasConstructors(constructors)) => Type::Sum(Rc::new(
                    constructors
                        .iter()
                        .map(|(name, payload)| {
                            (
                                name.clone(),
                                payload
                                    .iter()
                                    .map(|ty| self.resolve_for_display(ty))
                                    .collect(),
                            )
                        })
                        .collect(),
                )),
                _ => Type::Var(id),
            },
            Type::Array { size, element } => Type::Array {
                size: self.resolve_size(&size),
                element: Rc::new(self.resolve_for_display(&element)),
            },
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(name, ty)| (name.clone(), self.resolve_for_display(ty)))
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
                                .map(|ty| self.resolve_for_display(ty))
                                .collect(),
                        )
                    })
                    .collect(),
            )),
            Type::Arrow { param, from, to } => Type::Arrow {
                param,
                from: Rc::new(self.resolve_for_display(&from)),
                to: Rc::new(self.resolve_for_display(&to)),
            },
            Type::Abstract {
                name,
                liftedness,
                args,
            } => Type::Abstract {
                name,
                liftedness,
                args: args
                    .iter()
                    .map(|arg| match arg {
                        TypeArgument::Type(ty) => TypeArgument::Type(self.resolve_for_display(ty)),
                        TypeArgument::Size(size) => TypeArgument::Size(self.resolve_size(size)),
                    })
                    .collect(),
            },
            other => other,
        })
    }

    /// The type of a conditional whose branches have the types `a` and `b`,
    /// already unified up to sizes: `a`, with every array size on which the
    /// branches differ replaced by [`Size::Unknown`].
    pub fn join_sizes(&self, a: &Type, b: &Type) -> Type {
        spec::recursion::with_stack(|| {
            let a = self.resolve(a);
            let b = self.resolve(b);
            match (&a, &b) {
                (
                    Type::Array {
                        size: size_a,
                        element: element_a,
                    },
                    Type::Array {
                        size: size_b,
                        element: element_b,
                    },
                ) => {
                    let size_a = self.resolve_size(size_a);
                    let size = if size_a == self.resolve_size(size_b) {
                        size_a
                    } else {
                        Size::Unknown
                    };
                    Type::Array {
                        size,
                        element: Rc::new(self.join_sizes(element_a, element_b)),
                    }
                }
                (Type::Record(fields_a), Type::Record(fields_b))
                    if fields_a.keys().eq(fields_b.keys()) =>
                {
                    Type::Record(Rc::new(
                        fields_a
                            .iter()
                            .map(|(field, ty)| {
                                (field.clone(), self.join_sizes(ty, &fields_b[field]))
                            })
                            .collect(),
                    ))
                }
                (Type::Sum(constructors_a), Type::Sum(constructors_b))
                    if constructors_a.keys().eq(constructors_b.keys()) =>
                {
                    Type::Sum(Rc::new(
                        constructors_a
                            .iter()
                            .map(|(name, payload)| {
                                let other = &constructors_b[name];
                                let joined = payload
                                    .iter()
                                    .zip(other.iter())
                                    .map(|(x, y)| self.join_sizes(x, y))
                                    .collect();
                                (name.clone(), joined)
                            })
                            .collect(),
                    ))
                }
                _ => a,
            }
        })
    }

    // -- Unification ----------------------------------------------------------

    /// Makes `expected` and `actual` equal, or says where they differ.
    pub fn unify(
        &mut self,
        expected: &Type,
        actual: &Type,
        mode: SizeMode,
    ) -> Result<(), UnifyError> {
        spec::recursion::with_stack(|| self.unify_inner(expected, actual, mode))
    }

    fn unify_inner(
        &mut self,
        expected: &Type,
        actual: &Type,
        mode: SizeMode,
    ) -> Result<(), UnifyError> {
        let expected = self.resolve(expected);
        let actual = self.resolve(actual);
        match (&expected, &actual) {
            (Type::Error, other) | (other, Type::Error) => {
                // The error is already reported: what it meets becomes
                // silent too, so that no variable is left to be generalised
                // (a follow-on "may not be polymorphic" at an entry point).
                self.poison(other);
                Ok(())
            }
            (Type::Var(a), Type::Var(b)) if a == b => Ok(()),
            (Type::Var(a), Type::Var(b)) => self.merge_vars(*a, *b, mode),
            (Type::Var(a), _) => self.bind_var(*a, &actual, mode),
            (_, Type::Var(b)) => self.bind_var(*b, &expected, mode),
            (Type::Prim(p), Type::Prim(q)) if p == q => Ok(()),
            (Type::Param { name: p, .. }, Type::Param { name: q, .. }) if p.id == q.id => Ok(()),
            (
                Type::Array {
                    size: expected_size,
                    element: expected_element,
                },
                Type::Array {
                    size: actual_size,
                    element: actual_element,
                },
            ) => {
                if mode == SizeMode::Check {
                    self.unify_sizes(expected_size, actual_size)?;
                }
                self.unify(expected_element, actual_element, mode)
            }
            (Type::Record(expected_fields), Type::Record(actual_fields))
                if expected_fields.keys().eq(actual_fields.keys()) =>
            {
                for (field, expected_field) in expected_fields.iter() {
                    self.unify(expected_field, &actual_fields[field], mode)?;
                }
                Ok(())
            }
            (Type::Sum(expected_constructors), Type::Sum(actual_constructors))
                if expected_constructors.len() == actual_constructors.len()
                    && expected_constructors.iter().all(|(name, payload)| {
                        actual_constructors
                            .get(name)
                            .is_some_and(|other| other.len() == payload.len())
                    }) =>
            {
                for (name, expected_payload) in expected_constructors.iter() {
                    for (e, a) in expected_payload.iter().zip(&actual_constructors[name]) {
                        self.unify(e, a, mode)?;
                    }
                }
                Ok(())
            }
            (
                Type::Arrow {
                    param: expected_param,
                    from: expected_from,
                    to: expected_to,
                },
                Type::Arrow {
                    param: actual_param,
                    from: actual_from,
                    to: actual_to,
                },
            ) => {
                self.unify(expected_from, actual_from, mode)?;
                // `(n: i64) -> [n]t` and `(m: i64) -> [m]t` are the same type:
                // the actual side's parameter is renamed to the expected one's;
                // a parameter name with no counterpart stands for an unknown size.
                let (expected_to, actual_to) = match (expected_param, actual_param) {
                    (None, None) => ((**expected_to).clone(), (**actual_to).clone()),
                    (Some(e), Some(a)) if e.id == a.id => {
                        ((**expected_to).clone(), (**actual_to).clone())
                    }
                    (Some(e), Some(a)) => (
                        (**expected_to).clone(),
                        rename_size(&self.resolve_deep(actual_to), a.id, Size::Rigid(e.clone())),
                    ),
                    (Some(e), None) => (
                        rename_size(&self.resolve_deep(expected_to), e.id, Size::Unknown),
                        (**actual_to).clone(),
                    ),
                    (None, Some(a)) => (
                        (**expected_to).clone(),
                        rename_size(&self.resolve_deep(actual_to), a.id, Size::Unknown),
                    ),
                };
                self.unify(&expected_to, &actual_to, mode)
            }
            (
                Type::Abstract {
                    name: expected_name,
                    args: expected_args,
                    ..
                },
                Type::Abstract {
                    name: actual_name,
                    args: actual_args,
                    ..
                },
            ) if expected_name.id == actual_name.id && expected_args.len() == actual_args.len() => {
                for (e, a) in expected_args.iter().zip(actual_args.iter()) {
                    match (e, a) {
                        (TypeArgument::Type(e), TypeArgument::Type(a)) => self.unify(e, a, mode)?,
                        (TypeArgument::Size(e), TypeArgument::Size(a)) => {
                            if mode == SizeMode::Check {
                                self.unify_sizes(e, a)?;
                            }
                        }
                        _ => {
                            return Err(UnifyError::Mismatch {
                                expected: expected.clone(),
                                actual: actual.clone(),
                            })
                        }
                    }
                }
                Ok(())
            }
            _ => Err(UnifyError::Mismatch { expected, actual }),
        }
    }

    /// Makes two sizes equal. Unknown sizes agree with everything; flexible
    /// sizes are bound; constants and rigid names must be the same.
    pub fn unify_sizes(&mut self, expected: &Size, actual: &Size) -> Result<(), UnifyError> {
        let expected = self.resolve_size(expected);
        let actual = self.resolve_size(actual);
        match (&expected, &actual) {
            (Size::Unknown, _) | (_, Size::Unknown) => Ok(()),
            (Size::Flexible(a), Size::Flexible(b)) if a == b => Ok(()),
            (Size::Flexible(a), Size::Flexible(b)) => {
                let level_a = self.size_var_level(*a).unwrap_or(0);
                let level_b = self.size_var_level(*b).unwrap_or(0);
                self.sizes[*b as usize] = SizeVarState::Unbound {
                    level: level_a.min(level_b),
                };
                self.sizes[*a as usize] = SizeVarState::Bound(actual.clone());
                Ok(())
            }
            (Size::Flexible(a), _) => {
                self.sizes[*a as usize] = SizeVarState::Bound(actual.clone());
                Ok(())
            }
            (_, Size::Flexible(b)) => {
                self.sizes[*b as usize] = SizeVarState::Bound(expected.clone());
                Ok(())
            }
            (Size::Constant(x), Size::Constant(y)) if x == y => Ok(()),
            (Size::Rigid(x), Size::Rigid(y)) if x.id == y.id => Ok(()),
            _ => Err(UnifyError::SizeMismatch { expected, actual }),
        }
    }

    /// Binds every unbound type variable of `ty` to [`Type::Error`].
    fn poison(&mut self, ty: &Type) {
        spec::recursion::with_stack(|| match self.resolve(ty) {
            Type::Var(id) => {
                if self.unbound(id).is_some() {
                    self.types[id as usize] = TypeVarState::Bound(Type::Error);
                }
            }
            Type::Array { element, .. } => self.poison(&element),
            Type::Record(fields) => fields.values().for_each(|field| self.poison(field)),
            Type::Sum(constructors) => constructors
                .values()
                .flatten()
                .for_each(|payload| self.poison(payload)),
            Type::Arrow { from, to, .. } => {
                self.poison(&from);
                self.poison(&to);
            }
            Type::Abstract { args, .. } => {
                for arg in args.iter() {
                    if let TypeArgument::Type(ty) = arg {
                        self.poison(ty);
                    }
                }
            }
            Type::Prim(_) | Type::Param { .. } | Type::Error => {}
        })
    }

    /// Binds the unbound variable `id` to the non-variable type `ty`, checking
    /// its liftedness and constraint, the occurs check, and lowering levels.
    fn bind_var(&mut self, id: TypeVarId, ty: &Type, mode: SizeMode) -> Result<(), UnifyError> {
        let Some(var) = self.unbound(id).cloned() else {
            let bound = self.resolve(&Type::Var(id));
            return self.unify(&bound, ty, mode);
        };
        if matches!(ty, Type::Error) {
            self.types[id as usize] = TypeVarState::Bound(Type::Error);
            return Ok(());
        }
        self.occurs_and_levels(id, var.level, ty)?;
        // An overloaded variable allows only primitive types: a function
        // meeting one is reported as not numeric (say), not as a function.
        if let Constraint::Overloaded { allowed, what } = &var.constraint {
            if !matches!(ty, Type::Prim(prim) if allowed.contains(*prim)) {
                return Err(UnifyError::NotOverloaded {
                    ty: ty.clone(),
                    allowed: *allowed,
                    what: what.clone(),
                    origin: var.origin,
                });
            }
        }
        if var.liftedness != Liftedness::Lifted {
            self.require_order_zero(ty)
                .map_err(|offending| UnifyError::NotOrderZero {
                    offending,
                    origin: var.origin,
                })?;
        }
        // Unified modulo sizes (`e :> t`), the variable learns the shape of
        // `ty` but not its sizes: they stay to be found (as Futhark, which
        // accepts `\ys -> ys :> [m]t` mapped over rows of another size).
        let ty = match mode {
            SizeMode::Check => ty.clone(),
            SizeMode::Ignore => self.with_fresh_sizes(ty, var.level),
        };
        let ty = &ty;
        // Bind first, then check the structural constraints: their own types
        // may mention the variable only through a link, which is now in place.
        self.types[id as usize] = TypeVarState::Bound(ty.clone());
        let saved = var.clone();
        let checked = self.check_structural_constraint(var, ty, mode);
        if checked.is_err() {
            // Unbind, so that the message shows the variable's requirements
            // rather than the type that failed them.
            self.types[id as usize] = TypeVarState::Unbound(saved);
        }
        checked
    }

    /// `ty` with the size of every array in its order-zero structure
    /// (arrays, records, sums) replaced by a fresh size variable of `level`.
    fn with_fresh_sizes(&mut self, ty: &Type, level: u32) -> Type {
        match self.resolve(ty) {
            Type::Array { element, .. } => Type::Array {
                size: self.fresh_size_var(level),
                element: Rc::new(self.with_fresh_sizes(&element, level)),
            },
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(name, field)| (name.clone(), self.with_fresh_sizes(field, level)))
                    .collect(),
            )),
            Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        let payload = payload
                            .iter()
                            .map(|t| self.with_fresh_sizes(t, level))
                            .collect();
                        (name.clone(), payload)
                    })
                    .collect(),
            )),
            other => other,
        }
    }

    /// Checks a `HasFields`/`HasConstructors` constraint of `var` against `ty`.
    fn check_structural_constraint(
        &mut self,
        var: UnboundTypeVar,
        ty: &Type,
        mode: SizeMode,
    ) -> Result<(), UnifyError> {
        match var.constraint {
            Constraint::None | Constraint::Overloaded { .. } => Ok(()),
            Constraint::HasFields(fields) => {
                let Type::Record(record) = ty else {
                    return Err(UnifyError::MissingField {
                        field: fields
                            .keys()
                            .next()
                            .cloned()
                            .unwrap_or(FieldName(String::new())),
                        record: ty.clone(),
                        origin: var.origin,
                    });
                };
                for (field, field_type) in &fields {
                    let Some(actual) = record.get(field) else {
                        return Err(UnifyError::MissingField {
                            field: field.clone(),
                            record: ty.clone(),
                            origin: var.origin,
                        });
                    };
                    self.unify(field_type, actual, mode)?;
                }
                Ok(())
            }
            Constraint::HasConstructors(constructors) => {
                let Type::Sum(sum) = ty else {
                    return Err(UnifyError::MissingConstructor {
                        constructor: constructors.keys().next().cloned().unwrap_or_default(),
                        sum: ty.clone(),
                        origin: var.origin,
                    });
                };
                for (name, payload) in &constructors {
                    match sum.get(name) {
                        Some(actual) if actual.len() == payload.len() => {
                            for (e, a) in payload.iter().zip(actual) {
                                self.unify(e, a, mode)?;
                            }
                        }
                        _ => {
                            return Err(UnifyError::MissingConstructor {
                                constructor: name.clone(),
                                sum: ty.clone(),
                                origin: var.origin,
                            })
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Merges two unbound variables: `a` is linked to `b`, which keeps the
    /// lower level, the stricter liftedness and both constraints.
    fn merge_vars(&mut self, a: TypeVarId, b: TypeVarId, mode: SizeMode) -> Result<(), UnifyError> {
        let (Some(var_a), Some(var_b)) = (self.unbound(a).cloned(), self.unbound(b).cloned())
        else {
            return Ok(());
        };
        let mut pending: Vec<(Type, Type)> = Vec::new();
        let (constraint, origin) = match (var_a.constraint, var_b.constraint) {
            (Constraint::None, other) => (other, var_b.origin),
            (other, Constraint::None) => (other, var_a.origin),
            (
                Constraint::Overloaded {
                    allowed: allowed_a,
                    what: what_a,
                },
                Constraint::Overloaded {
                    allowed: allowed_b,
                    what: what_b,
                },
            ) => {
                let allowed = allowed_a.intersection(allowed_b);
                if allowed.is_empty() {
                    return Err(UnifyError::IncompatibleOverloads {
                        first: (what_a, allowed_a, var_a.origin),
                        second: (what_b, allowed_b, var_b.origin),
                    });
                }
                // The expected side (usually the operator or the context)
                // names the requirement in later messages.
                (
                    Constraint::Overloaded {
                        allowed,
                        what: what_a,
                    },
                    var_a.origin,
                )
            }
            (Constraint::HasFields(mut fields_a), Constraint::HasFields(fields_b)) => {
                for (field, ty) in fields_b {
                    match fields_a.get(&field) {
                        Some(existing) => pending.push((existing.clone(), ty)),
                        None => {
                            fields_a.insert(field, ty);
                        }
                    }
                }
                (Constraint::HasFields(fields_a), var_b.origin)
            }
            (
                Constraint::HasConstructors(mut constructors_a),
                Constraint::HasConstructors(constructors_b),
            ) => {
                for (name, payload) in constructors_b {
                    match constructors_a.get(&name) {
                        Some(existing) if existing.len() == payload.len() => {
                            pending.extend(existing.iter().cloned().zip(payload));
                        }
                        Some(_) => {
                            return Err(UnifyError::MissingConstructor {
                                constructor: name,
                                sum: Type::Var(a),
                                origin: var_a.origin,
                            })
                        }
                        None => {
                            constructors_a.insert(name, payload);
                        }
                    }
                }
                (Constraint::HasConstructors(constructors_a), var_b.origin)
            }
            _ => {
                return Err(UnifyError::Mismatch {
                    expected: Type::Var(a),
                    actual: Type::Var(b),
                })
            }
        };
        let merged = UnboundTypeVar {
            level: var_a.level.min(var_b.level),
            liftedness: var_a.liftedness.min(var_b.liftedness),
            constraint,
            origin,
        };
        let needs_order_zero = merged.liftedness != Liftedness::Lifted;
        let constraint_types = constraint_types(&merged.constraint);
        self.types[b as usize] = TypeVarState::Unbound(merged);
        self.types[a as usize] = TypeVarState::Bound(Type::Var(b));
        for ty in &constraint_types {
            self.occurs_and_levels(b, self.unbound(b).map_or(0, |v| v.level), ty)?;
            if needs_order_zero {
                self.require_order_zero(ty)
                    .map_err(|offending| UnifyError::NotOrderZero { offending, origin })?;
            }
        }
        for (e, x) in pending {
            self.unify(&e, &x, mode)?;
        }
        Ok(())
    }

    /// The occurs check for `id` in `ty`, lowering the levels of the variables
    /// of `ty` to at most `level`.
    fn occurs_and_levels(
        &mut self,
        id: TypeVarId,
        level: u32,
        ty: &Type,
    ) -> Result<(), UnifyError> {
        spec::recursion::with_stack(|| match self.resolve(ty) {
            Type::Var(other) if other == id => Err(UnifyError::Occurs {
                variable: id,
                ty: ty.clone(),
            }),
            Type::Var(other) => {
                let constraint_types =
                    if let TypeVarState::Unbound(var) = &mut self.types[other as usize] {
                        var.level = var.level.min(level);
                        constraint_types(&var.constraint)
                    } else {
                        Vec::new()
                    };
                for inner in &constraint_types {
                    self.occurs_and_levels(id, level, inner)?;
                }
                Ok(())
            }
            Type::Array { size, element } => {
                self.lower_size_level(&size, level);
                self.occurs_and_levels(id, level, &element)
            }
            Type::Record(fields) => {
                for ty in fields.values() {
                    self.occurs_and_levels(id, level, ty)?;
                }
                Ok(())
            }
            Type::Sum(constructors) => {
                for ty in constructors.values().flatten() {
                    self.occurs_and_levels(id, level, ty)?;
                }
                Ok(())
            }
            Type::Arrow { from, to, .. } => {
                self.occurs_and_levels(id, level, &from)?;
                self.occurs_and_levels(id, level, &to)
            }
            Type::Abstract { args, .. } => {
                for arg in args.iter() {
                    match arg {
                        TypeArgument::Type(ty) => self.occurs_and_levels(id, level, ty)?,
                        TypeArgument::Size(size) => self.lower_size_level(size, level),
                    }
                }
                Ok(())
            }
            Type::Prim(_) | Type::Param { .. } | Type::Error => Ok(()),
        })
    }

    fn lower_size_level(&mut self, size: &Size, level: u32) {
        if let Size::Flexible(id) = self.resolve_size(size) {
            if let SizeVarState::Unbound { level: current } = &mut self.sizes[id as usize] {
                *current = (*current).min(level);
            }
        }
    }

    /// Checks that `ty` contains no function type and no lifted type
    /// parameter, and makes its variables unlifted. Returns the offending part.
    pub fn require_order_zero(&mut self, ty: &Type) -> Result<(), Type> {
        spec::recursion::with_stack(|| match self.resolve(ty) {
            Type::Arrow { .. } => Err(self.resolve_deep(ty)),
            Type::Param {
                liftedness: Liftedness::Lifted,
                ..
            } => Err(self.resolve(ty)),
            Type::Var(id) => {
                let constraint_types =
                    if let TypeVarState::Unbound(var) = &mut self.types[id as usize] {
                        if var.liftedness == Liftedness::Lifted {
                            var.liftedness = Liftedness::Unlifted;
                        }
                        constraint_types(&var.constraint)
                    } else {
                        Vec::new()
                    };
                for inner in &constraint_types {
                    self.require_order_zero(inner)?;
                }
                Ok(())
            }
            Type::Array { element, .. } => self.require_order_zero(&element),
            Type::Record(fields) => {
                for ty in fields.values() {
                    self.require_order_zero(ty)?;
                }
                Ok(())
            }
            Type::Sum(constructors) => {
                for ty in constructors.values().flatten() {
                    self.require_order_zero(ty)?;
                }
                Ok(())
            }
            Type::Abstract {
                liftedness: Liftedness::Lifted,
                ..
            } => Err(self.resolve_deep(ty)),
            Type::Abstract { args, .. } => {
                for arg in args.iter() {
                    if let TypeArgument::Type(ty) = arg {
                        self.require_order_zero(ty)?;
                    }
                }
                Ok(())
            }
            Type::Prim(_) | Type::Param { .. } | Type::Error => Ok(()),
        })
    }

    /// Whether `ty` (resolved) is a function type.
    pub fn is_function(&self, ty: &Type) -> bool {
        matches!(self.resolve(ty), Type::Arrow { .. })
    }

    /// Adds a field requirement to the unbound variable `id` (for `e.f` when
    /// the type of `e` is not known yet) and returns the field's type.
    pub fn require_field(
        &mut self,
        id: TypeVarId,
        field: FieldName,
        level: u32,
        origin: Span,
    ) -> Result<Type, UnifyError> {
        let Some(var) = self.unbound(id).cloned() else {
            return Ok(Type::Error);
        };
        match var.constraint {
            Constraint::None => {
                let field_type =
                    self.fresh_type_var(level, var.liftedness, Constraint::None, origin);
                let mut fields = BTreeMap::new();
                fields.insert(field, field_type.clone());
                self.types[id as usize] = TypeVarState::Unbound(UnboundTypeVar {
                    constraint: Constraint::HasFields(fields),
                    origin,
                    ..var
                });
                Ok(field_type)
            }
            Constraint::HasFields(mut fields) => {
                if let Some(existing) = fields.get(&field) {
                    return Ok(existing.clone());
                }
                let field_type =
                    self.fresh_type_var(level, var.liftedness, Constraint::None, origin);
                fields.insert(field, field_type.clone());
                self.types[id as usize] = TypeVarState::Unbound(UnboundTypeVar {
                    constraint: Constraint::HasFields(fields),
                    ..var
                });
                Ok(field_type)
            }
            _ => Err(UnifyError::MissingField {
                field,
                record: Type::Var(id),
                origin,
            }),
        }
    }
}

/// `ty` with the rigid size `id` replaced by `size`.
fn rename_size(ty: &Type, id: u32, size: Size) -> Type {
    let mut substitution = RigidSubstitution::default();
    substitution.sizes.insert(id, size);
    substitution.apply(ty)
}

/// The types mentioned by a constraint.
fn constraint_types(constraint: &Constraint) -> Vec<Type> {
    match constraint {
        Constraint::HasFields(fields) => fields.values().cloned().collect(),
        Constraint::HasConstructors(constructors) => {
            constructors.values().flatten().cloned().collect()
        }
        Constraint::None | Constraint::Overloaded { .. } => Vec::new(),
    }
}

/// The type an overloaded variable takes when nothing decides it: `i32` if
/// allowed, else `f64`, else the first allowed type (as Futhark defaults).
pub fn default_prim(allowed: PrimSet) -> PrimType {
    if allowed.contains(PrimType::I32) {
        PrimType::I32
    } else if allowed.contains(PrimType::F64) {
        PrimType::F64
    } else {
        allowed.members().next().unwrap_or(PrimType::I32)
    }
}
