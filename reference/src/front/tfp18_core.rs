//! The richer core instance of the module calculus: the TFP'18 core
//! ([`crate::core`]) behind [`Core`] and [`CoreType`], so that whole
//! module-level programs run (parse → elaborate → static interpretation →
//! core program → [`super::pipeline::compile_core`]). It is front end, not
//! a transcription: it joins the calculus ([`crate::modules`], generic over
//! its core) to the TFP'18 core through the surface elaborator; its two
//! marked extensions of the calculus are listed in `proofs-notes/rules.toml`.
//!
//! * A semantic type τ is a core type scheme: written type parameters of a
//!   polymorphic `def` (core `Param`s) over a core type in which a module
//!   type variable t is the core `Param` named `hint#id` (never a name the
//!   surface can write). Guesses are core `Meta`s.
//! * Core declarations are elaborated by the module-free front end's
//!   elaborator ([`super::from_surface::Elaborator`]) after the
//!   prelude, with the module environment's values and types bound by their
//!   paths (`M.x`): one elaborator for both front ends.
//! * A target expression is the core declaration whose free variables are
//!   labels (named by [`Label::display`]); the code of a program becomes the
//!   core program of the prelude followed by one declaration per `val l = ex`,
//!   and the program's `main`/`entry` values become entry points.

use super::entry_points::entry_point;
use super::from_surface::{parse_prelude, Elaborator, NUMERIC_PRELUDE};
use crate::core::syntax::{PrimType, Program, Type as CoreTy, TypeParam, ValueDec};
use crate::core::typing::{Scheme, TypeEnv, Typing};
use crate::core::value::type_name;
use crate::modules::core_interface::{CompiledDec, Core, CoreType};
use crate::modules::error::Failure;
use crate::modules::interp_objects::{IEnv, IMod};
use crate::modules::objects::{fresh_label, Env, Label, Mod, Substitution, TyVar, VEnv};
use crate::modules::target::Context;
use imbl::OrdMap;
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, Span};
use spec::syntax::ast::{self, Liftedness, Name, TypeExp, ValueBind, ValueBindKind};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The TFP'18 core as a core language of the module calculus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tfp18Core;

/// τ: a core type scheme. Schemes are equal up to renaming their
/// parameters (positionally).
#[derive(Clone, Debug)]
pub struct Type {
    pub params: Vec<TypeParam>,
    pub ty: CoreTy,
}

impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        renamed_params(other, &self.params).is_some_and(|ty| ty == self.ty)
    }
}

impl Eq for Type {}

/// A target expression: a core declaration whose free variables are labels.
#[derive(Clone, Debug)]
pub struct TargetExp {
    pub dec: ValueDec,
    /// The types its free labels had in 𝓔 when it was compiled: matched
    /// against Γ to find the types its module type variables stand for (the
    /// witness of rule 39's guessed λ types, for a core whose λs are typed).
    pub label_types: Vec<(Label, Type)>,
}

const CORE_NAME: &str = "the TFP'18 core";

fn mono(ty: CoreTy) -> Type {
    Type {
        params: Vec::new(),
        ty,
    }
}

fn tyvar_name(t: &TyVar) -> Name {
    format!("{}#{}", t.hint, t.id)
}

fn tyvar_of(name: &str) -> Option<TyVar> {
    let (hint, id) = name.rsplit_once('#')?;
    Some(TyVar {
        id: id.parse().ok()?,
        hint: Rc::from(hint),
    })
}

/// Whether a type mentions a guess (`Meta`) not yet solved.
fn has_guess(ty: &CoreTy) -> bool {
    let mut found = false;
    ty.map_types(&mut |t| {
        if matches!(t, CoreTy::Meta(_)) {
            found = true;
        }
        None
    });
    found
}

fn tyvar_of_type(ty: &CoreTy) -> Option<TyVar> {
    match ty {
        CoreTy::Param(name, _) => tyvar_of(name),
        _ => None,
    }
}

fn core_vars(ty: &CoreTy, out: &mut Vec<TyVar>) {
    ty.map_types(&mut |t| {
        if let CoreTy::Param(name, _) = t {
            if let Some(v) = tyvar_of(name) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        None
    });
}

fn core_match(
    pattern: &CoreTy,
    target: &CoreTy,
    flexible: &BTreeSet<TyVar>,
    s: &mut Substitution<Type>,
) -> bool {
    match (pattern, target) {
        (CoreTy::Param(name, _), _) if tyvar_of(name).is_some_and(|v| flexible.contains(&v)) => {
            let v = tyvar_of(name).expect("checked");
            let found = mono(target.clone());
            match s.map.get(&v) {
                Some(bound) => *bound == found,
                None => {
                    s.map.insert(v, found);
                    true
                }
            }
        }
        (CoreTy::Arrow(a1, b1), CoreTy::Arrow(a2, b2)) => {
            core_match(a1, a2, flexible, s) && core_match(b1, b2, flexible, s)
        }
        (CoreTy::Array(a), CoreTy::Array(b)) => core_match(a, b, flexible, s),
        (CoreTy::Record(a), CoreTy::Record(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((l1, t1), (l2, t2))| l1 == l2 && core_match(t1, t2, flexible, s))
        }
        (CoreTy::Sum(a), CoreTy::Sum(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|((c1, t1), (c2, t2))| {
                    c1 == c2
                        && t1.len() == t2.len()
                        && t1
                            .iter()
                            .zip(t2)
                            .all(|(x, y)| core_match(x, y, flexible, s))
                })
        }
        _ => pattern == target,
    }
}

impl CoreType for Type {
    fn variable(t: TyVar) -> Type {
        mono(CoreTy::Param(tyvar_name(&t), Liftedness::Lifted))
    }

    fn as_variable(&self) -> Option<TyVar> {
        match &self.ty {
            CoreTy::Param(name, _) if self.params.is_empty() => tyvar_of(name),
            _ => None,
        }
    }

    fn type_variables_in_order(&self, out: &mut Vec<TyVar>) {
        core_vars(&self.ty, out)
    }

    fn substitute(&self, substitution: &Substitution<Type>) -> Type {
        let ty = self.ty.map_types(&mut |t| match t {
            CoreTy::Param(name, _) => {
                let v = tyvar_of(name)?;
                // The images of a substitution are monomorphic (types of
                // type declarations).
                substitution.map.get(&v).map(|image| image.ty.clone())
            }
            _ => None,
        });
        Type {
            params: self.params.clone(),
            ty,
        }
    }

    fn match_into(
        pattern: &Type,
        target: &Type,
        flexible: &BTreeSet<TyVar>,
        substitution: &mut Substitution<Type>,
    ) -> bool {
        // Type schemes match up to renaming their parameters (positionally:
        // sound, and complete when both list them in the same order).
        let Some(target_ty) = renamed_params(target, &pattern.params) else {
            return false;
        };
        core_match(&pattern.ty, &target_ty, flexible, substitution)
    }

    fn display(&self) -> String {
        let params: String = self
            .params
            .iter()
            .map(|p| format!("'{} ", p.name))
            .collect();
        format!("{params}{}", type_name(&self.ty))
    }
}

/// `scheme`'s type with its parameters renamed to `params` (same count and
/// liftedness), or `None`.
fn renamed_params(scheme: &Type, params: &[TypeParam]) -> Option<CoreTy> {
    if scheme.params.len() != params.len()
        || scheme
            .params
            .iter()
            .zip(params)
            .any(|(a, b)| a.liftedness != b.liftedness)
    {
        return None;
    }
    let renaming: BTreeMap<&str, &TypeParam> = scheme
        .params
        .iter()
        .map(|p| p.name.as_str())
        .zip(params)
        .collect();
    Some(scheme.ty.map_types(&mut |t| {
        match t {
            CoreTy::Param(name, _) => renaming
                .get(name.as_str())
                .map(|p| CoreTy::Param(p.name.clone(), p.liftedness)),
            _ => None,
        }
    }))
}

/// Solved guesses (core `Meta`s).
#[derive(Default)]
pub struct Guesses {
    solved: BTreeMap<u32, CoreTy>,
    next: u32,
}

impl Guesses {
    fn resolve(&self, t: &CoreTy) -> CoreTy {
        t.map_types(&mut |t| match t {
            CoreTy::Meta(m) => self.solved.get(m).map(|s| self.resolve(s)),
            _ => None,
        })
    }

    fn unify(&mut self, a: &CoreTy, b: &CoreTy) -> bool {
        let a = self.resolve(a);
        let b = self.resolve(b);
        match (&a, &b) {
            (CoreTy::Meta(m), CoreTy::Meta(n)) if m == n => true,
            (CoreTy::Meta(m), t) | (t, CoreTy::Meta(m)) => {
                let mut occurs = false;
                t.map_types(&mut |u| {
                    if *u == CoreTy::Meta(*m) {
                        occurs = true;
                    }
                    None
                });
                if occurs {
                    return false;
                }
                self.solved.insert(*m, t.clone());
                true
            }
            (CoreTy::Arrow(a1, b1), CoreTy::Arrow(a2, b2)) => {
                self.unify(a1, a2) && self.unify(b1, b2)
            }
            (CoreTy::Array(x), CoreTy::Array(y)) => self.unify(x, y),
            (CoreTy::Record(x), CoreTy::Record(y)) => {
                x.len() == y.len()
                    && x.keys().eq(y.keys())
                    && x.values().zip(y.values()).all(|(s, t)| self.unify(s, t))
            }
            (CoreTy::Sum(x), CoreTy::Sum(y)) => {
                x.len() == y.len()
                    && x.keys().eq(y.keys())
                    && x.values().zip(y.values()).all(|(s, t)| {
                        s.len() == t.len() && s.iter().zip(t).all(|(p, q)| self.unify(p, q))
                    })
            }
            _ => a == b,
        }
    }
}

/// The prelude files elaborated once per thread and shared by every
/// program, under ids reserved for them (`spec::source::register_builtin_file`):
/// their spans, in the errors of prelude code, name the prelude file in
/// every program's source map.
pub(crate) const NUMERIC_PRELUDE_FILE: FileId = FileId(u32::MAX - 200);
pub(crate) const TOPLEVEL_PRELUDE_FILE: FileId = FileId(u32::MAX - 201);

thread_local! {
    static PRELUDE: RefCell<Option<Elaborator>> = const { RefCell::new(None) };
    static NUMERIC_BASIS: RefCell<Option<Rc<NumericBasis>>> = const { RefCell::new(None) };
    static BUILDING_BASIS: Cell<bool> = const { Cell::new(false) };
    /// Whether the core typing of target code (rule 42, through
    /// [`instantiate`]) has TFP'18 §7's `Or` option on: set by
    /// [`program_to_core_with`] for one program, off while the basis is built.
    static OR_CONDITIONALS: Cell<bool> = const { Cell::new(false) };
    /// What the abstract types of the sealings so far stand for
    /// ([`Core::record_sealing`]); every sealing's T is fresh.
    static SEALED: RefCell<BTreeMap<TyVar, CoreTy>> = const { RefCell::new(BTreeMap::new()) };
}

/// `ty` with the sealed abstract types ([`SEALED`]) it mentions replaced by
/// what they stand for, through chains of sealings (bounded: each step
/// replaces a variable by the type matching found for it).
fn unseal(ty: &CoreTy) -> CoreTy {
    SEALED.with(|sealed| {
        let sealed = sealed.borrow();
        let mut current = ty.clone();
        for _ in 0..64 {
            let mut changed = false;
            let next = current.map_types(&mut |t| match t {
                CoreTy::Param(name, _) => {
                    let image = sealed.get(&tyvar_of(name)?)?;
                    changed = true;
                    Some(image.clone())
                }
                _ => None,
            });
            if !changed {
                break;
            }
            current = next;
        }
        current
    })
}

/// The initial basis of this core (SPEC_NOTES ICFP18-18): the numeric
/// prelude (`spec/prelude/numeric.fut`) elaborated, statically interpreted
/// and checked (Proposition 6.1) once per thread. Its E', 𝓔' and Γ' are E₀,
/// 𝓔₀ and Γ₀ of every program; its target code, as core declarations, comes
/// before every program's (the declarations a program reaches).
struct NumericBasis {
    env: Env<Tfp18Core>,
    ienv: IEnv<Tfp18Core>,
    context: Context<Tfp18Core>,
    decs: Vec<ValueDec>,
    /// The first name after the basis's labels and type variables.
    first_fresh: u32,
    /// The elaborator after the prelude with E₀ bound by path, and with 𝓔₀
    /// bound (values to their labels): every declaration starts from one.
    elaborator_for_env: Elaborator,
    elaborator_for_ienv: Elaborator,
    /// Γ of the top-level prelude and of Γ₀, for the target typing.
    type_env: TypeEnv,
}

/// The numeric basis, built on the first call of a thread; `None` while it
/// is being built (the prelude itself starts from the empty basis).
fn numeric_basis() -> Result<Option<Rc<NumericBasis>>, Failure> {
    if BUILDING_BASIS.with(Cell::get) {
        return Ok(None);
    }
    if let Some(basis) = NUMERIC_BASIS.with(|cell| cell.borrow().clone()) {
        return Ok(Some(basis));
    }
    BUILDING_BASIS.with(|building| building.set(true));
    let or_conditionals = OR_CONDITIONALS.with(|flag| flag.replace(false));
    let built = build_numeric_basis();
    OR_CONDITIONALS.with(|flag| flag.set(or_conditionals));
    BUILDING_BASIS.with(|building| building.set(false));
    let basis = Rc::new(built?);
    NUMERIC_BASIS.with(|cell| *cell.borrow_mut() = Some(basis.clone()));
    Ok(Some(basis))
}

fn build_numeric_basis() -> Result<NumericBasis, Failure> {
    let file = NUMERIC_PRELUDE_FILE;
    spec::source::register_builtin_file(file, "<prelude>/numeric.fut", NUMERIC_PRELUDE);
    let program =
        spec::syntax::parse_program(file, NUMERIC_PRELUDE).map_err(|d| diagnostic_failure(&d))?;
    let checked = crate::modules::check_program::<Tfp18Core>(&program)?;
    let first_fresh = crate::modules::objects::next_fresh_name();
    let basis_failure = |why: String| {
        Failure::new(
            CORE_NAME,
            "the numeric prelude is not a basis",
            why,
            Span::default(),
        )
    };
    if let Err(why) = &checked.verdict {
        return Err(basis_failure(why.clone()));
    }
    let Some(target) = checked.interpretation.as_ref() else {
        return Err(basis_failure("no interpretation".to_string()));
    };
    let IMod::Env(ienv) = &target.module else {
        return Err(basis_failure("it interprets to a functor".to_string()));
    };
    let mut context = OrdMap::new();
    let decs = code_to_decs(&target.code, &mut context).map_err(|d| basis_failure(d.message))?;
    let mut elaborator_for_env = prelude_elaborator()?;
    bind_env(&mut elaborator_for_env, &checked.env, &mut Vec::new(), None);
    let mut elaborator_for_ienv = prelude_elaborator()?;
    bind_ienv(&mut elaborator_for_ienv, ienv, &mut Vec::new(), None);
    let mut type_env = prelude_type_env()?;
    for (label, ty) in &context {
        type_env.insert(
            label_name(label),
            Scheme {
                params: ty.params.clone(),
                ty: ty.ty.clone(),
            },
        );
    }
    Ok(NumericBasis {
        env: checked.env.clone(),
        ienv: ienv.clone(),
        context,
        decs,
        first_fresh,
        elaborator_for_env,
        elaborator_for_ienv,
        type_env,
    })
}

/// Whether two module environments are the same object (the basis's module
/// reached unchanged): then its bindings are already in the elaborator.
fn same_env(a: &Env<Tfp18Core>, b: &Env<Tfp18Core>) -> bool {
    a.te.ptr_eq(&b.te) && a.ve.ptr_eq(&b.ve) && a.me.ptr_eq(&b.me) && a.g.ptr_eq(&b.g)
}

fn same_ienv(a: &IEnv<Tfp18Core>, b: &IEnv<Tfp18Core>) -> bool {
    a.te.ptr_eq(&b.te) && a.ve.ptr_eq(&b.ve) && a.me.ptr_eq(&b.me) && a.g.ptr_eq(&b.g)
}

/// The target code `code` as core declarations, each with the types its
/// abstract types stand for (the witness found by matching against Γ, as in
/// the target typing); `context` (Γ) is extended with their labels.
fn code_to_decs(
    code: &crate::modules::target::Code<Tfp18Core>,
    context: &mut Context<Tfp18Core>,
) -> Result<Vec<ValueDec>, Diagnostic> {
    let mut guesses = Guesses::default();
    let mut decs = Vec::new();
    for (label, exp) in code.statements() {
        let dec = instantiate(context, exp, &Substitution::default(), &mut guesses)
            .map_err(|f| f.to_diagnostic())?;
        context.insert(label.clone(), scheme_of(&dec));
        decs.push(dec);
    }
    Ok(decs)
}

/// The declarations of the basis that `decs` reach (through their free
/// variables, transitively), in the basis's order.
fn reached_basis_decs(basis: &[ValueDec], decs: &[ValueDec]) -> Vec<ValueDec> {
    let by_name: BTreeMap<&str, &ValueDec> = basis.iter().map(|d| (d.name.as_str(), d)).collect();
    let mut reached = BTreeSet::new();
    let mut pending: Vec<Name> = decs
        .iter()
        .flat_map(|d| crate::core::syntax::free_vars(&d.value))
        .collect();
    while let Some(name) = pending.pop() {
        if let Some(dec) = by_name.get(name.as_str()) {
            if reached.insert(name) {
                pending.extend(crate::core::syntax::free_vars(&dec.value));
            }
        }
    }
    basis
        .iter()
        .filter(|d| reached.contains(&d.name))
        .cloned()
        .collect()
}

/// The elaborator for a core declaration in E: after the prelude, with E
/// bound by path (E₀ from the basis's cached elaborator); with the numeric
/// prelude's intrinsics bound while the basis is built.
fn elaborator_for_env(env: &Env<Tfp18Core>) -> Result<Elaborator, Failure> {
    let basis = numeric_basis()?;
    let mut elaborator = match &basis {
        Some(basis) => basis.elaborator_for_env.clone(),
        None => {
            let mut elaborator = prelude_elaborator()?;
            elaborator.allow_prelude_intrinsics();
            elaborator
        }
    };
    bind_env(
        &mut elaborator,
        env,
        &mut Vec::new(),
        basis.as_ref().map(|b| &b.env),
    );
    Ok(elaborator)
}

/// As [`elaborator_for_env`], for an interpretation environment 𝓔.
fn elaborator_for_ienv(env: &IEnv<Tfp18Core>) -> Result<Elaborator, Failure> {
    let basis = numeric_basis()?;
    let mut elaborator = match &basis {
        Some(basis) => basis.elaborator_for_ienv.clone(),
        None => {
            let mut elaborator = prelude_elaborator()?;
            elaborator.allow_prelude_intrinsics();
            elaborator
        }
    };
    bind_ienv(
        &mut elaborator,
        env,
        &mut Vec::new(),
        basis.as_ref().map(|b| &b.ienv),
    );
    Ok(elaborator)
}

/// The elaborator after the prelude (elaborated once per thread).
fn prelude_elaborator() -> Result<Elaborator, Failure> {
    PRELUDE.with(|cell| {
        if let Some(e) = cell.borrow().as_ref() {
            return Ok(e.clone());
        }
        let file = TOPLEVEL_PRELUDE_FILE;
        spec::source::register_builtin_file(
            file,
            "<prelude>/toplevel.fut",
            super::from_surface::PRELUDE,
        );
        let prelude = parse_prelude(file).map_err(|d| diagnostic_failure(&d))?;
        let e = Elaborator::with_prelude(&prelude).map_err(|d| diagnostic_failure(&d))?;
        *cell.borrow_mut() = Some(e.clone());
        Ok(e)
    })
}

fn diagnostic_failure(d: &Diagnostic) -> Failure {
    let span = d
        .labels
        .iter()
        .find(|l| l.primary)
        .map(|l| l.span)
        .unwrap_or_default();
    Failure::new(CORE_NAME, d.message.clone(), String::new(), span)
}

/// Binds the values and types of an elaboration environment E by path, into
/// an elaborator in which `basis` (E₀) is already bound: a top-level module
/// that is E₀'s own is skipped, one that shadows E₀'s replaces it.
fn bind_env(
    elaborator: &mut Elaborator,
    env: &Env<Tfp18Core>,
    path: &mut Vec<Name>,
    basis: Option<&Env<Tfp18Core>>,
) {
    for (name, ty) in &env.te {
        elaborator.bind_type(path, name, ty.ty.clone());
    }
    for (name, ty) in &env.ve {
        let core = if path.is_empty() {
            name.clone()
        } else {
            format!("{}.{name}", path.join("."))
        };
        elaborator.bind_value(path, name, core, ty.params.clone(), ty.ty.clone());
    }
    for (name, module) in &env.me {
        if let Some(Mod::Env(own)) = basis.and_then(|b| b.me.get(name)) {
            if matches!(module, Mod::Env(inner) if same_env(inner, own)) {
                continue;
            }
            elaborator.forget_module(name);
        }
        if let Mod::Env(inner) = module {
            path.push(name.clone());
            bind_env(elaborator, inner, path, None);
            path.pop();
        }
    }
}

/// Binds the values (to their labels) and types of an interpretation
/// environment 𝓔 by path, into an elaborator in which `basis` (𝓔₀) is
/// already bound (as [`bind_env`]).
fn bind_ienv(
    elaborator: &mut Elaborator,
    env: &IEnv<Tfp18Core>,
    path: &mut Vec<Name>,
    basis: Option<&IEnv<Tfp18Core>>,
) {
    for (name, ty) in &env.te {
        elaborator.bind_type(path, name, ty.ty.clone());
    }
    for (name, (label, ty)) in &env.ve {
        elaborator.bind_value(
            path,
            name,
            label_name(label),
            ty.params.clone(),
            ty.ty.clone(),
        );
    }
    for (name, module) in &env.me {
        if let Some(IMod::Env(own)) = basis.and_then(|b| b.me.get(name)) {
            if matches!(module, IMod::Env(inner) if same_ienv(inner, own)) {
                continue;
            }
            elaborator.forget_module(name);
        }
        if let IMod::Env(inner) = module {
            path.push(name.clone());
            bind_ienv(elaborator, inner, path, None);
            path.pop();
        }
    }
}

/// The compile-time types of the labels among `free`: every one of them, for
/// a label 𝓔 reaches by several paths has a type at each (a structure `M`
/// opaquely ascribed, and a functor's parameter `X` shown at the parameter's
/// types when applied to `M`, share M's labels, each with its own abstract
/// types); matching each against the label's one type in Γ determines them
/// all.
fn collect_label_types(env: &IEnv<Tfp18Core>, free: &[Name], out: &mut Vec<(Label, Type)>) {
    for (label, ty) in env.ve.values() {
        if free.contains(&label_name(label)) && !out.iter().any(|(l, t)| l == label && t == ty) {
            out.push((label.clone(), ty.clone()));
        }
    }
    for module in env.me.values() {
        if let IMod::Env(inner) = module {
            collect_label_types(inner, free, out);
        }
    }
}

/// The core name of a label.
pub fn label_name(label: &Label) -> Name {
    format!("{}_{}", label.hint, label.id)
}

/// The label a core name names, if it is one ([`label_name`]'s inverse;
/// labels compare by id).
fn label_of_name(name: &str) -> Option<Label> {
    let (hint, id) = name.rsplit_once('_')?;
    Some(Label {
        id: id.parse().ok()?,
        hint: Rc::from(hint),
    })
}

fn elaborate_value(elaborator: &mut Elaborator, dec: &ValueBind) -> Result<ValueDec, Failure> {
    elaborator
        .elaborate_value(dec)
        .map_err(|d| diagnostic_failure(&d))
}

fn scheme_of(dec: &ValueDec) -> Type {
    Type {
        params: dec.type_params.clone(),
        ty: dec.ty.clone(),
    }
}

impl Core for Tfp18Core {
    type Type = Type;
    type TargetExp = TargetExp;
    type Guesses = Guesses;

    const NAME: &'static str = CORE_NAME;
    const NATIVE_POLYMORPHISM: bool = true;

    fn initial_basis() -> Result<crate::modules::core_interface::Basis<Tfp18Core>, Failure> {
        // The primitive types and the top-level prelude are the core's own
        // (the elaborator after the prelude); the numeric modules and module
        // types are the numeric prelude's basis (empty while it is built).
        Ok(match numeric_basis()? {
            Some(basis) => (basis.env.clone(), basis.ienv.clone(), basis.context.clone()),
            None => (Env::default(), IEnv::default(), OrdMap::new()),
        })
    }

    fn first_fresh_name() -> u32 {
        match numeric_basis() {
            Ok(Some(basis)) => basis.first_fresh,
            _ => crate::modules::objects::FIRST_FRESH,
        }
    }

    fn elaborate_type(env: &Env<Tfp18Core>, ty: &TypeExp) -> Result<Type, Failure> {
        let mut elaborator = elaborator_for_env(env)?;
        let t = elaborator
            .elaborate_type(ty)
            .map_err(|d| diagnostic_failure(&d))?;
        Ok(mono(t))
    }

    fn elaborate_value_spec(
        env: &Env<Tfp18Core>,
        type_params: &[ast::TypeParam],
        ty: &TypeExp,
    ) -> Result<Type, Failure> {
        // Extension: ICFP18 tfp18-core-polymorphic-value-spec
        // `val f 'a … : ty`: τ is the scheme ∀a….ty, its parameters core
        // `Param`s (SPEC_NOTES ICFP18-16/17), matched up to renaming.
        crate::derivation::fire("ICFP18 tfp18-core-polymorphic-value-spec", || {
            "E ⊢ val f 'a… : ty : ∃∅.{f ↦ ∀a….τ}".to_string()
        });
        let mut elaborator = elaborator_for_env(env)?;
        let mut params = Vec::new();
        for param in type_params {
            if let ast::TypeParam::Type {
                name, liftedness, ..
            } = param
            {
                elaborator.bind_type(&[], name, CoreTy::Param(name.clone(), *liftedness));
                params.push(TypeParam {
                    name: name.clone(),
                    liftedness: *liftedness,
                });
            }
        }
        let ty = elaborator
            .elaborate_type(ty)
            .map_err(|d| diagnostic_failure(&d))?;
        Ok(Type { params, ty })
    }

    fn elaborate_dec(env: &Env<Tfp18Core>, dec: &ValueBind) -> Result<VEnv<Tfp18Core>, Failure> {
        let mut elaborator = elaborator_for_env(env)?;
        // Γ of the body: the declaration's own name means what it meant
        // before it (a `def` is not recursive).
        let before = elaborator.core_scheme(&dec.name);
        let core = elaborate_value(&mut elaborator, dec)?;
        let mut gamma = elaborator.core_type_env();
        match before.filter(|_| core.name == dec.name) {
            Some(scheme) => gamma.insert(core.name.clone(), scheme),
            None => gamma.remove(&core.name),
        };
        check_core_restrictions(gamma, &core)?;
        let mut ve = OrdMap::new();
        ve.insert(dec.name.clone(), scheme_of(&core));
        Ok(ve)
    }

    fn compile_dec(
        env: &IEnv<Tfp18Core>,
        dec: &ValueBind,
    ) -> Result<CompiledDec<Tfp18Core>, Failure> {
        let mut elaborator = elaborator_for_ienv(env)?;
        let mut core = elaborate_value(&mut elaborator, dec)?;
        let free = crate::core::syntax::free_vars(&core.value);
        let mut label_types = Vec::new();
        collect_label_types(env, &free, &mut label_types);
        // l ∉ names(𝓔): the name supply's witness.
        let label = fresh_label(&dec.name);
        core.name = label_name(&label);
        let mut values = OrdMap::new();
        values.insert(dec.name.clone(), (label.clone(), scheme_of(&core)));
        Ok(CompiledDec {
            labels: vec![label.clone()],
            values,
            code: crate::modules::target::Code::Val(
                label,
                TargetExp {
                    dec: core,
                    label_types,
                },
            ),
        })
    }

    fn type_target_exp(
        context: &Context<Tfp18Core>,
        exp: &TargetExp,
        witness: &Substitution<Type>,
        guesses: &mut Guesses,
    ) -> Result<Type, Failure> {
        instantiate(context, exp, witness, guesses).map(|dec| scheme_of(&dec))
    }

    fn fresh_guess(guesses: &mut Guesses) -> Type {
        guesses.next += 1;
        mono(CoreTy::Meta(u32::MAX - guesses.next))
    }

    fn unify(a: &Type, b: &Type, guesses: &mut Guesses) -> bool {
        // Up to renaming the schemes' parameters, as equality.
        renamed_params(b, &a.params).is_some_and(|b_ty| guesses.unify(&a.ty, &b_ty))
    }

    fn resolve(ty: &Type, guesses: &Guesses) -> Type {
        Type {
            params: ty.params.clone(),
            ty: guesses.resolve(&ty.ty),
        }
    }

    fn corollary_type() -> Type {
        mono(CoreTy::Prim(PrimType::I32))
    }

    fn sample_types(_basis: &Env<Tfp18Core>) -> Vec<Type> {
        vec![
            mono(CoreTy::Prim(PrimType::I32)),
            mono(CoreTy::Prim(PrimType::Bool)),
        ]
    }

    fn display_target_exp(exp: &TargetExp) -> String {
        format!("{:?}", exp.dec.value)
    }

    fn record_sealing(substitution: &Substitution<Type>) {
        SEALED.with(|sealed| {
            let mut sealed = sealed.borrow_mut();
            for (t, image) in &substitution.map {
                if image.params.is_empty() && image.as_variable().as_ref() != Some(t) {
                    sealed.insert(t.clone(), image.ty.clone());
                }
            }
        })
    }
}

/// The declaration of a target expression with its module type variables
/// instantiated by matching its labels' compile-time types against Γ, typed
/// in Γ (the witness of rule 39's guessed λ types, for a core whose λs are
/// typed).
fn instantiate(
    context: &Context<Tfp18Core>,
    exp: &TargetExp,
    witness: &Substitution<Type>,
    guesses: &mut Guesses,
) -> Result<ValueDec, Failure> {
    // Extension: ICFP18 tfp18-core-abstract-types-from-gamma
    // The module type variables of the expression are instantiated by
    // matching its labels' compile-time types against Γ (SPEC_NOTES
    // ICFP18-17): the witness of rule 39's guessed λ types.
    crate::derivation::fire("ICFP18 tfp18-core-abstract-types-from-gamma", || {
        format!(
            "Γ ⊢ {} : S(τ), S by matching labels against Γ",
            exp.dec.name
        )
    });
    let mut flexible = Vec::new();
    for (_, ty) in &exp.label_types {
        ty.type_variables_in_order(&mut flexible);
    }
    core_vars(&exp.dec.ty, &mut flexible);
    // Every annotation's variables too, not only the declared type's: a
    // local `let g (y: M.t) = …` in a `main` returning i32 mentions M.t.
    crate::core::syntax::map_expr_types(&exp.dec.value, &mut |t| {
        core_vars(t, &mut flexible);
        t.clone()
    });
    let flexible: BTreeSet<TyVar> = flexible.into_iter().collect();
    let mut s = Substitution::default();
    for (label, ty) in &exp.label_types {
        if let Some(actual) = context.get(label) {
            let actual = Tfp18Core::resolve(actual, guesses);
            let _ = Type::match_into(ty, &actual, &flexible, &mut s);
        }
    }
    // A module type variable of the declaration that no label determined is
    // a sealed abstract type whose witness the sealing recorded (a `def f
    // (g: M.t -> i32)` that uses none of M's values), or else ICFP'18 rule
    // 39's guess S(t), S the relation's (in rule 70's samples S∘S', the
    // sampled or recorded argument's: a functor's `def f (x: X.t) =
    // replicate 4 x` mentions none of X's values; SPEC_NOTES ICFP18-23).
    for v in &flexible {
        if !s.map.contains_key(v) {
            let unsealed = unseal(&CoreTy::Param(tyvar_name(v), Liftedness::Lifted));
            if tyvar_of_type(&unsealed).as_ref() != Some(v) {
                s.map.insert(v.clone(), mono(unsealed));
            } else if let Some(image) = witness.map.get(v) {
                // S(t) once the relation has solved it (a guess still open
                // stays t).
                let image = unseal(&guesses.resolve(&image.ty));
                if !has_guess(&image) {
                    s.map.insert(v.clone(), mono(image));
                }
            }
        }
    }
    let declared = scheme_of(&exp.dec).substitute(&s);
    let value = crate::core::syntax::map_expr_types(&exp.dec.value, &mut |t| {
        mono(t.clone()).substitute(&s).ty
    });
    // Γ: the prelude's and Γ₀'s (cached), and the labels of `context` that
    // the declaration mentions.
    let mut env: TypeEnv = match numeric_basis()? {
        Some(basis) => basis.type_env.clone(),
        None => prelude_type_env()?,
    };
    for name in crate::core::syntax::free_vars(&value) {
        let Some(label) = label_of_name(&name) else {
            continue;
        };
        if let Some(ty) = context.get(&label) {
            env.insert(
                name,
                Scheme {
                    params: ty.params.clone(),
                    ty: guesses.resolve(&ty.ty),
                },
            );
        }
    }
    // Rule 42's Γ ⊢ e : τ (ICFP'18) is the core's typing judgment; with the
    // program's `Or` option on, TFP'18 §7's T-If (SPEC_NOTES ICFP18-22).
    let mut typing = Typing::new();
    typing.or_conditionals = OR_CONDITIONALS.with(Cell::get);
    let found = typing
        .type_of(&env, &value)
        .map_err(|e| Failure::new(CORE_NAME, e.to_diagnostic().message, "", exp.dec.span))?;
    if found != declared.ty {
        return Err(Failure::new(
            CORE_NAME,
            "the target expression does not have its declared type",
            format!("{} vs {}", type_name(&found), type_name(&declared.ty)),
            exp.dec.span,
        ));
    }
    Ok(ValueDec {
        value,
        ty: declared.ty,
        ..exp.dec.clone()
    })
}

/// The TFP'18 core's typing judgment `Γ ⊢ e : τ` on a declaration as it is
/// elaborated (ICFP'18's `E ⊢ dec : ∃T.E'` for a core declaration), Γ the
/// elaborator's, the module type variables of E rigid: the core's
/// restrictions on functions (T-Array, T-If, T-Loop, T-Map, …) reject the
/// declaration here, as the module-free path's TFP'18 typing does, and not
/// only once rule 42 types a target expression, which a functor never
/// applied has none of (SPEC_NOTES ICFP18-25).
fn check_core_restrictions(gamma: TypeEnv, dec: &ValueDec) -> Result<(), Failure> {
    // Extension: ICFP18 tfp18-core-typed-elaboration
    crate::derivation::fire("ICFP18 tfp18-core-typed-elaboration", || {
        format!("Γ ⊢ {} : τ at elaboration", dec.name)
    });
    // ICFP'18's module type variables carry no liftedness (the instance
    // makes them lifted, what they may stand for being unknown): here they
    // count as unlifted, so only what is a function in every instance is
    // rejected; a lifted abstract type (`type^ t`) instantiated with a
    // function is still found by rule 42, as before.
    let mut unlifted = |t: &CoreTy| match t {
        CoreTy::Param(name, Liftedness::Lifted) if tyvar_of(name).is_some() => {
            Some(CoreTy::Param(name.clone(), Liftedness::Unlifted))
        }
        _ => None,
    };
    let value =
        crate::core::syntax::map_expr_types(&dec.value, &mut |t| t.map_types(&mut unlifted));
    let env: TypeEnv = gamma
        .into_iter()
        .map(|(name, scheme)| {
            let ty = scheme.ty.map_types(&mut unlifted);
            (name, Scheme { ty, ..scheme })
        })
        .collect();
    let mut typing = Typing::new();
    typing.or_conditionals = OR_CONDITIONALS.with(Cell::get);
    typing
        .type_of(&env, &value)
        .map(|_| ())
        .map_err(|e| Failure::new(e.rule, e.message, "", e.span))
}

/// Γ of the prelude's declarations.
fn prelude_type_env() -> Result<TypeEnv, Failure> {
    let elaborator = prelude_elaborator()?;
    let mut env = TypeEnv::new();
    for dec in elaborator.decs() {
        env.insert(
            dec.name.clone(),
            Scheme {
                params: dec.type_params.clone(),
                ty: dec.ty.clone(),
            },
        );
    }
    Ok(env)
}

/// Whether a program uses module constructs (and so needs this pipeline).
pub fn has_module_constructs(program: &ast::Program) -> bool {
    program.decs.iter().any(|dec| {
        let mut dec = dec;
        while let ast::Dec::Attr { dec: inner, .. } = dec {
            dec = inner;
        }
        !matches!(dec, ast::Dec::Value(_) | ast::Dec::Type(_))
    })
}

fn top_level_entries(decs: &[ast::Dec], out: &mut Vec<(Name, Span)>) {
    for dec in decs {
        let mut dec = dec;
        while let ast::Dec::Attr { dec: inner, .. } = dec {
            dec = inner;
        }
        if let ast::Dec::Value(bind) = dec {
            if bind.kind == ValueBindKind::Entry || bind.name == "main" {
                out.retain(|(n, _)| *n != bind.name);
                out.push((bind.name.clone(), bind.span));
            }
        }
    }
}

/// [`program_to_core`] with TFP'18 §7's `Or` option (`or_conditionals`) on
/// the core typing of the target code, as the module-free path has it on
/// the core program's typing.
pub fn program_to_core_with(
    program: &ast::Program,
    or_conditionals: bool,
) -> Result<Program, Diagnostic> {
    let previous = OR_CONDITIONALS.with(|flag| flag.replace(or_conditionals));
    let result = program_to_core(program);
    OR_CONDITIONALS.with(|flag| flag.set(previous));
    result
}

/// A module-level program to a core program: elaboration, static
/// interpretation and Proposition 6.1 (ICFP'18), then the target code as
/// core declarations after the prelude's (the `Or` option as
/// [`program_to_core_with`] last set it; off by default).
pub fn program_to_core(program: &ast::Program) -> Result<Program, Diagnostic> {
    // Each program's names start afresh: so do its sealings.
    SEALED.with(|sealed| sealed.borrow_mut().clear());
    let checked =
        crate::modules::check_program::<Tfp18Core>(program).map_err(|f| f.to_diagnostic())?;
    if let Err(why) = &checked.verdict {
        return Err(Diagnostic::error(format!(
            "ICFP'18 Proposition 6.1 fails for this program: {why}"
        ))
        .with_code(spec::diagnostic::codes::ICFP18_PROPOSITION_6_1)
        .with_note("a bug in the reference or a defect of the paper"));
    }
    let target = checked
        .interpretation
        .as_ref()
        .expect("a verdict implies an interpretation");
    let prelude = prelude_elaborator().map_err(|f| f.to_diagnostic())?;
    let basis = numeric_basis().map_err(|f| f.to_diagnostic())?;
    let mut context: Context<Tfp18Core> = basis
        .as_ref()
        .map(|b| b.context.clone())
        .unwrap_or_default();
    let program_decs = code_to_decs(&target.code, &mut context)?;
    // The basis's declarations first: they use no top-level prelude
    // function, and their closures then capture a small Σ.
    let mut decs: Vec<ValueDec> = match &basis {
        Some(basis) => reached_basis_decs(&basis.decs, &program_decs),
        None => Vec::new(),
    };
    decs.extend(prelude.decs().iter().cloned());
    decs.extend(program_decs);
    let IMod::Env(ienv) = &target.module else {
        return Err(Diagnostic::error(
            "the program did not interpret to an environment",
        ));
    };
    let mut wanted = Vec::new();
    top_level_entries(&program.decs, &mut wanted);
    let mut entries = Vec::new();
    for (name, span) in wanted {
        let Some((label, ty)) = ienv.ve.get(&name) else {
            continue;
        };
        let Some(dec) = decs.iter().find(|d| d.name == label_name(label)).cloned() else {
            continue;
        };
        if !ty.params.is_empty() {
            return Err(Diagnostic::error("an entry point cannot be polymorphic")
                .with_primary(span, "this entry point"));
        }
        let (dec, entry) = entry_point(
            ValueDec {
                name: name.clone(),
                ..dec
            },
            name,
            span,
        );
        decs.push(dec);
        entries.push(entry);
    }
    Ok(Program { decs, entries })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numeric_basis_declares_every_module_and_module_type_and_no_intrinsic() {
        let basis = numeric_basis()
            .expect("the numeric prelude is a basis")
            .expect("not while it is being built");
        for name in [
            "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "bool",
        ] {
            let Some(Mod::Env(module)) = basis.env.me.get(name) else {
                panic!("module {name} is missing from E₀");
            };
            assert!(
                module.ve.keys().all(|v| !v.starts_with("__prim_")),
                "module {name} exports an intrinsic"
            );
            // Transparent ascription: `t` is the primitive type itself.
            let t = module.te.get("t").expect("every module has a type t");
            assert_eq!(type_name(&t.ty), name, "{name}.t");
        }
        for name in ["from_prim", "numeric", "integral", "real", "float"] {
            assert!(
                basis.env.g.contains_key(name),
                "module type {name} is missing"
            );
        }
        assert!(basis.first_fresh > crate::modules::objects::FIRST_FRESH);
        assert!(basis.decs.len() >= basis.context.len());
        // A program's names start after the basis's.
        let checked = crate::modules::check_program::<Tfp18Core>(
            &spec::syntax::parse_program(
                spec::source::FileId(0),
                "def main (x: f32) : f32 = f32.sqrt x",
            )
            .expect("parses"),
        )
        .expect("elaborates");
        let target = checked.interpretation.expect("interprets");
        let IMod::Env(ienv) = &target.module else {
            panic!("not an environment");
        };
        let (label, _) = &ienv.ve["main"];
        assert!(label.id >= basis.first_fresh);
    }
}
