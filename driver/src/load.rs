//! Compiling a program for a backend: [`load`] returns a [`LoadedProgram`],
//! the one interface over every implementation that runs programs (entry
//! points in, observable [`Value`]s or a [`RunError`] out).
//!
//! - the reference through `reference::front::pipeline` (TFP'18's Theorems
//!   1–2 and Corollary 1 checked on every run; module programs through the
//!   ICFP'18 module calculus, Proposition 6.1 checked);
//! - `cpu` through `optimized::pipeline` (static interpretation,
//!   monomorphisation, defunctionalisation, the IR and its passes, rayon);
//! - `gpu` through the same pipeline and `gpu::driver` on the process's
//!   Vulkan device ([`gpu_device`]), [`LoadError::Unavailable`] without one.
//!
//! Both implementations read `import "p"` by the one rule of
//! [`spec::imports`]. The GPU oracle compiles once and runs the result on
//! both compiled backends: [`compile_optimized`] and
//! [`OptimizedProgram::on_gpu`].

use crate::backend::Backend;
use crate::outcome::{LoadError, RunError, RunErrorKind};
use crate::signature::{EntrySignature, EntryType};
use optimized::cpu::RuntimeErrorKind;
use reference::core::theorems::RunError as ReferenceRunError;
use reference::front::pipeline::{compile_with, Compiled, Options};
use spec::memory::MemoryLimit;
use spec::source::{FileId, SourceMap, Span};
use spec::value::Value;
use std::sync::{Arc, OnceLock};

/// Options of compilation that every backend honours.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadOptions {
    /// TFP'18 §7: conditionals of function type (also enabled by a line
    /// `-- runestone-options: or-conditionals` in the program).
    pub or_conditionals: bool,
    /// The reference's step limit per evaluation; `None`: its default, or
    /// the program's `-- runestone-options: fuel=N`.
    pub fuel: Option<u64>,
    /// The memory limit of every run (`--memory-limit`); `None`: the
    /// program's `-- runestone-options: memory-limit=SIZE`, or half of this
    /// machine's memory ([`MemoryLimit::of_this_machine`]).
    pub memory_limit: Option<MemoryLimit>,
    /// `cpu` and `gpu`: run through the segmented IR (the fused IR
    /// flattened, `optimized::flatten`) instead of the SOAC IR; the
    /// reference ignores it.
    pub segmented: bool,
}

impl LoadOptions {
    /// The memory limit a run of the program with source `text` has.
    pub fn memory_limit_for(&self, text: &str) -> MemoryLimit {
        self.memory_limit
            .or_else(|| MemoryLimit::from_program_options(text))
            .unwrap_or_else(MemoryLimit::of_this_machine)
    }
}

/// A program compiled by a backend, ready to run its entry points.
pub trait LoadedProgram {
    /// The backend that compiled it.
    fn backend(&self) -> Backend;
    /// The names of the entry points, in source order.
    fn entry_points(&self) -> Vec<String>;
    /// The types of `entry`'s parameters and results, sizes forgotten;
    /// `None` when there is no such entry point.
    fn signature(&self, entry: &str) -> Option<EntrySignature>;
    /// Runs `entry` on `args`; the results are the entry point's return values
    /// (a returned tuple is several values, as Futhark prints them).
    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError>;
}

/// Compiles the program `file` of `sources` for `backend`. Imported files
/// (and the reference's prelude) are added to `sources`; diagnostics and
/// run-time errors refer to files of `sources`.
pub fn load(
    backend: Backend,
    sources: &mut SourceMap,
    file: FileId,
    options: LoadOptions,
) -> Result<Box<dyn LoadedProgram>, LoadError> {
    match backend {
        Backend::Reference => load_reference(sources, file, options),
        Backend::Cpu => Ok(Box::new(compile_optimized(sources, file, options)?)),
        Backend::Gpu => {
            let device = gpu_device().map_err(|reason| LoadError::Unavailable {
                backend: Backend::Gpu,
                reason,
            })?;
            let compiled = compile_optimized(sources, file, options)?;
            let on_gpu = compiled.on_gpu(device.runtime.clone(), device.counters.clone())?;
            Ok(Box::new(on_gpu))
        }
    }
}

/// Whether `backend` can run programs here, or why not (for `gpu`: whether
/// a Vulkan device can be opened; `RUNESTONE_DEVICE` chooses it).
pub fn availability(backend: Backend) -> Result<(), String> {
    match backend {
        Backend::Reference | Backend::Cpu => Ok(()),
        Backend::Gpu => gpu_device().map(|_| ()),
    }
}

/// The process's one GPU runtime (opened on first use; validated when
/// `RUNESTONE_VALIDATION=1` or `VK_INSTANCE_LAYERS` names the Khronos layer)
/// and the driver's counters, shared by every program loaded for `gpu`.
pub struct GpuDevice {
    pub runtime: Arc<gpu::Runtime>,
    pub counters: Arc<gpu::driver::DriverCounters>,
}

static GPU_DEVICE: OnceLock<Result<GpuDevice, String>> = OnceLock::new();

/// The process's GPU device, opened on first use.
pub fn gpu_device() -> Result<&'static GpuDevice, String> {
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

/// What the GPU driver did and what the Vulkan validation layer said about
/// it: one process's share ([`gpu_usage`]), or several summed
/// ([`GpuUsage::merge`], `runestone test`'s workers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuUsage {
    pub statistics: gpu::driver::DriverStatistics,
    /// The validation messages recorded; `None` when validation was off.
    pub validation_messages: Option<u64>,
}

impl GpuUsage {
    /// The usage of both: counters summed; validation on when it was on in
    /// either, with the messages of both.
    pub fn merge(self, other: GpuUsage) -> GpuUsage {
        let validation_messages = match (self.validation_messages, other.validation_messages) {
            (None, None) => None,
            (mine, theirs) => Some(mine.unwrap_or(0) + theirs.unwrap_or(0)),
        };
        GpuUsage {
            statistics: self.statistics + other.statistics,
            validation_messages,
        }
    }
}

/// `N SOAC statement runs on the GPU as kernels, ...; Vulkan validation on,
/// N messages` (or `off`).
impl std::fmt::Display for GpuUsage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.validation_messages {
            Some(messages) => write!(
                f,
                "{}; Vulkan validation on, {messages} messages",
                self.statistics
            ),
            None => write!(f, "{}; Vulkan validation off", self.statistics),
        }
    }
}

/// What the GPU driver did in this process so far, and whether the Vulkan
/// validation layer watched it (`None` when no device was opened).
pub fn gpu_usage() -> Option<GpuUsage> {
    match GPU_DEVICE.get() {
        Some(Ok(device)) => Some(GpuUsage {
            statistics: device.counters.snapshot(),
            validation_messages: device
                .runtime
                .validation_enabled()
                .then(|| device.runtime.validation_messages().len() as u64),
        }),
        _ => None,
    }
}

/// [`gpu_usage`] as one line.
pub fn gpu_summary() -> Option<String> {
    gpu_usage().map(|usage| usage.to_string())
}

/// The reference pipeline and a copy of the source map it located its code
/// in, to describe the locations of run-time errors.
pub struct ReferenceProgram {
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
    reference_options.memory_limit = options.memory_limit_for(&sources.get(file).text);
    let compiled = spec::recursion::with_stack(|| compile_with(sources, file, reference_options))
        .map_err(LoadError::from_diagnostic)?;
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

    fn signature(&self, entry: &str) -> Option<EntrySignature> {
        let entry = self
            .compiled
            .program
            .entries
            .iter()
            .find(|e| e.name == entry)?;
        let inputs: Option<Vec<EntryType>> =
            entry.param_types.iter().map(core_entry_type).collect();
        Some(EntrySignature::new(
            inputs?,
            core_entry_type(&entry.result_type)?,
        ))
    }

    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError> {
        self.compiled.run(entry, args).map_err(|e| match e {
            ReferenceRunError::Runtime(e) => RunError::runtime(e.message, e.span, &self.sources),
            ReferenceRunError::Input(message) => RunError::unlocated(RunErrorKind::Input, message),
            ReferenceRunError::OutOfFuel => RunError::out_of_fuel(),
            ReferenceRunError::MemoryLimit(e) => {
                RunError::located(RunErrorKind::MemoryLimit, e.message, e.span, &self.sources)
            }
            // The message names the theorem or lemma that failed.
            ReferenceRunError::Violation(m) => RunError::unlocated(RunErrorKind::Internal, m),
        })
    }
}

/// The optimising compiler's program (run on the CPU backend) and a copy of
/// the source map its run-time errors refer to.
pub struct OptimizedProgram {
    pub compiled: optimized::pipeline::CompiledProgram,
    /// The limit its runs have, on the CPU and under the GPU driver.
    pub memory_limit: MemoryLimit,
    /// Whether [`LoadedProgram::run`] runs the segmented IR
    /// ([`LoadOptions::segmented`]).
    pub segmented: bool,
    pub sources: SourceMap,
}

/// The optimising pipeline on file `file` of `sources` (imports are added
/// to `sources`).
pub fn compile_optimized(
    sources: &mut SourceMap,
    file: FileId,
    options: LoadOptions,
) -> Result<OptimizedProgram, LoadError> {
    let text = sources.get(file).text.clone();
    let mut pipeline_options = optimized::pipeline::PipelineOptions::from_source(&text);
    pipeline_options.check.or_conditionals |= options.or_conditionals;
    pipeline_options.segmented = options.segmented;
    let program = spec::syntax::parse_program(file, &text).map_err(LoadError::from_diagnostic)?;
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
    let mut compiled = compiled.map_err(LoadError::from_diagnostics)?;
    let memory_limit = options.memory_limit_for(&text);
    compiled.set_memory_limit(memory_limit);
    Ok(OptimizedProgram {
        compiled,
        memory_limit,
        segmented: options.segmented,
        sources: sources.clone(),
    })
}

impl OptimizedProgram {
    /// The same compiled program under the GPU driver on `runtime`, its work
    /// counted in `counters`, with the same memory limit.
    pub fn on_gpu(
        &self,
        runtime: Arc<gpu::Runtime>,
        counters: Arc<gpu::driver::DriverCounters>,
    ) -> Result<GpuProgram, LoadError> {
        let ir = match (&self.compiled.segmented, self.segmented) {
            (Some(segmented), true) => segmented.clone(),
            _ => self.compiled.fused.clone(),
        };
        let mut program =
            gpu::driver::GpuProgram::new(ir, runtime.clone(), counters).map_err(|e| {
                LoadError::Internal(
                    spec::diagnostic::Diagnostic::error(format!(
                        "internal error in the GPU backend: {}",
                        e.message
                    ))
                    .with_code(spec::diagnostic::codes::INTERNAL)
                    .with_primary(e.span, "while compiling this"),
                )
            })?;
        program.set_memory_limit(self.memory_limit);
        Ok(GpuProgram {
            program,
            runtime,
            sources: self.sources.clone(),
        })
    }
}

/// A type of the reference's core language as an entry point's type; `None`
/// for the types no value has (functions, type parameters).
fn core_entry_type(t: &reference::core::syntax::Type) -> Option<EntryType> {
    use reference::core::syntax::Type;
    Some(match t {
        Type::Prim(p) => EntryType::Prim(*p),
        Type::Array(element) => EntryType::array(1, core_entry_type(element)?),
        Type::Record(fields) => {
            let fields: Vec<(String, EntryType)> = fields
                .iter()
                .map(|(name, t)| Some((name.to_string(), core_entry_type(t)?)))
                .collect::<Option<_>>()?;
            let tuple = fields.len() != 1
                && fields
                    .iter()
                    .all(|(name, _)| name.parse::<usize>().is_ok_and(|i| i < fields.len()));
            if tuple {
                let mut components = fields;
                components.sort_by_key(|(name, _)| name.parse::<usize>().unwrap_or(0));
                EntryType::Tuple(components.into_iter().map(|(_, t)| t).collect())
            } else {
                let mut fields = fields;
                fields.sort_by(|a, b| spec::value::field_order(&a.0, &b.0));
                EntryType::Record(fields)
            }
        }
        Type::Sum(constructors) => EntryType::Sum(
            constructors
                .iter()
                .map(|(name, payload)| {
                    Some((
                        name.to_string(),
                        payload.iter().map(core_entry_type).collect::<Option<_>>()?,
                    ))
                })
                .collect::<Option<_>>()?,
        ),
        Type::Arrow(..) | Type::Param(..) | Type::Meta(_) => return None,
    })
}

/// An IR entry point's signature (its surface parameters and result).
fn ir_signature(program: &optimized::ir::Program, entry: &str) -> Option<EntrySignature> {
    let entry = program.entry_point(entry)?;
    let inputs = entry
        .parameters
        .iter()
        .map(|p| layout_entry_type(&p.layout))
        .collect();
    Some(EntrySignature::new(
        inputs,
        layout_entry_type(&entry.result),
    ))
}

fn layout_entry_type(layout: &optimized::ir::Layout) -> EntryType {
    use optimized::ir::Layout;
    match layout {
        Layout::Prim(p) => EntryType::Prim(*p),
        Layout::Tuple(components) => {
            EntryType::Tuple(components.iter().map(layout_entry_type).collect())
        }
        Layout::Record(fields) => EntryType::Record(
            fields
                .iter()
                .map(|(name, l)| (name.clone(), layout_entry_type(l)))
                .collect(),
        ),
        Layout::Sum { constructors } => EntryType::Sum(
            constructors
                .iter()
                .map(|(name, payload)| {
                    (
                        name.clone(),
                        payload.iter().map(layout_entry_type).collect(),
                    )
                })
                .collect(),
        ),
        Layout::Array { rank, element } => EntryType::array(*rank, layout_entry_type(element)),
    }
}

impl LoadedProgram for OptimizedProgram {
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

    fn signature(&self, entry: &str) -> Option<EntrySignature> {
        ir_signature(&self.compiled.ir, entry)
    }

    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError> {
        let result = if self.segmented {
            self.compiled.run_segmented(entry, args)
        } else {
            self.compiled.run(entry, args)
        };
        optimized_results(result, &self.sources)
    }
}

/// The results (or error) of the optimising compiler's backends (the CPU
/// backend and the GPU driver share their error type) as a
/// [`LoadedProgram`] reports them.
fn optimized_results(
    result: Result<Value, optimized::cpu::RuntimeError>,
    sources: &SourceMap,
) -> Result<Vec<Value>, RunError> {
    match result {
        Ok(Value::Tuple(values)) if !values.is_empty() => Ok(values),
        Ok(value) => Ok(vec![value]),
        Err(e) => Err(match e.kind {
            RuntimeErrorKind::Input => RunError::unlocated(RunErrorKind::Input, e.message),
            RuntimeErrorKind::MemoryLimit => {
                RunError::located(RunErrorKind::MemoryLimit, e.message, e.span, sources)
            }
            // A failure the IR carries no location for.
            RuntimeErrorKind::Program if e.span.same_location(&Span::default()) => {
                RunError::unlocated(RunErrorKind::Runtime, e.message)
            }
            RuntimeErrorKind::Program => RunError::runtime(e.message, e.span, sources),
        }),
    }
}

/// The optimised IR under the GPU driver, and the source map its run-time
/// errors refer to.
pub struct GpuProgram {
    program: gpu::driver::GpuProgram,
    runtime: Arc<gpu::Runtime>,
    sources: SourceMap,
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

    fn signature(&self, entry: &str) -> Option<EntrySignature> {
        ir_signature(self.program.program(), entry)
    }

    /// Like the CPU backend's; under validation, any message the Vulkan
    /// validation layer records during the run makes it an internal error.
    fn run(&self, entry: &str, args: &[Value]) -> Result<Vec<Value>, RunError> {
        let messages_before = self.runtime.validation_messages().len();
        let result = optimized_results(self.program.run_entry(entry, args), &self.sources);
        let messages = self.runtime.validation_messages();
        if messages.len() > messages_before {
            return Err(RunError::unlocated(
                RunErrorKind::Internal,
                format!(
                    "Vulkan validation messages during the run:\n{}",
                    messages[messages_before..].join("\n")
                ),
            ));
        }
        result
    }
}
