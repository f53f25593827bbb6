//! libFuzzer target of the `optimisation` oracle: the optimising compiler's
//! own output on a generated program (no operator on constants left after
//! its passes; its IR and core checkers reject a broken form of the
//! program). Input: `common/generated.rs`.

#![no_main]

// Each target uses the part of the shared module it needs.
#[allow(dead_code)]
#[path = "common/generated.rs"]
mod generated;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = generated::read(data) else {
        return;
    };
    let source = input.program.source();
    let outcome =
        fuzz::oracles::optimisation::examine_optimisation(&source, input.or_conditionals);
    generated::check(outcome, &source);
});
