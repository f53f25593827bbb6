//! TFP'18 §4, Figs. 8–9: the relations `⊨ sv : τ` (static values and
//! types), `⊨ v : sv` (values and static values), the translation of values
//! `⟦v⟧val`, and Lemmas 2–4 and Theorems 1–2 as executable checks.
//!
//! The relations quantify over all arguments of a function (Fig. 8's `Lam`
//! case); the check instantiates the quantifier at the unique static value
//! of an order-zero parameter type (Lemma 2) and checks the structural part
//! only for higher-order parameters (their arguments are checked where they
//! occur, at each application, by D-App itself). Fig. 7 (`⊨ v : τ`) is
//! checked through Fig. 9 and Fig. 8 (`⊨ v : sv` and `⊨ sv : τ`).

use super::defunc::{static_of_type, static_type, Defunctionaliser, Mode, StaticEnv, StaticVal};
use super::syntax::{free_vars, Expr, ExprKind, Name, Program, Type};
use super::typing::{order_zero, Scheme, TypeEnv, Typing};
use super::value::{type_name, Value};
use crate::derivation::fire_rule;
use std::collections::BTreeMap;

/// How deep the `Lam` case of Fig. 8 unfolds before it trusts the rest.
const MAX_DEPTH: usize = 8;

/// `⊨ sv : τ` (Fig. 8). `Err` says which premise failed.
pub fn static_has_type(
    program: &Program,
    sv: &StaticVal,
    ty: &Type,
    or_conditionals: bool,
) -> Result<(), String> {
    OR_CONDITIONALS.with(|flag| flag.set(or_conditionals));
    static_has_type_at(program, sv, ty, 0)
}

thread_local! {
    /// Whether the §7 extension is on for the relation being checked.
    static OR_CONDITIONALS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn typing() -> Typing {
    let mut typing = Typing::new();
    typing.or_conditionals = OR_CONDITIONALS.with(|flag| flag.get());
    typing
}

fn static_has_type_at(
    program: &Program,
    sv: &StaticVal,
    ty: &Type,
    depth: usize,
) -> Result<(), String> {
    let result = match (sv, ty) {
        (StaticVal::Dyn(t), ty)
            if t == ty && order_zero(ty) && !matches!(ty, Type::Record(_) | Type::Array(_)) =>
        {
            // TFP18 R-StaticDyn
            fire_rule("TFP18 R-StaticDyn");
            Ok(())
        }
        (StaticVal::Rcd(svs), Type::Record(ts)) if svs.len() == ts.len() => {
            // TFP18 R-StaticRcd
            fire_rule("TFP18 R-StaticRcd");
            for (l, t) in ts {
                let sv = svs.get(l).ok_or_else(|| format!("Rcd lacks field {l}"))?;
                static_has_type_at(program, sv, t, depth)?;
            }
            Ok(())
        }
        (StaticVal::Arr(sv), Type::Array(t)) => {
            // TFP18 R-StaticArr
            fire_rule("TFP18 R-StaticArr");
            static_has_type_at(program, sv, t, depth)
        }
        (StaticVal::Lam { lambda, env }, Type::Arrow(t1, t2)) => {
            // TFP18 R-StaticLam
            fire_rule("TFP18 R-StaticLam");
            if lambda.param_type != **t1 {
                return Err(format!(
                    "Lam's parameter has type {}, not {}",
                    type_name(&lambda.param_type),
                    type_name(t1)
                ));
            }
            if depth >= MAX_DEPTH {
                return Ok(());
            }
            // Some Γ0 with ⊨ E0 : Γ0 and Γ0, x:τ1 ⊢ e0 : τ2.
            let gamma0 = source_types(program, env, depth)?;
            let inner = gamma0.update(lambda.param.clone(), Scheme::mono((**t1).clone()));
            let body_type = typing()
                .type_of(&inner, &lambda.body)
                .map_err(|e| e.message)?;
            if body_type != **t2 {
                return Err(format!(
                    "Lam's body has type {}, not {}",
                    type_name(&body_type),
                    type_name(t2)
                ));
            }
            if order_zero(t1) {
                // For the unique sv1 with ⊨ sv1 : τ1 (Lemma 2).
                let sv1 = static_of_type(t1);
                let e0 = env.update(lambda.param.clone(), sv1);
                let mut d = Defunctionaliser::new(Mode::Inline, program);
                d.or_conditionals = OR_CONDITIONALS.with(|flag| flag.get());
                let (residual, sv2) = d.defunc(&e0, &lambda.body).map_err(|e| e.message)?;
                static_has_type_at(program, &sv2, t2, depth + 1)?;
                let target_env = super::defunc::static_env_types(&e0);
                let rt = Typing::new()
                    .type_of(&target_env, &residual)
                    .map_err(|e| e.message)?;
                if rt != static_type(&sv2) {
                    return Err("the residual body does not have type ⟦sv2⟧tp".into());
                }
            }
            Ok(())
        }
        (StaticVal::Or(a, b), ty) => {
            // Extension: TFP18 R-StaticOr
            fire_rule("TFP18 R-StaticOr");
            static_has_type_at(program, a, ty, depth)?;
            static_has_type_at(program, b, ty, depth)
        }
        (sv, ty) => Err(format!(
            "{} is not related to {}",
            super::defunc::describe(sv),
            type_name(ty)
        )),
    };
    if result.is_ok() && order_zero(ty) {
        lemma_3(sv, ty)?;
    }
    result
}

/// Γ0 with ⊨ E0 : Γ0: the source type each static value approximates.
fn source_types(program: &Program, env: &StaticEnv, depth: usize) -> Result<TypeEnv, String> {
    let mut out = TypeEnv::new();
    for (x, sv) in env {
        out.insert(x.clone(), Scheme::mono(source_type(program, sv, depth)?));
    }
    Ok(out)
}

fn source_type(program: &Program, sv: &StaticVal, depth: usize) -> Result<Type, String> {
    Ok(match sv {
        StaticVal::Dyn(t) => t.clone(),
        StaticVal::Rcd(fields) => Type::Record(
            fields
                .iter()
                .map(|(l, sv)| Ok((l.clone(), source_type(program, sv, depth)?)))
                .collect::<Result<BTreeMap<_, _>, String>>()?,
        ),
        StaticVal::Arr(sv) => Type::array(source_type(program, sv, depth)?),
        StaticVal::Or(a, _) => source_type(program, a, depth)?,
        StaticVal::Lam { lambda, env } => {
            let gamma0 = source_types(program, env, depth)?;
            let inner = gamma0.update(
                lambda.param.clone(),
                Scheme::mono(lambda.param_type.clone()),
            );
            let t2 = typing()
                .type_of(&inner, &lambda.body)
                .map_err(|e| e.message)?;
            Type::arrow(lambda.param_type.clone(), t2)
        }
    })
}

/// Lemma 2: for order-zero τ, the static value related to τ is unique: it is
/// the one [`static_of_type`] gives.
pub fn lemma_2(sv: &StaticVal, ty: &Type) -> Result<(), String> {
    if order_zero(ty) && *sv != static_of_type(ty) {
        return Err(format!(
            "Lemma 2 fails: {} at {}",
            super::defunc::describe(sv),
            type_name(ty)
        ));
    }
    Ok(())
}

/// Lemma 3: for order-zero τ with ⊨ sv : τ, ⟦sv⟧tp = τ.
pub fn lemma_3(sv: &StaticVal, ty: &Type) -> Result<(), String> {
    lemma_2(sv, ty)?;
    if static_type(sv) != *ty {
        return Err(format!(
            "Lemma 3 fails: ⟦sv⟧tp = {} but τ = {}",
            type_name(&static_type(sv)),
            type_name(ty)
        ));
    }
    Ok(())
}

/// `⊨ v : sv` (Fig. 9).
pub fn value_has_static(v: &Value, sv: &StaticVal) -> Result<(), String> {
    match (v, sv) {
        (Value::Prim(p), StaticVal::Dyn(Type::Prim(t))) if p.prim_type() == *t => {
            // TFP18 R-ValueDyn
            fire_rule("TFP18 R-ValueDyn");
            Ok(())
        }
        (Value::Sum(..), StaticVal::Dyn(Type::Sum(_))) => {
            // Extension: TFP18 R-ValueSum
            fire_rule("TFP18 R-ValueSum");
            Ok(())
        }
        (Value::Record(fields), StaticVal::Rcd(svs)) if fields.len() == svs.len() => {
            // TFP18 R-ValueRcd
            fire_rule("TFP18 R-ValueRcd");
            for (l, sv) in svs {
                let v = fields
                    .get(l)
                    .ok_or_else(|| format!("record lacks field {l}"))?;
                value_has_static(v, sv)?;
            }
            Ok(())
        }
        (Value::Array(rows), StaticVal::Arr(sv)) => {
            // TFP18 R-ValueArr
            fire_rule("TFP18 R-ValueArr");
            rows.iter().try_for_each(|r| value_has_static(r, sv))
        }
        (Value::Closure(c), StaticVal::Lam { lambda, env }) => {
            // TFP18 R-ValueLam
            fire_rule("TFP18 R-ValueLam");
            if c.lambda != *lambda {
                return Err(format!(
                    "the closure's λ{} is not the Lam's λ{}",
                    c.lambda.param, lambda.param
                ));
            }
            for (y, sv) in env {
                let v = c
                    .env
                    .get(y)
                    .ok_or_else(|| format!("the closure lacks {y}"))?;
                value_has_static(v, sv)?;
            }
            Ok(())
        }
        (v, StaticVal::Or(a, b)) => {
            // Extension: TFP18 R-ValueOr
            fire_rule("TFP18 R-ValueOr");
            value_has_static(v, a).or_else(|_| value_has_static(v, b))
        }
        (v, sv) => Err(format!(
            "the value {} is not related to {}",
            short(v),
            super::defunc::describe(sv)
        )),
    }
}

fn short(v: &Value) -> String {
    match v {
        Value::Prim(p) => p.to_string(),
        Value::Closure(c) => format!("clos(λ{}. …)", c.lambda.param),
        Value::Record(_) => "a record".into(),
        Value::Array(_) => "an array".into(),
        Value::Sum(c, _) => format!("#{c} …"),
    }
}

/// ⟦v⟧val: closures become the records of their captured variables (the
/// free variables of the λ, matching D-Lam).
pub fn translate_value(v: &Value) -> Value {
    match v {
        Value::Closure(c) => {
            let lambda_expr = Expr::new(ExprKind::Lambda(c.lambda.clone()), c.lambda.body.span);
            let fields: BTreeMap<Name, Value> = free_vars(&lambda_expr)
                .into_iter()
                .filter_map(|y| c.env.get(&y).map(|v| (y.clone(), translate_value(v))))
                .collect();
            Value::record(fields)
        }
        Value::Record(fields) => Value::record(
            fields
                .iter()
                .map(|(l, v)| (l.clone(), translate_value(v)))
                .collect(),
        ),
        Value::Array(rows) => {
            Value::array(rows.iter().map(translate_value).collect(), rows.row_shape())
        }
        other => other.clone(),
    }
}

/// ⟦v⟧val at static value `sv`: as [`translate_value`], but a value at an
/// `Or` static value (§7) is injected with `#l` or `#r` according to the
/// side it is related to, and closures translate their captured values at
/// the static values of the `Lam`'s environment.
pub fn translate_value_at(v: &Value, sv: &StaticVal) -> Value {
    match (v, sv) {
        (v, StaticVal::Or(a, b)) => {
            if value_has_static(v, a).is_ok() {
                Value::Sum("l".into(), vec![translate_value_at(v, a)])
            } else {
                Value::Sum("r".into(), vec![translate_value_at(v, b)])
            }
        }
        (Value::Closure(c), StaticVal::Lam { env, .. }) => Value::record(
            env.iter()
                .filter_map(|(y, sv)| c.env.get(y).map(|v| (y.clone(), translate_value_at(v, sv))))
                .collect(),
        ),
        (Value::Record(fields), StaticVal::Rcd(svs)) => Value::record(
            fields
                .iter()
                .map(|(l, v)| match svs.get(l) {
                    Some(sv) => (l.clone(), translate_value_at(v, sv)),
                    None => (l.clone(), translate_value(v)),
                })
                .collect(),
        ),
        (v, _) => translate_value(v),
    }
}

/// Lemma 4: for order-zero τ and ⊨ v : τ, ⟦v⟧val = v.
pub fn lemma_4(v: &Value, ty: &Type) -> Result<(), String> {
    if order_zero(ty) && translate_value(v) != *v {
        return Err(format!("Lemma 4 fails at {}", type_name(ty)));
    }
    Ok(())
}

/// Fig. 7: `⊨ v : τ`. A closure's rule quantifies over all arguments; the
/// check uses the Γ its λ was typed in (`⊨ Σ : Γ` on the captured
/// variables, `Γ, x:τ1 ⊢ e0 : τ2`) and applies it to one related argument
/// (the default value of an order-zero τ1) with a small step budget,
/// checking the result if it gives one (`err` is allowed by the rule).
pub fn value_has_type(
    v: &Value,
    ty: &Type,
    contexts: &super::typing::LambdaContexts,
    depth: usize,
) -> Result<(), String> {
    use super::syntax::PrimValue;
    spec::recursion::with_stack(|| match (v, ty) {
        (Value::Prim(PrimValue::Bool(true)), Type::Prim(t))
            if *t == super::syntax::PrimType::Bool =>
        {
            // TFP18 V-True
            fire_rule("TFP18 V-True");
            Ok(())
        }
        (Value::Prim(PrimValue::Bool(false)), Type::Prim(t))
            if *t == super::syntax::PrimType::Bool =>
        {
            // TFP18 V-False
            fire_rule("TFP18 V-False");
            Ok(())
        }
        (Value::Prim(p), Type::Prim(t)) if p.prim_type() == *t => {
            // TFP18 V-Num
            fire_rule("TFP18 V-Num");
            Ok(())
        }
        (Value::Record(fields), Type::Record(types)) if fields.len() == types.len() => {
            // TFP18 V-Rcd
            fire_rule("TFP18 V-Rcd");
            for (l, t) in types {
                let v = fields.get(l).ok_or_else(|| format!("no field {l}"))?;
                value_has_type(v, t, contexts, depth)?;
            }
            Ok(())
        }
        (Value::Array(rows), Type::Array(t)) => {
            // TFP18 V-Arr
            fire_rule("TFP18 V-Arr");
            rows.iter()
                .try_for_each(|r| value_has_type(r, t, contexts, depth))
        }
        (Value::Sum(c, payload), Type::Sum(cs)) => {
            // Extension: TFP18 V-Sum
            fire_rule("TFP18 V-Sum");
            let ts = cs
                .get(c)
                .ok_or_else(|| format!("#{c} is not of type {}", type_name(ty)))?;
            if ts.len() != payload.len() {
                return Err(format!("#{c} has the wrong payload"));
            }
            payload
                .iter()
                .zip(ts)
                .try_for_each(|(v, t)| value_has_type(v, t, contexts, depth))
        }
        (Value::Closure(c), Type::Arrow(t1, t2)) => {
            // TFP18 V-Clos
            fire_rule("TFP18 V-Clos");
            if c.lambda.param_type != **t1 {
                return Err(format!(
                    "the closure takes {}, not {}",
                    type_name(&c.lambda.param_type),
                    type_name(t1)
                ));
            }
            let Some(gamma) = contexts.get(&(std::rc::Rc::as_ptr(&c.lambda) as usize)) else {
                // A λ the typing judgment never saw (built by a caller).
                return Ok(());
            };
            if depth >= 3 {
                return Ok(());
            }
            // ⊨ Σ : Γ on the captured variables.
            let mut env = super::typing::TypeEnv::new();
            for (y, t) in gamma {
                let v = c
                    .env
                    .get(y)
                    .ok_or_else(|| format!("the closure lacks {y}"))?;
                value_has_type(v, t, contexts, depth + 1)?;
                env.insert(y.clone(), Scheme::mono(t.clone()));
            }
            // Γ, x:τ1 ⊢ e0 : τ2.
            let inner = env.update(c.lambda.param.clone(), Scheme::mono((**t1).clone()));
            let body_type = typing()
                .type_of(&inner, &c.lambda.body)
                .map_err(|e| e.message)?;
            if body_type != **t2 {
                return Err(format!(
                    "the closure's body has type {}, not {}",
                    type_name(&body_type),
                    type_name(t2)
                ));
            }
            // One related argument.
            if let Some(v1) = default_value(t1) {
                let mut evaluator = super::eval::Evaluator::new(10_000);
                if let Ok(v2) = evaluator.apply(v.clone(), v1, c.lambda.body.span) {
                    value_has_type(&v2, t2, contexts, depth + 1)?;
                }
            }
            Ok(())
        }
        (v, t) => Err(format!(
            "the value {} is not of type {}",
            short(v),
            type_name(t)
        )),
    })
}

/// A value of an order-zero type (zeros, `false`, empty arrays, the first
/// constructor).
fn default_value(t: &Type) -> Option<Value> {
    Some(match t {
        Type::Prim(p) => Value::Prim(super::primitive::from_i64(0, *p)),
        Type::Record(fields) => Value::record(
            fields
                .iter()
                .map(|(l, t)| Some((l.clone(), default_value(t)?)))
                .collect::<Option<_>>()?,
        ),
        Type::Array(elem) => Value::array(Vec::new(), super::value::empty_shape_of_type(elem)),
        Type::Sum(cs) => {
            let (c, ts) = cs.iter().next()?;
            Value::Sum(
                c.clone(),
                ts.iter().map(default_value).collect::<Option<_>>()?,
            )
        }
        _ => return None,
    })
}
