//! Static interpretation (ICFP'18 §5.6, Fig. 12, rules 54–65): module
//! expressions and declarations interpreted into target code with fresh
//! labels, `𝓔 ⊢ mexp ⇒ Ψ` and `𝓔 ⊢ mdec ⇒ ∃N.(𝓔', c)`.
//!
//! Opaque ascription `mexp : mty` (rule 37 in elaboration) has no rule in
//! Fig. 12; it is interpreted by the extension rule `interpret-ascription`
//! (SPEC_NOTES ICFP18-3), which filters like rule 58 and then shows the
//! module at the abstract types of its module type, bound in N.

use super::core_interface::Core;
use super::elaborate::{elab_mod_exp, elab_mod_type};
use super::error::{rule_failure, Failure};
use super::filtering::{filter_env, filter_mod};
use super::interp_objects::{erase_env, erase_mod, Closure, IEnv, IMod, ITarget, NameItem, Names};
use super::kernel::{KDec, KModExp};
use super::matching::{matches_env, matches_mod};
use super::objects::{freshen_mty, subst_env, subst_mty, Env, MTy, Mod, Substitution};
use super::target::Code;
use crate::derivation;
use spec::source::Span;
use spec::syntax::ast::QualName;
use std::rc::Rc;

/// 𝓔(longmid).
fn lookup_long_imodule<'a, C: Core>(
    env: &'a IEnv<C>,
    name: &QualName,
) -> Result<&'a IMod<C>, String> {
    let mut current = env;
    for qualifier in &name.qualifiers {
        current = match current.me.get(qualifier) {
            Some(IMod::Env(inner)) => inner,
            Some(IMod::Closure(_)) => return Err(format!("{qualifier} is a functor closure")),
            None => return Err(format!("unknown module {qualifier}")),
        };
    }
    current
        .me
        .get(&name.name)
        .ok_or_else(|| format!("unknown module {}", super::kernel::long_name(name)))
}

fn label_names(labels: &[super::objects::Label]) -> Names {
    labels.iter().cloned().map(NameItem::Label).collect()
}

/// 𝓔 ⊢ mexp ⇒ Ψ (rules 54–58 and the ascription extension).
pub fn interp_mod_exp<C: Core>(env: &IEnv<C>, mexp: &KModExp) -> Result<ITarget<C>, Failure> {
    derivation::judgment(Some(mexp.span()), || match mexp {
        // ICFP18 rule 54
        KModExp::Struct(decs, _) => {
            derivation::fire("ICFP18 rule 54", || "𝓔 ⊢ { mdec } ⇒ ∃N.(𝓔', c)".to_string());
            let (names, dec_env, code) = interp_decs(env, decs)?;
            Ok(ITarget {
                names,
                module: IMod::Env(dec_env),
                code,
            })
        }
        // ICFP18 rule 55
        KModExp::Id(mid, span) => {
            derivation::fire("ICFP18 rule 55", || format!("𝓔 ⊢ {mid} ⇒ ∃∅.(𝓔', ε)"));
            let module = env.me.get(mid).ok_or_else(|| {
                rule_failure(
                    55,
                    format!("𝓔({mid}) = 𝓔'"),
                    format!("unknown module {mid}"),
                    *span,
                )
            })?;
            Ok(ITarget {
                names: Names::new(),
                module: module.clone(),
                code: Code::Empty,
            })
        }
        // ICFP18 rule 56
        KModExp::Proj(inner, mid, span) => {
            derivation::fire("ICFP18 rule 56", || format!("𝓔 ⊢ mexp.{mid} ⇒ ∃N.(𝓔'', c)"));
            let target = interp_mod_exp(env, inner)?;
            let IMod::Env(inner_env) = &target.module else {
                return Err(rule_failure(
                    56,
                    "𝓔 ⊢ mexp ⇒ ∃N.(𝓔', c) requires a structure",
                    "",
                    *span,
                ));
            };
            let component = inner_env.me.get(mid).ok_or_else(|| {
                rule_failure(
                    56,
                    format!("𝓔'({mid}) = 𝓔''"),
                    format!("unknown module {mid}"),
                    *span,
                )
            })?;
            Ok(ITarget {
                names: target.names.clone(),
                module: component.clone(),
                code: target.code.clone(),
            })
        }
        // ICFP18 rule 57
        KModExp::Lambda {
            param,
            mod_type,
            body,
            span,
        } => {
            derivation::fire("ICFP18 rule 57", || {
                format!("𝓔 ⊢ λ{param} : mty → mexp ⇒ ∃∅.Φ")
            });
            let erased = erase_env(env);
            // T ∩ names(𝓔) = ∅: the elaboration picks T fresh.
            let param_sigma = elab_mod_type(&erased, mod_type)?;
            let Mod::Env(param_env) = param_sigma.module.as_ref() else {
                return Err(rule_failure(
                    57,
                    "𝓔‾ ⊢ mty ⇒ ∃T.E requires a structure type",
                    "",
                    *span,
                ));
            };
            let extended = erased.plus(&Env::from_module(param, Mod::Env(param_env.clone())));
            let result = elab_mod_exp(&extended, body)?;
            let funsig = super::objects::FunSig {
                bound: param_sigma.bound.clone(),
                param: param_env.clone(),
                result: Box::new(result),
            };
            Ok(ITarget {
                names: Names::new(),
                module: IMod::Closure(Rc::new(Closure {
                    id: super::objects::fresh_tyvar("closure").id,
                    env: env.clone(),
                    funsig,
                    param: param.clone(),
                    body: body.clone(),
                })),
                code: Code::Empty,
            })
        }
        // ICFP18 rule 58
        KModExp::Apply {
            functor,
            argument,
            span,
        } => {
            derivation::fire("ICFP18 rule 58", || {
                format!(
                    "𝓔 ⊢ {}(mexp) ⇒ ∃(N ∪ N').(𝓔''', c ; c')",
                    super::kernel::long_name(functor)
                )
            });
            let argument_target = interp_mod_exp(env, argument)?;
            apply_interpreted(env, functor, argument_target, argument.span(), *span)
        }
        // Extension: ICFP18 interpret-poly-instantiate
        KModExp::Instantiate {
            functor,
            value,
            span,
        } => {
            derivation::fire("ICFP18 interpret-poly-instantiate", || {
                format!(
                    "𝓔 ⊢ {}(val {} = exp) ⇒ Ψ (§8.1)",
                    super::kernel::long_name(functor),
                    value.name
                )
            });
            // The argument { type a = τ_a … val f = exp }: its types as in
            // elaboration, its value compiled by the core (rule 48).
            let argument_env =
                super::elaborate::instantiation_argument(&erase_env(env), functor, value)?;
            let compiled = C::compile_dec(env, value)?;
            let argument_target = ITarget {
                names: label_names(&compiled.labels),
                module: IMod::Env(IEnv {
                    te: argument_env.te,
                    ve: compiled.values,
                    ..IEnv::default()
                }),
                code: compiled.code,
            };
            apply_interpreted(env, functor, argument_target, value.span, *span)
        }
        // Extension: ICFP18 interpret-ascription
        KModExp::Ascribe {
            module,
            mod_type,
            span,
        } => {
            derivation::fire("ICFP18 interpret-ascription", || {
                "𝓔 ⊢ mexp : mty ⇒ ∃(N ∪ T).(𝓜'', c)".to_string()
            });
            let target = interp_mod_exp(env, module)?;
            let specified = freshen_mty(&elab_mod_type(&erase_env(env), mod_type)?);
            seal(target, &specified, 37, *span)
        }
    })
}

/// 𝓔₀ + {mid ↦ 𝓔''} ⊢ mexp' ⇒ ∃N'.(𝓔''', c') for a closure, with the result
/// shown at ∃T'.E'' = S(Σ) of its F and T' added to N' (rule 58's
/// "(E', ∃T'.E'') ≤ F and T' ⊆ N'", SPEC_NOTES ICFP18-7).
pub fn apply_closure<C: Core>(
    closure: &Closure<C>,
    argument: IEnv<C>,
    s: &Substitution<C::Type>,
    span: Span,
) -> Result<ITarget<C>, Failure> {
    let body_env = closure
        .env
        .plus(&IEnv::from_module(&closure.param, IMod::Env(argument)));
    let body_target = interp_mod_exp(&body_env, &closure.body)?;
    let result = freshen_mty(&subst_mty(s, &closure.funsig.result));
    seal(body_target, &result, 58, span)
}

/// Ψ cut down to Σ = ∃T.M by filtering and shown at Σ's types, T added to N.
fn seal<C: Core>(
    target: ITarget<C>,
    sigma: &MTy<C>,
    rule: u32,
    span: Span,
) -> Result<ITarget<C>, Failure> {
    let (cut, witness) = matches_mod(&erase_mod(&target.module), sigma).map_err(|detail| {
        rule_failure(
            rule,
            "the module does not match the module type",
            detail,
            span,
        )
    })?;
    // The witness of T (fresh: Σ was freshened) for the core's target typing.
    C::record_sealing(&witness);
    let filtered = filter_mod(&target.module, &cut)
        .map_err(|detail| rule_failure(rule, "⊢ 𝓜 :: M ⇒ 𝓜'", detail, span))?;
    let shown = show_at(&filtered, sigma);
    let mut names = target.names;
    names.extend(sigma.bound.iter().cloned().map(NameItem::Type));
    Ok(ITarget {
        names,
        module: shown,
        code: target.code,
    })
}

/// 𝓜 with the types of the module type Σ: TE from Σ, the types of 𝓥E from Σ,
/// closures with Σ's F (the abstract view of an opaque ascription).
pub fn show_at<C: Core>(module: &IMod<C>, sigma: &MTy<C>) -> IMod<C> {
    fn env_at<C: Core>(env: &IEnv<C>, spec_env: &Env<C>) -> IEnv<C> {
        IEnv {
            te: spec_env.te.clone(),
            ve: spec_env
                .ve
                .iter()
                .filter_map(|(vid, ty)| {
                    env.ve
                        .get(vid)
                        .map(|(label, _)| (vid.clone(), (label.clone(), ty.clone())))
                })
                .collect(),
            me: spec_env
                .me
                .iter()
                .filter_map(|(mid, spec_module)| {
                    env.me
                        .get(mid)
                        .map(|found| (mid.clone(), mod_at(found, spec_module)))
                })
                .collect(),
            g: Default::default(),
        }
    }
    fn mod_at<C: Core>(module: &IMod<C>, spec_module: &Mod<C>) -> IMod<C> {
        match (module, spec_module) {
            (IMod::Env(env), Mod::Env(spec_env)) => IMod::Env(env_at(env, spec_env)),
            (IMod::Closure(closure), Mod::FunSig(funsig)) => IMod::Closure(Rc::new(Closure {
                id: closure.id,
                env: closure.env.clone(),
                funsig: funsig.clone(),
                param: closure.param.clone(),
                body: closure.body.clone(),
            })),
            (other, _) => other.clone(),
        }
    }
    mod_at(module, &sigma.module)
}

/// 𝓔 ⊢ mdec ⇒ ∃N.(𝓔', c) for a sequence (rules 62, 65).
pub fn interp_decs<C: Core>(
    env: &IEnv<C>,
    decs: &[KDec],
) -> Result<(Names, IEnv<C>, Code<C>), Failure> {
    derivation::judgment(None, || match decs {
        // ICFP18 rule 62
        [] => {
            derivation::fire("ICFP18 rule 62", || "𝓔 ⊢ ε ⇒ ∃∅.({}, ε)".to_string());
            Ok((Names::new(), IEnv::default(), Code::Empty))
        }
        // ICFP18 rule 65
        [first, rest @ ..] => {
            derivation::fire("ICFP18 rule 65", || {
                "𝓔 ⊢ mdec₁ mdec₂ ⇒ ∃(N₁ ∪ N₂).(𝓔₁ + 𝓔₂, c₁ ; c₂)".to_string()
            });
            // N₁ ∩ (names(𝓔) ∪ N₂) = ∅: every name comes from the supply.
            let (names1, env1, code1) = interp_dec(env, first)?;
            let (names2, env2, code2) = interp_decs(&env.plus(&env1), rest)?;
            let mut names = names1;
            names.extend(names2);
            Ok((names, env1.plus(&env2), Code::seq(code1, code2)))
        }
    })
}

/// 𝓔 ⊢ mdec ⇒ ∃N.(𝓔', c) for one declaration (rules 59–61, 63, 64).
pub fn interp_dec<C: Core>(
    env: &IEnv<C>,
    dec: &KDec,
) -> Result<(Names, IEnv<C>, Code<C>), Failure> {
    derivation::judgment(Some(dec.span()), || match dec {
        // ICFP18 rule 59
        KDec::Core(bind) => {
            derivation::fire("ICFP18 rule 59", || {
                format!("𝓔 ⊢ dec ⇒ ∃N.(𝓔', c) (val {})", bind.name)
            });
            let compiled = C::compile_dec(env, bind)?;
            Ok((
                label_names(&compiled.labels),
                IEnv {
                    ve: compiled.values,
                    ..IEnv::default()
                },
                compiled.code,
            ))
        }
        // ICFP18 rule 60
        KDec::Type { name, ty, .. } => {
            derivation::fire("ICFP18 rule 60", || {
                format!("𝓔 ⊢ type {name} = ty ⇒ ∃∅.({{{name} ↦ τ}}, ε)")
            });
            let tau = C::elaborate_type(&erase_env(env), ty)?;
            let mut out = IEnv::default();
            out.te.insert(name.clone(), tau);
            Ok((Names::new(), out, Code::Empty))
        }
        // ICFP18 rule 61
        KDec::Module { name, module, .. } => {
            derivation::fire("ICFP18 rule 61", || {
                format!("𝓔 ⊢ module {name} = mexp ⇒ ∃N.({{{name} ↦ 𝓜}}, c)")
            });
            let target = interp_mod_exp(env, module)?;
            Ok((
                target.names,
                IEnv::from_module(name, target.module),
                target.code,
            ))
        }
        // ICFP18 rule 63
        KDec::ModType { name, mod_type, .. } => {
            derivation::fire("ICFP18 rule 63", || {
                format!("𝓔 ⊢ module type {name} = mty ⇒ ∃∅.({{{name} ↦ Σ}}, ε)")
            });
            let sigma = elab_mod_type(&erase_env(env), mod_type)?;
            let mut out = IEnv::default();
            out.g.insert(name.clone(), sigma);
            Ok((Names::new(), out, Code::Empty))
        }
        // ICFP18 rule 64
        KDec::Open { module, span } => {
            derivation::fire("ICFP18 rule 64", || "𝓔 ⊢ open mexp ⇒ Ψ".to_string());
            let target = interp_mod_exp(env, module)?;
            match target.module {
                IMod::Env(opened) => Ok((target.names, opened, target.code)),
                IMod::Closure(_) => Err(rule_failure(
                    64,
                    "𝓔 ⊢ mexp ⇒ ∃N.(𝓔', c) requires a structure",
                    "cannot open a functor",
                    *span,
                )),
            }
        }
    })
}

/// The rest of rule 58 once the argument is interpreted: 𝓔(longmid) = (𝓔₀, F,
/// λmid → mexp'), (E', ∃T'.E'') ≤ F with E' = S(E₀) (S by matching, as in rule
/// 29), ⊢ 𝓔' :: E' ⇒ 𝓔'', and the body on 𝓔₀ + {mid ↦ 𝓔''}.
fn apply_interpreted<C: Core>(
    env: &IEnv<C>,
    functor: &QualName,
    argument_target: ITarget<C>,
    argument_span: Span,
    span: Span,
) -> Result<ITarget<C>, Failure> {
    let IMod::Env(argument_env) = &argument_target.module else {
        return Err(rule_failure(
            58,
            "𝓔 ⊢ mexp ⇒ ∃N.(𝓔', c) requires a structure",
            "",
            argument_span,
        ));
    };
    let closure = match lookup_long_imodule(env, functor) {
        Ok(IMod::Closure(closure)) => closure.clone(),
        Ok(IMod::Env(_)) => {
            return Err(rule_failure(
                58,
                "𝓔(longmid) = (𝓔₀, F, λmid → mexp')",
                "not a functor closure",
                functor.span,
            ))
        }
        Err(detail) => {
            return Err(rule_failure(
                58,
                "𝓔(longmid) = (𝓔₀, F, λmid → mexp')",
                detail,
                functor.span,
            ))
        }
    };
    let (_, s) = matches_env(
        &erase_env(argument_env),
        &closure.funsig.bound,
        &closure.funsig.param,
    )
    .map_err(|detail| rule_failure(58, "(E', ∃T'.E'') ≤ F", detail, argument_span))?;
    let instance = subst_env(&s, &closure.funsig.param);
    let filtered = filter_env(argument_env, &instance)
        .map_err(|detail| rule_failure(58, "⊢ 𝓔' :: E' ⇒ 𝓔''", detail, argument_span))?;
    super::interp_objects::record_application(closure.id, &filtered);
    let body_target = apply_closure(&closure, filtered, &s, span)?;
    let mut names = argument_target.names.clone();
    names.extend(body_target.names.iter().cloned());
    Ok(ITarget {
        names,
        module: body_target.module,
        code: Code::seq(argument_target.code, body_target.code),
    })
}
