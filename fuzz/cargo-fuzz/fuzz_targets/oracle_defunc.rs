//! libFuzzer target of the `defunc` oracle: the reference pipeline runs a
//! generated program and checks TFP'18 Theorems 1–2 and Corollary 1 on it.
//! Input: `common/generated.rs`.

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
    let outcome = fuzz::oracles::examine_defunc(
        &source,
        &input.program.arguments,
        generated::fuel(OracleKind::Defunc),
        input.or_conditionals,
        input.modules,
    );
    generated::check(outcome, &source);
});
