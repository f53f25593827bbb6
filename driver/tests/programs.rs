//! The corpus harness: every program with `-- ==` blocks under
//! `tests/programs/`, `examples/` and `benches/programs/`, on every backend,
//! one test per program per backend (`cpu::tests/programs/soacs/scan.fut`),
//! each running every case of the program through the driver
//! ([`driver::cases::test_program`]) exactly as `runestone test` does. The
//! reference checks TFP'18 Theorems 1–2 and Corollary 1 on every case and
//! Proposition 6.1 on every module program, so a violated theorem fails its
//! program.
//!
//! The CPU backend runs each program a second time through the segmented IR
//! (`cpu-segmented::…`, `runestone test --segmented`), so flattening meets
//! every program of the corpus.
//!
//! The programs a backend is known to fail are listed, one path a line, in
//! `tests/expected_failures/BACKEND.txt` (`cpu-segmented.txt` for the
//! segmented path): a listed program that passes fails
//! its test (take it off the list), and so does an unlisted one that fails.
//! The gpu backend runs where a Vulkan device can be opened (lavapipe on
//! machines without a GPU); elsewhere its tests are not generated and a line
//! says why.
//!
//! `cargo test -p driver --test programs -- FILTER` runs a subset, as with
//! the built-in harness.

use driver::cases::test_program;
use driver::discover::programs_under;
use driver::load::availability;
use driver::{Backend, LoadOptions};
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folders of the corpus, relative to the repository root.
const CORPUS: [&str; 3] = ["tests/programs", "examples", "benches/programs"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `path` relative to the repository root, with `/` separators.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The programs configuration `name` (a backend, or `cpu-segmented`) is
/// known to fail.
fn expected_failures(name: &str) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expected_failures")
        .join(format!("{name}.txt"));
    std::fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Whether the program has a `-- ==` line (programs without one are
/// libraries and examples without tests).
fn has_test_blocks(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .map(|text| text.lines().any(|line| line.trim() == "-- =="))
        .unwrap_or(true)
}

/// One program in one configuration (`name`: its backend and options),
/// judged against the expected-failure list.
fn check(
    path: &Path,
    (name, backend, options): (&str, Backend, LoadOptions),
    expected_to_fail: bool,
) -> Result<(), Failed> {
    let report = test_program(path, backend, options, &[]);
    match (report.failures.is_empty(), expected_to_fail) {
        (true, false) | (false, true) => Ok(()),
        (true, true) => Err(format!(
            "passes ({} cases) but is listed in driver/tests/expected_failures/{name}.txt: take it \
             off the list",
            report.passed,
        )
        .into()),
        (false, false) => Err(report.failures.join("\n").into()),
    }
}

fn main() {
    let arguments = Arguments::from_args();
    let programs: Vec<PathBuf> = programs_under(&CORPUS.map(|folder| root().join(folder)))
        .into_iter()
        .filter(|path| has_test_blocks(path))
        .collect();
    assert!(
        programs.len() >= 300,
        "only {} programs with test blocks",
        programs.len()
    );
    // The GPU runtime is one per process: its programs run one at a time.
    static ONE_GPU_PROGRAM_AT_A_TIME: Mutex<()> = Mutex::new(());
    let mut trials = Vec::new();
    let segmented = LoadOptions {
        segmented: true,
        ..LoadOptions::default()
    };
    let configurations = Backend::ALL
        .map(|backend| (backend.name(), backend, LoadOptions::default()))
        .into_iter()
        .chain([("cpu-segmented", Backend::Cpu, segmented)]);
    for configuration in configurations {
        let (name, backend, _) = configuration;
        if let Err(reason) = availability(backend) {
            eprintln!("corpus: the {name} backend's tests are not generated: {reason}");
            continue;
        }
        let listed = expected_failures(name);
        let names: BTreeSet<String> = programs.iter().map(|p| relative(p)).collect();
        let stale: Vec<&String> = listed.difference(&names).collect();
        assert!(
            stale.is_empty(),
            "driver/tests/expected_failures/{name}.txt lists programs that do not exist: \
             {stale:?}"
        );
        for path in &programs {
            let program = relative(path);
            let expected_to_fail = listed.contains(&program);
            let path = path.clone();
            trials.push(Trial::test(format!("{name}::{program}"), move || {
                if backend == Backend::Gpu {
                    let _one = ONE_GPU_PROGRAM_AT_A_TIME
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                    check(&path, configuration, expected_to_fail)
                } else {
                    check(&path, configuration, expected_to_fail)
                }
            }));
        }
    }
    libtest_mimic::run(&arguments, trials).exit();
}
