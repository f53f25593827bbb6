//! Defunctionalisation and lowering through the pipeline: snapshots of the
//! first-order core and the IR of TFP'18 Fig. 1a, and what the
//! defunctionaliser did (lifted instances, reuses, inlinings) on programs
//! built to show lambda lifting without blow-up from partial applications.

use optimized::pipeline::{compile, CompiledProgram, PipelineOptions};
use spec::source::SourceMap;
use spec::value::{read_values, Value};

fn compiled(name: &str, text: &str) -> CompiledProgram {
    let mut sources = SourceMap::new();
    let file = sources.add(name.to_string(), text.to_string());
    match compile(&mut sources, file, None, PipelineOptions::from_source(text)) {
        Ok(compiled) => compiled,
        Err(diagnostics) => panic!(
            "{}",
            diagnostics
                .iter()
                .map(|d| d.render(&sources))
                .collect::<String>()
        ),
    }
}

fn value(text: &str) -> Vec<Value> {
    read_values(text.as_bytes()).expect("a value")
}

/// The one helper: compiles `text`, runs `main` on `input`, compares with
/// `output`, and compares the defunctionaliser's counts of lifted
/// instances, reused instances and inlined applications.
fn check(text: &str, input: &str, output: &str, lifted: usize, reused: usize, inlined: usize) {
    let program = compiled("test.fut", text);
    let result = program.run("main", &value(input)).expect("runs");
    assert_eq!(vec![result], value(output), "result of\n{text}");
    let stats = &program.defunc_stats;
    assert_eq!(
        (stats.lifted, stats.reused, stats.inlined),
        (lifted, reused, inlined),
        "(lifted, reused, inlined) for\n{text}"
    );
}

#[test]
fn partial_applications_share_one_lifted_instance() {
    // `f x` and `f x 1`, `f x 2` extend one closure record; the saturating
    // applications of the same shape share one lifted instance of `add3`'s
    // body, and the direct call `add3 1 2 3` (no closure record) another.
    check(
        "def add3 (a: i32) (b: i32) (c: i32) = let s = a * b in s + c
         def main (x: i32) =
           let f = add3 x
           let g = f 1
           let h = f 2
           in g x + h x + g 1 + add3 1 2 3",
        "5",
        "36",
        2,
        2,
        0,
    );
    // A chain of partial applications of one function: still one instance.
    check(
        "def mix (a: i32) (b: i32) (c: i32) (d: i32) = let s = a - b in s * c + d
         def main (x: i32) =
           let p = mix x
           let q = p 2
           let r = q 3
           in r 1 + r 2 + (mix x 2 3) 4",
        "10",
        "79",
        2,
        1,
        0,
    );
}

#[test]
fn trivial_lambdas_are_inlined_and_soac_lambdas_are_first_order() {
    // `\y -> y + a` is trivial: inlined at each application, never lifted;
    // the function argument of `map` is always inlined into its lambda.
    check(
        "def main (a: i32) =
           let f = \\y -> y + a
           in f 1 + f 2 + i32.sum (map f [1, 2, 3])",
        "10",
        "59",
        0,
        0,
        3,
    );
}

#[test]
fn functions_returned_from_branches_are_tagged() {
    check(
        "-- runestone-options: or-conditionals
         def main (b: bool) =
           let k = 10
           let f = if b then \\(y: i32) -> y + k else \\(y: i32) -> y * k
           in f 3 + f 4",
        "false",
        "70",
        0,
        0,
        4,
    );
}

#[test]
fn a_chain_of_trivial_wrappers_is_inlined_to_a_bounded_depth() {
    // `f6 x = f5 x`, …, `f1 x = f0 x`: each body is trivial, but a call of
    // `f6` inlines only four levels (`f6`..`f3`); `f2` is lifted once (its
    // body inlining `f1` and `f0`) and the second call of `f6` reuses it.
    // Without the bound a functor tower's wrappers are copied whole at
    // every use (the output grows cubically with the tower's height).
    check(
        "def f0 (x: i32) = x + 1
         def f1 (x: i32) = f0 x
         def f2 (x: i32) = f1 x
         def f3 (x: i32) = f2 x
         def f4 (x: i32) = f3 x
         def f5 (x: i32) = f4 x
         def f6 (x: i32) = f5 x
         def main (x: i32) = f6 x + f6 (x + 1)",
        "5",
        "13",
        1,
        1,
        10,
    );
}

fn fig1a() -> CompiledProgram {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/paper/tfp18_fig1a.fut"
    );
    compiled(
        "examples/paper/tfp18_fig1a.fut",
        &std::fs::read_to_string(path).expect("the example"),
    )
}

#[test]
fn tfp18_fig1a_defunctionalised_core() {
    let program = fig1a();
    assert_eq!(program.run("main", &[]).expect("runs"), value("23")[0]);
    insta::assert_snapshot!(
        "fig1a_defunc",
        optimized::core::printer::print_program(&program.defunc)
    );
}

#[test]
fn tfp18_fig1a_ir() {
    let program = fig1a();
    assert_eq!(
        program.run("twice_plus", &value("5 1")).expect("runs"),
        value("11")[0]
    );
    insta::assert_snapshot!("fig1a_ir", optimized::ir::print_program(&program.ir));
}
