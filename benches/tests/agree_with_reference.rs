//! The benchmark programs run on the reference at their small sizes (the
//! equivalent of `runestone test benches/programs`), and every hand-written
//! kernel computes what its program computes there, on every tested case
//! (`random input` cases included, with the values `runestone test` uses).

use benches::{case_count, program_cases, programs_dir, CaseSet, Kernel, KERNELS};
use reference::core::harness::{collect_programs, test_program, Summary};
use reference::front::pipeline::compile;
use spec::source::SourceMap;
use spec::value::{compare, Tolerance, Value};

#[test]
fn every_benchmark_program_passes_its_tests_on_the_reference() {
    let mut files = Vec::new();
    collect_programs(&programs_dir(), &mut files);
    assert!(files.len() >= 9, "only {} programs", files.len());
    let mut summary = Summary::default();
    for file in &files {
        test_program(file, &mut summary);
    }
    assert!(
        summary.failed == 0,
        "{} failed:\n{}",
        summary.failed,
        summary.failures.join("\n")
    );
    assert!(summary.passed >= 20, "only {} cases passed", summary.passed);
}

/// How closely a kernel must match: exactly, except the reassociated float
/// sum of `dot` (relative error at most 1e-5 on the small sizes).
fn tolerance(kernel: &Kernel) -> Option<f32> {
    (kernel.name == "dot").then_some(1e-5)
}

/// Runs `kernel`'s program on the reference and the kernel on every tested
/// case; returns the disagreements.
fn check(kernel: &Kernel) -> Vec<String> {
    let path = kernel.program_path();
    let cases = match program_cases(&path, kernel.entry, CaseSet::Tested) {
        Ok(cases) if !cases.is_empty() => cases,
        Ok(_) => return vec![format!("{}: no tested case", kernel.name)],
        Err(e) => return vec![format!("{}: {e}", kernel.name)],
    };
    let mut sources = SourceMap::new();
    let text = std::fs::read_to_string(&path).expect("the program exists");
    let file = sources.add(path.display().to_string(), text);
    let compiled = match compile(&mut sources, file) {
        Ok(c) => c,
        Err(d) => return vec![d.render(&sources)],
    };
    let mut problems = Vec::new();
    for (index, args) in cases.iter().enumerate() {
        let what = format!("{} case {index}", kernel.name);
        let expected = match compiled.run(kernel.entry, args) {
            Ok(v) => v,
            Err(e) => {
                problems.push(format!("{what}: the reference fails: {e:?}"));
                continue;
            }
        };
        let actual = match (kernel.prepare)(args) {
            Ok(prepared) => (prepared.compute)(),
            Err(e) => {
                problems.push(format!("{what}: {e}"));
                continue;
            }
        };
        let verdict = match tolerance(kernel) {
            None => compare(&expected, &actual, Tolerance::Exact).map_err(|m| m.to_string()),
            Some(relative) => close(&expected, &actual, relative),
        };
        if let Err(m) = verdict {
            problems.push(format!("{what}: {m}"));
        }
    }
    problems
}

/// One `f32` each, within `relative` of each other.
fn close(expected: &[Value], actual: &[Value], relative: f32) -> Result<(), String> {
    let as_f32 = |v: &[Value]| match v {
        [Value::Prim(spec::value::PrimValue::F32(x))] => Some(*x),
        _ => None,
    };
    match (as_f32(expected), as_f32(actual)) {
        (Some(e), Some(a)) if (e - a).abs() <= relative * e.abs().max(1.0) => Ok(()),
        _ => Err(format!("expected {expected:?}, got {actual:?}")),
    }
}

#[test]
fn every_kernel_computes_what_its_program_computes_on_the_reference() {
    let problems: Vec<String> = KERNELS.iter().flat_map(check).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every benchmark has exactly one case at its largest size, which the
/// criterion harness times.
#[test]
fn every_benchmark_has_a_large_case() {
    for kernel in KERNELS {
        let count = case_count(&kernel.program_path(), kernel.entry, CaseSet::Large)
            .unwrap_or_else(|e| panic!("{}: {e}", kernel.name));
        // spmv_csr is the hand-written three-row example; its benchmark is
        // spmv_generated.
        let expected = usize::from(kernel.name != "spmv_csr");
        assert_eq!(count, expected, "{}: large cases", kernel.name);
    }
}
