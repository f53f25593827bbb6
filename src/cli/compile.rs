//! `runestone compile FILE`: the optimising compiler.
//!
//! Without `--dump`, and with a phase of the optimising pipeline (`--dump
//! mono|defunc|ir|fused|seg|glsl`), it runs the whole pipeline through the CPU
//! backend (`optimized::pipeline`: type check, static interpretation,
//! elaboration, monomorphisation, defunctionalisation, lowering, the
//! optimisation passes, the backend) and prints the phase's result;
//! `--timings` prints each phase's wall time, the statistics of static
//! interpretation and which paths the backend compiled the SOACs for, on
//! stderr. `--dump typed|static|core` runs the front end alone, timing each
//! phase with its CPU time too: the inferred type of every binding (`main :
//! [n]i32 -> i32`), the module-free program, the typed core. Imports
//! (`import "path"`) are read as `path.fut` next to the importing file.
//! `--dump glsl` prints the GLSL kernel of each top-level SOAC of the fused
//! IR (`gpu::codegen`) or why it runs on the host; with `--segmented`, of
//! the segmented IR with each operation expanded as the GPU driver plans it.

use clap::ValueEnum;
use optimized::imports::FileImports;
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, SourceMap};
use spec::syntax::ast::Program;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::common::{read_source, report};

#[derive(clap::Args)]
pub struct Args {
    /// The program to compile.
    file: PathBuf,
    /// Print the program after this phase.
    #[arg(long, value_enum)]
    dump: Option<Phase>,
    /// Print the wall time of each phase on stderr (and the statistics of
    /// static interpretation and of the CPU backend).
    #[arg(long)]
    timings: bool,
    /// Also flatten the fused IR into the segmented IR and compile that for
    /// the CPU backend (`--dump seg` implies it); `--timings` then counts
    /// its segmented operations, and `--dump glsl` plans its kernels.
    #[arg(long)]
    segmented: bool,
}

/// The phases whose result can be printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Phase {
    /// The type of every top-level binding after type inference.
    Typed,
    /// The module-free program after static interpretation.
    Static,
    /// The typed core after elaboration of the module-free program.
    Core,
    /// The core after monomorphisation.
    Mono,
    /// The first-order core after defunctionalisation (TFP'18 §3, §5).
    Defunc,
    /// The SOAC IR as lowered from the first-order core.
    Ir,
    /// The IR after simplification, inlining, fusion and hoisting.
    Fused,
    /// The segmented IR: the fused IR flattened into `segmap`, `segred`
    /// and `segscan` over index spaces, host code between them.
    Seg,
    /// The GLSL of the kernel of each top-level SOAC of the fused IR
    /// (`gpu::codegen`), or why it runs on the host (of the segmented IR
    /// with `--segmented`).
    Glsl,
}

pub fn run(args: Args) -> ExitCode {
    let mut loaded = match read_source(&args.file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut timings: Vec<(&str, PhaseTime)> = Vec::new();
    let started = PhaseStart::now();
    let parsed = spec::syntax::parse_program(loaded.file, loaded.text());
    timings.push(("parse", started.elapsed()));
    let program = match parsed {
        Ok(program) => program,
        Err(diagnostic) => {
            print_timings(args.timings, &timings);
            return report(&diagnostic, &loaded.sources);
        }
    };
    let prelude_file = optimized::pipeline::add_prelude_file(&mut loaded.sources);
    let mut loader = FileImports::new(std::mem::take(&mut loaded.sources));
    match args.dump {
        Some(phase @ (Phase::Typed | Phase::Static | Phase::Core)) => {
            front_end(&args, phase, &program, loaded.file, &mut loader, timings)
        }
        None
        | Some(Phase::Mono | Phase::Defunc | Phase::Ir | Phase::Fused | Phase::Seg | Phase::Glsl) => {
            whole_pipeline(
                &args,
                &program,
                loaded.file,
                prelude_file,
                &mut loader,
                timings,
            )
        }
    }
}

/// `--dump typed|static|core`: the front end alone (type inference, static
/// interpretation, elaboration), each phase timed with its CPU time.
fn front_end(
    args: &Args,
    phase: Phase,
    program: &Program,
    file: FileId,
    loader: &mut FileImports,
    mut timings: Vec<(&str, PhaseTime)>,
) -> ExitCode {
    let options = optimized::typecheck::CheckOptions::from_source(&loader.sources.get(file).text);
    let started = PhaseStart::now();
    let checked = spec::recursion::with_stack(|| {
        optimized::typecheck::check_program_with_options(program, Some(&mut *loader), options)
    });
    timings.push(("typecheck", started.elapsed()));
    let checked = match checked {
        Ok(checked) => checked,
        Err(diagnostics) => {
            print_timings(args.timings, &timings);
            return report_all(&diagnostics, &loader.sources);
        }
    };
    if phase == Phase::Typed {
        print_timings(args.timings, &timings);
        for binding in &checked.bindings {
            println!("{}", binding.signature());
        }
        return ExitCode::SUCCESS;
    }
    let started = PhaseStart::now();
    let eliminated = optimized::static_interp::eliminate_modules(program, Some(&mut *loader));
    timings.push(("static", started.elapsed()));
    let (module_free, statistics) = match eliminated {
        Ok(result) => result,
        Err(diagnostics) => {
            print_timings(args.timings, &timings);
            return report_all(&diagnostics, &loader.sources);
        }
    };
    let started = PhaseStart::now();
    let printed = spec::syntax::printer::print_program(&module_free);
    timings.push(("print", started.elapsed()));
    print_timings(args.timings, &timings);
    if args.timings {
        print_static_statistics(&statistics);
    }
    if phase == Phase::Static {
        // The language options the program asked for apply to the
        // module-free program too.
        for line in loader.sources.get(file).text.lines() {
            if line.trim().starts_with("-- runestone-options:") {
                println!("{}", line.trim());
            }
        }
        print!("{printed}");
        return ExitCode::SUCCESS;
    }
    let core = spec::recursion::with_stack(|| {
        optimized::core::elaborate_module_free(&module_free, options)
    });
    match core {
        Ok(core) => {
            print!("{}", optimized::core::printer::print_program(&core));
            ExitCode::SUCCESS
        }
        Err(diagnostics) => report_all(&diagnostics, &loader.sources),
    }
}

/// No `--dump`, or a phase of the optimising pipeline: the whole pipeline
/// through the CPU backend (`optimized::pipeline`), its phase times, the
/// statistics of static interpretation and of the backend.
fn whole_pipeline(
    args: &Args,
    program: &Program,
    file: FileId,
    prelude_file: FileId,
    loader: &mut FileImports,
    mut timings: Vec<(&str, PhaseTime)>,
) -> ExitCode {
    let mut options =
        optimized::pipeline::PipelineOptions::from_source(&loader.sources.get(file).text);
    options.segmented = args.segmented || args.dump == Some(Phase::Seg);
    let compiled = spec::recursion::with_stack(|| {
        optimized::pipeline::compile_program(program, prelude_file, Some(&mut *loader), options)
    });
    let compiled = match compiled {
        Ok(compiled) => compiled,
        Err(diagnostics) => {
            print_timings(args.timings, &timings);
            return report_all(&diagnostics, &loader.sources);
        }
    };
    if args.timings {
        for &(phase, wall) in compiled.timings() {
            timings.push((phase, PhaseTime { wall, cpu: None }));
        }
        print_timings(true, &timings);
        if let Some(statistics) = &compiled.static_statistics {
            print_static_statistics(statistics);
        }
        let backend = compiled.backend_statistics();
        eprintln!(
            "cpu backend: {} SOACs, {} with a native kernel, {} vectorised",
            backend.soacs, backend.native, backend.vectorised
        );
        if let Some(segmented) = &compiled.segmented {
            let counts = optimized::flatten::count_segmented_operations(segmented);
            eprintln!(
                "segmented IR: {} segmap, {} segred, {} segscan (index spaces of up to {} dimensions); {} SOAC statements left in host code",
                counts.maps, counts.reductions, counts.scans, counts.deepest_space, counts.host_soacs
            );
        }
    }
    match args.dump {
        Some(Phase::Mono) => print!("{}", optimized::core::printer::print_program(&compiled.mono)),
        Some(Phase::Defunc) => {
            print!("{}", optimized::core::printer::print_program(&compiled.defunc))
        }
        Some(Phase::Ir) => print!("{}", optimized::ir::print_program(&compiled.ir)),
        Some(Phase::Fused) => print!("{}", optimized::ir::print_program(&compiled.fused)),
        Some(Phase::Seg) => {
            if let Some(segmented) = &compiled.segmented {
                print!("{}", optimized::ir::print_program(segmented))
            }
        }
        Some(Phase::Glsl) => {
            // With `--segmented`, the kernels of the segmented IR as the
            // GPU driver plans them: each operation expanded into one SOAC
            // over its index space.
            let planned = match &compiled.segmented {
                Some(segmented) => {
                    optimized::cpu::segmented::expand_segmented_operations(segmented.clone())
                }
                None => compiled.fused.clone(),
            };
            print!("{}", gpu::codegen::extract::glsl_listing(&planned))
        }
        _ => eprintln!(
            "runestone compile: {} compiles: {} functions and {} entry points after optimisation (--dump PHASE prints a phase's result)",
            args.file.display(),
            compiled.fused.functions.len(),
            compiled.fused.entry_points.len()
        ),
    }
    ExitCode::SUCCESS
}

fn print_static_statistics(statistics: &optimized::static_interp::Statistics) {
    eprintln!(
        "static interpretation: {} functor applications ({} reused), {} declarations emitted, {} kept",
        statistics.functor_applications,
        statistics.reused_applications,
        statistics.declarations_emitted,
        statistics.declarations_kept
    );
}

fn report_all(diagnostics: &[Diagnostic], sources: &SourceMap) -> ExitCode {
    for diagnostic in diagnostics {
        eprint!("{}", diagnostic.render(sources));
    }
    ExitCode::from(1)
}

fn print_timings(enabled: bool, timings: &[(&str, PhaseTime)]) {
    if enabled {
        let millis = |duration: Duration| duration.as_secs_f64() * 1000.0;
        let cpu_text = |cpu: Option<Duration>| match cpu {
            Some(cpu) => format!("  (cpu {:>10.3} ms)", millis(cpu)),
            None => String::new(),
        };
        for (phase, time) in timings {
            eprintln!(
                "{phase:>10}: {:>10.3} ms{}",
                millis(time.wall),
                cpu_text(time.cpu)
            );
        }
        let wall: Duration = timings.iter().map(|(_, time)| time.wall).sum();
        let cpu: Option<Duration> = timings.iter().map(|(_, time)| time.cpu).sum();
        eprintln!(
            "{:>10}: {:>10.3} ms{}",
            "total",
            millis(wall),
            cpu_text(cpu)
        );
    }
}

/// The wall time of a phase and, where the system reports it, the CPU time
/// of this thread during it (on a loaded machine the two differ).
#[derive(Clone, Copy)]
struct PhaseTime {
    wall: Duration,
    cpu: Option<Duration>,
}

struct PhaseStart {
    wall: Instant,
    cpu: Option<Duration>,
}

impl PhaseStart {
    fn now() -> PhaseStart {
        PhaseStart {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    fn elapsed(&self) -> PhaseTime {
        PhaseTime {
            wall: self.wall.elapsed(),
            cpu: match (self.cpu, thread_cpu_time()) {
                (Some(start), Some(end)) => Some(end.saturating_sub(start)),
                _ => None,
            },
        }
    }
}

/// This thread's time on a CPU so far (Linux: the first field of
/// `/proc/thread-self/schedstat`, in nanoseconds); `None` elsewhere.
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanoseconds))
}
