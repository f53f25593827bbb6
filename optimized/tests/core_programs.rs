//! Every module-free program under `tests/programs/` (and `examples/`)
//! elaborates into the
//! typed core and passes the core checker after elaboration and after
//! monomorphisation; snapshots of the core of a few small programs.

use optimized::core::printer::print_program;
use optimized::core::{elaborate_module_free, toplevel_prelude_declarations};
use optimized::typecheck::{check_program_typed, CheckOptions};
use spec::source::SourceMap;
use spec::syntax::ast::{Dec, Program};
use std::path::Path;

/// Whether the declarations use no module construct (`import` included).
fn module_free(decs: &[Dec]) -> bool {
    decs.iter().all(|dec| match dec {
        Dec::Value(_) | Dec::Type(_) => true,
        Dec::Attr { dec, .. } => module_free(std::slice::from_ref(dec)),
        _ => false,
    })
}

/// What happened to one program.
enum Outcome {
    /// It uses modules (not the core's input).
    UsesModules,
    /// The type checker rejects it (an error test).
    Rejected,
    /// Elaborated, checked after elaboration and after mono: the core of
    /// the program's own definitions (the prelude's left out) and the whole
    /// monomorphic core, printed.
    Passed { core: String, mono: String },
    /// A failure, with the reason.
    Failed(String),
}

/// The one helper: parses `text`, prepends the prelude, elaborates, checks,
/// monomorphises and checks again.
fn check(name: &str, text: &str) -> Outcome {
    let mut sources = SourceMap::new();
    let file = sources.add(name.to_string(), text);
    let prelude_file = sources.add(
        "<prelude>/toplevel.fut".to_string(),
        optimized::typecheck::prelude::TOPLEVEL_PRELUDE,
    );
    let program = match spec::syntax::parse_program(file, text) {
        Ok(program) => program,
        Err(diagnostic) => return Outcome::Failed(diagnostic.render(&sources)),
    };
    if !module_free(&program.decs) {
        return Outcome::UsesModules;
    }
    let options = CheckOptions::from_source(text);
    if spec::recursion::with_stack(|| check_program_typed(&program, options)).is_err() {
        return Outcome::Rejected;
    }
    let mut decs = match toplevel_prelude_declarations(prelude_file) {
        Ok(decs) => decs,
        Err(diagnostic) => return Outcome::Failed(diagnostic.render(&sources)),
    };
    decs.extend(program.decs);
    let program = Program { decs };
    let render = |diagnostics: Vec<spec::diagnostic::Diagnostic>| {
        diagnostics
            .iter()
            .map(|diagnostic| diagnostic.render(&sources))
            .collect::<String>()
    };
    let core = match spec::recursion::with_stack(|| elaborate_module_free(&program, options)) {
        Ok(core) => core,
        // A module construct inside an expression (`f32.(e)`, a numeric
        // module's prelude definition such as `u32.get_bit`): the
        // elaborator refuses it as it should, with a located diagnostic,
        // and the pipeline sends the program to static interpretation on
        // any such diagnostic (`pipeline::compile_with_clock`); the names
        // of the definitions it refused are unknown after it.
        Err(diagnostics)
            if diagnostics.iter().any(|diagnostic| {
                diagnostic.has_code(spec::diagnostic::codes::MODULE_CONSTRUCT)
            }) =>
        {
            return Outcome::UsesModules
        }
        Err(diagnostics) => return Outcome::Failed(render(diagnostics)),
    };
    let mono = match optimized::mono::monomorphise_checked(&core) {
        Ok(mono) => mono,
        Err(diagnostic) => return Outcome::Failed(render(vec![diagnostic])),
    };
    let own = optimized::core::Program {
        definitions: core
            .definitions
            .iter()
            .filter(|definition| definition.function.span.file == file)
            .cloned()
            .collect(),
        next_id: core.next_id,
    };
    Outcome::Passed {
        core: print_program(&own),
        mono: print_program(&mono),
    }
}

#[test]
fn every_module_free_program_elaborates_and_monomorphises() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files =
        driver::discover::programs_under(&[root.join("tests/programs"), root.join("examples")]);
    files.sort();
    let (mut passed, mut modules, mut rejected) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable program");
        match check(&path.display().to_string(), &text) {
            Outcome::UsesModules => modules += 1,
            Outcome::Rejected => rejected += 1,
            Outcome::Passed { .. } => passed += 1,
            Outcome::Failed(reason) => failures.push(format!("{}:\n{reason}", path.display())),
        }
    }
    eprintln!(
        "core: {passed} module-free programs pass, {rejected} rejected by the checker, {modules} use modules, {} fail",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(passed >= 100, "only {passed} programs passed");
}

/// The core and mono of `tests/programs/<path>`, for a snapshot.
fn printed(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/programs")
        .join(path);
    let text = std::fs::read_to_string(&full).expect("readable program");
    match check(path, &text) {
        Outcome::Passed { core, mono } => format!("-- core\n{core}\n-- mono\n{mono}"),
        Outcome::Failed(reason) => panic!("{path} failed:\n{reason}"),
        Outcome::Rejected => panic!("{path} is rejected by the checker"),
        Outcome::UsesModules => panic!("{path} uses modules"),
    }
}

#[test]
fn core_snapshots() {
    for path in [
        "polymorphism/identity.fut",
        "hof/pipe.fut",
        "arith/min_max.fut",
        "sums/option.fut",
        "loops/loop_without_init.fut",
        "records/update.fut",
        "arrays/index_section.fut",
        "polymorphism/prelude_head_last.fut",
    ] {
        let name = path.trim_end_matches(".fut").replace('/', "__");
        insta::assert_snapshot!(name, printed(path));
    }
}
