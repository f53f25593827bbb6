//! Kernel extraction: for each top-level SOAC statement of an IR function
//! (`optimized::cpu::offload::host_soac_statements`: in its host code, at
//! any depth of loops and branches), the library kernel that runs it
//! ([`KernelPlan`]) or why it runs on the host.
//!
//! A SOAC becomes a kernel when it is a `map`, `reduce`, `scan`, `redomap`,
//! `scanomap`, `filter`, `scatter` or `reduce_by_index` whose arrays (inputs
//! and destinations) are 1-D arrays of primitives and whose lambdas
//! [`super::lambda`] translates (a `reduce_by_index` operator that may fail
//! stays on the host: the histogram kernels read no status word). Everything
//! else (nested arrays, untranslatable lambdas) stays on the host, with the
//! reason. The scalars and arrays of the enclosing scope a map lambda or
//! predicate reads are the plan's environment, bound when it runs
//! ([`crate::kernels::environment`]). [`run_plan`] runs a plan on the
//! operands of its kind ([`PlanOperands`]): input columns, a segmented
//! operation's segments, or the destinations `scatter` and
//! `reduce_by_index` update in place on the device.

use super::failure::can_fail;
use super::lambda::{map_lambda, operator, soac_name, Environment};
use super::CodegenError;
use crate::error::GpuError;
use crate::error::GpuResult;
use crate::kernels::element::PrimType;
use crate::kernels::lambda::{MapLambda, Operator};
use crate::kernels::soac::histogram::HistogramStrategy;
use crate::kernels::soac::segmented::SegmentedStrategy;
use crate::kernels::soac::{self, DeviceArrays, ElementSource, GeneratedKernel, KernelShape};
use crate::runtime::{EnvironmentBuffers, Runtime};
use optimized::cpu::offload::host_soac_statements;
use optimized::ir::visit::{for_each_binder_in_lambda, for_each_use_in_body};
use optimized::ir::{
    BinOp, Body, Combination, Exp, Function, Lambda, NameSource, Param, Program, Soac, Span,
    Statement, SubExp, Type, VName,
};
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
    /// `soac::reduce::segmented_reduce_source` of `lambda` applied to each
    /// position of the `width × segment_length` space
    /// ([`ElementSource::positions`]; a map whose lambda reduces one segment
    /// by index): one result per segment.
    SegmentedRedomap {
        lambda: MapLambda,
        operator: Operator,
        segment_length: SubExp,
    },
    /// `soac::scan::segmented_scan_source` likewise: each segment's scan, a
    /// `[width][segment_length]` result.
    SegmentedScanomap {
        lambda: MapLambda,
        operator: Operator,
        segment_length: SubExp,
    },
    /// `soac::scatter::scatter`, in place on the destinations (1-D arrays
    /// of `destination_types`), with indices of `index_type`.
    Scatter {
        destination_types: Vec<PrimType>,
        index_type: PrimType,
    },
    /// `soac::histogram::reduce_by_index`, in place on the destinations
    /// (1-D arrays of the operator's components), with indices of
    /// `index_type`, at the operator's best strategy
    /// (`HistogramStrategy::best_for`).
    Histogram {
        operator: Operator,
        index_type: PrimType,
    },
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
            KernelChoice::SegmentedRedomap { .. } => "segmented redomap",
            KernelChoice::SegmentedScanomap { .. } => "segmented scanomap",
            KernelChoice::Scatter { .. } => "scatter",
            KernelChoice::Histogram { .. } => "reduce_by_index",
        }
    }

    /// How many of the statement's arrays are destinations it updates in
    /// place (they come first in `SoacCall::inputs`; the plan's `inputs`
    /// are the arrays after them): `scatter` and `reduce_by_index` update
    /// one per component, the other operations none.
    pub fn destination_count(&self) -> usize {
        match self {
            KernelChoice::Scatter {
                destination_types, ..
            } => destination_types.len(),
            KernelChoice::Histogram { operator, .. } => operator.element_types.len(),
            _ => 0,
        }
    }

    /// The length of the segments of a segmented operation (whose elements
    /// come from their positions, not from input columns: see
    /// [`PlanOperands::Segments`]), `None` for the others.
    pub fn segment_length(&self) -> Option<&SubExp> {
        match self {
            KernelChoice::SegmentedRedomap { segment_length, .. }
            | KernelChoice::SegmentedScanomap { segment_length, .. } => Some(segment_length),
            _ => None,
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
    /// The input arrays, in order, and their element types (for `scatter`
    /// and `reduce_by_index`: the indices, then the values; the
    /// destinations are not inputs, see [`KernelChoice::destination_count`]).
    pub inputs: Vec<VName>,
    pub input_types: Vec<PrimType>,
    /// The position of each of `inputs` among the statement's input arrays
    /// (as `SoacCall::inputs` has them): a `map` whose lambda never reads a
    /// parameter of array type (a row it was given but ignores) does not
    /// take that array as a column; the driver only checks that its outer
    /// size is the SOAC's width.
    pub input_positions: Vec<usize>,
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
            KernelChoice::SegmentedRedomap {
                lambda, operator, ..
            } => vec![soac::reduce::ordered_reduce_kernel(
                &ElementSource::positions(lambda),
                operator,
                shape,
                false,
            )],
            KernelChoice::SegmentedScanomap {
                lambda, operator, ..
            } => vec![soac::scan::ordered_scan_kernel(
                &ElementSource::positions(lambda),
                operator,
                shape,
            )],
            KernelChoice::Scatter {
                destination_types,
                index_type,
            } => {
                soac::scatter::scatter_kernel(destination_types, *index_type, shape.workgroup_size)
                    .into_iter()
                    .collect()
            }
            KernelChoice::Histogram {
                operator,
                index_type,
            } => match HistogramStrategy::best_for(operator) {
                HistogramStrategy::PrivatisedPerWorkgroup => {
                    soac::histogram::privatised_histogram_kernel(operator, *index_type, shape)
                        .into_iter()
                        .chain([soac::histogram::histogram_merge_kernel(
                            operator,
                            shape.workgroup_size,
                        )])
                        .collect()
                }
                strategy => soac::histogram::atomic_histogram_kernel(
                    operator,
                    strategy,
                    *index_type,
                    shape.workgroup_size,
                )
                .into_iter()
                .collect(),
            },
        }
    }
}

/// What a plan runs on, by the kind of its [`KernelChoice`]; `environment`
/// holds the values of the plan's environment and a cleared status word.
pub enum PlanOperands<'a> {
    /// The input arrays (uploaded in order) of a `map`, `reduce`, `scan`,
    /// `redomap`, `scanomap` or `filter`.
    Columns {
        inputs: &'a DeviceArrays,
        environment: &'a EnvironmentBuffers,
    },
    /// The `count` segments of `length` elements of a segmented operation:
    /// its elements are its lambda at each of the `count × length`
    /// positions (no input columns).
    Segments {
        count: u64,
        length: u64,
        environment: &'a EnvironmentBuffers,
    },
    /// A `scatter`'s or `reduce_by_index`'s destinations (the device copies
    /// of its destination arrays, one per component), updated in place,
    /// and its indices and values (its inputs, uploaded); no environment.
    Update {
        destinations: DeviceArrays,
        indices: &'a DeviceArrays,
        values: &'a DeviceArrays,
    },
}

/// Runs `plan` on `operands` through the kernel library: the SOAC's results
/// as device arrays (one element per component for `reduce`/`redomap` and
/// per segment and component for a segmented `redomap`; for `filter`, the
/// kept elements, whose length is the count; for an update, the
/// destinations).
pub fn run_plan(
    runtime: &Runtime,
    plan: &KernelPlan,
    operands: PlanOperands<'_>,
) -> GpuResult<DeviceArrays> {
    let not_on = |operands: &str| GpuError::Validation {
        operation: format!("running a {}", plan.choice.name()),
        detail: format!("it does not run on {operands}"),
    };
    match operands {
        PlanOperands::Columns {
            inputs,
            environment,
        } => {
            let environment = Some(environment);
            match &plan.choice {
                KernelChoice::Map { lambda } => {
                    soac::map::map(runtime, lambda, environment, inputs)
                }
                KernelChoice::Reduce { operator } => {
                    soac::reduce::reduce(runtime, operator, environment, inputs)
                }
                KernelChoice::Redomap { lambda, operator } => {
                    soac::reduce::redomap(runtime, lambda, operator, environment, inputs)
                }
                KernelChoice::Scan { operator } => {
                    soac::scan::scan(runtime, operator, environment, inputs)
                }
                KernelChoice::Scanomap { lambda, operator } => {
                    soac::scan::scanomap(runtime, lambda, operator, environment, inputs)
                }
                KernelChoice::Filter { predicate } => {
                    soac::filter::filter(runtime, predicate, environment, inputs)
                }
                _ => Err(not_on("input columns")),
            }
        }
        PlanOperands::Segments {
            count,
            length,
            environment,
        } => {
            let (lambda, operator, run_segments) = match &plan.choice {
                KernelChoice::SegmentedRedomap {
                    lambda, operator, ..
                } => (
                    lambda,
                    operator,
                    soac::reduce::segmented_reduce_source as SegmentedRun,
                ),
                KernelChoice::SegmentedScanomap {
                    lambda, operator, ..
                } => (
                    lambda,
                    operator,
                    soac::scan::segmented_scan_source as SegmentedRun,
                ),
                _ => return Err(not_on("segments")),
            };
            run_segments(
                runtime,
                &ElementSource::positions(lambda),
                operator,
                Some(environment),
                &positions(count, length)?,
                (count, length),
                SegmentedStrategy::Automatic,
            )
        }
        PlanOperands::Update {
            destinations,
            indices,
            values,
        } => {
            match &plan.choice {
                KernelChoice::Scatter { .. } => {
                    soac::scatter::scatter(runtime, &destinations, indices, values)?
                }
                KernelChoice::Histogram { operator, .. } => soac::histogram::reduce_by_index(
                    runtime,
                    &destinations,
                    operator,
                    indices,
                    values,
                    HistogramStrategy::best_for(operator),
                )?,
                _ => return Err(not_on("destinations to update")),
            }
            Ok(destinations)
        }
    }
}

/// The library's segmented operations over an element source.
type SegmentedRun = fn(
    &Runtime,
    &ElementSource,
    &Operator,
    Option<&EnvironmentBuffers>,
    &DeviceArrays,
    (u64, u64),
    SegmentedStrategy,
) -> GpuResult<DeviceArrays>;

/// The index space of `count` segments of `length` elements: no columns.
fn positions(count: u64, length: u64) -> GpuResult<DeviceArrays> {
    Ok(DeviceArrays {
        element_types: Vec::new(),
        columns: Vec::new(),
        length: count
            .checked_mul(length)
            .ok_or_else(|| GpuError::Unsupported {
                what: format!("{count} segments of {length} elements"),
            })?,
    })
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
            input_positions: planned.input_positions,
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
    input_positions: Vec<usize>,
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
    let mut input_positions = None;
    let (arrays, choice) = match soac {
        Soac::Map { lambda, arrays, .. } => {
            if let Some(combination) = segment_combination(lambda, arrays, types) {
                return combination.plan(arrays, types);
            }
            let (lambda, read) = without_unread_rows(lambda);
            input_positions = Some(read);
            environment = environment_of(&lambda, types);
            (
                arrays,
                KernelChoice::Map {
                    lambda: map_lambda(&lambda, &environment)?,
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
        Soac::Scatter {
            destinations,
            indices,
            values,
            ..
        } => {
            let destination_types = element_types(destinations, "destination", types)?;
            let index_type = index_type(indices, types)?;
            return update_inputs(
                KernelChoice::Scatter {
                    destination_types,
                    index_type,
                },
                indices,
                values,
                types,
            );
        }
        Soac::Hist {
            destinations,
            operator: lambda,
            neutral,
            indices,
            values,
            ..
        } => {
            if can_fail(lambda) {
                return Err(CodegenError::unsupported(
                    "a reduce_by_index operator that may fail (the histogram kernels read no \
                     status word)",
                ));
            }
            let operator = operator(lambda, neutral, &environment)?;
            if element_types(destinations, "destination", types)? != operator.element_types {
                return Err(CodegenError::unsupported(
                    "destinations whose element types are not the operator's",
                ));
            }
            let index_type = index_type(indices, types)?;
            return update_inputs(
                KernelChoice::Histogram {
                    operator,
                    index_type,
                },
                indices,
                values,
                types,
            );
        }
    };
    if arrays.is_empty() {
        return Err(CodegenError::unsupported("a SOAC without input arrays"));
    }
    let input_positions = input_positions.unwrap_or_else(|| (0..arrays.len()).collect());
    let inputs: Vec<VName> = input_positions
        .iter()
        .map(|position| arrays[*position].clone())
        .collect();
    Ok(PlannedSoac {
        choice,
        input_types: element_types(&inputs, "input", types)?,
        inputs,
        input_positions,
        environment,
    })
}

/// `lambda` without the parameters of array type its body never reads
/// (rows a map gives it that it ignores: the generators and the
/// segmented IR's expansion leave them), and the positions of the
/// parameters it keeps.
fn without_unread_rows(lambda: &Lambda) -> (Lambda, Vec<usize>) {
    let mut read = HashSet::new();
    for_each_use_in_body(&lambda.body, |name: &VName| {
        read.insert(name.clone());
    });
    let kept: Vec<usize> = (0..lambda.params.len())
        .filter(|position| {
            let param = &lambda.params[*position];
            param.ty.rank() == 0 || read.contains(&param.name)
        })
        .collect();
    let reduced = Lambda {
        params: kept
            .iter()
            .map(|position| lambda.params[*position].clone())
            .collect(),
        body: lambda.body.clone(),
        return_types: lambda.return_types.clone(),
    };
    (reduced, kept)
}

/// A `map` whose lambda reduces or scans one segment: the nest
/// `map (reduce ⊕ ne) xss` of the fused IR, and the form the CPU backend
/// expands a `segred`/`segscan` over several dimensions to
/// (`optimized::cpu::segmented`), which reduces by index:
///
/// ```text
/// map (\p₁ … pₖ -> prefix; [let it = iota m;]
///                  let r = redomap ⊕ f ne a₁ … aₗ in r) A₁ … Aₖ
/// ```
///
/// (or `scanomap`, or `reduce`/`scan` without `f`), where each inner array
/// `aⱼ` is `it` or a row parameter `pᵢ : [m]t` of a 2-D `Aᵢ`, and `m`, `⊕`
/// and `ne` are bound outside the lambda. Every other parameter is a
/// scalar of a 1-D array or a row of an array one rank higher, used only
/// as an inner array or indexed (`pᵢ[k]`). Segment `s`'s element `i` is
/// then the element at position `e = s·m + i` of the flat space, so the
/// whole map is a segmented reduction (or scan) of the lambda of positions
///
/// ```text
/// \e -> let s = e / m; let i = e % m; let pⱼ = Aⱼ[s];  (scalars)
///        let xⱼ = i | Aᵢ[s, i];  prefix; f x₁ … xₗ     (pᵢ[k] as Aᵢ[s, k])
/// ```
///
/// which reads the `Aᵢ` from the environment and recomputes `prefix` (only
/// straight-line scalar code: no SOAC, no loop) per element (an error of
/// `prefix` sets the status word as in the map; with `m = 0` the driver hands
/// the statement back, so `prefix` is evaluated where the program evaluates
/// it).
struct SegmentCombination {
    lambda: Lambda,
    operator: Lambda,
    neutral: Vec<SubExp>,
    segment_length: SubExp,
    scan: bool,
}

/// Where element `i` of a segment comes from.
enum SegmentElement {
    /// The position `i` itself (an inner array that is `iota m`).
    Position,
    /// `A[s, i]`, the row parameter's array.
    Row(VName),
}

/// The segment combination `lambda` (mapped over `arrays`) is, if it is one.
fn segment_combination(
    lambda: &Lambda,
    arrays: &[VName],
    types: &HashMap<VName, Type>,
) -> Option<SegmentCombination> {
    let [statements @ .., combine_statement] = lambda.body.statements.as_slice() else {
        return None;
    };
    let Exp::Soac(soac) = &combine_statement.expression else {
        return None;
    };
    let Combination {
        width,
        map_lambda: inner,
        operator,
        neutral,
        arrays: inner_arrays,
        scan,
    } = soac.combination()?;
    // The iota of the segment's positions, if the combination is by index.
    let (prefix, iota) = match statements {
        [prefix @ .., last] => match (&last.expression, last.pattern.as_slice()) {
            (
                Exp::Iota {
                    length,
                    start,
                    step,
                    element: PrimType::I64,
                },
                [iota],
            ) if length == width
                && *start == SubExp::i64(0)
                && *step == SubExp::i64(1)
                && inner_arrays.contains(&iota.name) =>
            {
                (prefix, Some(&iota.name))
            }
            _ => (statements, None),
        },
        [] => (statements, None),
    };
    let mut bound = HashSet::new();
    for_each_binder_in_lambda(lambda, |name: &VName| {
        bound.insert(name.clone());
    });
    let bound_inside = |sub: &SubExp| matches!(sub, SubExp::Var(name) if bound.contains(name));
    let results: Vec<SubExp> = combine_statement
        .pattern
        .iter()
        .map(|p| SubExp::Var(p.name.clone()))
        .collect();
    let closed = !bound_inside(width)
        && !neutral.iter().any(bound_inside)
        && inner.is_none_or(|f| f.return_types.len() == neutral.len())
        && lambda.body.result == results
        && lambda.params.len() == arrays.len()
        && prefix.iter().all(|s| is_cheap(&s.expression));
    if !closed {
        return None;
    }
    // Each array parameter is a view of its array: the row `A[s]`.
    let mut views: HashMap<VName, VName> = HashMap::new();
    for (param, array) in lambda.params.iter().zip(arrays) {
        let array_rank = types.get(array).map_or(0, Type::rank);
        if array_rank != param.ty.rank() + 1 {
            return None;
        }
        if param.ty.rank() > 0 {
            views.insert(param.name.clone(), array.clone());
        }
    }
    let mut elements = Vec::with_capacity(inner_arrays.len());
    for inner_array in inner_arrays {
        if Some(inner_array) == iota {
            elements.push(SegmentElement::Position);
            continue;
        }
        let param = lambda.params.iter().find(|p| p.name == *inner_array)?;
        let row_of_width = matches!(
            &param.ty,
            Type::Array { shape, .. } if shape.as_slice() == std::slice::from_ref(width)
        );
        if !row_of_width {
            return None;
        }
        elements.push(SegmentElement::Row(views.get(inner_array)?.clone()));
    }
    // Fresh names: above every name the lambda binds or its scope holds.
    let largest = bound
        .iter()
        .chain(types.keys())
        .map(|name| name.number)
        .max()
        .unwrap_or(0);
    let mut names = NameSource::starting_at(largest.saturating_add(1));
    let position = names.fresh("segment_position");
    let segment = names.fresh("segment");
    let index = names.fresh("segment_index");
    let span = combine_statement.span;
    let binding = |name: &VName, ty: Type, expression: Exp| Statement {
        pattern: vec![Param {
            name: name.clone(),
            ty,
        }],
        expression,
        span,
    };
    let i64_type = Type::Prim(PrimType::I64);
    let arithmetic = |op: BinOp| Exp::BinOp {
        op,
        ty: PrimType::I64,
        left: SubExp::Var(position.clone()),
        right: width.clone(),
    };
    let mut body = vec![
        binding(&segment, i64_type.clone(), arithmetic(BinOp::Quot)),
        binding(&index, i64_type.clone(), arithmetic(BinOp::Rem)),
    ];
    for (param, array) in lambda.params.iter().zip(arrays) {
        if let Type::Prim(_) = param.ty {
            let row = Exp::Index {
                array: array.clone(),
                indices: vec![SubExp::Var(segment.clone())],
            };
            body.push(binding(&param.name, param.ty.clone(), row));
        }
    }
    // The element's components: `f`'s parameters, or fresh names.
    let element_names: Vec<(VName, Type)> = match inner {
        Some(f) => f
            .params
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone()))
            .collect(),
        None => operator
            .return_types
            .iter()
            .map(|ty| (names.fresh("segment_element"), ty.clone()))
            .collect(),
    };
    if element_names.len() != elements.len() {
        return None;
    }
    for ((name, ty), element) in element_names.iter().zip(&elements) {
        let expression = match element {
            SegmentElement::Position => Exp::SubExp(SubExp::Var(index.clone())),
            SegmentElement::Row(array) => Exp::Index {
                array: array.clone(),
                indices: vec![SubExp::Var(segment.clone()), SubExp::Var(index.clone())],
            },
        };
        body.push(binding(name, ty.clone(), expression));
    }
    body.extend(prefix.iter().cloned());
    let (result, return_types) = match inner {
        Some(f) => {
            body.extend(f.body.statements.iter().cloned());
            (f.body.result.clone(), f.return_types.clone())
        }
        None => (
            element_names
                .iter()
                .map(|(name, _)| SubExp::Var(name.clone()))
                .collect(),
            operator.return_types.clone(),
        ),
    };
    let mut body = Body {
        statements: body,
        result,
    };
    index_views(&mut body, &views, &segment);
    // Every view is now indexed through its array, and the iota is gone:
    // a view or the iota used otherwise (passed whole, its length taken)
    // is not an element of the space.
    let mut leftover = false;
    for_each_use_in_body(&body, |name: &VName| {
        leftover |= views.contains_key(name) || Some(name) == iota;
    });
    if leftover {
        return None;
    }
    Some(SegmentCombination {
        lambda: Lambda {
            params: vec![Param {
                name: position,
                ty: i64_type,
            }],
            body,
            return_types,
        },
        operator: operator.clone(),
        neutral: neutral.to_vec(),
        segment_length: width.clone(),
        scan,
    })
}

/// Whether `expression` is straight-line scalar work (no SOAC, no loop, at
/// any depth of its branches): what a segment combination may recompute at
/// every element of the segment.
fn is_cheap(expression: &Exp) -> bool {
    match expression {
        Exp::Soac(_) | Exp::Loop { .. } | Exp::Seg(_) => false,
        other => other
            .bodies()
            .into_iter()
            .all(|body| body.statements.iter().all(|s| is_cheap(&s.expression))),
    }
}

/// Rewrites every `p[k…]` of a view `p` (the row `views[p][segment]`) in
/// `body`, at any depth, to `views[p][segment, k…]`.
fn index_views(body: &mut Body, views: &HashMap<VName, VName>, segment: &VName) {
    for statement in &mut body.statements {
        if let Exp::Index { array, indices } = &mut statement.expression {
            if let Some(outer) = views.get(array) {
                *array = outer.clone();
                indices.insert(0, SubExp::Var(segment.clone()));
            }
        }
        for inner in optimized::passes::traverse::nested_bodies_mut(&mut statement.expression) {
            index_views(inner, views, segment);
        }
    }
}

impl SegmentCombination {
    /// Its plan: the map's `arrays` are its inputs (as `SoacCall::inputs`
    /// gives them), read from the environment rather than as columns.
    fn plan(
        &self,
        arrays: &[VName],
        types: &HashMap<VName, Type>,
    ) -> Result<PlannedSoac, CodegenError> {
        let environment = environment_of(&self.lambda, types);
        let lambda = map_lambda(&self.lambda, &environment)?;
        let operator = operator(&self.operator, &self.neutral, &environment)?;
        let segment_length = self.segment_length.clone();
        let choice = if self.scan {
            KernelChoice::SegmentedScanomap {
                lambda,
                operator,
                segment_length,
            }
        } else {
            KernelChoice::SegmentedRedomap {
                lambda,
                operator,
                segment_length,
            }
        };
        Ok(PlannedSoac {
            choice,
            inputs: arrays.to_vec(),
            // No columns: the lambda reads the arrays from the environment.
            input_types: Vec::new(),
            input_positions: (0..arrays.len()).collect(),
            environment,
        })
    }
}

/// The plan of a `scatter` or `reduce_by_index` (`choice`): its inputs are
/// `indices`, then `values`.
fn update_inputs(
    choice: KernelChoice,
    indices: &VName,
    values: &[VName],
    types: &HashMap<VName, Type>,
) -> Result<PlannedSoac, CodegenError> {
    let inputs: Vec<VName> = std::iter::once(indices).chain(values).cloned().collect();
    Ok(PlannedSoac {
        choice,
        input_types: element_types(&inputs, "input", types)?,
        input_positions: (0..inputs.len()).collect(),
        inputs,
        environment: Environment::default(),
    })
}

/// The element type of `indices`, an `i32` or `i64` array (the kernels'
/// bounds tests know these two).
fn index_type(indices: &VName, types: &HashMap<VName, Type>) -> Result<PrimType, CodegenError> {
    match element_types(std::slice::from_ref(indices), "index", types)?.as_slice() {
        [index_type @ (PrimType::I32 | PrimType::I64)] => Ok(*index_type),
        _ => Err(CodegenError::unsupported(format!(
            "the indices `{indices}` (only i32 and i64 indices)"
        ))),
    }
}

/// The element types of `arrays` (typed in `types`), each a 1-D array of
/// primitives; `role` names them in the reason when one is not.
fn element_types(
    arrays: &[VName],
    role: &str,
    types: &HashMap<VName, Type>,
) -> Result<Vec<PrimType>, CodegenError> {
    let mut element_types = Vec::with_capacity(arrays.len());
    for array in arrays {
        match types.get(array) {
            Some(Type::Array { element, shape }) if shape.len() == 1 => {
                element_types.push(*element)
            }
            Some(other) => {
                return Err(CodegenError::unsupported(format!(
                    "the {role} `{array}` of rank {} (only 1-D arrays of primitives)",
                    other.rank()
                )))
            }
            None => {
                return Err(CodegenError::unsupported(format!(
                    "the {role} `{array}`, whose type is unknown"
                )))
            }
        }
    }
    Ok(element_types)
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
