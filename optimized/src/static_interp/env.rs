//! The static environments of static interpretation (ICFP'18 §5.2–5.3, the
//! interpretation objects), made persistent with `imbl` so that extending a
//! scope, capturing it in a functor closure and opening a structure cost
//! O(log n) or O(1) rather than a copy.
//!
//! A value or type name denotes either a *global* (a declaration emitted
//! into the module-free output, [`SymbolId`]) or a *local* binder of the
//! expression being translated (pattern variables, parameters, type
//! parameters), which keeps its name. A module name denotes a
//! [`Module`]: a structure (its environment) or a functor closure, each
//! with the identity that memoised functor application uses as its key.
//! A module type denotes only its [`Shape`], the names it lets through:
//! ascription has no run-time effect, it only hides names.

use imbl::{HashMap, HashSet};
use spec::syntax::ast::{ModExp, ModParam, ModTypeExp, Name};
use std::rc::Rc;

/// A declaration of the output program (a `def`, `entry` or `type`),
/// numbered in emission order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolId(pub u32);

/// What a value or type name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entity {
    /// An output declaration.
    Global(SymbolId),
    /// A binder of the expression being translated; keeps its name.
    Local,
}

/// A static environment (ICFP'18's interpretation environment, with module
/// types reduced to shapes).
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub values: HashMap<Name, Entity>,
    pub types: HashMap<Name, Entity>,
    pub modules: HashMap<Name, Module>,
    pub module_types: HashMap<Name, Rc<Shape>>,
    /// The local value and type binders in scope (a global referred to
    /// here must not be named like one of them).
    pub local_values: HashSet<Name>,
    pub local_types: HashSet<Name>,
}

impl Env {
    /// `self` with every binding of `other` added (those of `other` win):
    /// what `open` does to a scope.
    pub fn opened(&self, other: &Env) -> Env {
        // Inserting `other`'s bindings one by one costs O(|other| log n);
        // a map union would walk the (large) scope instead.
        let mut opened = self.clone();
        for (name, entity) in &other.values {
            opened.values.insert(name.clone(), *entity);
        }
        for (name, entity) in &other.types {
            opened.types.insert(name.clone(), *entity);
        }
        for (name, module) in &other.modules {
            opened.modules.insert(name.clone(), module.clone());
        }
        for (name, shape) in &other.module_types {
            opened.module_types.insert(name.clone(), shape.clone());
        }
        opened
    }
}

/// Identity of a module value: every structure, closure, filtered view
/// and application result gets a new one. Memoised application is keyed
/// on (functor identity, argument identity).
pub type ModuleId = u64;

/// A module value with its identity.
#[derive(Clone, Debug)]
pub struct Module {
    pub id: ModuleId,
    pub kind: Rc<ModuleKind>,
}

/// The module values of ICFP'18 §5.2: structures and functor closures.
#[derive(Debug)]
pub enum ModuleKind {
    /// A structure: the environment of what it declares.
    Structure(Env),
    /// A functor closure (body and defining environment).
    Functor(FunctorClosure),
    /// A functor seen through a functor module type: applying it applies
    /// `functor`, then hides what `result` does not name.
    FilteredFunctor { functor: Module, result: Rc<Shape> },
}

/// A curried functor `\(p_position) … (p_last) -> body : signature`
/// waiting for its parameter number `position`, with the parameters before
/// it already bound in `env`.
#[derive(Debug)]
pub struct FunctorClosure {
    pub params: Rc<[ModParam]>,
    pub position: usize,
    pub signature: Option<Rc<ModTypeExp>>,
    pub body: Rc<ModExp>,
    pub env: Env,
}

/// The names a module type lets through.
#[derive(Debug, Default)]
pub enum Shape {
    /// `{ specs }`: the values, types and modules (with their shapes) it
    /// specifies.
    Structure {
        values: HashSet<Name>,
        types: HashSet<Name>,
        modules: HashMap<Name, Rc<Shape>>,
    },
    /// `(p: mt1) -> mt2`: a functor whose results have shape `result`.
    Functor { result: Rc<Shape> },
    /// A module type defined neither in the program nor in the prelude
    /// files (a checked program names none; `numeric` & co. are the
    /// prelude's): hides nothing.
    #[default]
    Transparent,
}
