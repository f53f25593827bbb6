//! Every test program passes on the reference: each `-- ==` case of every
//! program under `tests/programs/` and `examples/paper/` (module programs run
//! through the ICFP'18 module calculus on the TFP'18 core). The reference checks
//! TFP'18 Theorems 1–2 and Corollary 1 on every case, and Proposition 6.1 on
//! every module program, so a violated theorem fails its case.
//!
//! Rule tagging and coverage for every paper are checked by `rules_tidy.rs`.

use reference::core::harness::{collect_programs, test_program, Summary};
use std::path::Path;

#[test]
fn every_test_program_passes_with_the_theorems_checked() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for folder in ["tests/programs", "examples/paper"] {
        collect_programs(&root.join(folder), &mut files);
    }
    assert!(files.len() >= 150, "only {} programs", files.len());
    let mut summary = Summary::default();
    for file in &files {
        test_program(file, &mut summary);
    }
    assert!(
        summary.failed == 0,
        "{} failed:\n{}",
        summary.failed,
        summary.failures.join("\n")
    );
    assert!(
        summary.passed >= 250,
        "only {} cases passed",
        summary.passed
    );
}
