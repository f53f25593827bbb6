//! TFP'18's theorems as executable checks (§4.4) on a monomorphic program
//! and its two defunctionalisations (Fig. 5's inlining and §5.3's lambda
//! lifting): Theorem 1 on the translation (each declaration's static value
//! is related to its type, each residual has type ⟦sv⟧tp), and Theorem 2
//! with Lemmas 1 and 4 and Corollary 1 on every run of an entry point (the
//! source and both targets evaluated, their values related by ⟦v⟧val).
//!
//! The relations the checks use are [`super::relations`]'s. The driver that
//! prepares the programs (elaboration, monomorphisation) and calls these
//! checks is the front end's pipeline, outside the transcription.

use super::defunc::{static_type, Defunctionalised, TargetProgram};
use super::eval::{Evaluator, Failure, RuntimeError};
use super::relations::{
    lemma_4, static_has_type, translate_value, translate_value_at, value_has_static, value_has_type,
};
use super::syntax::{EntryPoint, Program};
use super::typing::{LambdaContexts, Scheme, TypeEnv, Typing};
use super::value::{Value, ValueEnv};
use spec::memory::{MemoryLimit, MemoryLimitExceeded};
use spec::source::Span;

/// Why a run gave no result.
#[derive(Debug)]
pub enum RunError {
    /// `err`: a run-time error of the program.
    Runtime(RuntimeError),
    /// The arguments do not fit the entry point.
    Input(String),
    /// The step limit was reached.
    OutOfFuel,
    /// Extension (SPEC_NOTES TFP18-29): the memory limit refused an array;
    /// the message says how large, and where.
    MemoryLimit(RuntimeError),
    /// A theorem or lemma of TFP'18 failed: a bug in the reference or a
    /// defect of the paper.
    Violation(String),
}

/// Theorem 1, for each translation of `mono`: each declaration's static
/// value is related to its type, and each residual has type ⟦sv⟧tp in
/// ⟦E⟧tp; the lifted functions and the entry points' targets are typed too.
pub fn theorem_1(
    mono: &Program,
    translations: [&Defunctionalised; 2],
    or_conditionals: bool,
) -> Result<(), String> {
    for d in translations {
        let typing = Typing::new().with_functions(&d.target.functions);
        // The target has no function types: T-If's premise holds there.
        for f in &d.target.functions {
            let env: TypeEnv = f
                .params
                .iter()
                .map(|(x, t)| (x.clone(), Scheme::mono(t.clone())))
                .collect();
            let t = typing
                .type_of(&env, &f.body)
                .map_err(|e| format!("lifted {}: {}", f.name, e.message))?;
            if t != f.result_type {
                return Err(format!(
                    "lifted function {} has the wrong result type",
                    f.name
                ));
            }
        }
        let mut env = TypeEnv::new();
        for ((dec, target), (_, sv)) in mono.decs.iter().zip(&d.target.decs).zip(&d.dec_statics) {
            static_has_type(mono, sv, &dec.ty, or_conditionals)
                .map_err(|m| format!("{}: {m}", dec.name))?;
            let t = typing
                .type_of(&env, &target.value)
                .map_err(|e| format!("{}: {}", dec.name, e.message))?;
            if t != static_type(sv) {
                return Err(format!(
                    "the residual of {} does not have type ⟦sv⟧tp",
                    dec.name
                ));
            }
            env.insert(dec.name.clone(), Scheme::mono(t));
        }
        for ((entry, target), sv) in mono
            .entries
            .iter()
            .zip(&d.target.entries)
            .zip(&d.entry_statics)
        {
            static_has_type(mono, sv, &entry.result_type, or_conditionals)
                .map_err(|m| format!("entry {}: {m}", entry.name))?;
            let mut inner = env.clone();
            for (x, t) in &target.params {
                inner.insert(x.clone(), Scheme::mono(t.clone()));
            }
            let t = typing
                .type_of(&inner, &target.body)
                .map_err(|e| format!("entry {}: {}", entry.name, e.message))?;
            if t != entry.result_type {
                return Err(format!(
                    "entry {}: the target's result type differs (Corollary 1)",
                    entry.name
                ));
            }
        }
    }
    Ok(())
}

/// Runs the entry point `ep` of `mono` on `values` in the source program
/// (Σ from the declarations, then E-App) and in each translation, checking
/// Lemma 1 (every declaration's value and the result have their types,
/// Fig. 7), Theorem 2 (each declaration's value is related to its static
/// value and translates to the target's), Lemma 4 and Corollary 1 (the
/// target computes ⟦v⟧val, or fails with the same `err`); returns the
/// source program's value.
pub fn run_checked(
    mono: &Program,
    translations: [&Defunctionalised; 2],
    lambda_contexts: &LambdaContexts,
    fuel: u64,
    memory_limit: MemoryLimit,
    ep: &EntryPoint,
    values: &[Value],
) -> Result<Value, RunError> {
    let mut evaluator = Evaluator::new(fuel).with_memory_limit(memory_limit);
    let source = (|| {
        let mut sigma = ValueEnv::new();
        let mut dec_values = Vec::new();
        for dec in &mono.decs {
            let v = evaluator.eval(&sigma, &dec.value)?;
            dec_values.push(v.clone());
            sigma.insert(dec.name.clone(), v);
        }
        let mut f = sigma.get(&ep.name).cloned().ok_or_else(|| Failure::Stuck {
            message: "no entry".into(),
            span: ep.span,
        })?;
        for v in values {
            f = evaluator.apply(f, v.clone(), ep.span)?;
        }
        Ok((f, dec_values))
    })();
    for d in translations {
        let target = run_target(&d.target, &ep.name, values, fuel, memory_limit);
        match (&source, &target) {
            (Ok((v, dec_values)), Ok((tv, target_decs))) => {
                // Theorem 2 on every declaration and on the result.
                // Lemma 1: every declaration's value has its type (Fig. 7).
                for (dec, v) in mono.decs.iter().zip(dec_values) {
                    value_has_type(v, &dec.ty, lambda_contexts, 0)
                        .map_err(|m| RunError::Violation(format!("Lemma 1 ({}): {m}", dec.name)))?;
                }
                value_has_type(v, &ep.result_type, lambda_contexts, 0)
                    .map_err(|m| RunError::Violation(format!("Lemma 1 (result): {m}")))?;
                for ((sv_name, sv), (v, tv)) in
                    d.dec_statics.iter().zip(dec_values.iter().zip(target_decs))
                {
                    value_has_static(v, sv)
                        .map_err(|m| RunError::Violation(format!("Theorem 2 ({sv_name}): {m}")))?;
                    if translate_value_at(v, sv) != *tv {
                        return Err(RunError::Violation(format!(
                            "Theorem 2 ({sv_name}): the target's value is not ⟦v⟧val"
                        )));
                    }
                }
                lemma_4(v, &ep.result_type).map_err(RunError::Violation)?;
                if translate_value(v) != *tv {
                    return Err(RunError::Violation(
                        "Corollary 1: the target program computes a different value".into(),
                    ));
                }
            }
            (Err(Failure::Err(e1)), Err(Failure::Err(e2))) => {
                if e1 != e2 {
                    return Err(RunError::Violation(format!(
                        "Corollary 1: the source fails with \"{}\" but the target with \"{}\"",
                        e1.message, e2.message
                    )));
                }
            }
            (Err(Failure::OutOfFuel { .. }), _) | (_, Err(Failure::OutOfFuel { .. })) => {
                return Err(RunError::OutOfFuel)
            }
            // The source and its translations hold different values at the
            // same time (the live-heap check of TFP18-29): whichever was
            // refused ends the run.
            (Err(Failure::MemoryLimit { exceeded, span }), _)
            | (_, Err(Failure::MemoryLimit { exceeded, span })) => {
                return Err(memory_limit_error(exceeded, *span))
            }
            (s, t) => {
                return Err(RunError::Violation(format!(
                    "Corollary 1: the source gives {} but the target {}",
                    describe(s.as_ref().map(|(v, _)| v)),
                    describe(t.as_ref().map(|(v, _)| v))
                )))
            }
        }
    }
    match source {
        Ok((v, _)) => Ok(v),
        Err(Failure::Err(e)) => Err(RunError::Runtime(e)),
        Err(Failure::OutOfFuel { .. }) => Err(RunError::OutOfFuel),
        Err(Failure::MemoryLimit { exceeded, span }) => Err(memory_limit_error(&exceeded, span)),
        Err(Failure::Stuck { message, .. }) => Err(RunError::Violation(format!(
            "evaluation is stuck: {message} (Lemma 1)"
        ))),
    }
}

fn memory_limit_error(exceeded: &MemoryLimitExceeded, span: Span) -> RunError {
    RunError::MemoryLimit(RuntimeError {
        message: exceeded.to_string(),
        span,
    })
}

fn describe(r: Result<&Value, &Failure>) -> String {
    match r {
        Ok(_) => "a value".into(),
        Err(Failure::Err(e)) => format!("err ({})", e.message),
        Err(Failure::OutOfFuel { .. }) => "no result (out of fuel)".into(),
        Err(Failure::MemoryLimit { .. }) => "no result (memory limit)".into(),
        Err(Failure::Stuck { message, .. }) => format!("a stuck evaluation ({message})"),
    }
}

/// Runs an entry point of a target program: its declarations, then its body.
pub fn run_target(
    target: &TargetProgram,
    entry: &str,
    args: &[Value],
    fuel: u64,
    memory_limit: MemoryLimit,
) -> Result<(Value, Vec<Value>), Failure> {
    let mut evaluator = Evaluator::new(fuel)
        .with_memory_limit(memory_limit)
        .with_functions(&target.functions);
    let mut sigma = ValueEnv::new();
    let mut decs = Vec::new();
    for dec in &target.decs {
        let v = evaluator.eval(&sigma, &dec.value)?;
        decs.push(v.clone());
        sigma.insert(dec.name.clone(), v);
    }
    let Some(e) = target.entries.iter().find(|e| e.name == entry) else {
        return Err(Failure::Stuck {
            message: format!("no entry {entry}"),
            span: Default::default(),
        });
    };
    for ((x, _), v) in e.params.iter().zip(args) {
        sigma.insert(x.clone(), v.clone());
    }
    let v = evaluator.eval(&sigma, &e.body)?;
    Ok((v, decs))
}
