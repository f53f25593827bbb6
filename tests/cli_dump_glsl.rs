//! `runestone compile FILE --dump glsl` end to end: each top-level SOAC of
//! the IR is listed with its generated kernel, in statement order; a map
//! lambda reading a scalar of the enclosing scope reads it from the kernel's
//! environment, and an operator reading one is listed as running on the
//! host with the reason.

mod common;

use common::runestone;

/// The `// function …` header lines of `--dump glsl` for `program`.
fn listing_headers(name: &str, program: &str) -> Vec<String> {
    listing(name, program)
        .lines()
        .filter(|line| line.starts_with("// function "))
        .map(str::to_owned)
        .collect()
}

/// The whole `--dump glsl` listing of `program`.
fn listing(name: &str, program: &str) -> String {
    let path = std::env::temp_dir().join(format!("runestone-{name}-{}.fut", std::process::id()));
    std::fs::write(&path, program).expect("temporary file");
    let path_text = path.display().to_string();
    let output = runestone(&["compile", &path_text, "--dump", "glsl"]);
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Every listed kernel comes with its GLSL.
    assert_eq!(
        stdout.matches("#version 450").count(),
        stdout.matches("): kernel ").count(),
        "{stdout}"
    );
    stdout
}

fn check(name: &str, program: &str, expected_fragments: &[&str]) {
    let headers = listing_headers(name, program);
    assert_eq!(headers.len(), expected_fragments.len(), "{headers:#?}");
    for (header, fragment) in headers.iter().zip(expected_fragments) {
        assert!(header.contains(fragment), "{header} lacks {fragment}");
    }
}

#[test]
fn map_reduce_filter_each_get_a_kernel() {
    check(
        "glsl-map-reduce-filter",
        "def main (xs: []i32) : (i32, []i32) =\n  \
         let ys = map (\\x -> x * 2 + 1) xs\n  \
         in (reduce (+) 0 ys, filter (\\y -> y % 3 == 0) ys)\n",
        &[
            "(map): kernel map_i32_to_i32",
            "(reduce): kernel reduce_ordered_i32",
            "(filter): kernel filter_compaction_i32",
        ],
    );
}

#[test]
fn a_map_lambda_reads_a_scalar_of_the_enclosing_scope_from_the_environment() {
    let program = "def main (k: f32) (xs: []f32) : []f32 = map (\\x -> x * k) xs\n";
    check(
        "glsl-free-variable",
        program,
        &["(map): kernel map_f32_to_f32"],
    );
    let text = listing("glsl-free-variable-text", program);
    assert!(
        text.contains("layout(std430, set = 1, binding = 0) readonly buffer EnvironmentScalars")
            && text.contains("uintBitsToFloat(environment_scalars.words[0])"),
        "{text}"
    );
}

#[test]
fn an_operator_reading_an_enclosing_variable_runs_on_the_host() {
    check(
        "glsl-free-variable-operator",
        "def main (k: i32) (xs: []i32) : i32 = reduce (\\a b -> a + b * k) 0 xs\n",
        &["(reduce): runs on the host: not translated to GPU code: the variable"],
    );
}
