//! libFuzzer target of the `value` oracle: the reference and the optimising
//! compiler's CPU backend give a generated program the same verdict, and
//! its run the same values (the compiled tolerance) or the same run-time
//! error. Input: `common/generated.rs`.

#![no_main]

// Each target uses the part of the shared module it needs.
#[allow(dead_code)]
#[path = "common/generated.rs"]
mod generated;

use fuzz::oracles::OracleKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = generated::read(data) else {
        return;
    };
    let source = input.program.source();
    let outcome = fuzz::oracles::value::examine_value(
        &source,
        &input.program.arguments,
        generated::fuel(OracleKind::Value),
        input.or_conditionals,
        input.modules,
    );
    generated::check(outcome, &source);
});
