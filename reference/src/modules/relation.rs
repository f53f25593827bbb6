//! The type-consistency logical relation (ICFP'18 §6, Fig. 13, rules 66–70) as
//! an executable check, and Proposition 6.1 / Corollary 6.2 as checks run on a
//! whole program.
//!
//! Where the relation asks for a substitution S' (Proposition 6.1, rule 70), the
//! witness is found by unification: every bound type variable starts as a
//! guess, solved by `S(τ) = Γ(l)` (rule 68). Rule 70 quantifies over all
//! related argument environments; it is checked on [`SAMPLES`] sampled ones per
//! closure: S' maps each parameter type variable to a type drawn with a fixed
//! xorshift generator from the core's sample types, and the sampled 𝓔 binds
//! every value of the parameter to a fresh label whose Γ type is S∘S'(τ).
//! Parameters with parameterised-module components cannot be sampled this way;
//! for them only the closure's F is checked (counted in the verdict).

use super::core_interface::{Core, CoreType};
use super::interp_objects::{
    applications_of, erase_env, erase_mod, erase_target, type_names, IEnv, IMod, IVEnv,
};
use super::interpret::apply_closure;
use super::interpret::show_at;
use super::matching::witness_env;
use super::objects::{
    alpha_equivalent_funsig, alpha_equivalent_mty, fresh_label, Env, FunSig, MEnv, MTy, Mod,
    Substitution, TypeVarSet, VEnv,
};
use super::target::{type_code, Context};
use crate::derivation;
use std::collections::BTreeMap;

/// Sampled argument environments per functor closure (rule 70).
pub const SAMPLES: usize = 3;
/// How deep rule 70 re-enters closures returned by closures.
pub const MAX_DEPTH: usize = 2;

/// Counts reported in the verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RelationStats {
    pub values: usize,
    pub closures: usize,
    pub samples: usize,
    pub unsampled_closures: usize,
    /// Samples that are arguments the program applied a closure to.
    pub recorded: usize,
}

/// One run of the relation, holding the guesses that stand for S'.
pub struct Relation<C: Core> {
    pub guesses: C::Guesses,
    pub stats: RelationStats,
    depth: usize,
    seed: u64,
    /// The closures already checked, by address. Each is held here, so that
    /// no other closure can be allocated at its address during the run: a
    /// closure built while sampling (a functor's result) and dropped would
    /// otherwise free its address, and a later closure there would be taken
    /// for checked and skipped, depending on the allocator's state
    /// (SPEC_NOTES ICFP18-24).
    checked: BTreeMap<usize, std::rc::Rc<super::interp_objects::Closure<C>>>,
}

impl<C: Core> Default for Relation<C> {
    fn default() -> Self {
        Relation {
            guesses: C::Guesses::default(),
            stats: RelationStats::default(),
            depth: 0,
            seed: 0x9E37_79B9_7F4A_7C15,
            checked: BTreeMap::new(),
        }
    }
}

impl<C: Core> Relation<C> {
    fn next_random(&mut self) -> u64 {
        let mut x = self.seed;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.seed = x;
        x
    }

    /// S' for `bound`: one guess per variable.
    pub fn guess_substitution(&mut self, bound: &TypeVarSet) -> Substitution<C::Type> {
        let mut s = Substitution::default();
        for t in bound {
            s.map.insert(t.clone(), C::fresh_guess(&mut self.guesses));
        }
        s
    }

    /// E ⊨_S 𝓔 ▷ Γ (rule 66).
    pub fn env(
        &mut self,
        env: &Env<C>,
        ienv: &IEnv<C>,
        s: &Substitution<C::Type>,
        gamma: &Context<C>,
    ) -> Result<(), String> {
        derivation::judgment(None, || {
            // ICFP18 rule 66
            derivation::fire("ICFP18 rule 66", || "E ⊨_S 𝓔 ▷ Γ".to_string());
            if env.te != ienv.te {
                return Err("the type environments of E and 𝓔 differ".to_string());
            }
            if env.g.len() != ienv.g.len()
                || env.g.iter().any(|(k, sigma)| {
                    ienv.g
                        .get(k)
                        .is_none_or(|other| !alpha_equivalent_mty(sigma, other))
                })
            {
                return Err("the module type environments of E and 𝓔 differ".to_string());
            }
            self.ve(&env.ve, &ienv.ve, s, gamma)?;
            self.me(&env.me, &ienv.me, s, gamma)
        })
    }

    /// ME ⊨_S 𝓜E ▷ Γ (rule 67).
    fn me(
        &mut self,
        me: &MEnv<C>,
        ime: &super::interp_objects::IMEnv<C>,
        s: &Substitution<C::Type>,
        gamma: &Context<C>,
    ) -> Result<(), String> {
        // ICFP18 rule 67
        derivation::fire("ICFP18 rule 67", || "ME ⊨_S 𝓜E ▷ Γ".to_string());
        if me.len() != ime.len() || me.keys().any(|k| !ime.contains_key(k)) {
            return Err("Dom ME ≠ Dom 𝓜E".to_string());
        }
        for (mid, module) in me {
            let imodule = &ime[mid];
            self.module(module, imodule, s, gamma)
                .map_err(|m| format!("in module {mid}: {m}"))?;
        }
        Ok(())
    }

    /// VE ⊨_S 𝓥E ▷ Γ (rule 68).
    fn ve(
        &mut self,
        ve: &VEnv<C>,
        ive: &IVEnv<C>,
        s: &Substitution<C::Type>,
        gamma: &Context<C>,
    ) -> Result<(), String> {
        // ICFP18 rule 68
        derivation::fire("ICFP18 rule 68", || "VE ⊨_S 𝓥E ▷ Γ".to_string());
        if ve.len() != ive.len() || ve.keys().any(|k| !ive.contains_key(k)) {
            return Err("Dom VE ≠ Dom 𝓥E".to_string());
        }
        for (vid, ty) in ve {
            let (label, interp_ty) = &ive[vid];
            if interp_ty != ty {
                return Err(format!(
                    "val {vid}: VE(x) = {} but 𝓥E(x) has type {}",
                    ty.display(),
                    interp_ty.display()
                ));
            }
            let target_ty = gamma
                .get(label)
                .ok_or_else(|| format!("val {vid}: label {} is not in Γ", label.display()))?;
            let expected = ty.substitute(s);
            // A core whose λs are typed (the TFP'18 core) may leave in Γ(l) a
            // type variable of Dom S that no label determined (a functor body's
            // `def im ((_, b): (t, t)) : t` sampled by rule 70): the witness of
            // rule 39's guess is then S applied to it (SPEC_NOTES ICFP18-18). A
            // no-op for the paper's core, whose Γ has no such variables.
            let target_ty = &target_ty.substitute(s);
            if !C::unify(&expected, target_ty, &mut self.guesses) {
                return Err(format!(
                    "val {vid}: S(τ) = {} but Γ({}) = {}",
                    C::resolve(&expected, &self.guesses).display(),
                    label.display(),
                    C::resolve(target_ty, &self.guesses).display()
                ));
            }
            self.stats.values += 1;
        }
        Ok(())
    }

    /// M ⊨_S 𝓜 ▷ Γ (rules 69, 70).
    fn module(
        &mut self,
        module: &Mod<C>,
        imodule: &IMod<C>,
        s: &Substitution<C::Type>,
        gamma: &Context<C>,
    ) -> Result<(), String> {
        derivation::judgment(None, || match (module, imodule) {
            // ICFP18 rule 69
            (Mod::Env(env), IMod::Env(ienv)) => {
                derivation::fire("ICFP18 rule 69", || "E ⊨_S 𝓔 ▷ Γ".to_string());
                self.env(env, ienv, s, gamma)
            }
            // ICFP18 rule 70
            (Mod::FunSig(funsig), IMod::Closure(closure)) => {
                derivation::fire("ICFP18 rule 70", || {
                    "∀T.(E, ∃T'.E') ⊨_S (𝓔₀, F, mid, mexp) ▷ Γ".to_string()
                });
                if !alpha_equivalent_funsig(funsig, &closure.funsig) {
                    return Err("the closure's F is not the elaborated F".to_string());
                }
                self.stats.closures += 1;
                let key = std::rc::Rc::as_ptr(closure) as usize;
                if self.depth >= MAX_DEPTH || self.checked.contains_key(&key) {
                    return Ok(());
                }
                self.checked.insert(key, closure.clone());
                self.depth += 1;
                let outcome = self.sample_closure(funsig, closure, s, gamma);
                self.depth -= 1;
                outcome
            }
            _ => Err("a structure is related to a functor closure or vice versa".to_string()),
        })
    }

    fn sample_closure(
        &mut self,
        funsig: &FunSig<C>,
        closure: &super::interp_objects::Closure<C>,
        s: &Substitution<C::Type>,
        gamma: &Context<C>,
    ) -> Result<(), String> {
        // Related arguments: SAMPLES synthetic ones (first-order parameters)...
        let mut arguments = Vec::new();
        let pool = C::sample_types(&Env::default());
        let mut synthetic = true;
        for _ in 0..SAMPLES {
            // S' with Dom S' = T, drawn from the pool.
            let mut s_prime = Substitution::default();
            for t in &funsig.bound {
                let index = (self.next_random() % pool.len() as u64) as usize;
                s_prime.map.insert(t.clone(), pool[index].clone());
            }
            let s_sample = s.compose(&s_prime);
            let mut gamma_sample = gamma.clone();
            match sample_env(&funsig.param, &s_sample, &mut gamma_sample, &self.guesses) {
                Some(argument) => arguments.push((argument, s_sample, gamma_sample)),
                None => {
                    synthetic = false;
                    break;
                }
            }
        }
        // ... and every argument the program applied the closure to (rule 58),
        // shown at the parameter's types, when it is related (the premise).
        for recorded in applications_of::<C>(closure.id) {
            let mut s_prime = Substitution::default();
            witness_env(
                &funsig.param,
                &erase_env(&recorded),
                &funsig.bound,
                &mut s_prime,
            );
            let s_sample = s.compose(&s_prime);
            let IMod::Env(argument) = show_at(
                &IMod::Env(recorded),
                &MTy::plain(Mod::Env(funsig.param.clone())),
            ) else {
                continue;
            };
            let premise = self.env(&funsig.param, &argument, &s_sample, gamma);
            if premise.is_ok() {
                arguments.push((argument, s_sample, gamma.clone()));
                self.stats.recorded += 1;
            }
        }
        if !synthetic {
            self.stats.unsampled_closures += 1;
        }
        for (sample, (argument, s_sample, gamma_sample)) in arguments.into_iter().enumerate() {
            let result = apply_closure(
                closure,
                argument,
                &Substitution::default(),
                Default::default(),
            )
            .map_err(|failure| {
                format!(
                    "sample {sample}: the body does not interpret: {}",
                    failure.message()
                )
            })?;
            let gamma_body = type_code(&gamma_sample, &result.code, &s_sample, &mut self.guesses)
                .map_err(|failure| {
                format!("sample {sample}: Γ ⊢ c : Γ' fails: {}", failure.message())
            })?;
            let erased = erase_target(&result);
            if !alpha_equivalent_mty(&erased, &funsig.result) {
                return Err(format!(
                    "sample {sample}: the body's result {} is not ∃T'.E' = {} up to α",
                    super::print::mty(&erased),
                    super::print::mty(&funsig.result)
                ));
            }
            let s_result = self.guess_substitution(&type_names(&result.names));
            let s_all = s_sample.compose(&s_result);
            let gamma_all = gamma_body.union(gamma_sample);
            self.module(
                &erase_mod(&result.module),
                &result.module,
                &s_all,
                &gamma_all,
            )
            .map_err(|m| format!("sample {sample}: {m}"))?;
            self.stats.samples += 1;
        }
        Ok(())
    }
}

/// A sampled 𝓔 with erasure E: fresh labels typed S(τ) in Γ; `None` when E has
/// parameterised-module components.
fn sample_env<C: Core>(
    env: &Env<C>,
    s: &Substitution<C::Type>,
    gamma: &mut Context<C>,
    guesses: &C::Guesses,
) -> Option<IEnv<C>> {
    let mut out = IEnv {
        te: env.te.clone(),
        g: env.g.clone(),
        ..IEnv::default()
    };
    for (vid, ty) in &env.ve {
        let label = fresh_label(vid);
        gamma.insert(label.clone(), C::resolve(&ty.substitute(s), guesses));
        out.ve.insert(vid.clone(), (label, ty.clone()));
    }
    for (mid, module) in &env.me {
        match module {
            Mod::Env(inner) => {
                let sampled = sample_env(inner, s, gamma, guesses)?;
                out.me.insert(mid.clone(), IMod::Env(sampled));
            }
            Mod::FunSig(_) => return None,
        }
    }
    Some(out)
}

/// Whether two module types are the same up to α (Proposition 6.1's
/// "N ⊇ T" and erasure consistency, checked together).
pub fn same_up_to_alpha<C: Core>(a: &MTy<C>, b: &MTy<C>) -> bool {
    alpha_equivalent_mty(a, b)
}
