//! The whole-program GPU driver (issue 7): an IR program runs on the host
//! with the CPU backend's machinery (`optimized::cpu`), except that every
//! top-level SOAC statement (of a function's host code, at any depth of
//! loops and branches: `optimized::cpu::offload::host_soac_statements`)
//! that [`crate::codegen::extract`] plans as a kernel is run on the
//! device: its input arrays are uploaded, the library kernel runs, its
//! results are downloaded and bound as the CPU backend would bind them.
//!
//! The driver is an [`optimized::cpu::offload::SoacOffload`]: the CPU backend
//! asks it, when it compiles the program, which statements it claims (all
//! of them: those the planner left on the host only to count their
//! executions) and offers each claimed statement to it when it runs. The
//! device hands a planned statement back to the host (`Ok(None)`), for one
//! of the reasons of [`HandBack`]: when it has nothing to do (an empty SOAC,
//! empty segments, an empty destination), when the execution fails (an
//! input is not a 1-D array of the SOAC's width, or an operation failed in
//! the kernel and set the environment's status word: the host runs the
//! statement again and reports the error with its message and location),
//! and when the device refuses it for want of resources or features
//! (`GpuError::Unsupported`, `BufferTooLarge`, `TooManyWorkgroups`,
//! `OutOfMemory`); an empty array the lambda reads is bound as an empty
//! buffer (every index into it fails in the kernel); any other device
//! failure is a run-time error at the statement. So results and run-time
//! errors are the CPU backend's (floats within the tolerance of
//! reassociated reductions and of the device's math functions). A segmented
//! plan reads its arrays from the environment (no columns); `scatter` and
//! `reduce_by_index` update their destinations' device copies in place,
//! which then stay resident as copies of the results.
//!
//! * `planning`: which statements are claimed (planned once, with the
//!   scalars they read as their environment; never in functions called per
//!   element of a SOAC);
//! * `resident`: arrays kept on the device while the host holds them, so a
//!   later kernel reading one skips the upload (results are still always
//!   downloaded: the host may read them);
//! * `values`: the CPU backend's values ↔ host columns.

mod planning;
mod resident;
mod values;

use crate::codegen::extract::{run_plan, KernelPlan, PlanOperands};
use crate::error::{GpuError, GpuResult};
use crate::kernels::environment;
use crate::kernels::soac::DeviceArrays;
use crate::runtime::{DeviceBuffer, Runtime};
use optimized::cpu::offload::{host_soac_statements, SoacCall, SoacOffload};
use optimized::cpu::value::{Data, Val};
use optimized::cpu::{CompiledProgram, RuntimeError};
use optimized::ir::{PrimValue, Program, SubExp, Type, VName};
use planning::{called_from_lambdas, plan};
use resident::{keep_all, Resident};
use spec::value::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use values::{bound_values, host_column};

/// How much work the device did, counted across every program that shares
/// the counters.
#[derive(Debug, Default)]
pub struct DriverCounters {
    /// Top-level SOAC statements compiled as kernels.
    pub statements_planned: AtomicU64,
    /// Top-level SOAC statements left on the host by the planner.
    pub statements_on_host: AtomicU64,
    /// Executions of planned statements that ran as kernels.
    pub kernel_runs: AtomicU64,
    /// Executions of planned statements handed back to the host, by
    /// [`HandBack`].
    pub handed_back_empty: AtomicU64,
    pub handed_back_failing: AtomicU64,
    pub handed_back_refused: AtomicU64,
    /// Executions of the statements left on the host, over a non-empty
    /// and an empty SOAC.
    pub host_runs: AtomicU64,
    pub host_runs_empty: AtomicU64,
    /// Kernel inputs found on the device (results of earlier kernels), not
    /// uploaded.
    pub inputs_resident: AtomicU64,
    /// Kernel inputs uploaded.
    pub inputs_uploaded: AtomicU64,
}

/// A snapshot of [`DriverCounters`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriverStatistics {
    pub statements_planned: u64,
    pub statements_on_host: u64,
    pub kernel_runs: u64,
    pub handed_back_empty: u64,
    pub handed_back_failing: u64,
    pub handed_back_refused: u64,
    pub host_runs: u64,
    pub host_runs_empty: u64,
    pub inputs_resident: u64,
    pub inputs_uploaded: u64,
}

impl DriverCounters {
    pub fn snapshot(&self) -> DriverStatistics {
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        DriverStatistics {
            statements_planned: load(&self.statements_planned),
            statements_on_host: load(&self.statements_on_host),
            kernel_runs: load(&self.kernel_runs),
            handed_back_empty: load(&self.handed_back_empty),
            handed_back_failing: load(&self.handed_back_failing),
            handed_back_refused: load(&self.handed_back_refused),
            host_runs: load(&self.host_runs),
            host_runs_empty: load(&self.host_runs_empty),
            inputs_resident: load(&self.inputs_resident),
            inputs_uploaded: load(&self.inputs_uploaded),
        }
    }

    fn count_hand_back(&self, reason: HandBack) {
        let counter = match reason {
            HandBack::Empty => &self.handed_back_empty,
            HandBack::Failing => &self.handed_back_failing,
            HandBack::Refused => &self.handed_back_refused,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

impl DriverStatistics {
    /// The counters in a fixed order (the order of the fields), as
    /// `runestone test`'s workers report them.
    pub fn to_array(&self) -> [u64; 10] {
        [
            self.statements_planned,
            self.statements_on_host,
            self.kernel_runs,
            self.handed_back_empty,
            self.handed_back_failing,
            self.handed_back_refused,
            self.host_runs,
            self.host_runs_empty,
            self.inputs_resident,
            self.inputs_uploaded,
        ]
    }

    /// The statistics [`Self::to_array`] gave.
    pub fn from_array(counters: [u64; 10]) -> DriverStatistics {
        let [statements_planned, statements_on_host, kernel_runs, handed_back_empty, handed_back_failing, handed_back_refused, host_runs, host_runs_empty, inputs_resident, inputs_uploaded] =
            counters;
        DriverStatistics {
            statements_planned,
            statements_on_host,
            kernel_runs,
            handed_back_empty,
            handed_back_failing,
            handed_back_refused,
            host_runs,
            host_runs_empty,
            inputs_resident,
            inputs_uploaded,
        }
    }

    /// Executions of planned statements handed back to the host.
    pub fn handed_back(&self) -> u64 {
        self.handed_back_empty + self.handed_back_failing + self.handed_back_refused
    }

    /// Executions of top-level SOAC statements with work to do (over a
    /// non-empty SOAC): those that ran as kernels, and those the host ran
    /// (handed back as failing or refused, or left on the host).
    pub fn executions_with_work(&self) -> u64 {
        self.kernel_runs + self.handed_back_failing + self.handed_back_refused + self.host_runs
    }

    /// The share of [`Self::executions_with_work`] that ran as kernels
    /// (failing executions, which the host runs again for its message,
    /// count as the host's); 1 when there were none.
    pub fn device_share(&self) -> f64 {
        match self.executions_with_work() {
            0 => 1.0,
            all => self.kernel_runs as f64 / all as f64,
        }
    }

    /// The work between two snapshots of the same counters (`self` the
    /// later).
    pub fn since(&self, earlier: &DriverStatistics) -> DriverStatistics {
        let (later, earlier) = (self.to_array(), earlier.to_array());
        DriverStatistics::from_array(std::array::from_fn(|i| later[i] - earlier[i]))
    }
}

/// The work of two runs (two processes' counters summed, as `runestone
/// test` sums its workers').
impl std::ops::Add for DriverStatistics {
    type Output = DriverStatistics;

    fn add(self, other: DriverStatistics) -> DriverStatistics {
        let (left, right) = (self.to_array(), other.to_array());
        DriverStatistics::from_array(std::array::from_fn(|i| left[i] + right[i]))
    }
}

impl std::fmt::Display for DriverStatistics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} SOAC statement runs on the GPU as kernels, {} handed back to the host \
             ({} empty, {} failing, {} refused); \
             {} top-level SOAC statements planned as kernels, {} left on the host \
             (run {} times, {} more over nothing); \
             {:.1} % of the {} runs with work ran as kernels; \
             kernel inputs: {} uploaded, {} already on the device",
            self.kernel_runs,
            self.handed_back(),
            self.handed_back_empty,
            self.handed_back_failing,
            self.handed_back_refused,
            self.statements_planned,
            self.statements_on_host,
            self.host_runs,
            self.host_runs_empty,
            100.0 * self.device_share(),
            self.executions_with_work(),
            self.inputs_uploaded,
            self.inputs_resident
        )
    }
}

/// Why the device hands a planned statement's execution back to the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandBack {
    /// Nothing to compute: an empty SOAC, empty segments, an empty
    /// destination.
    Empty,
    /// The execution fails: an operation failed in the kernel (the
    /// environment's status word is set), or an input is not of the SOAC's
    /// width; the host runs it again and reports the error.
    Failing,
    /// The device cannot take it: it lacks the resources or features
    /// (`GpuError::Unsupported`, `BufferTooLarge`, `TooManyWorkgroups`,
    /// `OutOfMemory`).
    Refused,
}

/// What the device made of one execution of a planned statement.
enum DeviceRun {
    /// The values the statement's pattern binds.
    Ran(Vec<Val>),
    HandedBack(HandBack),
}

/// A program compiled for the GPU: the CPU backend's compiled program with
/// the driver installed as its SOAC offload.
pub struct GpuProgram {
    compiled: CompiledProgram,
    offload: Arc<KernelOffload>,
}

impl GpuProgram {
    /// Plans `program`'s top-level SOACs and compiles the rest for the host;
    /// kernels run on `runtime` and are counted in `counters`. `program` is
    /// SOAC IR or segmented IR, whose segmented operations are expanded
    /// first (`optimized::cpu::segmented`: each one SOAC over its whole
    /// index space, planned as any other), so the plans' statement indices
    /// are those of the program the host runs.
    pub fn new(
        program: Program,
        runtime: Arc<Runtime>,
        counters: Arc<DriverCounters>,
    ) -> Result<GpuProgram, RuntimeError> {
        let program = optimized::cpu::segmented::expand_segmented_operations(program);
        let offload = Arc::new(KernelOffload::new(&program, runtime, counters));
        let compiled = CompiledProgram::with_offload(program, offload.clone())?;
        Ok(GpuProgram { compiled, offload })
    }

    pub fn program(&self) -> &Program {
        self.compiled.program()
    }

    /// Arrays the host code builds from values must fit `limit`
    /// (`spec::memory`; half of this machine's memory until set).
    pub fn set_memory_limit(&mut self, limit: spec::memory::MemoryLimit) {
        self.compiled.set_memory_limit(limit);
    }

    /// Runs entry point `entry_name` on `args`, as
    /// `optimized::cpu::CompiledProgram::run_entry`.
    /// Device copies of arrays are kept only during the run.
    pub fn run_entry(&self, entry_name: &str, args: &[Value]) -> Result<Value, RuntimeError> {
        let result = self.compiled.run_entry(entry_name, args);
        self.offload
            .resident
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .entries
            .clear();
        result
    }
}

/// The offload: every top-level SOAC statement is claimed, by (function,
/// statement) index, with its kernel plan or `None` when the planner left
/// it on the host (claimed only to count its executions).
struct KernelOffload {
    runtime: Arc<Runtime>,
    plans: HashMap<(usize, usize), Option<KernelPlan>>,
    counters: Arc<DriverCounters>,
    resident: Mutex<Resident>,
}

impl KernelOffload {
    fn new(program: &Program, runtime: Arc<Runtime>, counters: Arc<DriverCounters>) -> Self {
        let mut plans = HashMap::new();
        let per_element = called_from_lambdas(program);
        for (function_index, function) in program.functions.iter().enumerate() {
            for (index, host) in host_soac_statements(function).into_iter().enumerate() {
                let planned = if per_element.contains(&function.name) {
                    None
                } else {
                    let types: HashMap<VName, Type> = host.in_scope.into_iter().collect();
                    plan(index, host.statement, host.soac, &types)
                };
                let counter = match planned {
                    Some(_) => &counters.statements_planned,
                    None => &counters.statements_on_host,
                };
                counter.fetch_add(1, Ordering::Relaxed);
                plans.insert((function_index, index), planned);
            }
        }
        KernelOffload {
            runtime,
            plans,
            counters,
            resident: Mutex::default(),
        }
    }

    /// The statement's results from the device, or why it is handed back.
    fn run_on_device(&self, plan: &KernelPlan, call: &SoacCall<'_>) -> GpuResult<DeviceRun> {
        // A segmented plan's inputs are read from the environment, its
        // elements computed from their positions: no columns.
        let segment_length = plan.choice.segment_length();
        let mut inputs = Vec::with_capacity(call.inputs.len());
        let columns = call.inputs.iter().enumerate();
        for (position, input) in columns.filter(|_| segment_length.is_none()) {
            let read = plan.input_positions.contains(&position);
            match input {
                Val::Array(array) if read && array.shape == [call.width] => {
                    inputs.push(&array.data)
                }
                // An array the lambda ignores is only checked, as the host
                // checks it.
                Val::Array(array) if !read && array.shape.first() == Some(&call.width) => {}
                _ => return Ok(DeviceRun::HandedBack(HandBack::Failing)),
            }
        }
        // A variable the lambda reads is a free variable of the statement or,
        // where the SOAC also maps it, one of its inputs
        // (`tests/programs/kernels/lambda_indexes_the_array_it_maps.fut`).
        let free_value = |name: &VName| match call.free_names.iter().position(|free| free == name) {
            Some(position) => call.free_values.get(position),
            None => {
                let position = plan.inputs.iter().position(|input| input == name)?;
                call.inputs.get(*plan.input_positions.get(position)?)
            }
        };
        let unbound = |name: &VName| GpuError::Validation {
            operation: format!("binding the environment of a {}", plan.choice.name()),
            detail: format!("the host gave no value of the right kind for `{name}`"),
        };
        let mut scalars = Vec::with_capacity(plan.environment.scalars.len());
        for (name, _) in &plan.environment.scalars {
            match free_value(name) {
                Some(Val::Prim(value)) => scalars.push(*value),
                _ => return Err(unbound(name)),
            }
        }
        let mut arrays = Vec::with_capacity(plan.environment.arrays.len());
        for (name, _, rank) in &plan.environment.arrays {
            match free_value(name) {
                Some(Val::Array(array)) if array.shape.len() == *rank => arrays.push(array),
                _ => return Err(unbound(name)),
            }
        }
        // Empty segments are handed back (the host evaluates what each
        // segment computes before its reduction, which may fail).
        let segments = match segment_length {
            None => None,
            Some(length) => {
                let length = match length {
                    SubExp::Constant(PrimValue::I64(length)) => *length,
                    SubExp::Var(name) => match free_value(name) {
                        Some(Val::Prim(PrimValue::I64(length))) => *length,
                        _ => return Err(unbound(name)),
                    },
                    SubExp::Constant(other) => {
                        return Err(GpuError::Validation {
                            operation: format!("sizing the segments of a {}", plan.choice.name()),
                            detail: format!("the segment length {other} is not an i64"),
                        })
                    }
                };
                if length <= 0 {
                    return Ok(DeviceRun::HandedBack(HandBack::Empty));
                }
                Some((call.width as u64, length as u64))
            }
        };
        let mut resident = self
            .resident
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        resident.release_dropped();
        let columns = self.device_copies(&mut resident, &inputs)?;
        let array_data: Vec<&Data> = arrays.iter().map(|array| &array.data).collect();
        let array_buffers = match self.device_copies(&mut resident, &array_data) {
            Ok(buffers) => buffers,
            Err(error) => {
                keep_all(&mut resident, &inputs, columns);
                return Err(error);
            }
        };
        let device_inputs = DeviceArrays {
            element_types: inputs.iter().map(|data| data.prim_type()).collect(),
            columns,
            length: call.width as u64,
        };
        let shapes = arrays.iter().map(|array| array.shape.clone());
        let outcome = environment::upload(
            &self.runtime,
            &scalars,
            array_buffers.into_iter().zip(shapes).collect(),
        )
        .and_then(|bound| {
            let operands = match segments {
                Some((count, length)) => PlanOperands::Segments {
                    count,
                    length,
                    environment: &bound,
                },
                None => PlanOperands::Columns {
                    inputs: &device_inputs,
                    environment: &bound,
                },
            };
            let outputs = run_plan(&self.runtime, plan, operands);
            let failed = match &outputs {
                Ok(_) if plan.can_fail => environment::failed(&self.runtime, &bound),
                _ => Ok(false),
            };
            keep_all(&mut resident, &array_data, bound.arrays);
            match (outputs, failed) {
                (Ok(_), Ok(true)) => Ok(None),
                (Ok(outputs), Ok(false)) => Ok(Some(outputs)),
                (Err(error), _) | (_, Err(error)) => Err(error),
            }
        });
        keep_all(&mut resident, &inputs, device_inputs.columns);
        let Some(outputs) = outcome? else {
            return Ok(DeviceRun::HandedBack(HandBack::Failing));
        };
        let row_length = segments.map(|(_, length)| length as usize);
        let values = bound_values(plan, outputs.download(&self.runtime)?, row_length);
        let results = values.iter().filter_map(|value| match value {
            Val::Array(array) => Some(array.data.clone()),
            Val::Prim(_) => None,
        });
        for (data, buffer) in results.zip(outputs.columns) {
            resident.keep(data, buffer);
        }
        Ok(DeviceRun::Ran(values))
    }

    /// The destinations of a `scatter` or `reduce_by_index` (`plan`) after
    /// the update, or why it is handed back. The destinations' device copies
    /// are taken out of `resident` (or uploaded) and updated in place: the
    /// host arrays they were copies of no longer have one; the updated
    /// buffers stay resident as copies of the downloaded results.
    fn run_update_on_device(&self, plan: &KernelPlan, call: &SoacCall<'_>) -> GpuResult<DeviceRun> {
        let (destinations, inputs) = call
            .inputs
            .split_at(plan.choice.destination_count().min(call.inputs.len()));
        let mut destination_data = Vec::with_capacity(destinations.len());
        for destination in destinations {
            match destination {
                Val::Array(array) if array.shape.len() == 1 && !array.data.is_empty() => {
                    destination_data.push(&array.data)
                }
                Val::Array(array) if array.shape.len() == 1 => {
                    return Ok(DeviceRun::HandedBack(HandBack::Empty))
                }
                _ => return Ok(DeviceRun::HandedBack(HandBack::Failing)),
            }
        }
        let length = destination_data.first().map_or(0, |data| data.len());
        let mut input_data = Vec::with_capacity(inputs.len());
        for input in inputs {
            match input {
                Val::Array(array) if array.shape == [call.width] => input_data.push(&array.data),
                _ => return Ok(DeviceRun::HandedBack(HandBack::Failing)),
            }
        }
        if destination_data.iter().any(|data| data.len() != length) || input_data.is_empty() {
            return Ok(DeviceRun::HandedBack(HandBack::Failing));
        }
        let mut resident = self
            .resident
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        resident.release_dropped();
        let destination_columns = self.device_copies(&mut resident, &destination_data)?;
        let mut input_columns = match self.device_copies(&mut resident, &input_data) {
            Ok(columns) => columns,
            Err(error) => {
                keep_all(&mut resident, &destination_data, destination_columns);
                return Err(error);
            }
        };
        let value_columns = input_columns.split_off(1);
        let as_device_arrays =
            |data: &[&Data], columns: Vec<DeviceBuffer>, length: usize| DeviceArrays {
                element_types: data.iter().map(|data| data.prim_type()).collect(),
                columns,
                length: length as u64,
            };
        let indices = as_device_arrays(&input_data[..1], input_columns, call.width);
        let values = as_device_arrays(&input_data[1..], value_columns, call.width);
        let operands = PlanOperands::Update {
            destinations: as_device_arrays(&destination_data, destination_columns, length),
            indices: &indices,
            values: &values,
        };
        let updated = run_plan(&self.runtime, plan, operands);
        keep_all(&mut resident, &input_data[..1], indices.columns);
        keep_all(&mut resident, &input_data[1..], values.columns);
        let updated = updated?;
        let values = bound_values(plan, updated.download(&self.runtime)?, None);
        for (value, buffer) in values.iter().zip(updated.columns) {
            if let Val::Array(array) = value {
                resident.keep(array.data.clone(), buffer);
            }
        }
        Ok(DeviceRun::Ran(values))
    }

    /// The device copies of `arrays`, taken from `resident` or uploaded (on
    /// an error, those taken so far are kept resident again).
    fn device_copies(
        &self,
        resident: &mut Resident,
        arrays: &[&Data],
    ) -> GpuResult<Vec<DeviceBuffer>> {
        let mut buffers = Vec::with_capacity(arrays.len());
        for data in arrays {
            let buffer = match resident.take(data) {
                Some(buffer) => {
                    self.counters
                        .inputs_resident
                        .fetch_add(1, Ordering::Relaxed);
                    buffer
                }
                None => {
                    self.counters
                        .inputs_uploaded
                        .fetch_add(1, Ordering::Relaxed);
                    match self.runtime.upload_bytes(&host_column(data).to_bytes()) {
                        Ok(buffer) => buffer,
                        Err(error) => {
                            keep_all(resident, &arrays[..buffers.len()], buffers);
                            return Err(error);
                        }
                    }
                }
            };
            buffers.push(buffer);
        }
        Ok(buffers)
    }
}

impl SoacOffload for KernelOffload {
    fn claims(&self, function: usize, statement: usize) -> bool {
        self.plans.contains_key(&(function, statement))
    }

    fn run(&self, call: &SoacCall<'_>) -> Result<Option<Vec<Val>>, RuntimeError> {
        let Some(Some(plan)) = self.plans.get(&(call.function, call.statement)) else {
            let counter = match call.width {
                0 => &self.counters.host_runs_empty,
                _ => &self.counters.host_runs,
            };
            counter.fetch_add(1, Ordering::Relaxed);
            return Ok(None);
        };
        let answer = if call.width == 0 {
            Ok(DeviceRun::HandedBack(HandBack::Empty))
        } else if plan.choice.destination_count() > 0 {
            self.run_update_on_device(plan, call)
        } else {
            self.run_on_device(plan, call)
        };
        match answer {
            Ok(DeviceRun::Ran(values)) => {
                self.counters.kernel_runs.fetch_add(1, Ordering::Relaxed);
                Ok(Some(values))
            }
            Ok(DeviceRun::HandedBack(reason)) => {
                self.counters.count_hand_back(reason);
                Ok(None)
            }
            Err(error) if is_refusal(&error) => {
                self.counters.count_hand_back(HandBack::Refused);
                Ok(None)
            }
            Err(error) => Err(RuntimeError::program(
                format!("the GPU failed to run this {}: {error}", plan.choice.name()),
                call.span,
            )),
        }
    }
}

/// Whether the device refused work it cannot take (the host runs it), as
/// opposed to failing at it.
fn is_refusal(error: &GpuError) -> bool {
    matches!(
        error,
        GpuError::Unsupported { .. }
            | GpuError::BufferTooLarge { .. }
            | GpuError::TooManyWorkgroups { .. }
            | GpuError::OutOfMemory { .. }
    )
}
