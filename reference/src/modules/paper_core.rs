//! The paper's core language (ICFP'18 §2): types `longtid | ty → ty`,
//! expressions `longvid | λvid → exp | exp exp | exp : ty`, declarations
//! `val vid = exp`; elaboration (Fig. 6, rules 9–14), target expressions and
//! their typing (Fig. 9, rules 38–40), and compilation (Fig. 10, rules 44–48).
//!
//! Extensions, each tagged (SPEC_NOTES ICFP18-1, ICFP18-2): the
//! predefined type `i32` and values `+ - * : i32 → i32 → i32` in the basis,
//! integer literals of type `i32`, `a op b` read as `op a b`, `λ(x : ty) → e`
//! (the annotation gives τ of rule 13), and `def f (x: t) … : r = e` read as
//! `val f = λ(x: t) → … (e : r)`. Everything else is rejected as outside the
//! paper's core.

use super::core_interface::{CompiledDec, Core, CoreType};
use super::error::{outside, rule_failure, Failure};
use super::interp_objects::{IEnv, IVEnv};
use super::kernel::long_name;
use super::objects::{
    fresh_label, reserved_label, reserved_tyvar, Env, Label, Mod, Substitution, TyVar, VEnv,
};
use super::target::{Code, Context};
use crate::ablation;
use crate::derivation;
use imbl::OrdMap;
use spec::source::Span;
use spec::syntax::ast::{BinOp, Expr, Literal, Pat, QualName, TypeExp, ValueBind};
use std::collections::BTreeSet;

/// The paper's core, as an instance of [`Core`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperCore;

/// Semantic types `τ ::= t | τ₁ → τ₂`; `Guess` is a τ guessed by rule 13 or
/// rule 39 whose witness unification has not found yet: it never appears in
/// an elaborated semantic object.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Type {
    Var(TyVar),
    Arrow(Box<Type>, Box<Type>),
    Guess(u32),
}

/// Target expressions `ex ::= l | λl → ex | ex₁ ex₂` and integer constants.
/// The type on a λ is the one rule 45 computed, printed as in Fig. 3b and never
/// used by the target typing rules (rule 39 guesses it afresh).
#[derive(Clone, Debug)]
pub enum TargetExp {
    Label(Label),
    Lambda(Label, Type, Box<TargetExp>),
    Apply(Box<TargetExp>, Box<TargetExp>),
    Int(i64),
}

const CORE_NAME: &str = "the paper's core";

/// The predefined type `i32` (a type variable free in the basis).
pub fn i32_type() -> Type {
    Type::Var(reserved_tyvar(0, "i32"))
}

fn arrow(a: Type, b: Type) -> Type {
    Type::Arrow(Box::new(a), Box::new(b))
}

const OPERATORS: [(&str, u32); 3] = [("+", 1), ("-", 2), ("*", 3)];

impl CoreType for Type {
    fn variable(t: TyVar) -> Type {
        Type::Var(t)
    }

    fn as_variable(&self) -> Option<TyVar> {
        match self {
            Type::Var(t) => Some(t.clone()),
            _ => None,
        }
    }

    fn type_variables_in_order(&self, out: &mut Vec<TyVar>) {
        match self {
            Type::Var(t) => {
                if !out.contains(t) {
                    out.push(t.clone())
                }
            }
            Type::Arrow(a, b) => {
                a.type_variables_in_order(out);
                b.type_variables_in_order(out);
            }
            Type::Guess(_) => {}
        }
    }

    fn substitute(&self, substitution: &Substitution<Type>) -> Type {
        match self {
            Type::Var(t) => substitution.get(t).cloned().unwrap_or_else(|| self.clone()),
            Type::Arrow(a, b) => arrow(a.substitute(substitution), b.substitute(substitution)),
            Type::Guess(_) => self.clone(),
        }
    }

    fn match_into(
        pattern: &Type,
        target: &Type,
        flexible: &BTreeSet<TyVar>,
        substitution: &mut Substitution<Type>,
    ) -> bool {
        match (pattern, target) {
            (Type::Var(t), _) if flexible.contains(t) => match substitution.get(t) {
                Some(bound) => bound == target,
                None => {
                    substitution.map.insert(t.clone(), target.clone());
                    true
                }
            },
            (Type::Arrow(a1, b1), Type::Arrow(a2, b2)) => {
                Type::match_into(a1, a2, flexible, substitution)
                    && Type::match_into(b1, b2, flexible, substitution)
            }
            _ => pattern == target,
        }
    }

    fn display(&self) -> String {
        match self {
            Type::Var(t) => t.display(),
            Type::Arrow(a, b) => {
                let left = match a.as_ref() {
                    Type::Arrow(..) => format!("({})", a.display()),
                    _ => a.display(),
                };
                format!("{left} → {}", b.display())
            }
            Type::Guess(n) => format!("?{n}"),
        }
    }
}

/// Solutions of guesses: the witnesses of rules 13 and 39, found by
/// unification.
#[derive(Default, Debug)]
pub struct Guesses {
    solutions: Vec<Option<Type>>,
}

impl Guesses {
    fn fresh(&mut self) -> Type {
        self.solutions.push(None);
        Type::Guess((self.solutions.len() - 1) as u32)
    }

    fn shallow(&self, ty: &Type) -> Type {
        let mut ty = ty.clone();
        while let Type::Guess(n) = ty {
            match self.solutions.get(n as usize).cloned().flatten() {
                Some(solution) => ty = solution,
                None => break,
            }
        }
        ty
    }

    fn resolve(&self, ty: &Type) -> Type {
        match self.shallow(ty) {
            Type::Arrow(a, b) => arrow(self.resolve(&a), self.resolve(&b)),
            other => other,
        }
    }

    fn occurs(&self, n: u32, ty: &Type) -> bool {
        match self.shallow(ty) {
            Type::Guess(m) => m == n,
            Type::Arrow(a, b) => self.occurs(n, &a) || self.occurs(n, &b),
            Type::Var(_) => false,
        }
    }

    fn unify(&mut self, a: &Type, b: &Type) -> bool {
        let (a, b) = (self.shallow(a), self.shallow(b));
        match (&a, &b) {
            (Type::Guess(n), Type::Guess(m)) if n == m => true,
            (Type::Guess(n), other) | (other, Type::Guess(n)) => {
                if self.occurs(*n, other) {
                    return false;
                }
                match self.solutions.get_mut(*n as usize) {
                    Some(slot) => {
                        *slot = Some(other.clone());
                        true
                    }
                    // A guess of another derivation: never equal to anything.
                    None => false,
                }
            }
            (Type::Arrow(a1, b1), Type::Arrow(a2, b2)) => self.unify(a1, a2) && self.unify(b1, b2),
            (Type::Var(t1), Type::Var(t2)) => t1 == t2,
            _ => false,
        }
    }
}

fn contains_guess(ty: &Type) -> bool {
    match ty {
        Type::Guess(_) => true,
        Type::Arrow(a, b) => contains_guess(a) || contains_guess(b),
        Type::Var(_) => false,
    }
}

// ---------------------------------------------------------------------------
// Long identifiers: E(longx), through module environments.

fn lookup_module_path<'a, C: Core>(
    env: &'a Env<C>,
    name: &QualName,
    rule: u32,
) -> Result<&'a Env<C>, Failure> {
    let mut current = env;
    for qualifier in &name.qualifiers {
        current = match current.me.get(qualifier) {
            Some(Mod::Env(inner)) => inner,
            Some(Mod::FunSig(_)) => {
                return Err(rule_failure(
                    rule,
                    format!("E({}) must be a structure", long_name(name)),
                    format!("{qualifier} is a parameterised module"),
                    name.span,
                ))
            }
            None => {
                return Err(rule_failure(
                    rule,
                    format!("E({}) is undefined", long_name(name)),
                    format!("unknown module {qualifier}"),
                    name.span,
                ))
            }
        };
    }
    Ok(current)
}

/// The same walk through an interpretation environment.
fn lookup_imodule_path<'a>(
    env: &'a IEnv<PaperCore>,
    name: &QualName,
    rule: u32,
) -> Result<&'a IEnv<PaperCore>, Failure> {
    let mut current = env;
    for qualifier in &name.qualifiers {
        current = match current.me.get(qualifier) {
            Some(super::interp_objects::IMod::Env(inner)) => inner,
            _ => {
                return Err(rule_failure(
                    rule,
                    format!("𝓔({}) is undefined", long_name(name)),
                    format!("{qualifier} is not a structure"),
                    name.span,
                ))
            }
        }
    }
    Ok(current)
}

// ---------------------------------------------------------------------------
// Elaboration: E ⊢ ty : τ (rules 9–10) and E ⊢ exp : τ (rules 11–14).

fn elaborate_type(env: &Env<PaperCore>, ty: &TypeExp) -> Result<Type, Failure> {
    derivation::judgment(Some(ty.span()), || match ty {
        // ICFP18 rule 9
        TypeExp::Var(name) => {
            derivation::fire("ICFP18 rule 9", || format!("E ⊢ {} : τ", long_name(name)));
            let scope = lookup_module_path(env, name, 9)?;
            scope.te.get(&name.name).cloned().ok_or_else(|| {
                rule_failure(
                    9,
                    format!("E({}) is undefined", long_name(name)),
                    format!("unknown type {}", long_name(name)),
                    name.span,
                )
            })
        }
        // ICFP18 rule 10
        TypeExp::Arrow {
            param: None,
            from,
            to,
            ..
        } => {
            derivation::fire("ICFP18 rule 10", || "E ⊢ ty₁ → ty₂ : τ₁ → τ₂".to_string());
            let from = elaborate_type(env, from)?;
            let to = elaborate_type(env, to)?;
            Ok(arrow(from, to))
        }
        other => Err(outside(
            "this type expression (the paper's core has only `longtid` and `ty → ty`)",
            CORE_NAME,
            other.span(),
        )),
    })
}

/// The parameter of a λ: `vid` or, as an extension, `(vid : ty)`.
fn lambda_param(pat: &Pat) -> Result<(&str, Option<&TypeExp>), Failure> {
    match pat {
        Pat::Var { name, .. } => Ok((name, None)),
        Pat::Ascribe { pat, ty, .. } => match pat.as_ref() {
            Pat::Var { name, .. } => Ok((name, Some(ty))),
            other => Err(outside(
                "this pattern (λ binds one value identifier)",
                CORE_NAME,
                other.span(),
            )),
        },
        other => Err(outside(
            "this pattern (λ binds one value identifier)",
            CORE_NAME,
            other.span(),
        )),
    }
}

fn int_literal(literal: &Literal, span: Span) -> Result<i64, Failure> {
    match literal {
        Literal::Int {
            value,
            suffix: None | Some(spec::syntax::ast::IntType::I32),
        } if *value <= i32::MAX as u64 => Ok(*value as i64),
        _ => Err(outside(
            "this literal (the extension has only i32 integer literals)",
            CORE_NAME,
            span,
        )),
    }
}

fn operator_name(op: &BinOp) -> QualName {
    op.name().clone()
}

fn elaborate_exp(env: &Env<PaperCore>, exp: &Expr, guesses: &mut Guesses) -> Result<Type, Failure> {
    derivation::judgment(Some(exp.span()), || match exp {
        // ICFP18 rule 11
        Expr::Var(name) => {
            derivation::fire("ICFP18 rule 11", || format!("E ⊢ {} : τ", long_name(name)));
            let scope = lookup_module_path(env, name, 11)?;
            scope.ve.get(&name.name).cloned().ok_or_else(|| {
                rule_failure(
                    11,
                    format!("E({}) is undefined", long_name(name)),
                    format!("unknown value {}", long_name(name)),
                    name.span,
                )
            })
        }
        // ICFP18 rule 12
        Expr::Ascribe { expr, ty, span } => {
            derivation::fire("ICFP18 rule 12", || "E ⊢ exp : ty : τ".to_string());
            let found = elaborate_exp(env, expr, guesses)?;
            let expected = elaborate_type(env, ty)?;
            let unified = guesses.unify(&found, &expected);
            if !ablation::holds(&ablation::ICFP18_12_ASCRIPTION, unified) {
                return Err(rule_failure(
                    12,
                    "the expression does not have the ascribed type",
                    format!(
                        "found {}, expected {}",
                        guesses.resolve(&found).display(),
                        expected.display()
                    ),
                    *span,
                ));
            }
            Ok(expected)
        }
        // ICFP18 rule 13
        Expr::Lambda {
            params,
            return_type,
            body,
            span,
        } => {
            derivation::fire("ICFP18 rule 13", || "E ⊢ λvid → exp : τ → τ'".to_string());
            let (first, rest) = params
                .split_first()
                .ok_or_else(|| outside("a λ without parameters", CORE_NAME, *span))?;
            let (vid, annotation) = lambda_param(first)?;
            // τ is guessed; its witness is the annotation or unification.
            let param_type = match annotation {
                Some(ty) => elaborate_type(env, ty)?,
                None => guesses.fresh(),
            };
            let mut ve = OrdMap::new();
            ve.insert(vid.to_string(), param_type.clone());
            let inner = env.plus(&Env::from_ve(ve));
            let body_type = if rest.is_empty() {
                match return_type {
                    Some(ty) => elaborate_exp(&inner, &ascribed(body, ty), guesses)?,
                    None => elaborate_exp(&inner, body, guesses)?,
                }
            } else {
                let rest_lambda = Expr::Lambda {
                    params: rest.to_vec(),
                    return_type: return_type.clone(),
                    body: body.clone(),
                    span: *span,
                };
                elaborate_exp(&inner, &rest_lambda, guesses)?
            };
            Ok(arrow(param_type, body_type))
        }
        // ICFP18 rule 14
        Expr::Apply {
            function,
            argument,
            span,
        } => {
            derivation::fire("ICFP18 rule 14", || "E ⊢ exp₁ exp₂ : τ'".to_string());
            let function_type = elaborate_exp(env, function, guesses)?;
            let argument_type = elaborate_exp(env, argument, guesses)?;
            let result = guesses.fresh();
            let unified = guesses.unify(
                &function_type,
                &arrow(argument_type.clone(), result.clone()),
            );
            if !ablation::holds(&ablation::ICFP18_14_ARGUMENT, unified) {
                return Err(rule_failure(
                    14,
                    "the function's parameter type τ must be the argument's type",
                    format!(
                        "function has type {}, argument has type {}",
                        guesses.resolve(&function_type).display(),
                        guesses.resolve(&argument_type).display()
                    ),
                    *span,
                ));
            }
            Ok(result)
        }
        // Extension: ICFP18 int-literal
        Expr::Literal { literal, span } => {
            derivation::fire("ICFP18 int-literal", || "E ⊢ n : i32".to_string());
            int_literal(literal, *span)?;
            Ok(i32_type())
        }
        // Extension: ICFP18 infix
        Expr::BinOp { op, lhs, rhs, span } => {
            derivation::fire("ICFP18 infix", || "exp₁ op exp₂ ⇒ op exp₁ exp₂".to_string());
            elaborate_exp(env, &infix_as_application(op, lhs, rhs, *span), guesses)
        }
        other => Err(outside("this expression", CORE_NAME, other.span())),
    })
}

fn ascribed(body: &Expr, ty: &TypeExp) -> Expr {
    Expr::Ascribe {
        expr: Box::new(body.clone()),
        ty: ty.clone(),
        span: body.span(),
    }
}

fn infix_as_application(op: &BinOp, lhs: &Expr, rhs: &Expr, span: Span) -> Expr {
    let op_exp = Expr::Var(operator_name(op));
    Expr::Apply {
        function: Box::new(Expr::Apply {
            function: Box::new(op_exp),
            argument: Box::new(lhs.clone()),
            span,
        }),
        argument: Box::new(rhs.clone()),
        span,
    }
}

/// `def f p₁ … pₙ : r = e` as `val f = λp₁ → … λpₙ → (e : r)`.
fn value_binding_as_val(bind: &ValueBind) -> Result<Expr, Failure> {
    if !bind.type_params.is_empty() {
        return Err(outside(
            "type parameters (a polymorphic function reaches the core only through §8.1's derived form)",
            CORE_NAME,
            bind.span,
        ));
    }
    let body = match &bind.return_type {
        Some(ty) if bind.params.is_empty() => ascribed(&bind.body, ty),
        _ => bind.body.clone(),
    };
    if bind.params.is_empty() {
        Ok(body)
    } else {
        Ok(Expr::Lambda {
            params: bind.params.clone(),
            return_type: bind.return_type.clone(),
            body: Box::new(body),
            span: bind.span,
        })
    }
}

fn undetermined(bind: &ValueBind) -> Failure {
    rule_failure(
        13,
        format!(
            "the type τ of a λ-bound identifier in {} is not determined",
            bind.name
        ),
        "annotate the parameter: λ(x : ty) → exp",
        bind.span,
    )
}

// ---------------------------------------------------------------------------
// Compilation: 𝓔 ⊢ exp ⇒ ex, τ (rules 44–47) and 𝓔 ⊢ dec ⇒ ∃N.(𝓔', c) (48).

fn erased_type(env: &IEnv<PaperCore>, ty: &TypeExp) -> Result<Type, Failure> {
    // 𝓔‾ ⊢ ty : τ; only TE and the structures of 𝓜E matter to rules 9–10.
    elaborate_type(&super::interp_objects::erase_env(env), ty)
}

fn compile_exp(
    env: &IEnv<PaperCore>,
    exp: &Expr,
    guesses: &mut Guesses,
) -> Result<(TargetExp, Type), Failure> {
    derivation::judgment(Some(exp.span()), || match exp {
        // ICFP18 rule 44
        Expr::Var(name) => {
            derivation::fire("ICFP18 rule 44", || {
                format!("𝓔 ⊢ {} ⇒ l, τ", long_name(name))
            });
            let scope = lookup_imodule_path(env, name, 44)?;
            let (label, ty) = scope.ve.get(&name.name).cloned().ok_or_else(|| {
                rule_failure(
                    44,
                    format!("𝓔({}) is undefined", long_name(name)),
                    format!("unknown value {}", long_name(name)),
                    name.span,
                )
            })?;
            Ok((TargetExp::Label(label), ty))
        }
        // ICFP18 rule 45
        Expr::Lambda {
            params,
            return_type,
            body,
            span,
        } => {
            derivation::fire("ICFP18 rule 45", || "𝓔 ⊢ λvid → exp ⇒ λl → ex".to_string());
            let (first, rest) = params
                .split_first()
                .ok_or_else(|| outside("a λ without parameters", CORE_NAME, *span))?;
            let (vid, annotation) = lambda_param(first)?;
            let param_type = match annotation {
                Some(ty) => erased_type(env, ty)?,
                None => guesses.fresh(),
            };
            // The label is chosen fresh, like rule 48's.
            let label = fresh_label(vid);
            let mut inner = env.clone();
            inner
                .ve
                .insert(vid.to_string(), (label.clone(), param_type.clone()));
            let (body_exp, body_type) = if rest.is_empty() {
                match return_type {
                    Some(ty) => compile_exp(&inner, &ascribed(body, ty), guesses)?,
                    None => compile_exp(&inner, body, guesses)?,
                }
            } else {
                let rest_lambda = Expr::Lambda {
                    params: rest.to_vec(),
                    return_type: return_type.clone(),
                    body: body.clone(),
                    span: *span,
                };
                compile_exp(&inner, &rest_lambda, guesses)?
            };
            Ok((
                TargetExp::Lambda(label, param_type.clone(), Box::new(body_exp)),
                arrow(param_type, body_type),
            ))
        }
        // ICFP18 rule 46
        Expr::Apply {
            function,
            argument,
            span,
        } => {
            derivation::fire("ICFP18 rule 46", || "𝓔 ⊢ exp₁ exp₂ ⇒ ex₁ ex₂".to_string());
            let (function_exp, function_type) = compile_exp(env, function, guesses)?;
            let (argument_exp, argument_type) = compile_exp(env, argument, guesses)?;
            let result = guesses.fresh();
            if !guesses.unify(&function_type, &arrow(argument_type, result.clone())) {
                return Err(rule_failure(
                    46,
                    "the function's parameter type must be the argument's type",
                    "",
                    *span,
                ));
            }
            Ok((
                TargetExp::Apply(Box::new(function_exp), Box::new(argument_exp)),
                result,
            ))
        }
        // ICFP18 rule 47
        Expr::Ascribe { expr, ty, span } => {
            derivation::fire("ICFP18 rule 47", || "𝓔 ⊢ exp : ty ⇒ ex, τ".to_string());
            let (target, found) = compile_exp(env, expr, guesses)?;
            let expected = erased_type(env, ty)?;
            if !guesses.unify(&found, &expected) {
                return Err(rule_failure(
                    47,
                    "the expression does not have the ascribed type",
                    "",
                    *span,
                ));
            }
            Ok((target, expected))
        }
        // Extension: ICFP18 compile-int-literal
        Expr::Literal { literal, span } => {
            derivation::fire("ICFP18 compile-int-literal", || {
                "𝓔 ⊢ n ⇒ n, i32".to_string()
            });
            Ok((TargetExp::Int(int_literal(literal, *span)?), i32_type()))
        }
        // Extension: ICFP18 compile-infix
        Expr::BinOp { op, lhs, rhs, span } => {
            derivation::fire("ICFP18 compile-infix", || {
                "exp₁ op exp₂ ⇒ op exp₁ exp₂".to_string()
            });
            compile_exp(env, &infix_as_application(op, lhs, rhs, *span), guesses)
        }
        other => Err(outside("this expression", CORE_NAME, other.span())),
    })
}

fn resolve_target(exp: &TargetExp, guesses: &Guesses) -> TargetExp {
    match exp {
        TargetExp::Lambda(label, ty, body) => TargetExp::Lambda(
            label.clone(),
            guesses.resolve(ty),
            Box::new(resolve_target(body, guesses)),
        ),
        TargetExp::Apply(a, b) => TargetExp::Apply(
            Box::new(resolve_target(a, guesses)),
            Box::new(resolve_target(b, guesses)),
        ),
        other => other.clone(),
    }
}

impl Core for PaperCore {
    type Type = Type;
    type TargetExp = TargetExp;
    type Guesses = Guesses;

    const NAME: &'static str = CORE_NAME;

    fn initial_basis() -> Result<super::core_interface::Basis<PaperCore>, Failure> {
        let i32_ty = i32_type();
        let binary = arrow(i32_ty.clone(), arrow(i32_ty.clone(), i32_ty.clone()));
        let mut env = Env::from_te("i32", i32_ty.clone());
        let mut ienv = IEnv::default();
        ienv.te.insert("i32".to_string(), i32_ty);
        let mut context = OrdMap::new();
        for (op, id) in OPERATORS {
            let label = reserved_label(id, op);
            env.ve.insert(op.to_string(), binary.clone());
            ienv.ve
                .insert(op.to_string(), (label.clone(), binary.clone()));
            context.insert(label, binary.clone());
        }
        Ok((env, ienv, context))
    }

    fn elaborate_type(env: &Env<PaperCore>, ty: &TypeExp) -> Result<Type, Failure> {
        elaborate_type(env, ty)
    }

    fn elaborate_dec(env: &Env<PaperCore>, dec: &ValueBind) -> Result<VEnv<PaperCore>, Failure> {
        // ICFP18 val-dec
        derivation::fire("ICFP18 val-dec", || {
            format!("E ⊢ val {} = exp : {{{} ↦ τ}}", dec.name, dec.name)
        });
        let exp = value_binding_as_val(dec)?;
        let mut guesses = Guesses::default();
        let found = elaborate_exp(env, &exp, &mut guesses)?;
        let ty = guesses.resolve(&found);
        if contains_guess(&ty) {
            return Err(undetermined(dec));
        }
        let mut ve = OrdMap::new();
        ve.insert(dec.name.clone(), ty);
        Ok(ve)
    }

    fn compile_dec(
        env: &IEnv<PaperCore>,
        dec: &ValueBind,
    ) -> Result<CompiledDec<PaperCore>, Failure> {
        // ICFP18 rule 48
        derivation::fire("ICFP18 rule 48", || {
            format!("𝓔 ⊢ val {} = exp ⇒ ∃{{l}}.(…)", dec.name)
        });
        let exp = value_binding_as_val(dec)?;
        let mut guesses = Guesses::default();
        let (target, ty) = compile_exp(env, &exp, &mut guesses)?;
        let ty = guesses.resolve(&ty);
        if contains_guess(&ty) {
            return Err(undetermined(dec));
        }
        // l ∉ names(𝓔): the name supply's witness.
        let label = fresh_label(&dec.name);
        let mut values: IVEnv<PaperCore> = OrdMap::new();
        values.insert(dec.name.clone(), (label.clone(), ty));
        Ok(CompiledDec {
            labels: vec![label.clone()],
            values,
            code: Code::Val(label, resolve_target(&target, &guesses)),
        })
    }

    fn type_target_exp(
        context: &Context<PaperCore>,
        exp: &TargetExp,
        _witness: &Substitution<Type>,
        guesses: &mut Guesses,
    ) -> Result<Type, Failure> {
        // The paper's λs are untyped: rule 39's guess is a unification
        // variable, so S is not needed (SPEC_NOTES ICFP18-23).
        type_paper_target_exp(context, exp, guesses)
    }

    fn fresh_guess(guesses: &mut Guesses) -> Type {
        guesses.fresh()
    }

    fn unify(a: &Type, b: &Type, guesses: &mut Guesses) -> bool {
        guesses.unify(a, b)
    }

    fn resolve(ty: &Type, guesses: &Guesses) -> Type {
        guesses.resolve(ty)
    }

    fn corollary_type() -> Type {
        i32_type()
    }

    fn sample_types(_basis: &Env<PaperCore>) -> Vec<Type> {
        let i32_ty = i32_type();
        vec![
            i32_ty.clone(),
            arrow(i32_ty.clone(), i32_ty.clone()),
            arrow(arrow(i32_ty.clone(), i32_ty.clone()), i32_ty),
        ]
    }

    fn display_target_exp(exp: &TargetExp) -> String {
        display_target(exp, 0)
    }
}

/// Γ ⊢ ex : τ (rules 38–40) for the paper's core, whose λs are untyped.
fn type_paper_target_exp(
    context: &Context<PaperCore>,
    exp: &TargetExp,
    guesses: &mut Guesses,
) -> Result<Type, Failure> {
    derivation::judgment(None, || match exp {
        // ICFP18 rule 38
        TargetExp::Label(label) => {
            derivation::fire("ICFP18 rule 38", || format!("Γ ⊢ {} : τ", label.display()));
            context.get(label).cloned().ok_or_else(|| {
                rule_failure(
                    38,
                    "Γ(l) is undefined",
                    format!("unbound label {}", label.display()),
                    Span::default(),
                )
            })
        }
        // ICFP18 rule 39
        TargetExp::Lambda(label, _, body) => {
            derivation::fire("ICFP18 rule 39", || {
                format!("Γ ⊢ λ{} → ex : τ → τ'", label.display())
            });
            // τ is guessed; unification finds the witness.
            let param = guesses.fresh();
            let mut inner = context.clone();
            inner.insert(label.clone(), param.clone());
            let body = type_paper_target_exp(&inner, body, guesses)?;
            Ok(arrow(param, body))
        }
        // ICFP18 rule 40
        TargetExp::Apply(function, argument) => {
            derivation::fire("ICFP18 rule 40", || "Γ ⊢ ex₁ ex₂ : τ".to_string());
            let function_type = type_paper_target_exp(context, function, guesses)?;
            let argument_type = type_paper_target_exp(context, argument, guesses)?;
            let result = guesses.fresh();
            if !guesses.unify(&function_type, &arrow(argument_type, result.clone())) {
                return Err(rule_failure(
                    40,
                    "Γ ⊢ ex₁ : τ' → τ and Γ ⊢ ex₂ : τ'",
                    "type mismatch",
                    Span::default(),
                ));
            }
            Ok(result)
        }
        // Extension: ICFP18 target-int-literal
        TargetExp::Int(_) => {
            derivation::fire("ICFP18 target-int-literal", || "Γ ⊢ n : i32".to_string());
            Ok(i32_type())
        }
    })
}

fn is_operator(label: &Label) -> bool {
    OPERATORS.iter().any(|(_, id)| *id == label.id)
}

/// `op ex` with `op` a predefined operator: the function part of an infix
/// application, printed `ex op ex'`.
fn operator_application(function: &TargetExp) -> Option<(&Label, &TargetExp)> {
    match function {
        TargetExp::Apply(op, left) => match op.as_ref() {
            TargetExp::Label(label) if is_operator(label) => Some((label, left)),
            _ => None,
        },
        _ => None,
    }
}

/// Precedence levels: 0 top (λ body), 1 infix operand, 2 application
/// function, 3 application argument.
fn display_target(exp: &TargetExp, level: u8) -> String {
    let (text, own) = match exp {
        TargetExp::Label(label) => (label.display(), 4),
        TargetExp::Int(n) => (n.to_string(), 4),
        TargetExp::Lambda(label, ty, body) => (
            format!(
                "λ({}:{}) → {}",
                label.display(),
                ty.display(),
                display_target(body, 0)
            ),
            0,
        ),
        TargetExp::Apply(function, argument) => match operator_application(function) {
            Some((op, left)) => (
                format!(
                    "{} {} {}",
                    display_target(left, 2),
                    op.display(),
                    display_target(argument, 2)
                ),
                1,
            ),
            None => (
                format!(
                    "{} {}",
                    display_target(function, 2),
                    display_target(argument, 3)
                ),
                2,
            ),
        },
    };
    if own < level {
        format!("({text})")
    } else {
        text
    }
}
