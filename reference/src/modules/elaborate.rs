//! Elaboration of module types and specifications (ICFP'18 Fig. 7, rules
//! 15–24) and of module expressions and declarations (Fig. 8, rules 25–37).
//!
//! One function per judgment, one match arm per rule. Bound type variables are
//! chosen fresh by the name supply whenever an object is created or looked up,
//! so the freshness side conditions (`T ∩ tvs(E) = ∅`, `T₁ ∩ T₂ = ∅`) hold by
//! construction; they are still checked, and a violation would be reported as
//! a failure of the rule.

use super::core_interface::{Core, CoreType};
use super::error::{rule_failure, Failure};
use super::kernel::{KDec, KModExp, KModType, KSpec};
use super::matching::{matches_env, matches_mod};
use super::objects::fresh_tyvar;
use super::objects::{
    freshen_funsig, freshen_mty, prune_mty, subst_env, subst_mty, tvs_env, Env, FunSig, MTy, Mod,
    Substitution, TypeVarSet,
};
use crate::ablation::{self, *};
use crate::derivation;
use spec::source::Span;
use spec::syntax::ast::{QualName, ValueBind};

fn disjoint(a: &TypeVarSet, b: &TypeVarSet) -> bool {
    a.intersection(b).next().is_none()
}

fn freshness(rule: u32, premise: &'static Premise, ok: bool, span: Span) -> Result<(), Failure> {
    if ablation::holds(premise, ok) {
        Ok(())
    } else {
        Err(rule_failure(
            rule,
            format!("side condition {}", premise.statement),
            "violated (the name supply should have prevented this)",
            span,
        ))
    }
}

fn long_text(name: &QualName) -> String {
    super::kernel::long_name(name)
}

/// E(longmid) for module identifiers.
pub fn lookup_long_module<'a, C: Core>(
    env: &'a Env<C>,
    name: &QualName,
) -> Result<&'a Mod<C>, String> {
    let mut current = env;
    for qualifier in &name.qualifiers {
        current = match current.me.get(qualifier) {
            Some(Mod::Env(inner)) => inner,
            Some(Mod::FunSig(_)) => return Err(format!("{qualifier} is a parameterised module")),
            None => return Err(format!("unknown module {qualifier}")),
        };
    }
    current
        .me
        .get(&name.name)
        .ok_or_else(|| format!("unknown module {}", long_text(name)))
}

/// E(longmtid) (a qualified module type name is an extension of rule 15).
fn lookup_long_mty<'a, C: Core>(env: &'a Env<C>, name: &QualName) -> Result<&'a MTy<C>, String> {
    let mut current = env;
    for qualifier in &name.qualifiers {
        current = match current.me.get(qualifier) {
            Some(Mod::Env(inner)) => inner,
            Some(Mod::FunSig(_)) => return Err(format!("{qualifier} is a parameterised module")),
            None => return Err(format!("unknown module {qualifier}")),
        };
    }
    current
        .g
        .get(&name.name)
        .ok_or_else(|| format!("unknown module type {}", long_text(name)))
}

/// E'(longtid) = τ.
fn lookup_long_type<C: Core>(env: &Env<C>, name: &QualName) -> Option<C::Type> {
    let mut current = env;
    for qualifier in &name.qualifiers {
        current = match current.me.get(qualifier) {
            Some(Mod::Env(inner)) => inner,
            _ => return None,
        };
    }
    current.te.get(&name.name).cloned()
}

// ---------------------------------------------------------------------------
// Fig. 7: module types and specifications

/// E ⊢ mty : Σ (rules 15–18).
pub fn elab_mod_type<C: Core>(env: &Env<C>, mty: &KModType) -> Result<MTy<C>, Failure> {
    let sigma = elab_mod_type_rules(env, mty)?;
    derivation::conclusion(|| format!("Σ = {}", super::print::mty(&sigma)));
    // Proposition 7.1, checked on every module type: Σ is type explicit.
    super::explication::explicit_mty(&sigma).map_err(|detail| {
        Failure::new(
            "Proposition 7.1",
            "the module type is not type explicit",
            detail,
            mty.span(),
        )
    })?;
    Ok(sigma)
}

fn elab_mod_type_rules<C: Core>(env: &Env<C>, mty: &KModType) -> Result<MTy<C>, Failure> {
    derivation::judgment(Some(mty.span()), || match mty {
        // ICFP18 rule 15
        KModType::Id(name) => {
            derivation::fire("ICFP18 rule 15", || format!("E ⊢ {} : Σ", long_text(name)));
            let sigma = lookup_long_mty(env, name).map_err(|detail| {
                rule_failure(15, format!("E({}) = Σ", long_text(name)), detail, name.span)
            })?;
            Ok(freshen_mty(sigma))
        }
        // ICFP18 rule 16
        KModType::With {
            mod_type,
            longtid,
            ty,
            span,
        } => {
            derivation::fire("ICFP18 rule 16", || {
                format!("E ⊢ mty with {} = ty : Σ", long_text(longtid))
            });
            let sigma = elab_mod_type(env, mod_type)?;
            let Mod::Env(inner) = sigma.module.as_ref() else {
                return Err(rule_failure(
                    16,
                    "E ⊢ mty : ∃T.E' requires a non-parameterised module type",
                    "the refined module type is parameterised",
                    *span,
                ));
            };
            let tau = C::elaborate_type(env, ty)?;
            let found = lookup_long_type(inner, longtid).ok_or_else(|| {
                rule_failure(
                    16,
                    format!("E'({}) = t", long_text(longtid)),
                    format!("the module type has no type {}", long_text(longtid)),
                    longtid.span,
                )
            })?;
            let t = found.as_variable().ok_or_else(|| {
                rule_failure(
                    16,
                    format!("E'({}) = t", long_text(longtid)),
                    format!(
                        "type {} is already defined as {}",
                        long_text(longtid),
                        found.display()
                    ),
                    longtid.span,
                )
            })?;
            if !ablation::holds(&ICFP18_16_ABSTRACT, sigma.bound.contains(&t)) {
                return Err(rule_failure(
                    16,
                    "t ∈ T",
                    format!(
                        "type {} is not abstract in the module type (it is {})",
                        long_text(longtid),
                        found.display()
                    ),
                    longtid.span,
                ));
            }
            let mut s = Substitution::default();
            s.map.insert(t.clone(), tau);
            let mut bound = sigma.bound.clone();
            bound.remove(&t);
            Ok(prune_mty(MTy::new(bound, Mod::Env(subst_env(&s, inner)))))
        }
        // ICFP18 rule 17
        KModType::Sig(specs, _) => {
            derivation::fire("ICFP18 rule 17", || "E ⊢ { spec } : Σ".to_string());
            let (bound, spec_env) = elab_specs(env, specs)?;
            Ok(MTy::new(bound, Mod::Env(spec_env)))
        }
        // ICFP18 rule 18
        KModType::Arrow {
            param,
            from,
            to,
            span,
        } => {
            derivation::fire("ICFP18 rule 18", || {
                format!("E ⊢ {param} : mty₁ → mty₂ : ∀T.(E', Σ)")
            });
            let param_sigma = elab_mod_type(env, from)?;
            let Mod::Env(param_env) = param_sigma.module.as_ref() else {
                return Err(rule_failure(
                    18,
                    "E ⊢ mty₁ : ∃T.E' requires a non-parameterised parameter module type",
                    format!("the parameter {param} has a parameterised module type"),
                    from.span(),
                ));
            };
            let extended = env.plus(&Env::from_module(param, Mod::Env(param_env.clone())));
            let result = elab_mod_type(&extended, to)?;
            let mut avoid = tvs_env(env);
            avoid.extend(result.bound.iter().cloned());
            freshness(
                18,
                &ICFP18_18_FRESH,
                disjoint(&param_sigma.bound, &avoid),
                *span,
            )?;
            Ok(MTy::plain(Mod::FunSig(FunSig {
                bound: param_sigma.bound.clone(),
                param: param_env.clone(),
                result: Box::new(result),
            })))
        }
    })
}

/// E ⊢ spec : ∃T.E' for a sequence (rules 23, 24).
pub fn elab_specs<C: Core>(env: &Env<C>, specs: &[KSpec]) -> Result<(TypeVarSet, Env<C>), Failure> {
    derivation::judgment(None, || match specs {
        // ICFP18 rule 24
        [] => {
            derivation::fire("ICFP18 rule 24", || "E ⊢ ε : ∃∅.{}".to_string());
            Ok((TypeVarSet::new(), Env::default()))
        }
        // ICFP18 rule 23
        [first, rest @ ..] => {
            derivation::fire("ICFP18 rule 23", || {
                "E ⊢ spec₁ spec₂ : ∃(T₁ ∪ T₂).(E₁ + E₂)".to_string()
            });
            let (bound1, env1) = elab_spec(env, first)?;
            let (bound2, env2) = elab_specs(&env.plus(&env1), rest)?;
            let mut avoid = tvs_env(env);
            avoid.extend(bound2.iter().cloned());
            freshness(
                23,
                &ICFP18_23_FRESH,
                disjoint(&bound1, &avoid),
                first.span(),
            )?;
            if let Some(clash) = overlap(&env1, &env2) {
                if !ablation::holds(&ICFP18_23_DISJOINT, false) {
                    return Err(rule_failure(
                        23,
                        "Dom E₁ ∩ Dom E₂ = ∅",
                        format!("{clash} is specified twice"),
                        first.span(),
                    ));
                }
            }
            let mut bound = bound1;
            bound.extend(bound2);
            Ok((bound, env1.plus(&env2)))
        }
    })
}

/// The first identifier both environments bind, in the same class.
fn overlap<C: Core>(a: &Env<C>, b: &Env<C>) -> Option<String> {
    if let Some(tid) = a.te.keys().find(|k| b.te.contains_key(*k)) {
        return Some(format!("type {tid}"));
    }
    if let Some(vid) = a.ve.keys().find(|k| b.ve.contains_key(*k)) {
        return Some(format!("val {vid}"));
    }
    if let Some(mid) = a.me.keys().find(|k| b.me.contains_key(*k)) {
        return Some(format!("module {mid}"));
    }
    None
}

impl KSpec {
    pub fn span(&self) -> Span {
        match self {
            KSpec::Val { span, .. }
            | KSpec::Type { span, .. }
            | KSpec::Module { span, .. }
            | KSpec::Include { span, .. } => *span,
        }
    }
}

/// E ⊢ spec : ∃T.E' for one specification (rules 19–22).
pub fn elab_spec<C: Core>(env: &Env<C>, spec: &KSpec) -> Result<(TypeVarSet, Env<C>), Failure> {
    derivation::judgment(None, || match spec {
        // ICFP18 rule 19
        KSpec::Type { name, .. } => {
            derivation::fire("ICFP18 rule 19", || {
                format!("E ⊢ type {name} : ∃{{t}}.{{{name} ↦ t}}")
            });
            let t = fresh_tyvar(name);
            Ok((
                TypeVarSet::from([t.clone()]),
                Env::from_te(name, C::Type::variable(t)),
            ))
        }
        // ICFP18 rule 20
        KSpec::Val {
            name,
            type_params,
            ty,
            ..
        } => {
            derivation::fire("ICFP18 rule 20", || {
                format!("E ⊢ val {name} : ty : ∃∅.{{{name} ↦ τ}}")
            });
            let tau = C::elaborate_value_spec(env, type_params, ty)?;
            let mut spec_env = Env::default();
            spec_env.ve.insert(name.clone(), tau);
            Ok((TypeVarSet::new(), spec_env))
        }
        // ICFP18 rule 21
        KSpec::Module { name, mod_type, .. } => {
            derivation::fire("ICFP18 rule 21", || {
                format!("E ⊢ module {name} : mty : ∃T.{{{name} ↦ M}}")
            });
            let sigma = elab_mod_type(env, mod_type)?;
            Ok((sigma.bound, Env::from_module(name, *sigma.module)))
        }
        // ICFP18 rule 22
        KSpec::Include { mod_type, span } => {
            derivation::fire("ICFP18 rule 22", || "E ⊢ include mty : ∃T.E'".to_string());
            let sigma = elab_mod_type(env, mod_type)?;
            match *sigma.module {
                Mod::Env(included) => Ok((sigma.bound, included)),
                Mod::FunSig(_) => Err(rule_failure(
                    22,
                    "E ⊢ mty : ∃T.E' requires a non-parameterised module type",
                    "cannot include a parameterised module type",
                    *span,
                )),
            }
        }
    })
}

// ---------------------------------------------------------------------------
// Fig. 8: module expressions and declarations

/// E ⊢ mexp : Σ (rules 25–29 and 37).
pub fn elab_mod_exp<C: Core>(env: &Env<C>, mexp: &KModExp) -> Result<MTy<C>, Failure> {
    let result = elab_mod_exp_rules(env, mexp);
    if let Ok(sigma) = &result {
        derivation::conclusion(|| format!("Σ = {}", super::print::mty(sigma)));
    }
    result
}

fn elab_mod_exp_rules<C: Core>(env: &Env<C>, mexp: &KModExp) -> Result<MTy<C>, Failure> {
    derivation::judgment(Some(mexp.span()), || match mexp {
        // ICFP18 rule 25
        KModExp::Struct(decs, _) => {
            derivation::fire("ICFP18 rule 25", || "E ⊢ { mdec } : Σ".to_string());
            let (bound, dec_env) = elab_decs(env, decs)?;
            Ok(prune_mty(MTy::new(bound, Mod::Env(dec_env))))
        }
        // ICFP18 rule 26
        KModExp::Proj(inner, mid, span) => {
            derivation::fire("ICFP18 rule 26", || format!("E ⊢ mexp.{mid} : ∃T.E''"));
            let sigma = elab_mod_exp(env, inner)?;
            let Mod::Env(inner_env) = sigma.module.as_ref() else {
                return Err(rule_failure(
                    26,
                    "E ⊢ mexp : ∃T.E' requires a structure",
                    format!("cannot project {mid} from a parameterised module"),
                    *span,
                ));
            };
            // E'(mid) may be a parameterised module too (SPEC_NOTES ICFP18-6).
            let component = inner_env.me.get(mid).ok_or_else(|| {
                rule_failure(
                    26,
                    format!("E'({mid}) = E''"),
                    format!("unknown module {mid}"),
                    *span,
                )
            })?;
            Ok(prune_mty(MTy::new(sigma.bound.clone(), component.clone())))
        }
        // ICFP18 rule 27
        KModExp::Id(mid, span) => {
            derivation::fire("ICFP18 rule 27", || format!("E ⊢ {mid} : ∃∅.E'"));
            let module = env.me.get(mid).ok_or_else(|| {
                rule_failure(
                    27,
                    format!("E({mid}) = E'"),
                    format!("unknown module {mid}"),
                    *span,
                )
            })?;
            Ok(MTy::plain(module.clone()))
        }
        // ICFP18 rule 28
        KModExp::Lambda {
            param,
            mod_type,
            body,
            span,
        } => {
            derivation::fire("ICFP18 rule 28", || {
                format!("E ⊢ λ{param} : mty → mexp : ∃∅.F")
            });
            let param_sigma = elab_mod_type(env, mod_type)?;
            let Mod::Env(param_env) = param_sigma.module.as_ref() else {
                return Err(rule_failure(
                    28,
                    "E ⊢ mty : ∃T.E' requires a non-parameterised parameter module type",
                    format!("the parameter {param} has a parameterised module type"),
                    mod_type.span(),
                ));
            };
            let extended = env.plus(&Env::from_module(param, Mod::Env(param_env.clone())));
            let result = elab_mod_exp(&extended, body)?;
            freshness(
                28,
                &ICFP18_28_FRESH,
                disjoint(&param_sigma.bound, &tvs_env(env)),
                *span,
            )?;
            Ok(MTy::plain(Mod::FunSig(FunSig {
                bound: param_sigma.bound.clone(),
                param: param_env.clone(),
                result: Box::new(result),
            })))
        }
        // ICFP18 rule 29
        KModExp::Apply {
            functor,
            argument,
            span,
        } => {
            derivation::fire("ICFP18 rule 29", || {
                format!("E ⊢ {}(mexp) : ∃(T ∪ T').E'''", long_text(functor))
            });
            let argument_sigma = elab_mod_exp(env, argument)?;
            apply_functor(env, functor, &argument_sigma, argument.span(), *span)
        }
        // Extension: ICFP18 poly-instantiate
        KModExp::Instantiate {
            functor,
            value,
            span,
        } => {
            derivation::fire("ICFP18 poly-instantiate", || {
                format!(
                    "E ⊢ {}(val {} = exp) : Σ (§8.1)",
                    long_text(functor),
                    value.name
                )
            });
            let argument_env = instantiation_argument(env, functor, value)?;
            apply_functor(
                env,
                functor,
                &MTy::plain(Mod::Env(argument_env)),
                value.span,
                *span,
            )
        }
        // ICFP18 rule 37
        KModExp::Ascribe {
            module,
            mod_type,
            span,
        } => {
            derivation::fire("ICFP18 rule 37", || "E ⊢ mexp : mty : Σ".to_string());
            let sigma = elab_mod_exp(env, module)?;
            let specified = elab_mod_type(env, mod_type)?;
            freshness(
                37,
                &ICFP18_37_FRESH,
                disjoint(&sigma.bound, &tvs_env(env)),
                *span,
            )?;
            // E' ≻ E'' and E'' ≤ Σ: E'' and the witness S computed by matching.
            if let Err(detail) = matches_mod(&sigma.module, &specified) {
                if !ablation::holds(&ICFP18_37_MATCH, false) {
                    return Err(rule_failure(
                        37,
                        "the module does not match the module type",
                        detail,
                        *span,
                    ));
                }
            }
            Ok(freshen_mty(&specified))
        }
    })
}

/// E ⊢ mdec : ∃T.E' for a sequence (rules 35, 36).
pub fn elab_decs<C: Core>(env: &Env<C>, decs: &[KDec]) -> Result<(TypeVarSet, Env<C>), Failure> {
    derivation::judgment(None, || match decs {
        // ICFP18 rule 35
        [] => {
            derivation::fire("ICFP18 rule 35", || "E ⊢ ε : ∃∅.{}".to_string());
            Ok((TypeVarSet::new(), Env::default()))
        }
        // ICFP18 rule 36
        [first, rest @ ..] => {
            derivation::fire("ICFP18 rule 36", || {
                "E ⊢ mdec₁ mdec₂ : ∃(T₁ ∪ T₂).(E₁ + E₂)".to_string()
            });
            let (bound1, env1) = elab_dec(env, first)?;
            let (bound2, env2) = elab_decs(&env.plus(&env1), rest)?;
            let mut avoid = tvs_env(env);
            avoid.extend(bound2.iter().cloned());
            freshness(
                36,
                &ICFP18_36_FRESH,
                disjoint(&bound1, &avoid),
                first.span(),
            )?;
            let mut bound = bound1;
            bound.extend(bound2);
            // Bound variables that shadowing made unused are removed (§4.4).
            let combined = env1.plus(&env2);
            let sigma = prune_mty(MTy::new(bound, Mod::Env(combined.clone())));
            Ok((sigma.bound, combined))
        }
    })
}

/// E ⊢ mdec : ∃T.E' for one declaration (rules 30–34).
pub fn elab_dec<C: Core>(env: &Env<C>, dec: &KDec) -> Result<(TypeVarSet, Env<C>), Failure> {
    derivation::judgment(Some(dec.span()), || match dec {
        // ICFP18 rule 30
        KDec::Core(bind) => {
            derivation::fire("ICFP18 rule 30", || {
                format!("E ⊢ dec : ∃∅.E' (val {})", bind.name)
            });
            let ve = C::elaborate_dec(env, bind)?;
            Ok((TypeVarSet::new(), Env::from_ve(ve)))
        }
        // ICFP18 rule 31
        KDec::Type { name, ty, .. } => {
            derivation::fire("ICFP18 rule 31", || {
                format!("E ⊢ type {name} = ty : ∃∅.{{{name} ↦ τ}}")
            });
            let tau = C::elaborate_type(env, ty)?;
            Ok((TypeVarSet::new(), Env::from_te(name, tau)))
        }
        // ICFP18 rule 32
        KDec::Module { name, module, .. } => {
            derivation::fire("ICFP18 rule 32", || {
                format!("E ⊢ module {name} = mexp : ∃T.{{{name} ↦ M}}")
            });
            let sigma = elab_mod_exp(env, module)?;
            Ok((sigma.bound, Env::from_module(name, *sigma.module)))
        }
        // ICFP18 rule 33
        KDec::Open { module, span } => {
            derivation::fire("ICFP18 rule 33", || "E ⊢ open mexp : Σ".to_string());
            let sigma = elab_mod_exp(env, module)?;
            match *sigma.module {
                Mod::Env(opened) => Ok((sigma.bound, opened)),
                Mod::FunSig(_) => Err(rule_failure(
                    33,
                    "E ⊢ mexp : ∃T.E' requires a structure",
                    "cannot open a parameterised module",
                    *span,
                )),
            }
        }
        // ICFP18 rule 34
        KDec::ModType { name, mod_type, .. } => {
            derivation::fire("ICFP18 rule 34", || {
                format!("E ⊢ module type {name} = mty : ∃∅.{{{name} ↦ Σ}}")
            });
            let sigma = elab_mod_type(env, mod_type)?;
            Ok((TypeVarSet::new(), Env::from_mty(name, sigma)))
        }
    })
}

/// The rest of rule 29 once the argument is elaborated: E(longmid) = F,
/// (E'', ∃T'.E''') ≤ F with E' ≻ E'' (S and E'' computed by matching), and the
/// result ∃(T ∪ T').E'''.
fn apply_functor<C: Core>(
    env: &Env<C>,
    functor: &QualName,
    argument_sigma: &MTy<C>,
    argument_span: Span,
    span: Span,
) -> Result<MTy<C>, Failure> {
    let Mod::Env(argument_env) = argument_sigma.module.as_ref() else {
        return Err(rule_failure(
            29,
            "E ⊢ mexp : ∃T.E' requires the argument to be a structure",
            "the argument is a parameterised module",
            argument_span,
        ));
    };
    let funsig = lookup_functor(env, functor, 29)?;
    let (_, s) = matches_env(argument_env, &funsig.bound, &funsig.param).map_err(|detail| {
        rule_failure(
            29,
            "argument does not match the parameter module type",
            detail,
            argument_span,
        )
    })?;
    let result = freshen_mty(&subst_mty(&s, &funsig.result));
    freshness(
        29,
        &ICFP18_29_FRESH_RESULT,
        disjoint(&argument_sigma.bound, &result.bound),
        span,
    )?;
    let mut bound = argument_sigma.bound.clone();
    bound.extend(result.bound.iter().cloned());
    freshness(
        29,
        &ICFP18_29_FRESH_ENV,
        disjoint(&bound, &tvs_env(env)),
        span,
    )?;
    // The result may be parameterised (curried functors, §10.1; ICFP18-5).
    Ok(prune_mty(MTy::new(bound, *result.module)))
}

/// E(longmid) = F, with F's bound variables renamed fresh.
fn lookup_functor<C: Core>(
    env: &Env<C>,
    functor: &QualName,
    rule: u32,
) -> Result<FunSig<C>, Failure> {
    let functor_module = lookup_long_module(env, functor).map_err(|detail| {
        rule_failure(
            rule,
            format!("E({}) = F", long_text(functor)),
            detail,
            functor.span,
        )
    })?;
    let Mod::FunSig(funsig) = functor_module else {
        return Err(rule_failure(
            rule,
            format!("E({}) = F", long_text(functor)),
            format!("{} is not a parameterised module", long_text(functor)),
            functor.span,
        ));
    };
    Ok(freshen_funsig(funsig))
}

/// §8.1's argument `{ type a = τ_a … val f = exp }` of a polymorphic
/// function's functor: E ⊢ val f = exp : {f ↦ τ}, then S with Supp S ⊆ T₀ and
/// S(E₀(f)) = τ by matching (the types "determined directly from the calling
/// context"), and TE = S(TE₀).
pub fn instantiation_argument<C: Core>(
    env: &Env<C>,
    functor: &QualName,
    value: &ValueBind,
) -> Result<Env<C>, Failure> {
    let funsig = lookup_functor(env, functor, 29)?;
    let ve = C::elaborate_dec(env, value)?;
    let instantiation_type = |ve: &super::objects::VEnv<C>| ve.get(&value.name).cloned();
    let found = instantiation_type(&ve)
        .ok_or_else(|| polymorphic_failure(value, "the argument has no type"))?;
    let expected = funsig
        .param
        .ve
        .get(&value.name)
        .cloned()
        .ok_or_else(|| polymorphic_failure(value, "the functor has no such parameter"))?;
    let mut s = Substitution::default();
    if !C::Type::match_into(&expected, &found, &funsig.bound, &mut s) {
        return Err(polymorphic_failure(
            value,
            format!(
                "the argument has type {}, not an instance of {}",
                found.display(),
                expected.display()
            ),
        ));
    }
    let mut argument = Env::from_ve(ve);
    for (tid, ty) in &funsig.param.te {
        let instance = ty.substitute(&s);
        if instance
            .as_variable()
            .is_some_and(|t| funsig.bound.contains(&t))
        {
            return Err(polymorphic_failure(
                value,
                format!("the type parameter {tid} is not determined by the argument"),
            ));
        }
        argument.te.insert(tid.clone(), instance);
    }
    Ok(argument)
}

fn polymorphic_failure(value: &ValueBind, detail: impl Into<String>) -> Failure {
    Failure::new(
        "§8.1",
        format!(
            "cannot instantiate the polymorphic function at its argument {}",
            value.name
        ),
        detail,
        value.span,
    )
}
