//! libFuzzer target of the `modules` oracle: ICFP'18 Proposition 6.1 on a
//! generated module program (static interpretation gives target code of
//! the elaborated type). Input: `common/generated.rs`, modules always on.

#![no_main]

// Each target uses the part of the shared module it needs.
#[allow(dead_code)]
#[path = "common/generated.rs"]
mod generated;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut data = data.to_vec();
    if let Some(mode) = data.first_mut() {
        *mode |= 1;
    }
    let Some(input) = generated::read(&data) else {
        return;
    };
    let outcome = fuzz::oracles::examine_modules(&input.program.program, true);
    generated::check(outcome, &input.program.source());
});
