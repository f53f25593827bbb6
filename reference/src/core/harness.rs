//! Running the `-- ==` test cases of programs on the reference (the engine
//! of `runestone test --backend reference` and of the reference's own tests):
//! every case runs through [`crate::front::pipeline`], so TFP'18's Theorems 1–2 and
//! Corollary 1 are checked on every program and input.

use super::theorems::RunError;
use crate::front::pipeline::compile;
use spec::source::SourceMap;
use spec::testblock::{case_expected_output, case_input, parse_test_file, BlockKind, Expected};
use spec::value::{compare, Tolerance};
use std::path::{Path, PathBuf};

/// The outcome of testing some programs.
#[derive(Default, Debug)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub failures: Vec<String>,
}

/// Every `.fut` file under `path`, sorted.
pub fn collect_programs(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect_programs(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "fut") || out.is_empty() && path.is_file() {
        out.push(path.to_path_buf());
    }
}

/// Runs every case of one program.
pub fn test_program(path: &Path, summary: &mut Summary) {
    let name = path.display().to_string();
    let fail = |summary: &mut Summary, what: String| {
        summary.failed += 1;
        summary.failures.push(format!("FAIL {what}"));
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return fail(summary, format!("{name}: cannot read: {e}")),
    };
    let mut sources = SourceMap::new();
    let file = sources.add(name.clone(), text.clone());
    let blocks = match parse_test_file(file, &text) {
        Ok(t) => t.blocks,
        Err(ds) => {
            let rendered: Vec<String> = ds.iter().map(|d| d.render(&sources)).collect();
            return fail(
                summary,
                format!("{name}: bad test block\n{}", rendered.join("")),
            );
        }
    };
    if blocks.is_empty() {
        return;
    }
    let compiled = compile(&mut sources, file);
    let program_dir = path.parent().unwrap_or(Path::new("."));
    for block in &blocks {
        match &block.kind {
            BlockKind::CompileError(regex) => match &compiled {
                Ok(_) => fail(
                    summary,
                    format!(
                        "{name}: expected a compile error matching /{}/, but it compiled",
                        regex.as_str()
                    ),
                ),
                Err(d) => {
                    let message = d.render(&sources);
                    if regex.matches(&message) {
                        summary.passed += 1;
                    } else {
                        fail(
                            summary,
                            format!(
                                "{name}: the compile error does not match /{}/:\n{message}",
                                regex.as_str()
                            ),
                        );
                    }
                }
            },
            BlockKind::Properties(_) => fail(
                summary,
                format!("{name}: property tests are not supported yet"),
            ),
            BlockKind::Cases(cases) => {
                let compiled = match &compiled {
                    Ok(c) => c,
                    Err(d) => {
                        for _ in cases
                            .iter()
                            .flat_map(|c| block.entries.iter().map(move |e| (c, e)))
                        {
                            fail(
                                summary,
                                format!("{name}: does not compile:\n{}", d.render(&sources)),
                            );
                        }
                        continue;
                    }
                };
                for (index, case) in cases.iter().enumerate() {
                    if case.flags.compiled || case.flags.notest {
                        continue;
                    }
                    for entry in &block.entries {
                        let what = format!("{name}: entry {} case #{index}", entry.name);
                        let input = match case_input(case, program_dir, &mut sources) {
                            Ok(v) => v,
                            Err(d) => {
                                fail(
                                    summary,
                                    format!("{what}: bad input:\n{}", d.render(&sources)),
                                );
                                continue;
                            }
                        };
                        let result = compiled.run(&entry.name, &input);
                        match (&case.expected, result) {
                            (Expected::Output(_) | Expected::OutputFile(_), Ok(actual)) => {
                                match case_expected_output(
                                    &case.expected,
                                    program_dir,
                                    &mut sources,
                                ) {
                                    Ok(Some(expected)) => {
                                        match compare(&expected, &actual, Tolerance::Exact) {
                                            Ok(()) => summary.passed += 1,
                                            Err(m) => fail(
                                                summary,
                                                format!(
                                                    "{what}: {m}\n  expected: {}\n  actual:   {}",
                                                    spec::value::print_values(&expected)
                                                        .trim_end()
                                                        .replace('\n', " "),
                                                    spec::value::print_values(&actual)
                                                        .trim_end()
                                                        .replace('\n', " ")
                                                ),
                                            ),
                                        }
                                    }
                                    Ok(None) => {
                                        fail(summary, format!("{what}: no expected output"))
                                    }
                                    Err(d) => fail(
                                        summary,
                                        format!(
                                            "{what}: bad expected output:\n{}",
                                            d.render(&sources)
                                        ),
                                    ),
                                }
                            }
                            (Expected::Success, Ok(_)) | (Expected::AutoOutput, Ok(_)) => {
                                summary.passed += 1
                            }
                            (Expected::RuntimeError(regex), Err(e))
                                if !matches!(e, RunError::Violation(_)) =>
                            {
                                let message = describe_run_error(&e, &sources);
                                if regex.matches(&message) {
                                    summary.passed += 1;
                                } else {
                                    fail(
                                        summary,
                                        format!(
                                            "{what}: the error does not match /{}/: {message}",
                                            regex.as_str()
                                        ),
                                    );
                                }
                            }
                            (Expected::RuntimeError(regex), Ok(actual)) => fail(
                                summary,
                                format!(
                                    "{what}: expected an error matching /{}/, got {}",
                                    regex.as_str(),
                                    spec::value::print_values(&actual).trim_end()
                                ),
                            ),
                            (_, Err(e)) => fail(
                                summary,
                                format!("{what}: {}", describe_run_error(&e, &sources)),
                            ),
                        }
                    }
                }
            }
        }
    }
}

/// A run error as the user sees it: `Error at file:line:col: message` for `err`.
pub fn describe_run_error(err: &RunError, sources: &SourceMap) -> String {
    match err {
        RunError::Runtime(e) => format!("Error at {}: {}", sources.describe(e.span), e.message),
        RunError::Input(m) => format!("error: bad input: {m}"),
        RunError::OutOfFuel => "error: evaluation ran out of fuel (step limit reached)".to_string(),
        RunError::Violation(m) => format!("internal error (a TFP'18 theorem check failed): {m}"),
    }
}
