//! Reading `import "path"` from the file system: `path.fut` relative to the
//! importing file, each file read and parsed once (one file, one id). The
//! loader owns the source map the imported files are added to, so it can be
//! handed to the pipeline while the caller keeps nothing borrowed; take the
//! map back with [`FileImports::into_sources`].

use crate::typecheck::ImportLoader;
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap, Span};
use spec::syntax::ast::Program;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// An [`ImportLoader`] over the file system.
pub struct FileImports {
    pub sources: SourceMap,
    cache: HashMap<PathBuf, (FileId, Rc<Program>)>,
}

impl FileImports {
    /// A loader adding the files it reads to `sources`.
    pub fn new(sources: SourceMap) -> FileImports {
        FileImports {
            sources,
            cache: HashMap::new(),
        }
    }

    /// The source map, with every file read so far.
    pub fn into_sources(self) -> SourceMap {
        self.sources
    }
}

impl ImportLoader for FileImports {
    fn load(&mut self, from: Span, path: &str) -> Result<(FileId, Rc<Program>), Diagnostic> {
        let importer = Path::new(&self.sources.get(from.file).name);
        let candidate = importer
            .parent()
            .unwrap_or_else(|| Path::new("."))
            .join(format!("{path}.fut"));
        let not_found = |why: String| {
            Diagnostic::error(format!("cannot import \"{path}\": {why}"))
                .with_code("import")
                .with_primary(from, format!("looked for {}", candidate.display()))
        };
        let key = candidate
            .canonicalize()
            .map_err(|error| not_found(error.to_string()))?;
        if let Some(found) = self.cache.get(&key) {
            return Ok(found.clone());
        }
        let text = std::fs::read_to_string(&key).map_err(|error| not_found(error.to_string()))?;
        let file = self.sources.add(candidate.display().to_string(), text);
        let program = Rc::new(spec::syntax::parse_program(
            file,
            &self.sources.get(file).text,
        )?);
        self.cache.insert(key, (file, program.clone()));
        Ok((file, program))
    }
}
