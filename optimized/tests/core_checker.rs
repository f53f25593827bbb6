//! The core checker rejects ill-formed cores (naming the pass), and
//! monomorphisation shares instances that differ only in sizes, separates
//! instances at different types and drops what the entry points do not
//! reach.

use optimized::core::check::{check_program, Stage};
use optimized::core::{
    elaborate_module_free, ExprKind, Intrinsic, PatKind, PrimType, Program, Size, Type, VarName,
};
use optimized::typecheck::CheckOptions;
use spec::source::FileId;

/// The core of a module-free program (without the prelude).
fn core_of(text: &str) -> Program {
    let program = spec::syntax::parse_program(FileId(0), text).expect("parses");
    elaborate_module_free(&program, CheckOptions::default())
        .unwrap_or_else(|diagnostics| panic!("does not elaborate: {diagnostics:?}"))
}

/// The one helper for the checker: `mutate` breaks the core of `text`; the
/// checker must reject it at `stage`, naming the pass, with `expected` in
/// the message.
fn check_rejects(text: &str, stage: Stage, mutate: fn(&mut Program), expected: &str) {
    let mut core = core_of(text);
    check_program(&core, "elaboration", Stage::Elaborated).expect("the unbroken core checks");
    mutate(&mut core);
    let diagnostic =
        check_program(&core, "the test pass", stage).expect_err("the broken core must be rejected");
    assert!(
        diagnostic.message.contains("the core after the test pass")
            && diagnostic.message.contains(expected),
        "{text}: message `{}` lacks `{expected}`",
        diagnostic.message
    );
}

#[test]
fn the_core_checker_rejects_broken_cores() {
    let add = "def main (x: i32) : i32 = x + 1";
    check_rejects(
        add,
        Stage::Elaborated,
        |core| core.definitions[0].function.body.ty = Type::Prim(PrimType::F64),
        "the operator's result: expected `i32`, found `f64`",
    );
    check_rejects(
        add,
        Stage::Elaborated,
        |core| {
            let function = &mut core.definitions[0].function;
            if let PatKind::Var(name) = &mut function.params[0].kind {
                *name = function.name.clone();
            }
        },
        "is bound twice",
    );
    check_rejects(
        add,
        Stage::Elaborated,
        |core| {
            if let ExprKind::BinOp { lhs, .. } = &mut core.definitions[0].function.body.kind {
                if let ExprKind::Var { name, .. } = &mut lhs.kind {
                    name.id += 1000;
                }
            }
        },
        "is not in scope",
    );
    check_rejects(
        "def main (xs: []i32) : []i32 = map (\\x -> x + 1) xs",
        Stage::Elaborated,
        |core| {
            if let ExprKind::Intrinsic { args, .. } = &mut core.definitions[0].function.body.kind {
                args.pop();
            }
        },
        "applied to 1 argument(s), it takes 2",
    );
    check_rejects(
        "def main [n] (xs: [n]i32) : i32 = xs[0]",
        Stage::Elaborated,
        |core| {
            let param = &mut core.definitions[0].function.params[0];
            let Type::Array { element, .. } = &param.ty else {
                return;
            };
            let stray = VarName {
                base: "stray".into(),
                id: 9999,
            };
            param.ty = Type::Array {
                size: Size::Var(stray),
                element: element.clone(),
            };
        },
        "the size `stray_9999` is not in scope",
    );
    check_rejects(
        "def ident 't (x: t) : t = x\ndef main (a: i32) : i32 = ident a",
        Stage::Monomorphic,
        |_| {},
        "after monomorphisation",
    );
    check_rejects(
        "def main (a: f32) : f32 = f32.sqrt a",
        Stage::Elaborated,
        |core| {
            if let ExprKind::Intrinsic { intrinsic, .. } =
                &mut core.definitions[0].function.body.kind
            {
                *intrinsic = Intrinsic::Numeric {
                    module: PrimType::F32,
                    function: "isnan".into(),
                    arity: 1,
                };
            }
        },
        "the result of `f32.isnan`: expected `bool`, found `f32`",
    );
}

/// The one helper for mono: the names of the monomorphic program's
/// definitions (base names), after checking it.
fn mono_definitions(text: &str) -> Vec<String> {
    let core = core_of(text);
    let mono = optimized::mono::monomorphise(&core);
    check_program(&mono, "monomorphisation", Stage::Monomorphic)
        .unwrap_or_else(|diagnostic| panic!("{text}: {diagnostic:?}"));
    mono.definitions
        .iter()
        .map(|definition| definition.function.name.base.to_string())
        .collect()
}

#[test]
fn monomorphisation_keys_instances_by_types_without_sizes() {
    let rows: &[(&str, &[&str])] = &[
        // One instance for [3]i32 and [2]i32: sizes are not types.
        (
            "def first 't (xs: []t) : t = xs[0]\n\
             def main (a: [3]i32) (b: [2]i32) : i32 = first a + first b",
            &["first", "main"],
        ),
        // Two instances for i32 and bool.
        (
            "def ident 't (x: t) : t = x\n\
             def main (a: i32) (b: bool) : (i32, bool) = (ident a, ident b)",
            &["ident", "ident", "main"],
        ),
        // Unreachable definitions are dropped.
        (
            "def unused (x: i32) : i32 = x\n\
             def twice 'a (f: a -> a) (x: a) : a = f (f x)\n\
             def main (a: i32) : i32 = twice (\\y -> y + 1) a",
            &["twice", "main"],
        ),
        // Local polymorphic functions: one copy per type.
        (
            "def main (a: i32) (b: f64) : (i32, f64) =\n\
             let pair 't (x: t) : (t, t) = (x, x)\n\
             in ((pair a).0, (pair b).1)",
            &["main"],
        ),
    ];
    for (text, expected) in rows {
        assert_eq!(&mono_definitions(text), expected, "{text}");
    }
}

#[test]
fn local_polymorphic_functions_are_copied_per_instance() {
    let text = "def main (a: i32) (b: f64) : (i32, f64) =\n\
                let pair 't (x: t) : (t, t) = (x, x)\n\
                in ((pair a).0, (pair b).1)";
    let core = core_of(text);
    let mono = optimized::mono::monomorphise(&core);
    let printed = optimized::core::printer::print_program(&mono);
    assert_eq!(printed.matches("let pair_").count(), 2, "{printed}");
}

/// The one helper for refusals: elaborating `text` (no prelude prepended)
/// fails with a located diagnostic containing `expected`.
fn check_refused(text: &str, expected: &str) {
    let program = spec::syntax::parse_program(FileId(0), text).expect("parses");
    let diagnostics = elaborate_module_free(&program, CheckOptions::default())
        .expect_err("elaboration must refuse it");
    assert!(
        diagnostics
            .iter()
            .any(|diagnostic| diagnostic.message.contains(expected)
                && diagnostic.primary_span().is_some()),
        "{text}: {diagnostics:?}"
    );
}

#[test]
fn elaboration_refuses_module_constructs_and_missing_prelude_definitions() {
    check_refused(
        "def main (xs: []i32) : i32 = foldl (+) 0 xs",
        "`foldl` has no definition in the program",
    );
    check_refused(
        "def main (x: i32) : i32 = ((\\y -> y + 1) >-> (\\y -> y * 2)) x",
        "the operator `>->` has no definition in the program",
    );
    check_refused(
        "module m = { def x : i32 = 1 }\ndef main : i32 = m.x",
        "module construct",
    );
    check_refused(
        "def main (x: f32) : f32 = f32.(sqrt x)",
        "`m.(e)` is a module construct",
    );
}
