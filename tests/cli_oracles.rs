//! `runestone fuzz --oracle verdict|defunc|value`: a short campaign prints its
//! summary, outcome table and rule coverage, and exits 0 when nothing
//! disagrees beyond the known disagreements (`--known`; the value oracle
//! meets one in its first 20 programs of seed 1).

use std::process::Command;

fn runestone(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_runestone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runestone runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn short_oracle_campaigns_print_a_summary_and_coverage() {
    for (oracle, rule) in [
        ("verdict", "TFP18 T-Lam"),
        ("defunc", "TFP18 D-Lam"),
        ("value", "TFP18 D-Lam"),
    ] {
        let (code, stdout, stderr) = runestone(&[
            "fuzz", "--oracle", oracle, "--seed", "1", "--count", "20", "--jobs", "2", "--known",
        ]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(stdout.contains("summary: 20 programs"), "{stdout}");
        assert!(stdout.contains("rule coverage"), "{stdout}");
        assert!(stdout.contains(rule), "{stdout}");
    }
}
