//! `-- ==` test blocks executed case by case, as `futhark test` runs them
//! (the engine of `runestone test`, `runestone bench`'s inputs and the
//! corpus harness `tests/programs.rs`).
//!
//! Inputs inline, from `@ FILE` or `random input` ([`spec::testblock`]);
//! `notest` cases are skipped, and `compiled` cases on the reference (an
//! interpreter); `auto output` compares a compiled backend with the
//! reference, and on the reference itself (the oracle that defines the
//! output) only requires the run to succeed. An expected compile error
//! passes only on a rejection (a verdict) whose rendering matches: an
//! unsupported construct or an internal failure never does. Blocks and
//! cases tagged `no_B` are skipped on backend B; `warning:` and `structure`
//! items are reported skipped (runestone emits no warnings, and has not
//! Futhark's intermediate representation).

use crate::backend::Backend;
use crate::load::{load, LoadOptions, LoadedProgram};
use crate::outcome::{LoadError, RunError, RunErrorKind};
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap};
use spec::testblock::{
    case_expected_output, case_input, parse_test_file, BlockKind, Case, Expected, Input, TestBlock,
};
use spec::value::{compare, Tolerance, Value};
use std::path::{Path, PathBuf};

/// A program and its test blocks.
pub struct TestProgram {
    /// The path as given (relative paths stay relative), for reports.
    pub name: String,
    /// The directory `@ FILE` names are relative to.
    pub dir: PathBuf,
    pub sources: SourceMap,
    pub file: FileId,
    pub blocks: Vec<TestBlock>,
}

/// Reads `path` and parses its blocks; the error is a report (rendered
/// diagnostics included).
pub fn read_test_program(path: &Path) -> Result<TestProgram, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let mut sources = SourceMap::new();
    let file = sources.add(name.clone(), text.clone());
    let blocks = match parse_test_file(file, &text) {
        Ok(parsed) => parsed.blocks,
        Err(diagnostics) => {
            let rendered: Vec<String> = diagnostics.iter().map(|d| d.render(&sources)).collect();
            return Err(format!("{name}: bad test block\n{}", rendered.join("")));
        }
    };
    Ok(TestProgram {
        name,
        dir: path.parent().unwrap_or(Path::new(".")).to_path_buf(),
        sources,
        file,
        blocks,
    })
}

/// What testing one program on one backend gave.
#[derive(Debug, Default)]
pub struct ProgramReport {
    /// Cases (and expected compile errors) that passed.
    pub passed: usize,
    /// One line (and its details) per failed case: `FAIL name: ...`.
    pub failures: Vec<String>,
    /// Cases not run on this backend, and why.
    pub skipped: Vec<String>,
}

/// What testing a program reports as it goes, case by case: collected
/// into a [`ProgramReport`] in process, or streamed to `runestone test`'s
/// supervising process by its worker. Every report (`what`) begins with the
/// program's name.
pub trait CaseObserver {
    /// A case begins: `entry main case #2` (without the program's name).
    fn case_started(&mut self, case: &str);
    /// A case (or an expected compile error) passed.
    fn passed(&mut self);
    /// A case failed, or the program could not be tested: the failure's
    /// first line and its details, without `FAIL `.
    fn failed(&mut self, what: String);
    /// A case was not run on this backend, and why.
    fn skipped(&mut self, what: String);
}

impl CaseObserver for ProgramReport {
    fn case_started(&mut self, _case: &str) {}

    fn passed(&mut self) {
        self.passed += 1;
    }

    fn failed(&mut self, what: String) {
        self.failures.push(format!("FAIL {what}"));
    }

    fn skipped(&mut self, what: String) {
        self.skipped.push(what);
    }
}

impl ProgramReport {
    /// Whether the program has at least one case that ran.
    pub fn ran_anything(&self) -> bool {
        self.passed > 0 || !self.failures.is_empty()
    }
}

/// Runs every case of the program at `path` on `backend`, but those of a
/// block or case tagged with one of `exclude_tags` (`futhark test
/// --exclude`). A panic of an implementation is this program's internal
/// error, reported as its failure (the run goes on with the next program),
/// never the end of the run. In this process: `runestone test` also
/// survives crashes and infinite loops by running each program in a worker
/// process ([`test_program_observed`], [`crate::isolation`]).
pub fn test_program(
    path: &Path,
    backend: Backend,
    options: LoadOptions,
    exclude_tags: &[String],
) -> ProgramReport {
    let mut report = ProgramReport::default();
    test_program_observed(path, backend, options, exclude_tags, &mut report);
    report
}

/// [`test_program`], telling `observer` of every case as it starts and
/// ends. A panic is the failure of the program (what was observed before
/// it stays), and the end of its cases.
pub fn test_program_observed(
    path: &Path,
    backend: Backend,
    options: LoadOptions,
    exclude_tags: &[String],
    observer: &mut dyn CaseObserver,
) {
    let run = std::panic::AssertUnwindSafe(|| {
        test_program_unguarded(path, backend, options, exclude_tags, &mut *observer)
    });
    if let Err(payload) = std::panic::catch_unwind(run) {
        observer.failed(format!(
            "{}: internal error: the {backend} backend panicked: {}",
            path.display(),
            panic_message(payload.as_ref())
        ));
    }
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text.to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_string()
    }
}

fn test_program_unguarded(
    path: &Path,
    backend: Backend,
    options: LoadOptions,
    exclude_tags: &[String],
    observer: &mut dyn CaseObserver,
) {
    let mut program = match read_test_program(path) {
        Ok(p) => p,
        Err(why) => {
            observer.failed(why);
            return;
        }
    };
    if program.blocks.is_empty() {
        return;
    }
    let loaded = load(backend, &mut program.sources, program.file, options);
    if let Err(LoadError::Unavailable { reason, .. }) = &loaded {
        observer.failed(format!(
            "{}: {backend} is unavailable: {reason}",
            program.name
        ));
        return;
    }
    let mut oracle = Oracle::default();
    // `--exclude-tag`s, and `no_B` on backend B (`no_gpu`, as Futhark's
    // `no_opencl`).
    let own_tag = format!("no_{}", backend.name());
    let excluded = |tag: &str| tag == own_tag || exclude_tags.iter().any(|t| t == tag);
    for block in std::mem::take(&mut program.blocks) {
        if block.tags.iter().any(|tag| excluded(&tag.name)) {
            continue;
        }
        for warning in &block.warnings {
            observer.skipped(format!(
                "{}: `warning: {}` not checked: runestone's compilers emit no warnings",
                program.name,
                warning.as_str()
            ));
        }
        if !block.structures.is_empty() {
            observer.skipped(format!(
                "{}: {} `structure` item(s) not checked: they count statements of Futhark's own \
                 intermediate representation",
                program.name,
                block.structures.len()
            ));
        }
        match &block.kind {
            BlockKind::CompileError(regex) => match &loaded {
                Ok(_) => observer.failed(format!(
                    "{}: expected a compile error matching /{}/, but it compiled",
                    program.name,
                    regex.as_str()
                )),
                Err(LoadError::Rejected(d)) => {
                    let message = d.render(&program.sources);
                    if regex.matches(&message) {
                        observer.passed();
                    } else {
                        observer.failed(format!(
                            "{}: the compile error does not match /{}/:\n{message}",
                            program.name,
                            regex.as_str()
                        ));
                    }
                }
                Err(other) => observer.failed(format!(
                    "{}: expected a compile error matching /{}/, but the {backend} backend gives \
                     no verdict:\n{}",
                    program.name,
                    regex.as_str(),
                    other.render(&program.sources)
                )),
            },
            BlockKind::Properties(_) => observer.failed(format!(
                "{}: property tests are not supported yet",
                program.name
            )),
            BlockKind::Cases(cases) => {
                for (index, case) in cases.iter().enumerate() {
                    let skip = case.flags.notest
                        || (case.flags.compiled && backend.is_interpreter())
                        || case.flags.tags.iter().any(|tag| excluded(tag));
                    if skip {
                        continue;
                    }
                    if !backend.has_fuel() && expects_running_out_of_fuel(case) {
                        observer.skipped(format!(
                            "{}: case #{index} expects the reference's step limit (fuel), which \
                             the {backend} backend does not have (it would not terminate)",
                            program.name
                        ));
                        continue;
                    }
                    for entry in &block.entries {
                        let case_name = format!("entry {} case #{index}", entry.name);
                        observer.case_started(&case_name);
                        let what = format!("{}: {case_name}", program.name);
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
                                    Ok(()) => observer.passed(),
                                    Err(why) => observer.failed(format!("{what}: {why}")),
                                }
                            }
                            Err(e) => observer.failed(format!(
                                "{what}: does not compile:\n{}",
                                e.render(&program.sources)
                            )),
                        }
                    }
                }
            }
        }
    }
}

/// Whether `case` expects the reference's step limit to stop the program:
/// its expected error matches the out-of-fuel error as it is reported
/// ([`RunError::out_of_fuel`]). A backend without fuel would loop forever.
pub fn expects_running_out_of_fuel(case: &Case) -> bool {
    let out_of_fuel = RunError::out_of_fuel().to_string();
    matches!(&case.expected, Expected::RuntimeError(regex) if regex.matches(&out_of_fuel))
}

/// The reference's version of a program, loaded when a compiled backend
/// meets `auto output`.
#[derive(Default)]
pub struct Oracle {
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
            .map_err(|e| e.render(&program.sources))
        });
        match loaded {
            Ok(p) => Ok(&**p),
            Err(e) => Err(format!("the reference cannot compute the auto output: {e}")),
        }
    }
}

/// One case on one entry point: `Err` says why it failed.
pub fn test_case(
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
            // A written expected output is compared as `futhark test`
            // compares it, on every backend.
            compare_results(&expected, &actual, Tolerance::FutharkTest)
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

/// `#3` or the case's quoted name, and its input in short:
/// `#0 (random input { [1000]f32 })`.
pub fn case_label(index: usize, case: &Case) -> String {
    let id = match &case.name {
        Some(name) => format!("{name:?}"),
        None => format!("#{index}"),
    };
    let input = match &case.input {
        Input::Values(raw) => format!("input {{ {} }}", shorten(&raw.text, 40)),
        Input::ValuesFile(file) => format!("input @ {}", file.path),
        Input::Random(raw) => format!("random input {{ {} }}", shorten(&raw.text, 60)),
        Input::Script(raw) => format!("script input {{ {} }}", shorten(&raw.text, 40)),
        Input::ScriptFile(file) => format!("script input @ {}", file.path),
    };
    format!("{id} ({input})")
}

/// Values on one line, at most about 200 characters.
pub fn one_line(values: &[Value]) -> String {
    shorten(&spec::value::print_values(values), 200)
}

/// `text` with whitespace collapsed, cut at `limit` characters with `...`.
fn shorten(text: &str, limit: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= limit {
        collapsed
    } else {
        let cut: String = collapsed.chars().take(limit).collect();
        format!("{cut} ...")
    }
}

#[cfg(test)]
mod tests {
    //! One case checked against a stand-in compiled backend: the verdicts of
    //! `auto output` (against the reference), float tolerance, and expected
    //! run-time errors, which only a backend other than the reference meets.

    use super::*;
    use crate::outcome::RunError;
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
        fn signature(&self, _: &str) -> Option<crate::signature::EntrySignature> {
            None
        }
        fn run(&self, _: &str, _: &[Value]) -> Answer {
            self.answer.clone()
        }
    }

    /// Tests the first case of `program` (entry `main`) on the stand-in.
    fn check(name: &str, program: &str, answer: Answer) -> Result<(), String> {
        let dir = std::env::temp_dir().join(format!(
            "runestone-driver-cases-{}-{name}",
            std::process::id()
        ));
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
            span: None,
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
            // Against the reference: the compiled backends' ulps.
            (
                "auto_in_tolerance",
                &auto,
                Ok(f32s(&[ulp_above(0.2, 64), 2.0])),
                true,
            ),
            (
                "auto_beyond",
                &auto,
                Ok(f32s(&[ulp_above(0.2, 65), 2.0])),
                false,
            ),
            (
                "auto_shape",
                &auto,
                Ok(vec![Value::Prim(PrimValue::F32(0.2))]),
                false,
            ),
            ("floats_exact", &floats, Ok(f32s(&[0.2, 2.0])), true),
            // A written output: `futhark test`'s relative 0.2 %.
            (
                "floats_in_tolerance",
                &floats,
                Ok(f32s(&[0.2 * 1.0019, 2.0])),
                true,
            ),
            (
                "floats_beyond",
                &floats,
                Ok(f32s(&[0.2 * 1.0021, 2.0])),
                false,
            ),
            (
                "error_matches",
                index,
                program_error(
                    "index 5 out of bounds for array of 2 elements",
                    RunErrorKind::Runtime,
                ),
                true,
            ),
            (
                "error_differs",
                index,
                program_error("division by zero", RunErrorKind::Runtime),
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
