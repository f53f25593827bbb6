//! `runestone compile FILE --dump core|mono`: the typed core and the
//! monomorphic core of a module-free program; module programs are refused
//! with a located diagnostic.

mod common;

use common::{runestone, text};

/// The one helper: `--dump phase` of `file` succeeds (or not, `success`),
/// and stdout (or stderr on failure) contains every `expected` fragment and
/// none of `absent`.
fn check(file: &str, phase: &str, success: bool, expected: &[&str], absent: &[&str]) {
    let out = runestone(&["compile", file, "--dump", phase]);
    let shown = if success {
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        text(&out.stdout)
    } else {
        assert_eq!(out.status.code(), Some(1), "{file}: {}", text(&out.stdout));
        text(&out.stderr)
    };
    for fragment in expected {
        assert!(
            shown.contains(fragment),
            "{file} --dump {phase}: no `{fragment}` in\n{shown}"
        );
    }
    for fragment in absent {
        assert!(
            !shown.contains(fragment),
            "{file} --dump {phase}: `{fragment}` in\n{shown}"
        );
    }
}

#[test]
fn compile_dumps_the_core_and_the_monomorphic_core() {
    // The core keeps the polymorphic `ident` and its instantiations; static
    // interpretation already dropped the prelude definitions no entry point
    // reaches.
    check(
        "tests/programs/polymorphism/identity.fut",
        "core",
        true,
        &["def ident_", " 't_", "@[i32]", "@[bool]", "entry main_"],
        &["def foldl_"],
    );
    // Mono: two instances, no type parameter, the unused prelude dropped.
    check(
        "tests/programs/polymorphism/identity.fut",
        "mono",
        true,
        &["def ident_", "entry main_"],
        &["'t_", "@[i32]", "foldl"],
    );
    check(
        "tests/programs/hof/pipe.fut",
        "core",
        true,
        &["reduce@[i32]", "map@[i32, i32]", "+@i32", "*@i32"],
        &["|>"],
    );
    // A module program: static interpretation first, so the core holds one
    // copy of the functor body per application (`g` twice, `+` and `*`).
    check(
        "tests/programs/modules/functor.fut",
        "core",
        true,
        &["def g_1 ", "+@i32 1i32", "*@i32 3i32"],
        &["module"],
    );
}
