//! What every differential-oracle target shares: the fuzzer's bytes as a
//! program of the generator (`fuzz::gen`), so that every input is a
//! well-typed program (or, where the oracle takes them, an ill-typed
//! mutant), and a finding as a panic whose message names the check.

use fuzz::gen::{generate_from_choices, GenConfig, GeneratedProgram};
use fuzz::oracles::{OracleConfig, OracleKind, Outcome};

/// The input's reading: the first byte's bits choose the program's kind
/// (bit 0: module program; bit 1: TFP'18 §7 `Or` conditionals; bit 2: a
/// program that may fail at run time); the rest, two bytes per choice, is
/// the generator's choice sequence.
pub struct Input {
    pub program: GeneratedProgram,
    pub modules: bool,
    pub or_conditionals: bool,
    /// The first byte, for targets that also mutate.
    pub mode: u8,
}

pub fn read(data: &[u8]) -> Option<Input> {
    let (&mode, rest) = data.split_first()?;
    let choices: Vec<u32> = rest
        .chunks(2)
        .map(|pair| u32::from(pair[0]) | (u32::from(*pair.get(1).unwrap_or(&0)) << 8))
        .collect();
    let config = GenConfig {
        modules: mode & 1 != 0,
        or_conditionals: mode & 2 != 0,
        may_fail: mode & 4 != 0,
        depth: 3,
        ..GenConfig::default()
    };
    Some(Input {
        program: generate_from_choices(choices, &config),
        modules: config.modules,
        or_conditionals: config.or_conditionals,
        mode,
    })
}

/// The reference's step limit the campaigns use.
pub fn fuel(kind: OracleKind) -> u64 {
    OracleConfig::new(kind, 0).fuel
}

/// Reports a disagreement as the target's crash.
pub fn check(outcome: Outcome, source: &str) {
    if let Outcome::Disagree { check, message } = outcome {
        panic!("disagreement ({check}): {message}\nprogram:\n{source}");
    }
}
