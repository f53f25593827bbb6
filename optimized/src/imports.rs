//! `import "path"` for the optimising front end: the one file-system import
//! rule of [`spec::imports`] behind the type checker's [`ImportLoader`]. The
//! loader owns the source map the imported files are added to, so it can be
//! handed to the pipeline while the caller keeps nothing borrowed; take the
//! map back with [`FileImports::into_sources`].

use crate::typecheck::ImportLoader;
use spec::diagnostic::Diagnostic;
use spec::imports::ImportedFiles;
use spec::source::{FileId, SourceMap, Span};
use spec::syntax::ast::Program;
use std::rc::Rc;

/// An [`ImportLoader`] over the file system.
pub struct FileImports {
    pub sources: SourceMap,
    files: ImportedFiles,
}

impl FileImports {
    /// A loader adding the files it reads to `sources`.
    pub fn new(sources: SourceMap) -> FileImports {
        FileImports {
            sources,
            files: ImportedFiles::new(),
        }
    }

    /// The source map, with every file read so far.
    pub fn into_sources(self) -> SourceMap {
        self.sources
    }
}

impl ImportLoader for FileImports {
    fn load(&mut self, from: Span, path: &str) -> Result<(FileId, Rc<Program>), Diagnostic> {
        let imported = self.files.import(&mut self.sources, from, path)?;
        Ok((imported.file, imported.program))
    }
}
