//! The thesis' theorems as executable checks (guide §6.3, T1–T17). Each check
//! returns a [`Verdict`]: it holds, it is violated (with what was seen), or it
//! is unknown (fuel exhausted — never a verdict, guide P1).

use super::closure_conversion::convert_type;
use super::flat_types::{equivalent, flat, flat_array};
use super::flatten::{lift, vectorise};
use super::lambda_a::ExprA;
use super::lambda_c::ExprC;
use super::machine::{ByNeed, Calculus, CheckedSmallStep, Evaluator, SmallStep, Stop};
use super::observation::Observation;
use super::readback::{readback_a, readback_c, Readback, ReadbackError};
use super::reduce_a::LambdaA;
use super::reduce_c::LambdaC;
use super::types::Type;
use super::{machine, typing_a, typing_c};
use std::collections::HashSet;

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Violated(String),
    Unknown(String),
}

impl Verdict {
    pub fn is_violation(&self) -> bool {
        matches!(self, Verdict::Violated(_))
    }
}

/// One named check and its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    pub name: &'static str,
    pub verdict: Verdict,
}

/// T4 (not in the thesis): `⊢_P e : τ ⟹ ⊢_C CC(e) : C_τ[τ]`. `converted` is the
/// annotated λC term.
pub fn closure_conversion_preserves_types(ty_p: &Type, ty_c: &Type) -> Verdict {
    let expected = convert_type(ty_p);
    if *ty_c == expected {
        Verdict::Holds
    } else {
        Verdict::Violated(format!(
            "CC(e) has type `{ty_c}`, expected C_τ[τ] = `{expected}`"
        ))
    }
}

/// Thm. 5.27 (1): `G[∅] ⊢_A V[e] : F[τ]` for a closed λC `e : τ`.
pub fn flattening_is_type_correct(vectorised: &ExprA, ty: &Type) -> Verdict {
    match typing_a::check_program(vectorised) {
        Ok(found) if equivalent(&found, &flat(ty)) => Verdict::Holds,
        Ok(found) => Verdict::Violated(format!(
            "V[e] has type `{found}`, expected F[τ] = `{}`",
            flat(ty)
        )),
        Err(error) => Verdict::Violated(format!("V[e] is ill-typed: {error}")),
    }
}

/// Thm. 5.27 (2) for a closed `e`: `⊢_A L[l, e] : F[[:τ:]]` with `l` the literal
/// `length` (any `Int` term typed under `G[∅↑]`).
pub fn lifting_is_type_correct(e: &ExprC, ty: &Type, length: i64) -> Verdict {
    let lifted = lift(&ExprA::int(length), e);
    match typing_a::check_program(&lifted) {
        Ok(found) if equivalent(&found, &flat_array(ty)) => Verdict::Holds,
        Ok(found) => Verdict::Violated(format!(
            "L[{length}, e] has type `{found}`, expected F[[:τ:]] = `{}`",
            flat_array(ty)
        )),
        Err(error) => Verdict::Violated(format!("L[{length}, e] is ill-typed: {error}")),
    }
}

/// How far a λC or λA program got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Observed(Observation),
    Unknown(String),
    Malformed(String),
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Observed(o) => write!(f, "{o}"),
            Outcome::Unknown(why) => write!(f, "unknown ({why})"),
            Outcome::Malformed(why) => write!(f, "malformed ({why})"),
        }
    }
}

fn outcome(result: Result<Observation, ReadbackError>) -> Outcome {
    match result {
        Ok(o) => Outcome::Observed(o),
        Err(ReadbackError::Unknown(Stop::Bottom(b))) => Outcome::Unknown(b),
        Err(ReadbackError::Unknown(other)) => Outcome::Unknown(other.to_string()),
        Err(ReadbackError::Malformed(m)) => Outcome::Malformed(m),
    }
}

/// Evaluates and reads back a λC program (call by need) with `fuel`.
pub fn observe_c(e: &ExprC, ty: &Type, fuel: u64) -> (Outcome, u64) {
    let mut evaluator = ByNeed::<LambdaC>::new(fuel);
    let result = readback_c(&mut evaluator, e, ty);
    (outcome(result), evaluator.steps())
}

/// Evaluates and reads back a λA program (call by need) with `fuel`.
pub fn observe_a(e: &ExprA, ty: &Type, fuel: u64) -> (Outcome, u64) {
    let mut evaluator = ByNeed::<LambdaA>::new(fuel);
    let result = readback_a(&mut evaluator, e, ty);
    (outcome(result), evaluator.steps())
}

/// Thm. 6.37 on the observation contexts of a closed first-order program (T12):
/// when the λC observation is known, the λA one must be known (retrying with
/// more fuel) and simulate it (equal wherever λC is defined).
pub fn flattening_is_correct(c: &Outcome, a: &Outcome) -> Verdict {
    match (c, a) {
        (Outcome::Malformed(m), _) => Verdict::Violated(format!("λC readback malformed: {m}")),
        (_, Outcome::Malformed(m)) => Verdict::Violated(format!("λA readback malformed: {m}")),
        (Outcome::Unknown(why), _) => Verdict::Unknown(format!("λC: {why}")),
        (Outcome::Observed(_), Outcome::Unknown(why)) => Verdict::Unknown(format!("λA: {why}")),
        (Outcome::Observed(oc), Outcome::Observed(oa)) => {
            if oc.simulated_by(oa) {
                Verdict::Holds
            } else {
                Verdict::Violated(format!("λC observes {oc} but λA observes {oa}"))
            }
        }
    }
}

/// Lemma 6.3 (subject reduction, T5) and Thm. 6.8 (immutability, T6) on the
/// first `steps` small steps of the λC term `e : τ`.
pub fn lambda_c_subject_reduction(e: &ExprC, ty: &Type, steps: usize) -> Verdict {
    let mut original = Vec::new();
    e.lambdas(&mut original);
    let original: HashSet<String> = original.into_iter().collect();
    let mut current = e.clone();
    for k in 0..steps {
        match machine::step::<LambdaC>(&current) {
            Ok(Some(next)) => {
                match typing_c::check_program(&next) {
                    Ok(typed) if typed.ty() == ty => {}
                    Ok(typed) => {
                        return Verdict::Violated(format!(
                            "λC step {k} changed the type from `{ty}` to `{}`: {next}",
                            typed.ty()
                        ))
                    }
                    Err(error) => {
                        return Verdict::Violated(format!(
                            "λC step {k} is ill-typed ({error}): {next}"
                        ))
                    }
                }
                let mut lambdas = Vec::new();
                next.lambdas(&mut lambdas);
                if let Some(new) = lambdas.iter().find(|l| !original.contains(*l)) {
                    return Verdict::Violated(format!(
                        "Thm 6.8: λC step {k} created the abstraction {new}"
                    ));
                }
                current = next;
            }
            Ok(None) | Err(Stop::Bottom(_)) => return Verdict::Holds,
            Err(other) => return Verdict::Unknown(other.to_string()),
        }
    }
    Verdict::Holds
}

/// Lemma 6.3 and Thm. 6.8 for λA: every reduct of `e : F[τ]` has type `F[τ]` and
/// only abstractions of `e`.
pub fn lambda_a_subject_reduction(e: &ExprA, ty: &Type, steps: usize) -> Verdict {
    let expected = flat(ty);
    let mut original = Vec::new();
    e.lambdas(&mut original);
    let original: HashSet<String> = original.into_iter().collect();
    let mut original_nodes = HashSet::new();
    lambda_nodes(e, &mut HashSet::new(), &mut |node| {
        original_nodes.insert(node.id());
    });
    let mut current = e.clone();
    let mut abstraction_types = typing_a::AbstractionTypes::default();
    for k in 0..steps {
        match machine::step::<LambdaA>(&current) {
            Ok(Some(next)) => {
                match typing_a::check_program_sharing(&mut abstraction_types, &next) {
                    Ok(found) if equivalent(&found, &expected) => {}
                    Ok(found) => {
                        return Verdict::Violated(format!(
                            "λA step {k} changed the type from `{expected}` to `{found}`: {next}"
                        ))
                    }
                    Err(error) => {
                        return Verdict::Violated(format!(
                            "λA step {k} is ill-typed ({error}): {next}"
                        ))
                    }
                }
                // An abstraction node of `e` (by identity) is one of `e`'s;
                // any other is compared by its text.
                let mut created = None;
                lambda_nodes(&next, &mut HashSet::new(), &mut |node| {
                    if created.is_none() && !original_nodes.contains(&node.id()) {
                        let printed = node.to_string();
                        if !original.contains(&printed) && !is_primitive_lambda(&printed) {
                            created = Some(printed);
                        }
                    }
                });
                if let Some(new) = created {
                    return Verdict::Violated(format!(
                        "Thm 6.8: λA step {k} created the abstraction {new}"
                    ));
                }
                current = next;
            }
            Ok(None) | Err(Stop::Bottom(_)) => return Verdict::Holds,
            Err(other) => return Verdict::Unknown(other.to_string()),
        }
    }
    Verdict::Holds
}

/// Calls `visit` on every abstraction node of `e`, each shared node once.
fn lambda_nodes(e: &ExprA, seen: &mut HashSet<usize>, visit: &mut impl FnMut(&ExprA)) {
    if !seen.insert(e.id()) {
        return;
    }
    if let super::lambda_a::TermA::Lam(..) = e.term() {
        visit(e);
    }
    for child in e.children() {
        lambda_nodes(&child, seen, visit);
    }
}

/// `nilP` at a function association introduces `λ•. ⊥` and `λ•. nilP⟨⟩`
/// (App. C): abstractions that come from a primitive's definition, not from the
/// program, which Thm. 6.8 (stated for the λA terms of the program) does not
/// cover.
fn is_primitive_lambda(printed: &str) -> bool {
    printed.contains("bottom") || printed.contains("nilP")
}

/// Wall-clock bound of one small-step readback (beyond it: unknown). The
/// refocused driver takes about two million λA steps a second here; the
/// thesis' `list_sums` needs four million (call by name shares nothing).
pub const SMALL_STEP_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// The call-by-need evaluator against the small-step relation (T-need): on
/// terms where both finish within `fuel`, the observations are equal. The
/// first `checked_steps` steps of the small-step readback are also taken
/// literally from the root: the refocused driver must be the relation.
pub fn by_need_agrees_c(e: &ExprC, ty: &Type, fuel: u64, checked_steps: u64) -> Verdict {
    if let Some(difference) =
        refocusing_differs::<LambdaC>(checked_steps, |small| readback_c(small, e, ty))
    {
        return Verdict::Violated(format!("refocusing is not the λC relation: {difference}"));
    }
    let mut small = SmallStep::<LambdaC>::with_deadline(fuel, SMALL_STEP_TIME);
    let literal = outcome(readback_c(&mut small, e, ty));
    let mut need = ByNeed::<LambdaC>::new(fuel);
    let shared = outcome(readback_c(&mut need, e, ty));
    compare_evaluators(&literal, &shared)
}

/// As [`by_need_agrees_c`] for λA.
pub fn by_need_agrees_a(e: &ExprA, ty: &Type, fuel: u64, checked_steps: u64) -> Verdict {
    if let Some(difference) =
        refocusing_differs::<LambdaA>(checked_steps, |small| readback_a(small, e, ty))
    {
        return Verdict::Violated(format!("refocusing is not the λA relation: {difference}"));
    }
    let mut small = SmallStep::<LambdaA>::with_deadline(fuel, SMALL_STEP_TIME);
    let literal = outcome(readback_a(&mut small, e, ty));
    let mut need = ByNeed::<LambdaA>::new(fuel);
    let shared = outcome(readback_a(&mut need, e, ty));
    compare_evaluators(&literal, &shared)
}

/// Runs `read` on a [`CheckedSmallStep`] of `steps` fuel: the first step
/// where the refocused reduct differs from the relation's, if any (running out
/// of fuel only ends the check).
pub fn refocusing_differs<C: Calculus>(
    steps: u64,
    read: impl FnOnce(&mut CheckedSmallStep<C>) -> Readback<Observation>,
) -> Option<String>
where
    C::Term: PartialEq + std::fmt::Display,
{
    if steps == 0 {
        return None;
    }
    let mut checked = CheckedSmallStep::<C>::new(steps);
    let _observation_is_not_the_point = read(&mut checked);
    checked.difference
}

fn compare_evaluators(literal: &Outcome, shared: &Outcome) -> Verdict {
    match (literal, shared) {
        (Outcome::Observed(a), Outcome::Observed(b)) if a == b => Verdict::Holds,
        (Outcome::Observed(a), Outcome::Observed(b)) => Verdict::Violated(format!(
            "small-step observes {a} but call-by-need observes {b}"
        )),
        (Outcome::Observed(a), other) => Verdict::Violated(format!(
            "small-step observes {a} but call-by-need gives {other}"
        )),
        (Outcome::Unknown(_), _) => Verdict::Unknown("small-step ran out of fuel".into()),
        (Outcome::Malformed(m), _) => Verdict::Violated(format!("malformed: {m}")),
    }
}

/// Lemma 6.9 (T7): `V[e][V[e']/•] = V[e[e'/•]]`, syntactically.
pub fn vectorisation_is_substitutive(e: &ExprC, argument: &ExprC) -> Verdict {
    let left = vectorise(e).substitute(&vectorise(argument));
    let right = vectorise(&e.substitute(argument));
    if left == right {
        Verdict::Holds
    } else {
        Verdict::Violated(format!("V[e][V[e']/•] = {left} but V[e[e'/•]] = {right}"))
    }
}

/// Lemma 6.33 on observations (guide T13): every λC reduct `e_k` of the first
/// `steps` small steps of `e` flattens to a λA program whose observation still
/// simulates the λC observation `expected` of `e`. Reducts mentioning `▷`
/// (introduced by λC's `!:`/`mapP` on `++`, SPEC_NOTES L05-21) have no λA
/// counterpart and stop the check.
pub fn reducts_flatten_equivalently(
    e: &ExprC,
    ty: &Type,
    expected: &Outcome,
    steps: usize,
    fuel: u64,
) -> Verdict {
    let Outcome::Observed(_) = expected else {
        return Verdict::Unknown("no λC observation".into());
    };
    let mut current = e.clone();
    for k in 0..steps {
        match machine::step::<LambdaC>(&current) {
            Ok(Some(next)) => current = next,
            Ok(None) | Err(Stop::Bottom(_)) => return Verdict::Holds,
            Err(other) => return Verdict::Unknown(other.to_string()),
        }
        if current.mentions(super::constants::Prim::Impose) {
            return Verdict::Holds;
        }
        let annotated = match typing_c::check_program(&current) {
            Ok(annotated) => annotated,
            Err(error) => return Verdict::Violated(format!("reduct {k} is ill-typed: {error}")),
        };
        let (flat_outcome, _) = observe_a(&vectorise(&annotated), ty, fuel);
        match flattening_is_correct(expected, &flat_outcome) {
            Verdict::Violated(why) => {
                return Verdict::Violated(format!("after {} λC steps: {why}", k + 1))
            }
            Verdict::Unknown(why) => return Verdict::Unknown(why),
            Verdict::Holds => {}
        }
    }
    Verdict::Holds
}

/// Lemma 6.34 (guide T14): the WHNF `v` that `e` reduces to in λC has a
/// converging vectorisation, `V[v] ⇓`. A `v` that mentions `▷` (left
/// lazy inside it by λC's `!:`/`mapP` on `++`) is decided too: `V[v]`'s
/// WHNF holds or fails where it never needs that `▷`, and is unknown
/// where it does, λA having no `▷` (SPEC_NOTES L05-21).
pub fn values_vectorise_to_values(e: &ExprC, fuel: u64) -> Verdict {
    let mut evaluator = ByNeed::<LambdaC>::new(fuel);
    let value = match evaluator.whnf(e) {
        Ok(value) => value,
        Err(Stop::Bottom(_)) => return Verdict::Holds,
        Err(other) => return Verdict::Unknown(format!("λC: {other}")),
    };
    let annotated = match typing_c::check_program(&value) {
        Ok(annotated) => annotated,
        Err(error) => return Verdict::Violated(format!("the λC value is ill-typed: {error}")),
    };
    let mut flat_evaluator = ByNeed::<LambdaA>::new(fuel.saturating_mul(20));
    match flat_evaluator.whnf(&vectorise(&annotated)) {
        Ok(_) => Verdict::Holds,
        Err(Stop::Bottom(why)) => Verdict::Violated(format!("V[{value}] diverges: {why}")),
        Err(other) => Verdict::Unknown(format!("λA: {other}")),
    }
}
