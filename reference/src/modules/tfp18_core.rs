//! The richer core instance of the module calculus: the TFP'18 core
//! ([`crate::core`]) behind [`Core`] and [`CoreType`], so that whole
//! module-level programs run (parse → elaborate → static interpretation →
//! core program → [`crate::core::pipeline::compile_core`]).
//!
//! * A semantic type τ is a core type scheme: written type parameters of a
//!   polymorphic `def` (core `Param`s) over a core type in which a module
//!   type variable t is the core `Param` named `hint#id` (never a name the
//!   surface can write). Guesses are core `Meta`s.
//! * Core declarations are elaborated by the module-free front end's
//!   elaborator ([`crate::core::from_surface::Elaborator`]) after the
//!   prelude, with the module environment's values and types bound by their
//!   paths (`M.x`): one elaborator for both front ends.
//! * A target expression is the core declaration whose free variables are
//!   labels (named by [`Label::display`]); the code of a program becomes the
//!   core program of the prelude followed by one declaration per `val l = ex`,
//!   and the program's `main`/`entry` values become entry points.

use super::core_interface::{CompiledDec, Core, CoreType};
use super::error::Failure;
use super::interp_objects::{IEnv, IMod};
use super::objects::{fresh_label, Env, Label, Mod, Substitution, TyVar, VEnv};
use super::target::Context;
use crate::core::from_surface::{parse_prelude, Elaborator};
use crate::core::syntax::{EntryPoint, PrimType, Program, Type as CoreTy, TypeParam, ValueDec};
use crate::core::typing::{Scheme, TypeEnv, Typing};
use crate::core::value::type_name;
use imbl::OrdMap;
use spec::diagnostic::Diagnostic;
use spec::source::{SourceMap, Span};
use spec::syntax::ast::{self, Liftedness, Name, TypeExp, ValueBind, ValueBindKind};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The TFP'18 core as a core language of the module calculus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tfp18Core;

/// τ: a core type scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Type {
    pub params: Vec<TypeParam>,
    pub ty: CoreTy,
}

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
        pattern.params == target.params
            && core_match(&pattern.ty, &target.ty, flexible, substitution)
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

thread_local! {
    static PRELUDE: RefCell<Option<Elaborator>> = const { RefCell::new(None) };
}

/// The elaborator after the prelude (elaborated once per thread).
fn prelude_elaborator() -> Result<Elaborator, Failure> {
    PRELUDE.with(|cell| {
        if let Some(e) = cell.borrow().as_ref() {
            return Ok(e.clone());
        }
        let mut sources = SourceMap::default();
        let file = sources.add("<prelude>/toplevel.fut", crate::core::from_surface::PRELUDE);
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

/// Binds the values and types of an elaboration environment E by path.
fn bind_env(elaborator: &mut Elaborator, env: &Env<Tfp18Core>, path: &mut Vec<Name>) {
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
        if let Mod::Env(inner) = module {
            path.push(name.clone());
            bind_env(elaborator, inner, path);
            path.pop();
        }
    }
}

/// Binds the values (to their labels) and types of an interpretation
/// environment 𝓔 by path.
fn bind_ienv(elaborator: &mut Elaborator, env: &IEnv<Tfp18Core>, path: &mut Vec<Name>) {
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
        if let IMod::Env(inner) = module {
            path.push(name.clone());
            bind_ienv(elaborator, inner, path);
            path.pop();
        }
    }
}

/// The compile-time types of the labels among `free`.
fn collect_label_types(env: &IEnv<Tfp18Core>, free: &[Name], out: &mut Vec<(Label, Type)>) {
    for (label, ty) in env.ve.values() {
        if free.contains(&label_name(label)) && !out.iter().any(|(l, _)| l == label) {
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

    fn initial_basis() -> (Env<Tfp18Core>, IEnv<Tfp18Core>, Context<Tfp18Core>) {
        // The primitive types, their numeric modules and the prelude are the
        // core's own (the elaborator after the prelude); E₀ is empty.
        (Env::default(), IEnv::default(), OrdMap::new())
    }

    fn elaborate_type(env: &Env<Tfp18Core>, ty: &TypeExp) -> Result<Type, Failure> {
        let mut elaborator = prelude_elaborator()?;
        bind_env(&mut elaborator, env, &mut Vec::new());
        let t = elaborator
            .elaborate_type(ty)
            .map_err(|d| diagnostic_failure(&d))?;
        Ok(mono(t))
    }

    fn elaborate_dec(env: &Env<Tfp18Core>, dec: &ValueBind) -> Result<VEnv<Tfp18Core>, Failure> {
        let mut elaborator = prelude_elaborator()?;
        bind_env(&mut elaborator, env, &mut Vec::new());
        let core = elaborate_value(&mut elaborator, dec)?;
        let mut ve = OrdMap::new();
        ve.insert(dec.name.clone(), scheme_of(&core));
        Ok(ve)
    }

    fn compile_dec(
        env: &IEnv<Tfp18Core>,
        dec: &ValueBind,
    ) -> Result<CompiledDec<Tfp18Core>, Failure> {
        let mut elaborator = prelude_elaborator()?;
        bind_ienv(&mut elaborator, env, &mut Vec::new());
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
            code: super::target::Code::Val(
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
        guesses: &mut Guesses,
    ) -> Result<Type, Failure> {
        instantiate(context, exp, guesses).map(|dec| scheme_of(&dec))
    }

    fn fresh_guess(guesses: &mut Guesses) -> Type {
        guesses.next += 1;
        mono(CoreTy::Meta(u32::MAX - guesses.next))
    }

    fn unify(a: &Type, b: &Type, guesses: &mut Guesses) -> bool {
        a.params == b.params && guesses.unify(&a.ty, &b.ty)
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
}

/// The declaration of a target expression with its module type variables
/// instantiated by matching its labels' compile-time types against Γ, typed
/// in Γ (the witness of rule 39's guessed λ types, for a core whose λs are
/// typed).
fn instantiate(
    context: &Context<Tfp18Core>,
    exp: &TargetExp,
    guesses: &mut Guesses,
) -> Result<ValueDec, Failure> {
    // The module type variables of the expression are instantiated by
    // matching its labels' compile-time types against Γ.
    let mut flexible = Vec::new();
    for (_, ty) in &exp.label_types {
        ty.type_variables_in_order(&mut flexible);
    }
    core_vars(&exp.dec.ty, &mut flexible);
    let flexible: BTreeSet<TyVar> = flexible.into_iter().collect();
    let mut s = Substitution::default();
    for (label, ty) in &exp.label_types {
        if let Some(actual) = context.get(label) {
            let actual = Tfp18Core::resolve(actual, guesses);
            let _ = Type::match_into(ty, &actual, &flexible, &mut s);
        }
    }
    let declared = scheme_of(&exp.dec).substitute(&s);
    let value = crate::core::syntax::map_expr_types(&exp.dec.value, &mut |t| {
        mono(t.clone()).substitute(&s).ty
    });
    let mut env: TypeEnv = prelude_type_env()?;
    for (label, ty) in context {
        env.insert(
            label_name(label),
            Scheme {
                params: ty.params.clone(),
                ty: guesses.resolve(&ty.ty),
            },
        );
    }
    let found = Typing::new()
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

/// A module-level program to a core program: elaboration, static
/// interpretation and Proposition 6.1 (ICFP'18), then the target code as
/// core declarations after the prelude's.
pub fn program_to_core(program: &ast::Program) -> Result<Program, Diagnostic> {
    let checked = super::check_program::<Tfp18Core>(program).map_err(|f| f.to_diagnostic())?;
    if let Err(why) = &checked.verdict {
        return Err(Diagnostic::error(format!(
            "ICFP'18 Proposition 6.1 fails for this program: {why}"
        ))
        .with_code("ICFP18")
        .with_note("a bug in the reference or a defect of the paper"));
    }
    let target = checked
        .interpretation
        .as_ref()
        .expect("a verdict implies an interpretation");
    let prelude = prelude_elaborator().map_err(|f| f.to_diagnostic())?;
    let mut decs: Vec<ValueDec> = prelude.decs().to_vec();
    // Each declaration with the types its abstract types stand for (the
    // witness found by matching against Γ, as in the target typing).
    let mut context: Context<Tfp18Core> = OrdMap::new();
    let mut guesses = Guesses::default();
    for (label, exp) in target.code.statements() {
        let dec = instantiate(&context, exp, &mut guesses).map_err(|f| f.to_diagnostic())?;
        context.insert(label.clone(), scheme_of(&dec));
        decs.push(dec);
    }
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
        let mut params = Vec::new();
        let mut t = dec.ty.clone();
        for _ in 0..dec.param_count {
            match t {
                CoreTy::Arrow(a, b) => {
                    params.push(*a);
                    t = *b;
                }
                _ => break,
            }
        }
        decs.push(ValueDec {
            name: name.clone(),
            ..dec
        });
        entries.push(EntryPoint {
            name,
            param_types: params,
            result_type: t,
            span,
        });
    }
    Ok(Program { decs, entries })
}
