//! The values of a test case: its arguments (`input { ... }`, `input @ FILE`,
//! `random input { TYPES }`) and its expected results (`output { ... }`,
//! `output @ FILE`), as `futhark test` and `futhark bench` produce them.
//!
//! - `@ FILE` names a file relative to the program's directory holding values
//!   in Futhark's textual or binary format (or both mixed), as
//!   [`crate::value::read_values`] reads them.
//! - `random input { [1000]f32 i64 }` generates one value per type with
//!   [`crate::value::random_values`] (integers over their full range, floats in
//!   `[0, 1)`, booleans), seeded by [`random_seed`]: a hash of the type text, so
//!   a case gets the same values on every run, every machine and every backend,
//!   and adding or moving other cases does not change them.
//! - `script input` is not supported (it needs FutharkScript) and `auto output`
//!   is the caller's decision (it needs a second backend); both are reported,
//!   never silently passed.
//!
//! Every failure is a [`Diagnostic`] located in the program (at the value text
//! or the file name) or, for a malformed data file, in the data file, which is
//! then added to the [`SourceMap`].

use super::{Case, DataFile, Expected, Input, RawText};
use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;
use crate::value::{diagnostic_text, random_values, read_types, read_values, Value};
use std::path::Path;

/// The arguments of `case` of a program in `program_dir`.
pub fn case_input(
    case: &Case,
    program_dir: &Path,
    sources: &mut SourceMap,
) -> Result<Vec<Value>, Diagnostic> {
    match &case.input {
        Input::Values(raw) => values_in_block(raw),
        Input::ValuesFile(file) => values_in_file(file, program_dir, sources),
        Input::Random(raw) => random_input(raw),
        Input::Script(raw) => Err(script_unsupported(raw.span)),
        Input::ScriptFile(file) => Err(script_unsupported(file.span)),
    }
}

/// The expected results of a case, when it names them (`output { ... }` or
/// `output @ FILE`); `None` for every other outcome.
pub fn case_expected_output(
    expected: &Expected,
    program_dir: &Path,
    sources: &mut SourceMap,
) -> Result<Option<Vec<Value>>, Diagnostic> {
    match expected {
        Expected::Output(raw) => values_in_block(raw).map(Some),
        Expected::OutputFile(file) => values_in_file(file, program_dir, sources).map(Some),
        Expected::Success | Expected::AutoOutput | Expected::RuntimeError(_) => Ok(None),
    }
}

/// The seed of `random input { text }`: FNV-1a (64 bits) of the types with
/// their whitespace collapsed to single spaces.
pub fn random_seed(types_text: &str) -> u64 {
    let normalised = types_text.split_whitespace().collect::<Vec<_>>().join(" ");
    normalised
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// Values written inside the block: errors point into the program.
fn values_in_block(raw: &RawText) -> Result<Vec<Value>, Diagnostic> {
    read_values(raw.text.as_bytes()).map_err(|e| {
        Diagnostic::error(e.message)
            .with_code("value")
            .with_primary(raw.sub_span(e.start..e.end), e.expected)
    })
}

/// Values read from a data file: a missing file is an error at its name in the
/// program, a malformed one an error in the file itself.
fn values_in_file(
    file: &DataFile,
    program_dir: &Path,
    sources: &mut SourceMap,
) -> Result<Vec<Value>, Diagnostic> {
    let path = file.resolve(program_dir);
    let bytes = std::fs::read(&path).map_err(|e| {
        Diagnostic::error(format!("cannot read data file {}: {e}", path.display()))
            .with_code("data-file")
            .with_primary(file.span, "named here, relative to the program's directory")
    })?;
    read_values(&bytes).map_err(|e| {
        let id = sources.add(path.display().to_string(), diagnostic_text(&bytes));
        e.to_diagnostic(id)
    })
}

/// `random input { TYPES }`: one value per type, seeded by [`random_seed`].
fn random_input(raw: &RawText) -> Result<Vec<Value>, Diagnostic> {
    let types = read_types(raw.text.as_bytes()).map_err(|e| {
        Diagnostic::error(e.message)
            .with_code("random-input")
            .with_primary(raw.sub_span(e.start..e.end), e.expected)
    })?;
    random_values(&types, random_seed(&raw.text)).map_err(|e| {
        Diagnostic::error(e.message)
            .with_code("random-input")
            .with_primary(raw.span, "these types")
    })
}

fn script_unsupported(span: crate::source::Span) -> Diagnostic {
    Diagnostic::error("`script input` is not supported: runestone has no FutharkScript")
        .with_code("script-input")
        .with_primary(
            span,
            "write the values with `input { ... }` or `input @ FILE`",
        )
}
