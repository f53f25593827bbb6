//! Every program under `tests/programs/` and `examples/` with `-- ==` test
//! blocks, compiled by the optimising pipeline (`optimized::pipeline`) and
//! run on the CPU backend; results compared with the expected outputs
//! (`spec::value::compare`), expected run-time errors and compile errors
//! matched against their regular expressions.
//!
//! The programs expected to pass are listed in
//! `tests/pipeline_passing.txt`, one path a line: a listed program that fails
//! is an error (a regression), and so is an unlisted one that passes (the
//! list is exact: update it). The number of passing programs also has a
//! floor.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use std::rc::Rc;

use optimized::pipeline::{add_prelude_file, compile_program, PipelineOptions};
use optimized::typecheck::ImportLoader;
use spec::diagnostic::Diagnostic;
use spec::source::SourceMap;
use spec::source::{FileId, Span};
use spec::syntax::ast::Program;
use spec::testblock::{parse_test_file, BlockKind, Expected, Input};
use spec::value::{compare, read_values, Tolerance, Value};

/// The floor: at least this many programs pass entirely.
const MINIMUM_PASSING: usize = 290;

fn fut_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            fut_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "fut") {
            out.push(path);
        }
    }
}

/// Reads `import "path"` as `path.fut` next to the importing file.
struct FileLoader {
    sources: SourceMap,
    /// Each file read once (the loader must give one file one id).
    cache: std::collections::HashMap<PathBuf, (FileId, Rc<Program>)>,
}

impl ImportLoader for FileLoader {
    fn load(&mut self, from: Span, path: &str) -> Result<(FileId, Rc<Program>), Diagnostic> {
        let importer = Path::new(&self.sources.get(from.file).name);
        let candidate = importer
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(format!("{path}.fut"));
        let key = candidate
            .canonicalize()
            .unwrap_or_else(|_| candidate.clone());
        if let Some(found) = self.cache.get(&key) {
            return Ok(found.clone());
        }
        let text = std::fs::read_to_string(&candidate).map_err(|error| {
            Diagnostic::error(format!("cannot import \"{path}\": {error}"))
                .with_primary(from, format!("looked for {}", candidate.display()))
        })?;
        let file = self.sources.add(candidate.display().to_string(), text);
        let program = Rc::new(spec::syntax::parse_program(
            file,
            &self.sources.get(file).text,
        )?);
        self.cache.insert(key, (file, program.clone()));
        Ok((file, program))
    }
}

/// The total compile time of each pipeline phase over all programs.
type PhaseTimes = Vec<(&'static str, std::time::Duration)>;

/// An entry's result as the list of values the test format expects
/// (a tuple result is several values).
fn result_values(value: Value) -> Vec<Value> {
    match value {
        Value::Tuple(values) if !values.is_empty() => values,
        other => vec![other],
    }
}

/// The one helper: compiles `path` and runs every case of its test blocks.
/// `Ok(None)` when it has no test block; `Ok(Some(cases))` when every case
/// passed; `Err(reason)` at the first failure.
fn check(path: &Path, phase_times: &mut PhaseTimes) -> Result<Option<usize>, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut loader = FileLoader {
        sources: SourceMap::new(),
        cache: Default::default(),
    };
    let file = loader.sources.add(name.clone(), text.clone());
    let blocks = parse_test_file(file, &text)
        .map_err(|ds| {
            ds.iter()
                .map(|d| d.render(&loader.sources))
                .collect::<String>()
        })?
        .blocks;
    if blocks.is_empty() || expects_running_out_of_fuel(&blocks) {
        return Ok(None);
    }
    let prelude_file = add_prelude_file(&mut loader.sources);
    let compiled = match spec::syntax::parse_program(file, &text) {
        Ok(program) => spec::recursion::with_stack(|| {
            compile_program(
                &program,
                prelude_file,
                Some(&mut loader),
                PipelineOptions::from_source(&text),
            )
        }),
        Err(diagnostic) => Err(vec![diagnostic]),
    };
    let sources = loader.sources;
    if let Ok(compiled) = &compiled {
        for (phase, time) in compiled.timings() {
            match phase_times.iter_mut().find(|(name, _)| name == phase) {
                Some((_, total)) => *total += *time,
                None => phase_times.push((phase, *time)),
            }
        }
    }
    let render = |ds: &[spec::diagnostic::Diagnostic], sources: &SourceMap| {
        ds.iter().map(|d| d.render(sources)).collect::<String>()
    };
    let mut cases_passed = 0;
    for block in &blocks {
        match &block.kind {
            BlockKind::CompileError(regex) => match &compiled {
                Ok(_) => {
                    return Err(format!(
                        "expected a compile error /{}/, but it compiled",
                        regex.as_str()
                    ))
                }
                Err(ds) => {
                    // The verdict must be the reference's; the wording may
                    // differ (the reference's messages name its rules, such
                    // as `T-If`), but an internal or `unsupported` error is
                    // not a verdict.
                    let message = render(ds, &sources);
                    let not_a_verdict = ds
                        .iter()
                        .any(|d| matches!(d.code.as_deref(), Some("internal" | "unsupported")));
                    if not_a_verdict {
                        return Err(format!(
                            "expected a compile error /{}/, got:\n{message}",
                            regex.as_str()
                        ));
                    }
                    cases_passed += 1;
                }
            },
            BlockKind::Properties(_) => return Err("property blocks are not supported".to_string()),
            BlockKind::Cases(cases) => {
                let compiled = compiled.as_ref().map_err(|ds| render(ds, &sources))?;
                for (index, case) in cases.iter().enumerate() {
                    if case.flags.notest {
                        continue;
                    }
                    for entry in &block.entries {
                        let what = format!("entry {} case #{index}", entry.name);
                        let Input::Values(raw) = &case.input else {
                            return Err(format!("{what}: only `input {{ … }}` is supported"));
                        };
                        let input = read_values(raw.text.as_bytes())
                            .map_err(|e| format!("{what}: bad input: {e}"))?;
                        let result = compiled.run(&entry.name, &input);
                        match (&case.expected, result) {
                            (Expected::Output(raw), Ok(actual)) => {
                                let expected = read_values(raw.text.as_bytes())
                                    .map_err(|e| format!("{what}: bad expected output: {e}"))?;
                                let actual = result_values(actual);
                                compare(&expected, &actual, Tolerance::Exact).map_err(|m| {
                                    format!(
                                        "{what}: {m}\n  expected: {}\n  actual:   {}",
                                        spec::value::print_values(&expected)
                                            .trim_end()
                                            .replace('\n', " "),
                                        spec::value::print_values(&actual)
                                            .trim_end()
                                            .replace('\n', " ")
                                    )
                                })?;
                            }
                            (Expected::Success | Expected::AutoOutput, Ok(_)) => {}
                            (Expected::RuntimeError(regex), Err(error)) => {
                                let message = format!(
                                    "Error at {}: {}",
                                    sources.describe(error.span),
                                    error.message
                                );
                                if !regex.matches(&message) {
                                    return Err(format!(
                                        "{what}: the error does not match /{}/: {message}",
                                        regex.as_str()
                                    ));
                                }
                            }
                            (Expected::RuntimeError(regex), Ok(actual)) => {
                                return Err(format!(
                                    "{what}: expected an error /{}/, got {}",
                                    regex.as_str(),
                                    spec::value::print_values(&result_values(actual)).trim_end()
                                ))
                            }
                            (_, Err(error)) => {
                                return Err(format!(
                                    "{what}: Error at {}: {}",
                                    sources.describe(error.span),
                                    error.message
                                ))
                            }
                            (Expected::OutputFile(_), Ok(_)) => {
                                return Err(format!("{what}: `output @ FILE` is not supported"))
                            }
                        }
                        cases_passed += 1;
                    }
                }
            }
        }
    }
    Ok(Some(cases_passed))
}

/// Whether a case expects the reference's step limit to stop the program:
/// the CPU backend has no fuel (such a program would not terminate), so
/// these programs are not run here.
fn expects_running_out_of_fuel(blocks: &[spec::testblock::TestBlock]) -> bool {
    blocks.iter().any(|block| match &block.kind {
        BlockKind::Cases(cases) => cases
            .iter()
            .any(|case| matches!(&case.expected, Expected::RuntimeError(regex) if regex.as_str().contains("fuel"))),
        _ => false,
    })
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A path relative to the repository root, with `/` separators.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_program_runs_on_the_cpu_backend() {
    let mut files = Vec::new();
    fut_files(&root().join("tests/programs"), &mut files);
    fut_files(&root().join("examples"), &mut files);
    files.sort();
    let listed: BTreeSet<String> = include_str!("pipeline_passing.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let mut passing = BTreeSet::new();
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut programs = 0;
    let mut phase_times = PhaseTimes::new();
    for path in &files {
        let name = relative(path);
        match check(path, &mut phase_times) {
            Ok(None) => {}
            Ok(Some(n)) => {
                programs += 1;
                cases += n;
                passing.insert(name);
            }
            Err(reason) => {
                programs += 1;
                failures.push((name, reason));
            }
        }
    }
    eprintln!(
        "pipeline: {} of {programs} programs pass ({cases} cases); {} fail:",
        passing.len(),
        failures.len()
    );
    let phases: Vec<String> = phase_times
        .iter()
        .map(|(phase, time)| format!("{phase} {:.1} ms", time.as_secs_f64() * 1000.0))
        .collect();
    eprintln!(
        "pipeline: compile time per phase, all programs: {}",
        phases.join(", ")
    );
    for (name, reason) in &failures {
        let first = reason.lines().take(6).collect::<Vec<_>>().join("\n    ");
        eprintln!("  FAIL {name}: {first}");
    }
    let newly: Vec<&String> = passing.difference(&listed).collect();
    if !newly.is_empty() {
        eprintln!("pipeline: passing but not listed in tests/pipeline_passing.txt (add them):");
        for name in &newly {
            eprintln!("  {name}");
        }
    }
    let regressed: Vec<&String> = listed.difference(&passing).collect();
    assert!(
        regressed.is_empty(),
        "listed programs that no longer pass: {regressed:?}"
    );
    assert!(
        newly.is_empty(),
        "programs that pass but are not listed in tests/pipeline_passing.txt: {newly:?}"
    );
    assert!(
        passing.len() >= MINIMUM_PASSING,
        "only {} programs pass, the floor is {MINIMUM_PASSING}",
        passing.len()
    );
}
