//! The optimising compiler end to end (issue 5, items 3 and 7): parse → type
//! check → static interpretation (module programs; module-free programs get
//! the prelude's declarations prepended instead) → elaborate → monomorphise
//! → defunctionalise → lower → IR check (through `ir`'s pass manager) → the
//! CPU backend.
//!
//! [`compile`] returns a [`CompiledProgram`] that runs entry points on the
//! CPU backend ([`CompiledProgram::run`]), keeps every intermediate form for
//! `runestone compile --dump`, and the time of each phase
//! ([`CompiledProgram::timings`]).

use std::time::{Duration, Instant};

use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap};
use spec::syntax::ast::{Dec, Program as Ast};
use spec::value::Value;

use crate::core::check::{check_program as check_core, Stage};
use crate::core::{elaborate_module_free, toplevel_prelude_declarations};
use crate::cpu::{self, RuntimeError};
use crate::defunc::{defunctionalise, DefuncStats};
use crate::ir::PassManager;
use crate::typecheck::{CheckOptions, ImportLoader};

/// Options of a compilation.
#[derive(Clone, Copy, Debug, Default)]
pub struct PipelineOptions {
    /// The type checker's language options (`-- runestone-options:`).
    pub check: CheckOptions,
    /// Also flatten the fused IR into the segmented IR (`crate::flatten`)
    /// and compile it for the CPU backend
    /// ([`CompiledProgram::run_segmented`]).
    pub segmented: bool,
}

impl PipelineOptions {
    /// The options a program asks for in its `-- runestone-options:` line.
    pub fn from_source(text: &str) -> PipelineOptions {
        PipelineOptions {
            check: CheckOptions::from_source(text),
            segmented: false,
        }
    }
}

/// A compiled program: its intermediate forms, the phase timings, and the
/// CPU backend's executable form.
pub struct CompiledProgram {
    /// The monomorphic core (after `mono`).
    pub mono: crate::core::Program,
    /// The first-order core (after defunctionalisation).
    pub defunc: crate::core::Program,
    pub defunc_stats: DefuncStats,
    /// The IR after the optimisation passes (`passes::default_pipeline`:
    /// simplification, inlining, fusion, hoisting), each re-checked: what the
    /// CPU backend runs.
    pub fused: crate::ir::Program,
    /// The IR as lowered and checked.
    pub ir: crate::ir::Program,
    /// The fused IR flattened into the segmented IR, checked (only when
    /// [`PipelineOptions::segmented`] asks for it).
    pub segmented: Option<crate::ir::Program>,
    /// What static interpretation did (module programs only).
    pub static_statistics: Option<crate::static_interp::Statistics>,
    timings: Vec<(&'static str, Duration)>,
    backend: cpu::CompiledProgram,
    /// The CPU backend's executable form of `segmented`.
    segmented_backend: Option<cpu::CompiledProgram>,
}

impl CompiledProgram {
    /// Arrays whose size comes from values must fit `limit` on the CPU
    /// backend (`spec::memory`; half of this machine's memory until set).
    pub fn set_memory_limit(&mut self, limit: spec::memory::MemoryLimit) {
        self.backend.set_memory_limit(limit);
        if let Some(backend) = &mut self.segmented_backend {
            backend.set_memory_limit(limit);
        }
    }

    /// Runs entry point `entry` on `args` on the CPU backend.
    pub fn run(&self, entry: &str, args: &[Value]) -> Result<Value, RuntimeError> {
        self.backend.run_entry(entry, args)
    }

    /// Runs entry point `entry` on `args` on the CPU backend through the
    /// segmented IR; an input error when the program was compiled without
    /// [`PipelineOptions::segmented`].
    pub fn run_segmented(&self, entry: &str, args: &[Value]) -> Result<Value, RuntimeError> {
        self.segmented_backend()?.run_entry(entry, args)
    }

    /// The CPU backend's form of the segmented IR, or the input error of a
    /// program compiled without it.
    fn segmented_backend(&self) -> Result<&cpu::CompiledProgram, RuntimeError> {
        self.segmented_backend
            .as_ref()
            .ok_or_else(|| RuntimeError::input("the program was compiled without the segmented IR"))
    }

    /// Converts `args` for entry point `entry` once, for repeated runs with
    /// [`Self::run_prepared`] (benchmarks: the inputs are neither converted
    /// nor copied again).
    pub fn prepare_arguments(
        &self,
        entry: &str,
        args: Vec<Value>,
    ) -> Result<cpu::PreparedArguments, RuntimeError> {
        self.backend.prepare_arguments(entry, args)
    }

    /// Runs the entry point `prepared` was made for.
    pub fn run_prepared(&self, prepared: &cpu::PreparedArguments) -> Result<Value, RuntimeError> {
        self.backend.run_prepared(prepared)
    }

    /// [`Self::run_prepared`] through the segmented IR (an input error when
    /// the program was compiled without [`PipelineOptions::segmented`]).
    pub fn run_prepared_segmented(
        &self,
        prepared: &cpu::PreparedArguments,
    ) -> Result<Value, RuntimeError> {
        self.segmented_backend()?.run_prepared(prepared)
    }

    /// Which paths the CPU backend compiled the SOACs for.
    pub fn backend_statistics(&self) -> cpu::machine::BackendStatistics {
        self.backend.statistics()
    }

    /// Each phase's name and wall time, in order.
    pub fn timings(&self) -> &[(&'static str, Duration)] {
        &self.timings
    }
}

/// Whether the declarations use no module construct.
pub fn is_module_free(decs: &[Dec]) -> bool {
    decs.iter().all(|dec| match dec {
        Dec::Value(_) | Dec::Type(_) => true,
        Dec::Attr { dec, .. } => is_module_free(std::slice::from_ref(dec)),
        _ => false,
    })
}

struct Clock {
    timings: Vec<(&'static str, Duration)>,
    last: Instant,
}

impl Clock {
    fn lap(&mut self, phase: &'static str) {
        let now = Instant::now();
        self.timings.push((phase, now - self.last));
        self.last = now;
    }
}

/// Compiles file `file` of `sources`, reading its imports with `loader`
/// (which must not borrow `sources`; see [`compile_program`] otherwise).
pub fn compile(
    sources: &mut SourceMap,
    file: FileId,
    loader: Option<&mut dyn ImportLoader>,
    options: PipelineOptions,
) -> Result<CompiledProgram, Vec<Diagnostic>> {
    let mut clock = Clock {
        timings: Vec::new(),
        last: Instant::now(),
    };
    let text = sources.get(file).text.clone();
    let program = spec::syntax::parse_program(file, &text).map_err(|d| vec![d])?;
    let prelude_file = add_prelude_file(sources);
    clock.lap("parse");
    compile_with_clock(&program, prelude_file, loader, options, clock)
}

/// Adds `spec/prelude/toplevel.fut` to `sources`, named
/// `<prelude>/toplevel.fut` as the reference names it (the file the
/// prelude's declarations are parsed from for module-free programs).
pub fn add_prelude_file(sources: &mut SourceMap) -> FileId {
    sources.add(
        "<prelude>/toplevel.fut".to_string(),
        crate::typecheck::prelude::TOPLEVEL_PRELUDE,
    )
}

/// Compiles a parsed program; `prelude_file` comes from
/// [`add_prelude_file`] on the program's source map.
pub fn compile_program(
    program: &Ast,
    prelude_file: FileId,
    loader: Option<&mut dyn ImportLoader>,
    options: PipelineOptions,
) -> Result<CompiledProgram, Vec<Diagnostic>> {
    let clock = Clock {
        timings: Vec::new(),
        last: Instant::now(),
    };
    compile_with_clock(program, prelude_file, loader, options, clock)
}

/// The front end's verdict on a program without imports (the `verdict`
/// oracle's view of the optimising compiler): type inference, static
/// interpretation, elaboration into the core and the uniqueness judgment,
/// without the prelude ever being rendered (it is read under a reserved
/// file id).
pub fn check_front_end(program: &Ast, check: CheckOptions) -> Result<(), Vec<Diagnostic>> {
    let mut clock = Clock {
        timings: Vec::new(),
        last: Instant::now(),
    };
    let prelude_file = FileId(FileId::FIRST_RESERVED);
    front_end(program, prelude_file, None, check, &mut clock).map(|_| ())
}

/// The module-free core of `program` judged by the uniqueness judgment, and
/// the statistics of static interpretation when it ran.
fn front_end(
    program: &Ast,
    prelude_file: FileId,
    mut loader: Option<&mut dyn ImportLoader>,
    check: CheckOptions,
    clock: &mut Clock,
) -> Result<
    (
        crate::core::Program,
        Option<crate::static_interp::Statistics>,
    ),
    Vec<Diagnostic>,
> {
    let mut core = None;
    let mut static_statistics = None;
    // The module-free program the uniqueness judgment reads when it is not
    // `core`: every definition of a module program, used or not.
    let mut judged = None;
    if is_module_free(&program.decs) {
        spec::recursion::with_stack(|| crate::typecheck::check_program_typed(program, check))?;
        clock.lap("type check");
        let mut decs = toplevel_prelude_declarations(prelude_file).map_err(|d| vec![d])?;
        decs.extend(program.decs.iter().cloned());
        let with_prelude = Ast { decs };
        match spec::recursion::with_stack(|| elaborate_module_free(&with_prelude, check)) {
            Ok(elaborated) => core = Some(elaborated),
            // `m.(e)` and friends inside expressions: static interpretation
            // removes them.
            Err(diagnostics)
                if diagnostics
                    .iter()
                    .any(|d| d.has_code(spec::diagnostic::codes::MODULE_CONSTRUCT)) => {}
            Err(diagnostics) => return Err(diagnostics),
        }
    }
    let core = match core {
        Some(core) => core,
        None => {
            {
                let reborrowed: Option<&mut dyn ImportLoader> = match &mut loader {
                    Some(l) => Some(&mut **l),
                    None => None,
                };
                spec::recursion::with_stack(|| {
                    crate::typecheck::check_program_with_options(program, reborrowed, check)
                })?;
            }
            clock.lap("type check");
            let everything = {
                let reborrowed: Option<&mut dyn ImportLoader> = match &mut loader {
                    Some(l) => Some(&mut **l),
                    None => None,
                };
                crate::static_interp::eliminate_modules_keeping(
                    program,
                    reborrowed,
                    crate::static_interp::Keep::Everything,
                )
            };
            let (module_free, statistics) =
                crate::static_interp::eliminate_modules(program, loader)?;
            static_statistics = Some(statistics);
            clock.lap("static");
            // The numeric modules' definitions it keeps use the prelude's
            // intrinsics; the user's program was checked without them.
            let check = CheckOptions {
                prelude_intrinsics: true,
                ..check
            };
            // Should the unused definitions not elaborate (a construct only
            // they use), the judgment reads the used ones.
            judged = everything.ok().and_then(|(everything, _)| {
                spec::recursion::with_stack(|| elaborate_module_free(&everything, check)).ok()
            });
            spec::recursion::with_stack(|| elaborate_module_free(&module_free, check))?
        }
    };
    clock.lap("elaborate");
    // Extension (proofs-notes/uniqueness.md): uniqueness types and alias
    // analysis, on every definition but the prelude's.
    let trusted = |file: FileId| file == prelude_file || file.is_reserved();
    crate::core::uniqueness::check_program(judged.as_ref().unwrap_or(&core), &trusted)?;
    clock.lap("uniqueness");
    Ok((core, static_statistics))
}

fn compile_with_clock(
    program: &Ast,
    prelude_file: FileId,
    loader: Option<&mut dyn ImportLoader>,
    options: PipelineOptions,
    mut clock: Clock,
) -> Result<CompiledProgram, Vec<Diagnostic>> {
    let (core, static_statistics) =
        front_end(program, prelude_file, loader, options.check, &mut clock)?;
    let mono = crate::mono::monomorphise(&core);
    check_core(&mono, "monomorphisation", Stage::Monomorphic).map_err(|d| vec![d])?;
    clock.lap("mono");
    let (defunc, defunc_stats) = defunctionalise(&mono).map_err(|d| vec![d])?;
    check_core(&defunc, "defunctionalisation", Stage::Monomorphic).map_err(|d| vec![d])?;
    clock.lap("defunc");
    let ir = crate::lower::lower_program(&defunc).map_err(|d| vec![d])?;
    let ir = PassManager::new()
        .run("lower", ir, |p| p)
        .map_err(ill_typed_ir)?;
    clock.lap("lower");
    let fused = crate::passes::optimise(ir.clone()).map_err(ill_typed_ir)?;
    clock.lap("optimise");
    let backend = cpu::CompiledProgram::new(fused.clone()).map_err(|e| {
        vec![
            Diagnostic::error(format!("internal error in the CPU backend: {}", e.message))
                .with_code("internal")
                .with_primary(e.span, "while compiling this"),
        ]
    })?;
    clock.lap("cpu");
    let (segmented, segmented_backend) = if options.segmented {
        let segmented = crate::flatten::flatten_program(&fused);
        crate::ir::check_program(&segmented).map_err(|error| {
            ill_typed_ir(crate::ir::PassError {
                pass: "flatten".to_string(),
                error,
                ir: crate::ir::print_program(&segmented),
            })
        })?;
        clock.lap("flatten");
        let backend = cpu::CompiledProgram::new(segmented.clone()).map_err(|e| {
            vec![Diagnostic::error(format!(
                "internal error in the CPU backend (segmented IR): {}",
                e.message
            ))
            .with_code("internal")
            .with_primary(e.span, "while compiling this")]
        })?;
        clock.lap("seg cpu");
        (Some(segmented), Some(backend))
    } else {
        (None, None)
    };
    Ok(CompiledProgram {
        mono,
        defunc,
        defunc_stats,
        ir,
        segmented,
        segmented_backend,
        fused,
        static_statistics,
        timings: clock.timings,
        backend,
    })
}

/// An IR checker failure after a pass: an internal error naming the pass,
/// with the IR printed in a note.
fn ill_typed_ir(e: crate::ir::PassError) -> Vec<Diagnostic> {
    vec![Diagnostic::error(format!(
        "internal error: the IR after pass `{}` is ill-typed: {}",
        e.pass, e.error
    ))
    .with_code("internal")
    .with_primary(e.error.span, "while compiling this")
    .with_note(e.ir)]
}
