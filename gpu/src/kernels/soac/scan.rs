//! Inclusive `scan`, `scanomap` and regular segmented `scan` with any
//! associative operator ([`Operator`]), commutative or not.
//!
//! One ordered kernel scans segments tile by tile: a tile is loaded into
//! shared memory with coalesced reads; each invocation scans its
//! `items_per_invocation` consecutive elements sequentially; a Hillis–Steele
//! scan over the invocations' totals (ping-ponging between two halves of
//! shared memory: one barrier per step) gives each invocation its exclusive
//! prefix; results are written
//! back with coalesced stores, and the tile total is folded into the
//! segment's running carry (on the right). A segment may start from a carry
//! read from a buffer (`carry_mode = 1`: segment `s > 0` starts from
//! `carries[s - 1]`).
//!
//! A whole-array scan runs in one pass by default ([`super::lookback`]:
//! decoupled look-back, reading the input once). The alternative,
//! [`ScanStrategy::ReduceThenScan`], is three passes in one submission:
//! (1) the ordered reduction of [`super::reduce`] gives one total per
//! segment (at most one tile of segments); (2) one workgroup scans those
//! totals; (3) every segment is scanned starting from the previous
//! segments' scanned total. No pass depends on the subgroup size or on
//! inter-workgroup forward progress (no decoupled look-back).
//!
//! Bindings: inputs `input0…`, carries `carry0…` (operator types), outputs
//! `output0…` (operator types). Push constants: element count, segment
//! length, segment count, carry mode.

use super::lookback::{self, LookBackWaiting};
use super::reduce::{
    check_regular_segments, load_tile_statements, maximum_first_pass_segments,
    ordered_kernels_use_subgroups, ordered_reduce_kernel, ordered_shape,
    ordered_shared_declarations, whole_array_segments,
};
use super::segmented::{row_per_invocation_kernel, RowOperation, SegmentedStrategy};
use super::{
    assign_neutral, check_arrays, combine_into, component_list, declare_tuple, element_count_word,
    glsl_header, load_tuple, tuple_buffer_declarations, DeviceArrays, ElementSource,
    GeneratedKernel, KernelShape,
};
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::KernelFeatures;
use crate::kernels::lambda::{MapLambda, Operator};
use crate::kernels::KernelSource;
use crate::runtime::submission::KernelLaunch;
use crate::runtime::{ComputeKernel, DeviceBuffer, EnvironmentBuffers, Runtime};

/// The ordered segmented scan kernel.
pub fn ordered_scan_kernel(
    source: &ElementSource,
    operator: &Operator,
    shape: KernelShape,
) -> GeneratedKernel {
    let features = source
        .features()
        .union(KernelFeatures::for_element_types(&operator.element_types));
    let count = operator.element_types.len();
    let types = &operator.element_types;
    let input_count = source.input_types.len() as u32;
    let carry = component_list("carry", "", count);
    let tile_element = component_list("tile", "[local_index]", count);
    let prefix = component_list("prefix", "", count);
    let last_partial = component_list(
        "partial",
        &format!("[source_half + {}u]", shape.workgroup_size - 1),
        count,
    );
    let glsl = format!(
        "{header}{inputs}{carries}{outputs}\
         layout(push_constant) uniform Parameters {{ uint element_count; uint segment_length; uint segment_count; uint carry_mode; }} parameters;\n\
         {shared}\
         {combine}\
         void main() {{\n\
             uint invocation = gl_LocalInvocationID.x;\n\
             for (uint segment = gl_WorkGroupID.x; segment < parameters.segment_count; segment += gl_NumWorkGroups.x) {{\n\
                 uint segment_start = min(segment * parameters.segment_length, parameters.element_count);\n\
                 uint segment_end = min(segment_start + parameters.segment_length, parameters.element_count);\n\
                 {declare_carry}{neutral_carry}\n\
                 if (parameters.carry_mode == 1u && segment > 0u) {{ {load_carry} }}\n\
                 for (uint tile_start = segment_start; tile_start < segment_end; tile_start += {tile}u) {{\n\
                     {load_tile}\
                     barrier();\n\
                     {scan_tile}\
                     {declare_prefix}{prefix_from_carry}\n\
                     if (invocation > 0u) {prefix_step}\n\
                     for (uint item = 0u; item < {items}u; item++) {{\n\
                         uint local_index = invocation * {items}u + item;\n\
                         if (tile_start + local_index < segment_end) {apply_prefix}\n\
                     }}\n\
                     {fold_tile}\n\
                     barrier();\n\
                     for (uint item = 0u; item < {items}u; item++) {{\n\
                         uint local_index = item * {workgroup}u + invocation;\n\
                         uint global_index = tile_start + local_index;\n\
                         if (global_index < segment_end) {{ {store_output} }}\n\
                     }}\n\
                     barrier();\n\
                 }}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, shape.workgroup_size, "ordered segmented scan"),
        inputs = source.glsl_declarations(0),
        carries = tuple_buffer_declarations(input_count, "readonly", "carry_in", types),
        outputs = tuple_buffer_declarations(input_count + count as u32, "writeonly", "output", types),
        shared = ordered_shared_declarations(operator, shape),
        combine = operator.glsl_function("combine"),
        declare_carry = declare_tuple("carry", types),
        neutral_carry = assign_neutral(&carry, operator),
        load_carry = carry
            .iter()
            .zip(load_tuple("carry_in", "segment - 1u", types))
            .map(|(target, value)| format!("{target} = {value}; "))
            .collect::<String>(),
        tile = shape.tile_size(),
        load_tile = load_tile_statements(operator, shape),
        scan_tile = tile_scan_statements(operator, shape, &tile_element),
        items = shape.items_per_invocation,
        workgroup = shape.workgroup_size,
        declare_prefix = declare_tuple("prefix", types),
        prefix_from_carry = assignments(&prefix, &carry),
        prefix_step = combine_into(
            operator,
            &carry,
            &component_list("partial", "[source_half + invocation - 1u]", count),
            &prefix
        ),
        apply_prefix = combine_into(operator, &prefix, &tile_element, &tile_element),
        fold_tile = combine_into(operator, &carry, &last_partial, &carry),
        store_output = super::store_tuple("output", "global_index", &tile_element, types),
    );
    GeneratedKernel {
        source: KernelSource {
            name: format!("scan_ordered_{}", source.name_fragment()),
            glsl,
        },
        features,
    }
}

/// GLSL scanning the tile staged in shared memory (`tile_element`: the
/// slots `tile{i}[…]` of element `local_index`; elements `tile_start…`
/// below `segment_end`): each invocation scans its `items_per_invocation`
/// consecutive elements in place, then a Hillis–Steele scan over the
/// invocations' totals ping-pongs between the halves of `partial{i}` (one
/// barrier per step). Afterwards `partial{i}[source_half + k]` is the
/// inclusive total of invocations `0..=k`. Shared by the ordered and the
/// single-pass ([`super::lookback`]) scans.
pub(crate) fn tile_scan_statements(
    operator: &Operator,
    shape: KernelShape,
    tile_element: &[String],
) -> String {
    let count = operator.element_types.len();
    let types = &operator.element_types;
    let invocation_accumulator = component_list("invocation_accumulator", "", count);
    let my_partial = component_list("partial", "[invocation]", count);
    let previous_partial = component_list("partial", "[source_half + invocation - offset]", count);
    let source_partial = component_list("partial", "[source_half + invocation]", count);
    let destination_partial = component_list("partial", "[destination_half + invocation]", count);
    let step_value = component_list("step_value", "", count);
    format!(
        "{declare_invocation}{neutral_invocation}\n\
         for (uint item = 0u; item < {items}u; item++) {{\n\
             uint local_index = invocation * {items}u + item;\n\
             if (tile_start + local_index < segment_end) {{ {fold_item} {write_back} }}\n\
         }}\n\
         {store_partial}\n\
         barrier();\n\
         uint source_half = 0u;\n\
         for (uint offset = 1u; offset < {workgroup}u; offset *= 2u) {{\n\
             uint destination_half = {workgroup}u - source_half;\n\
             {declare_step}{read_step}\n\
             if (invocation >= offset) {step}\n\
             {write_step}\n\
             barrier();\n\
             source_half = destination_half;\n\
         }}\n",
        declare_invocation = declare_tuple("invocation_accumulator", types),
        neutral_invocation = assign_neutral(&invocation_accumulator, operator),
        items = shape.items_per_invocation,
        fold_item = combine_into(
            operator,
            &invocation_accumulator,
            tile_element,
            &invocation_accumulator
        ),
        write_back = assignments(tile_element, &invocation_accumulator),
        store_partial = assignments(&my_partial, &invocation_accumulator),
        workgroup = shape.workgroup_size,
        declare_step = declare_tuple("step_value", types),
        read_step = assignments(&step_value, &source_partial),
        step = combine_into(operator, &previous_partial, &step_value, &step_value),
        write_step = assignments(&destination_partial, &step_value),
    )
}

pub(crate) fn assignments(targets: &[String], values: &[String]) -> String {
    targets
        .iter()
        .zip(values)
        .map(|(target, value)| format!("{target} = {value}; "))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn scan_launch<'a>(
    kernel: &'a ComputeKernel,
    inputs: Vec<&'a DeviceBuffer>,
    environment: Option<&'a EnvironmentBuffers>,
    carries: Vec<&'a DeviceBuffer>,
    outputs: Vec<&'a DeviceBuffer>,
    plan: (u64, u64, u64),
    carry_mode: u32,
    maximum_workgroups: u32,
) -> KernelLaunch<'a> {
    let (element_count, segment_length, segment_count) = plan;
    let mut buffers = inputs;
    buffers.extend(carries);
    buffers.extend(outputs);
    KernelLaunch {
        kernel,
        buffers,
        environment,
        push_constant_words: vec![
            element_count as u32,
            segment_length as u32,
            segment_count as u32,
            carry_mode,
        ],
        workgroup_counts: [
            segment_count.min(u64::from(maximum_workgroups)) as u32,
            1,
            1,
        ],
    }
}

fn check_source(
    operation: &str,
    source: &ElementSource,
    operator: &Operator,
    inputs: &DeviceArrays,
) -> GpuResult<()> {
    check_arrays(operation, &source.input_types, inputs)?;
    if source.element_types() != operator.element_types
        || operator.neutral.len() != operator.element_types.len()
    {
        return Err(GpuError::Validation {
            operation: operation.to_owned(),
            detail: format!(
                "the operator on ({}) (with {} neutral components) cannot scan elements of ({})",
                super::types_name_fragment(&operator.element_types),
                operator.neutral.len(),
                super::types_name_fragment(&source.element_types())
            ),
        });
    }
    Ok(())
}

/// How a whole-array scan runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanStrategy {
    /// One pass, decoupled look-back with the fallback ([`lookback`]); the
    /// default.
    SinglePass(LookBackWaiting),
    /// Three passes: reduce per segment, scan the totals, rescan.
    ReduceThenScan,
}

/// Inclusive `scan operator neutral (map lambda inputs)` (no map when
/// `source` has none): arrays of the operator's types, as long as the input.
/// One pass ([`ScanStrategy::SinglePass`], waiting as the device allows).
pub fn scan_source(
    runtime: &Runtime,
    source: &ElementSource,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    scan_source_with(
        runtime,
        source,
        operator,
        environment,
        inputs,
        ScanStrategy::ReduceThenScan,
    )
}

/// [`scan_source`] with the given strategy; every launch binds
/// `environment`.
pub fn scan_source_with(
    runtime: &Runtime,
    source: &ElementSource,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    strategy: ScanStrategy,
) -> GpuResult<DeviceArrays> {
    const OPERATION: &str = "scan";
    check_source(OPERATION, source, operator, inputs)?;
    let element_count = u64::from(element_count_word(inputs.length, OPERATION)?);
    let types = &operator.element_types;
    if element_count == 0 {
        return DeviceArrays::allocate(runtime, types, 0);
    }
    if let ScanStrategy::SinglePass(waiting) = strategy {
        return lookback::lookback_scan(
            runtime,
            source,
            operator,
            environment,
            inputs,
            waiting,
            None,
        );
    }
    let outputs = DeviceArrays::allocate(runtime, types, element_count)?;
    let shape = ordered_shape(runtime, operator, OPERATION)?;
    let maximum_workgroups = runtime.device_info().max_workgroup_count[0];
    let scan_kernel = ordered_scan_kernel(source, operator, shape).load(runtime)?;
    let (segment_length, segment_count) = whole_array_segments(
        element_count,
        u64::from(shape.tile_size()),
        maximum_first_pass_segments(runtime, shape),
    );
    let plan = (element_count, segment_length, segment_count);
    if segment_count == 1 {
        // One segment: no carries (an unused one-element buffer is bound).
        let unused_carries = DeviceArrays::allocate(runtime, types, 1)?;
        let launch = scan_launch(
            &scan_kernel,
            inputs.buffers(),
            environment,
            unused_carries.buffers(),
            outputs.buffers(),
            plan,
            0,
            maximum_workgroups,
        );
        runtime.run_kernels(OPERATION, &[launch])?;
        return Ok(outputs);
    }
    let columns = ElementSource::columns(types);
    let reduce_kernel = ordered_reduce_kernel(
        source,
        operator,
        shape,
        ordered_kernels_use_subgroups(runtime, operator),
    )
    .load(runtime)?;
    let partial_scan_kernel = ordered_scan_kernel(&columns, operator, shape).load(runtime)?;
    let segment_totals = DeviceArrays::allocate(runtime, types, segment_count)?;
    let scanned_totals = DeviceArrays::allocate(runtime, types, segment_count)?;
    let unused_carries = DeviceArrays::allocate(runtime, types, 1)?;
    let mut reduce_buffers = inputs.buffers();
    reduce_buffers.extend(segment_totals.buffers());
    let launches = [
        KernelLaunch {
            kernel: &reduce_kernel,
            buffers: reduce_buffers,
            environment,
            push_constant_words: vec![
                element_count as u32,
                segment_length as u32,
                segment_count as u32,
            ],
            workgroup_counts: [
                segment_count.min(u64::from(maximum_workgroups)) as u32,
                1,
                1,
            ],
        },
        scan_launch(
            &partial_scan_kernel,
            segment_totals.buffers(),
            environment,
            unused_carries.buffers(),
            scanned_totals.buffers(),
            // At most one tile of totals: one segment.
            (segment_count, segment_count, 1),
            0,
            maximum_workgroups,
        ),
        scan_launch(
            &scan_kernel,
            inputs.buffers(),
            environment,
            scanned_totals.buffers(),
            outputs.buffers(),
            plan,
            1,
            maximum_workgroups,
        ),
    ];
    runtime.run_kernels(OPERATION, &launches)?;
    Ok(outputs)
}

/// Inclusive `scan operator neutral inputs`.
pub fn scan(
    runtime: &Runtime,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    scan_source(
        runtime,
        &ElementSource::columns(&inputs.element_types),
        operator,
        environment,
        inputs,
    )
}

/// Inclusive `scan operator neutral (map lambda inputs)` as fused kernels.
pub fn scanomap(
    runtime: &Runtime,
    lambda: &MapLambda,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    scan_source(
        runtime,
        &ElementSource::mapped(lambda),
        operator,
        environment,
        inputs,
    )
}

/// `map (scan operator neutral)` over the rows of a regular `[n][m]` array
/// given flat (`segment_count = n`, `segment_length = m`), with the
/// automatic [`SegmentedStrategy`].
pub fn segmented_scan(
    runtime: &Runtime,
    operator: &Operator,
    inputs: &DeviceArrays,
    segment_count: u64,
    segment_length: u64,
) -> GpuResult<DeviceArrays> {
    segmented_scan_with(
        runtime,
        operator,
        inputs,
        segment_count,
        segment_length,
        SegmentedStrategy::Automatic,
    )
}

/// [`segmented_scan`] with a chosen strategy: a workgroup per row (the
/// ordered scan kernel, grid-stride over rows beyond the workgroup limit) or
/// an invocation per row.
pub fn segmented_scan_with(
    runtime: &Runtime,
    operator: &Operator,
    inputs: &DeviceArrays,
    segment_count: u64,
    segment_length: u64,
    strategy: SegmentedStrategy,
) -> GpuResult<DeviceArrays> {
    segmented_scan_source(
        runtime,
        &ElementSource::columns(&inputs.element_types),
        operator,
        None,
        inputs,
        (segment_count, segment_length),
        strategy,
    )
}

/// [`segmented_scan_with`] of the elements `source` gives (`inputs`: its
/// columns, or none and the element count for
/// [`ElementSource::positions`]), as `segment_count` rows of
/// `segment_length` (`segments`); every launch binds `environment`.
pub fn segmented_scan_source(
    runtime: &Runtime,
    source: &ElementSource,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    (segment_count, segment_length): (u64, u64),
    strategy: SegmentedStrategy,
) -> GpuResult<DeviceArrays> {
    const OPERATION: &str = "segmented scan";
    check_source(OPERATION, source, operator, inputs)?;
    check_regular_segments(OPERATION, inputs.length, segment_count, segment_length)?;
    let element_count = u64::from(element_count_word(inputs.length, OPERATION)?);
    let types = &operator.element_types;
    if element_count == 0 {
        return DeviceArrays::allocate(runtime, types, 0);
    }
    let workgroup_size = super::preferred_workgroup_size(runtime);
    let resolved = strategy.resolve(segment_count, segment_length, workgroup_size);
    if resolved == SegmentedStrategy::SinglePass {
        return lookback::lookback_scan(
            runtime,
            source,
            operator,
            environment,
            inputs,
            LookBackWaiting::ForDevice,
            Some(segment_length),
        );
    }
    let outputs = DeviceArrays::allocate(runtime, types, element_count)?;
    if resolved == SegmentedStrategy::InvocationPerRow {
        let kernel =
            row_per_invocation_kernel(source, operator, RowOperation::Scan, workgroup_size)
                .load(runtime)?;
        let mut buffers = inputs.buffers();
        buffers.extend(outputs.buffers());
        runtime.dispatch(
            &kernel,
            &buffers,
            environment,
            &[segment_count as u32, segment_length as u32],
            [
                super::grid_stride_workgroups(runtime, segment_count, workgroup_size),
                1,
                1,
            ],
        )?;
        return Ok(outputs);
    }
    let shape = ordered_shape(runtime, operator, OPERATION)?;
    let kernel = ordered_scan_kernel(source, operator, shape).load(runtime)?;
    let unused_carries = DeviceArrays::allocate(runtime, types, 1)?;
    let launch = scan_launch(
        &kernel,
        inputs.buffers(),
        environment,
        unused_carries.buffers(),
        outputs.buffers(),
        (element_count, segment_length, segment_count),
        0,
        runtime.device_info().max_workgroup_count[0],
    );
    runtime.run_kernels(OPERATION, &[launch])?;
    Ok(outputs)
}
