//! Program discovery: the `.fut` files under some paths, the one walker of
//! the file system every command and corpus test uses.

use std::path::{Path, PathBuf};

/// Every `.fut` file under `paths` (directories recursively, each sorted by
/// name); a path that is a file is taken as it is, whatever its extension.
pub fn programs_under(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            collect(path, &mut files);
        } else {
            files.push(path.clone());
        }
    }
    files
}

fn collect(directory: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(directory)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            collect(&entry, out);
        } else if entry.extension().is_some_and(|e| e == "fut") {
            out.push(entry);
        }
    }
}
