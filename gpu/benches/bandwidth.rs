//! Bandwidth micro-benchmarks of the generated kernels (issues 7 and 22):
//! copy, map, reduce and scan on `f32` at 2^16 … 2^28 elements, in GB/s,
//! beside PyTorch's figures for the same operations in the same run.
//!
//! ```text
//! cargo bench -p gpu --bench bandwidth [-- --min-log2 16 --max-log2 28 --repetitions 10
//!     --no-write --no-torch --memory-block-mib N --pool-mib N --warm-up-ms N]
//! ```
//!
//! * operations: copy (the identity map, vector access), copy with scalar
//!   access (the map kernel before issue 22, the baseline), map `x*2+1`,
//!   reduce `(+)`, scan `(+)` (one pass, decoupled look-back, waiting as the
//!   device allows), the same never waiting (every unpublished predecessor
//!   reduced by its successor: the fallback) and scan with three passes
//!   (reduce-then-scan, the scan before issue 22); the scan of every row of
//!   1 024 elements (`map (scan (+) 0)`), a workgroup per row against one
//!   pass with decoupled look-back (PyTorch: `cumsum` along the rows).
//! * PyTorch: unless `--no-torch`, `gpu/benches/torch_bandwidth.py`
//!   (embedded in the binary, run with `python3 -c`) runs first (before this process opens the device) and, where `torch`
//!   sees a CUDA device, times `copy_`, `x*2`, `sum` and `cumsum` on the same
//!   data the same way (CUDA events around each operation, best of N after
//!   a warm-up); each row then shows PyTorch's GB/s and runestone's time as a
//!   ratio of PyTorch's throughput. Elsewhere the output says why not.
//! * `--memory-block-mib N`: suballocate buffers from N MiB blocks (vulkano
//!   gives buffers above half a block, 128 MiB by default, an allocation of
//!   their own); `--pool-mib N`: keep up to N MiB of idle buffers for reuse
//!   (512 by default). Both for the large-buffer investigation of
//!   `gpu/NOTES.md`.
//!
//! * time: the device time of each operation's submission, from Vulkan
//!   timestamp queries written before the first and after the last command
//!   (`Runtime::start_profiling`); where the queue has no timestamps, the
//!   host's submit → fence time (the output says which). The best of
//!   `--repetitions` runs back to back, after 100 ms (`--warm-up-ms`) of
//!   warm-up runs (which also compile and cache the pipelines), is reported;
//!   the result of the last run is checked afterwards. Each printed row ends
//!   with the time of day it was verified, to be read beside a log of the
//!   device's clocks: on the H200 the SM clock sat at 450–840 MHz for
//!   seconds while the bench alternated short bursts with CPU checks
//!   (`gpu/NOTES.md`, "On an NVIDIA H200").
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
use gpu::kernels::soac::lookback::LookBackWaiting;
use gpu::kernels::soac::map::{map_with, MapAccess};
use gpu::kernels::soac::reduce::reduce;
use gpu::kernels::soac::scan::{scan, scan_source_with, segmented_scan_with, ScanStrategy};
use gpu::kernels::soac::segmented::SegmentedStrategy;
use gpu::kernels::soac::{DeviceArrays, ElementSource};
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
    run_torch: bool,
    memory_block_mebibytes: Option<u64>,
    pool_mebibytes: Option<u64>,
    warm_up: Duration,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        minimum_log2: 16,
        maximum_log2: 28,
        repetitions: 10,
        write_results: true,
        run_torch: true,
        memory_block_mebibytes: None,
        pool_mebibytes: None,
        warm_up: DEFAULT_WARM_UP,
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
            "--no-torch" => options.run_torch = false,
            "--memory-block-mib" => {
                options.memory_block_mebibytes = Some(u64::from(number("--memory-block-mib")?))
            }
            "--pool-mib" => options.pool_mebibytes = Some(u64::from(number("--pool-mib")?)),
            "--warm-up-ms" => {
                options.warm_up = Duration::from_millis(u64::from(number("--warm-up-ms")?))
            }
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
    CopyScalarAccess,
    Map,
    Reduce,
    Scan,
    ScanNeverWaiting,
    ScanThreePasses,
    RowScanWorkgroupPerRow,
    RowScanSinglePass,
}

/// The row length of the segmented scans (`map (scan (+) 0)` over rows).
const ROW_LENGTH: u64 = 1024;

impl Operation {
    const ALL: [Operation; 9] = [
        Operation::Copy,
        Operation::CopyScalarAccess,
        Operation::Map,
        Operation::Reduce,
        Operation::Scan,
        Operation::ScanNeverWaiting,
        Operation::ScanThreePasses,
        Operation::RowScanWorkgroupPerRow,
        Operation::RowScanSinglePass,
    ];

    fn name(self) -> &'static str {
        match self {
            Operation::Copy => "copy",
            Operation::CopyScalarAccess => "copy, scalar",
            Operation::Map => "map x*2+1",
            Operation::Reduce => "reduce (+)",
            Operation::Scan => "scan (+)",
            Operation::ScanNeverWaiting => "scan, no wait",
            Operation::ScanThreePasses => "scan, 3 passes",
            Operation::RowScanWorkgroupPerRow => "rows, wg/row",
            Operation::RowScanSinglePass => "rows, 1 pass",
        }
    }

    /// The bytes the operation must move over `element_count` floats.
    fn bytes_moved(self, element_count: u64) -> u64 {
        match self {
            Operation::Reduce => 4 * element_count,
            Operation::Copy
            | Operation::CopyScalarAccess
            | Operation::Map
            | Operation::Scan
            | Operation::ScanNeverWaiting
            | Operation::ScanThreePasses
            | Operation::RowScanWorkgroupPerRow
            | Operation::RowScanSinglePass => 8 * element_count,
        }
    }

    /// The name of PyTorch's peer in `torch_bandwidth.py`'s output.
    fn torch_peer(self) -> &'static str {
        match self {
            Operation::Copy | Operation::CopyScalarAccess => "copy",
            Operation::Map => "map",
            Operation::Reduce => "reduce",
            Operation::Scan | Operation::ScanNeverWaiting | Operation::ScanThreePasses => "scan",
            Operation::RowScanWorkgroupPerRow | Operation::RowScanSinglePass => "rowscan",
        }
    }
}

/// What PyTorch measured: best seconds by (peer operation, log2 size), or
/// why there is no peer.
struct TorchFigures {
    description: String,
    seconds: std::collections::HashMap<(String, u32), f64>,
}

/// Run `torch_bandwidth.py` (before this process opens the device).
fn torch_figures(options: &Options) -> TorchFigures {
    // Embedded, so the bench binary runs anywhere (a lent GPU machine
    // gets the binary, not this source tree's path).
    const SCRIPT: &str = include_str!("torch_bandwidth.py");
    let mut figures = TorchFigures {
        description: String::new(),
        seconds: std::collections::HashMap::new(),
    };
    let output = std::process::Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(options.minimum_log2.to_string())
        .arg(options.maximum_log2.to_string())
        .arg(options.repetitions.to_string())
        .stderr(std::process::Stdio::inherit())
        .output();
    let output = match output {
        Ok(output) if output.status.success() => output,
        Ok(output) => {
            figures.description = format!(
                "unavailable (torch_bandwidth.py exited with {})",
                output.status
            );
            return figures;
        }
        Err(error) => {
            figures.description = format!("unavailable (cannot run python3: {error})");
            return figures;
        }
    };
    let mut device = String::new();
    let mut version = String::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let mut words = line.splitn(2, ' ');
        match (words.next(), words.next()) {
            (Some("unavailable"), Some(reason)) => {
                figures.description = format!("unavailable ({reason})");
            }
            (Some("device"), Some(name)) => device = name.to_owned(),
            (Some("version"), Some(text)) => version = text.to_owned(),
            (Some("result"), Some(rest)) => {
                let fields: Vec<&str> = rest.split(' ').collect();
                if let [operation, log2, seconds] = fields.as_slice() {
                    if let (Ok(log2), Ok(seconds)) = (log2.parse::<u32>(), seconds.parse::<f64>()) {
                        figures
                            .seconds
                            .insert(((*operation).to_owned(), log2), seconds);
                    }
                }
            }
            _ => {}
        }
    }
    if figures.description.is_empty() {
        figures.description = format!(
            "PyTorch {version} on {device}: copy_, x*2, sum, cumsum; CUDA events, best of {} after a warm-up",
            options.repetitions
        );
    }
    figures
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
        Operation::Copy => map_with(
            runtime,
            &MapLambda::identity(&[PrimType::F32]),
            None,
            inputs,
            MapAccess::Vectors,
        ),
        Operation::CopyScalarAccess => map_with(
            runtime,
            &MapLambda::identity(&[PrimType::F32]),
            None,
            inputs,
            MapAccess::Scalars,
        ),
        Operation::Map => map_with(
            runtime,
            &MapLambda::new(
                vec![PrimType::F32],
                vec![PrimType::F32],
                "y0 = x0 * 2.0 + 1.0;",
            ),
            None,
            inputs,
            MapAccess::Vectors,
        ),
        Operation::Reduce => reduce(runtime, &add_f32(), None, inputs),
        Operation::Scan => scan(runtime, &add_f32(), None, inputs),
        Operation::ScanNeverWaiting => scan_source_with(
            runtime,
            &ElementSource::columns(&[PrimType::F32]),
            &add_f32(),
            None,
            inputs,
            ScanStrategy::SinglePass(LookBackWaiting::NeverWait),
        ),
        Operation::ScanThreePasses => scan_source_with(
            runtime,
            &ElementSource::columns(&[PrimType::F32]),
            &add_f32(),
            None,
            inputs,
            ScanStrategy::ReduceThenScan,
        ),
        Operation::RowScanWorkgroupPerRow | Operation::RowScanSinglePass => segmented_scan_with(
            runtime,
            &add_f32(),
            inputs,
            inputs.length / ROW_LENGTH,
            ROW_LENGTH,
            if operation == Operation::RowScanSinglePass {
                SegmentedStrategy::SinglePass
            } else {
                SegmentedStrategy::WorkgroupPerRow
            },
        ),
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
        Operation::Copy | Operation::CopyScalarAccess | Operation::Map => {
            for (index, (result, value)) in results.iter().zip(values).enumerate() {
                let expected = if operation == Operation::Map {
                    value * 2.0 + 1.0
                } else {
                    *value
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
        Operation::Scan | Operation::ScanNeverWaiting | Operation::ScanThreePasses => {
            let mut running = 0.0f64;
            for (index, (result, value)) in results.iter().zip(values).enumerate() {
                running += f64::from(*value);
                if !close(*result, running) {
                    return wrong(index);
                }
            }
        }
        Operation::RowScanWorkgroupPerRow | Operation::RowScanSinglePass => {
            let mut running = 0.0f64;
            for (index, (result, value)) in results.iter().zip(values).enumerate() {
                if index as u64 % ROW_LENGTH == 0 {
                    running = 0.0;
                }
                running += f64::from(*value);
                if !close(*result, running) {
                    return wrong(index);
                }
            }
        }
    }
    Ok(())
}

/// How long the warm-up keeps the device busy before the timed runs, unless
/// `--warm-up-ms` says otherwise.
const DEFAULT_WARM_UP: Duration = Duration::from_millis(100);

/// The best time of `repetitions` runs and whether it is device time. The
/// operation first runs back to back for `warm_up` (at least three
/// times), then the timed runs follow back to back, and the last one's
/// result is checked against the CPU afterwards: no host pause (a download
/// and a CPU check take up to seconds at 2^28) comes between the warm-up
/// and the timed runs. On the H200 the runs after such a pause were timed at
/// a third of the bandwidth (gpu/NOTES.md, "Bandwidth benchmark").
fn measure(
    runtime: &Runtime,
    operation: Operation,
    inputs: &DeviceArrays,
    values: &[f32],
    repetitions: u32,
    warm_up: Duration,
) -> Result<(Duration, bool), String> {
    let warm_up_start = std::time::Instant::now();
    let mut warm_up_runs = 0;
    while warm_up_runs < 3 || warm_up_start.elapsed() < warm_up {
        run_operation(runtime, operation, inputs).map_err(|error| error.to_string())?;
        warm_up_runs += 1;
    }
    let mut best: Option<(Duration, bool)> = None;
    let mut last_outputs = None;
    for _ in 0..repetitions {
        runtime.start_profiling();
        let outputs = run_operation(runtime, operation, inputs);
        let timings = runtime.stop_profiling();
        last_outputs = Some(outputs.map_err(|error| error.to_string())?);
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
    let outputs = last_outputs.ok_or_else(|| "no repetition ran".to_owned())?;
    verify(runtime, operation, values, &outputs)?;
    best.ok_or_else(|| "no repetition ran".to_owned())
}

/// The time of day (UTC) as `HH:MM:SS.mmm`: printed after each row, so the
/// rows can be read beside a clock log (`nvidia-smi --query-gpu=timestamp,
/// clocks.sm,… -lms 100`, as `gpu/scripts/device-checks.sh` samples it).
fn utc_time_of_day() -> String {
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let milliseconds_today = since_epoch.as_millis() % 86_400_000;
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        milliseconds_today / 3_600_000,
        milliseconds_today / 60_000 % 60,
        milliseconds_today / 1000 % 60,
        milliseconds_today % 1000
    )
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
    let torch = if options.run_torch {
        torch_figures(&options)
    } else {
        TorchFigures {
            description: "not run (--no-torch)".to_owned(),
            seconds: std::collections::HashMap::new(),
        }
    };
    let defaults = RuntimeOptions::default();
    let runtime = match Runtime::new(RuntimeOptions {
        memory_block_bytes: options
            .memory_block_mebibytes
            .map(|mebibytes| mebibytes << 20),
        maximum_pooled_bytes: options
            .pool_mebibytes
            .map_or(defaults.maximum_pooled_bytes, |mebibytes| mebibytes << 20),
        ..defaults
    }) {
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
    let mut command = format!(
        "cargo bench -p gpu --bench bandwidth -- --min-log2 {} --max-log2 {} --repetitions {}",
        options.minimum_log2, options.maximum_log2, options.repetitions
    );
    if let Some(mebibytes) = options.memory_block_mebibytes {
        let _ = write!(command, " --memory-block-mib {mebibytes}");
    }
    if let Some(mebibytes) = options.pool_mebibytes {
        let _ = write!(command, " --pool-mib {mebibytes}");
    }
    if options.warm_up != DEFAULT_WARM_UP {
        let _ = write!(command, " --warm-up-ms {}", options.warm_up.as_millis());
    }
    let multiprocessors = match info.multiprocessors {
        Some(multiprocessors) => format!(
            "{} multiprocessors, {} resident invocations each",
            multiprocessors.count, multiprocessors.resident_invocations_each
        ),
        None => "multiprocessors not reported".to_owned(),
    };
    println!("device:  {} ({:?})", info.name, info.kind);
    println!("driver:  {driver}; Vulkan {}", info.api_version);
    println!("peak:    {peak_text}");
    println!(
        "timing:  {timing_method}; best of {} runs back to back after {} ms of warm-up runs",
        options.repetitions,
        options.warm_up.as_millis()
    );
    println!("device:  {multiprocessors}");
    println!("command: {command}");
    println!("PyTorch: {}", torch.description);
    println!(
        "{:<15} {:>9} {:>14} {:>12} {:>10} {:>8} {:>13} {:>9}  verified at (UTC)",
        "operation",
        "elements",
        "bytes moved",
        "time (µs)",
        "GB/s",
        "% peak",
        "PyTorch GB/s",
        "/ PyTorch"
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
                println!("{:<15} {:>9} {note}", "all", format!("2^{log2}"));
                let _ = writeln!(rows, "| all | 2^{log2} | | | | {note} | | |");
                continue;
            }
            Err(error) => {
                eprintln!("bandwidth: upload of 2^{log2} floats failed: {error}");
                return ExitCode::FAILURE;
            }
        };
        for operation in Operation::ALL {
            let by_rows = matches!(
                operation,
                Operation::RowScanWorkgroupPerRow | Operation::RowScanSinglePass
            );
            if by_rows && element_count < ROW_LENGTH {
                continue;
            }
            match measure(
                &runtime,
                operation,
                &inputs,
                &values,
                options.repetitions,
                options.warm_up,
            ) {
                Ok((time, _)) => {
                    let bytes = operation.bytes_moved(element_count);
                    let gigabytes_per_second = bytes as f64 / time.as_secs_f64().max(1e-9) / 1e9;
                    let percent = peak.as_ref().map_or("—".to_owned(), |(value, _)| {
                        format!("{:.0} %", 100.0 * gigabytes_per_second / value)
                    });
                    let (torch_rate, ratio) = match torch
                        .seconds
                        .get(&(operation.torch_peer().to_owned(), log2))
                    {
                        Some(seconds) => {
                            let torch_rate = bytes as f64 / seconds.max(1e-9) / 1e9;
                            (
                                format!("{torch_rate:.2}"),
                                format!("{:.2}", gigabytes_per_second / torch_rate),
                            )
                        }
                        None => ("—".to_owned(), "—".to_owned()),
                    };
                    println!(
                        "{:<15} {:>9} {:>14} {:>12.1} {:>10.2} {:>8} {:>13} {:>9}  {}",
                        operation.name(),
                        format!("2^{log2}"),
                        bytes,
                        time.as_secs_f64() * 1e6,
                        gigabytes_per_second,
                        percent,
                        torch_rate,
                        ratio,
                        utc_time_of_day()
                    );
                    let _ = writeln!(
                        rows,
                        "| {} | 2^{log2} | {bytes} | {:.1} | {gigabytes_per_second:.2} | {percent} | {torch_rate} | {ratio} |",
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
                        "| {} | 2^{log2} | | | | FAILED: {message} | | |",
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
            "\n## GPU bandwidth — {} — {}\n\n- driver: {driver}; Vulkan {}\n- peak: {peak_text}\n- {multiprocessors}\n- timing: {timing_method}; best of {} runs back to back after {} ms of warm-up runs; bytes = the minimum traffic (copy/map 8n, reduce 4n, scan 8n)\n- PyTorch: {}\n- command: `{command}`\n\n| operation | elements | bytes moved | time (µs) | GB/s | % of peak | PyTorch GB/s | / PyTorch |\n|---|---|---|---|---|---|---|---|\n{rows}",
            info.name,
            today(),
            info.api_version,
            options.repetitions,
            options.warm_up.as_millis(),
            torch.description
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
