//! The memory limit end to end (SPEC_NOTES TFP18-29): `--memory-limit` is
//! read and checked, and the live-heap check — which only the `runestone`
//! binary has, its allocator counting the heap — refuses an array that is
//! built row by row in small steps, where every single request fits.

mod common;

use common::{runestone_with_stdin, text, ScratchDirectory};

/// A program whose result has `n` rows of `m` elements, each row built by
/// its own small `replicate`.
fn rows_program() -> (ScratchDirectory, std::path::PathBuf) {
    let dir = ScratchDirectory::new("cli-limits");
    let path = dir.join("rows.fut");
    std::fs::write(
        &path,
        "entry main (n: i64) (m: i64) : [][]i64 = map (\\i -> replicate m i) (iota n)\n",
    )
    .expect("write program");
    (dir, path)
}

#[test]
fn a_malformed_memory_limit_is_a_usage_error() {
    let out = runestone_with_stdin(
        &[
            "run",
            "--memory-limit",
            "12X",
            "examples/paper/tfp18_fig1a.fut",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("unknown unit `X`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn rows_built_one_by_one_are_refused_once_the_heap_reaches_the_limit() {
    let (_directory, program) = rows_program();
    let program = program.to_str().expect("utf-8 path");
    // 100 000 rows of 100 000 i64: 80 GB in all, 800 KB per row; the
    // reference builds the rows one by one, each row's `replicate` fits by
    // itself, and the heap they fill reaches 256 MiB after a few hundred.
    let out = runestone_with_stdin(
        &[
            "run",
            "--backend",
            "reference",
            "--memory-limit",
            "256M",
            program,
        ],
        b"100000i64 100000i64",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("rows.fut:1:53: allocating 800000 bytes (781.2 KiB) while"),
        "{stderr}"
    );
    assert!(
        stderr.contains("are in use exceeds the memory limit of 268435456 bytes"),
        "{stderr}"
    );
    // The CPU backend allocates the map's output at once: refused as one
    // request past the limit, at the `map`.
    let out = runestone_with_stdin(
        &["run", "--backend", "cpu", "--memory-limit", "256M", program],
        b"100000i64 100000i64",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("rows.fut:1:42: allocating 80000000000 bytes (74.5 GiB) exceeds"),
        "{stderr}"
    );
    // Within the limit the same program runs.
    let out = runestone_with_stdin(
        &[
            "run",
            "--backend",
            "reference",
            "--memory-limit",
            "256M",
            program,
        ],
        b"2i64 3i64",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim(),
        "[[0i64, 0i64, 0i64], [1i64, 1i64, 1i64]]"
    );
}
