//! What `test` and `bench` share: a program read with its `-- ==` blocks
//! ([`spec::testblock`]), the programs under some paths, and how a case and
//! values are named in reports.

use spec::source::{FileId, SourceMap};
use spec::testblock::{parse_test_file, Case, Input, TestBlock};
use spec::value::Value;
use std::path::{Path, PathBuf};

/// A program and its test blocks.
pub struct TestProgram {
    /// The path as given (relative paths stay relative), for reports.
    pub name: String,
    /// The directory `@ FILE` names are relative to.
    pub dir: PathBuf,
    pub sources: SourceMap,
    pub file: FileId,
    pub blocks: Vec<TestBlock>,
}

/// Reads `path` and parses its blocks; the error is a report (rendered
/// diagnostics included).
pub fn read_test_program(path: &Path) -> Result<TestProgram, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let mut sources = SourceMap::new();
    let file = sources.add(name.clone(), text.clone());
    let blocks = match parse_test_file(file, &text) {
        Ok(parsed) => parsed.blocks,
        Err(diagnostics) => {
            let rendered: Vec<String> = diagnostics.iter().map(|d| d.render(&sources)).collect();
            return Err(format!("{name}: bad test block\n{}", rendered.join("")));
        }
    };
    Ok(TestProgram {
        name,
        dir: path.parent().unwrap_or(Path::new(".")).to_path_buf(),
        sources,
        file,
        blocks,
    })
}

/// Every `.fut` file under `paths` (directories recursively), sorted per path.
pub fn programs_under(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        reference::core::harness::collect_programs(path, &mut files);
    }
    files
}

/// `#3` or the case's quoted name, and its input in short:
/// `#0 (random input { [1000]f32 })`.
pub fn case_label(index: usize, case: &Case) -> String {
    let id = match &case.name {
        Some(name) => format!("{name:?}"),
        None => format!("#{index}"),
    };
    let input = match &case.input {
        Input::Values(raw) => format!("input {{ {} }}", shorten(&raw.text, 40)),
        Input::ValuesFile(file) => format!("input @ {}", file.path),
        Input::Random(raw) => format!("random input {{ {} }}", shorten(&raw.text, 60)),
        Input::Script(raw) => format!("script input {{ {} }}", shorten(&raw.text, 40)),
        Input::ScriptFile(file) => format!("script input @ {}", file.path),
    };
    format!("{id} ({input})")
}

/// Values on one line, at most about 200 characters.
pub fn one_line(values: &[Value]) -> String {
    shorten(&spec::value::print_values(values), 200)
}

/// `text` with whitespace collapsed, cut at `limit` characters with `...`.
fn shorten(text: &str, limit: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= limit {
        collapsed
    } else {
        let cut: String = collapsed.chars().take(limit).collect();
        format!("{cut} ...")
    }
}
