//! `cargo bench -p benches --bench kernels`: every benchmark of
//! `benches/programs/` at its largest size (its `tags { large }` case, the
//! same generated values `runestone bench` uses), timed side by side in one
//! run: the hand-written Rust + rayon kernel, and the program compiled once
//! by `runestone --backend cpu` and run through the SOAC IR and through the
//! segmented IR (`--segmented`).
//!
//! A program the optimising compiler rejects is skipped with a printed
//! note. Before timing, each of the CPU backend's results is checked
//! against the hand-written kernel's.

use benches::{program_cases, CaseSet, Kernel, KERNELS};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use spec::source::SourceMap;
use spec::value::{compare, Tolerance, Value};
use std::path::Path;
use std::time::Duration;

/// A program compiled by the CPU backend with its arguments converted once:
/// each call runs the entry point.
type CompiledEntry = Box<dyn Fn() -> Result<Value, String>>;

/// Compiles `program` once with the optimising compiler through the driver
/// (as `runestone --backend cpu` does) and prepares `args`
/// for `entry` once, so that the timed closure only runs the entry point,
/// as the hand-written kernel's `timed` closure only computes.
/// With `segmented`, the entry point runs through the segmented IR
/// (`runestone --backend cpu --segmented`).
fn compile_for_cpu(
    program: &Path,
    entry: &str,
    args: &[Value],
    segmented: bool,
) -> Result<CompiledEntry, String> {
    let text = std::fs::read_to_string(program).map_err(|e| e.to_string())?;
    let mut sources = SourceMap::new();
    let file = sources.add(program.display().to_string(), text);
    let options = driver::LoadOptions {
        segmented,
        ..driver::LoadOptions::default()
    };
    let compiled = driver::load::compile_optimized(&mut sources, file, options)
        .map_err(|error| error.render(&sources))?
        .compiled;
    let prepared = compiled
        .prepare_arguments(entry, args.to_vec())
        .map_err(|e| e.message)?;
    Ok(Box::new(move || {
        let result = if segmented {
            compiled.run_prepared_segmented(&prepared)
        } else {
            compiled.run_prepared(&prepared)
        };
        result.map_err(|e| e.message)
    }))
}

/// The float tolerance between the CPU backend and the hand-written kernels
/// (both may reassociate float reductions), in units in the last place.
const CPU_ULPS: u64 = 1 << 12;

fn bench_kernel(c: &mut Criterion, kernel: &Kernel) {
    let program = kernel.program_path();
    let args = match program_cases(&program, kernel.entry, CaseSet::Large) {
        Ok(mut cases) if !cases.is_empty() => cases.swap_remove(0),
        Ok(_) => return,
        Err(e) => panic!("{}: {e}", kernel.name),
    };
    let prepared = (kernel.prepare)(&args).unwrap_or_else(|e| panic!("{}: {e}", kernel.name));
    let mut group = c.benchmark_group(kernel.name);
    group.bench_function(BenchmarkId::from_parameter("hand-written rayon"), |b| {
        b.iter(|| (prepared.timed)())
    });
    let expected = (prepared.compute)();
    for (label, segmented) in [("runestone cpu", false), ("runestone cpu segmented", true)] {
        match compile_for_cpu(&program, kernel.entry, &args, segmented) {
            Ok(run) => {
                let actual = match run() {
                    Ok(Value::Tuple(values)) if !values.is_empty() => values,
                    Ok(value) => vec![value],
                    Err(e) => panic!("{}: {label}: {e}", kernel.name),
                };
                if let Err(m) = compare(&expected, &actual, Tolerance::Ulps(CPU_ULPS)) {
                    panic!(
                        "{}: {label} disagrees with the hand-written kernel: {m}",
                        kernel.name
                    );
                }
                group.bench_function(BenchmarkId::from_parameter(label), |b| b.iter(&run));
            }
            Err(note) => println!(
                "{}: {label} skipped ({}): {note}",
                kernel.name,
                program.display()
            ),
        }
    }
    group.finish();
}

fn kernels(c: &mut Criterion) {
    for kernel in KERNELS {
        bench_kernel(c, kernel);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = kernels
}
criterion_main!(benches);
