//! The checker's typed output (`check_program_typed`): resolved types of
//! expression nodes (literals defaulted), instantiations of polymorphic
//! occurrences, schemes of definitions; and the existing entry point's
//! verdicts are unchanged by recording.

use optimized::typecheck::{check_program, check_program_typed, CheckOptions};
use optimized::types::printer::print_type;
use spec::source::FileId;
use spec::syntax::ast::{Dec, Expr, Program};

/// The last definition's body.
fn main_body(program: &Program) -> &Expr {
    match program.decs.last() {
        Some(Dec::Value(bind)) => &bind.body,
        other => panic!("the last declaration is not a definition: {other:?}"),
    }
}

/// The elements of a tuple expression.
fn elements(expr: &Expr) -> &[Expr] {
    match expr {
        Expr::Tuple { elements, .. } => elements,
        other => panic!("not a tuple: {other:?}"),
    }
}

/// `f a b`'s function name (the head of the application spine).
fn callee(expr: &Expr) -> &spec::syntax::ast::QualName {
    match expr {
        Expr::Apply { function, .. } => callee(function),
        Expr::Var(name) => name,
        other => panic!("not an application of a name: {other:?}"),
    }
}

/// The one helper: the main body of `text` is a tuple whose elements are
/// applications `f x`; each element's resolved type and its callee's type
/// arguments are as `expected` says (`(type, [type arguments])`).
fn check(text: &str, expected: &[(&str, &[&str])]) {
    let program = spec::syntax::parse_program(FileId(0), text).expect("parses");
    let typed = check_program_typed(&program, CheckOptions::default()).expect("checks");
    let plain = check_program(&program).expect("the plain checker agrees");
    assert_eq!(plain.bindings.len(), typed.checked.bindings.len());
    for (element, (ty, args)) in elements(main_body(&program)).iter().zip(expected) {
        let found = typed.expr_type(element).expect("a recorded type");
        assert_eq!(&print_type(found), ty, "{text}");
        let instance = typed.instance(callee(element)).expect("an instance");
        let found_args: Vec<String> = instance.types.iter().map(print_type).collect();
        assert_eq!(&found_args, args, "{text}");
    }
}

#[test]
fn occurrences_record_resolved_instantiations() {
    check(
        "def ident 't (x: t) : t = x\n\
         def main (a: i32) (b: bool) = (ident a, ident b)",
        &[("i32", &["i32"]), ("bool", &["bool"])],
    );
    // Literals defaulted at the end of the definition: `i32`, `f64`.
    check(
        "def ident 't (x: t) : t = x\n\
         def main = (ident 1, ident 2.5, ident [1u8])",
        &[("i32", &["i32"]), ("f64", &["f64"]), ("[1]u8", &["[1]u8"])],
    );
    // Built-ins: type arguments in the order of their declaration.
    check(
        "def main [n] (xs: [n]i32) = (map (\\x -> f32.i32 x) xs, length xs)",
        &[("[n]f32", &["i32", "f32"]), ("i64", &["i32"])],
    );
}

#[test]
fn definitions_and_local_functions_record_their_schemes() {
    let text = "def pair 'a 'b (x: a) (y: b) = (x, y)\n\
                def main (x: i32) = let twice 't (v: t) = (v, v) in (twice x, twice true)";
    let program = spec::syntax::parse_program(FileId(0), text).expect("parses");
    let typed = check_program_typed(&program, CheckOptions::default()).expect("checks");
    let Dec::Value(pair) = &program.decs[0] else {
        panic!("not a definition")
    };
    let scheme = typed.def_scheme(pair).expect("a scheme");
    assert_eq!(scheme.type_params.len(), 2);
    assert_eq!(print_type(&scheme.ty), "a -> b -> (a, b)");
    let body = main_body(&program);
    let scheme = typed.let_fun_scheme(body).expect("a local scheme");
    assert_eq!(print_type(&scheme.ty), "t -> (t, t)");
}
