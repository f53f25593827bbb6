//! Bandwidth micro-benchmarks of the generated kernels (issue 7, item 6):
//! copy, map, reduce and scan on `f32` at 2^16 … 2^28 elements, in GB/s.
//!
//! ```text
//! cargo bench -p gpu --bench bandwidth [-- --min-log2 16 --max-log2 28 --repetitions 10 --no-write]
//! ```
//!
//! * time: the device time of each operation's submission, from Vulkan
//!   timestamp queries written before the first and after the last command
//!   (`Runtime::start_profiling`); where the queue has no timestamps, the
//!   host's submit → fence time (the output says which). The best of
//!   `--repetitions` runs after one warm-up run (which also compiles and
//!   caches the pipelines) is reported.
//! * bytes: what the operation must move at least — copy and map `8n`
//!   (read and write `n` floats), reduce `4n`, scan `8n` (the three-pass scan
//!   really reads its input twice, so its true traffic is `12n`).
//! * every result is checked against the CPU (exactly for copy/map, with a
//!   relative tolerance of 1e-5 for reduce/scan, whose summation order
//!   differs); a wrong result aborts the run.
//! * sizes whose buffers exceed `maxStorageBufferRange` (128 MiB on
//!   lavapipe: 2^25 floats) are reported as skipped, not split.
//!
//! Rows are appended to `benches/RESULTS.md` at the workspace root (unless
//! `--no-write`), with the device, driver, date and command.

use gpu::kernels::element::{HostColumn, PrimType};
use gpu::kernels::lambda::{BuiltinOperator, MapLambda, Operator};
use gpu::kernels::soac::map::map;
use gpu::kernels::soac::reduce::reduce;
use gpu::kernels::soac::scan::scan;
use gpu::kernels::soac::DeviceArrays;
use gpu::runtime::peak_bandwidth::{peak_memory_bandwidth, PeakBandwidthSource};
use gpu::{GpuError, GpuResult, Runtime, RuntimeOptions};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

struct Options {
    minimum_log2: u32,
    maximum_log2: u32,
    repetitions: u32,
    write_results: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        minimum_log2: 16,
        maximum_log2: 28,
        repetitions: 10,
        write_results: true,
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        let mut number = |name: &str| -> Result<u32, String> {
            arguments
                .next()
                .and_then(|text| text.parse().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match argument.as_str() {
            "--min-log2" => options.minimum_log2 = number("--min-log2")?,
            "--max-log2" => options.maximum_log2 = number("--max-log2")?,
            "--repetitions" => options.repetitions = number("--repetitions")?.max(1),
            "--no-write" => options.write_results = false,
            // `cargo bench` passes `--bench` to every bench binary.
            "--bench" => {}
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if options.minimum_log2 > options.maximum_log2 || options.maximum_log2 > 31 {
        return Err("need --min-log2 ≤ --max-log2 ≤ 31".to_owned());
    }
    Ok(options)
}

/// One benchmarked operation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Operation {
    Copy,
    Map,
    Reduce,
    Scan,
}

impl Operation {
    const ALL: [Operation; 4] = [
        Operation::Copy,
        Operation::Map,
        Operation::Reduce,
        Operation::Scan,
    ];

    fn name(self) -> &'static str {
        match self {
            Operation::Copy => "copy",
            Operation::Map => "map x*2+1",
            Operation::Reduce => "reduce (+)",
            Operation::Scan => "scan (+)",
        }
    }

    /// The bytes the operation must move over `element_count` floats.
    fn bytes_moved(self, element_count: u64) -> u64 {
        match self {
            Operation::Reduce => 4 * element_count,
            Operation::Copy | Operation::Map | Operation::Scan => 8 * element_count,
        }
    }
}

fn add_f32() -> Operator {
    Operator::builtin(BuiltinOperator::Add, PrimType::F32)
        .unwrap_or_else(|| unreachable!("(+) applies to f32"))
}

fn run_operation(
    runtime: &Runtime,
    operation: Operation,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    match operation {
        Operation::Copy => map(runtime, &MapLambda::identity(&[PrimType::F32]), inputs),
        Operation::Map => map(
            runtime,
            &MapLambda::new(
                vec![PrimType::F32],
                vec![PrimType::F32],
                "y0 = x0 * 2.0 + 1.0;",
            ),
            inputs,
        ),
        Operation::Reduce => reduce(runtime, &add_f32(), inputs),
        Operation::Scan => scan(runtime, &add_f32(), inputs),
    }
}

fn close(actual: f32, expected: f64) -> bool {
    (f64::from(actual) - expected).abs() <= 1e-5 * expected.abs().max(1.0)
}

/// Check `outputs` of `operation` on `values` against the CPU.
fn verify(
    runtime: &Runtime,
    operation: Operation,
    values: &[f32],
    outputs: &DeviceArrays,
) -> Result<(), String> {
    let downloaded = outputs
        .download(runtime)
        .map_err(|error| error.to_string())?;
    let HostColumn::F32(results) = &downloaded[0] else {
        return Err("expected f32 results".to_owned());
    };
    let wrong = |index: usize| Err(format!("{} differs at {index}", operation.name()));
    match operation {
        Operation::Copy | Operation::Map => {
            for (index, (result, value)) in results.iter().zip(values).enumerate() {
                let expected = if operation == Operation::Copy {
                    *value
                } else {
                    value * 2.0 + 1.0
                };
                if result.to_bits() != expected.to_bits() {
                    return wrong(index);
                }
            }
        }
        Operation::Reduce => {
            let expected: f64 = values.iter().map(|value| f64::from(*value)).sum();
            if !close(results[0], expected) {
                return wrong(0);
            }
        }
        Operation::Scan => {
            let mut running = 0.0f64;
            for (index, (result, value)) in results.iter().zip(values).enumerate() {
                running += f64::from(*value);
                if !close(*result, running) {
                    return wrong(index);
                }
            }
        }
    }
    Ok(())
}

/// The best time of `repetitions` runs (after a warm-up) and whether it is
/// device time.
fn measure(
    runtime: &Runtime,
    operation: Operation,
    inputs: &DeviceArrays,
    values: &[f32],
    repetitions: u32,
) -> Result<(Duration, bool), String> {
    let warm_up = run_operation(runtime, operation, inputs).map_err(|error| error.to_string())?;
    verify(runtime, operation, values, &warm_up)?;
    drop(warm_up);
    let mut best: Option<(Duration, bool)> = None;
    for _ in 0..repetitions {
        runtime.start_profiling();
        let outputs = run_operation(runtime, operation, inputs);
        let timings = runtime.stop_profiling();
        outputs.map_err(|error| error.to_string())?;
        let device_time: Option<Duration> = timings
            .iter()
            .map(|timing| timing.device_time)
            .sum::<Option<Duration>>();
        let time = match device_time {
            Some(time) => (time, true),
            None => (timings.iter().map(|timing| timing.host_time).sum(), false),
        };
        if best.is_none_or(|(best_time, _)| time.0 < best_time) {
            best = Some(time);
        }
    }
    best.ok_or_else(|| "no repetition ran".to_owned())
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs() / 86_400) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("bandwidth: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match Runtime::new(RuntimeOptions::default()) {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("bandwidth: no GPU runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let info = runtime.device_info();
    let driver = match (&info.driver_name, &info.driver_info) {
        (Some(name), Some(details)) => format!("{name} ({details})"),
        (Some(name), None) => name.clone(),
        (None, Some(details)) => details.clone(),
        (None, None) => "unknown".to_owned(),
    };
    let peak = peak_memory_bandwidth(&info.name);
    let peak_text = match &peak {
        Some((value, PeakBandwidthSource::Environment)) => {
            format!("{value:.0} GB/s (RUNESTONE_PEAK_BANDWIDTH_GBPS)")
        }
        Some((value, PeakBandwidthSource::DataSheet { matched })) => {
            format!("{value:.0} GB/s (data sheet, matched {matched:?})")
        }
        None => "unknown (set RUNESTONE_PEAK_BANDWIDTH_GBPS)".to_owned(),
    };
    let timing_method = if runtime.has_timestamps() {
        "device time from Vulkan timestamp queries around each submission"
    } else {
        "host time from vkQueueSubmit to the fence (the queue has no timestamps)"
    };
    let command = format!(
        "cargo bench -p gpu --bench bandwidth -- --min-log2 {} --max-log2 {} --repetitions {}",
        options.minimum_log2, options.maximum_log2, options.repetitions
    );
    println!("device:  {} ({:?})", info.name, info.kind);
    println!("driver:  {driver}; Vulkan {}", info.api_version);
    println!("peak:    {peak_text}");
    println!(
        "timing:  {timing_method}; best of {} runs after a warm-up",
        options.repetitions
    );
    println!("command: {command}");
    println!(
        "{:<12} {:>12} {:>14} {:>12} {:>10} {:>8}",
        "operation", "elements", "bytes moved", "time (µs)", "GB/s", "% peak"
    );
    let mut rows = String::new();
    let mut failed = false;
    for log2 in options.minimum_log2..=options.maximum_log2 {
        let element_count = 1u64 << log2;
        let values: Vec<f32> = (0..element_count)
            .map(|index| (index % 7) as f32 - 3.0)
            .collect();
        let inputs = match DeviceArrays::upload(&runtime, &[HostColumn::F32(values.clone())]) {
            Ok(inputs) => inputs,
            Err(GpuError::BufferTooLarge {
                limit_name,
                limit_bytes,
                ..
            }) => {
                let note = format!(
                    "skipped: {} bytes exceed {limit_name} ({limit_bytes} bytes)",
                    element_count * 4
                );
                println!("{:<12} {:>12} {note}", "all", format!("2^{log2}"));
                let _ = writeln!(rows, "| all | 2^{log2} | | | | {note} |");
                continue;
            }
            Err(error) => {
                eprintln!("bandwidth: upload of 2^{log2} floats failed: {error}");
                return ExitCode::FAILURE;
            }
        };
        for operation in Operation::ALL {
            match measure(&runtime, operation, &inputs, &values, options.repetitions) {
                Ok((time, _)) => {
                    let bytes = operation.bytes_moved(element_count);
                    let gigabytes_per_second = bytes as f64 / time.as_secs_f64().max(1e-9) / 1e9;
                    let percent = peak.as_ref().map_or("—".to_owned(), |(value, _)| {
                        format!("{:.0} %", 100.0 * gigabytes_per_second / value)
                    });
                    println!(
                        "{:<12} {:>12} {:>14} {:>12.1} {:>10.2} {:>8}",
                        operation.name(),
                        format!("2^{log2}"),
                        bytes,
                        time.as_secs_f64() * 1e6,
                        gigabytes_per_second,
                        percent
                    );
                    let _ = writeln!(
                        rows,
                        "| {} | 2^{log2} | {bytes} | {:.1} | {gigabytes_per_second:.2} | {percent} |",
                        operation.name(),
                        time.as_secs_f64() * 1e6
                    );
                }
                Err(message) => {
                    println!(
                        "{:<12} {:>12} FAILED: {message}",
                        operation.name(),
                        format!("2^{log2}")
                    );
                    let _ = writeln!(
                        rows,
                        "| {} | 2^{log2} | | | | FAILED: {message} |",
                        operation.name()
                    );
                    failed = true;
                }
            }
        }
    }
    if options.write_results {
        let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap_or(std::path::Path::new("."));
        let path = workspace.join("benches").join("RESULTS.md");
        let mut text = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            "# Benchmark results\n\nRows appended by the benchmarks; each section names the device, driver, date and command.\n".to_owned()
        });
        let _ = write!(
            text,
            "\n## GPU bandwidth — {} — {}\n\n- driver: {driver}; Vulkan {}\n- peak: {peak_text}\n- timing: {timing_method}; best of {} runs after a warm-up; bytes = the minimum traffic (copy/map 8n, reduce 4n, scan 8n)\n- command: `{command}`\n\n| operation | elements | bytes moved | time (µs) | GB/s | % of peak |\n|---|---|---|---|---|---|\n{rows}",
            info.name,
            today(),
            info.api_version,
            options.repetitions
        );
        if let Err(error) =
            std::fs::create_dir_all(path.parent().unwrap_or(std::path::Path::new(".")))
                .and_then(|()| std::fs::write(&path, text))
        {
            eprintln!("bandwidth: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
        println!("rows appended to {}", path.display());
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
