//! ICFP'18 (Elsman, Henriksen, Annenkov, Oancea: "Static Interpretation of
//! Higher-Order Modules in Futhark"), §4–§8: the module language, transcribed
//! rule by rule and parameterised over a core language.
//!
//! * [`objects`] semantic objects (Fig. 4), tvs, substitution, α-equivalence;
//! * [`core_interface`] the [`Core`](core_interface::Core) trait the module
//!   rules are generic over; [`paper_core`] the paper's core (rules 9–14,
//!   38–40, 44–48); the TFP'18 core instance, built on the front end's
//!   elaborator, is `front::tfp18_core` (this module uses neither `core` nor
//!   `front`);
//! * [`kernel`] the kernel syntax of Fig. 1; [`derived`] eqs. (1)–(8);
//! * [`matching`] enrichment (§4.1), instantiation (§4.2), matching;
//! * [`elaborate`] rules 15–37; [`explication`] §7 and Proposition 7.1;
//! * [`interp_objects`] §5.2–5.3; [`target`] Fig. 9 (rules 41–43);
//!   [`filtering`] rules 49–53; [`interpret`] rules 54–65;
//! * [`relation`] rules 66–70, Proposition 6.1 and Corollary 6.2;
//! * [`print`] the notation of Figs. 3b and 5.

pub mod core_interface;
pub mod derived;
pub mod elaborate;
pub mod error;
pub mod explication;
pub mod filtering;
pub mod interp_objects;
pub mod interpret;
pub mod kernel;
pub mod matching;
pub mod objects;
pub mod paper_core;
pub mod print;
pub mod relation;
pub mod target;

use crate::derivation;
use core_interface::Core;
use error::Failure;
use interp_objects::{erase_env, type_names, IEnv, IMod, ITarget};
use objects::{prune_mty, Env, MTy, Mod, TypeVarSet};
use relation::{Relation, RelationStats};
use spec::syntax::ast::Program;
use target::{type_code, Code};

/// Everything `runestone check` reports about a program that elaborates.
pub struct Checked<C: Core> {
    /// T and E' of E₀ ⊢ mdec : ∃T.E'.
    pub bound: TypeVarSet,
    pub env: Env<C>,
    /// The interpretation ∃N.(𝓔', c), when static interpretation succeeded.
    pub interpretation: Option<ITarget<C>>,
    /// Proposition 6.1 (with Corollary 6.2 and Proposition 7.1): `Ok(summary)`
    /// when every check holds, `Err(what failed)` otherwise.
    pub verdict: Result<String, String>,
}

impl<C: Core> Checked<C> {
    pub fn code(&self) -> Code<C> {
        self.interpretation
            .as_ref()
            .map(|target| target.code.clone())
            .unwrap_or(Code::Empty)
    }
}

/// Elaborates a program (E₀ ⊢ mdec : ∃T.E'), interprets it statically
/// (𝓔₀ ⊢ mdec ⇒ ∃N.(𝓔', c)) and checks Proposition 6.1. An `Err` is an
/// elaboration failure; failures of the checks are in the verdict.
pub fn check_program<C: Core>(program: &Program) -> Result<Checked<C>, Failure> {
    // The basis first: a basis built from source uses the name supply.
    let (basis, ibasis, context) = C::initial_basis()?;
    objects::reset_names_from(C::first_fresh_name());
    interp_objects::reset_applications();
    let kernel = derived::program_for(program, C::NATIVE_POLYMORPHISM)?;
    let (bound, env) = derivation::phase(
        || "elaboration: E₀ ⊢ mdec : ∃T.E' (Figs. 6–8)".to_string(),
        || elaborate::elab_decs(&basis, &kernel),
    )?;
    // Bound variables that do not occur in E' are removed (§4).
    let free = objects::tvs_env(&env);
    let bound: TypeVarSet = bound.into_iter().filter(|t| free.contains(t)).collect();
    let interpretation = derivation::phase(
        || "static interpretation: 𝓔₀ ⊢ mdec ⇒ ∃N.(𝓔', c) (Figs. 10–12)".to_string(),
        || interpret::interp_decs(&ibasis, &kernel),
    );
    let (interpretation, verdict) = match interpretation {
        Err(failure) => (
            None,
            Err(format!(
                "static interpretation failed: {}",
                failure.message()
            )),
        ),
        Ok((names, ienv, code)) => {
            let target = ITarget {
                names,
                module: IMod::Env(ienv),
                code,
            };
            let verdict = derivation::phase(
                || "Proposition 6.1: Γ₀ ⊢ c : Γ' (Fig. 9) and E' ⊨_S 𝓔' ▷ Γ' (Fig. 13)".to_string(),
                || proposition_6_1(&basis, &ibasis, &context, &bound, &env, &target),
            );
            (Some(target), verdict)
        }
    };
    Ok(Checked {
        bound,
        env,
        interpretation,
        verdict,
    })
}

/// Proposition 6.1 re-checked on a (possibly altered) result: used by the
/// tests that show the checks are not vacuous.
pub fn recheck<C: Core>(checked: &Checked<C>) -> Result<String, String> {
    let (basis, ibasis, context) = C::initial_basis().map_err(|f| f.message())?;
    let target = checked
        .interpretation
        .as_ref()
        .ok_or_else(|| "no interpretation".to_string())?;
    proposition_6_1(
        &basis,
        &ibasis,
        &context,
        &checked.bound,
        &checked.env,
        target,
    )
}

/// Proposition 6.1 for E₀ ⊨_id 𝓔₀ ▷ Γ₀ and the program, Corollary 6.2 for its
/// i32 values, and Proposition 7.1 for its module types.
fn proposition_6_1<C: Core>(
    basis: &Env<C>,
    ibasis: &IEnv<C>,
    context: &target::Context<C>,
    bound: &TypeVarSet,
    env: &Env<C>,
    target: &ITarget<C>,
) -> Result<String, String> {
    let mut relation = Relation::<C>::default();
    relation
        .env(basis, ibasis, &Default::default(), context)
        .map_err(|m| format!("the basis is not related: {m}"))?;
    let IMod::Env(ienv) = &target.module else {
        return Err("the program did not interpret to an environment".to_string());
    };
    // 𝓔̄' = E' up to α and N ⊇ T (the type names of N bind E''s abstract types).
    let erased = interp_objects::erase_target(target);
    let elaborated = prune_mty(MTy::new(bound.clone(), Mod::Env(env.clone())));
    if !relation::same_up_to_alpha(&erased, &elaborated) {
        return Err(format!(
            "the erasure of the interpretation is not the elaborated environment:\n  erased:     {}\n  elaborated: {}",
            print::mty(&erased),
            print::mty(&elaborated)
        ));
    }
    // Γ ⊢ c : Γ'.
    let gamma = type_code(
        context,
        &target.code,
        &Default::default(),
        &mut relation.guesses,
    )
    .map_err(|failure| format!("Γ ⊢ c : Γ' fails: {}", failure.message()))?;
    let gamma_all = gamma.clone().union(context.clone());
    // E' ⊨_{S'} 𝓔' ▷ Γ' with Dom S' = TSet ∩ N found by unification.
    let s_prime = relation.guess_substitution(&type_names(&target.names));
    relation
        .env(&erase_env(ienv), ienv, &s_prime, &gamma_all)
        .map_err(|m| format!("E' ⊨_S' 𝓔' ▷ Γ' fails: {m}"))?;
    // Corollary 6.2: each top-level value of type i32 is a label of type i32.
    let mut corollary = 0;
    for (vid, (label, ty)) in &ienv.ve {
        if *ty == C::corollary_type() {
            let found = gamma_all
                .get(label)
                .map(|t| C::resolve(t, &relation.guesses));
            if found.as_ref() != Some(ty) {
                return Err(format!(
                    "Corollary 6.2: {vid} is not a label of type i32 in Γ'"
                ));
            }
            corollary += 1;
        }
    }
    // Proposition 7.1: the module types of the result are type explicit.
    explication::explicit_env(env).map_err(|m| format!("Proposition 7.1: {m}"))?;
    let RelationStats {
        values,
        closures,
        samples,
        unsampled_closures,
        recorded,
    } = relation.stats;
    Ok(format!(
        "Proposition 6.1 holds: N ⊇ T, Γ ⊢ c : Γ' ({} labels), E' ⊨_S 𝓔' ▷ Γ' ({values} values, {closures} closures, rule 70 on {samples} sampled arguments of which {recorded} applied by the program, {unsampled_closures} closures with higher-order parameters not sampled synthetically); Corollary 6.2 for {corollary} i32 values; Proposition 7.1 holds",
        gamma.len()
    ))
}
