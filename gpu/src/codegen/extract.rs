//! Kernel extraction: for each top-level SOAC statement of an IR function
//! (`optimized::cpu::offload::host_soac_statements`: in its host code, at
//! any depth of loops and branches), the library kernel that runs it
//! ([`KernelPlan`]) or why it runs on the host.
//!
//! A SOAC becomes a kernel when it is a `map`, `reduce`, `scan`, `redomap`,
//! `scanomap` or `filter` whose input arrays are 1-D arrays of primitives and
//! whose lambdas [`super::lambda`] translates. Everything else (nested
//! arrays, `scatter`, `reduce_by_index`, untranslatable lambdas) stays on the
//! host, with the reason. The scalars and arrays of the enclosing scope a
//! map lambda or predicate reads are the plan's environment, bound when
//! it runs ([`crate::kernels::environment`]).

use super::failure::can_fail;
use super::lambda::{map_lambda, operator, soac_name, Environment};
use super::CodegenError;
use crate::error::GpuResult;
use crate::kernels::element::PrimType;
use crate::kernels::lambda::{MapLambda, Operator};
use crate::kernels::soac::{self, DeviceArrays, ElementSource, GeneratedKernel, KernelShape};
use crate::runtime::{EnvironmentBuffers, Runtime};
use optimized::cpu::offload::host_soac_statements;
use optimized::ir::visit::{for_each_binder_in_lambda, for_each_use_in_body};
use optimized::ir::{Function, Lambda, Program, Soac, Span, Statement, Type, VName};
use std::collections::{HashMap, HashSet};

/// The library kernel a SOAC runs as, with its translated lambdas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelChoice {
    /// `soac::map::map`.
    Map { lambda: MapLambda },
    /// `soac::reduce::reduce`.
    Reduce { operator: Operator },
    /// `soac::scan::scan`.
    Scan { operator: Operator },
    /// `soac::reduce::redomap`; the map lambda's extra (non-reduced) results
    /// are not supported, so it returns exactly the operator's components.
    Redomap {
        lambda: MapLambda,
        operator: Operator,
    },
    /// `soac::scan::scanomap` (likewise without extra mapped results).
    Scanomap {
        lambda: MapLambda,
        operator: Operator,
    },
    /// `soac::filter::filter`.
    Filter { predicate: MapLambda },
}

impl KernelChoice {
    /// The library operation's name.
    pub fn name(&self) -> &'static str {
        match self {
            KernelChoice::Map { .. } => "map",
            KernelChoice::Reduce { .. } => "reduce",
            KernelChoice::Scan { .. } => "scan",
            KernelChoice::Redomap { .. } => "redomap",
            KernelChoice::Scanomap { .. } => "scanomap",
            KernelChoice::Filter { .. } => "filter",
        }
    }
}

/// One top-level SOAC statement that runs on the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelPlan {
    /// The statement's position in the function body.
    pub statement_index: usize,
    pub span: Span,
    pub choice: KernelChoice,
    /// The input arrays, in order, and their element types.
    pub inputs: Vec<VName>,
    pub input_types: Vec<PrimType>,
    /// The names the statement binds (for `filter`, the count first).
    pub results: Vec<VName>,
    /// What its map lambda or predicate reads from the enclosing scope, in
    /// the environment's order.
    pub environment: Environment,
    /// Whether a lambda may fail (the driver then reads the status word).
    pub can_fail: bool,
}

impl KernelPlan {
    /// The GLSL kernels the plan runs (the main kernel of each pass; the
    /// multi-pass operations' auxiliary passes come from the same library
    /// functions), at `shape`.
    pub fn kernels(&self, shape: KernelShape) -> Vec<GeneratedKernel> {
        let columns = ElementSource::columns(&self.input_types);
        match &self.choice {
            KernelChoice::Map { lambda } => {
                vec![soac::map::map_kernel(lambda, shape.workgroup_size)]
            }
            KernelChoice::Reduce { operator } => {
                vec![soac::reduce::ordered_reduce_kernel(
                    &columns, operator, shape, false,
                )]
            }
            KernelChoice::Redomap { lambda, operator } => {
                vec![soac::reduce::ordered_reduce_kernel(
                    &ElementSource::mapped(lambda),
                    operator,
                    shape,
                    false,
                )]
            }
            KernelChoice::Scan { operator } => {
                vec![soac::scan::ordered_scan_kernel(&columns, operator, shape)]
            }
            KernelChoice::Scanomap { lambda, operator } => vec![soac::scan::ordered_scan_kernel(
                &ElementSource::mapped(lambda),
                operator,
                shape,
            )],
            KernelChoice::Filter { predicate } => vec![soac::filter::compaction_kernel(
                predicate,
                soac::filter::Compaction::Filter,
                shape.workgroup_size,
            )],
        }
    }
}

/// Runs `plan` on `inputs` (the plan's input arrays, uploaded in order)
/// with `environment` (the values of the plan's environment and a cleared
/// status word) through the kernel library: the SOAC's results as device
/// arrays (one element per component for `reduce`/`redomap`; for
/// `filter`, the kept elements, whose length is the count).
pub fn run_plan(
    runtime: &Runtime,
    plan: &KernelPlan,
    environment: &EnvironmentBuffers,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    let environment = Some(environment);
    match &plan.choice {
        KernelChoice::Map { lambda } => soac::map::map(runtime, lambda, environment, inputs),
        KernelChoice::Reduce { operator } => {
            soac::reduce::reduce(runtime, operator, environment, inputs)
        }
        KernelChoice::Redomap { lambda, operator } => {
            soac::reduce::redomap(runtime, lambda, operator, environment, inputs)
        }
        KernelChoice::Scan { operator } => soac::scan::scan(runtime, operator, environment, inputs),
        KernelChoice::Scanomap { lambda, operator } => {
            soac::scan::scanomap(runtime, lambda, operator, environment, inputs)
        }
        KernelChoice::Filter { predicate } => {
            soac::filter::filter(runtime, predicate, environment, inputs)
        }
    }
}

/// The shape `runestone compile --dump glsl` prints kernels at (the runtime
/// picks its own from the device's limits).
pub const LISTING_SHAPE: KernelShape = KernelShape {
    workgroup_size: 256,
    items_per_invocation: 4,
};

/// For every function of `program`, each top-level SOAC statement: the GLSL
/// of its kernel, or why it runs on the host (`runestone compile --dump
/// glsl`).
pub fn glsl_listing(program: &Program) -> String {
    let mut text = String::new();
    for function in &program.functions {
        for placement in extract_function(function) {
            match placement {
                Placement::Kernel(plan) => {
                    for kernel in plan.kernels(LISTING_SHAPE) {
                        text.push_str(&format!(
                            "// function {}, statement {} ({}): kernel {}\n{}\n",
                            function.name,
                            plan.statement_index,
                            plan.choice.name(),
                            kernel.source.name,
                            kernel.source.glsl
                        ));
                    }
                }
                Placement::Host {
                    statement_index,
                    soac,
                    reason,
                    ..
                } => text.push_str(&format!(
                    "// function {}, statement {statement_index} ({soac}): runs on the host: \
                     {reason}\n\n",
                    function.name
                )),
            }
        }
    }
    text
}

/// Where one top-level SOAC statement runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    Kernel(Box<KernelPlan>),
    Host {
        statement_index: usize,
        span: Span,
        soac: &'static str,
        reason: CodegenError,
    },
}

/// The placement of every top-level SOAC statement of `function`
/// (`optimized::cpu::offload::host_soac_statements`: in its host code, at
/// any depth of loops and branches), in order.
pub fn extract_function(function: &Function) -> Vec<Placement> {
    host_soac_statements(function)
        .into_iter()
        .enumerate()
        .map(|(index, host)| {
            let types: HashMap<VName, Type> = host.in_scope.into_iter().collect();
            plan_statement(index, host.statement, host.soac, &types)
        })
        .collect()
}

/// The placement of `soac`, the expression of `statement` (top-level SOAC
/// statement `statement_index` of its function), where `types` gives the
/// types of the variables in scope.
pub fn plan_statement(
    statement_index: usize,
    statement: &Statement,
    soac: &Soac,
    types: &HashMap<VName, Type>,
) -> Placement {
    let results = statement.pattern.iter().map(|p| p.name.clone()).collect();
    match plan_soac(soac, types) {
        Ok(planned) => Placement::Kernel(Box::new(KernelPlan {
            statement_index,
            span: statement.span,
            choice: planned.choice,
            inputs: planned.inputs,
            input_types: planned.input_types,
            results,
            environment: planned.environment,
            can_fail: soac.lambdas().iter().any(|lambda| can_fail(lambda)),
        })),
        Err(reason) => Placement::Host {
            statement_index,
            span: statement.span,
            soac: soac_name(soac),
            reason,
        },
    }
}

/// A SOAC as a library operation: the choice, its input arrays and their
/// element types, and its environment.
struct PlannedSoac {
    choice: KernelChoice,
    inputs: Vec<VName>,
    input_types: Vec<PrimType>,
    environment: Environment,
}

/// What `lambda` reads from the enclosing scope (typed in `types`), in
/// first-use order: its scalars and its arrays of primitives.
fn environment_of(lambda: &Lambda, types: &HashMap<VName, Type>) -> Environment {
    let mut bound = HashSet::new();
    for_each_binder_in_lambda(lambda, |name: &VName| {
        bound.insert(name.clone());
    });
    let mut seen = HashSet::new();
    let mut environment = Environment::default();
    for_each_use_in_body(&lambda.body, |name: &VName| {
        if bound.contains(name) || !seen.insert(name.clone()) {
            return;
        }
        match types.get(name) {
            Some(Type::Prim(prim_type)) => environment.scalars.push((name.clone(), *prim_type)),
            Some(Type::Array { element, shape }) => {
                environment
                    .arrays
                    .push((name.clone(), *element, shape.len()))
            }
            _ => {}
        }
    });
    environment
}

fn plan_soac(soac: &Soac, types: &HashMap<VName, Type>) -> Result<PlannedSoac, CodegenError> {
    let mut environment = Environment::default();
    let (arrays, choice) = match soac {
        Soac::Map { lambda, arrays, .. } => {
            environment = environment_of(lambda, types);
            (
                arrays,
                KernelChoice::Map {
                    lambda: map_lambda(lambda, &environment)?,
                },
            )
        }
        Soac::Reduce {
            lambda,
            neutral,
            arrays,
            ..
        } => (
            arrays,
            KernelChoice::Reduce {
                operator: operator(lambda, neutral, &environment)?,
            },
        ),
        Soac::Scan {
            lambda,
            neutral,
            arrays,
            ..
        } => (
            arrays,
            KernelChoice::Scan {
                operator: operator(lambda, neutral, &environment)?,
            },
        ),
        Soac::Redomap {
            map_lambda: mapped,
            reduce_lambda,
            neutral,
            arrays,
            ..
        } => {
            no_extra_mapped_results(mapped.return_types.len(), neutral.len(), "redomap")?;
            environment = environment_of(mapped, types);
            (
                arrays,
                KernelChoice::Redomap {
                    lambda: map_lambda(mapped, &environment)?,
                    operator: operator(reduce_lambda, neutral, &environment)?,
                },
            )
        }
        Soac::Scanomap {
            map_lambda: mapped,
            scan_lambda,
            neutral,
            arrays,
            ..
        } => {
            no_extra_mapped_results(mapped.return_types.len(), neutral.len(), "scanomap")?;
            environment = environment_of(mapped, types);
            (
                arrays,
                KernelChoice::Scanomap {
                    lambda: map_lambda(mapped, &environment)?,
                    operator: operator(scan_lambda, neutral, &environment)?,
                },
            )
        }
        Soac::Filter {
            predicate, arrays, ..
        } => {
            environment = environment_of(predicate, types);
            (
                arrays,
                KernelChoice::Filter {
                    predicate: map_lambda(predicate, &environment)?,
                },
            )
        }
        Soac::Scatter { .. } | Soac::Hist { .. } => {
            return Err(CodegenError::unsupported(format!(
                "{} (no generated kernel yet)",
                soac_name(soac)
            )))
        }
    };
    let mut input_types = Vec::with_capacity(arrays.len());
    for array in arrays {
        match types.get(array) {
            Some(Type::Array { element, shape }) if shape.len() == 1 => input_types.push(*element),
            Some(other) => {
                return Err(CodegenError::unsupported(format!(
                    "the input `{array}` of rank {} (only 1-D arrays of primitives)",
                    other.rank()
                )))
            }
            None => {
                return Err(CodegenError::unsupported(format!(
                    "the input `{array}`, whose type is unknown"
                )))
            }
        }
    }
    if arrays.is_empty() {
        return Err(CodegenError::unsupported("a SOAC without input arrays"));
    }
    Ok(PlannedSoac {
        choice,
        inputs: arrays.clone(),
        input_types,
        environment,
    })
}

fn no_extra_mapped_results(
    map_results: usize,
    reduced: usize,
    soac: &str,
) -> Result<(), CodegenError> {
    if map_results == reduced {
        Ok(())
    } else {
        Err(CodegenError::unsupported(format!(
            "a {soac} whose map lambda also returns {} mapped arrays",
            map_results - reduced
        )))
    }
}
