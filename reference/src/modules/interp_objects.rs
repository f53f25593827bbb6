//! Interpretation objects (ICFP'18 §5.2) and interpretation erasure (§5.3).
//!
//! 𝓥E maps value identifiers to a label and a type; 𝓔 = (TE, 𝓥E, 𝓜E, G);
//! 𝓜 is an interpretation environment or a functor closure Φ = (𝓔, F,
//! λmid → mexp); Ψ = ∃N.(𝓜, c) is an interpretation target object.

use super::core_interface::Core;
use super::kernel::KModExp;
use super::objects::{Env, FunSig, Label, MTEnv, MTy, Mod, TEnv, TyVar, TypeVarSet, VEnv};
use super::target::Code;
use imbl::OrdMap;
use spec::syntax::ast::Name;
use std::collections::BTreeSet;
use std::rc::Rc;

/// 𝓥E: value identifiers to `l : τ`.
pub type IVEnv<C> = OrdMap<Name, (Label, <C as Core>::Type)>;
/// 𝓜E: module identifiers to module interpretations.
pub type IMEnv<C> = OrdMap<Name, IMod<C>>;

/// An interpretation environment 𝓔 = (TE, 𝓥E, 𝓜E, G).
#[derive(Clone, Debug)]
pub struct IEnv<C: Core> {
    pub te: TEnv<C>,
    pub ve: IVEnv<C>,
    pub me: IMEnv<C>,
    pub g: MTEnv<C>,
}

impl<C: Core> Default for IEnv<C> {
    fn default() -> Self {
        IEnv {
            te: OrdMap::new(),
            ve: OrdMap::new(),
            me: OrdMap::new(),
            g: OrdMap::new(),
        }
    }
}

/// A module interpretation 𝓜: an environment or a functor closure.
#[derive(Clone, Debug)]
pub enum IMod<C: Core> {
    Env(IEnv<C>),
    Closure(Rc<Closure<C>>),
}

/// A functor closure Φ = (𝓔, F, λmid → mexp).
#[derive(Clone, Debug)]
pub struct Closure<C: Core> {
    /// Which λ evaluation made this closure (kept by filtering and ascription),
    /// so that rule 70 can find the arguments it was applied to.
    pub id: u32,
    pub env: IEnv<C>,
    pub funsig: FunSig<C>,
    pub param: Name,
    pub body: Rc<KModExp>,
}

/// A name: a type variable or a label (NSet = TSet ⊎ LSet).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NameItem {
    Type(TyVar),
    Label(Label),
}

/// N, a finite set of names.
pub type Names = BTreeSet<NameItem>;

/// Ψ = ∃N.(𝓜, c), an interpretation target object.
#[derive(Clone, Debug)]
pub struct ITarget<C: Core> {
    pub names: Names,
    pub module: IMod<C>,
    pub code: Code<C>,
}

impl<C: Core> IEnv<C> {
    /// 𝓔 + 𝓔'.
    pub fn plus(&self, other: &IEnv<C>) -> IEnv<C> {
        IEnv {
            te: other.te.clone().union(self.te.clone()),
            ve: other.ve.clone().union(self.ve.clone()),
            me: other.me.clone().union(self.me.clone()),
            g: other.g.clone().union(self.g.clone()),
        }
    }

    pub fn from_module(mid: &str, module: IMod<C>) -> IEnv<C> {
        let mut env = IEnv::default();
        env.me.insert(mid.to_string(), module);
        env
    }
}

/// names(𝓔): the labels of 𝓔 (type variables are kept fresh by the name
/// supply; see [`super::objects::fresh_tyvar`]).
pub fn labels_of<C: Core>(env: &IEnv<C>, out: &mut BTreeSet<Label>) {
    for (label, _) in env.ve.values() {
        out.insert(label.clone());
    }
    for module in env.me.values() {
        match module {
            IMod::Env(inner) => labels_of(inner, out),
            IMod::Closure(closure) => labels_of(&closure.env, out),
        }
    }
}

/// TSet ∩ N.
pub fn type_names(names: &Names) -> TypeVarSet {
    names
        .iter()
        .filter_map(|name| match name {
            NameItem::Type(t) => Some(t.clone()),
            NameItem::Label(_) => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Erasure (§5.3)

/// The erasure of 𝓔: (TE, 𝓥E‾, 𝓜E‾, G).
pub fn erase_env<C: Core>(env: &IEnv<C>) -> Env<C> {
    Env {
        te: env.te.clone(),
        ve: erase_ve::<C>(&env.ve),
        me: env
            .me
            .iter()
            .map(|(mid, module)| (mid.clone(), erase_mod(module)))
            .collect(),
        g: env.g.clone(),
    }
}

/// The erasure of 𝓥E: {vid ↦ τ}.
pub fn erase_ve<C: Core>(ve: &IVEnv<C>) -> VEnv<C> {
    ve.iter()
        .map(|(vid, (_, ty))| (vid.clone(), ty.clone()))
        .collect()
}

/// The erasure of 𝓜: an environment's erasure, or a closure's F.
pub fn erase_mod<C: Core>(module: &IMod<C>) -> Mod<C> {
    match module {
        IMod::Env(env) => Mod::Env(erase_env(env)),
        IMod::Closure(closure) => Mod::FunSig(closure.funsig.clone()),
    }
}

/// The erasure of ∃N.(𝓜, c): ∃(TSet ∩ N).𝓜‾.
pub fn erase_target<C: Core>(target: &ITarget<C>) -> MTy<C> {
    super::objects::prune_mty(MTy::new(
        type_names(&target.names),
        erase_mod(&target.module),
    ))
}

thread_local! {
    static APPLICATIONS: std::cell::RefCell<Vec<(u32, Box<dyn std::any::Any>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Notes that the closure `id` was applied to the filtered argument `argument`
/// (rule 58); rule 70 re-checks the closure on these arguments.
pub fn record_application<C: Core>(id: u32, argument: &IEnv<C>) {
    APPLICATIONS.with(|applications| {
        applications
            .borrow_mut()
            .push((id, Box::new(argument.clone())))
    });
}

/// The arguments the closure `id` was applied to, in order.
pub fn applications_of<C: Core>(id: u32) -> Vec<IEnv<C>> {
    APPLICATIONS.with(|applications| {
        applications
            .borrow()
            .iter()
            .filter(|(closure, _)| *closure == id)
            .filter_map(|(_, argument)| argument.downcast_ref::<IEnv<C>>().cloned())
            .collect()
    })
}

/// Forgets the recorded applications (one program, one record).
pub fn reset_applications() {
    APPLICATIONS.with(|applications| applications.borrow_mut().clear());
}
