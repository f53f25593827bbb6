//! The numeric modules on the optimising path: a module program reaches
//! `f32.sqrt` & co. through the prelude's definitions (static
//! interpretation of `spec/prelude/numeric.fut`, its `__prim_*` intrinsics
//! elaborated into the core), and must end as the same IR as a module-free
//! program that names them directly: the prelude's one-statement functions
//! are inlined, and each intrinsic is the IR primitive `f32.sqrt` denotes.

use optimized::pipeline::{compile, PipelineOptions};
use spec::source::SourceMap;

/// The IR after the optimisation passes (`--dump fused`) of `text`, with
/// every name's numeric suffix removed (two programs number their
/// variables differently).
fn fused_ir(text: &str) -> String {
    let mut sources = SourceMap::new();
    let file = sources.add("test.fut".to_string(), text.to_string());
    let compiled = match compile(&mut sources, file, None, PipelineOptions::from_source(text)) {
        Ok(compiled) => compiled,
        Err(diagnostics) => panic!(
            "{}",
            diagnostics
                .iter()
                .map(|d| d.render(&sources))
                .collect::<String>()
        ),
    };
    let printed = optimized::ir::printer::print_program(&compiled.fused);
    let mut normalised = String::new();
    let mut chars = printed.chars().peekable();
    while let Some(c) = chars.next() {
        normalised.push(c);
        if c.is_alphabetic() && chars.peek() == Some(&'_') {
            let mut lookahead = chars.clone();
            lookahead.next();
            if lookahead.peek().is_some_and(|d| d.is_ascii_digit()) {
                chars.next();
                while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    chars.next();
                }
            }
        }
    }
    normalised
}

/// The one helper: the module program `with_modules` and the module-free
/// `module_free` compile to the same IR, which contains each of `operations`
/// (IR primitives such as `sqrt.f32(`) and no function but the entry point
/// (every prelude function was inlined: no call is left).
fn check(with_modules: &str, module_free: &str, operations: &[&str]) {
    let through_modules = fused_ir(with_modules);
    let direct = fused_ir(module_free);
    assert_eq!(
        through_modules, direct,
        "the module program's IR differs from the module-free program's"
    );
    for operation in operations {
        assert!(
            direct.contains(operation),
            "`{operation}` is missing from\n{direct}"
        );
    }
    assert_eq!(
        direct.matches("fun ").count(),
        1,
        "a function besides the entry point is left in\n{direct}"
    );
}

#[test]
fn numeric_module_functions_end_as_the_same_ir_primitives() {
    check(
        "module m = { def root (x: f32) : f32 = f32.sqrt x }
         entry main (xs: []f32) : []f32 = map (\\x -> m.root x + f32.pi) xs",
        "entry main (xs: []f32) : []f32 = map (\\x -> f32.sqrt x + f32.pi) xs",
        &["sqrt.f32(", "add.f32("],
    );
    check(
        "module mk (R: real) = { def f (x: R.t) (y: R.t) : R.t = R.max (R.abs x) (R.atan2 y x) }
         module g = mk f64
         entry main (x: f64) (y: f64) : f64 = g.f x y",
        "entry main (x: f64) (y: f64) : f64 = f64.max (f64.abs x) (f64.atan2 y x)",
        &["abs.f64(", "atan2.f64(", "max.f64("],
    );
}
