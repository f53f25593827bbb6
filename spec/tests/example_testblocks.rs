//! Every `.fut` file under `examples/` has well-formed test blocks, and every
//! block names the entry points and cases its file means to test.

use spec::source::SourceMap;
use spec::testblock::{parse_test_file, BlockKind};
use std::path::{Path, PathBuf};

fn fut_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            fut_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "fut") {
            out.push(path);
        }
    }
}

#[test]
fn example_test_blocks_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files = Vec::new();
    fut_files(&root, &mut files);
    let mut sources = SourceMap::new();
    let mut failures = Vec::new();
    let mut cases = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable example");
        let file = sources.add(path.display().to_string(), text.clone());
        match parse_test_file(file, &text) {
            Ok(parsed) => {
                for block in &parsed.blocks {
                    if let BlockKind::Cases(block_cases) = &block.kind {
                        cases += block_cases.len() * block.entries.len();
                    }
                }
            }
            Err(errors) => failures.extend(errors.iter().map(|e| e.render(&sources))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // paper/: segscan 3, fig3 3, tfp18_fig1a 1 + 3, life 2*2 + 3*2 + 1;
    // syntax/: modules 2, expressions 1.
    assert_eq!(cases, 24, "test cases (times entry points) in examples/");
}
