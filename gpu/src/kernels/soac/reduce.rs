//! `reduce`, `redomap` and regular segmented `reduce` with any associative
//! operator ([`Operator`]) on tuples.
//!
//! Two kernels:
//!
//! * **ordered** (any operator, commutative or not): workgroup `g` reduces
//!   segments `g, g + G, …`; a segment is reduced tile by tile (a tile is
//!   `workgroup_size × items_per_invocation` elements, loaded into shared
//!   memory with coalesced reads); each invocation folds its
//!   `items_per_invocation` consecutive tile elements left to right, then an
//!   order-preserving tree (`p[i] ← p[i] ⊕ p[i + s]` for `i` a multiple of
//!   `2s`) combines the invocations' results, and the tile's total is folded
//!   into the segment's accumulator on the right. Nothing depends on the
//!   subgroup size.
//! * **subgroup** (known commutative operators on 32-bit types, e.g. `(+)`
//!   on `f32`): as many workgroups as the device keeps resident
//!   (`DeviceInfo::resident_workgroups`), each invocation striding over the
//!   input four elements per load with [`VECTORS_PER_INVOCATION`] loads in
//!   flight (the input is read once; the order is free since the operator
//!   commutes), then `subgroupAdd`-style
//!   operations, subgroup leaders' results in shared memory, and the first
//!   subgroup combines those slots striding by `gl_SubgroupSize` (never
//!   assumed: 8 on lavapipe, 32 on NVIDIA).
//!
//! A whole-array reduction runs passes until one value remains: the first
//! pass makes at most one segment per workgroup, at most one tile of them,
//! so two passes suffice; all passes go in one submission.
//!
//! Ordered bindings: inputs `input0…` then outputs `output0…` (operator
//! types). Push constants: element count, segment length, segment count.

use super::segmented::{row_per_invocation_kernel, RowOperation, SegmentedStrategy};
use super::{
    assign_neutral, check_arrays, combine_into, component_list, declare_tuple, element_count_word,
    glsl_header, shape_fitting_shared_memory, shared_tuple_bytes, store_tuple,
    tuple_buffer_declarations, DeviceArrays, ElementSource, GeneratedKernel, KernelShape,
    VECTORS_PER_INVOCATION, VECTOR_WIDTH,
};
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::GlslElement;
use crate::kernels::element::KernelFeatures;
use crate::kernels::lambda::{MapLambda, Operator};
use crate::kernels::KernelSource;
use crate::runtime::submission::KernelLaunch;
use crate::runtime::{EnvironmentBuffers, Runtime};

/// Which reduction kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceStrategy {
    /// Subgroup operations where the operator is a known commutative one on
    /// a 32-bit type and the device has subgroup arithmetic; ordered
    /// otherwise.
    Automatic,
    /// Always the ordered kernel.
    Ordered,
}

/// The shape of the ordered kernels for `operator` (tiles and per-invocation
/// partials in shared memory).
pub fn ordered_shape(
    runtime: &Runtime,
    operator: &Operator,
    kernel_name: &str,
) -> GpuResult<KernelShape> {
    let tuple_bytes = shared_tuple_bytes(&operator.element_types);
    // Two partials per invocation: the scan's Hillis–Steele steps ping-pong
    // between two halves (one barrier per step).
    shape_fitting_shared_memory(runtime, kernel_name, tuple_bytes, 2 * tuple_bytes)
}

/// The shared-memory and per-tile code common to the ordered reduce and
/// scan kernels: declarations of `tile{i}[TILE]` and `partial{i}[2·WG]`.
pub(crate) fn ordered_shared_declarations(operator: &Operator, shape: KernelShape) -> String {
    shared_declarations_with_tile_slots(operator, shape, shape.tile_size())
}

/// `tile{i}[tile_slots]` and `partial{i}[2·WG]` (the single-pass scan pads
/// its tile, so it has more slots than elements).
pub(crate) fn shared_declarations_with_tile_slots(
    operator: &Operator,
    shape: KernelShape,
    tile_slots: u32,
) -> String {
    let mut text = String::new();
    for (position, element_type) in operator.element_types.iter().enumerate() {
        let value_type = element_type.glsl_value_type();
        text.push_str(&format!(
            "shared {value_type} tile{position}[{tile_slots}];\nshared {value_type} partial{position}[{}];\n",
            2 * shape.workgroup_size
        ));
    }
    text
}

/// GLSL statements loading tile elements `tile_start…` (below `segment_end`)
/// into `tile{i}` with coalesced reads.
pub(crate) fn load_tile_statements(operator: &Operator, shape: KernelShape) -> String {
    load_tile_statements_into(operator, shape, "local_index", "load_element")
}

/// [`load_tile_statements`] into slots `tile{i}[slot]` (`slot` an
/// expression of `local_index`: the single-pass scan pads its tile) through
/// the GLSL function `loader` (`load_element`, or the row-flagging one of a
/// scan by rows).
pub(crate) fn load_tile_statements_into(
    operator: &Operator,
    shape: KernelShape,
    slot: &str,
    loader: &str,
) -> String {
    let count = operator.element_types.len();
    let values = component_list("loaded", "", count);
    let tile_slots = component_list("tile", &format!("[{slot}]"), count);
    let assignments: String = tile_slots
        .iter()
        .zip(&values)
        .map(|(slot, value)| format!("{slot} = {value}; "))
        .collect();
    format!(
        "for (uint item = 0u; item < {items}u; item++) {{\n\
             uint local_index = item * {workgroup}u + invocation;\n\
             uint global_index = tile_start + local_index;\n\
             if (global_index < segment_end) {{ {declarations}{loader}(global_index, {values}); {assignments}}}\n\
         }}\n",
        items = shape.items_per_invocation,
        workgroup = shape.workgroup_size,
        declarations = declare_tuple("loaded", &operator.element_types),
        values = values.join(", "),
    )
}

/// Whether the ordered kernels may combine a tile's invocation results with
/// subgroup operations: the operator is a known commutative one on a 32-bit
/// type (so the order in which lanes combine does not matter) and the device
/// has subgroup arithmetic.
pub fn ordered_kernels_use_subgroups(runtime: &Runtime, operator: &Operator) -> bool {
    runtime.enabled_features().subgroup_arithmetic && subgroup_function(operator).is_some()
}

/// The GLSL combining a tile's invocation results into `accumulator` (on
/// the right): an order-preserving tree over `partial{i}[0..WG]`, or — for a
/// known commutative operator when `subgroup_operation` is given — subgroup
/// operations, leaders' results in shared slots, and invocation 0 folding the
/// slots (two barriers instead of log₂ WG).
fn combine_invocation_results(
    operator: &Operator,
    shape: KernelShape,
    subgroup_operation: Option<&str>,
) -> String {
    let count = operator.element_types.len();
    let accumulator = component_list("accumulator", "", count);
    let invocation_accumulator = component_list("invocation_accumulator", "", count);
    let my_partial = component_list("partial", "[invocation]", count);
    if let Some(operation) = subgroup_operation {
        let value_type = operator.element_types[0].glsl_value_type();
        let workgroup_result = vec!["workgroup_result0".to_owned()];
        return format!(
            "{value_type} subgroup_result = {operation}(invocation_accumulator0);\n\
             if (subgroupElect()) {{ partial0[gl_SubgroupID] = subgroup_result; }}\n\
             barrier();\n\
             if (invocation == 0u) {{\n\
                 {value_type} workgroup_result0 = {neutral};\n\
                 for (uint slot = 0u; slot < gl_NumSubgroups; slot++) {fold_slot}\n\
                 {fold_tile}\n\
             }}\n\
             barrier();\n",
            neutral = operator.neutral[0],
            fold_slot = combine_into(
                operator,
                &workgroup_result,
                &["partial0[slot]".to_owned()],
                &workgroup_result
            ),
            fold_tile = combine_into(operator, &accumulator, &workgroup_result, &accumulator),
        );
    }
    let neighbour_partial = component_list("partial", "[invocation + stride]", count);
    let first_partial = component_list("partial", "[0]", count);
    format!(
        "{store_partial}\n\
         barrier();\n\
         for (uint stride = 1u; stride < {workgroup}u; stride *= 2u) {{\n\
             if ((invocation & (2u * stride - 1u)) == 0u) {tree_step}\n\
             barrier();\n\
         }}\n\
         {fold_tile}\n\
         barrier();\n",
        store_partial = my_partial
            .iter()
            .zip(&invocation_accumulator)
            .map(|(slot, value)| format!("{slot} = {value}; "))
            .collect::<String>(),
        workgroup = shape.workgroup_size,
        tree_step = combine_into(operator, &my_partial, &neighbour_partial, &my_partial),
        fold_tile = combine_into(operator, &accumulator, &first_partial, &accumulator),
    )
}

/// The ordered segmented reduction kernel (`use_subgroups`: see
/// [`ordered_kernels_use_subgroups`]; ignored where the operator is not a
/// known commutative 32-bit one).
pub fn ordered_reduce_kernel(
    source: &ElementSource,
    operator: &Operator,
    shape: KernelShape,
    use_subgroups: bool,
) -> GeneratedKernel {
    let subgroup_operation = subgroup_function(operator).filter(|_| use_subgroups);
    let features = source
        .features()
        .union(KernelFeatures::for_element_types(&operator.element_types))
        .union(KernelFeatures {
            subgroup_arithmetic: subgroup_operation.is_some(),
            ..KernelFeatures::default()
        });
    let count = operator.element_types.len();
    let accumulator = component_list("accumulator", "", count);
    let invocation_accumulator = component_list("invocation_accumulator", "", count);
    let tile_element = component_list("tile", "[local_index]", count);
    let glsl = format!(
        "{header}{inputs}{outputs}\
         layout(push_constant) uniform Parameters {{ uint element_count; uint segment_length; uint segment_count; }} parameters;\n\
         {shared}\
         {combine}\
         void main() {{\n\
             uint invocation = gl_LocalInvocationID.x;\n\
             for (uint segment = gl_WorkGroupID.x; segment < parameters.segment_count; segment += gl_NumWorkGroups.x) {{\n\
                 uint segment_start = min(segment * parameters.segment_length, parameters.element_count);\n\
                 uint segment_end = min(segment_start + parameters.segment_length, parameters.element_count);\n\
                 {declare_accumulator}{neutral_accumulator}\n\
                 for (uint tile_start = segment_start; tile_start < segment_end; tile_start += {tile}u) {{\n\
                     {load_tile}\
                     barrier();\n\
                     {declare_invocation}{neutral_invocation}\n\
                     for (uint item = 0u; item < {items}u; item++) {{\n\
                         uint local_index = invocation * {items}u + item;\n\
                         if (tile_start + local_index < segment_end) {fold_item}\n\
                     }}\n\
                     {combine_results}\
                 }}\n\
                 if (invocation == 0u) {{ {store_result} }}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, shape.workgroup_size, "ordered segmented reduce"),
        inputs = source.glsl_declarations(0),
        outputs = tuple_buffer_declarations(
            source.input_types.len() as u32,
            "writeonly",
            "output",
            &operator.element_types
        ),
        shared = ordered_shared_declarations(operator, shape),
        combine = operator.glsl_function("combine"),
        declare_accumulator = declare_tuple("accumulator", &operator.element_types),
        neutral_accumulator = assign_neutral(&accumulator, operator),
        tile = shape.tile_size(),
        load_tile = load_tile_statements(operator, shape),
        declare_invocation = declare_tuple("invocation_accumulator", &operator.element_types),
        neutral_invocation = assign_neutral(&invocation_accumulator, operator),
        items = shape.items_per_invocation,
        fold_item = combine_into(operator, &invocation_accumulator, &tile_element, &invocation_accumulator),
        combine_results = combine_invocation_results(operator, shape, subgroup_operation),
        store_result = store_tuple("output", "segment", &accumulator, &operator.element_types),
    );
    GeneratedKernel {
        source: KernelSource {
            name: format!(
                "reduce_ordered_{}{}",
                source.name_fragment(),
                if subgroup_operation.is_some() {
                    "_subgroup_combine"
                } else {
                    ""
                }
            ),
            glsl,
        },
        features,
    }
}

/// The subgroup function of `operator` if the subgroup kernel applies.
pub fn subgroup_function(operator: &Operator) -> Option<&'static str> {
    match (operator.builtin, operator.element_types.as_slice()) {
        (Some(builtin), [element_type]) if operator.commutative => {
            builtin.subgroup_function(*element_type)
        }
        _ => None,
    }
}

/// The subgroup reduction kernel (one partial result per workgroup over a
/// grid-stride slice). Bindings: inputs, then `output0`. Push constants: the
/// element count. `None` where the operator is not a known commutative
/// 32-bit one.
pub fn subgroup_reduce_kernel(
    source: &ElementSource,
    operator: &Operator,
    workgroup_size: u32,
) -> Option<GeneratedKernel> {
    let subgroup_operation = subgroup_function(operator)?;
    let element_type = operator.element_types[0];
    let value_type = element_type.glsl_value_type();
    let features = source.features().union(KernelFeatures {
        subgroup_arithmetic: true,
        ..KernelFeatures::default()
    });
    let accumulator = vec!["accumulator0".to_owned()];
    let workgroup_accumulator = vec!["workgroup_accumulator0".to_owned()];
    let input_count = source.input_types.len();
    let raw_arguments = |item: &str| -> String {
        (0..input_count)
            .map(|position| format!("raw{position}[{item}]"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let glsl = format!(
        "{header}{inputs}{input_vectors}{output}\
         layout(push_constant) uniform Parameters {{ uint element_count; }} parameters;\n\
         shared {value_type} subgroup_results[{workgroup_size}];\n\
         {combine}\
         void main() {{\n\
             {value_type} accumulator0 = {neutral};\n\
             uint vector_count = parameters.element_count / {VECTOR_WIDTH}u;\n\
             uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n\
             uint vector_index = gl_GlobalInvocationID.x;\n\
             {declare_raw}\n\
             for (; vector_index + {last_item}u * stride < vector_count; vector_index += {VECTORS_PER_INVOCATION}u * stride) {{\n\
                 for (uint item = 0u; item < {VECTORS_PER_INVOCATION}u; item++) {{ load_vector(vector_index + item * stride, {raw_item}); }}\n\
                 for (uint item = 0u; item < {VECTORS_PER_INVOCATION}u; item++) {{\n\
                     for (uint lane = 0u; lane < {VECTOR_WIDTH}u; lane++) {{\n\
                         {value_type} loaded0; element_of_vector({raw_item}, lane, loaded0);\n\
                         {fold}\n\
                     }}\n\
                 }}\n\
             }}\n\
             for (; vector_index < vector_count; vector_index += stride) {{\n\
                 load_vector(vector_index, {raw_first});\n\
                 for (uint lane = 0u; lane < {VECTOR_WIDTH}u; lane++) {{\n\
                     {value_type} loaded0; element_of_vector({raw_first}, lane, loaded0);\n\
                     {fold}\n\
                 }}\n\
             }}\n\
             uint index = vector_count * {VECTOR_WIDTH}u + gl_GlobalInvocationID.x;\n\
             if (index < parameters.element_count) {{\n\
                 {value_type} loaded0; load_element(index, loaded0);\n\
                 {fold}\n\
             }}\n\
             {value_type} subgroup_result = {subgroup_operation}(accumulator0);\n\
             if (subgroupElect()) {{ subgroup_results[gl_SubgroupID] = subgroup_result; }}\n\
             barrier();\n\
             if (gl_SubgroupID == 0u) {{\n\
                 {value_type} workgroup_accumulator0 = {neutral};\n\
                 for (uint slot = gl_SubgroupInvocationID; slot < gl_NumSubgroups; slot += gl_SubgroupSize) {{\n\
                     {fold_slot}\n\
                 }}\n\
                 workgroup_accumulator0 = {subgroup_operation}(workgroup_accumulator0);\n\
                 if (subgroupElect()) {{ {store} }}\n\
             }}\n\
         }}\n",
        input_vectors = source.glsl_vector_declarations(0),
        declare_raw = source
            .input_types
            .iter()
            .enumerate()
            .map(|(position, element_type)| format!(
                "{} raw{position}[{VECTORS_PER_INVOCATION}]; ",
                element_type.glsl_vector_storage_type()
            ))
            .collect::<String>(),
        last_item = VECTORS_PER_INVOCATION - 1,
        raw_item = raw_arguments("item"),
        raw_first = raw_arguments("0"),
        header = glsl_header(features, workgroup_size, "subgroup reduce, vector access"),
        inputs = source.glsl_declarations(0),
        output = tuple_buffer_declarations(
            source.input_types.len() as u32,
            "writeonly",
            "output",
            &operator.element_types
        ),
        combine = operator.glsl_function("combine"),
        neutral = operator.neutral[0],
        fold = combine_into(operator, &accumulator, &["loaded0".to_owned()], &accumulator),
        fold_slot = combine_into(
            operator,
            &workgroup_accumulator,
            &["subgroup_results[slot]".to_owned()],
            &workgroup_accumulator
        ),
        store = store_tuple("output", "gl_WorkGroupID.x", &workgroup_accumulator, &[element_type]),
    );
    Some(GeneratedKernel {
        source: KernelSource {
            name: format!(
                "reduce_subgroup_{}_{}",
                source.name_fragment(),
                element_type.name()
            ),
            glsl,
        },
        features,
    })
}

/// Segment length and count of a pass over `element_count` elements that
/// makes at most `maximum_segments` segments of whole tiles.
pub fn whole_array_segments(
    element_count: u64,
    tile_size: u64,
    maximum_segments: u64,
) -> (u64, u64) {
    let tiles = element_count.div_ceil(tile_size).max(1);
    let segments = tiles.min(maximum_segments.max(1));
    let segment_length = tiles.div_ceil(segments) * tile_size;
    let segment_count = element_count.div_ceil(segment_length).max(1);
    (segment_length, segment_count)
}

/// The most first-pass segments of a whole-array reduction or scan: one tile
/// of partial results (so the next pass is one segment), within the
/// device's workgroup limit.
pub(crate) fn maximum_first_pass_segments(runtime: &Runtime, shape: KernelShape) -> u64 {
    u64::from(shape.tile_size()).min(u64::from(runtime.device_info().max_workgroup_count[0]))
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
                "the operator on ({}) (with {} neutral components) cannot reduce elements of ({})",
                super::types_name_fragment(&operator.element_types),
                operator.neutral.len(),
                super::types_name_fragment(&source.element_types())
            ),
        });
    }
    Ok(())
}

/// One launch of the ordered reduction kernel.
#[allow(clippy::too_many_arguments)]
fn ordered_launch<'a>(
    kernel: &'a crate::runtime::ComputeKernel,
    inputs: &[&'a crate::runtime::DeviceBuffer],
    environment: Option<&'a EnvironmentBuffers>,
    outputs: &'a DeviceArrays,
    element_count: u32,
    segment_length: u64,
    segment_count: u64,
    maximum_workgroups: u32,
) -> KernelLaunch<'a> {
    let mut buffers = inputs.to_vec();
    buffers.extend(outputs.buffers());
    KernelLaunch {
        kernel,
        buffers,
        environment,
        push_constant_words: vec![element_count, segment_length as u32, segment_count as u32],
        workgroup_counts: [
            segment_count.min(u64::from(maximum_workgroups)) as u32,
            1,
            1,
        ],
    }
}

/// `reduce operator neutral (map lambda inputs)` (no map when `source` has
/// none): a one-element array of the operator's types. Every launch binds
/// `environment` (the scalars the lambdas read, the status word).
pub fn reduce_source(
    runtime: &Runtime,
    source: &ElementSource,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    strategy: ReduceStrategy,
) -> GpuResult<DeviceArrays> {
    const OPERATION: &str = "reduce";
    check_source(OPERATION, source, operator, inputs)?;
    let element_count = element_count_word(inputs.length, OPERATION)?;
    let maximum_workgroups = runtime.device_info().max_workgroup_count[0];
    let use_subgroups = strategy == ReduceStrategy::Automatic
        && runtime.enabled_features().subgroup_arithmetic
        && subgroup_function(operator).is_some();
    if use_subgroups {
        let workgroup_size = super::preferred_workgroup_size(runtime);
        let not_applicable = || GpuError::Validation {
            operation: OPERATION.to_owned(),
            detail: "the subgroup kernel does not apply to this operator".to_owned(),
        };
        let first =
            subgroup_reduce_kernel(source, operator, workgroup_size).ok_or_else(not_applicable)?;
        let second = subgroup_reduce_kernel(
            &ElementSource::columns(&operator.element_types),
            operator,
            workgroup_size,
        )
        .ok_or_else(not_applicable)?;
        let (first, second) = (first.load(runtime)?, second.load(runtime)?);
        // As many workgroups as the device keeps resident (fewer for short
        // inputs): each invocation then strides over vectors.
        let elements_per_workgroup =
            u64::from(workgroup_size * VECTORS_PER_INVOCATION * VECTOR_WIDTH);
        let first_workgroups = inputs.length.div_ceil(elements_per_workgroup).clamp(
            1,
            u64::from(runtime.device_info().resident_workgroups(workgroup_size)),
        ) as u32;
        let partials = DeviceArrays::allocate(
            runtime,
            &operator.element_types,
            u64::from(first_workgroups),
        )?;
        let result = DeviceArrays::allocate(runtime, &operator.element_types, 1)?;
        let mut first_buffers = inputs.buffers();
        first_buffers.extend(partials.buffers());
        let mut second_buffers = partials.buffers();
        second_buffers.extend(result.buffers());
        runtime.run_kernels(
            OPERATION,
            &[
                KernelLaunch {
                    kernel: &first,
                    buffers: first_buffers,
                    environment,
                    push_constant_words: vec![element_count],
                    workgroup_counts: [first_workgroups, 1, 1],
                },
                KernelLaunch {
                    kernel: &second,
                    buffers: second_buffers,
                    environment,
                    push_constant_words: vec![first_workgroups],
                    workgroup_counts: [1, 1, 1],
                },
            ],
        )?;
        return Ok(result);
    }
    let shape = ordered_shape(runtime, operator, OPERATION)?;
    let tile = u64::from(shape.tile_size());
    let use_subgroups = ordered_kernels_use_subgroups(runtime, operator);
    let first_kernel =
        ordered_reduce_kernel(source, operator, shape, use_subgroups).load(runtime)?;
    let partial_kernel = ordered_reduce_kernel(
        &ElementSource::columns(&operator.element_types),
        operator,
        shape,
        use_subgroups,
    )
    .load(runtime)?;
    let maximum_segments = maximum_first_pass_segments(runtime, shape);
    // Plan the passes: each reduces its input to one value per segment.
    let mut pass_outputs = Vec::new();
    let mut pass_plans = Vec::new();
    let mut remaining = inputs.length;
    loop {
        let (segment_length, segment_count) =
            whole_array_segments(remaining, tile, maximum_segments);
        pass_outputs.push(DeviceArrays::allocate(
            runtime,
            &operator.element_types,
            segment_count,
        )?);
        pass_plans.push((remaining, segment_length, segment_count));
        if segment_count == 1 {
            break;
        }
        remaining = segment_count;
    }
    let input_buffers = inputs.buffers();
    let mut launches = Vec::new();
    for (pass, (count, segment_length, segment_count)) in pass_plans.iter().enumerate() {
        let (kernel, pass_inputs) = if pass == 0 {
            (&first_kernel, input_buffers.clone())
        } else {
            (&partial_kernel, pass_outputs[pass - 1].buffers())
        };
        launches.push(ordered_launch(
            kernel,
            &pass_inputs,
            environment,
            &pass_outputs[pass],
            *count as u32,
            *segment_length,
            *segment_count,
            maximum_workgroups,
        ));
    }
    runtime.run_kernels(OPERATION, &launches)?;
    drop(launches);
    pass_outputs.pop().ok_or_else(|| GpuError::Validation {
        operation: OPERATION.to_owned(),
        detail: "a reduction plans at least one pass".to_owned(),
    })
}

/// `reduce operator neutral inputs`.
pub fn reduce(
    runtime: &Runtime,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    reduce_source(
        runtime,
        &ElementSource::columns(&inputs.element_types),
        operator,
        environment,
        inputs,
        ReduceStrategy::Automatic,
    )
}

/// `reduce operator neutral (map lambda inputs)` as one fused kernel.
pub fn redomap(
    runtime: &Runtime,
    lambda: &MapLambda,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    reduce_source(
        runtime,
        &ElementSource::mapped(lambda),
        operator,
        environment,
        inputs,
        ReduceStrategy::Automatic,
    )
}

/// `map (reduce operator neutral)` over the rows of a regular `[n][m]`
/// array given flat (`inputs.length = n·m`, `segment_count = n`,
/// `segment_length = m`, either may be 0): `n` results, with the automatic
/// [`SegmentedStrategy`].
pub fn segmented_reduce(
    runtime: &Runtime,
    operator: &Operator,
    inputs: &DeviceArrays,
    segment_count: u64,
    segment_length: u64,
) -> GpuResult<DeviceArrays> {
    segmented_reduce_with(
        runtime,
        operator,
        inputs,
        segment_count,
        segment_length,
        SegmentedStrategy::Automatic,
    )
}

/// [`segmented_reduce`] with a chosen strategy: a workgroup per row (the
/// ordered kernel, grid-stride over rows beyond the workgroup limit) or an
/// invocation per row.
pub fn segmented_reduce_with(
    runtime: &Runtime,
    operator: &Operator,
    inputs: &DeviceArrays,
    segment_count: u64,
    segment_length: u64,
    strategy: SegmentedStrategy,
) -> GpuResult<DeviceArrays> {
    segmented_reduce_source(
        runtime,
        &ElementSource::columns(&inputs.element_types),
        operator,
        None,
        inputs,
        (segment_count, segment_length),
        strategy,
    )
}

/// [`segmented_reduce_with`] of the elements `source` gives (`inputs`:
/// its columns, or none and the element count for
/// [`ElementSource::positions`]), as `segment_count` rows of
/// `segment_length` (`segments`); every launch binds `environment`.
pub fn segmented_reduce_source(
    runtime: &Runtime,
    source: &ElementSource,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    (segment_count, segment_length): (u64, u64),
    strategy: SegmentedStrategy,
) -> GpuResult<DeviceArrays> {
    const OPERATION: &str = "segmented reduce";
    check_source(OPERATION, source, operator, inputs)?;
    check_regular_segments(OPERATION, inputs.length, segment_count, segment_length)?;
    let element_count = element_count_word(inputs.length, OPERATION)?;
    let outputs = DeviceArrays::allocate(runtime, &operator.element_types, segment_count)?;
    if segment_count == 0 {
        return Ok(outputs);
    }
    let workgroup_size = super::preferred_workgroup_size(runtime);
    if strategy.resolve(segment_count, segment_length, workgroup_size)
        == SegmentedStrategy::InvocationPerRow
    {
        let kernel =
            row_per_invocation_kernel(source, operator, RowOperation::Reduce, workgroup_size)
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
    let kernel = ordered_reduce_kernel(
        source,
        operator,
        shape,
        ordered_kernels_use_subgroups(runtime, operator),
    )
    .load(runtime)?;
    let launch = ordered_launch(
        &kernel,
        &inputs.buffers(),
        environment,
        &outputs,
        element_count,
        segment_length,
        segment_count,
        runtime.device_info().max_workgroup_count[0],
    );
    runtime.run_kernels(OPERATION, &[launch])?;
    Ok(outputs)
}

/// An error unless a flat array of `length` elements is `segment_count`
/// rows of `segment_length` (both fitting 32-bit indices).
pub(crate) fn check_regular_segments(
    operation: &str,
    length: u64,
    segment_count: u64,
    segment_length: u64,
) -> GpuResult<()> {
    if segment_count.checked_mul(segment_length) != Some(length) {
        return Err(GpuError::Validation {
            operation: operation.to_owned(),
            detail: format!("{length} elements are not {segment_count} rows of {segment_length}"),
        });
    }
    element_count_word(segment_count, operation)?;
    element_count_word(segment_length, operation)?;
    Ok(())
}
