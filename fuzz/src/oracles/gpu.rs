//! The GPU oracle (issue 7, "the GPU as the third oracle"): one generated
//! program, compiled once by the optimising pipeline (with its segmented IR),
//! run by the CPU backend (`optimized::cpu`, the SOAC IR) and twice by the
//! GPU driver (`gpu::driver`: the same compiled program with every top-level
//! SOAC it plans run as a kernel), on the SOAC IR and on the segmented IR;
//! each GPU run must meet the CPU's. The reference is not involved: this is
//! GPU against CPU.
//!
//! - agree: equal values within the compiled backends' float tolerance
//!   ([`spec::value::COMPILED_FLOAT_ULPS`]; integers exactly), or the same
//!   run-time error (message and `file:line:col`);
//! - disagree: anything else, and also any message of the Vulkan validation
//!   layer during the GPU run, and any SPIR-V module the campaign compiled
//!   that `spirv-val` rejects;
//! - discard (with its reason): the optimising front end rejects the
//!   program or does not support a construct (nothing to run; the value and
//!   verdict oracles judge that), or the CPU backend itself breaks (the
//!   value oracle's finding).
//!
//! Each campaign worker thread opens one Vulkan runtime ([`Runtime`]) the
//! first time it examines a program and keeps it for every later program
//! (the validation layer on when it is installed). Each program reports the
//! device's work ([`DeviceWork`]): how many SOAC statements ran as kernels
//! (a campaign where nothing reaches the device proves nothing).
//!
//! `spirv-val` checks the modules each GPU run loaded
//! (`gpu::kernels::modules_used_by`, on the worker's thread), each
//! distinct module once per process (its verdict cached by a hash of its
//! words): a module it rejects makes every program that loads it disagree,
//! and only those, whichever worker compiled it first, so shrinking keeps
//! the failure.

use super::value::{not_loaded, optimized_compile_with, run_main, shown, Run};
use super::{panic_message, Outcome};
use gpu::driver::{DriverCounters, DriverStatistics};
use gpu::runtime::instance::ValidationMode;
use gpu::{GpuError, Runtime, RuntimeOptions};
use spec::value::{compare, Tolerance, Value, COMPILED_FLOAT_ULPS};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

/// The most validation messages or `spirv-val` lines quoted in a
/// disagreement's message.
const QUOTED_MESSAGES: usize = 3;

/// What the device did for one program (the worker's driver counters
/// before and after its GPU run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceWork {
    /// The program compiled and ran on both backends.
    pub ran: bool,
    /// The driver's counters over the program's device runs: statements
    /// planned and left on the host, executions run as kernels, handed back
    /// (and why) and run on the host.
    pub driver: DriverStatistics,
    /// Validation-layer messages recorded during the GPU run.
    pub validation_messages: u64,
    /// Modules this program's examination passed to `spirv-val`, and how
    /// many it rejected.
    pub modules_validated: u64,
    pub spirv_val_failures: u64,
}

/// The device's work over a campaign (sums of [`DeviceWork`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceTally {
    /// Programs that compiled and ran on both backends.
    pub programs_run: u64,
    /// Programs during which at least one kernel ran on the device.
    pub programs_offloaded: u64,
    pub driver: DriverStatistics,
    pub validation_messages: u64,
    pub modules_validated: u64,
    pub spirv_val_failures: u64,
}

impl DeviceTally {
    pub fn add(&mut self, work: &DeviceWork) {
        self.programs_run += u64::from(work.ran);
        self.programs_offloaded += u64::from(work.driver.kernel_runs > 0);
        self.driver = self.driver + work.driver;
        self.validation_messages += work.validation_messages;
        self.modules_validated += work.modules_validated;
        self.spirv_val_failures += work.spirv_val_failures;
    }
}

impl std::fmt::Display for DeviceTally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} programs run on both backends ran at least one kernel ({:.1}%); \
             {}; {} validation messages; {} SPIR-V modules checked by spirv-val, {} rejected",
            self.programs_offloaded,
            self.programs_run,
            100.0 * self.programs_offloaded as f64 / self.programs_run.max(1) as f64,
            self.driver,
            self.validation_messages,
            self.modules_validated,
            self.spirv_val_failures
        )
    }
}

/// How many times the generator's SOAC weight the GPU oracle's programs
/// of the value oracle's kinds use (with the default weights 19 % of them
/// ran a kernel, seed 2026; 47 % with this factor; see `fuzz/README.md`).
pub const SOAC_WEIGHT_FACTOR: u32 = 8;

/// The generator's configuration for the GPU oracle: the value oracle's
/// kind of program, with SOACs [`SOAC_WEIGHT_FACTOR`] times as likely, so
/// that more programs reach SOACs the driver plans as kernels.
pub fn generator(base: crate::gen::GenConfig) -> crate::gen::GenConfig {
    let mut config = base;
    config.weights.soac *= SOAC_WEIGHT_FACTOR;
    config
}

/// One worker thread's device: its runtime and the driver's counters.
struct Worker {
    runtime: Arc<Runtime>,
    counters: Arc<DriverCounters>,
}

thread_local! {
    /// The calling worker's device, opened on its first program.
    static WORKER: RefCell<Option<Result<Arc<Worker>, String>>> = const { RefCell::new(None) };
}

/// A runtime on the preferred device (`RUNESTONE_DEVICE` chooses another),
/// with the validation layer when it is installed.
fn open_runtime() -> Result<Runtime, String> {
    let options = |validation| RuntimeOptions {
        validation,
        ..RuntimeOptions::default()
    };
    match Runtime::new(options(ValidationMode::Required)) {
        Err(GpuError::ValidationLayerMissing) => Runtime::new(options(ValidationMode::Disabled)),
        other => other,
    }
    .map_err(|error| format!("no usable Vulkan device: {error}"))
}

fn worker() -> Result<Arc<Worker>, String> {
    WORKER.with(|cell| {
        cell.borrow_mut()
            .get_or_insert_with(|| {
                open_runtime().map(|runtime| {
                    Arc::new(Worker {
                        runtime: Arc::new(runtime),
                        counters: Arc::default(),
                    })
                })
            })
            .clone()
    })
}

/// What the GPU oracle will run on, checked before a campaign: the device
/// (name, whether the validation layer is on) and `spirv-val`. `Err` says
/// why the oracle cannot run (no Vulkan device, no `spirv-val`).
pub fn probe() -> Result<String, String> {
    let runtime = open_runtime()?;
    spirv_val_version()?;
    Ok(format!(
        "{} ({:?}), Vulkan validation layer {}, spirv-val --target-env {}",
        runtime.device_info().name,
        runtime.device_info().kind,
        if runtime.validation_enabled() {
            "on"
        } else {
            "not installed (off)"
        },
        gpu::compile::TARGET_VULKAN_VERSION_NAME
    ))
}

fn spirv_val_version() -> Result<(), String> {
    match std::process::Command::new("spirv-val")
        .arg("--version")
        .output()
    {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!(
            "spirv-val --version fails: {}",
            String::from_utf8_lossy(&output.stderr)
        )),
        Err(error) => Err(format!(
            "cannot run spirv-val ({error}); install it with `apt-get install spirv-tools`"
        )),
    }
}

/// `spirv-val`'s verdict on every module checked so far, by hash of words.
fn spirv_verdicts() -> std::sync::MutexGuard<'static, HashMap<u64, Result<(), String>>> {
    static VERDICTS: OnceLock<Mutex<HashMap<u64, Result<(), String>>>> = OnceLock::new();
    VERDICTS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn module_hash(words: &[u32]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    words.hash(&mut hasher);
    hasher.finish()
}

/// Runs `spirv-val` on one module.
fn run_spirv_val(name: &str, words: &[u32]) -> Result<(), String> {
    let path = std::env::temp_dir().join(format!(
        "runestone-gpu-oracle-{}-{:?}.spv",
        std::process::id(),
        std::thread::current().id()
    ));
    let path = path.with_file_name(
        path.file_name()
            .map(|n| n.to_string_lossy().replace(['(', ')'], ""))
            .unwrap_or_default(),
    );
    let bytes: Vec<u8> = words.iter().flat_map(|word| word.to_le_bytes()).collect();
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let output = std::process::Command::new("spirv-val")
        .arg("--target-env")
        .arg(gpu::compile::TARGET_VULKAN_VERSION_NAME)
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    match output {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!(
            "spirv-val rejects kernel {name}: {}{}",
            String::from_utf8_lossy(&output.stdout).trim(),
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Err(error) => Err(format!(
            "cannot run spirv-val on kernel {name} ({error}); install it with `apt-get install spirv-tools`"
        )),
    }
}

/// `spirv-val` on the modules a GPU run used: those not checked before are
/// checked now (counted in `work`); the failures among them are returned.
fn validate_modules(used: &[gpu::kernels::CompiledModule], work: &mut DeviceWork) -> Vec<String> {
    let mut failures = Vec::new();
    for (name, words) in used {
        let hash = module_hash(words);
        let known = spirv_verdicts().get(&hash).cloned();
        let verdict = match known {
            Some(verdict) => verdict,
            None => {
                let verdict = run_spirv_val(name, words);
                work.modules_validated += 1;
                work.spirv_val_failures += u64::from(verdict.is_err());
                spirv_verdicts().insert(hash, verdict.clone());
                verdict
            }
        };
        if let Err(message) = verdict {
            failures.push(message);
        }
    }
    failures
}

/// The GPU oracle on one program and its arguments, and the device's work.
pub fn examine_gpu(
    source: &str,
    arguments: &[Value],
    or_conditionals: bool,
) -> (Outcome, DeviceWork) {
    let mut work = DeviceWork::default();
    let worker = match worker() {
        Ok(worker) => worker,
        Err(message) => {
            return (
                Outcome::Disagree {
                    check: "the GPU runtime cannot be opened".into(),
                    message,
                },
                work,
            )
        }
    };
    let mut compiled = match catch_unwind(AssertUnwindSafe(|| {
        optimized_compile_with(source, or_conditionals, true)
    })) {
        Ok(Ok(compiled)) => compiled,
        Ok(Err(run)) => return (not_compiled(&run), work),
        Err(payload) => {
            let run = Run::Broken(format!("panic: {}", panic_message(payload)));
            return (not_compiled(&run), work);
        }
    };
    // The CPU runs the SOAC IR (the value oracle compares its two paths).
    compiled.segmented = false;
    let cpu = catch_unwind(AssertUnwindSafe(|| run_main(&compiled, arguments)))
        .unwrap_or_else(|payload| Run::Broken(format!("panic: {}", panic_message(payload))));
    if let Run::Broken(message) = &cpu {
        return (
            Outcome::Discard(format!(
                "the CPU backend breaks (the value oracle's finding): {}",
                first_words(message)
            )),
            work,
        );
    }
    let before = worker.counters.snapshot();
    let messages_before = worker.runtime.validation_messages().len();
    // The device runs the SOAC IR, then the segmented IR (its segmented
    // operations expanded for the driver): each must meet the CPU's run.
    let (gpu_runs, used_modules) = gpu::kernels::modules_used_by(|| {
        [false, true].map(|segmented| {
            compiled.segmented = segmented;
            catch_unwind(AssertUnwindSafe(|| {
                match compiled.on_gpu(worker.runtime.clone(), worker.counters.clone()) {
                    Ok(program) => run_main(&program, arguments),
                    Err(error) => not_loaded(error),
                }
            }))
            .unwrap_or_else(|payload| Run::Broken(format!("panic: {}", panic_message(payload))))
        })
    });
    let messages = worker.runtime.validation_messages();
    let new_messages = &messages[messages_before.min(messages.len())..];
    work.driver = worker.counters.snapshot().since(&before);
    work.ran = true;
    work.validation_messages = new_messages.len() as u64;
    if !new_messages.is_empty() {
        return (
            Outcome::Disagree {
                check: "Vulkan validation messages during the GPU run".into(),
                message: quoted(new_messages),
            },
            work,
        );
    }
    let failures = validate_modules(&used_modules, &mut work);
    if !failures.is_empty() {
        return (
            Outcome::Disagree {
                check: "spirv-val rejects a module".into(),
                message: quoted(&failures),
            },
            work,
        );
    }
    let [soac_ir, segmented] = gpu_runs;
    match compare_backends(&cpu, &soac_ir) {
        Outcome::Agree { .. } => match compare_backends(&cpu, &segmented) {
            Outcome::Disagree { check, message } => (
                Outcome::Disagree {
                    check: format!("{check} (the segmented IR on the device)"),
                    message,
                },
                work,
            ),
            other => (other, work),
        },
        other => (other, work),
    }
}

/// The discard of a program the optimising pipeline does not compile.
fn not_compiled(run: &Run) -> Outcome {
    Outcome::Discard(match run {
        Run::Unsupported(c) => format!("unsupported by optimized: {c}"),
        Run::Rejected { .. } => {
            "optimized rejects it (the verdict and value oracles judge that)".into()
        }
        other => format!(
            "the optimising pipeline breaks (the value oracle's finding): {}",
            first_words(&other.describe())
        ),
    })
}

/// The first words of a message, so that discard reasons group.
fn first_words(message: &str) -> String {
    let words: Vec<&str> = message.split_whitespace().take(8).collect();
    words.join(" ")
}

fn quoted(messages: &[String]) -> String {
    let mut text = messages
        .iter()
        .take(QUOTED_MESSAGES)
        .cloned()
        .collect::<Vec<_>>()
        .join(" | ");
    if messages.len() > QUOTED_MESSAGES {
        text.push_str(&format!(" (and {} more)", messages.len() - QUOTED_MESSAGES));
    }
    text
}

/// The verdict on the CPU backend's and the GPU driver's runs of one
/// compiled program.
pub fn compare_backends(cpu: &Run, gpu: &Run) -> Outcome {
    match (cpu, gpu) {
        (Run::Values(c), Run::Values(g)) => {
            match compare(c, g, Tolerance::Ulps(COMPILED_FLOAT_ULPS)) {
                Ok(()) => Outcome::Agree { valid: true },
                Err(mismatch) => Outcome::Disagree {
                    check: "different values".into(),
                    message: format!("{mismatch}; cpu gives {}; gpu gives {}", shown(c), shown(g)),
                },
            }
        }
        (
            Run::Failed {
                message: cm,
                location: cl,
            },
            Run::Failed {
                message: gm,
                location: gl,
            },
        ) if cm == gm && cl == gl => Outcome::Agree { valid: true },
        (Run::Failed { .. }, Run::Failed { .. }) => Outcome::Disagree {
            check: "different run-time errors".into(),
            message: format!("cpu {}; gpu {}", cpu.describe(), gpu.describe()),
        },
        _ => Outcome::Disagree {
            check: format!("cpu {}, gpu {}", cpu.what(), gpu.what()),
            message: format!("cpu {}; gpu {}", cpu.describe(), gpu.describe()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_spirv_val_rejects_is_a_failure_of_every_program_using_it() {
        // A SPIR-V header (magic number, version 1.3, generator, bound,
        // schema) and no instruction: no capability, no memory model.
        let words = Arc::new(vec![0x0723_0203, 0x0001_0300, 0, 1, 0]);
        let module = ("broken".to_string(), words);
        let mut work = DeviceWork::default();
        let failures = validate_modules(std::slice::from_ref(&module), &mut work);
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert!(
            failures[0].contains("spirv-val rejects kernel broken"),
            "{failures:?}"
        );
        assert_eq!((work.modules_validated, work.spirv_val_failures), (1, 1));
        // Checked once; a later program using it fails too.
        let mut later = DeviceWork::default();
        assert_eq!(validate_modules(&[module], &mut later), failures);
        assert_eq!((later.modules_validated, later.spirv_val_failures), (0, 0));
    }
}
