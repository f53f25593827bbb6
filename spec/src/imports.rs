//! The one file-system import rule, for every implementation (SPEC_NOTES
//! ICFP18-17): `import "p"` in a file named `dir/f.fut` reads `dir/p.fut`;
//! each file is read and parsed once (one file, one [`FileId`]), however
//! many files import it. Files are added to the caller's [`SourceMap`] so
//! that diagnostics in them render.

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::Program;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The code of a failed import.
pub const IMPORT: &str = "import";

/// The file `import "path"` names in the file called `importer`.
pub fn import_path(importer: &str, path: &str) -> PathBuf {
    Path::new(importer)
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join(format!("{path}.fut"))
}

/// An imported file, parsed.
#[derive(Clone, Debug)]
pub struct Imported {
    pub file: FileId,
    pub program: Rc<Program>,
    /// Whether this import read the file (false: an earlier one did).
    pub first_time: bool,
}

/// The files imported so far, by canonical path.
#[derive(Default)]
pub struct ImportedFiles {
    read: HashMap<PathBuf, (FileId, Rc<Program>)>,
}

impl ImportedFiles {
    pub fn new() -> ImportedFiles {
        ImportedFiles::default()
    }

    /// `import "path"` at `from` (in a file of `sources`): the file it
    /// names, read and parsed on the first import only. A missing or
    /// unreadable file is a located diagnostic with code [`IMPORT`]; a
    /// syntax error in it, its own diagnostic.
    pub fn import(
        &mut self,
        sources: &mut SourceMap,
        from: Span,
        path: &str,
    ) -> Result<Imported, Diagnostic> {
        let candidate = import_path(&sources.get(from.file).name, path);
        let not_found = |why: String| {
            Diagnostic::error(format!("cannot import \"{path}\": {why}"))
                .with_code(IMPORT)
                .with_primary(from, format!("looked for {}", candidate.display()))
        };
        let key = candidate
            .canonicalize()
            .map_err(|error| not_found(error.to_string()))?;
        if let Some((file, program)) = self.read.get(&key) {
            return Ok(Imported {
                file: *file,
                program: program.clone(),
                first_time: false,
            });
        }
        let text = std::fs::read_to_string(&key).map_err(|error| not_found(error.to_string()))?;
        let file = sources.add(candidate.display().to_string(), text);
        let program = Rc::new(crate::syntax::parse_program(file, &sources.get(file).text)?);
        self.read.insert(key, (file, program.clone()));
        Ok(Imported {
            file,
            program,
            first_time: true,
        })
    }
}
