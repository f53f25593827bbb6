//! The value oracle (issue 6, "reference vs optimised CPU"): one generated
//! program and its arguments, compiled and run through the driver
//! ([`driver::load`]) on the reference (TFP'18's theorems checked on every
//! run) and on the optimising compiler's CPU backend.
//!
//! Each side ends as a [`Run`]; [`compare_runs`] decides:
//!
//! - agree: both reject at compile time; both give values equal under the
//!   CLI's tolerance (exact integers, floats within
//!   [`spec::value::COMPILED_FLOAT_ULPS`], since the compiled side may
//!   reassociate reductions); both fail at run time with the same message
//!   at the same `file:line:col`;
//! - discard (with its reason): the reference runs out of fuel, or one side
//!   does not support a construct of the program (empty arrays whose rows
//!   have a shape, `empty([0][4]i32)`, are compared like any value: the
//!   reference's arrays keep their row shape, SPEC_NOTES TFP18-6);
//! - disagree otherwise, with a check that names what each side did
//!   (stable across shrinking) and a message that shows it.

use super::{construct, panic_message, Outcome};
use driver::load::{compile_optimized, OptimizedProgram};
use driver::{Backend, LoadError, LoadOptions, LoadedProgram, RunError, RunErrorKind};
use spec::diagnostic::codes;
use spec::source::SourceMap;
use spec::value::{compare, Tolerance, Value, COMPILED_FLOAT_ULPS};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The file name generated programs are compiled under (locations of
/// run-time errors name it on both sides).
const FILE_NAME: &str = "generated.fut";

/// The most characters of values shown in a disagreement's message.
const SHOWN_CHARACTERS: usize = 240;

/// What one implementation made of a program and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    /// Rejected at compile time (parse, type, size or module error), with
    /// the diagnostic's code.
    Rejected {
        code: Option<String>,
        message: String,
    },
    /// A construct the implementation does not support yet.
    Unsupported(String),
    /// The entry point's results (a returned tuple is several values).
    Values(Vec<Value>),
    /// A run-time error of the program, with its `file:line:col`.
    Failed { message: String, location: String },
    /// The reference's step limit was reached.
    OutOfFuel,
    /// The memory limit refused an array (`spec::memory`): a limit of the
    /// implementation, like fuel, not an answer of the program.
    OverMemoryLimit { message: String, location: String },
    /// Never an answer: a panic, an internal error, a violated theorem,
    /// generated arguments that do not fit the entry point.
    Broken(String),
}

impl Run {
    /// What the side did, in a disagreement's check (no values: the check
    /// must stay the same while the program shrinks).
    pub fn what(&self) -> &'static str {
        match self {
            Run::Rejected { .. } => "rejects",
            Run::Unsupported(_) => "does not support it",
            Run::Values(_) => "gives values",
            Run::Failed { .. } => "fails at run time",
            Run::OutOfFuel => "runs out of fuel",
            Run::OverMemoryLimit { .. } => "reaches the memory limit",
            Run::Broken(_) => "breaks",
        }
    }

    /// What the side did, in a disagreement's message.
    pub fn describe(&self) -> String {
        match self {
            Run::Rejected { message, .. } => format!("rejects it: {message}"),
            Run::Unsupported(c) => format!("does not support {c}"),
            Run::Values(values) => format!("gives {}", shown(values)),
            Run::Failed { message, location } => format!("fails at {location}: {message}"),
            Run::OutOfFuel => "runs out of fuel".to_string(),
            Run::OverMemoryLimit { message, location } => {
                format!("reaches the memory limit at {location}: {message}")
            }
            Run::Broken(m) => format!("breaks: {m}"),
        }
    }
}

/// Values on one line, cut after [`SHOWN_CHARACTERS`].
pub fn shown(values: &[Value]) -> String {
    let line = values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    match line.char_indices().nth(SHOWN_CHARACTERS) {
        Some((cut, _)) => format!("{} …", &line[..cut]),
        None => line,
    }
}

impl Run {
    /// Whether the reference rejected a generated module program because
    /// its check of ICFP'18 Proposition 6.1 failed (the open defect
    /// `oracles::module_rejection` groups), by the diagnostic's code.
    pub fn is_proposition_6_1_failure(&self) -> bool {
        matches!(self, Run::Rejected { code: Some(code), .. } if code == codes::ICFP18_PROPOSITION_6_1)
    }
}

/// What a program gives no program as: rejected (a verdict), unsupported,
/// or broken. The reference's failed check of Proposition 6.1 on a module
/// program counts as its rejection (the campaigns group it as the
/// reference's open defect).
pub fn not_loaded(error: LoadError) -> Run {
    match error {
        LoadError::Rejected(d) => Run::Rejected {
            code: d.code,
            message: d.message,
        },
        LoadError::Internal(d) if d.has_code(codes::ICFP18_PROPOSITION_6_1) => Run::Rejected {
            code: d.code,
            message: d.message,
        },
        LoadError::Unsupported(d) => Run::Unsupported(construct(&d.message)),
        LoadError::Internal(d) => Run::Broken(match d.code {
            Some(code) => format!("{code}: {}", d.message),
            None => d.message,
        }),
        LoadError::Unavailable { reason, .. } => Run::Broken(reason),
    }
}

/// An entry point's results or run-time error as a [`Run`].
pub fn ran(result: Result<Vec<Value>, RunError>) -> Run {
    match result {
        Ok(values) => Run::Values(values),
        Err(e) => match e.kind {
            RunErrorKind::Runtime => Run::Failed {
                message: e.message,
                location: e.location.unwrap_or_default(),
            },
            RunErrorKind::OutOfFuel => Run::OutOfFuel,
            RunErrorKind::MemoryLimit => Run::OverMemoryLimit {
                message: e.message,
                location: e.location.unwrap_or_default(),
            },
            RunErrorKind::Input => Run::Broken(format!("the arguments do not fit: {}", e.message)),
            RunErrorKind::Internal => Run::Broken(e.message),
        },
    }
}

/// `source` (compiled under [`FILE_NAME`]) on `backend`, entry point
/// `main`, through the driver; panics are caught and broken.
pub fn driver_run(
    backend: Backend,
    source: &str,
    arguments: &[Value],
    options: LoadOptions,
) -> Run {
    let run = || {
        let mut sources = SourceMap::new();
        let file = sources.add(FILE_NAME, source);
        match driver::load(backend, &mut sources, file, options) {
            Ok(program) => ran(program.run("main", arguments)),
            Err(error) => not_loaded(error),
        }
    };
    catch_unwind(AssertUnwindSafe(run))
        .unwrap_or_else(|payload| Run::Broken(format!("panic: {}", panic_message(payload))))
}

/// The reference pipeline on `source`, entry point `main`.
pub fn reference_run(source: &str, arguments: &[Value], fuel: u64, or_conditionals: bool) -> Run {
    let options = LoadOptions {
        or_conditionals,
        fuel: Some(fuel),
        memory_limit: None,
        segmented: false,
    };
    driver_run(Backend::Reference, source, arguments, options)
}

/// The optimising compiler and its CPU backend on `source`, entry point
/// `main`, compiled once and run twice: through the SOAC IR, then through
/// the segmented IR (the fused IR flattened, `optimized::flatten`). Panics
/// are caught and broken.
pub fn optimized_runs(source: &str, arguments: &[Value], or_conditionals: bool) -> (Run, Run) {
    let run = || match optimized_compile_with(source, or_conditionals, true) {
        Ok(mut program) => {
            program.segmented = false;
            let soac_ir = run_main(&program, arguments);
            program.segmented = true;
            (soac_ir, run_main(&program, arguments))
        }
        Err(run) => (run.clone(), run),
    };
    catch_unwind(AssertUnwindSafe(run)).unwrap_or_else(|payload| {
        let broken = Run::Broken(format!("panic: {}", panic_message(payload)));
        (broken.clone(), broken)
    })
}

/// The optimising pipeline on `source` (compiled under [`FILE_NAME`]),
/// ready for the CPU backend and the GPU driver; a program it does not
/// compile is the [`Run`] it ends as (rejected, unsupported, broken). The
/// GPU oracle compiles once and runs the result on both backends. Panics
/// are the caller's to catch.
pub fn optimized_compile(source: &str, or_conditionals: bool) -> Result<OptimizedProgram, Run> {
    optimized_compile_with(source, or_conditionals, false)
}

/// [`optimized_compile`], also compiling the segmented IR when `segmented`.
pub fn optimized_compile_with(
    source: &str,
    or_conditionals: bool,
    segmented: bool,
) -> Result<OptimizedProgram, Run> {
    let mut sources = SourceMap::new();
    let file = sources.add(FILE_NAME, source);
    let options = LoadOptions {
        or_conditionals,
        fuel: None,
        memory_limit: None,
        segmented,
    };
    compile_optimized(&mut sources, file, options).map_err(not_loaded)
}

/// A compiled program's run of `main` on `arguments` as a [`Run`].
pub fn run_main(program: &dyn LoadedProgram, arguments: &[Value]) -> Run {
    ran(program.run("main", arguments))
}

/// The verdict on the two sides' runs of one program, floats compared
/// within the CLI's tolerance for a compiled backend.
pub fn compare_runs(reference: &Run, optimized: &Run) -> Outcome {
    compare_runs_within(reference, optimized, Tolerance::Ulps(COMPILED_FLOAT_ULPS))
}

/// The verdict on the two sides' runs of one program, floats compared
/// within `tolerance`.
pub fn compare_runs_within(reference: &Run, optimized: &Run, tolerance: Tolerance) -> Outcome {
    match (reference, optimized) {
        (Run::OutOfFuel, _) => Outcome::Discard("the reference runs out of fuel".into()),
        // A request past the limit by itself is refused alike on both sides
        // (the same message at the same place); a refusal that depends on
        // the live heap may stop one side only (SPEC_NOTES TFP18-29).
        (Run::OverMemoryLimit { .. }, Run::OverMemoryLimit { .. }) => {
            Outcome::Agree { valid: true }
        }
        (Run::OverMemoryLimit { .. }, _) | (_, Run::OverMemoryLimit { .. }) => {
            Outcome::Discard("one side reaches the memory limit".into())
        }
        (Run::Unsupported(c), _) => Outcome::Discard(format!("unsupported by the reference: {c}")),
        (_, Run::Unsupported(c)) => Outcome::Discard(format!("unsupported by optimized: {c}")),
        (Run::Rejected { .. }, Run::Rejected { .. }) => Outcome::Agree { valid: false },
        (Run::Values(r), Run::Values(o)) => match compare(r, o, tolerance) {
            Ok(()) => Outcome::Agree { valid: true },
            Err(mismatch) => Outcome::Disagree {
                check: "different values".into(),
                message: format!(
                    "{mismatch}; reference gives {}; optimized gives {}",
                    shown(r),
                    shown(o)
                ),
            },
        },
        (
            Run::Failed {
                message: rm,
                location: rl,
            },
            Run::Failed {
                message: om,
                location: ol,
            },
        ) if rm == om && rl == ol => Outcome::Agree { valid: true },
        (Run::Failed { .. }, Run::Failed { .. }) => Outcome::Disagree {
            check: "different run-time errors".into(),
            message: format!(
                "reference {}; optimized {}",
                reference.describe(),
                optimized.describe()
            ),
        },
        _ => Outcome::Disagree {
            check: format!(
                "reference {}, optimized {}",
                reference.what(),
                optimized.what()
            ),
            message: format!(
                "reference {}; optimized {}",
                reference.describe(),
                optimized.describe()
            ),
        },
    }
}

/// The value oracle on one program and its arguments. The optimising side
/// is not run when the reference's answer already decides (out of fuel,
/// unsupported). On a module program (`module_program`), the reference's
/// failed check of Proposition 6.1 is its open defect, discarded as
/// [`super::module_rejection`] when the two sides disagree.
pub fn examine_value(
    source: &str,
    arguments: &[Value],
    fuel: u64,
    or_conditionals: bool,
    module_program: bool,
) -> Outcome {
    let reference = reference_run(source, arguments, fuel, or_conditionals);
    if matches!(reference, Run::OutOfFuel | Run::Unsupported(_)) {
        return compare_runs(
            &reference,
            &Run::Rejected {
                code: None,
                message: String::new(),
            },
        );
    }
    let (optimized, segmented) = optimized_runs(source, arguments, or_conditionals);
    let outcome = match compare_runs(&reference, &optimized) {
        Outcome::Disagree { .. } if module_program && reference.is_proposition_6_1_failure() => {
            return Outcome::Discard(super::module_rejection(true))
        }
        outcome => outcome,
    };
    if !matches!(outcome, Outcome::Agree { .. }) {
        return outcome;
    }
    // Flattening keeps the meaning: the segmented IR's run agrees too.
    match compare_runs(&reference, &segmented) {
        Outcome::Disagree { check, message } => Outcome::Disagree {
            check: format!("segmented IR: {check}"),
            message,
        },
        _ => outcome,
    }
}
