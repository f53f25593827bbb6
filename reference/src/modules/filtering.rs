//! Environment filtering (ICFP'18 §5.5, Fig. 11, rules 49–53): an
//! interpretation environment cut down to the components an elaboration
//! environment names, `⊢ 𝓔 :: E ⇒ 𝓔'`.

use super::core_interface::{Core, CoreType};
use super::interp_objects::{Closure, IEnv, IMEnv, IMod, IVEnv};
use super::matching::{enriches_funsig, instantiates_funsig, Mismatch};
use super::objects::{Env, MEnv, Mod, TEnv, VEnv};
use crate::derivation;
use std::rc::Rc;

/// ⊢ 𝓔 :: E ⇒ 𝓔' (rule 49).
pub fn filter_env<C: Core>(env: &IEnv<C>, to: &Env<C>) -> Result<IEnv<C>, Mismatch> {
    derivation::judgment(None, || {
        // ICFP18 rule 49
        derivation::fire("ICFP18 rule 49", || "⊢ 𝓔 :: E ⇒ 𝓔'".to_string());
        if let Some(mtid) = to.g.keys().next() {
            return Err(format!(
                "module type {mtid} cannot be filtered (G must be empty)"
            ));
        }
        let ve = filter_ve::<C>(&env.ve, &to.ve)?;
        let me = filter_me(&env.me, &to.me)?;
        te_enriches::<C>(&env.te, &to.te)?;
        Ok(IEnv {
            te: to.te.clone(),
            ve,
            me,
            g: Default::default(),
        })
    })
}

/// TE ≻ TE' (TE ⊒ TE').
fn te_enriches<C: Core>(te: &TEnv<C>, to: &TEnv<C>) -> Result<(), Mismatch> {
    for (tid, ty) in to {
        match te.get(tid) {
            None => return Err(format!("missing type {tid}")),
            Some(found) if found != ty => {
                return Err(format!(
                    "type {tid} is {} but {} is required",
                    found.display(),
                    ty.display()
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// ⊢ 𝓥E :: VE ⇒ 𝓥E' (rule 50).
pub fn filter_ve<C: Core>(ve: &IVEnv<C>, to: &VEnv<C>) -> Result<IVEnv<C>, Mismatch> {
    // ICFP18 rule 50
    derivation::fire("ICFP18 rule 50", || "⊢ 𝓥E :: VE ⇒ 𝓥E'".to_string());
    let mut out = IVEnv::<C>::new();
    for (vid, ty) in to {
        match ve.get(vid) {
            None => return Err(format!("missing val {vid}")),
            Some((label, found)) if found == ty => {
                out.insert(vid.clone(), (label.clone(), found.clone()));
            }
            Some((_, found)) => {
                return Err(format!(
                    "val {vid} has type {} but {} is required",
                    found.display(),
                    ty.display()
                ))
            }
        }
    }
    Ok(out)
}

/// ⊢ 𝓜E :: ME ⇒ 𝓜E' (rule 51).
pub fn filter_me<C: Core>(me: &IMEnv<C>, to: &MEnv<C>) -> Result<IMEnv<C>, Mismatch> {
    // ICFP18 rule 51
    derivation::fire("ICFP18 rule 51", || "⊢ 𝓜E :: ME ⇒ 𝓜E'".to_string());
    let mut out = IMEnv::<C>::new();
    for (mid, module) in to {
        let found = me.get(mid).ok_or_else(|| format!("missing module {mid}"))?;
        let filtered = filter_mod(found, module).map_err(|m| format!("in module {mid}: {m}"))?;
        out.insert(mid.clone(), filtered);
    }
    Ok(out)
}

/// ⊢ 𝓜 :: M ⇒ 𝓜' (rules 52, 53).
pub fn filter_mod<C: Core>(module: &IMod<C>, to: &Mod<C>) -> Result<IMod<C>, Mismatch> {
    derivation::judgment(None, || match (module, to) {
        // ICFP18 rule 52
        (IMod::Env(env), Mod::Env(to_env)) => {
            derivation::fire("ICFP18 rule 52", || "⊢ 𝓔 :: E ⇒ 𝓔'".to_string());
            Ok(IMod::Env(filter_env(env, to_env)?))
        }
        // ICFP18 rule 53
        (IMod::Closure(closure), Mod::FunSig(funsig)) => {
            derivation::fire("ICFP18 rule 53", || {
                "⊢ (𝓔, F', λmid → mexp) :: F ⇒ (𝓔, F, λmid → mexp)".to_string()
            });
            // F' ≻ F, or (SPEC_NOTES ICFP18-7) F' ≤ F: a closure more
            // general than specified is filtered to the specified F.
            if enriches_funsig(&closure.funsig, funsig).is_err() {
                instantiates_funsig(&closure.funsig, funsig)?;
            }
            Ok(IMod::Closure(Rc::new(Closure {
                id: closure.id,
                env: closure.env.clone(),
                funsig: funsig.clone(),
                param: closure.param.clone(),
                body: closure.body.clone(),
            })))
        }
        (IMod::Closure(_), Mod::Env(_)) => {
            Err("a functor closure cannot be filtered to a structure".to_string())
        }
        (IMod::Env(_), Mod::FunSig(_)) => {
            Err("a structure cannot be filtered to a parameterised module".to_string())
        }
    })
}
