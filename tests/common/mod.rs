//! What the CLI tests (`tests/cli_*.rs`) share: the `runestone` binary of
//! this build, run in the repository root with arguments, an environment
//! and stdin, and its output as text.

// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `runestone ARGS` in the repository root, not started yet.
pub fn runestone_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_runestone"));
    command
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    command
}

/// `runestone ARGS`, run to its end.
pub fn runestone(args: &[&str]) -> Output {
    runestone_with_environment(args, &[])
}

/// `runestone ARGS` with the variables of `environment` set.
pub fn runestone_with_environment(args: &[&str], environment: &[(&str, &str)]) -> Output {
    runestone_command(args)
        .envs(environment.iter().copied())
        .output()
        .expect("runestone runs")
}

/// `runestone ARGS` reading `stdin` (which it may leave unread: a program
/// that does not compile exits first).
pub fn runestone_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = runestone_command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runestone runs");
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("runestone ends")
}

/// `runestone ARGS`: the exit code (-1 when killed by a signal), stdout and
/// stderr.
pub fn runestone_code_and_text(args: &[&str]) -> (i32, String, String) {
    let output = runestone(args);
    (
        output.status.code().unwrap_or(-1),
        text(&output.stdout),
        text(&output.stderr),
    )
}

/// Bytes of output as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A directory of this test process under the system's temporary
/// directory, removed with everything in it when dropped (also when the
/// test fails).
pub struct ScratchDirectory(PathBuf);

impl ScratchDirectory {
    /// `runestone-LABEL-PID`, created empty.
    pub fn new(label: &str) -> ScratchDirectory {
        let path = std::env::temp_dir().join(format!("runestone-{label}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temporary directory");
        ScratchDirectory(path)
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for ScratchDirectory {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
