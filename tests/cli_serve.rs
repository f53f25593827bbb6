//! `runestone serve` end to end, without a client library: a protocol
//! session on stdin for each backend CI has without a device (the real
//! Python clients are `tests/python/server_clients.py`, run by `.ci/run`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `runestone serve ARGS` with `session` on stdin: (exit code, stdout,
/// stderr).
fn serve(args: &[&str], session: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_runestone"))
        .arg("serve")
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runestone runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // A program the server rejects exits before reading its input.
    let _ = stdin.write_all(session.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("runestone finishes");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_session_restores_calls_stores_and_reports_failures() {
    let dir = std::env::temp_dir().join(format!("runestone-cli-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("in.txt");
    std::fs::write(&input, "[1.0f64, 2.0f64, 3.0f64, 6.0f64] [10u8, 20u8] 5i64").expect("write");
    let input = input.display();
    for backend in ["reference", "cpu"] {
        let output = dir.join(format!("out-{backend}.bin"));
        let session = format!(
            "entry_points\n\
             outputs mean_and_spread\n\
             restore {input} xs []f64 bytes []u8 i i64\n\
             call mean_and_spread mean spread xs\n\
             store {} mean spread\n\
             call pick b bytes i\n\
             call pick b2 xs i\n\
             free xs bytes\n\
             type xs\n",
            output.display()
        );
        let (code, stdout, stderr) = serve(
            &["tests/programs/server/statistics.fut", "--backend", backend],
            &session,
        );
        assert_eq!(code, Some(0), "{backend}: {stderr}");
        let answers: Vec<&str> = stdout.split("%%% OK\n").collect();
        // Start-up, nine commands, and the empty rest after the last `%%% OK`.
        assert_eq!(answers.len(), 11, "{backend}: {stdout}");
        assert_eq!(answers[0], "");
        assert!(
            answers[1].starts_with("mean_and_spread\nhistogram\n"),
            "{stdout}"
        );
        assert_eq!(answers[2], "f64\nf64\n");
        assert_eq!(answers[3], "");
        assert!(answers[4].starts_with("runtime: "), "{stdout}");
        let stored = std::fs::read(&output).expect("stored values");
        let values = spec::value::read_values(&stored).expect("binary values");
        assert_eq!(
            spec::value::print_values(&values),
            "3.0f64\n3.5f64\n",
            "{backend}"
        );
        assert!(
            answers[6].starts_with("%%% FAILURE\nError at ")
                && answers[6].contains("out of bounds"),
            "{backend}: {}",
            answers[6]
        );
        assert!(
            answers[7].starts_with("%%% FAILURE\ninput 0 of `pick` has type []u8"),
            "{}",
            answers[7]
        );
        assert_eq!(answers[8], "");
        assert_eq!(answers[9], "%%% FAILURE\nunknown variable `xs`\n");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_rejected_program_exits_1_before_the_protocol_starts() {
    let (code, stdout, stderr) = serve(&["tests/programs/restrictions/type_mismatch.fut"], "");
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("error"), "{stderr}");
}
