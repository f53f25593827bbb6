//! Static interpretation (`optimized::static_interp`): every program of the
//! repository that type-checks loses its modules, prints and parses back,
//! and type-checks with the same entry-point types; memoised functor
//! application reuses exactly the repeated applications; names are resolved
//! without capture.

use optimized::imports::FileImports;
use optimized::static_interp::{eliminate_modules, Statistics};
use optimized::typecheck::{check_program_with_options, CheckOptions, ImportLoader};
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap};
use spec::syntax::ast::{Dec, Program, ValueBindKind};
use std::collections::{BTreeMap, HashSet};

/// What [`check`] found about one program.
struct Checked {
    output: Program,
    printed: String,
    statistics: Statistics,
}

/// The entry points of a checked program and their types, by name.
fn entry_types(
    program: &Program,
    loader: Option<&mut dyn ImportLoader>,
    options: CheckOptions,
) -> Result<BTreeMap<String, String>, Vec<Diagnostic>> {
    let checked =
        spec::recursion::with_stack(|| check_program_with_options(program, loader, options))?;
    Ok(checked
        .bindings
        .iter()
        .filter(|binding| binding.kind == ValueBindKind::Entry || binding.name == "main")
        .map(|binding| (binding.name.clone(), binding.signature()))
        .collect())
}

/// The one check of static interpretation: `text` (from `path`, whose
/// imports are read next to it) type-checks; its module-free output has only
/// `def`/`entry`/`type` declarations with unique names, prints into text
/// that parses back to the same tree, and type-checks with the same
/// entry-point types. `Ok(None)`: the input itself does not type-check.
fn check(path: &str, text: &str) -> Result<Option<Checked>, String> {
    let mut loader = FileImports::new(SourceMap::new());
    let file = loader.sources.add(path.to_string(), text);
    let program = spec::syntax::parse_program(file, text).map_err(|d| d.message.clone())?;
    let options = CheckOptions::from_source(text);
    let Ok(original_entries) = entry_types(&program, Some(&mut loader), options) else {
        return Ok(None);
    };
    let (output, statistics) =
        spec::recursion::with_stack(|| eliminate_modules(&program, Some(&mut loader))).map_err(
            |diagnostics| {
                diagnostics
                    .iter()
                    .map(|d| d.render(&loader.sources))
                    .collect::<String>()
            },
        )?;
    let mut names = HashSet::new();
    for dec in &output.decs {
        let (name, namespace) = match dec {
            Dec::Value(bind) => (&bind.name, "value"),
            Dec::Type(bind) => (&bind.name, "type"),
            other => return Err(format!("a module construct in the output: {other:?}")),
        };
        if !names.insert((namespace, name.clone())) {
            return Err(format!("{namespace} `{name}` declared twice in the output"));
        }
    }
    let printed = spec::syntax::printer::print_program(&output);
    let reparsed_file = loader
        .sources
        .add("output.fut".to_string(), printed.as_str());
    let reparsed = spec::syntax::parse_program(reparsed_file, &printed)
        .map_err(|d| format!("{}\n{printed}", d.render(&loader.sources)))?;
    if reparsed != output {
        return Err(format!(
            "the output does not parse back to itself:\n{printed}"
        ));
    }
    // The numeric modules' definitions in the output use the prelude's
    // intrinsics, which only the output's checking binds.
    let output_options = CheckOptions {
        prelude_intrinsics: true,
        ..options
    };
    let output_entries = entry_types(&output, None, output_options).map_err(|diagnostics| {
        let rendered: String = diagnostics
            .iter()
            .map(|d| d.render(&loader.sources))
            .collect();
        format!("the output does not type-check:\n{rendered}\n{printed}")
    })?;
    if output_entries != original_entries {
        return Err(format!(
            "entry points differ: {original_entries:?} became {output_entries:?}\n{printed}"
        ));
    }
    Ok(Some(Checked {
        output,
        printed,
        statistics,
    }))
}

fn check_text(text: &str) -> Checked {
    match check("main.fut", text) {
        Ok(Some(checked)) => checked,
        Ok(None) => panic!("the test program does not type-check:\n{text}"),
        Err(message) => panic!("{message}"),
    }
}

fn uses_modules(program: &Program) -> bool {
    program
        .decs
        .iter()
        .any(|dec| !matches!(dec, Dec::Value(_) | Dec::Type(_)))
}

/// Every program under `examples/` and `tests/programs/` that type-checks.
#[test]
fn every_program_loses_its_modules() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files =
        driver::discover::programs_under(&[root.join("examples"), root.join("tests/programs")]);
    let mut failures = Vec::new();
    let mut eliminated = 0;
    let mut with_modules = 0;
    let mut not_type_correct = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable program");
        match check(&path.display().to_string(), &text) {
            Ok(Some(_)) => {
                eliminated += 1;
                let file = SourceMap::new().add("x".to_string(), text.as_str());
                if spec::syntax::parse_program(file, &text).is_ok_and(|p| uses_modules(&p)) {
                    with_modules += 1;
                }
            }
            Ok(None) => not_type_correct += 1,
            Err(message) => failures.push(format!("{}: {message}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(
        (eliminated, with_modules, not_type_correct),
        (383, 45, 70),
        "programs eliminated, of which with module constructs, and programs rejected by the checker"
    );
}

/// The tower benchmark shape, small: the repeated application is reused.
#[test]
fn memoisation_reuses_a_repeated_application() {
    let checked = check_text(
        "module type has_x = { val x : i32 }
module F (X: has_x) = { def y : i32 = X.x + 1 }
module A = { def x : i32 = 1 }
module B = F A
module C = F A
entry main : i32 = B.y + C.y",
    );
    assert_eq!(
        (
            checked.statistics.functor_applications,
            checked.statistics.reused_applications
        ),
        (2, 1)
    );
    assert_eq!(
        checked.printed,
        "def x : i32 = 1\n\ndef y : i32 = x + 1\n\nentry main : i32 = y + y\n"
    );
}

/// Different arguments are different applications, even when they are
/// equal as text; an alias is the same module.
#[test]
fn memoisation_does_not_conflate_distinct_arguments() {
    let checked = check_text(
        "module type has_x = { val x : i32 }
module F (X: has_x) = { def y : i32 = X.x + 1 }
module A1 = { def x : i32 = 1 }
module A2 = { def x : i32 = 2 }
module A3 = { def x : i32 = 1 }
module Alias = A1
module B1 = F A1
module B2 = F A2
module B3 = F A3
module B4 = F Alias
entry main : i32 = B1.y + B2.y + B3.y + B4.y",
    );
    assert_eq!(
        (
            checked.statistics.functor_applications,
            checked.statistics.reused_applications
        ),
        (4, 1)
    );
    assert_eq!(
        checked.printed,
        "def x : i32 = 1\n\ndef x_1 : i32 = 2\n\ndef x_2 : i32 = 1\n\n\
         def y : i32 = x + 1\n\ndef y_1 : i32 = x_1 + 1\n\ndef y_2 : i32 = x_2 + 1\n\n\
         entry main : i32 = y + y_1 + y_2 + y\n"
    );
}

/// Curried functors: a partial application is a module value too, so
/// `G A B` after `G A` reuses both steps.
#[test]
fn memoisation_of_curried_and_partial_application() {
    let checked = check_text(
        "module type has_x = { val x : i32 }
module G (X: has_x) (Y: has_x) = { def z : i32 = X.x * Y.x }
module A = { def x : i32 = 2 }
module B = { def x : i32 = 3 }
module P = G A
module Q = P B
module R = G A B
entry main : i32 = Q.z + R.z",
    );
    assert_eq!(
        (
            checked.statistics.functor_applications,
            checked.statistics.reused_applications
        ),
        (4, 2)
    );
    assert_eq!(checked.output.decs.len(), 4);
}

/// Renaming: clashes get fresh names, a local binder is never captured, a
/// value's `r.f` stays a projection, renamed operators become applications,
/// built-ins stay.
#[test]
fn names_are_resolved_without_capture() {
    let rows: &[(&str, &str)] = &[
        (
            "module M = { def x : i32 = 1 }
def f (x: i32) : i32 = M.x + x
entry main (y: i32) : i32 = f y",
            "def x_1 : i32 = 1\n\ndef f (x : i32) : i32 = x_1 + x\n\nentry main (y : i32) : i32 = f y\n",
        ),
        (
            "module M = { def r = {f = 1i32} def g : i32 = r.f }
def r = {f = 2i32}
entry main : i32 = M.g + r.f",
            "def r = {f = 1i32}\n\ndef g : i32 = r.f\n\ndef r_1 = {f = 2i32}\n\nentry main : i32 = g + r_1.f\n",
        ),
        (
            "module M = { def (+^) (a: i32) (b: i32) : i32 = a * b }
def (+^) (a: i32) (b: i32) : i32 = a - b
entry main (x: i32) : i32 = (x M.+^ 2) +^ (M.+^) 3 4",
            "def (+^) (a : i32) (b : i32) : i32 = a * b\n\ndef op_plus_hat_1 (a : i32) (b : i32) : i32 = a - b\n\nentry main (x : i32) : i32 = op_plus_hat_1 (x +^ 2) ((+^) 3 4)\n",
        ),
        (
            "module M = { def map (x: i32) : i32 = x }
entry main (xs: []i32) : []i32 = map M.map xs",
            "def map_1 (x : i32) : i32 = x\n\nentry main (xs : []i32) : []i32 = map map_1 xs\n",
        ),
        (
            "module M = { type t = i32 def one : t = 1 }
open M
type t = f32
entry main (x: M.t) : t = f32.i32 (x + one)",
            // `f32.i32` is the numeric prelude's definition, kept.
            // A value is never named like a numeric module (`i32_1`).
            "type t = f32\n\ndef i32_1 (x : i32) : t = __prim_to_f32 x\n\ntype t_1 = i32\n\ndef one : t_1 = 1\n\ntype t_2 = f32\n\nentry main (x : t_1) : t_2 = i32_1 (x + one)\n",
        ),
    ];
    let mut failures = Vec::new();
    for (input, expected) in rows {
        let checked = check_text(input);
        if checked.printed != *expected {
            failures.push(format!(
                "input:\n{input}\nexpected:\n{expected}\nfound:\n{}",
                checked.printed
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n----\n"));
}

/// Ascription hides names: an `open` of an ascribed module brings only
/// what its module type names into scope.
#[test]
fn ascription_hides_names_from_open() {
    let checked = check_text(
        "def g : i32 = 10
module M : { val f : i32 } = { def g : i32 = 1 def f : i32 = g + 1 }
open M
entry main : i32 = f + g",
    );
    assert_eq!(
        checked.printed,
        "def g : i32 = 10\n\ndef g_1 : i32 = 1\n\ndef f : i32 = g_1 + 1\n\nentry main : i32 = f + g\n"
    );
}

/// Higher-order functors (a functor passed inside a structure, ICFP'18 rule
/// 28), `\(X: mt) -> me`.
#[test]
fn higher_order_functors() {
    let checked = check_text(
        "module type has_x = { val x : i32 }
module type endo = (X: has_x) -> has_x
module Twice (P: { module F : endo }) (X: has_x) = P.F (P.F X)
module Inc = \\(X: has_x) -> { def x : i32 = X.x + 1 }
module Zero = { def x : i32 = 0 }
module With_inc = { module F = Inc }
module Two = Twice With_inc Zero
module Two_again = Twice With_inc Zero
entry main : i32 = Two.x + Two_again.x",
    );
    assert_eq!(
        (
            checked.statistics.functor_applications,
            checked.statistics.reused_applications
        ),
        (6, 2)
    );
    assert_eq!(
        checked.printed,
        "def x : i32 = 0\n\ndef x_1 : i32 = x + 1\n\ndef x_2 : i32 = x_1 + 1\n\nentry main : i32 = x_2 + x_2\n"
    );
}

/// Without entry points, every declaration of the program is kept (and the
/// prelude functions it uses); with entry points, only what they and the
/// program's constants reach (every entry point evaluates every constant
/// first, as the reference does, so an unused constant's run-time error is
/// reported).
#[test]
fn reachability_from_entry_points() {
    let library = check_text("def unused : i32 = 1\ndef twice (xs : []i32) : []i32 = xs ++ xs");
    assert_eq!(
        library.printed,
        "def (++) 't (xs : []t) (ys : []t) : *[]t = concat xs ys\n\ndef unused : i32 = 1\n\ndef twice (xs : []i32) : []i32 = xs ++ xs\n"
    );
    // Unused constants: `constant` and `sum` (total through `add`) go,
    // `first_of` (an index may fail) stays, with `pick`, which it uses.
    let program = check_text(
        "def unused (y : i32) : i32 = y\ndef constant : i32 = 1\n\
         def add (a : i32) (b : i32) : i32 = a + b\ndef sum : i32 = add 1 2\n\
         def pick (xs : []i32) : i32 = xs[1]\ndef first_of : i32 = pick [1]\n\
         entry main (x : i32) : i32 = id x",
    );
    assert_eq!(
        program.printed,
        "def id 'a (x : a) : a = x\n\ndef pick (xs : []i32) : i32 = xs[1]\n\ndef first_of : i32 = pick [1]\n\nentry main (x : i32) : i32 = id x\n"
    );
    assert!(program.statistics.declarations_emitted > program.statistics.declarations_kept);
}

/// The module language's other constructs: `local`, `include` in module
/// types, `m.(e)`, nested modules, shadowing, parametric types and abstract
/// types of functor parameters (replaced by what the argument defines).
#[test]
fn module_language_constructs() {
    let rows: &[(&str, &str)] = &[
        (
            "module M = { local def hidden : i32 = 1 def shown : i32 = hidden + 1 }
entry main : i32 = M.shown",
            "def hidden : i32 = 1\n\ndef shown : i32 = hidden + 1\n\nentry main : i32 = shown\n",
        ),
        (
            "module type a = { type t val x : t }
module type b = { include a val y : t }
module M : b with t = i32 = { type t = i32 def x : t = 1 def y : t = 2 def z (u: t) : t = u }
entry main : i32 = M.(x + y)",
            "type t = i32\n\ndef x : t = 1\n\ndef y : t = 2\n\nentry main : i32 = x + y\n",
        ),
        (
            "module Outer = { module Inner = { type t 'a = (a, a) def pair 'a (x: a) : t a = (x, x) } }
entry main (x: i32) : Outer.Inner.t i32 = Outer.Inner.pair x",
            "type t 'a = (a, a)\n\ndef pair 'a (x : a) : t a = (x, x)\n\nentry main (x : i32) : t i32 = pair x\n",
        ),
        (
            "module type box = { type t 'a val wrap 'a : a -> t a }
module Boxes (B: box) = { def twice 'a (x: a) : B.t (B.t a) = B.wrap (B.wrap x) }
module Pair = { type t 'a = (a, i32) def wrap 'a (x: a) : t a = (x, 0) }
module P = Boxes Pair
entry main (x: f32) : ((f32, i32), i32) = P.twice x",
            "type t 'a = (a, i32)\n\ndef wrap 'a (x : a) : t a = (x, 0)\n\n\
             def twice 'a (x : a) : t (t a) = wrap (wrap x)\n\n\
             entry main (x : f32) : ((f32, i32), i32) = twice x\n",
        ),
        (
            "def x (u: i32) : i32 = u
module M = { def x : i32 = 2 def y : i32 = x }
def x : i32 = 3
entry main : i32 = M.y + x",
            // The first `x` is unreachable: dropped, its name free again.
            "def x : i32 = 2\n\ndef y : i32 = x\n\ndef x_1 : i32 = 3\n\nentry main : i32 = y + x_1\n",
        ),
    ];
    let mut failures = Vec::new();
    for (input, expected) in rows {
        let checked = check_text(input);
        if checked.printed != *expected {
            failures.push(format!(
                "input:\n{input}\nexpected:\n{expected}\nfound:\n{}",
                checked.printed
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n----\n"));
}

/// A program static interpretation cannot handle gets a located
/// diagnostic, never a panic: an imported file missing when the loader is
/// absent, and a module name bound nowhere.
#[test]
fn failures_are_located_diagnostics() {
    let rows: &[(&str, &str)] = &[
        (
            "import \"elsewhere\"\nentry main : i32 = 1",
            "cannot import",
        ),
        (
            "module N = Nowhere\nentry main : i32 = 1",
            "module `Nowhere`",
        ),
    ];
    for (input, message) in rows {
        let program = spec::syntax::parse_program(FileId(0), input).expect("parses");
        let diagnostics = eliminate_modules(&program, None).expect_err(input);
        assert_eq!(diagnostics.len(), 1);
        assert!(
            diagnostics[0].message.contains(message),
            "{input}: {:?}",
            diagnostics[0]
        );
        assert_eq!(
            diagnostics[0].primary_span().map(|span| span.file),
            Some(FileId(0)),
            "{input}"
        );
    }
}
