//! Source files and locations.
//!
//! A [`Span`] is a byte range in one file of a [`SourceMap`]. Spans are *locations*,
//! not structure: two syntax trees that differ only in where they were parsed from
//! are the same tree, so `Span`'s equality and hash ignore its contents (the same
//! convention `syn` follows for its tokens). Code that cares about a location reads
//! the fields.

use std::hash::{Hash, Hasher};

/// An index into a [`SourceMap`].
#[derive(Clone, Copy, Debug, Default, PartialOrd, Ord)]
pub struct FileId(pub u32);

impl PartialEq for FileId {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl Eq for FileId {}

impl FileId {
    /// The smallest of the ids reserved for built-in files (the prelude
    /// files each phase reads); a [`SourceMap`] hands out ids below it.
    pub const FIRST_RESERVED: u32 = u32::MAX - 1000;

    /// Whether this is a reserved id (a built-in file's).
    pub fn is_reserved(self) -> bool {
        self.0 >= FileId::FIRST_RESERVED
    }
}

/// A byte range `start..end` in file `file`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Whether two spans are the same location (unlike `==`, which ignores spans).
    pub fn same_location(&self, other: &Span) -> bool {
        self.file == other.file && self.start == other.start && self.end == other.end
    }

    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Spans never distinguish two trees: see the module documentation.
impl PartialEq for Span {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}
impl Eq for Span {}
impl Hash for Span {
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

/// One source file: its name as given by the user and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    fn new(name: String, text: String) -> SourceFile {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name,
            text,
            line_starts,
        }
    }

    /// Zero-based line index of byte offset `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte range of the zero-based line `line`, without its newline.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        let start = *self.line_starts.get(line)?;
        let end = self
            .line_starts
            .get(line + 1)
            .map(|next| next - 1)
            .unwrap_or(self.text.len());
        Some(start..end)
    }

    /// One-based `(line, column)` of byte offset `offset`; the column counts
    /// characters, not bytes.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_index(offset);
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line + 1, column + 1)
    }
}

/// All files a run has read, addressed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        FileId((self.files.len() - 1) as u32)
    }

    /// The file `id`: one added to this map, else a built-in file
    /// registered with [`register_builtin_file`] (the prelude files a phase
    /// reads under reserved ids), else an empty file named `<unknown file>`
    /// (so a diagnostic with a stray id still renders instead of panicking).
    pub fn get(&self, id: FileId) -> &SourceFile {
        match self.files.get(id.0 as usize) {
            Some(file) => file,
            None => builtin_file(id),
        }
    }

    /// `file:line:col` of the start of `span`.
    pub fn describe(&self, span: Span) -> String {
        let file = self.get(span.file);
        let (line, column) = file.line_column(span.start as usize);
        format!("{}:{}:{}", file.name, line, column)
    }
}

/// Built-in files (prelude sources) addressed by reserved ids, shared by
/// every [`SourceMap`]; each registered once and kept for the process.
static BUILTIN_FILES: std::sync::OnceLock<
    std::sync::Mutex<std::collections::HashMap<u32, &'static SourceFile>>,
> = std::sync::OnceLock::new();

/// Registers `text` as the built-in file `id` (a reserved id above every id
/// a [`SourceMap`] hands out). Registering an id again keeps the first file.
pub fn register_builtin_file(id: FileId, name: &str, text: &str) {
    let mut files = BUILTIN_FILES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    files.entry(id.0).or_insert_with(|| {
        Box::leak(Box::new(SourceFile::new(
            name.to_string(),
            text.to_string(),
        )))
    });
}

fn builtin_file(id: FileId) -> &'static SourceFile {
    let files = BUILTIN_FILES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(file) = files.get(&id.0) {
        return file;
    }
    static UNKNOWN: std::sync::OnceLock<SourceFile> = std::sync::OnceLock::new();
    UNKNOWN.get_or_init(|| SourceFile::new("<unknown file>".to_string(), String::new()))
}
