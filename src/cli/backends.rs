//! The backends of `run`, `test` and `bench`: one interface, [`LoadedProgram`],
//! over every implementation that can run a program.
//!
//! [`load`] compiles a program for a [`Backend`] and returns something that
//! lists its entry points and runs them on observable values
//! ([`spec::value::Value`]), failing with a [`RunError`] (message and source
//! location). The reference runs programs through
//! `reference::front::pipeline` (TFP'18's theorems checked on every run); the
//! CPU backend through `optimized::pipeline` (static interpretation,
//! monomorphisation, defunctionalisation, the IR, rayon); `gpu` through the
//! same pipeline and `gpu::driver` (the CPU backend with the top-level SOACs
//! that have kernel plans run on the Vulkan device), and is
//! [`LoadError::Unavailable`] when no Vulkan device can be used. Plugging one
//! in is one arm of [`load`] plus an implementation of [`LoadedProgram`].

use reference::core::theorems::RunError as ReferenceRunError;
use reference::front::pipeline::{compile_with, Compiled, Options};
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap};
use spec::value::{Tolerance, Value};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// An implementation that runs programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// The papers' judgments, executable (`reference/`): slow, the oracle.
    Reference,
    /// The optimising compiler's parallel CPU backend (`optimized/`).
    Cpu,
    /// SPIR-V kernels through Vulkan (`gpu/`).
    Gpu,
}

impl Backend {
    /// Every backend, the oracle first.
    pub const ALL: [Backend; 3] = [Backend::Reference, Backend::Cpu, Backend::Gpu];

    /// The name `--backend` takes.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Reference => "reference",
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
        }
    }

    /// How closely this backend's floats must match expected values. The
    /// reference evaluates in source order, so it must match exactly; compiled
    /// backends may reassociate `reduce`/`scan` on floats (DESIGN.md, "The
    /// pipelines"), so they get [`COMPILED_FLOAT_ULPS`].
    pub fn tolerance(self) -> Tolerance {
        match self {
            Backend::Reference => Tolerance::Exact,
            Backend::Cpu | Backend::Gpu => Tolerance::Ulps(COMPILED_FLOAT_ULPS),
        }
    }
}

/// The float tolerance of compiled backends, in units in the last place
/// (defined in `spec::value`, shared with the fuzz value oracle).
pub use spec::value::COMPILED_FLOAT_ULPS;

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `--backend` of `test`: one backend, or every backend that is available.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendSelection {
    Reference,
    Cpu,
    Gpu,
    /// Every backend; those not available are reported as skipped.
    All,
}

impl BackendSelection {
    /// The backends selected, the oracle first.
    pub fn backends(self) -> Vec<Backend> {
        match self {
            BackendSelection::Reference => vec![Backend::Reference],
            BackendSelection::Cpu => vec![Backend::Cpu],
            BackendSelection::Gpu => vec![Backend::Gpu],
            BackendSelection::All => Backend::ALL.to_vec(),
        }
    }
}

/// Options of compilation that every backend honours.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions {
    /// TFP'18 §7: conditionals of function type (also enabled by a line
    /// `-- runestone-options: or-conditionals` in the program).
    pub or_conditionals: bool,
    /// The reference's step limit per evaluation; `None`: its default.
    pub fuel: Option<u64>,
}

/// A program compiled by a backend, ready to run its entry points.
pub trait LoadedProgram {
    /// The backend that compiled it.
    fn backend(&self) -> Backend;
    /// The names of the entry points, in source order.
    fn entry_points(&self) -> Vec<String>;
    /// Runs `entry` on `args`; the results are the entry point's return values
    /// (a returned tuple is several values, as Futhark prints them).
    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError>;
}

/// Why a run gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    pub kind: RunErrorKind,
    pub message: String,
    /// `file:line:col` of the failing expression, for errors of the program.
    pub location: Option<String>,
}

/// What kind of failure a [`RunError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunErrorKind {
    /// The program failed (index out of bounds, size mismatch, ...): what a
    /// test's `error: REGEX` expects.
    Program,
    /// The arguments do not fit the entry point (or there is no such entry).
    Input,
    /// A resource limit was reached (the reference's fuel).
    Limit,
    /// A check of the implementation itself failed (a TFP'18 theorem on the
    /// reference): never what a test expects.
    Internal,
}

/// As the user sees it: `Error at file:line:col: message` for errors of the
/// program (the format `error: REGEX` cases are matched against), `error: ...`
/// otherwise.
impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.location, self.kind) {
            (Some(location), _) => write!(f, "Error at {location}: {}", self.message),
            (None, RunErrorKind::Program) => write!(f, "Error: {}", self.message),
            (None, RunErrorKind::Input) => write!(f, "error: bad input: {}", self.message),
            (None, RunErrorKind::Limit) => write!(f, "error: {}", self.message),
            (None, RunErrorKind::Internal) => write!(f, "internal error: {}", self.message),
        }
    }
}

/// Why a backend gives no program.
#[derive(Debug)]
pub enum LoadError {
    /// The backend cannot run programs yet.
    Unavailable { backend: Backend, reason: String },
    /// The program was rejected (parse, type or module error).
    Rejected(Diagnostic),
}

/// Compiles the program `file` of `sources` for `backend`. The reference adds
/// its prelude to `sources`; diagnostics refer to files of `sources`.
pub fn load(
    backend: Backend,
    sources: &mut SourceMap,
    file: FileId,
    options: LoadOptions,
) -> Result<Box<dyn LoadedProgram>, LoadError> {
    if let Err(reason) = availability(backend) {
        return Err(LoadError::Unavailable { backend, reason });
    }
    match backend {
        Backend::Reference => load_reference(sources, file, options),
        Backend::Cpu => load_cpu(sources, file, options),
        Backend::Gpu => load_gpu(sources, file, options),
    }
}

/// Whether `backend` can run programs here, or why not (for `gpu`: whether
/// a Vulkan device can be opened; `RUNESTONE_DEVICE` chooses it).
pub fn availability(backend: Backend) -> Result<(), String> {
    match backend {
        Backend::Reference => Ok(()),
        Backend::Cpu => Ok(()),
        Backend::Gpu => gpu_device().map(|_| ()),
    }
}

/// Prints why `backend` is unavailable and returns exit status 2.
pub fn unavailable_exit(backend: Backend, reason: &str) -> std::process::ExitCode {
    eprintln!(
        "runestone: the {backend} backend is unavailable ({reason}); use --backend cpu or reference."
    );
    std::process::ExitCode::from(2)
}

/// The process's one GPU runtime (opened on first use; validated when
/// `RUNESTONE_VALIDATION=1` or `VK_INSTANCE_LAYERS` names the Khronos layer)
/// and the driver's counters, shared by every program loaded for `gpu`.
struct GpuDevice {
    runtime: Arc<gpu::Runtime>,
    counters: Arc<gpu::driver::DriverCounters>,
}

static GPU_DEVICE: OnceLock<Result<GpuDevice, String>> = OnceLock::new();

fn gpu_device() -> Result<&'static GpuDevice, String> {
    GPU_DEVICE
        .get_or_init(|| {
            gpu::Runtime::new(gpu::RuntimeOptions::default())
                .map(|runtime| GpuDevice {
                    runtime: Arc::new(runtime),
                    counters: Arc::default(),
                })
                .map_err(|e| format!("no usable Vulkan device: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// What the GPU driver did in this process so far, and whether the Vulkan
/// validation layer watched it (`None` when no device was opened).
pub fn gpu_summary() -> Option<String> {
    match GPU_DEVICE.get() {
        Some(Ok(device)) => {
            let validation = if device.runtime.validation_enabled() {
                format!(
                    "Vulkan validation on, {} messages",
                    device.runtime.validation_messages().len()
                )
            } else {
                "Vulkan validation off".to_string()
            };
            Some(format!("{}; {validation}", device.counters.snapshot()))
        }
        _ => None,
    }
}

/// The reference pipeline and a copy of the source map it located its code
/// in, to describe the locations of run-time errors.
struct ReferenceProgram {
    compiled: Compiled,
    sources: SourceMap,
}

fn load_reference(
    sources: &mut SourceMap,
    file: FileId,
    options: LoadOptions,
) -> Result<Box<dyn LoadedProgram>, LoadError> {
    let mut reference_options = Options::from_source(&sources.get(file).text);
    reference_options.or_conditionals |= options.or_conditionals;
    if let Some(fuel) = options.fuel {
        reference_options.fuel = fuel;
    }
    let compiled = compile_with(sources, file, reference_options).map_err(LoadError::Rejected)?;
    Ok(Box::new(ReferenceProgram {
        compiled,
        sources: sources.clone(),
    }))
}

impl LoadedProgram for ReferenceProgram {
    fn backend(&self) -> Backend {
        Backend::Reference
    }

    fn entry_points(&self) -> Vec<String> {
        self.compiled
            .program
            .entries
            .iter()
            .map(|e| e.name.clone())
            .collect()
    }

    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError> {
        self.compiled.run(entry, args).map_err(|e| match e {
            ReferenceRunError::Runtime(e) => RunError {
                kind: RunErrorKind::Program,
                message: e.message,
                location: Some(self.sources.describe(e.span)),
            },
            ReferenceRunError::Input(message) => RunError {
                kind: RunErrorKind::Input,
                message,
                location: None,
            },
            ReferenceRunError::OutOfFuel => RunError {
                kind: RunErrorKind::Limit,
                message: "evaluation ran out of fuel (step limit reached)".to_string(),
                location: None,
            },
            ReferenceRunError::Violation(m) => RunError {
                kind: RunErrorKind::Internal,
                message: format!("a TFP'18 theorem check failed: {m}"),
                location: None,
            },
        })
    }
}

/// The optimising compiler's program and a copy of the source map its
/// diagnostics and run-time errors refer to.
struct CpuProgram {
    compiled: optimized::pipeline::CompiledProgram,
    sources: SourceMap,
}

fn load_cpu(
    sources: &mut SourceMap,
    file: FileId,
    options: LoadOptions,
) -> Result<Box<dyn LoadedProgram>, LoadError> {
    let compiled = compile_optimized(sources, file, options)?;
    Ok(Box::new(CpuProgram {
        compiled,
        sources: sources.clone(),
    }))
}

/// The optimising pipeline on file `file` of `sources` (imports are added
/// to `sources`).
fn compile_optimized(
    sources: &mut SourceMap,
    file: FileId,
    options: LoadOptions,
) -> Result<optimized::pipeline::CompiledProgram, LoadError> {
    let text = sources.get(file).text.clone();
    let mut pipeline_options = optimized::pipeline::PipelineOptions::from_source(&text);
    pipeline_options.check.or_conditionals |= options.or_conditionals;
    let program = spec::syntax::parse_program(file, &text).map_err(LoadError::Rejected)?;
    let prelude_file = optimized::pipeline::add_prelude_file(sources);
    let mut imports = optimized::imports::FileImports::new(std::mem::take(sources));
    let compiled = spec::recursion::with_stack(|| {
        optimized::pipeline::compile_program(
            &program,
            prelude_file,
            Some(&mut imports),
            pipeline_options,
        )
    });
    *sources = imports.into_sources();
    compiled.map_err(|mut diagnostics| LoadError::Rejected(diagnostics.remove(0)))
}

impl LoadedProgram for CpuProgram {
    fn backend(&self) -> Backend {
        Backend::Cpu
    }

    fn entry_points(&self) -> Vec<String> {
        self.compiled
            .ir
            .entry_points
            .iter()
            .map(|e| e.name.clone())
            .collect()
    }

    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError> {
        optimized_results(self.compiled.run(entry, args), &self.sources)
    }
}

/// The results (or error) of the CPU backend's machinery as a
/// [`LoadedProgram`] reports them.
fn optimized_results(
    result: Result<Value, optimized::cpu::RuntimeError>,
    sources: &SourceMap,
) -> Result<Vec<Value>, RunError> {
    match result {
        Ok(Value::Tuple(values)) if !values.is_empty() => Ok(values),
        Ok(value) => Ok(vec![value]),
        // The backend's input errors (no such entry point, arguments of
        // the wrong type or shape) are located nowhere.
        Err(e) if e.span.same_location(&spec::source::Span::default()) => Err(RunError {
            kind: RunErrorKind::Input,
            message: e.message,
            location: None,
        }),
        Err(e) => Err(RunError {
            kind: RunErrorKind::Program,
            message: e.message,
            location: Some(sources.describe(e.span)),
        }),
    }
}

/// The optimised IR under the GPU driver, and the source map its run-time
/// errors refer to.
struct GpuProgram {
    program: gpu::driver::GpuProgram,
    runtime: Arc<gpu::Runtime>,
    sources: SourceMap,
}

fn load_gpu(
    sources: &mut SourceMap,
    file: FileId,
    options: LoadOptions,
) -> Result<Box<dyn LoadedProgram>, LoadError> {
    let device = gpu_device().map_err(|reason| LoadError::Unavailable {
        backend: Backend::Gpu,
        reason,
    })?;
    let compiled = compile_optimized(sources, file, options)?;
    let program = gpu::driver::GpuProgram::new(
        compiled.fused,
        device.runtime.clone(),
        device.counters.clone(),
    )
    .map_err(|e| {
        LoadError::Rejected(
            Diagnostic::error(format!("internal error in the GPU backend: {}", e.message))
                .with_code("internal")
                .with_primary(e.span, "while compiling this"),
        )
    })?;
    Ok(Box::new(GpuProgram {
        program,
        runtime: device.runtime.clone(),
        sources: sources.clone(),
    }))
}

impl LoadedProgram for GpuProgram {
    fn backend(&self) -> Backend {
        Backend::Gpu
    }

    fn entry_points(&self) -> Vec<String> {
        self.program
            .program()
            .entry_points
            .iter()
            .map(|e| e.name.clone())
            .collect()
    }

    /// Like the CPU backend's; under validation, any message the Vulkan
    /// validation layer records during the run makes it an internal error.
    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError> {
        let messages_before = self.runtime.validation_messages().len();
        let result = optimized_results(self.program.run_entry(entry, args), &self.sources);
        let messages = self.runtime.validation_messages();
        if messages.len() > messages_before {
            return Err(RunError {
                kind: RunErrorKind::Internal,
                message: format!(
                    "Vulkan validation messages during the run:\n{}",
                    messages[messages_before..].join("\n")
                ),
                location: None,
            });
        }
        result
    }
}
