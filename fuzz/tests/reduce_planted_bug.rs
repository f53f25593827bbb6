//! `fuzz::reduce` on a planted bug: the optimising compiler's CPU backend,
//! wrapped so that every `i32` result equal to 42 comes back as 43, against
//! the reference, through the corpus oracle. The witness
//! (`tests/reduce/planted_bug_witness.fut`, 201 lines: a library of
//! helpers and nine entry points) shows the bug on one case; the reducer
//! must bring it to at most 20 lines that still show it, and that the
//! unplanted implementations agree on (the reduced program is a valid
//! program, not a broken one).

use driver::{Backend, LoadedProgram, RunError};
use fuzz::oracles::corpus::{examine_program, examine_program_with_fault};
use spec::value::Value;
use std::path::Path;

/// The planted bug.
struct FortyTwoIsFortyThree(Box<dyn LoadedProgram>);

impl LoadedProgram for FortyTwoIsFortyThree {
    fn backend(&self) -> Backend {
        self.0.backend()
    }
    fn entry_points(&self) -> Vec<String> {
        self.0.entry_points()
    }
    fn signature(&self, entry: &str) -> Option<driver::signature::EntrySignature> {
        self.0.signature(entry)
    }
    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError> {
        let results = self.0.run(entry, args)?;
        Ok(results
            .into_iter()
            .map(|v| {
                if v == Value::from(42i32) {
                    Value::from(43i32)
                } else {
                    v
                }
            })
            .collect())
    }
}

fn planted(program: Box<dyn LoadedProgram>) -> Box<dyn LoadedProgram> {
    Box::new(FortyTwoIsFortyThree(program))
}

#[test]
fn a_planted_bugs_witness_reduces_to_at_most_20_lines() {
    let witness_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reduce/planted_bug_witness.fut");
    let witness = std::fs::read_to_string(&witness_path).expect("the witness");
    assert!(
        witness.lines().count() >= 200,
        "the witness is a long program"
    );
    assert!(examine_program(&witness_path).differences.is_empty());
    let found = examine_program_with_fault(&witness_path, &planted).differences;
    assert_eq!(found.len(), 1, "{found:?}");
    let check = found[0].check.clone();

    let dir = std::env::temp_dir().join(format!("runestone-reduce-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let candidate_path = dir.join("candidate.fut");
    let mut interesting = |candidate: &str| {
        std::fs::write(&candidate_path, candidate).expect("write");
        examine_program_with_fault(&candidate_path, &planted)
            .differences
            .iter()
            .any(|d| d.check == check)
    };
    let reduction = fuzz::reduce::reduce(&witness, 4000, &mut interesting, &mut |_| {});
    let lines = reduction.program.lines().count();
    eprintln!(
        "{} lines -> {lines} lines, {} candidates, {} kept:\n{}",
        witness.lines().count(),
        reduction.candidates,
        reduction.kept,
        reduction.program
    );
    assert!(
        lines <= 20,
        "{lines} lines after {} candidates:\n{}",
        reduction.candidates,
        reduction.program
    );
    // Still the finding, and a program the unplanted implementations agree on.
    let reduced_path = dir.join("reduced.fut");
    std::fs::write(&reduced_path, &reduction.program).expect("write");
    assert!(examine_program_with_fault(&reduced_path, &planted)
        .differences
        .iter()
        .any(|d| d.check == check));
    let honest = examine_program(&reduced_path);
    assert!(
        honest.differences.is_empty() && honest.agreed > 0,
        "{honest:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
