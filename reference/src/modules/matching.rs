//! Enrichment (ICFP'18 §4.1), instantiation (§4.2) and matching ("E matches Σ
//! if E ≻ E' and E' ≤ Σ for some E'").
//!
//! The relations are checks that say what failed, in words (`missing val b`).
//! Where a rule guesses, the witness is computed: the substitution S of
//! instantiation by one-sided matching of types ([`CoreType::match_into`]) over
//! the type components, which determine S for type-explicit module types (§7);
//! the cut-down environment E'' of matching by restricting the concrete
//! environment to the domain of the specification.
//!
//! Instantiation of parameterised module types follows SPEC_NOTES
//! ICFP18-4: `∀T.(E, Σ) ≤ ∀T'.(E', Σ')` iff, with T' fresh, there is S with
//! Supp S ⊆ T such that E' matches S(E) (contravariant in the parameter) and
//! S(Σ) matches Σ' (covariant in the result).

use super::core_interface::{Core, CoreType};
use super::objects::{
    freshen_funsig, freshen_mty, subst_env, subst_mod, subst_mty, Env, FunSig, MTy, Mod,
    Substitution, TypeVarSet,
};
use spec::recursion::with_stack;

/// A failed enrichment, instantiation or match, in words.
pub type Mismatch = String;

fn within(mid: &str, mismatch: Mismatch) -> Mismatch {
    format!("in module {mid}: {mismatch}")
}

// ---------------------------------------------------------------------------
// Enrichment E' ≻ E (§4.1)

/// E' ≻ E: TE' ⊒ TE, VE' ⊒ VE, ME' ≻ ME, and the G of E is empty.
pub fn enriches_env<C: Core>(bigger: &Env<C>, smaller: &Env<C>) -> Result<(), Mismatch> {
    with_stack(|| {
        if let Some(mtid) = smaller.g.keys().next() {
            return Err(format!(
                "module type {mtid} cannot be specified (the enriched environment's G must be empty)"
            ));
        }
        for (tid, ty) in &smaller.te {
            match bigger.te.get(tid) {
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
        for (vid, ty) in &smaller.ve {
            match bigger.ve.get(vid) {
                None => return Err(format!("missing val {vid}")),
                Some(found) if found != ty => {
                    return Err(format!(
                        "val {vid} has type {} but {} is required",
                        found.display(),
                        ty.display()
                    ))
                }
                Some(_) => {}
            }
        }
        for (mid, module) in &smaller.me {
            match bigger.me.get(mid) {
                None => return Err(format!("missing module {mid}")),
                Some(found) => enriches_mod(found, module).map_err(|m| within(mid, m))?,
            }
        }
        Ok(())
    })
}

/// M' ≻ M.
pub fn enriches_mod<C: Core>(bigger: &Mod<C>, smaller: &Mod<C>) -> Result<(), Mismatch> {
    match (bigger, smaller) {
        (Mod::Env(bigger), Mod::Env(smaller)) => enriches_env(bigger, smaller),
        (Mod::FunSig(bigger), Mod::FunSig(smaller)) => enriches_funsig(bigger, smaller),
        (Mod::FunSig(_), Mod::Env(_)) => {
            Err("a parameterised module is given where a structure is required".to_string())
        }
        (Mod::Env(_), Mod::FunSig(_)) => {
            Err("a structure is given where a parameterised module is required".to_string())
        }
    }
}

/// ∀T'.(E', Σ') ≻ ∀T.(E, Σ): T' = T (up to renaming), E ≻ E' (contravariant)
/// and Σ' ≻ Σ.
pub fn enriches_funsig<C: Core>(bigger: &FunSig<C>, smaller: &FunSig<C>) -> Result<(), Mismatch> {
    // Witness of "T' = T up to renaming": match the bigger's parameter against
    // the smaller's, then check the match is a bijection between the binders.
    let mut renaming = Substitution::default();
    witness_env(&bigger.param, &smaller.param, &bigger.bound, &mut renaming);
    let image: TypeVarSet = renaming
        .map
        .values()
        .filter_map(|ty| ty.as_variable())
        .filter(|t| smaller.bound.contains(t))
        .collect();
    if bigger.bound.len() != smaller.bound.len() || image.len() != bigger.bound.len() {
        return Err("the parameterised modules quantify over different type variables".to_string());
    }
    let param = subst_env(&renaming, &bigger.param);
    let result = subst_mty(&renaming, &bigger.result);
    enriches_env(&smaller.param, &param).map_err(|m| format!("parameter: {m}"))?;
    enriches_mty(&result, &smaller.result).map_err(|m| format!("result: {m}"))
}

/// ∃T'.M' ≻ ∃T.M with T' = T up to renaming.
pub fn enriches_mty<C: Core>(bigger: &MTy<C>, smaller: &MTy<C>) -> Result<(), Mismatch> {
    let mut renaming = Substitution::default();
    witness_mod(
        &bigger.module,
        &smaller.module,
        &bigger.bound,
        &mut renaming,
    );
    let module = subst_mod(&renaming, &bigger.module);
    enriches_mod(&module, &smaller.module)
}

// ---------------------------------------------------------------------------
// The witness S: one-sided matching over the components.

/// Extends `s` (support within `flexible`) towards S(pattern) = target on the
/// components both have.
pub fn witness_env<C: Core>(
    pattern: &Env<C>,
    target: &Env<C>,
    flexible: &TypeVarSet,
    s: &mut Substitution<C::Type>,
) {
    with_stack(|| {
        for (tid, ty) in &pattern.te {
            if let Some(found) = target.te.get(tid) {
                let mut attempt = s.clone();
                if C::Type::match_into(ty, found, flexible, &mut attempt) {
                    *s = attempt;
                }
            }
        }
        for (mid, module) in &pattern.me {
            if let Some(found) = target.me.get(mid) {
                witness_mod(module, found, flexible, s);
            }
        }
        for (vid, ty) in &pattern.ve {
            if let Some(found) = target.ve.get(vid) {
                let mut attempt = s.clone();
                if C::Type::match_into(ty, found, flexible, &mut attempt) {
                    *s = attempt;
                }
            }
        }
    })
}

fn witness_mod<C: Core>(
    pattern: &Mod<C>,
    target: &Mod<C>,
    flexible: &TypeVarSet,
    s: &mut Substitution<C::Type>,
) {
    if let (Mod::Env(pattern), Mod::Env(target)) = (pattern, target) {
        witness_env(pattern, target, flexible, s);
    }
}

// ---------------------------------------------------------------------------
// Instantiation A ≤ B (§4.2)

/// E ≤ E': the same types and values, the same module identifiers, each module
/// an instance of the other's.
pub fn instantiates_env<C: Core>(env: &Env<C>, general: &Env<C>) -> Result<(), Mismatch> {
    with_stack(|| {
        for (tid, ty) in &general.te {
            match env.te.get(tid) {
                None => return Err(format!("missing type {tid}")),
                Some(found) if found != ty => {
                    return Err(format!(
                        "type {tid} is {} but the specification requires {}",
                        found.display(),
                        ty.display()
                    ))
                }
                Some(_) => {}
            }
        }
        for (vid, ty) in &general.ve {
            match env.ve.get(vid) {
                None => return Err(format!("missing val {vid}")),
                Some(found) if found != ty => {
                    return Err(format!(
                        "val {vid} has type {} but the specification requires {}",
                        found.display(),
                        ty.display()
                    ))
                }
                Some(_) => {}
            }
        }
        for (mid, module) in &general.me {
            match env.me.get(mid) {
                None => return Err(format!("missing module {mid}")),
                Some(found) => instantiates_mod(found, module).map_err(|m| within(mid, m))?,
            }
        }
        if env.te.len() != general.te.len()
            || env.ve.len() != general.ve.len()
            || env.me.len() != general.me.len()
        {
            return Err("the environments have different domains".to_string());
        }
        Ok(())
    })
}

/// M ≤ M'.
pub fn instantiates_mod<C: Core>(module: &Mod<C>, general: &Mod<C>) -> Result<(), Mismatch> {
    match (module, general) {
        (Mod::Env(env), Mod::Env(general)) => instantiates_env(env, general),
        (Mod::FunSig(funsig), Mod::FunSig(general)) => instantiates_funsig(funsig, general),
        (Mod::FunSig(_), Mod::Env(_)) => {
            Err("a parameterised module is given where a structure is specified".to_string())
        }
        (Mod::Env(_), Mod::FunSig(_)) => {
            Err("a structure is given where a parameterised module is specified".to_string())
        }
    }
}

/// F ≤ F' (SPEC_NOTES ICFP18-4): with T' fresh, some S with Supp S ⊆ T
/// makes E' match S(E), and S(Σ) match Σ'.
pub fn instantiates_funsig<C: Core>(
    funsig: &FunSig<C>,
    general: &FunSig<C>,
) -> Result<(), Mismatch> {
    with_stack(|| {
        // T' ∩ tvs(F) = ∅ by renaming T' fresh.
        let general = freshen_funsig(general);
        let (_, s) = matches_env(&general.param, &funsig.bound, &funsig.param)
            .map_err(|m| format!("parameter: {m}"))?;
        let result = freshen_mty(&subst_mty(&s, &funsig.result));
        matches_mod(&result.module, &general.result).map_err(|m| format!("result: {m}"))?;
        Ok(())
    })
}

/// M ≤ ∃T.M': Supp S ⊆ T and M ≤ S(M'); returns the witness S.
pub fn instantiates_mty<C: Core>(
    module: &Mod<C>,
    sigma: &MTy<C>,
) -> Result<Substitution<C::Type>, Mismatch> {
    let mut s = Substitution::default();
    witness_mod(&sigma.module, module, &sigma.bound, &mut s);
    instantiates_mod(module, &subst_mod(&s, &sigma.module))?;
    Ok(s)
}

// ---------------------------------------------------------------------------
// Matching: E ≻ E'' ≤ ∃T.E'

/// E'' for matching: E restricted to the domain of the specification E'
/// (structures restricted recursively, parameterised modules kept whole: their
/// instantiation rule absorbs enrichment, ICFP18-4).
pub fn cut_down<C: Core>(concrete: &Env<C>, specification: &Env<C>) -> Result<Env<C>, Mismatch> {
    with_stack(|| {
        let mut cut = Env::default();
        for tid in specification.te.keys() {
            let ty = concrete
                .te
                .get(tid)
                .ok_or_else(|| format!("missing type {tid}"))?;
            cut.te.insert(tid.clone(), ty.clone());
        }
        for vid in specification.ve.keys() {
            let ty = concrete
                .ve
                .get(vid)
                .ok_or_else(|| format!("missing val {vid}"))?;
            cut.ve.insert(vid.clone(), ty.clone());
        }
        for (mid, module) in &specification.me {
            let found = concrete
                .me
                .get(mid)
                .ok_or_else(|| format!("missing module {mid}"))?;
            let cut_module = match (found, module) {
                (Mod::Env(found), Mod::Env(spec_env)) => {
                    Mod::Env(cut_down(found, spec_env).map_err(|m| within(mid, m))?)
                }
                (Mod::FunSig(_), Mod::FunSig(_)) => found.clone(),
                (Mod::FunSig(_), Mod::Env(_)) => {
                    return Err(format!(
                        "module {mid} is a parameterised module but a structure is specified"
                    ))
                }
                (Mod::Env(_), Mod::FunSig(_)) => {
                    return Err(format!(
                        "module {mid} is a structure but a parameterised module is specified"
                    ))
                }
            };
            cut.me.insert(mid.clone(), cut_module);
        }
        Ok(cut)
    })
}

/// E matches ∃T.E': returns E'' with E ≻ E'' and E'' ≤ S(E'), and S.
pub fn matches_env<C: Core>(
    concrete: &Env<C>,
    bound: &TypeVarSet,
    specification: &Env<C>,
) -> Result<(Env<C>, Substitution<C::Type>), Mismatch> {
    let cut = cut_down(concrete, specification)?;
    enriches_env(concrete, &cut)?;
    let mut s = Substitution::default();
    witness_env(specification, &cut, bound, &mut s);
    instantiates_env(&cut, &subst_env(&s, specification))?;
    Ok((cut, s))
}

/// M matches Σ (a parameterised module matches ∃∅.F when it instantiates F).
pub fn matches_mod<C: Core>(
    concrete: &Mod<C>,
    sigma: &MTy<C>,
) -> Result<(Mod<C>, Substitution<C::Type>), Mismatch> {
    match (concrete, sigma.module.as_ref()) {
        (Mod::Env(env), Mod::Env(specification)) => {
            let (cut, s) = matches_env(env, &sigma.bound, specification)?;
            Ok((Mod::Env(cut), s))
        }
        (Mod::FunSig(_), Mod::FunSig(_)) => {
            let s = instantiates_mty(concrete, sigma)?;
            Ok((concrete.clone(), s))
        }
        (Mod::FunSig(_), Mod::Env(_)) => {
            Err("a parameterised module is given where a structure is specified".to_string())
        }
        (Mod::Env(_), Mod::FunSig(_)) => {
            Err("a structure is given where a parameterised module is specified".to_string())
        }
    }
}
