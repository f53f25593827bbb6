//! Type explication (ICFP'18 §7) and Proposition 7.1 as a check: module types
//! elaborated from module type expressions are type explicit.

use super::core_interface::{Core, CoreType};
use super::objects::{Env, FunSig, MTy, Mod, TyVar};

/// Whether some longtid has E(longtid) = t.
fn named_by_longtid<C: Core>(env: &Env<C>, t: &TyVar) -> bool {
    env.te
        .values()
        .any(|ty| ty.as_variable().as_ref() == Some(t))
        || env.me.values().any(|module| match module {
            Mod::Env(inner) => named_by_longtid(inner, t),
            Mod::FunSig(_) => false,
        })
}

/// Σ is type explicit; otherwise says which bound variable no longtid names.
pub fn explicit_mty<C: Core>(sigma: &MTy<C>) -> Result<(), String> {
    match sigma.module.as_ref() {
        Mod::Env(env) => {
            if let Some(t) = sigma.bound.iter().find(|t| !named_by_longtid(env, t)) {
                return Err(format!(
                    "no type identifier names the bound type variable {}",
                    t.display()
                ));
            }
            explicit_env(env)
        }
        Mod::FunSig(funsig) => {
            if !sigma.bound.is_empty() {
                return Err("∃T.F with T non-empty".to_string());
            }
            explicit_funsig(funsig)
        }
    }
}

/// F = ∀T.(E, Σ) is type explicit if ∃T.E is (and, checked as well, Σ is).
pub fn explicit_funsig<C: Core>(funsig: &FunSig<C>) -> Result<(), String> {
    explicit_mty(&MTy::new(
        funsig.bound.clone(),
        Mod::Env(funsig.param.clone()),
    ))?;
    explicit_mty(&funsig.result)
}

/// E is type explicit if every module type in it is.
pub fn explicit_env<C: Core>(env: &Env<C>) -> Result<(), String> {
    for (mtid, sigma) in &env.g {
        explicit_mty(sigma).map_err(|m| format!("module type {mtid}: {m}"))?;
    }
    for (mid, module) in &env.me {
        match module {
            Mod::Env(inner) => explicit_env(inner).map_err(|m| format!("module {mid}: {m}"))?,
            Mod::FunSig(funsig) => {
                explicit_funsig(funsig).map_err(|m| format!("module {mid}: {m}"))?
            }
        }
    }
    Ok(())
}
