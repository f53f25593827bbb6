//! The interface between the module language and a core language (ICFP'18 §2:
//! "the module language can be considered parameterised over a core language").
//!
//! The module rules (Figs. 7, 8, 11, 12, 13) never look inside core types,
//! expressions or target expressions: they reach them only through [`Core`] and
//! [`CoreType`]. Two instances are planned: [`super::paper_core::PaperCore`]
//! (exactly the paper's core, rules 9–14, 38–40, 44–48) and the richer TFP'18
//! core of a later issue, which plugs in by implementing these two traits.

use super::error::Failure;
use super::interp_objects::IEnv;
use super::objects::{Env, Substitution, TyVar, VEnv};
use super::target::Context;
use spec::syntax::ast::{TypeExp, ValueBind};
use std::collections::BTreeSet;
use std::fmt::Debug;

/// E₀, 𝓔₀ and Γ₀ of a core.
pub type Basis<C> = (Env<C>, IEnv<C>, Context<C>);

/// Semantic types τ of a core language, as the module language sees them: it
/// needs type variables t (rules 16, 19), free type variables (tvs), and
/// substitution S(τ) (§4.2). A core whose types bind variables (type schemes)
/// renames them itself inside [`CoreType::substitute`].
pub trait CoreType: Clone + Debug + PartialEq + Eq {
    /// The type `t` for a type variable.
    fn variable(t: TyVar) -> Self;
    /// `Some(t)` when the type is the type variable `t`.
    fn as_variable(&self) -> Option<TyVar>;
    /// The free type variables, in order of first occurrence (left to right);
    /// the order makes α-normal forms deterministic.
    fn type_variables_in_order(&self, out: &mut Vec<TyVar>);
    /// S(τ).
    fn substitute(&self, substitution: &Substitution<Self>) -> Self;
    /// One-sided matching, the witness of instantiation (§4.2): extends
    /// `substitution` (support within `flexible`) so that S(pattern) = target,
    /// or says no.
    fn match_into(
        pattern: &Self,
        target: &Self,
        flexible: &BTreeSet<TyVar>,
        substitution: &mut Substitution<Self>,
    ) -> bool;
    /// τ in the notation of Fig. 5.
    fn display(&self) -> String;

    /// tvs(τ).
    fn type_variables(&self) -> BTreeSet<TyVar> {
        let mut out = Vec::new();
        self.type_variables_in_order(&mut out);
        out.into_iter().collect()
    }
}

/// A core language the module rules are parameterised over.
pub trait Core: Clone + Debug + PartialEq + Eq + 'static {
    /// Semantic types τ.
    type Type: CoreType;
    /// Target expressions ex (Fig. 9): core expressions with labels for value
    /// identifiers.
    type TargetExp: Clone + Debug;
    /// Guesses of the target typing rules (τ in rule 39) awaiting their witness,
    /// found by unification.
    type Guesses: Default;

    /// The core's name in diagnostics ("the paper's core").
    const NAME: &'static str;

    /// Whether the core has polymorphic declarations of its own (TFP'18 §5.1);
    /// if not, `def f 'a …` goes through ICFP'18 §8.1's derived form.
    const NATIVE_POLYMORPHISM: bool = false;

    /// The initial basis: E₀, 𝓔₀ and Γ₀ with E₀ ⊨_id 𝓔₀ ▷ Γ₀ (predefined types
    /// and values; the paper's core has none, see SPEC_NOTES ICFP18-1; the
    /// TFP'18 core's is the numeric prelude, ICFP18-18). Fails only when a
    /// basis built from source does not elaborate.
    fn initial_basis() -> Result<Basis<Self>, Failure>;

    /// The first name (type variable or label id) a program may use: the
    /// names below it belong to the basis.
    fn first_fresh_name() -> u32 {
        super::objects::FIRST_FRESH
    }

    /// E ⊢ ty : τ (rules 9–10 for the paper's core).
    fn elaborate_type(env: &Env<Self>, ty: &TypeExp) -> Result<Self::Type, Failure>;

    /// E ⊢ ty : τ for the type of a value specification with written type
    /// parameters (`val f 'a : a -> a`): a core with polymorphism of its own
    /// gives a type scheme; by default only `[]` is accepted (rule 20).
    fn elaborate_value_spec(
        env: &Env<Self>,
        type_params: &[spec::syntax::ast::TypeParam],
        ty: &TypeExp,
    ) -> Result<Self::Type, Failure> {
        match type_params.first() {
            None => Self::elaborate_type(env, ty),
            Some(
                spec::syntax::ast::TypeParam::Size { span, .. }
                | spec::syntax::ast::TypeParam::Type { span, .. },
            ) => Err(super::error::outside(
                "value specifications with type parameters",
                Self::NAME,
                *span,
            )),
        }
    }

    /// E ⊢ dec : E' (rule 30's premise; rules 11–14 for the paper's core).
    fn elaborate_dec(env: &Env<Self>, dec: &ValueBind) -> Result<VEnv<Self>, Failure>;

    /// 𝓔 ⊢ dec ⇒ ∃N.(𝓔', c) (rule 48 for the paper's core): the declared
    /// labels N, the interpretation value environment and the code.
    fn compile_dec(env: &IEnv<Self>, dec: &ValueBind) -> Result<CompiledDec<Self>, Failure>;

    /// Γ ⊢ ex : τ (rules 38–40 for the paper's core). `witness` is the S
    /// of the relation the code is typed under (E ⊨_S 𝓔 ▷ Γ; S∘S' in rule
    /// 70's samples): rule 39 guesses the code's types as S(τ), so a core
    /// with typed λs takes S for a module type variable that no label of
    /// the expression determines.
    fn type_target_exp(
        context: &Context<Self>,
        exp: &Self::TargetExp,
        witness: &Substitution<Self::Type>,
        guesses: &mut Self::Guesses,
    ) -> Result<Self::Type, Failure>;

    /// A fresh guess (used to find S' in Proposition 6.1 and rule 70).
    fn fresh_guess(guesses: &mut Self::Guesses) -> Self::Type;

    /// Makes two types equal by solving guesses, or says no.
    fn unify(a: &Self::Type, b: &Self::Type, guesses: &mut Self::Guesses) -> bool;

    /// A type with the solved guesses substituted.
    fn resolve(ty: &Self::Type, guesses: &Self::Guesses) -> Self::Type;

    /// The type `i32` of Corollary 6.2.
    fn corollary_type() -> Self::Type;

    /// Closed types to draw sampled substitutions from (rule 70).
    fn sample_types(basis: &Env<Self>) -> Vec<Self::Type>;

    /// ex in the notation of Fig. 3b.
    fn display_target_exp(exp: &Self::TargetExp) -> String;

    /// The types the abstract types T of a sealing (rules 37, 58) stand for,
    /// as matching the module against ∃T.M found them: a core whose target
    /// code carries types (the TFP'18 core) gives them to declarations that
    /// mention an abstract type no label of theirs determines. The paper's
    /// core has no use for them.
    fn record_sealing(_substitution: &Substitution<Self::Type>) {}
}

/// What a core declaration compiles to (rule 48).
pub struct CompiledDec<C: Core> {
    pub labels: Vec<super::objects::Label>,
    pub values: super::interp_objects::IVEnv<C>,
    pub code: super::target::Code<C>,
}
