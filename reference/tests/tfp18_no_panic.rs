//! The module-free front end and the core's judgments never panic: every
//! test program, truncated or with a line dropped, compiles to a program or
//! to a diagnostic, and a compiled program's entry points run (on no
//! arguments) to a value or an error.

use reference::front::pipeline::compile;
use spec::source::SourceMap;
use std::path::Path;

fn compile_and_run(text: &str) {
    let mut sources = SourceMap::new();
    let file = sources.add("mutant.fut", text);
    if let Ok(compiled) = compile(&mut sources, file) {
        for entry in &compiled.mono.entries {
            let _ = compiled.run(&entry.name, &[]);
        }
    }
}

#[test]
fn mutated_programs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let files = driver::discover::programs_under(&[root]);
    let mut count = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).expect("program");
        let lines: Vec<&str> = text.lines().collect();
        // Every line dropped in turn, and the text cut at a few places.
        for skip in 0..lines.len() {
            let mutant: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            compile_and_run(&mutant.join("\n"));
            count += 1;
        }
        for cut in (0..text.len()).step_by(37) {
            if text.is_char_boundary(cut) {
                compile_and_run(&text[..cut]);
                count += 1;
            }
        }
    }
    assert!(count > 1000, "only {count} mutants");
}
