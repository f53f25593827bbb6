//! Semantic objects of ICFP'18 Fig. 4: environments `E = (TE, VE, ME, G)`,
//! modules `M`, parameterised module types `F = ∀T.(E, Σ)`, module types
//! `Σ = ∃T.M`; free type variables, capture-avoiding substitution, and identity
//! up to α-renaming and removal of unused bound variables (§4).

use super::core_interface::{Core, CoreType};
use imbl::OrdMap;
use spec::syntax::ast::Name;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// A type variable `t ∈ TSet`. Identity is the number; the hint is the name it
/// is printed with.
#[derive(Clone, Debug)]
pub struct TyVar {
    pub id: u32,
    pub hint: Rc<str>,
}

impl PartialEq for TyVar {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for TyVar {}
impl PartialOrd for TyVar {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for TyVar {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id.cmp(&other.id)
    }
}

impl TyVar {
    /// Printed name: predefined type names (ids below [`FIRST_FRESH`]) print as
    /// their hint (`i32`), others as hint and number (`t7`).
    pub fn display(&self) -> String {
        if self.id < FIRST_FRESH {
            self.hint.to_string()
        } else {
            format!("{}{}", self.hint, self.id)
        }
    }
}

/// A label `l ∈ LSet` (§5.1).
#[derive(Clone, Debug)]
pub struct Label {
    pub id: u32,
    pub hint: Rc<str>,
}

impl PartialEq for Label {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for Label {}
impl PartialOrd for Label {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Label {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.id.cmp(&other.id)
    }
}

impl Label {
    pub fn display(&self) -> String {
        if self.id < FIRST_FRESH {
            self.hint.to_string()
        } else {
            format!("{}_{}", self.hint, self.id)
        }
    }
}

/// Names below this number are reserved for the predefined basis.
pub const FIRST_FRESH: u32 = 16;

thread_local! {
    static NEXT_NAME: Cell<u32> = const { Cell::new(FIRST_FRESH) };
}

/// Restarts the name supply (one program, one supply: printed names are then
/// deterministic).
pub fn reset_names() {
    reset_names_from(FIRST_FRESH);
}

/// Restarts the name supply at `first` (the names below belong to a basis
/// built from source, [`super::core_interface::Core::first_fresh_name`]).
pub fn reset_names_from(first: u32) {
    NEXT_NAME.with(|next| next.set(first));
}

/// The next name the supply would give.
pub fn next_fresh_name() -> u32 {
    NEXT_NAME.with(|next| next.get())
}

fn next_name() -> u32 {
    NEXT_NAME.with(|next| {
        let n = next.get();
        next.set(n + 1);
        n
    })
}

/// A type variable not used anywhere before (the name supply is the witness of
/// every "T chosen fresh" side condition).
pub fn fresh_tyvar(hint: &str) -> TyVar {
    TyVar {
        id: next_name(),
        hint: Rc::from(hint),
    }
}

/// A label not used anywhere before (`l ∉ names(𝓔)` in rule 48).
pub fn fresh_label(hint: &str) -> Label {
    Label {
        id: next_name(),
        hint: Rc::from(hint),
    }
}

/// A predefined type variable or label of the basis.
pub fn reserved_tyvar(id: u32, hint: &str) -> TyVar {
    TyVar {
        id,
        hint: Rc::from(hint),
    }
}

pub fn reserved_label(id: u32, hint: &str) -> Label {
    Label {
        id,
        hint: Rc::from(hint),
    }
}

/// `T`, a finite set of type variables.
pub type TypeVarSet = BTreeSet<TyVar>;

/// A substitution `S` from type variables to types (§4.2).
#[derive(Clone, Debug)]
pub struct Substitution<T> {
    pub map: BTreeMap<TyVar, T>,
}

impl<T> Default for Substitution<T> {
    fn default() -> Self {
        Substitution {
            map: BTreeMap::new(),
        }
    }
}

impl<T: CoreType> Substitution<T> {
    pub fn get(&self, t: &TyVar) -> Option<&T> {
        self.map.get(t)
    }

    /// `Supp S`: the variables not mapped to themselves.
    pub fn support(&self) -> TypeVarSet {
        self.map
            .iter()
            .filter(|(t, ty)| ty.as_variable().as_ref() != Some(*t))
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// The variables a binder must avoid: Supp S and the free variables of its
    /// range.
    fn variables_to_avoid(&self) -> TypeVarSet {
        let mut avoid = self.support();
        for ty in self.map.values() {
            avoid.extend(ty.type_variables());
        }
        avoid
    }

    /// S without the variables in `bound` (a substitution passing a binder).
    fn without(&self, bound: &TypeVarSet) -> Substitution<T> {
        Substitution {
            map: self
                .map
                .iter()
                .filter(|(t, _)| !bound.contains(t))
                .map(|(t, ty)| (t.clone(), ty.clone()))
                .collect(),
        }
    }

    /// S ∘ S'.
    pub fn compose(&self, then: &Substitution<T>) -> Substitution<T> {
        let mut map: BTreeMap<TyVar, T> = then
            .map
            .iter()
            .map(|(t, ty)| (t.clone(), ty.substitute(self)))
            .collect();
        for (t, ty) in &self.map {
            map.entry(t.clone()).or_insert_with(|| ty.clone());
        }
        Substitution { map }
    }
}

/// `TE ∈ TEnv`: type identifiers to types.
pub type TEnv<C> = OrdMap<Name, <C as Core>::Type>;
/// `VE ∈ VEnv`: value identifiers to types.
pub type VEnv<C> = OrdMap<Name, <C as Core>::Type>;
/// `ME ∈ MEnv = Mid →fin Mod`.
pub type MEnv<C> = OrdMap<Name, Mod<C>>;
/// `G ∈ MTEnv = MTid →fin MTy`.
pub type MTEnv<C> = OrdMap<Name, MTy<C>>;

/// An environment `E = (TE, VE, ME, G) ∈ Env`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Env<C: Core> {
    pub te: TEnv<C>,
    pub ve: VEnv<C>,
    pub me: MEnv<C>,
    pub g: MTEnv<C>,
}

impl<C: Core> Default for Env<C> {
    fn default() -> Self {
        Env {
            te: OrdMap::new(),
            ve: OrdMap::new(),
            me: OrdMap::new(),
            g: OrdMap::new(),
        }
    }
}

/// A module `M ∈ Mod = Env ∪ FunSig`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mod<C: Core> {
    Env(Env<C>),
    FunSig(FunSig<C>),
}

/// A parameterised module type `F = ∀T.(E, Σ) ∈ FunSig`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunSig<C: Core> {
    pub bound: TypeVarSet,
    pub param: Env<C>,
    pub result: Box<MTy<C>>,
}

/// A module type `Σ = ∃T.M ∈ MTy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MTy<C: Core> {
    pub bound: TypeVarSet,
    pub module: Box<Mod<C>>,
}

impl<C: Core> MTy<C> {
    pub fn new(bound: TypeVarSet, module: Mod<C>) -> MTy<C> {
        MTy {
            bound,
            module: Box::new(module),
        }
    }

    /// `∃∅.M`, written M.
    pub fn plain(module: Mod<C>) -> MTy<C> {
        MTy::new(TypeVarSet::new(), module)
    }
}

impl<C: Core> Env<C> {
    /// `E + E'` (modification, pointwise on the four maps).
    pub fn plus(&self, other: &Env<C>) -> Env<C> {
        Env {
            te: other.te.clone().union(self.te.clone()),
            ve: other.ve.clone().union(self.ve.clone()),
            me: other.me.clone().union(self.me.clone()),
            g: other.g.clone().union(self.g.clone()),
        }
    }

    pub fn from_te(tid: &str, ty: C::Type) -> Env<C> {
        let mut env = Env::default();
        env.te.insert(tid.to_string(), ty);
        env
    }

    pub fn from_ve(ve: VEnv<C>) -> Env<C> {
        Env {
            ve,
            ..Env::default()
        }
    }

    pub fn from_module(mid: &str, module: Mod<C>) -> Env<C> {
        let mut env = Env::default();
        env.me.insert(mid.to_string(), module);
        env
    }

    pub fn from_mty(mtid: &str, sigma: MTy<C>) -> Env<C> {
        let mut env = Env::default();
        env.g.insert(mtid.to_string(), sigma);
        env
    }
}

// ---------------------------------------------------------------------------
// Free type variables, tvs(X), in order of first occurrence.

pub fn tvs_env_in_order<C: Core>(env: &Env<C>, out: &mut Vec<TyVar>) {
    for ty in env.te.values() {
        ty.type_variables_in_order(out);
    }
    for ty in env.ve.values() {
        ty.type_variables_in_order(out);
    }
    for module in env.me.values() {
        tvs_mod_in_order(module, out);
    }
    for sigma in env.g.values() {
        tvs_mty_in_order(sigma, out);
    }
}

pub fn tvs_mod_in_order<C: Core>(module: &Mod<C>, out: &mut Vec<TyVar>) {
    match module {
        Mod::Env(env) => tvs_env_in_order(env, out),
        Mod::FunSig(funsig) => tvs_funsig_in_order(funsig, out),
    }
}

pub fn tvs_funsig_in_order<C: Core>(funsig: &FunSig<C>, out: &mut Vec<TyVar>) {
    let mut inner = Vec::new();
    tvs_env_in_order(&funsig.param, &mut inner);
    tvs_mty_in_order(&funsig.result, &mut inner);
    out.extend(inner.into_iter().filter(|t| !funsig.bound.contains(t)));
}

pub fn tvs_mty_in_order<C: Core>(sigma: &MTy<C>, out: &mut Vec<TyVar>) {
    let mut inner = Vec::new();
    tvs_mod_in_order(&sigma.module, &mut inner);
    out.extend(inner.into_iter().filter(|t| !sigma.bound.contains(t)));
}

/// tvs(E).
pub fn tvs_env<C: Core>(env: &Env<C>) -> TypeVarSet {
    let mut out = Vec::new();
    tvs_env_in_order(env, &mut out);
    out.into_iter().collect()
}

/// tvs(M).
pub fn tvs_mod<C: Core>(module: &Mod<C>) -> TypeVarSet {
    let mut out = Vec::new();
    tvs_mod_in_order(module, &mut out);
    out.into_iter().collect()
}

/// tvs(Σ).
pub fn tvs_mty<C: Core>(sigma: &MTy<C>) -> TypeVarSet {
    let mut out = Vec::new();
    tvs_mty_in_order(sigma, &mut out);
    out.into_iter().collect()
}

/// tvs(F).
pub fn tvs_funsig<C: Core>(funsig: &FunSig<C>) -> TypeVarSet {
    let mut out = Vec::new();
    tvs_funsig_in_order(funsig, &mut out);
    out.into_iter().collect()
}

// ---------------------------------------------------------------------------
// Substitution S(X), renaming bound variables that would capture.

pub fn subst_env<C: Core>(s: &Substitution<C::Type>, env: &Env<C>) -> Env<C> {
    if s.map.is_empty() {
        return env.clone();
    }
    Env {
        te: env
            .te
            .iter()
            .map(|(k, t)| (k.clone(), t.substitute(s)))
            .collect(),
        ve: env
            .ve
            .iter()
            .map(|(k, t)| (k.clone(), t.substitute(s)))
            .collect(),
        me: env
            .me
            .iter()
            .map(|(k, m)| (k.clone(), subst_mod(s, m)))
            .collect(),
        g: env
            .g
            .iter()
            .map(|(k, sigma)| (k.clone(), subst_mty(s, sigma)))
            .collect(),
    }
}

pub fn subst_mod<C: Core>(s: &Substitution<C::Type>, module: &Mod<C>) -> Mod<C> {
    match module {
        Mod::Env(env) => Mod::Env(subst_env(s, env)),
        Mod::FunSig(funsig) => Mod::FunSig(subst_funsig(s, funsig)),
    }
}

/// Renames the variables of `bound` that `s` would capture; returns the new
/// binder and the renaming to apply to the body first.
fn avoid_capture<C: Core>(
    s: &Substitution<C::Type>,
    bound: &TypeVarSet,
) -> (TypeVarSet, Substitution<C::Type>) {
    let avoid = s.variables_to_avoid();
    let mut renaming = Substitution::default();
    let mut new_bound = TypeVarSet::new();
    for t in bound {
        if avoid.contains(t) {
            let fresh = fresh_tyvar(&t.hint);
            renaming
                .map
                .insert(t.clone(), C::Type::variable(fresh.clone()));
            new_bound.insert(fresh);
        } else {
            new_bound.insert(t.clone());
        }
    }
    (new_bound, renaming)
}

pub fn subst_funsig<C: Core>(s: &Substitution<C::Type>, funsig: &FunSig<C>) -> FunSig<C> {
    let s = s.without(&funsig.bound);
    if s.map.is_empty() {
        return funsig.clone();
    }
    let (bound, renaming) = avoid_capture::<C>(&s, &funsig.bound);
    let param = subst_env(&s, &subst_env(&renaming, &funsig.param));
    let result = subst_mty(&s, &subst_mty(&renaming, &funsig.result));
    FunSig {
        bound,
        param,
        result: Box::new(result),
    }
}

pub fn subst_mty<C: Core>(s: &Substitution<C::Type>, sigma: &MTy<C>) -> MTy<C> {
    let s = s.without(&sigma.bound);
    if s.map.is_empty() {
        return sigma.clone();
    }
    let (bound, renaming) = avoid_capture::<C>(&s, &sigma.bound);
    let module = subst_mod(&s, &subst_mod(&renaming, &sigma.module));
    MTy::new(bound, module)
}

/// A renaming of `bound` to fresh variables, as a substitution.
pub fn fresh_renaming<C: Core>(bound: &TypeVarSet) -> (TypeVarSet, Substitution<C::Type>) {
    let mut renaming = Substitution::default();
    let mut new_bound = TypeVarSet::new();
    for t in bound {
        let fresh = fresh_tyvar(&t.hint);
        renaming
            .map
            .insert(t.clone(), C::Type::variable(fresh.clone()));
        new_bound.insert(fresh);
    }
    (new_bound, renaming)
}

/// Σ with its bound variables renamed fresh (α-renaming, so that side
/// conditions such as `T ∩ tvs(E) = ∅` hold by construction).
pub fn freshen_mty<C: Core>(sigma: &MTy<C>) -> MTy<C> {
    let (bound, renaming) = fresh_renaming::<C>(&sigma.bound);
    MTy::new(bound, subst_mod(&renaming, &sigma.module))
}

/// F with its bound variables renamed fresh.
pub fn freshen_funsig<C: Core>(funsig: &FunSig<C>) -> FunSig<C> {
    let (bound, renaming) = fresh_renaming::<C>(&funsig.bound);
    FunSig {
        bound,
        param: subst_env(&renaming, &funsig.param),
        result: Box::new(subst_mty(&renaming, &funsig.result)),
    }
}

/// ∃T.M with the variables of T that do not occur in M removed (objects are
/// identical up to removal of unused bound variables, §4).
pub fn prune_mty<C: Core>(sigma: MTy<C>) -> MTy<C> {
    let free = tvs_mod(&sigma.module);
    let bound = sigma
        .bound
        .iter()
        .filter(|t| free.contains(t))
        .cloned()
        .collect();
    MTy {
        bound,
        module: sigma.module,
    }
}

// ---------------------------------------------------------------------------
// Identity up to α-renaming: a canonical form that renames every binder's
// variables, in order of first occurrence, to reserved canonical numbers and
// drops unused ones. Two objects are α-equivalent iff their canonical forms are
// equal.

const CANONICAL_BASE: u32 = 1 << 30;

struct Canonicaliser {
    next: u32,
}

impl Canonicaliser {
    fn rename_binder<C: Core>(
        &mut self,
        bound: &TypeVarSet,
        occurrences: Vec<TyVar>,
    ) -> (TypeVarSet, Substitution<C::Type>) {
        let mut renaming = Substitution::default();
        let mut new_bound = TypeVarSet::new();
        for t in occurrences {
            if bound.contains(&t) && !renaming.map.contains_key(&t) {
                let canonical = TyVar {
                    id: CANONICAL_BASE + self.next,
                    hint: Rc::from("α"),
                };
                self.next += 1;
                renaming
                    .map
                    .insert(t.clone(), C::Type::variable(canonical.clone()));
                new_bound.insert(canonical);
            }
        }
        (new_bound, renaming)
    }

    fn env<C: Core>(&mut self, env: &Env<C>) -> Env<C> {
        Env {
            te: env.te.clone(),
            ve: env.ve.clone(),
            me: env
                .me
                .iter()
                .map(|(k, m)| (k.clone(), self.module(m)))
                .collect(),
            g: env
                .g
                .iter()
                .map(|(k, sigma)| (k.clone(), self.mty(sigma)))
                .collect(),
        }
    }

    fn module<C: Core>(&mut self, module: &Mod<C>) -> Mod<C> {
        match module {
            Mod::Env(env) => Mod::Env(self.env(env)),
            Mod::FunSig(funsig) => Mod::FunSig(self.funsig(funsig)),
        }
    }

    fn funsig<C: Core>(&mut self, funsig: &FunSig<C>) -> FunSig<C> {
        // Freshen first so that inner binders never reuse an outer variable.
        let funsig = freshen_funsig(funsig);
        let mut occurrences = Vec::new();
        tvs_env_in_order(&funsig.param, &mut occurrences);
        tvs_mty_in_order(&funsig.result, &mut occurrences);
        let (bound, renaming) = self.rename_binder::<C>(&funsig.bound, occurrences);
        let param = self.env(&subst_env(&renaming, &funsig.param));
        let result = self.mty(&subst_mty(&renaming, &funsig.result));
        FunSig {
            bound,
            param,
            result: Box::new(result),
        }
    }

    fn mty<C: Core>(&mut self, sigma: &MTy<C>) -> MTy<C> {
        let sigma = freshen_mty(sigma);
        let mut occurrences = Vec::new();
        tvs_mod_in_order(&sigma.module, &mut occurrences);
        let (bound, renaming) = self.rename_binder::<C>(&sigma.bound, occurrences);
        let module = self.module(&subst_mod(&renaming, &sigma.module));
        MTy::new(bound, module)
    }
}

/// The α-normal form of Σ.
pub fn canonical_mty<C: Core>(sigma: &MTy<C>) -> MTy<C> {
    Canonicaliser { next: 0 }.mty(sigma)
}

/// The α-normal form of F.
pub fn canonical_funsig<C: Core>(funsig: &FunSig<C>) -> FunSig<C> {
    Canonicaliser { next: 0 }.funsig(funsig)
}

/// Σ₁ = Σ₂ up to α-renaming and removal of unused bound variables.
pub fn alpha_equivalent_mty<C: Core>(a: &MTy<C>, b: &MTy<C>) -> bool {
    canonical_mty(a) == canonical_mty(b)
}

/// F₁ = F₂ up to α-renaming and removal of unused bound variables.
pub fn alpha_equivalent_funsig<C: Core>(a: &FunSig<C>, b: &FunSig<C>) -> bool {
    canonical_funsig(a) == canonical_funsig(b)
}
