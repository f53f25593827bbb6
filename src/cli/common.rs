//! What every subcommand shares: reading source files into a [`SourceMap`],
//! printing diagnostics, running work on a thread with a large stack, and
//! the `--segmented` choice of `run`, `test` and `bench` ([`IrChoice`]).

use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap};
use std::path::Path;
use std::process::ExitCode;

/// A source file read for a command: the map holding it and its id.
pub struct LoadedSource {
    pub sources: SourceMap,
    pub file: FileId,
}

impl LoadedSource {
    pub fn text(&self) -> &str {
        &self.sources.get(self.file).text
    }
}

/// Reads `path` (UTF-8 text) or explains on stderr why it cannot.
pub fn read_source(path: &Path) -> Result<LoadedSource, ExitCode> {
    let bytes = std::fs::read(path).map_err(|err| {
        eprintln!("error: cannot read {}: {err}", path.display());
        ExitCode::from(1)
    })?;
    let text = String::from_utf8(bytes).map_err(|err| {
        eprintln!(
            "error: {} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            err.utf8_error().valid_up_to()
        );
        ExitCode::from(1)
    })?;
    let mut sources = SourceMap::new();
    let file = sources.add(path.display().to_string(), text);
    Ok(LoadedSource { sources, file })
}

/// Prints `diagnostic` on stderr and returns exit status 1.
pub fn report(diagnostic: &Diagnostic, sources: &SourceMap) -> ExitCode {
    eprint!("{}", diagnostic.render(sources));
    ExitCode::from(1)
}

/// Prints why `backend` is unavailable and returns exit status 2.
pub fn unavailable_exit(backend: driver::Backend, reason: &str) -> ExitCode {
    eprintln!(
        "runestone: the {backend} backend is unavailable ({reason}); use --backend cpu or reference."
    );
    ExitCode::from(2)
}

/// Prints why a program gives no program for a backend and returns its
/// exit status: 2 when the backend is unavailable, 1 otherwise (rejected,
/// unsupported, or an internal failure: a diagnostic was printed).
pub fn load_error_exit(error: &driver::LoadError, sources: &SourceMap) -> ExitCode {
    match error {
        driver::LoadError::Unavailable { backend, reason } => unavailable_exit(*backend, reason),
        other => {
            eprint!("{}", other.render(sources));
            ExitCode::from(1)
        }
    }
}

/// Reads `path` and compiles it for `backend`: the program, and the source
/// map its diagnostics and run-time errors refer to; or the exit status
/// after the reason was printed (see [`load_error_exit`]).
pub fn load_program(
    path: &Path,
    backend: driver::Backend,
    options: driver::LoadOptions,
) -> Result<(LoadedSource, Box<dyn driver::LoadedProgram>), ExitCode> {
    let mut loaded = read_source(path)?;
    match driver::load(backend, &mut loaded.sources, loaded.file, options) {
        Ok(program) => Ok((loaded, program)),
        Err(error) => Err(load_error_exit(&error, &loaded.sources)),
    }
}

/// Which IR `run`, `test` and `bench` run on the compiled backends.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct IrChoice {
    /// `cpu` and `gpu`: run through the segmented IR (the fused IR
    /// flattened into `segmap`/`segred`/`segscan`, `runestone compile
    /// --dump seg`) instead of the SOAC IR, while both paths exist (each
    /// operation one SOAC over its whole index space; on `gpu` one kernel
    /// where its body allows); the reference ignores it.
    #[arg(long)]
    pub segmented: bool,
}

/// The format of `--trace` (`check`, `run --backend reference`, `defunc`,
/// `nested`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// The derivation one node a line, indented by depth, before the
    /// command's usual output.
    Text,
    /// One JSON document on stdout (schema
    /// `proofs-notes/derivation.schema.json`) holding the derivation, the
    /// verdict and the command's usual output.
    Json,
}

/// Runs `work`, recording the reference's derivation when `--trace` asked
/// for it (else the derivation is empty and nothing is recorded).
pub fn record_if_traced<R>(
    trace: Option<TraceFormat>,
    work: impl FnOnce() -> R,
) -> (R, reference::derivation::Derivation) {
    match trace {
        Some(_) => reference::derivation::record(work),
        None => (work(), reference::derivation::Derivation::default()),
    }
}

/// What a command that can trace did: what it prints on stdout, its exit
/// status, and the derivation it recorded (empty without `--trace`) with
/// its verdict (`runestone explain` runs these commands and keeps both).
pub struct Executed {
    pub stdout: String,
    pub exit: ExitCode,
    pub derivation: reference::derivation::Derivation,
    pub verdict: reference::derivation::Verdict,
}

impl Executed {
    /// A command that could not start (its diagnostic is on stderr).
    pub fn not_started(exit: ExitCode) -> Executed {
        Executed {
            stdout: String::new(),
            exit,
            derivation: reference::derivation::Derivation::default(),
            verdict: reference::derivation::Verdict::Failed,
        }
    }

    /// Prints the stdout and gives the exit status.
    pub fn finish(self) -> ExitCode {
        write_stdout(&self.stdout);
        self.exit
    }
}

/// A command's end: its usual `output` (`run.output`), with its derivation
/// in the `--trace` format asked for.
pub fn executed(
    trace: Option<TraceFormat>,
    derivation: reference::derivation::Derivation,
    run: &reference::derivation::TracedRun,
    sources: &SourceMap,
    exit: ExitCode,
) -> Executed {
    Executed {
        stdout: traced_text(trace, &derivation, run, sources),
        exit,
        derivation,
        verdict: run.outcome.verdict,
    }
}

/// A command's usual `output`, with its derivation in the `--trace` format
/// asked for (`run.output` is the same text).
pub fn traced_text(
    trace: Option<TraceFormat>,
    derivation: &reference::derivation::Derivation,
    run: &reference::derivation::TracedRun,
    sources: &SourceMap,
) -> String {
    match trace {
        None => run.output.to_string(),
        Some(TraceFormat::Text) => derivation.to_text() + run.output,
        Some(TraceFormat::Json) => derivation.to_json(run, sources),
    }
}

/// Writes `text` on stdout: a closed stdout (`| head`) ends the output, not
/// the command (`println!` panics on it).
pub fn write_stdout(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
