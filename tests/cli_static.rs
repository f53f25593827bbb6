//! `runestone fuzz --emit-tower N` and `runestone compile FILE --dump static
//! --timings` end to end: the tower compiles, its module-free program parses
//! back without module constructs, and the statistics count the reuses.

mod common;

use common::{runestone, text};

#[test]
fn tower_compiles_to_a_module_free_program() {
    let emitted = runestone(&["fuzz", "--emit-tower", "10"]);
    assert!(emitted.status.success(), "{}", text(&emitted.stderr));
    let tower = text(&emitted.stdout);
    assert_eq!(tower, fuzz::tower::program(10));
    let path = std::env::temp_dir().join(format!("runestone-tower-{}.fut", std::process::id()));
    std::fs::write(&path, &tower).expect("temporary file");
    let path_text = path.display().to_string();
    let compiled = runestone(&["compile", &path_text, "--dump", "static", "--timings"]);
    let _ = std::fs::remove_file(&path);
    let stderr = text(&compiled.stderr);
    assert!(compiled.status.success(), "{stderr}");
    // 8 levels: 8 chained applications and 2 repeated ones, reused.
    assert!(
        stderr.contains("static interpretation: 10 functor applications (2 reused)"),
        "{stderr}"
    );
    for phase in ["parse:", "typecheck:", "static:", "print:", "total:"] {
        assert!(stderr.contains(phase), "{phase} in {stderr}");
    }
    let output = text(&compiled.stdout);
    let program = spec::syntax::parse_program(spec::source::FileId(0), &output)
        .unwrap_or_else(|d| panic!("{}\n{output}", d.message));
    assert!(program.decs.iter().all(|dec| matches!(
        dec,
        spec::syntax::ast::Dec::Value(_) | spec::syntax::ast::Dec::Type(_)
    )));
    assert!(
        output.contains("entry main (x : i32) (xs : []i32) : i32 ="),
        "{output}"
    );
}

#[test]
fn dump_static_keeps_the_language_options() {
    let compiled = runestone(&[
        "compile",
        "tests/programs/or_conditionals/toplevel.fut",
        "--dump",
        "static",
    ]);
    assert!(compiled.status.success(), "{}", text(&compiled.stderr));
    assert!(text(&compiled.stdout).starts_with("-- runestone-options: or-conditionals\n"));
}
