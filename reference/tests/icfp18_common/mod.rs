//! Shared by the ICFP'18 test binaries: the test programs under
//! `tests/modules/` and running the reference on one of them.

#![allow(dead_code)]

use reference::modules::{check_program, error::Failure, paper_core::PaperCore, Checked};
use spec::source::SourceMap;
use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("reference/ has a parent")
        .to_path_buf()
}

/// The `.fut` files of a directory, sorted.
pub fn programs(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace().join(dir))
        .unwrap_or_else(|err| panic!("cannot read {dir}: {err}"))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "fut"))
        .collect();
    files.sort();
    files
}

/// Parses and checks one program over the paper's core; a syntax error is a
/// failure named `syntax`.
pub fn check_file(path: &Path) -> Result<Checked<PaperCore>, Failure> {
    let text = std::fs::read_to_string(path).expect("test program is readable");
    check_text(&path.display().to_string(), &text)
}

pub fn check_text(name: &str, text: &str) -> Result<Checked<PaperCore>, Failure> {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    let program = spec::syntax::parse_program(file, text).map_err(|diagnostic| {
        Failure::new(
            "syntax",
            diagnostic.message,
            String::new(),
            Default::default(),
        )
    })?;
    check_program::<PaperCore>(&program)
}
