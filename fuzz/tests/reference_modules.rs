//! The module-level generator against the reference's ICFP'18 elaborator:
//! with the core restricted to the paper's core (`GenConfig::paper_core`),
//! every generated program elaborates, is interpreted statically and passes
//! Proposition 6.1; every mutant the paper's core can express is rejected.

use fuzz::gen::mutate::{mutate, MutationKind};
use fuzz::gen::{generate, GenConfig};
use reference::modules::{check_program, paper_core::PaperCore};

fn paper_config() -> GenConfig {
    GenConfig {
        paper_core: true,
        ..GenConfig::default()
    }
}

#[test]
fn paper_core_programs_elaborate_and_pass_proposition_6_1() {
    let config = paper_config();
    for seed in 0..300u64 {
        let generated = generate(seed, &config);
        let text = generated.source();
        match check_program::<PaperCore>(&generated.program) {
            Ok(checked) => {
                if let Err(failure) = &checked.verdict {
                    panic!("seed {seed}: Proposition 6.1 fails: {failure}\n{text}");
                }
            }
            Err(failure) => panic!(
                "seed {seed}: rejected by {}: {} ({})\n{text}",
                failure.rule, failure.premise, failure.detail
            ),
        }
    }
}

#[test]
fn paper_core_mutants_are_rejected() {
    let config = paper_config();
    // TFP'18's restrictions are outside the paper's core (no entry points,
    // no `if`, loops or arrays there).
    let outside = [
        MutationKind::HigherOrderEntryPoint,
        MutationKind::FunctionFromIf,
        MutationKind::FunctionFromLoop,
        MutationKind::FunctionInArray,
    ];
    let mut rejected = 0;
    for seed in 0..200u64 {
        let original = generate(seed, &config);
        for selector in 0..3u32 {
            let Some(mutant) = mutate(&original, selector * 7919 + seed as u32, &config) else {
                continue;
            };
            if outside.contains(&mutant.kind) {
                continue;
            }
            let accepted = matches!(
                check_program::<PaperCore>(&mutant.program.program),
                Ok(checked) if checked.verdict.is_ok()
            );
            assert!(
                !accepted,
                "seed {seed}: mutant {:?} ({}) accepted\n{}",
                mutant.kind,
                mutant.kind.premise(),
                mutant.program.source()
            );
            rejected += 1;
        }
    }
    assert!(rejected >= 400, "only {rejected} mutants checked");
}
