//! A whole λP program through every stage: check (Fig. 5.2), closure-convert
//! (Fig. 5.5), check the λC term (Fig. 5.4), flatten (Fig. 5.8), check the λA
//! term (Fig. 5.7), evaluate both sides (§6.3) and read back, then run the
//! theorem checks. Everything it returns is plain data (`Send`), so callers
//! can run it on a large-stack thread (`machine::with_large_stack`).

use super::closure_conversion::convert_program;
use super::concrete::{parse_lambda_c, parse_program};
use super::flatten::vectorise;
use super::lambda_c::ExprC;
use super::lambda_p::ExprP;
use super::theorems::{self, CheckResult, Outcome, Verdict};
use super::types::Type;
use super::{typing_c, typing_p};
use crate::derivation::phase;
use spec::diagnostic::Diagnostic;
use spec::source::FileId;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Contractions allowed on the λC side.
    pub fuel: u64,
    /// The λA side gets `fuel × lambda_a_fuel_factor` (flattened code takes
    /// more steps; guide P1).
    pub lambda_a_fuel_factor: u64,
    /// Steps of subject reduction / immutability checking per side (0: skip).
    pub subject_reduction_steps: usize,
    /// Fuel of the small-step evaluator compared with call-by-need (0: skip).
    pub small_step_fuel: u64,
    /// Steps of that small-step run also taken literally from the root and
    /// compared with the refocused driver's (`machine::CheckedSmallStep`);
    /// each costs a walk and a rebuild of the whole path (0: skip).
    pub refocusing_checked_steps: u64,
    /// Subject reduction runs only on λA terms of at most this many nodes;
    /// each step re-checks the whole term (a third of a second for the
    /// thesis' quicksort, 141 605 nodes). The default, 200 000, admits every
    /// `tests/nested` example; campaigns set their own.
    pub subject_reduction_size_limit: usize,
    /// λC small steps whose reducts are flattened and observed (Lemma 6.33;
    /// 0: skip).
    pub trace_steps: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fuel: 200_000,
            lambda_a_fuel_factor: 20,
            subject_reduction_steps: 40,
            small_step_fuel: 10_000_000,
            refocusing_checked_steps: 5_000,
            subject_reduction_size_limit: 200_000,
            trace_steps: 6,
        }
    }
}

/// Every stage, printed, and every check.
#[derive(Clone, Debug)]
pub struct Report {
    pub type_p: String,
    pub stage_p: String,
    pub type_c: String,
    pub stage_c: String,
    pub type_a: String,
    pub stage_a: String,
    pub outcome_c: Outcome,
    pub outcome_a: Outcome,
    pub steps_c: u64,
    pub steps_a: u64,
    pub checks: Vec<CheckResult>,
}

impl Report {
    pub fn violations(&self) -> impl Iterator<Item = &CheckResult> {
        self.checks.iter().filter(|c| c.verdict.is_violation())
    }
}

/// Why a program was rejected before evaluation.
#[derive(Clone, Debug)]
pub enum Rejection {
    /// A syntax or λP typing error in the source (located).
    Source(Diagnostic),
    /// A later stage failed on an accepted program: a defect (of the thesis or
    /// of this transcription), reported as a check violation.
    Internal(String),
}

/// Parses and checks a λP program, returning the annotated term.
pub fn front_end(file: FileId, text: &str) -> Result<ExprP, Diagnostic> {
    let parsed = parse_program(file, text)?;
    phase(
        || "λP typing: Γ ⊢_P e : τ (Fig. 5.2)".to_string(),
        || typing_p::check_program(&parsed),
    )
    .map_err(|error| {
        Diagnostic::error(format!("type error: {}", error.message))
            .with_code(format!("L05 Fig5.2 {}", error.rule))
            .with_primary(error.span, format!("rule {} fails here", error.rule))
    })
}

/// Runs the pipeline on a checked λP program.
pub fn run_checked(program: &ExprP, options: &Options) -> Result<Report, Rejection> {
    let type_p = program.ty().clone();
    let converted = phase(
        || "closure conversion: C_E[E, e] (Fig. 5.5)".to_string(),
        || convert_program(program),
    );
    let annotated = phase(
        || "λC typing: Γ ⊢_C e : τ (Fig. 5.4)".to_string(),
        || typing_c::check_program(&converted),
    )
    .map_err(|e| {
        Rejection::Internal(format!(
            "closure conversion produced an ill-typed term: {e}"
        ))
    })?;
    let check = CheckResult {
        name: "T4 closure conversion preserves types",
        verdict: phase(
            || "Theorem 4: closure conversion preserves types, C_τ[τ]".to_string(),
            || theorems::closure_conversion_preserves_types(&type_p, annotated.ty()),
        ),
    };
    let mut report = run_lambda_c(&annotated, options);
    report.checks.insert(0, check);
    report.type_p = type_p.to_string();
    report.stage_p = program.to_string();
    Ok(report)
}

/// Runs flattening, evaluation and the checks on an annotated closed λC term
/// (from closure conversion or generated directly).
pub fn run_lambda_c(annotated: &ExprC, options: &Options) -> Report {
    let type_c = annotated.ty().clone();
    let mut checks = Vec::new();
    let flattened = phase(
        || "flattening: V[e] (Fig. 5.8)".to_string(),
        || vectorise(annotated),
    );
    phase(
        || "Theorem 5.27: V[e] and L[l, e] are type-correct".to_string(),
        || {
            checks.push(CheckResult {
                name: "Thm 5.27(1) V[e] : F[t]",
                verdict: theorems::flattening_is_type_correct(&flattened, &type_c),
            });
            checks.push(CheckResult {
                name: "Thm 5.27(2) L[l,e] : F[[:t:]]",
                verdict: theorems::lifting_is_type_correct(annotated, &type_c, 3),
            });
        },
    );
    let type_a = match phase(
        || "λA typing: Γ ⊢_A e : τ (Fig. 5.7)".to_string(),
        || super::typing_a::check_program(&flattened),
    ) {
        Ok(ty) => ty.to_string(),
        Err(e) => format!("ill-typed: {e}"),
    };
    let (outcome_c, steps_c) = phase(
        || "λC evaluation: call by need over the reductions of Fig. 6.3".to_string(),
        || theorems::observe_c(annotated, &type_c, options.fuel),
    );
    let (outcome_a, steps_a) = phase(
        || "λA evaluation: call by need over the reductions of Fig. 6.3".to_string(),
        || {
            theorems::observe_a(
                &flattened,
                &type_c,
                options.fuel.saturating_mul(options.lambda_a_fuel_factor),
            )
        },
    );
    phase(
        || {
            "the thesis' theorems on the run: 6.37, 6.34, 6.33, 6.3/6.8, call by need = small step"
                .to_string()
        },
        || {
            let main = if type_c.is_first_order() {
                theorems::flattening_is_correct(&outcome_c, &outcome_a)
            } else {
                Verdict::Unknown("the result type is not first-order".into())
            };
            checks.push(CheckResult {
                name: "Thm 6.37 flattening preserves the observation",
                verdict: main,
            });
            let small_enough = flattened.size() <= options.subject_reduction_size_limit;
            let too_large = || {
                Verdict::Unknown(format!(
                    "λA term of {} nodes is above the subject-reduction size limit",
                    flattened.size()
                ))
            };
            checks.push(CheckResult {
                name: "Lemma 6.34 V[v] converges for the λC value v",
                verdict: theorems::values_vectorise_to_values(annotated, options.fuel),
            });
            if options.trace_steps > 0 {
                checks.push(CheckResult {
                    name: "Lemma 6.33 reducts flatten to the same observation",
                    verdict: if type_c.is_first_order() {
                        theorems::reducts_flatten_equivalently(
                            annotated,
                            &type_c,
                            &outcome_c,
                            options.trace_steps,
                            options.fuel.saturating_mul(options.lambda_a_fuel_factor),
                        )
                    } else {
                        Verdict::Unknown("the result type is not first-order".into())
                    },
                });
            }
            if options.subject_reduction_steps > 0 {
                checks.push(CheckResult {
                    name: "Lemma 6.3/Thm 6.8 on λC",
                    verdict: theorems::lambda_c_subject_reduction(
                        annotated,
                        &type_c,
                        options.subject_reduction_steps,
                    ),
                });
                checks.push(CheckResult {
                    name: "Lemma 6.3/Thm 6.8 on λA",
                    verdict: if small_enough {
                        theorems::lambda_a_subject_reduction(
                            &flattened,
                            &type_c,
                            options.subject_reduction_steps,
                        )
                    } else {
                        too_large()
                    },
                });
            }
            if options.small_step_fuel > 0 {
                checks.push(CheckResult {
                    name: "call-by-need = small-step on λC",
                    verdict: theorems::by_need_agrees_c(
                        annotated,
                        &type_c,
                        options.small_step_fuel,
                        options.refocusing_checked_steps,
                    ),
                });
                checks.push(CheckResult {
                    name: "call-by-need = small-step on λA",
                    verdict: theorems::by_need_agrees_a(
                        &flattened,
                        &type_c,
                        options.small_step_fuel,
                        options.refocusing_checked_steps,
                    ),
                });
            }
        },
    );
    Report {
        type_p: String::new(),
        stage_p: String::new(),
        type_c: type_c.to_string(),
        stage_c: annotated.to_string(),
        type_a,
        stage_a: flattened.to_string(),
        outcome_c,
        outcome_a,
        steps_c,
        steps_a,
        checks,
    }
}

/// Parses, checks and runs a program text.
pub fn run_source(file: FileId, text: &str, options: &Options) -> Result<Report, Rejection> {
    let program = front_end(file, text).map_err(Rejection::Source)?;
    run_checked(&program, options)
}

/// Parses and checks a λC program (`.lc`), then runs flattening, evaluation
/// and the checks on it.
pub fn run_source_lambda_c(
    file: FileId,
    text: &str,
    options: &Options,
) -> Result<Report, Rejection> {
    let parsed = parse_lambda_c(file, text).map_err(Rejection::Source)?;
    let annotated = typing_c::check_program(&parsed).map_err(|error| {
        Rejection::Source(
            Diagnostic::error(format!("type error: {}", error.message))
                .with_code(format!("L05 Fig5.4 {}", error.rule))
                .with_primary(
                    spec::source::Span::new(file, 0, text.trim_end().len()),
                    format!("rule {} fails in this λC program", error.rule),
                ),
        )
    })?;
    Ok(run_lambda_c(&annotated, options))
}

/// Runs a `.lp` (λP) or `.lc` (λC) program text, chosen by the file name.
pub fn run_file(
    file: FileId,
    name: &str,
    text: &str,
    options: &Options,
) -> Result<Report, Rejection> {
    if name.ends_with(".lc") {
        run_source_lambda_c(file, text, options)
    } else {
        run_source(file, text, options)
    }
}

/// The λC type of a checked λP program's closure conversion.
pub fn converted_type(program: &ExprP) -> Type {
    super::closure_conversion::convert_type(program.ty())
}
