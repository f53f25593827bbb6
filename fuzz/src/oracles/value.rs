//! The value oracle (issue 6, "reference vs optimised CPU"): one generated
//! program and its arguments, compiled and run by the reference pipeline
//! (`reference::front::pipeline`, TFP'18's theorems checked on every run)
//! and by the optimising compiler's CPU backend (`optimized::pipeline`).
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
use reference::core::theorems::RunError;
use reference::front::pipeline::{compile_with, Options};
use spec::source::{SourceMap, Span};
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
    /// Rejected at compile time (parse, type, size or module error).
    Rejected(String),
    /// A construct the implementation does not support yet.
    Unsupported(String),
    /// The entry point's results (a returned tuple is several values).
    Values(Vec<Value>),
    /// A run-time error of the program, with its `file:line:col`.
    Failed { message: String, location: String },
    /// The reference's step limit was reached.
    OutOfFuel,
    /// Never an answer: a panic, an internal error, a violated theorem,
    /// generated arguments that do not fit the entry point.
    Broken(String),
}

impl Run {
    /// What the side did, in a disagreement's check (no values: the check
    /// must stay the same while the program shrinks).
    pub fn what(&self) -> &'static str {
        match self {
            Run::Rejected(_) => "rejects",
            Run::Unsupported(_) => "does not support it",
            Run::Values(_) => "gives values",
            Run::Failed { .. } => "fails at run time",
            Run::OutOfFuel => "runs out of fuel",
            Run::Broken(_) => "breaks",
        }
    }

    /// What the side did, in a disagreement's message.
    pub fn describe(&self) -> String {
        match self {
            Run::Rejected(m) => format!("rejects it: {m}"),
            Run::Unsupported(c) => format!("does not support {c}"),
            Run::Values(values) => format!("gives {}", shown(values)),
            Run::Failed { message, location } => format!("fails at {location}: {message}"),
            Run::OutOfFuel => "runs out of fuel".to_string(),
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

/// The reference pipeline on `source`, entry point `main`.
pub fn reference_run(source: &str, arguments: &[Value], fuel: u64, or_conditionals: bool) -> Run {
    let run = || {
        let mut sources = SourceMap::new();
        let file = sources.add(FILE_NAME, source);
        let options = Options {
            or_conditionals,
            fuel,
        };
        let compiled = match compile_with(&mut sources, file, options) {
            Ok(compiled) => compiled,
            Err(d)
                if d.code.as_deref() == Some("TFP18 Theorem 1")
                    || d.notes.iter().any(|n| n.contains("Theorem 1")) =>
            {
                return Run::Broken(format!("Theorem 1: {}", d.message))
            }
            Err(d)
                if d.code.as_deref() == Some("modules") || d.message.contains("not supported") =>
            {
                return Run::Unsupported(construct(&d.message))
            }
            Err(d) => return Run::Rejected(d.message),
        };
        match compiled.run("main", arguments) {
            Ok(values) => Run::Values(values),
            Err(RunError::Runtime(e)) => Run::Failed {
                message: e.message,
                location: sources.describe(e.span),
            },
            Err(RunError::OutOfFuel) => Run::OutOfFuel,
            Err(RunError::Input(m)) => Run::Broken(format!("the arguments do not fit: {m}")),
            Err(RunError::Violation(m)) => Run::Broken(m),
        }
    };
    catch_unwind(AssertUnwindSafe(run))
        .unwrap_or_else(|payload| Run::Broken(format!("panic: {}", panic_message(payload))))
}

/// The optimising compiler and its CPU backend on `source`, entry point
/// `main`.
pub fn optimized_run(source: &str, arguments: &[Value], or_conditionals: bool) -> Run {
    let run = || match optimized_compile(source, or_conditionals) {
        Ok((compiled, sources)) => optimized_result(compiled.run("main", arguments), &sources),
        Err(run) => run,
    };
    catch_unwind(AssertUnwindSafe(run))
        .unwrap_or_else(|payload| Run::Broken(format!("panic: {}", panic_message(payload))))
}

/// The optimising pipeline on `source` (compiled under [`FILE_NAME`]), and
/// the source map its run-time errors refer to; a program it does not
/// compile is the [`Run`] it ends as (rejected, unsupported, broken). The
/// GPU oracle compiles once and runs the result on both backends. Panics
/// are the caller's to catch.
pub fn optimized_compile(
    source: &str,
    or_conditionals: bool,
) -> Result<(optimized::pipeline::CompiledProgram, SourceMap), Run> {
    let mut sources = SourceMap::new();
    let file = sources.add(FILE_NAME, source);
    let mut options = optimized::pipeline::PipelineOptions::from_source(source);
    options.check.or_conditionals |= or_conditionals;
    let program = match spec::syntax::parse_program(file, source) {
        Ok(program) => program,
        Err(d) => return Err(Run::Rejected(format!("parse: {}", d.message))),
    };
    let prelude_file = optimized::pipeline::add_prelude_file(&mut sources);
    let compiled = spec::recursion::with_stack(|| {
        optimized::pipeline::compile_program(&program, prelude_file, None, options)
    });
    match compiled {
        Ok(compiled) => Ok((compiled, sources)),
        Err(diagnostics) => {
            let first = |code: &str| {
                diagnostics
                    .iter()
                    .find(|d| d.code.as_deref() == Some(code))
                    .map(|d| d.message.clone())
            };
            Err(if let Some(m) = first("unsupported") {
                Run::Unsupported(construct(&m))
            } else if let Some(m) = first("internal") {
                Run::Broken(m)
            } else {
                Run::Rejected(
                    diagnostics
                        .first()
                        .map(|d| d.message.clone())
                        .unwrap_or_default(),
                )
            })
        }
    }
}

/// A compiled backend's answer (`optimized::cpu` or the GPU driver, which
/// share their error type) as a [`Run`], locations described by `sources`.
pub fn optimized_result(
    result: Result<Value, optimized::cpu::RuntimeError>,
    sources: &SourceMap,
) -> Run {
    match result {
        Ok(Value::Tuple(values)) if !values.is_empty() => Run::Values(values),
        Ok(value) => Run::Values(vec![value]),
        // The backend's input errors are located nowhere.
        Err(e) if e.span.same_location(&Span::default()) => {
            Run::Broken(format!("the arguments do not fit: {}", e.message))
        }
        Err(e) => Run::Failed {
            message: e.message,
            location: sources.describe(e.span),
        },
    }
}

/// The verdict on the two sides' runs of one program.
pub fn compare_runs(reference: &Run, optimized: &Run) -> Outcome {
    let tolerance = Tolerance::Ulps(COMPILED_FLOAT_ULPS);
    match (reference, optimized) {
        (Run::OutOfFuel, _) => Outcome::Discard("the reference runs out of fuel".into()),
        (Run::Unsupported(c), _) => Outcome::Discard(format!("unsupported by the reference: {c}")),
        (_, Run::Unsupported(c)) => Outcome::Discard(format!("unsupported by optimized: {c}")),
        (Run::Rejected(_), Run::Rejected(_)) => Outcome::Agree { valid: false },
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
/// unsupported).
pub fn examine_value(
    source: &str,
    arguments: &[Value],
    fuel: u64,
    or_conditionals: bool,
) -> Outcome {
    let reference = reference_run(source, arguments, fuel, or_conditionals);
    if matches!(reference, Run::OutOfFuel | Run::Unsupported(_)) {
        return compare_runs(&reference, &Run::Rejected(String::new()));
    }
    let optimized = optimized_run(source, arguments, or_conditionals);
    compare_runs(&reference, &optimized)
}
