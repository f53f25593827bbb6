//! libFuzzer target of the `verdict` oracle: the reference's and the
//! optimising compiler's type checkers give a generated program the same
//! verdict (accept; and on an ill-typed mutant, when bit 3 of the first
//! byte is set, reject). Input: `common/generated.rs`.

#![no_main]

// Each target uses the part of the shared module it needs.
#[allow(dead_code)]
#[path = "common/generated.rs"]
mod generated;

use fuzz::gen::mutate::mutate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = generated::read(data) else {
        return;
    };
    if input.mode & 8 != 0 {
        let config = fuzz::gen::GenConfig {
            modules: input.modules,
            ..fuzz::gen::GenConfig::default()
        };
        if let Some(mutant) = mutate(&input.program, u32::from(input.mode >> 4), &config) {
            let source = mutant.program.source();
            generated::check(fuzz::oracles::examine_verdict(&source, fuzz::oracles::Expected::of_mutant(mutant.kind)), &source);
        }
        return;
    }
    let source = input.program.source();
    generated::check(fuzz::oracles::examine_verdict(&source, fuzz::oracles::Expected::Accept), &source);
});
