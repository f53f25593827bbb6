//! Premise ablation (issue 28): which premise does each theorem need?
//!
//! A [`Premise`] is one side condition of one transcribed rule, named once in
//! the registry [`PREMISES`]; the arm that transcribes the rule tests it
//! through [`holds`]. Inside [`with_ablated`] one premise is switched off:
//! where it is false, [`holds`] counts the override and answers true, and the
//! rule goes on as if the premise held. `runestone ablate` runs a paper's
//! campaign, with its theorem checks, once per premise switched off, and
//! reports whether a theorem noticed (`fuzz::ablation`,
//! `proofs-notes/ablation.md`).
//!
//! The cost when nobody ablates: [`holds`] reads the thread-local switch only
//! when the premise is false, that is on the path that reports a type error.
//!
//! Only decidable side conditions are listed: a premise that computes what
//! the conclusion needs (a lookup `E(x) = τ`, the substitution matching
//! yields in rule 29) has nothing to go on with when it fails.

use std::cell::Cell;

/// Which paper a premise's rule transcribes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Paper {
    /// ICFP'18, the module calculus (rules 9–70).
    Icfp18,
    /// TFP'18, the core language's type system (Fig. 3 and its extensions).
    Tfp18,
}

impl Paper {
    /// The name `runestone ablate --paper` takes.
    pub fn name(self) -> &'static str {
        match self {
            Paper::Icfp18 => "icfp18",
            Paper::Tfp18 => "tfp18",
        }
    }

    pub fn from_name(name: &str) -> Option<Paper> {
        [Paper::Icfp18, Paper::Tfp18]
            .into_iter()
            .find(|paper| paper.name() == name)
    }
}

/// One side condition of one rule.
#[derive(Debug, PartialEq, Eq)]
pub struct Premise {
    /// The registry's name (the static's name), unique.
    pub name: &'static str,
    pub paper: Paper,
    /// The rule's id, as in `proofs-notes/rules.toml`.
    pub rule: &'static str,
    /// The premise in the paper's notation (for an extension, in the
    /// notation of the paper it extends).
    pub statement: &'static str,
}

macro_rules! premises {
    ($($name:ident: $paper:ident, $rule:literal, $statement:literal;)*) => {
        $(
            #[doc = concat!($rule, ": ", $statement)]
            pub static $name: Premise = Premise {
                name: stringify!($name),
                paper: Paper::$paper,
                rule: $rule,
                statement: $statement,
            };
        )*
        /// Every premise that can be switched off, in the papers' order.
        pub static PREMISES: &[&Premise] = &[$(&$name),*];
    };
}

premises! {
    // ICFP'18 Fig. 5 (the paper's core, rules 12 and 14).
    ICFP18_12_ASCRIPTION: Icfp18, "ICFP18 rule 12", "E ⊢ exp : τ and τ = E(ty)";
    ICFP18_14_ARGUMENT: Icfp18, "ICFP18 rule 14", "E ⊢ exp₁ : τ' → τ and E ⊢ exp₂ : τ'";
    // Fig. 7: module types and specifications.
    ICFP18_16_ABSTRACT: Icfp18, "ICFP18 rule 16", "t ∈ T";
    ICFP18_18_FRESH: Icfp18, "ICFP18 rule 18", "T ∩ (tvs(E) ∪ T') = ∅";
    ICFP18_23_FRESH: Icfp18, "ICFP18 rule 23", "T₁ ∩ (tvs(E) ∪ T₂) = ∅";
    ICFP18_23_DISJOINT: Icfp18, "ICFP18 rule 23", "Dom E₁ ∩ Dom E₂ = ∅";
    // Fig. 8: module expressions and declarations.
    ICFP18_28_FRESH: Icfp18, "ICFP18 rule 28", "T ∩ tvs(E) = ∅";
    ICFP18_29_FRESH_RESULT: Icfp18, "ICFP18 rule 29", "T ∩ T' = ∅";
    ICFP18_29_FRESH_ENV: Icfp18, "ICFP18 rule 29", "(T ∪ T') ∩ tvs(E) = ∅";
    ICFP18_36_FRESH: Icfp18, "ICFP18 rule 36", "T₁ ∩ (tvs(E) ∪ T₂) = ∅";
    ICFP18_37_FRESH: Icfp18, "ICFP18 rule 37", "T ∩ tvs(E) = ∅";
    ICFP18_37_MATCH: Icfp18, "ICFP18 rule 37", "E' ≻ E'' and E'' ≤ Σ";
    // TFP'18 Fig. 3: typing.
    TFP18_T_PLUS_OPERANDS: Tfp18, "TFP18 T-Plus", "Γ ⊢ e₁ : int and Γ ⊢ e₂ : int";
    TFP18_T_LEQ_OPERANDS: Tfp18, "TFP18 T-Leq", "Γ ⊢ e₁ : int and Γ ⊢ e₂ : int";
    TFP18_T_IF_CONDITION: Tfp18, "TFP18 T-If", "Γ ⊢ e₁ : bool";
    TFP18_T_IF_BRANCHES: Tfp18, "TFP18 T-If", "Γ ⊢ e₂ : τ and Γ ⊢ e₃ : τ";
    TFP18_T_IF_ORDER_ZERO: Tfp18, "TFP18 T-If", "τ orderZero";
    TFP18_T_APP_ARGUMENT: Tfp18, "TFP18 T-App", "Γ ⊢ e₁ : τ₂ → τ and Γ ⊢ e₂ : τ₂";
    TFP18_T_ARRAY_ELEMENTS: Tfp18, "TFP18 T-Array", "Γ ⊢ eᵢ : τ for every i";
    TFP18_T_ARRAY_ORDER_ZERO: Tfp18, "TFP18 T-Array", "τ orderZero";
    TFP18_T_UPDATE_ELEMENT: Tfp18, "TFP18 T-Update", "Γ ⊢ e₂ : τ";
    TFP18_T_MAP_ORDER_ZERO: Tfp18, "TFP18 T-Map", "τ₁ orderZero";
    TFP18_T_LOOP_BODY: Tfp18, "TFP18 T-Loop", "Γ, x : τ, i : int ⊢ e₃ : τ";
    TFP18_T_LOOP_ORDER_ZERO: Tfp18, "TFP18 T-Loop", "τ orderZero";
    // Extensions of Fig. 3 (proofs-notes/rules.toml).
    TFP18_T_BINOP_OPERANDS: Tfp18, "TFP18 T-BinOp", "Γ ⊢ e₁ : τ and Γ ⊢ e₂ : τ";
    TFP18_T_BINOP_COMPARED_ORDER_ZERO: Tfp18, "TFP18 T-BinOp", "τ orderZero (== and !=)";
    TFP18_T_IFOR_CONDITION: Tfp18, "TFP18 T-IfOr", "Γ ⊢ e₁ : bool";
    TFP18_T_IFOR_BRANCHES: Tfp18, "TFP18 T-IfOr", "Γ ⊢ e₂ : τ and Γ ⊢ e₃ : τ";
    TFP18_T_WHILE_CONDITION: Tfp18, "TFP18 T-While", "Γ, x : τ ⊢ e₂ : bool";
    TFP18_T_WHILE_BODY: Tfp18, "TFP18 T-While", "Γ, x : τ ⊢ e₃ : τ";
    TFP18_T_WHILE_ORDER_ZERO: Tfp18, "TFP18 T-While", "τ orderZero";
    TFP18_T_REDUCE_ELEMENTS: Tfp18, "TFP18 T-Reduce", "Γ ⊢ e₃ : []τ";
    TFP18_T_REDUCE_ORDER_ZERO: Tfp18, "TFP18 T-Reduce", "τ orderZero";
    TFP18_T_REDUCE_OPERATOR: Tfp18, "TFP18 T-Reduce", "Γ ⊢ e₁ : τ → τ → τ";
    TFP18_T_SCAN_ELEMENTS: Tfp18, "TFP18 T-Scan", "Γ ⊢ e₃ : []τ";
    TFP18_T_SCAN_ORDER_ZERO: Tfp18, "TFP18 T-Scan", "τ orderZero";
    TFP18_T_SCAN_OPERATOR: Tfp18, "TFP18 T-Scan", "Γ ⊢ e₁ : τ → τ → τ";
    TFP18_T_FILTER_PREDICATE: Tfp18, "TFP18 T-Filter", "Γ, x : τ ⊢ e₁ : bool";
    TFP18_T_REDUCEBYINDEX_NEUTRAL: Tfp18, "TFP18 T-ReduceByIndex", "Γ ⊢ e₂ : τ";
    TFP18_T_REDUCEBYINDEX_INDICES: Tfp18, "TFP18 T-ReduceByIndex", "Γ ⊢ e₃ : []i64";
    TFP18_T_REDUCEBYINDEX_VALUES: Tfp18, "TFP18 T-ReduceByIndex", "Γ ⊢ e₄ : []τ";
    TFP18_T_REDUCEBYINDEX_OPERATOR: Tfp18, "TFP18 T-ReduceByIndex", "Γ ⊢ e₁ : τ → τ → τ";
    TFP18_T_SLICE_BOUNDS: Tfp18, "TFP18 T-Slice", "Γ ⊢ eᵢ : i64 for each bound";
    TFP18_T_ASSERT_CONDITION: Tfp18, "TFP18 T-Assert", "Γ ⊢ e₁ : bool";
    TFP18_T_CONSTRUCTOR_ARGUMENTS: Tfp18, "TFP18 T-Constructor", "Γ ⊢ eᵢ : τᵢ for the constructor's payload";
    TFP18_T_CONSTRUCTOR_ORDER_ZERO: Tfp18, "TFP18 T-Constructor", "the sum type is orderZero";
    TFP18_T_MATCH_CASES: Tfp18, "TFP18 T-Match", "every case has the type τ";
    TFP18_T_MATCH_ORDER_ZERO: Tfp18, "TFP18 T-Match", "τ orderZero";
    TFP18_T_CALL_ARGUMENTS: Tfp18, "TFP18 T-Call", "Γ ⊢ eᵢ : τᵢ for every argument";
    TFP18_T_DEC_TYPE: Tfp18, "TFP18 T-Dec", "Γ ⊢ e : τ, the declared type";
    TFP18_T_ENTRY_PARAMETERS_ORDER_ZERO: Tfp18, "TFP18 T-Entry", "every parameter type orderZero";
    TFP18_T_ENTRY_RESULT: Tfp18, "TFP18 T-Entry", "the result type is the declared one";
    TFP18_T_ENTRY_RESULT_ORDER_ZERO: Tfp18, "TFP18 T-Entry", "the result type orderZero";
}

/// The premise named `name` in the registry.
pub fn premise_named(name: &str) -> Option<&'static Premise> {
    PREMISES.iter().copied().find(|p| p.name == name)
}

thread_local! {
    static ABLATED: Cell<Option<&'static Premise>> = const { Cell::new(None) };
    static OVERRIDDEN: Cell<u64> = const { Cell::new(0) };
}

/// Whether `premise`, found to be `value`, holds: `value`, except that the
/// ablated premise holds whatever it was found to be (and a false one is
/// counted).
#[inline]
pub fn holds(premise: &'static Premise, value: bool) -> bool {
    value || overridden(premise)
}

#[cold]
fn overridden(premise: &'static Premise) -> bool {
    let ablated = ABLATED
        .with(|a| a.get())
        .is_some_and(|a| std::ptr::eq(a, premise));
    if ablated {
        OVERRIDDEN.with(|n| n.set(n.get() + 1));
    } else {
        crate::derivation::premise_failed(premise.name);
    }
    ablated
}

/// Runs `work` on this thread with `premise` switched off; returns its result
/// and how often the premise was false and overridden.
pub fn with_ablated<R>(premise: &'static Premise, work: impl FnOnce() -> R) -> (R, u64) {
    let outer = ABLATED.with(|a| a.replace(Some(premise)));
    let outer_count = OVERRIDDEN.with(|n| n.replace(0));
    let result = work();
    ABLATED.with(|a| a.set(outer));
    let count = OVERRIDDEN.with(|n| n.replace(outer_count));
    (result, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_ablated_premise_is_overridden_and_counted() {
        assert!(!holds(&TFP18_T_IF_BRANCHES, false));
        let (answers, overridden) = with_ablated(&TFP18_T_IF_BRANCHES, || {
            [
                holds(&TFP18_T_IF_BRANCHES, false),
                holds(&TFP18_T_IF_BRANCHES, true),
                holds(&TFP18_T_IF_ORDER_ZERO, false),
                holds(&TFP18_T_IF_BRANCHES, false),
            ]
        });
        assert_eq!(answers, [true, true, false, true]);
        assert_eq!(overridden, 2);
        assert!(!holds(&TFP18_T_IF_BRANCHES, false));
    }

    #[test]
    fn names_are_unique_and_found() {
        for premise in PREMISES {
            assert_eq!(premise_named(premise.name), Some(*premise));
        }
        let mut names: Vec<_> = PREMISES.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), PREMISES.len());
    }
}
