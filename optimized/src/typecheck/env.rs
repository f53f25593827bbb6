//! The typing environment: what value and type names mean where they are used.
//!
//! Persistent maps (`imbl`): extending the environment for a `let` body or a
//! lambda is O(log n) and never disturbs the outer scope, so scoping is just
//! passing a different `Env` down.

use std::rc::Rc;

use imbl::HashMap;
use spec::source::Span;
use spec::syntax::ast::{Liftedness, Name};

use crate::types::{RigidName, Scheme, Type};

/// What a value name is bound to.
#[derive(Clone, Debug)]
pub enum ValueBinding {
    /// A monomorphic variable (lambda or `let` parameter). `rigid` is its
    /// identity as a size: `[n]` in a type names the `i64` variable `n`.
    Variable { rigid: RigidName, ty: Type },
    /// A polymorphic binding (`def`, `let f x = ...`, a built-in function).
    Polymorphic {
        scheme: Rc<Scheme>,
        /// Where it was defined; `None` for built-ins.
        defined_at: Option<Span>,
    },
}

/// A parameter of a type abbreviation.
#[derive(Clone, Debug)]
pub enum AbbreviationParam {
    Type {
        name: RigidName,
        liftedness: Liftedness,
    },
    Size(RigidName),
}

/// What a type name is bound to.
#[derive(Clone, Debug)]
pub enum TypeBinding {
    /// `type t params = body`: `body` mentions the parameters as
    /// [`Type::Param`] and [`crate::types::Size::Rigid`].
    Abbreviation {
        liftedness: Liftedness,
        params: Rc<Vec<AbbreviationParam>>,
        body: Type,
    },
    /// A type parameter `'a` of the definition being checked.
    Parameter(Type),
}

/// What a module name is bound to.
#[derive(Clone, Debug)]
pub enum ModuleValue {
    /// A structure: the bindings it declares.
    Structure(Rc<Env>),
    /// A module whose definition was already reported as wrong (or uses a
    /// construct not supported yet): every name looked up in it has
    /// [`Type::Error`], silently, so its uses do not cascade.
    Poisoned,
}

/// Value, type and module names in scope (or declared by a structure).
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub values: HashMap<Name, ValueBinding>,
    pub types: HashMap<Name, TypeBinding>,
    pub modules: HashMap<Name, ModuleValue>,
}

impl Env {
    pub fn with_value(&self, name: Name, binding: ValueBinding) -> Env {
        Env {
            values: self.values.update(name, binding),
            ..self.clone()
        }
    }

    pub fn with_type(&self, name: Name, binding: TypeBinding) -> Env {
        Env {
            types: self.types.update(name, binding),
            ..self.clone()
        }
    }

    pub fn with_module(&self, name: Name, module: ModuleValue) -> Env {
        Env {
            modules: self.modules.update(name, module),
            ..self.clone()
        }
    }

    /// `self` with every binding of `other` added, shadowing.
    pub fn extended_by(&self, other: &Env) -> Env {
        Env {
            values: other.values.clone().union(self.values.clone()),
            types: other.types.clone().union(self.types.clone()),
            modules: other.modules.clone().union(self.modules.clone()),
        }
    }
}
