//! The corpus oracle (issue 26, deliverable 3): the value oracle's
//! comparison ([`super::value::compare_runs_within`]) on programs nobody
//! generated — every `.fut` program under the given paths, with the inputs
//! of its `-- ==` cases.
//!
//! Each program is loaded by the reference and by the optimising compiler's
//! CPU backend through the driver, from one source map (so run-time errors
//! name the same `file:line:col` on both sides):
//!
//! - both reject it: agree (the program's cases are not run);
//! - one rejects it, or one breaks (panic, internal error): it differs;
//! - either does not support a construct: discarded, with the reason;
//! - both load it: every case of every block (`notest` cases and
//!   `compiled` cases, too slow for an interpreter, excepted; inputs from
//!   `script input` cannot be read and are discarded) runs on each entry
//!   point the block names, on both sides, with the same arguments; each
//!   case agrees (equal values within `futhark test`'s tolerance, or the
//!   same run-time error at the same place) or differs, and a case on which
//!   the reference runs out of fuel is discarded.
//!
//! What the programs' blocks expect is not consulted: `runestone test`
//! judges that. A program differs when one of its cases (or its verdict)
//! does.

use super::value::{compare_runs_within, not_loaded, ran, Run};
use super::{panic_message, Outcome};
use driver::cases::{case_label, read_test_program, TestProgram};
use driver::{Backend, LoadOptions, LoadedProgram, RunError, RunErrorKind};
use spec::testblock::{case_input, BlockKind, Case};
use spec::value::{Tolerance, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// What the oracle made of one program.
#[derive(Debug, Default)]
pub struct ProgramVerdict {
    /// Cases (or the program's verdict, for a program both reject or one
    /// without cases) on which the two sides agree.
    pub agreed: usize,
    /// Each case (or verdict) on which they differ.
    pub differences: Vec<Difference>,
    /// One reason per case (or program) set aside.
    pub discards: Vec<String>,
}

/// A case (or the program's verdict) on which the two sides differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// `verdict`, or `entry E case #N (input …)`.
    pub what: String,
    /// The oracle's check that failed (`values differ`, `reference
    /// accepts, optimized rejects`, …): what a finding is bucketed and
    /// reduced by.
    pub check: String,
    pub message: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.what, self.check, self.message)
    }
}

impl ProgramVerdict {
    fn record(&mut self, what: &str, outcome: Outcome) {
        match outcome {
            Outcome::Agree { .. } => self.agreed += 1,
            Outcome::Disagree { check, message } => self.differences.push(Difference {
                what: what.to_string(),
                check,
                message,
            }),
            Outcome::Discard(reason) => self.discards.push(reason),
        }
    }
}

/// What a test does to the optimising compiler's program before the oracle
/// runs it: nothing ([`examine_program`]), or a planted fault, to check the
/// tools that find and reduce disagreements (`crate::reduce`).
pub type Fault<'a> = &'a dyn Fn(Box<dyn LoadedProgram>) -> Box<dyn LoadedProgram>;

/// The two sides of one program, loaded.
struct LoadedSides {
    reference: Box<dyn LoadedProgram>,
    optimized: Box<dyn LoadedProgram>,
}

/// Examines the program at `path`: its verdict, then each of its cases.
/// Never panics: a panic of either implementation is that side's broken
/// answer.
pub fn examine_program(path: &Path) -> ProgramVerdict {
    examine_program_with_fault(path, &|program| program)
}

/// [`examine_program`] with `fault` applied to the optimising compiler's
/// program.
pub fn examine_program_with_fault(path: &Path, fault: Fault) -> ProgramVerdict {
    let mut verdict = ProgramVerdict::default();
    let mut program = match read_test_program(path) {
        Ok(program) => program,
        Err(why) => {
            verdict.discards.push(format!("unreadable: {why}"));
            return verdict;
        }
    };
    let reference = load_side(Backend::Reference, &mut program);
    let optimized = load_side(Backend::Cpu, &mut program).map(fault);
    let sides = match (reference, optimized) {
        (Ok(reference), Ok(optimized)) => LoadedSides {
            reference,
            optimized,
        },
        (reference, optimized) => {
            let outcome = compare_verdicts(reference.err().as_ref(), optimized.err().as_ref());
            verdict.record("verdict", outcome);
            return verdict;
        }
    };
    let blocks = std::mem::take(&mut program.blocks);
    let mut any_case = false;
    for block in &blocks {
        let BlockKind::Cases(cases) = &block.kind else {
            continue;
        };
        for (index, case) in cases.iter().enumerate() {
            if case.flags.notest || case.flags.compiled {
                continue;
            }
            for entry in &block.entries {
                any_case = true;
                let what = format!("entry {} case {}", entry.name, case_label(index, case));
                let outcome = examine_case(&mut program, &sides, &entry.name, case);
                verdict.record(&what, outcome);
            }
        }
    }
    if !any_case {
        // Both accept a program with nothing to run: agreed on its verdict.
        verdict.agreed += 1;
    }
    verdict
}

/// One side's load of `program`; a program it does not load is the
/// [`Run`] that is (rejected, unsupported, broken).
fn load_side(backend: Backend, program: &mut TestProgram) -> Result<Box<dyn LoadedProgram>, Run> {
    let file = program.file;
    let sources = &mut program.sources;
    let load = || driver::load(backend, sources, file, LoadOptions::default());
    match catch_unwind(AssertUnwindSafe(load)) {
        Ok(Ok(loaded)) => Ok(loaded),
        Ok(Err(error)) => Err(not_loaded(error)),
        Err(payload) => Err(Run::Broken(format!(
            "panic while loading: {}",
            panic_message(payload)
        ))),
    }
}

/// The verdicts of two sides, at least one of which did not load the
/// program (`None`: the side loaded it).
fn compare_verdicts(reference: Option<&Run>, optimized: Option<&Run>) -> Outcome {
    match (reference, optimized) {
        (Some(Run::Unsupported(construct)), _) => {
            Outcome::Discard(format!("unsupported by the reference: {construct}"))
        }
        (_, Some(Run::Unsupported(construct))) => {
            Outcome::Discard(format!("unsupported by optimized: {construct}"))
        }
        (Some(Run::Rejected { .. }), Some(Run::Rejected { .. })) => Outcome::Agree { valid: false },
        _ => Outcome::Disagree {
            check: format!(
                "reference {}, optimized {}",
                loading_what(reference),
                loading_what(optimized)
            ),
            message: format!(
                "reference {}; optimized {}",
                loading_describe(reference),
                loading_describe(optimized)
            ),
        },
    }
}

fn loading_what(run: Option<&Run>) -> &'static str {
    run.map_or("accepts", Run::what)
}

fn loading_describe(run: Option<&Run>) -> String {
    run.map_or_else(|| "accepts it".to_string(), Run::describe)
}

/// One case on one entry point, run by both sides on the same arguments.
fn examine_case(
    program: &mut TestProgram,
    sides: &LoadedSides,
    entry: &str,
    case: &Case,
) -> Outcome {
    let arguments = match case_input(case, &program.dir, &mut program.sources) {
        Ok(arguments) => arguments,
        Err(diagnostic) => {
            return Outcome::Discard(format!("input not readable: {}", diagnostic.message))
        }
    };
    if !sides
        .reference
        .entry_points()
        .iter()
        .any(|name| name == entry)
    {
        return Outcome::Discard(format!(
            "the block names no entry point of the program ({entry})"
        ));
    }
    let reference = run_side(sides.reference.as_ref(), entry, &arguments);
    if matches!(
        reference,
        Ok(Err(RunError {
            kind: RunErrorKind::OutOfFuel,
            ..
        }))
    ) {
        return Outcome::Discard("the reference runs out of fuel".to_string());
    }
    let optimized = run_side(sides.optimized.as_ref(), entry, &arguments);
    let input_error = |side: &SideRun| {
        matches!(
            side,
            Ok(Err(RunError {
                kind: RunErrorKind::Input,
                ..
            }))
        )
    };
    if input_error(&reference) && input_error(&optimized) {
        return Outcome::Discard("the case's arguments do not fit the entry point".to_string());
    }
    compare_runs_within(
        &as_run(reference),
        &as_run(optimized),
        Tolerance::FutharkTest,
    )
}

/// A side's run, or the message of its panic.
type SideRun = Result<Result<Vec<Value>, RunError>, String>;

fn run_side(program: &dyn LoadedProgram, entry: &str, arguments: &[Value]) -> SideRun {
    catch_unwind(AssertUnwindSafe(|| program.run(entry, arguments))).map_err(panic_message)
}

fn as_run(side: SideRun) -> Run {
    match side {
        Ok(result) => ran(result),
        Err(panic) => Run::Broken(format!("panic: {panic}")),
    }
}

#[cfg(test)]
mod tests {
    //! The oracle on small programs written to a temporary directory, and
    //! its verdicts on what the two sides did.

    use super::*;

    /// Examines `source` as the program `name.fut`.
    fn examine(name: &str, source: &str) -> ProgramVerdict {
        let dir = std::env::temp_dir().join(format!(
            "runestone-corpus-oracle-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join(format!("{name}.fut"));
        std::fs::write(&path, source).expect("a temporary program");
        let verdict = examine_program(&path);
        std::fs::remove_dir_all(&dir).ok();
        verdict
    }

    #[test]
    fn every_case_of_an_accepted_program_is_compared() {
        let verdict = examine(
            "cases",
            "-- ==\n-- input { [1, 2, 3] } output { 6 }\n-- input { [1] }\n\
             -- compiled input { [4] }\n-- notest input { [5] }\n\
             -- input { [1, 2] 3 }\n\
             entry main (xs: []i32) : i32 = reduce (+) 0 xs\n",
        );
        // Two cases run on both sides; `compiled` and `notest` ones are
        // not run; arguments that fit no entry point are set aside.
        assert_eq!(verdict.agreed, 2, "{verdict:?}");
        assert!(verdict.differences.is_empty(), "{verdict:?}");
        assert_eq!(
            verdict.discards,
            vec!["the case's arguments do not fit the entry point".to_string()]
        );
    }

    #[test]
    fn the_same_run_time_error_agrees_and_a_program_both_reject_agrees() {
        let failing = examine(
            "failing",
            "-- ==\n-- input { [1, 2] 5i64 } error: out of bounds\n\
             entry main (xs: []i32) (i: i64) : i32 = xs[i]\n",
        );
        assert_eq!((failing.agreed, failing.differences.len()), (1, 0));
        let rejected = examine("rejected", "entry main (x: i32) : bool = x\n");
        assert_eq!((rejected.agreed, rejected.differences.len()), (1, 0));
    }

    #[test]
    fn one_side_rejecting_differs_and_unsupported_is_set_aside() {
        let rejects = Run::Rejected {
            code: None,
            message: "mismatched types".into(),
        };
        match compare_verdicts(Some(&rejects), None) {
            Outcome::Disagree { check, .. } => {
                assert_eq!(check, "reference rejects, optimized accepts")
            }
            other => panic!("expected a difference, got {other:?}"),
        }
        let unsupported = Run::Unsupported("a local `open`".into());
        assert!(matches!(
            compare_verdicts(Some(&unsupported), None),
            Outcome::Discard(_)
        ));
    }
}
