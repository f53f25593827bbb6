//! The typing environment: what value and type names mean where they are used.
//!
//! Persistent maps (`imbl`): extending the environment for a `let` body or a
//! lambda is O(log n) and never disturbs the outer scope, so scoping is just
//! passing a different `Env` down.

use std::rc::Rc;

use imbl::HashMap;
use spec::source::Span;
use spec::syntax::ast::{Liftedness, Name};

use crate::types::{RigidName, RigidSubstitution, Scheme, Type};

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

/// A functor, checked once: its parameter's module type (whose abstract
/// types stand for whatever an argument has there) and the module its body
/// denotes in terms of those abstract types.
#[derive(Clone, Debug)]
pub struct Functor {
    pub parameter_signature: Signature,
    pub result: ModuleValue,
    /// For a functor *specification* (`(X: mt1) -> mt2`): the abstract types
    /// of `mt2`, instantiated anew whenever a functor is matched against it.
    /// Empty for a functor defined in the program.
    pub result_abstract_types: Vec<AbstractType>,
    /// For a functor defined in the program, taking its last parameter: the
    /// abstract types its body makes (by ascription or by applying a
    /// functor), which each application makes anew (generativity).
    pub generated_abstract_types: Vec<AbstractType>,
}

impl Functor {
    /// The module type its result must match, for a specification.
    pub fn result_signature(&self) -> Signature {
        match &self.result {
            ModuleValue::Functor(inner) => Signature {
                abstract_types: self.result_abstract_types.clone(),
                contents: Env::default(),
                poisoned: false,
                functor: Some(inner.clone()),
            },
            ModuleValue::Structure(contents) => Signature {
                abstract_types: self.result_abstract_types.clone(),
                contents: (**contents).clone(),
                poisoned: false,
                functor: None,
            },
            ModuleValue::Poisoned => Signature {
                abstract_types: Vec::new(),
                contents: Env::default(),
                poisoned: true,
                functor: None,
            },
        }
    }

    pub fn substitute(&self, substitution: &RigidSubstitution) -> Functor {
        Functor {
            parameter_signature: self.parameter_signature.substitute(substitution),
            result: self.result.substitute(substitution),
            result_abstract_types: self.result_abstract_types.clone(),
            generated_abstract_types: self.generated_abstract_types.clone(),
        }
    }
}

/// What a module name is bound to.
#[derive(Clone, Debug)]
pub enum ModuleValue {
    /// A structure: the bindings it declares.
    Structure(Rc<Env>),
    /// A parametric module.
    Functor(Rc<Functor>),
    /// A module whose definition was already reported as wrong (or uses a
    /// construct not supported yet): every name looked up in it has
    /// [`Type::Error`], silently, so its uses do not cascade.
    Poisoned,
}

/// An abstract type of a module type (`type t` without definition).
#[derive(Clone, Debug)]
pub struct AbstractType {
    /// Its identity: the [`Type::Param`] that stands for it in the contents.
    pub name: RigidName,
    pub liftedness: Liftedness,
    /// Where it is declared inside the module type: module names, then the
    /// type's name (`["inner", "t"]`).
    pub path: Vec<Name>,
    /// Its parameters (`type t 'a [n]`), by the rigid ids its specification
    /// uses; empty for a [`Type::Param`].
    pub params: Vec<crate::types::TypeFunctionParam>,
}

/// A module type: its abstract types and, for each specification, a binding
/// (values as schemes, types as abbreviations, abstract ones standing for
/// their [`Type::Param`], modules as structures of their specifications).
#[derive(Clone, Debug)]
pub struct Signature {
    pub abstract_types: Vec<AbstractType>,
    pub contents: Env,
    /// The module type's definition was reported as wrong: a module ascribed
    /// with it is poisoned rather than empty, so its uses stay silent.
    pub poisoned: bool,
    /// A functor module type `(X: mt1) -> mt2` (then `contents` and
    /// `abstract_types` are empty: the functor's own are inside it).
    pub functor: Option<Rc<Functor>>,
}

impl Signature {
    /// Every type in the signature with the rigid names of `substitution`
    /// replaced.
    pub fn substitute(&self, substitution: &RigidSubstitution) -> Signature {
        Signature {
            abstract_types: self.abstract_types.clone(),
            contents: self.contents.substitute(substitution),
            poisoned: self.poisoned,
            functor: self
                .functor
                .as_ref()
                .map(|functor| Rc::new(functor.substitute(substitution))),
        }
    }

    /// The module a parameter with this module type stands for.
    pub fn as_module(&self) -> ModuleValue {
        if self.poisoned {
            ModuleValue::Poisoned
        } else if let Some(functor) = &self.functor {
            ModuleValue::Functor(functor.clone())
        } else {
            ModuleValue::Structure(Rc::new(self.contents.clone()))
        }
    }
}

/// Value, type, module and module type names in scope (or declared by a
/// structure).
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub values: HashMap<Name, ValueBinding>,
    pub types: HashMap<Name, TypeBinding>,
    pub modules: HashMap<Name, ModuleValue>,
    pub module_types: HashMap<Name, Rc<Signature>>,
    /// A module that could not be checked was opened (or imported) into this
    /// scope: names not found may have come from it, so looking them up gives
    /// [`Type::Error`] silently instead of an "unknown name" cascade.
    pub opened_poisoned_module: bool,
}

impl ModuleValue {
    /// Every type in the module with the rigid names of `substitution`
    /// replaced.
    pub fn substitute(&self, substitution: &RigidSubstitution) -> ModuleValue {
        spec::recursion::with_stack(|| match self {
            ModuleValue::Structure(contents) => {
                ModuleValue::Structure(Rc::new(contents.substitute(substitution)))
            }
            ModuleValue::Functor(functor) => {
                ModuleValue::Functor(Rc::new(functor.substitute(substitution)))
            }
            ModuleValue::Poisoned => ModuleValue::Poisoned,
        })
    }
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

    pub fn with_module_type(&self, name: Name, signature: Rc<Signature>) -> Env {
        Env {
            module_types: self.module_types.update(name, signature),
            ..self.clone()
        }
    }

    /// `self` with every binding of `other` added, shadowing.
    pub fn extended_by(&self, other: &Env) -> Env {
        Env {
            values: other.values.clone().union(self.values.clone()),
            types: other.types.clone().union(self.types.clone()),
            modules: other.modules.clone().union(self.modules.clone()),
            module_types: other.module_types.clone().union(self.module_types.clone()),
            opened_poisoned_module: self.opened_poisoned_module || other.opened_poisoned_module,
        }
    }

    /// `self`, where names not found are silently of type [`Type::Error`].
    pub fn after_opening_poisoned_module(&self) -> Env {
        Env {
            opened_poisoned_module: true,
            ..self.clone()
        }
    }

    /// Every type in `self` with the rigid names of `substitution` replaced.
    pub fn substitute(&self, substitution: &RigidSubstitution) -> Env {
        if substitution.is_empty() {
            return self.clone();
        }
        Env {
            opened_poisoned_module: self.opened_poisoned_module,
            values: self
                .values
                .iter()
                .map(|(name, binding)| {
                    let binding = match binding {
                        ValueBinding::Variable { rigid, ty } => ValueBinding::Variable {
                            rigid: rigid.clone(),
                            ty: substitution.apply(ty),
                        },
                        ValueBinding::Polymorphic { scheme, defined_at } => {
                            ValueBinding::Polymorphic {
                                scheme: Rc::new(Scheme {
                                    ty: substitution.apply(&scheme.ty),
                                    ..(**scheme).clone()
                                }),
                                defined_at: *defined_at,
                            }
                        }
                    };
                    (name.clone(), binding)
                })
                .collect(),
            types: self
                .types
                .iter()
                .map(|(name, binding)| {
                    let binding = match binding {
                        TypeBinding::Abbreviation {
                            liftedness,
                            params,
                            body,
                        } => TypeBinding::Abbreviation {
                            liftedness: *liftedness,
                            params: params.clone(),
                            body: substitution.apply(body),
                        },
                        TypeBinding::Parameter(ty) => {
                            TypeBinding::Parameter(substitution.apply(ty))
                        }
                    };
                    (name.clone(), binding)
                })
                .collect(),
            modules: self
                .modules
                .iter()
                .map(|(name, module)| (name.clone(), module.substitute(substitution)))
                .collect(),
            module_types: self
                .module_types
                .iter()
                .map(|(name, signature)| {
                    (name.clone(), Rc::new(signature.substitute(substitution)))
                })
                .collect(),
        }
    }
}
