//! The whole-program GPU driver (issue 7): an IR program runs on the host
//! with the CPU backend's machinery (`optimized::cpu`), except that every
//! top-level SOAC statement of a function body that [`crate::codegen::extract`]
//! plans as a kernel is run on the device: its input arrays are uploaded, the
//! library kernel runs, its results are downloaded and bound as the CPU
//! backend would bind them.
//!
//! The driver is an [`optimized::cpu::offload::SoacOffload`]: the CPU
//! backend asks it, when it compiles the program, which statements it
//! claims (those with a [`KernelPlan`]) and offers each claimed statement to
//! it when it runs. The device hands a statement back to the host
//! (`Ok(None)`) when it has nothing to do (an empty SOAC), when an input is
//! not a 1-D array of the SOAC's width (the host then reports the size
//! error), and when the device refuses it for want of resources or features
//! (`GpuError::Unsupported`, `BufferTooLarge`, `TooManyWorkgroups`,
//! `OutOfMemory`); any other device failure is a run-time error at the
//! statement. Functions called from inside a SOAC's lambda are never
//! offloaded (their SOACs run once per element). Lambdas that can fail at
//! run time are never planned
//! ([`crate::codegen::failure`]), so results and run-time errors are the CPU
//! backend's (floats within the tolerance of reassociated reductions and of
//! the device's math functions).
//!
//! Results are always downloaded (the host may read them), but a result
//! array also stays on the device ([`Resident`]) while the host holds it, so
//! a later kernel that reads it skips the upload.

use crate::codegen::extract::{plan_statement, run_plan, KernelPlan, Placement};
use crate::codegen::lambda::element_type_of;
use crate::codegen::specialise::specialise;
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::HostColumn;
use crate::kernels::soac::DeviceArrays;
use crate::runtime::{DeviceBuffer, Runtime};
use optimized::cpu::offload::{SoacCall, SoacOffload};
use optimized::cpu::value::{ArrayVal, Data, Val};
use optimized::cpu::{CompiledProgram, RuntimeError};
use optimized::ir::{
    Body, Exp, FunName, PrimType, PrimValue, Program, Soac, Statement, Type, VName,
};
use spec::value::Value;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
    /// Executions of planned statements handed back to the host.
    pub handed_back: AtomicU64,
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
    pub handed_back: u64,
    pub inputs_resident: u64,
    pub inputs_uploaded: u64,
}

impl DriverCounters {
    pub fn snapshot(&self) -> DriverStatistics {
        DriverStatistics {
            statements_planned: self.statements_planned.load(Ordering::Relaxed),
            statements_on_host: self.statements_on_host.load(Ordering::Relaxed),
            kernel_runs: self.kernel_runs.load(Ordering::Relaxed),
            handed_back: self.handed_back.load(Ordering::Relaxed),
            inputs_resident: self.inputs_resident.load(Ordering::Relaxed),
            inputs_uploaded: self.inputs_uploaded.load(Ordering::Relaxed),
        }
    }
}

impl std::fmt::Display for DriverStatistics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} SOAC statement runs on the GPU as kernels, {} handed back to the host; \
             {} top-level SOAC statements planned as kernels, {} left on the host; \
             kernel inputs: {} uploaded, {} already on the device",
            self.kernel_runs,
            self.handed_back,
            self.statements_planned,
            self.statements_on_host,
            self.inputs_uploaded,
            self.inputs_resident
        )
    }
}

/// A program compiled for the GPU: the CPU backend's compiled program with
/// the driver installed as its SOAC offload.
pub struct GpuProgram {
    compiled: CompiledProgram,
    offload: Arc<KernelOffload>,
}

impl GpuProgram {
    /// Plans `program`'s top-level SOACs and compiles the rest for the host;
    /// kernels run on `runtime` and are counted in `counters`.
    pub fn new(
        program: Program,
        runtime: Arc<Runtime>,
        counters: Arc<DriverCounters>,
    ) -> Result<GpuProgram, RuntimeError> {
        let offload = Arc::new(KernelOffload::new(&program, runtime, counters));
        let compiled = CompiledProgram::with_offload(program, offload.clone())?;
        Ok(GpuProgram { compiled, offload })
    }

    pub fn program(&self) -> &Program {
        self.compiled.program()
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

/// The offload: the kernel plan of each claimed statement, by (function,
/// statement) index.
struct KernelOffload {
    runtime: Arc<Runtime>,
    plans: HashMap<(usize, usize), Planned>,
    counters: Arc<DriverCounters>,
    resident: Mutex<Resident>,
}

/// Kernel results kept on the device: each device buffer with the host
/// array downloaded from it, oldest first. An entry holds the host array's
/// `Arc`, so the host can never update it in place (copy-on-write copies a
/// shared array): the device copy stays equal to it. An entry is dropped
/// once the host no longer holds the array, and the oldest go when the
/// entries exceed [`RESIDENT_BYTES`].
#[derive(Default)]
struct Resident {
    entries: Vec<(Data, DeviceBuffer)>,
}

/// The most device memory [`Resident`] keeps.
const RESIDENT_BYTES: u64 = 256 << 20;

impl Resident {
    /// Forgets the arrays only this cache still holds.
    fn release_dropped(&mut self) {
        self.entries.retain(|(data, _)| host_holds(data));
    }

    /// The device copy of `data`, taken out of the cache.
    fn take(&mut self, data: &Data) -> Option<DeviceBuffer> {
        let position = self
            .entries
            .iter()
            .position(|(held, _)| same_data(held, data))?;
        Some(self.entries.remove(position).1)
    }

    fn keep(&mut self, data: Data, buffer: DeviceBuffer) {
        self.entries.push((data, buffer));
        let mut bytes: u64 = self.entries.iter().map(|(_, b)| b.byte_length()).sum();
        while bytes > RESIDENT_BYTES && !self.entries.is_empty() {
            bytes -= self.entries.remove(0).1.byte_length();
        }
    }
}

/// Whether anything besides the cache holds `data`.
fn host_holds(data: &Data) -> bool {
    match data {
        Data::I8(v) => Arc::strong_count(v) > 1,
        Data::I16(v) => Arc::strong_count(v) > 1,
        Data::I32(v) => Arc::strong_count(v) > 1,
        Data::I64(v) => Arc::strong_count(v) > 1,
        Data::U8(v) => Arc::strong_count(v) > 1,
        Data::U16(v) => Arc::strong_count(v) > 1,
        Data::U32(v) => Arc::strong_count(v) > 1,
        Data::U64(v) => Arc::strong_count(v) > 1,
        Data::F32(v) => Arc::strong_count(v) > 1,
        Data::F64(v) => Arc::strong_count(v) > 1,
        Data::Bool(v) => Arc::strong_count(v) > 1,
    }
}

/// Whether `a` and `b` are the same elements (the same allocation).
fn same_data(a: &Data, b: &Data) -> bool {
    match (a, b) {
        (Data::I8(x), Data::I8(y)) => Arc::ptr_eq(x, y),
        (Data::I16(x), Data::I16(y)) => Arc::ptr_eq(x, y),
        (Data::I32(x), Data::I32(y)) => Arc::ptr_eq(x, y),
        (Data::I64(x), Data::I64(y)) => Arc::ptr_eq(x, y),
        (Data::U8(x), Data::U8(y)) => Arc::ptr_eq(x, y),
        (Data::U16(x), Data::U16(y)) => Arc::ptr_eq(x, y),
        (Data::U32(x), Data::U32(y)) => Arc::ptr_eq(x, y),
        (Data::U64(x), Data::U64(y)) => Arc::ptr_eq(x, y),
        (Data::F32(x), Data::F32(y)) => Arc::ptr_eq(x, y),
        (Data::F64(x), Data::F64(y)) => Arc::ptr_eq(x, y),
        (Data::Bool(x), Data::Bool(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

/// How a claimed statement becomes a kernel.
enum Planned {
    /// Planned once, when the program is compiled.
    Fixed(Box<KernelPlan>),
    /// Planned each time it runs, specialised on the values of the scalars
    /// of the enclosing scope it reads ([`crate::codegen::specialise`]).
    Specialised(Box<Specialisable>),
}

/// A statement planned when it runs: the statement, its SOAC and the types
/// of the variables in scope.
struct Specialisable {
    statement: Statement,
    soac: Soac,
    types: HashMap<VName, Type>,
}

impl KernelOffload {
    fn new(program: &Program, runtime: Arc<Runtime>, counters: Arc<DriverCounters>) -> Self {
        let mut plans = HashMap::new();
        let per_element = called_from_lambdas(program);
        for (function_index, function) in program.functions.iter().enumerate() {
            let mut types: HashMap<VName, Type> = function
                .params
                .iter()
                .map(|param| (param.name.clone(), param.ty.clone()))
                .collect();
            for (index, statement) in function.body.statements.iter().enumerate() {
                if let Exp::Soac(soac) = &statement.expression {
                    let planned = if per_element.contains(&function.name) {
                        None
                    } else {
                        plan(index, statement, soac, &types)
                    };
                    match planned {
                        Some(planned) => {
                            counters.statements_planned.fetch_add(1, Ordering::Relaxed);
                            plans.insert((function_index, index), planned);
                        }
                        None => {
                            counters.statements_on_host.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
                for element in &statement.pattern {
                    types.insert(element.name.clone(), element.ty.clone());
                }
            }
        }
        KernelOffload {
            runtime,
            plans,
            counters,
            resident: Mutex::default(),
        }
    }

    /// The statement's results from the device, `None` when handed back.
    fn run_on_device(&self, plan: &KernelPlan, call: &SoacCall<'_>) -> GpuResult<Option<Vec<Val>>> {
        let mut inputs = Vec::with_capacity(call.inputs.len());
        for input in call.inputs {
            match input {
                Val::Array(array) if array.shape == [call.width] => inputs.push(&array.data),
                _ => return Ok(None),
            }
        }
        let mut resident = self
            .resident
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        resident.release_dropped();
        let mut device_inputs = DeviceArrays {
            element_types: Vec::with_capacity(inputs.len()),
            columns: Vec::with_capacity(inputs.len()),
            length: call.width as u64,
        };
        for data in &inputs {
            let buffer = match resident.take(data) {
                Some(buffer) => {
                    self.counters
                        .inputs_resident
                        .fetch_add(1, Ordering::Relaxed);
                    buffer
                }
                None => {
                    let buffer = self.runtime.upload_bytes(&host_column(data).to_bytes());
                    self.counters
                        .inputs_uploaded
                        .fetch_add(1, Ordering::Relaxed);
                    match buffer {
                        Ok(buffer) => buffer,
                        Err(error) => {
                            keep_all(&mut resident, &inputs, device_inputs.columns);
                            return Err(error);
                        }
                    }
                }
            };
            device_inputs
                .element_types
                .push(element_type_of(data.prim_type()));
            device_inputs.columns.push(buffer);
        }
        let outputs = run_plan(&self.runtime, plan, &device_inputs);
        keep_all(&mut resident, &inputs, device_inputs.columns);
        let outputs = outputs?;
        let values = bound_values(plan, outputs.download(&self.runtime)?);
        let arrays = values.iter().filter_map(|value| match value {
            Val::Array(array) => Some(array.data.clone()),
            Val::Prim(_) => None,
        });
        for (data, buffer) in arrays.zip(outputs.columns) {
            resident.keep(data, buffer);
        }
        Ok(Some(values))
    }
}

/// Keeps `buffers`, the device copies of `inputs`, resident.
fn keep_all(resident: &mut Resident, inputs: &[&Data], buffers: Vec<DeviceBuffer>) {
    for (data, buffer) in inputs.iter().zip(buffers) {
        resident.keep((*data).clone(), buffer);
    }
}

impl SoacOffload for KernelOffload {
    fn claims(&self, function: usize, statement: usize) -> bool {
        self.plans.contains_key(&(function, statement))
    }

    fn run(&self, call: &SoacCall<'_>) -> Result<Option<Vec<Val>>, RuntimeError> {
        let specialised;
        let plan = match self.plans.get(&(call.function, call.statement)) {
            None => return Ok(None),
            Some(Planned::Fixed(plan)) => plan,
            Some(Planned::Specialised(specialisable)) => {
                let Specialisable {
                    statement,
                    soac,
                    types,
                } = &**specialisable;
                let value_of = |name: &VName| {
                    let position = call.free_names.iter().position(|free| free == name)?;
                    match call.free_values.get(position)? {
                        Val::Prim(value) => Some(*value),
                        Val::Array(_) => None,
                    }
                };
                let (soac, _) = specialise(soac, &value_of);
                match plan_statement(call.statement, statement, &soac, types) {
                    Placement::Kernel(plan) => {
                        specialised = plan;
                        &*specialised
                    }
                    // A value that makes a lambda fallible (a zero divisor).
                    Placement::Host { .. } => {
                        self.counters.handed_back.fetch_add(1, Ordering::Relaxed);
                        return Ok(None);
                    }
                }
            }
        };
        let answer = if call.width == 0 {
            Ok(None)
        } else {
            self.run_on_device(plan, call)
        };
        match answer {
            Ok(Some(values)) => {
                self.counters.kernel_runs.fetch_add(1, Ordering::Relaxed);
                Ok(Some(values))
            }
            Ok(None) => {
                self.counters.handed_back.fetch_add(1, Ordering::Relaxed);
                Ok(None)
            }
            Err(error) if is_refusal(&error) => {
                self.counters.handed_back.fetch_add(1, Ordering::Relaxed);
                Ok(None)
            }
            Err(error) => Err(RuntimeError {
                message: format!("the GPU failed to run this {}: {error}", plan.choice.name()),
                span: call.span,
            }),
        }
    }
}

/// How statement `index` (`statement`, whose expression is `soac`) runs on
/// the device, if it can: as planned, or planned when it runs with the
/// scalars it reads from the enclosing scope (typed in `types`) as
/// constants, when planning it with stand-in values (one) succeeds.
fn plan(
    index: usize,
    statement: &Statement,
    soac: &Soac,
    types: &HashMap<VName, Type>,
) -> Option<Planned> {
    if let Placement::Kernel(plan) = plan_statement(index, statement, soac, types) {
        return Some(Planned::Fixed(plan));
    }
    let stand_in = |name: &VName| match types.get(name) {
        Some(Type::Prim(prim_type)) => Some(one(*prim_type)),
        _ => None,
    };
    let (specialised, replaced) = specialise(soac, &stand_in);
    if replaced.is_empty() {
        return None;
    }
    match plan_statement(index, statement, &specialised, types) {
        Placement::Kernel(_) => Some(Planned::Specialised(Box::new(Specialisable {
            statement: statement.clone(),
            soac: soac.clone(),
            types: types.clone(),
        }))),
        Placement::Host { .. } => None,
    }
}

/// One, of `prim_type` (`true` for `bool`).
fn one(prim_type: PrimType) -> PrimValue {
    match prim_type {
        PrimType::I8 => PrimValue::I8(1),
        PrimType::I16 => PrimValue::I16(1),
        PrimType::I32 => PrimValue::I32(1),
        PrimType::I64 => PrimValue::I64(1),
        PrimType::U8 => PrimValue::U8(1),
        PrimType::U16 => PrimValue::U16(1),
        PrimType::U32 => PrimValue::U32(1),
        PrimType::U64 => PrimValue::U64(1),
        PrimType::F32 => PrimValue::F32(1.0),
        PrimType::F64 => PrimValue::F64(1.0),
        PrimType::Bool => PrimValue::Bool(true),
    }
}

/// The functions called, directly or not, from inside a SOAC's lambda:
/// their SOACs run once per element of the enclosing SOAC (possibly on
/// several threads), where one kernel per element would cost far more than
/// the host's loop, so they are never offloaded.
fn called_from_lambdas(program: &Program) -> HashSet<FunName> {
    let mut callees: HashMap<&FunName, Vec<FunName>> = HashMap::new();
    let mut roots = Vec::new();
    for function in &program.functions {
        let mut all = Vec::new();
        calls_in_body(&function.body, false, &mut all, &mut roots);
        callees.insert(&function.name, all);
    }
    let mut reached: HashSet<FunName> = HashSet::new();
    while let Some(name) = roots.pop() {
        if reached.insert(name.clone()) {
            roots.extend(callees.get(&name).into_iter().flatten().cloned());
        }
    }
    reached
}

/// Pushes every function `body` calls to `all`, and those called inside a
/// SOAC lambda (or anywhere, when `in_lambda`) to `from_lambdas`.
fn calls_in_body(
    body: &Body,
    in_lambda: bool,
    all: &mut Vec<FunName>,
    from_lambdas: &mut Vec<FunName>,
) {
    for statement in &body.statements {
        match &statement.expression {
            Exp::Apply { function, .. } => {
                all.push(function.clone());
                if in_lambda {
                    from_lambdas.push(function.clone());
                }
            }
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                calls_in_body(then_body, in_lambda, all, from_lambdas);
                calls_in_body(else_body, in_lambda, all, from_lambdas);
            }
            Exp::Loop { body, .. } => calls_in_body(body, in_lambda, all, from_lambdas),
            Exp::Soac(soac) => {
                for lambda in soac.lambdas() {
                    calls_in_body(&lambda.body, true, all, from_lambdas);
                }
            }
            _ => {}
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

/// The values the statement binds, from the kernel's output columns: for
/// `reduce`/`redomap` one scalar per column; for `filter` the count, then
/// the kept elements; otherwise one array per column.
fn bound_values(plan: &KernelPlan, columns: Vec<HostColumn>) -> Vec<Val> {
    use crate::codegen::extract::KernelChoice;
    match plan.choice {
        KernelChoice::Reduce { .. } | KernelChoice::Redomap { .. } => columns
            .into_iter()
            .map(|column| {
                let data = data_of(column);
                if data.len() == 1 {
                    Val::Prim(data.get(0))
                } else {
                    Val::Array(array_of(data))
                }
            })
            .collect(),
        KernelChoice::Filter { .. } => {
            let count = columns.first().map_or(0, HostColumn::len);
            std::iter::once(Val::Prim(optimized::ir::PrimValue::I64(count as i64)))
                .chain(
                    columns
                        .into_iter()
                        .map(|column| Val::Array(array_of(data_of(column)))),
                )
                .collect()
        }
        KernelChoice::Map { .. } | KernelChoice::Scan { .. } | KernelChoice::Scanomap { .. } => {
            columns
                .into_iter()
                .map(|column| Val::Array(array_of(data_of(column))))
                .collect()
        }
    }
}

fn array_of(data: Data) -> ArrayVal {
    ArrayVal {
        shape: vec![data.len()],
        data,
    }
}

/// A host column holding a copy of `data`.
fn host_column(data: &Data) -> HostColumn {
    match data {
        Data::I8(v) => HostColumn::I8(v.to_vec()),
        Data::I16(v) => HostColumn::I16(v.to_vec()),
        Data::I32(v) => HostColumn::I32(v.to_vec()),
        Data::I64(v) => HostColumn::I64(v.to_vec()),
        Data::U8(v) => HostColumn::U8(v.to_vec()),
        Data::U16(v) => HostColumn::U16(v.to_vec()),
        Data::U32(v) => HostColumn::U32(v.to_vec()),
        Data::U64(v) => HostColumn::U64(v.to_vec()),
        Data::F32(v) => HostColumn::F32(v.to_vec()),
        Data::F64(v) => HostColumn::F64(v.to_vec()),
        Data::Bool(v) => HostColumn::Bool(v.to_vec()),
    }
}

/// The CPU backend's data holding `column`.
fn data_of(column: HostColumn) -> Data {
    match column {
        HostColumn::I8(v) => Data::I8(Arc::new(v)),
        HostColumn::I16(v) => Data::I16(Arc::new(v)),
        HostColumn::I32(v) => Data::I32(Arc::new(v)),
        HostColumn::I64(v) => Data::I64(Arc::new(v)),
        HostColumn::U8(v) => Data::U8(Arc::new(v)),
        HostColumn::U16(v) => Data::U16(Arc::new(v)),
        HostColumn::U32(v) => Data::U32(Arc::new(v)),
        HostColumn::U64(v) => Data::U64(Arc::new(v)),
        HostColumn::F32(v) => Data::F32(Arc::new(v)),
        HostColumn::F64(v) => Data::F64(Arc::new(v)),
        HostColumn::Bool(v) => Data::Bool(Arc::new(v)),
    }
}
