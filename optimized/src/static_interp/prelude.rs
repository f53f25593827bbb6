//! The prelude files interpreted before every program: every
//! `spec/prelude/*.fut`, sorted by file name (listed by `optimized/build.rs`
//! at build time), read as ordinary declarations whose bindings are in
//! scope in the program (a program's own declarations shadow them).

use spec::diagnostic::Diagnostic;
use spec::source::FileId;
use spec::syntax::ast::Program;

/// The prelude files: (file name, text), sorted by file name.
pub const PRELUDE_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/prelude_files.rs"));

/// The file id of prelude file number `index` (ids from the top of the
/// range, below those the type checker's built-ins use).
pub fn prelude_file_id(index: usize) -> FileId {
    FileId(u32::MAX - 100 - index as u32)
}

/// The prelude files parsed, in order.
pub fn programs() -> Result<Vec<Program>, Diagnostic> {
    PRELUDE_FILES
        .iter()
        .enumerate()
        .map(|(index, (_, text))| spec::syntax::parse_program(prelude_file_id(index), text))
        .collect()
}
