//! The stepper of `runestone explain` (issue 28, item 2): the literal
//! small-step relation `e → e'` of Fig. 6.3 (no sharing, each step from the
//! root) on both sides of Theorem 6.37 — the closed λC term `e` and its
//! flattening `V[e]` — each step with the rules it applied (the congruences
//! that found the redex, outermost first, then its contraction) and the term
//! it reached, until a value (WHNF), ⊥ or a limit. A step is
//! [`machine::step`]'s descent, recording at each level the rule `decide`
//! chose (the last it fired: the value tests it makes first fire the rules
//! of the subterms they look at); the tests check the reducts are
//! `machine::step`'s.
//!
//! The terms are printed for a reader, so both the number of steps and the
//! printed size of a term are bounded ([`StepperLimits`]): past them the
//! sequence ends with [`SequenceEnd::StepLimit`] or a step keeps its rules
//! and drops its term. Neither is a verdict; `runestone nested` gives those.

use super::closure_conversion::convert_program;
use super::concrete::parse_lambda_c;
use super::flatten::vectorise;
use super::machine::{Calculus, Decision, Stop};
use super::pipeline::{front_end, Rejection};
use super::reduce_a::LambdaA;
use super::reduce_c::LambdaC;
use super::typing_c;
use crate::derivation::{record, Node};
use spec::diagnostic::Diagnostic;
use spec::source::FileId;
use std::fmt::Display;

/// How far the stepper goes.
#[derive(Clone, Copy, Debug)]
pub struct StepperLimits {
    /// Steps taken per side at most.
    pub steps: usize,
    /// A term printed longer than this many characters is not kept.
    pub term_chars: usize,
}

impl Default for StepperLimits {
    fn default() -> Self {
        StepperLimits {
            steps: 400,
            term_chars: 4_000,
        }
    }
}

/// One step `e → e'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The rules of Fig. 6.3 / App. B–C the step used, outermost first: the
    /// congruences that found the redex, then its contraction.
    pub rules: Vec<&'static str>,
    /// `e'`, printed; `None` when it is longer than
    /// [`StepperLimits::term_chars`].
    pub term: Option<String>,
}

/// Why a sequence ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SequenceEnd {
    /// The last term is a value (WHNF).
    Value,
    /// The last term is stuck: ⊥, with the reason.
    Bottom(String),
    /// Evaluation stopped without a verdict (a memory limit; λA applying ▷).
    Unknown(String),
    /// [`StepperLimits::steps`] steps were taken and the term is no value.
    StepLimit,
}

/// The reduction sequence of one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// `λC` or `λA`.
    pub calculus: &'static str,
    /// The term before the first step (`None` when too long to print).
    pub initial: Option<String>,
    pub steps: Vec<Reduction>,
    pub end: SequenceEnd,
}

/// Both sides of Theorem 6.37 on one program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepper {
    pub lambda_c: Sequence,
    pub lambda_a: Sequence,
}

/// Parses and checks a `.lp` (closure-converted) or `.lc` program, flattens
/// it, and steps both sides.
pub fn step_program(
    file: FileId,
    name: &str,
    text: &str,
    limits: StepperLimits,
) -> Result<Stepper, Rejection> {
    let parsed = if name.ends_with(".lc") {
        parse_lambda_c(file, text).map_err(Rejection::Source)?
    } else {
        convert_program(&front_end(file, text).map_err(Rejection::Source)?)
    };
    let annotated = typing_c::check_program(&parsed).map_err(|error| {
        Rejection::Source(
            Diagnostic::error(format!("type error: {}", error.message))
                .with_code(format!("L05 Fig5.4 {}", error.rule)),
        )
    })?;
    let flattened = vectorise(&annotated);
    Ok(Stepper {
        lambda_c: sequence::<LambdaC>("λC", &annotated, limits),
        lambda_a: sequence::<LambdaA>("λA", &flattened, limits),
    })
}

/// `term →* …` under `limits`, one [`Reduction`] per step.
pub fn sequence<C: Calculus>(
    calculus: &'static str,
    term: &C::Term,
    limits: StepperLimits,
) -> Sequence
where
    C::Term: Display,
{
    let mut current = term.clone();
    let mut steps = Vec::new();
    let end = loop {
        if steps.len() >= limits.steps {
            break SequenceEnd::StepLimit;
        }
        let mut rules = Vec::new();
        match step_naming_rules::<C>(&current, &mut rules) {
            Ok(None) => break SequenceEnd::Value,
            Ok(Some(next)) => {
                steps.push(Reduction {
                    rules,
                    term: printed_within(&next, limits.term_chars),
                });
                current = next;
            }
            Err(Stop::Bottom(reason)) => break SequenceEnd::Bottom(reason),
            Err(other) => break SequenceEnd::Unknown(other.to_string()),
        }
    };
    Sequence {
        calculus,
        initial: printed_within(term, limits.term_chars),
        steps,
        end,
    }
}

/// `e → e'` as [`machine::step`] takes it, pushing onto `rules` the rule
/// each level applied.
fn step_naming_rules<C: Calculus>(
    term: &C::Term,
    rules: &mut Vec<&'static str>,
) -> Result<Option<C::Term>, Stop> {
    let (decision, derivation) = record(|| C::decide(term));
    match decision {
        Decision::Value => Ok(None),
        Decision::Contract(next) => {
            rules.extend(last_rule(&derivation.roots));
            Ok(Some(next))
        }
        Decision::Bottom(reason) => Err(Stop::Bottom(reason)),
        Decision::Limit(reason) => Err(Stop::MemoryLimit(reason)),
        Decision::Impose => Err(Stop::Impose),
        Decision::Congruence(path) => {
            rules.extend(last_rule(&derivation.roots));
            let child = C::at_path(term, &path)
                .ok_or_else(|| Stop::Bottom("congruence into a missing subterm".into()))?;
            match step_naming_rules::<C>(&child, rules)? {
                Some(next_child) => Ok(Some(C::replace_at(term, &path, next_child))),
                None => Err(Stop::Bottom(
                    "a congruence rule pointed at a value (no rule applies)".into(),
                )),
            }
        }
    }
}

/// The rule fired last in a derivation.
fn last_rule(nodes: &[Node]) -> Option<&'static str> {
    nodes
        .iter()
        .rev()
        .find_map(|node| last_rule(&node.premises).or(node.rule))
}

/// `term` printed, or `None` when it is longer than `limit` characters (the
/// printer stops at the limit: a shared term can print exponentially long).
fn printed_within(term: &impl Display, limit: usize) -> Option<String> {
    struct Bounded {
        text: String,
        chars: usize,
        limit: usize,
    }
    impl std::fmt::Write for Bounded {
        fn write_str(&mut self, piece: &str) -> std::fmt::Result {
            self.chars += piece.chars().count();
            if self.chars > self.limit {
                return Err(std::fmt::Error);
            }
            self.text.push_str(piece);
            Ok(())
        }
    }
    let mut out = Bounded {
        text: String::new(),
        chars: 0,
        limit,
    };
    use std::fmt::Write as _;
    write!(out, "{term}").ok().map(|()| out.text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spec::source::SourceMap;

    fn stepper(name: &str, text: &str, limits: StepperLimits) -> Stepper {
        let mut sources = SourceMap::new();
        let file = sources.add(name.to_string(), text.to_string());
        step_program(file, name, text, limits).expect("a checked program")
    }

    #[test]
    fn both_sides_reach_a_value_and_name_each_steps_rules() {
        let stepped = stepper(
            "add.lp",
            "(\\(x : Int) -> x + 1) 41",
            StepperLimits::default(),
        );
        for side in [&stepped.lambda_c, &stepped.lambda_a] {
            assert_eq!(side.end, SequenceEnd::Value, "{side:?}");
            assert!(!side.steps.is_empty(), "{side:?}");
            assert!(side.initial.is_some());
            for reduction in &side.steps {
                assert!(
                    !reduction.rules.is_empty(),
                    "a step without a rule: {side:?}"
                );
                assert!(reduction.term.is_some());
            }
        }
        let last_c = stepped.lambda_c.steps.last().unwrap();
        assert_eq!(last_c.term.as_deref(), Some("42"));
    }

    /// The stepper's descent is `machine::step`'s: the same reducts, on
    /// both sides of a program with closures, tuples and `mapP`.
    #[test]
    fn each_reduct_is_the_machines_step() {
        use super::super::machine::step;
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/nested/lifting.lp"
        ))
        .unwrap();
        let mut sources = SourceMap::new();
        let file = sources.add("lifting.lp".to_string(), text.clone());
        let program = super::convert_program(&front_end(file, &text).unwrap());
        let annotated = typing_c::check_program(&program).unwrap();
        let flattened = vectorise(&annotated);
        let mut c = annotated.clone();
        let mut rules = Vec::new();
        while let Some(next) = step_naming_rules::<LambdaC>(&c, &mut rules).unwrap() {
            let expected = step::<LambdaC>(&c).unwrap().unwrap();
            assert_eq!(next.to_string(), expected.to_string());
            c = next;
        }
        let mut a = flattened.clone();
        let mut steps = 0;
        while let Some(next) = step_naming_rules::<LambdaA>(&a, &mut rules).unwrap() {
            let expected = step::<LambdaA>(&a).unwrap().unwrap();
            assert_eq!(next.to_string(), expected.to_string());
            a = next;
            steps += 1;
        }
        assert!(steps > 10, "{steps} λA steps");
        assert!(
            rules
                .iter()
                .all(|rule| ["L05 Fig6.3 ", "L05 AppB ", "L05 AppC "]
                    .iter()
                    .any(|paper| rule.starts_with(paper))),
            "{rules:?}"
        );
    }

    #[test]
    fn the_limits_end_a_sequence_without_a_verdict() {
        let limits = StepperLimits {
            steps: 1,
            term_chars: 3,
        };
        let stepped = stepper("add.lp", "(\\(x : Int) -> x + 1) 41", limits);
        assert_eq!(stepped.lambda_c.end, SequenceEnd::StepLimit);
        assert_eq!(stepped.lambda_c.steps.len(), 1);
        assert_eq!(stepped.lambda_c.initial, None, "the term is longer than 3");
    }
}
