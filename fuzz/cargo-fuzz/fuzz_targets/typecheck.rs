//! libFuzzer target for the two type checkers (issue 6, item 4): the
//! reference (`from_surface` or the ICFP'18 module calculus, then TFP'18
//! typing) and `optimized::typecheck` must not panic and must terminate on
//! any program. The first byte picks the input's reading:
//!
//! - even: the rest is source text (token soup); whatever parses is checked;
//! - odd: the rest is a choice sequence for the program generator (module
//!   programs included), and the generated program, or one of its ill-typed
//!   mutants ([`fuzz::gen::mutate`]), is printed, parsed back and checked.
//!
//! Verdicts are not compared here (the `verdict` campaign does that on
//! generated programs); a disagreement on arbitrary text is no finding.

#![no_main]

use fuzz::gen::mutate::mutate;
use fuzz::gen::{generate_from_choices, GenConfig};
use libfuzzer_sys::fuzz_target;
use spec::source::FileId;
use spec::syntax::parse_program;

fn check_text(text: &str) {
    if let Ok(program) = parse_program(FileId(0), text) {
        let _ = fuzz::oracles::both_checkers_agree(&program);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        if let Ok(text) = std::str::from_utf8(rest) {
            check_text(text);
        }
        return;
    }
    let choices: Vec<u32> = rest
        .chunks(2)
        .map(|pair| u32::from(pair[0]) | (u32::from(*pair.get(1).unwrap_or(&0)) << 8))
        .collect();
    let config = GenConfig {
        modules: mode & 2 != 0,
        depth: 3,
        ..GenConfig::default()
    };
    let program = generate_from_choices(choices, &config);
    if mode & 4 != 0 {
        let selector = u32::from(mode >> 3);
        if let Some(mutant) = mutate(&program, selector, &config) {
            check_text(&mutant.program.source());
            return;
        }
    }
    check_text(&program.source());
});
