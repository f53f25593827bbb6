//! `runestone test PATH... [--backend reference|cpu|gpu|all]`: runs every
//! `-- ==` case of the given programs (directories are searched recursively
//! for `.fut` files) on the chosen backends through [`super::backends`],
//! prints a diff for each failure and the line `N passed, N failed`; exits 1
//! on any failure. With `--backend all`, every available backend runs, each
//! with its own summary line, and the backends that cannot run programs yet
//! are listed as skipped. The gpu backend also prints what its driver did:
//! how many SOAC statement runs went to the device as kernels.
//!
//! Case semantics (Futhark's `futhark test`): inputs inline, from `@ FILE` or
//! `random input` ([`spec::testblock::data`]); `notest` cases are skipped, and
//! `compiled` cases on the reference (an interpreter); `auto output` compares
//! a compiled backend with the reference, and on the reference itself (the
//! oracle that defines the output) only requires the run to succeed.

use super::backends::{
    availability, gpu_summary, load, unavailable_exit, Backend, BackendSelection, LoadError,
    LoadOptions, LoadedProgram, RunErrorKind,
};
use super::cases::{one_line, programs_under, read_test_program, TestProgram};
use spec::diagnostic::Diagnostic;
use spec::testblock::{case_expected_output, case_input, BlockKind, Case, Expected};
use spec::value::{compare, Tolerance, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Programs or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "reference")]
    backend: BackendSelection,
    /// The reference's step limit per evaluation (default: its own, or a
    /// program's `-- runestone-options: fuel=N`).
    #[arg(long)]
    fuel: Option<u64>,
}

/// Passes and failures on one backend.
#[derive(Default)]
struct Tally {
    passed: usize,
    failures: Vec<String>,
    /// Cases not run, and why.
    skipped: Vec<String>,
}

impl Tally {
    fn pass(&mut self) {
        self.passed += 1;
    }

    fn fail(&mut self, what: String) {
        self.failures.push(format!("FAIL {what}"));
    }
}

pub fn run(args: Args) -> ExitCode {
    let selected = args.backend.backends();
    let single = selected.len() == 1;
    let options = LoadOptions {
        or_conditionals: false,
        fuel: args.fuel,
    };
    let files = programs_under(&args.paths);
    let (mut passed, mut failed) = (0, 0);
    let mut ran = Vec::new();
    let mut skipped = Vec::new();
    for backend in selected {
        if let Err(reason) = availability(backend) {
            if single {
                return unavailable_exit(backend, &reason);
            }
            skipped.push(format!("{backend} ({reason})"));
            continue;
        }
        let mut tally = Tally::default();
        for file in &files {
            test_program(file, backend, options, &mut tally);
        }
        for skipped in &tally.skipped {
            if single {
                println!("skipped {skipped}");
            } else {
                println!("[{backend}] skipped {skipped}");
            }
        }
        for failure in &tally.failures {
            if single {
                println!("{failure}");
            } else {
                println!("[{backend}] {failure}");
            }
        }
        if backend == Backend::Gpu {
            if let Some(summary) = gpu_summary() {
                println!("gpu: {summary}");
            }
        }
        if !single {
            println!(
                "{backend}: {} passed, {} failed",
                tally.passed,
                tally.failures.len()
            );
        }
        passed += tally.passed;
        failed += tally.failures.len();
        ran.push(backend.name().to_string());
    }
    if !single {
        let skipped = if skipped.is_empty() {
            "none".to_string()
        } else {
            skipped.join(", ")
        };
        println!("backends run: {}; skipped: {skipped}", ran.join(", "));
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Runs every case of the program at `path` on `backend`.
fn test_program(path: &Path, backend: Backend, options: LoadOptions, tally: &mut Tally) {
    let mut program = match read_test_program(path) {
        Ok(p) => p,
        Err(report) => return tally.fail(report),
    };
    if program.blocks.is_empty() {
        return;
    }
    let loaded = match load(backend, &mut program.sources, program.file, options) {
        Ok(p) => Ok(p),
        Err(LoadError::Rejected(d)) => Err(d),
        Err(LoadError::Unavailable { reason, .. }) => {
            return tally.fail(format!(
                "{}: {backend} is unavailable: {reason}",
                program.name
            ))
        }
    };
    let mut oracle = Oracle::default();
    for block in std::mem::take(&mut program.blocks) {
        match &block.kind {
            BlockKind::CompileError(regex) => match &loaded {
                Ok(_) => tally.fail(format!(
                    "{}: expected a compile error matching /{}/, but it compiled",
                    program.name,
                    regex.as_str()
                )),
                Err(d) => {
                    let message = d.render(&program.sources);
                    if regex.matches(&message) {
                        tally.pass();
                    } else {
                        tally.fail(format!(
                            "{}: the compile error does not match /{}/:\n{message}",
                            program.name,
                            regex.as_str()
                        ));
                    }
                }
            },
            BlockKind::Properties(_) => tally.fail(format!(
                "{}: property tests are not supported yet",
                program.name
            )),
            BlockKind::Cases(cases) => {
                for (index, case) in cases.iter().enumerate() {
                    let skip =
                        case.flags.notest || (case.flags.compiled && backend == Backend::Reference);
                    if skip {
                        continue;
                    }
                    if backend != Backend::Reference && expects_running_out_of_fuel(case) {
                        tally.skipped.push(format!(
                            "{}: case #{index} expects the reference's step limit (fuel), which \
                             the {backend} backend does not have (it would not terminate)",
                            program.name
                        ));
                        continue;
                    }
                    for entry in &block.entries {
                        let what = format!("{}: entry {} case #{index}", program.name, entry.name);
                        match &loaded {
                            Ok(compiled) => {
                                let verdict = test_case(
                                    &mut program,
                                    compiled.as_ref(),
                                    &mut oracle,
                                    &entry.name,
                                    case,
                                );
                                match verdict {
                                    Ok(()) => tally.pass(),
                                    Err(why) => tally.fail(format!("{what}: {why}")),
                                }
                            }
                            Err(d) => tally.fail(format!(
                                "{what}: does not compile:\n{}",
                                d.render(&program.sources)
                            )),
                        }
                    }
                }
            }
        }
    }
}

/// Whether `case` expects the reference's step limit to stop the program
/// (`error: ... fuel ...`): a compiled backend has no fuel and would loop
/// forever.
fn expects_running_out_of_fuel(case: &Case) -> bool {
    matches!(&case.expected, Expected::RuntimeError(regex) if regex.as_str().contains("fuel"))
}

/// The reference's version of a program, loaded when a compiled backend
/// meets `auto output`.
#[derive(Default)]
struct Oracle {
    loaded: Option<Result<Box<dyn LoadedProgram>, String>>,
}

impl Oracle {
    fn get(&mut self, program: &mut TestProgram) -> Result<&dyn LoadedProgram, String> {
        let loaded = self.loaded.get_or_insert_with(|| {
            load(
                Backend::Reference,
                &mut program.sources,
                program.file,
                LoadOptions::default(),
            )
            .map_err(|e| match e {
                LoadError::Rejected(d) => d.render(&program.sources),
                LoadError::Unavailable { reason, .. } => reason.to_string(),
            })
        });
        match loaded {
            Ok(p) => Ok(&**p),
            Err(e) => Err(format!("the reference cannot compute the auto output: {e}")),
        }
    }
}

/// One case on one entry point: `Err` says why it failed.
fn test_case(
    program: &mut TestProgram,
    compiled: &dyn LoadedProgram,
    oracle: &mut Oracle,
    entry: &str,
    case: &Case,
) -> Result<(), String> {
    let rendered = |d: Diagnostic, program: &TestProgram| d.render(&program.sources);
    let input = case_input(case, &program.dir, &mut program.sources)
        .map_err(|d| format!("bad input:\n{}", rendered(d, program)))?;
    let result = compiled.run(entry, &input);
    let backend = compiled.backend();
    match (&case.expected, result) {
        (Expected::Output(_) | Expected::OutputFile(_), Ok(actual)) => {
            let expected = case_expected_output(&case.expected, &program.dir, &mut program.sources)
                .map_err(|d| format!("bad expected output:\n{}", rendered(d, program)))?
                .ok_or("no expected output")?;
            compare_results(&expected, &actual, backend.tolerance())
        }
        (Expected::AutoOutput, Ok(actual)) if backend != Backend::Reference => {
            let expected = oracle
                .get(program)?
                .run(entry, &input)
                .map_err(|e| format!("the reference fails on this input: {e}"))?;
            compare_results(&expected, &actual, backend.tolerance())
        }
        (Expected::Success | Expected::AutoOutput, Ok(_)) => Ok(()),
        (Expected::RuntimeError(regex), Err(e)) if e.kind != RunErrorKind::Internal => {
            let message = e.to_string();
            if regex.matches(&message) {
                Ok(())
            } else {
                Err(format!(
                    "the error does not match /{}/: {message}",
                    regex.as_str()
                ))
            }
        }
        (Expected::RuntimeError(regex), Ok(actual)) => Err(format!(
            "expected an error matching /{}/, got {}",
            regex.as_str(),
            one_line(&actual)
        )),
        (_, Err(e)) => Err(e.to_string()),
    }
}

fn compare_results(
    expected: &[Value],
    actual: &[Value],
    tolerance: Tolerance,
) -> Result<(), String> {
    compare(expected, actual, tolerance).map_err(|m| {
        format!(
            "{m}\n  expected: {}\n  actual:   {}",
            one_line(expected),
            one_line(actual)
        )
    })
}

#[cfg(test)]
mod tests {
    //! One case checked against a stand-in compiled backend: the verdicts of
    //! `auto output` (against the reference), float tolerance, and expected
    //! run-time errors, which only a backend other than the reference meets.

    use super::*;
    use crate::cli::backends::RunError;
    use spec::value::PrimValue;

    /// What the stand-in answers.
    type Answer = Result<Vec<Value>, RunError>;

    /// A "cpu" backend that answers every run with `answer`.
    struct StandIn {
        answer: Answer,
    }

    impl LoadedProgram for StandIn {
        fn backend(&self) -> Backend {
            Backend::Cpu
        }
        fn entry_points(&self) -> Vec<String> {
            vec!["main".to_string()]
        }
        fn run(&self, _: &str, _: &[Value]) -> Answer {
            self.answer.clone()
        }
    }

    /// Tests the first case of `program` (entry `main`) on the stand-in.
    fn check(name: &str, program: &str, answer: Answer) -> Result<(), String> {
        let dir =
            std::env::temp_dir().join(format!("runestone-test-unit-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let path = dir.join("p.fut");
        std::fs::write(&path, program).map_err(|e| e.to_string())?;
        let mut test_program = read_test_program(&path)?;
        let blocks = std::mem::take(&mut test_program.blocks);
        let BlockKind::Cases(cases) = &blocks[0].kind else {
            return Err("no cases".into());
        };
        let verdict = test_case(
            &mut test_program,
            &StandIn { answer },
            &mut Oracle::default(),
            "main",
            &cases[0],
        );
        std::fs::remove_dir_all(&dir).ok();
        verdict
    }

    fn f32s(xs: &[f32]) -> Vec<Value> {
        vec![Value::Array(spec::value::Array::from_vec(xs.to_vec()))]
    }

    fn program_error(message: &str, kind: RunErrorKind) -> Answer {
        Err(RunError {
            kind,
            message: message.to_string(),
            location: Some("p.fut:3:20".to_string()),
        })
    }

    #[test]
    fn verdicts_on_a_compiled_backend() {
        let double = "def main (xs: []f32) = map (\\x -> x + x) xs\n";
        let auto = format!("-- ==\n-- input {{ [0.1f32, 1f32] }} auto output\n{double}");
        let floats =
            format!("-- ==\n-- input {{ [0.1f32, 1f32] }} output {{ [0.2f32, 2f32] }}\n{double}");
        let index = "-- ==\n-- input { [1, 2] 5i64 } error: out of bounds\ndef main (xs: []i32) (i: i64) = xs[i]\n";
        let ulp_above = |x: f32, n: u32| f32::from_bits(x.to_bits() + n);
        // (name, program, the stand-in's answer, whether the case passes)
        let rows: Vec<(&str, &str, Answer, bool)> = vec![
            ("auto_same", &auto, Ok(f32s(&[0.2, 2.0])), true),
            ("auto_wrong", &auto, Ok(f32s(&[0.2, 3.0])), false),
            (
                "auto_shape",
                &auto,
                Ok(vec![Value::Prim(PrimValue::F32(0.2))]),
                false,
            ),
            ("floats_exact", &floats, Ok(f32s(&[0.2, 2.0])), true),
            (
                "floats_in_tolerance",
                &floats,
                Ok(f32s(&[ulp_above(0.2, 64), 2.0])),
                true,
            ),
            (
                "floats_beyond",
                &floats,
                Ok(f32s(&[ulp_above(0.2, 65), 2.0])),
                false,
            ),
            (
                "error_matches",
                index,
                program_error(
                    "index 5 out of bounds for array of 2 elements",
                    RunErrorKind::Program,
                ),
                true,
            ),
            (
                "error_differs",
                index,
                program_error("division by zero", RunErrorKind::Program),
                false,
            ),
            (
                "internal_error_never_expected",
                index,
                program_error("out of bounds in the compiler", RunErrorKind::Internal),
                false,
            ),
            (
                "error_expected_but_ran",
                index,
                Ok(vec![Value::Prim(PrimValue::I32(1))]),
                false,
            ),
        ];
        let mut wrong = Vec::new();
        for (name, program, answer, passes) in rows {
            let verdict = check(name, program, answer);
            if verdict.is_ok() != passes {
                wrong.push(format!("{name}: expected pass = {passes}, got {verdict:?}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
