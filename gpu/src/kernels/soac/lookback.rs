//! Single-pass inclusive scan with decoupled look-back (Merrill and
//! Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
//! NVIDIA technical report NVR-2016-002), with the *decoupled fallback* of
//! Smith, Levien and Owens (the GPUPrefixSums work) for devices that do not
//! promise forward progress between workgroups. Issue 22.
//!
//! The input is cut into tiles of `workgroup_size × items_per_invocation`
//! elements. Workgroups take tiles in order from an atomic counter (so a
//! tile's predecessors were all taken before it), at most
//! `tiles_per_workgroup` each (one where the grid allows), and for each
//! tile:
//!
//! 1. load it into shared memory with coalesced reads and scan it inside
//!    the workgroup (per-invocation sequential scan, Hillis–Steele over the
//!    invocations' totals: the ordered scan's code, [`super::scan`]);
//! 2. publish the tile's aggregate (`status = AGGREGATE`), or for tile 0
//!    its inclusive prefix (`status = PREFIX`);
//! 3. look back over the predecessors `t − 1, t − 2, …`, folding their
//!    aggregates on the left of the running exclusive prefix until a
//!    predecessor's inclusive prefix is found. A predecessor whose status is
//!    still `EMPTY` after `spin_limit` polls is not waited for: the whole
//!    workgroup reduces that tile's input itself (order-preserving tree), so
//!    no workgroup ever depends on another one's progress — the fallback;
//! 4. publish its own inclusive prefix (`status = PREFIX`), add the
//!    exclusive prefix to its scanned tile and store it with coalesced
//!    writes.
//!
//! The input is read once (plus the rare fallback tiles) and the output
//! written once: `8n` bytes for an `f32` scan against the three-pass
//! scan's `12n`. `spin_limit` is chosen per device ([`LookBackWaiting`]):
//! GPUs wait (their resident workgroups run concurrently), CPU devices such
//! as lavapipe never wait; tests force the fallback on.
//!
//! Publication follows the GLSL idiom for inter-workgroup messages: values
//! in `coherent` buffers, `memoryBarrierBuffer()` between the value and the
//! status word, statuses read and written with atomics, and a
//! `memoryBarrierBuffer()` after reading a status before reading the value.
//! The whole workgroup takes part in every poll (invocation 0 reads, two
//! barriers share the status), and no workgroup loops over thousands of
//! tiles: lavapipe computed wrong scans with invocation 0 polling alone and
//! with persistent workgroups (`gpu/NOTES.md`, "lavapipe, as observed").
//! Floating-point results are
//! reassociated as in every parallel scan, and *which* association depends
//! on timing (where a look-back stops): two runs may differ in the last
//! bits (within the compiled backends' `Ulps(64)` tolerance).
//!
//! Bindings: inputs `input0…`, outputs `output0…` (operator types),
//! aggregates `aggregate0…`, inclusive prefixes `prefix_of_tile0…`
//! (operator types, one per tile), `status` (`uint`, word 0 the tile
//! counter, word `1 + t` tile `t`'s status; zeroed by
//! [`ZERO_STATUS_KERNEL`] in the same submission). Push constants: element
//! count, tile count, spin limit, tiles per workgroup, row length.
//!
//! **By rows** ([`ScanExtent::Rows`], the segmented scan of a regular array
//! given flat): the same kernel scans `(row start, value)` pairs under the
//! lifted operator of [`row_operator`] (Blelloch's segmented-scan operator),
//! the row start computed from the index and the row length, and stores the
//! values alone.

use super::reduce::{load_tile_statements_into, shared_declarations_with_tile_slots};
use super::scan::{assignments, tile_scan_statements};
use super::{
    assign_neutral, combine_into, component_list, declare_tuple, glsl_header,
    shape_fitting_shared_memory_with, shared_memory_budget, shared_tuple_bytes,
    tuple_buffer_declarations, DeviceArrays, ElementSource, GeneratedKernel, KernelShape,
};
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::{GlslElement, KernelFeatures, PrimType};
use crate::kernels::lambda::Operator;
use crate::kernels::KernelSource;
use crate::runtime::device_choice::{DeviceInfo, DeviceKind};
use crate::runtime::submission::KernelLaunch;
use crate::runtime::{EnvironmentBuffers, Runtime};

/// How long a workgroup waits for a predecessor's status before reducing
/// the predecessor's tile itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookBackWaiting {
    /// Per device: [`GPU_SPIN_LIMIT`] polls on GPUs, none elsewhere
    /// ([`spin_limit_for`]).
    ForDevice,
    /// Never wait: every predecessor not yet published is reduced by the
    /// waiting workgroup (the fallback path, forced on; for tests).
    NeverWait,
    /// Poll this many times, whatever the device (for tests: the waiting
    /// path on a device that would not wait).
    Polls(u32),
}

/// Polls of a predecessor's status before falling back, on GPUs, whose
/// resident workgroups run concurrently (the predecessor is being computed).
pub const GPU_SPIN_LIMIT: u32 = 1 << 16;

/// The spin limit a scan uses on `device` with `waiting`.
pub fn spin_limit_for(device: &DeviceInfo, waiting: LookBackWaiting) -> u32 {
    match (waiting, device.kind) {
        (LookBackWaiting::NeverWait, _) => 0,
        (LookBackWaiting::Polls(polls), _) => polls,
        (
            LookBackWaiting::ForDevice,
            DeviceKind::DiscreteGpu | DeviceKind::IntegratedGpu | DeviceKind::VirtualGpu,
        ) => GPU_SPIN_LIMIT,
        // No promise that another workgroup runs while this one polls.
        (LookBackWaiting::ForDevice, DeviceKind::Cpu | DeviceKind::Other) => 0,
    }
}

/// Status words: a tile's aggregate or its inclusive prefix is published.
const STATUS_AGGREGATE: u32 = 1;
const STATUS_PREFIX: u32 = 2;

/// Zeroes `status[0 .. count]` (binding 0; push constant: count).
pub const ZERO_STATUS_KERNEL: &str = "#version 450\n\
    // zero the look-back statuses\n\
    layout(local_size_x = 256) in;\n\
    layout(std430, set = 0, binding = 0) writeonly buffer Buffer_status { uint status[]; };\n\
    layout(push_constant) uniform Parameters { uint count; } parameters;\n\
    void main() {\n\
        for (uint index = gl_GlobalInvocationID.x; index < parameters.count; index += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {\n\
            status[index] = 0u;\n\
        }\n\
    }\n";

/// What a single-pass scan scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanExtent {
    /// The whole array.
    WholeArray,
    /// Every row of a regular array given flat (the row length is a push
    /// constant): the scan restarts where a row starts.
    Rows,
}

/// `operator` lifted to rows: on `(starts_row: u32, values…)` pairs,
/// `(f, a) ⊕ (g, b) = (f | g, g ≠ 0 ? b : a ⊕ b)` — associative whenever ⊕
/// is (Blelloch's segmented scan operator), with neutral `(0, neutral)`.
pub fn row_operator(operator: &Operator) -> Operator {
    let count = operator.element_types.len();
    let shifted = |prefix: &str| -> Vec<String> {
        (1..=count)
            .map(|position| format!("{prefix}{position}"))
            .collect()
    };
    let mut arguments = shifted("a");
    arguments.extend(shifted("b"));
    arguments.extend(shifted("r"));
    let copy_right: String = shifted("r")
        .iter()
        .zip(shifted("b"))
        .map(|(target, value)| format!("{target} = {value}; "))
        .collect();
    let mut element_types = vec![PrimType::U32];
    element_types.extend(operator.element_types.iter().copied());
    let mut neutral = vec!["0u".to_owned()];
    neutral.extend(operator.neutral.iter().cloned());
    Operator {
        element_types,
        neutral,
        body: format!(
            "r0 = a0 | b0; if (b0 != 0u) {{ {copy_right}}} else {{ combine_within_rows({}); }}",
            arguments.join(", ")
        ),
        helper_functions: operator.glsl_function("combine_within_rows"),
        builtin: None,
        commutative: false,
    }
}

/// The single-pass scan kernel of `operator` over `source` at `shape`, over
/// the whole array or row by row.
pub fn lookback_scan_kernel(
    source: &ElementSource,
    operator: &Operator,
    shape: KernelShape,
    extent: ScanExtent,
) -> GeneratedKernel {
    // Row by row, the kernel scans (row start, value) pairs with the lifted
    // operator and stores only the values.
    let lifted;
    let (operator, value_offset) = match extent {
        ScanExtent::WholeArray => (operator, 0),
        ScanExtent::Rows => {
            lifted = row_operator(operator);
            (&lifted, 1)
        }
    };
    let features = source
        .features()
        .union(KernelFeatures::for_element_types(&operator.element_types));
    let count = operator.element_types.len();
    let types = &operator.element_types;
    let output_types = &types[value_offset..];
    let loader = match extent {
        ScanExtent::WholeArray => "load_element",
        ScanExtent::Rows => "load_row_element",
    };
    let source_types = source.element_types();
    let row_loader = match extent {
        ScanExtent::WholeArray => String::new(),
        ScanExtent::Rows => {
            let mut parameters = vec!["out uint v0".to_owned()];
            parameters.extend(
                source_types
                    .iter()
                    .enumerate()
                    .map(|(position, element_type)| {
                        format!("out {} v{}", element_type.glsl_value_type(), position + 1)
                    }),
            );
            let values: Vec<String> = (1..=source_types.len())
                .map(|position| format!("v{position}"))
                .collect();
            format!(
                "void load_row_element(uint index, {}) {{ v0 = (index % parameters.segment_length == 0u) ? 1u : 0u; load_element(index, {}); }}\n",
                parameters.join(", "),
                values.join(", ")
            )
        }
    };
    let input_count = source.input_types.len() as u32;
    let workgroup = shape.workgroup_size;
    let items = shape.items_per_invocation;
    let invocation_accumulator = component_list("invocation_accumulator", "", count);
    // The tile has one padding slot after every 32 (`padded(i) = i + i /
    // 32`), so the per-invocation passes over consecutive items (a stride of
    // `items_per_invocation` between invocations) spread over the banks.
    let tile_element = component_list("tile", "[padded(local_index)]", count);
    let my_partial = component_list("partial", "[invocation]", count);
    let local_exclusive = component_list("local_exclusive", "", count);
    let tile_total = component_list("tile_total", "", count);
    let exclusive = component_list("shared_exclusive", "", count);
    let found = component_list("shared_found", "", count);
    let prefix = component_list("prefix", "", count);
    let neighbour_partial = component_list("partial", "[invocation + stride]", count);
    let first_partial = component_list("partial", "[0]", count);
    let fallback_element = component_list("fallback_element", "", count);
    let output_bindings = input_count;
    let aggregate_bindings = output_bindings + output_types.len() as u32;
    let prefix_bindings = aggregate_bindings + count as u32;
    let status_binding = prefix_bindings + count as u32;
    let glsl = format!(
        "{header}{inputs}{outputs}{aggregates}{prefixes}\
         layout(std430, set = 0, binding = {status_binding}) coherent buffer Buffer_status {{ uint status[]; }};\n\
         layout(push_constant) uniform Parameters {{ uint element_count; uint tile_count; uint spin_limit; uint tiles_per_workgroup; uint segment_length; }} parameters;\n\
         {row_loader}\
         {shared}\
         shared uint shared_tile;\n\
         shared uint shared_status;\n\
         {shared_exclusive}{shared_found}\
         {combine}\
         uint padded(uint index) {{ return index + (index >> 5u); }}\n\
         void main() {{\n\
             uint invocation = gl_LocalInvocationID.x;\n\
             for (uint round = 0u; round < parameters.tiles_per_workgroup; round++) {{\n\
                 if (invocation == 0u) {{ shared_tile = atomicAdd(status[0], 1u); }}\n\
                 barrier();\n\
                 uint tile_index = shared_tile;\n\
                 if (tile_index >= parameters.tile_count) {{ break; }}\n\
                 uint tile_start = tile_index * {tile}u;\n\
                 uint segment_end = min(tile_start + {tile}u, parameters.element_count);\n\
                 {load_tile}\
                 barrier();\n\
                 {scan_tile}\
                 {declare_local_exclusive}{neutral_local_exclusive}\n\
                 if (invocation > 0u) {{ {read_local_exclusive} }}\n\
                 {declare_tile_total}{read_tile_total}\n\
                 if (invocation == 0u) {{\n\
                     {neutral_exclusive}\n\
                     if (tile_index == 0u) {{\n\
                         {store_prefix_of_tile}\n\
                         memoryBarrierBuffer();\n\
                         atomicExchange(status[1u], {STATUS_PREFIX}u);\n\
                     }} else {{\n\
                         {store_aggregate}\n\
                         memoryBarrierBuffer();\n\
                         atomicExchange(status[1u + tile_index], {STATUS_AGGREGATE}u);\n\
                     }}\n\
                 }}\n\
                 barrier();\n\
                 // Look back (every invocation takes the same path: the\n\
                 // status is read from shared memory after a barrier).\n\
                 uint predecessor = tile_index;\n\
                 while (predecessor > 0u) {{\n\
                     predecessor -= 1u;\n\
                     // Poll (the whole workgroup, one barrier per poll).\n\
                     uint seen_status = 0u;\n\
                     for (uint poll = 0u; ; poll++) {{\n\
                         if (invocation == 0u) {{\n\
                             uint seen = atomicOr(status[1u + predecessor], 0u);\n\
                             memoryBarrierBuffer();\n\
                             if (seen == {STATUS_PREFIX}u) {{ {read_prefix} }}\n\
                             else if (seen == {STATUS_AGGREGATE}u) {{ {read_aggregate} }}\n\
                             shared_status = seen;\n\
                         }}\n\
                         barrier();\n\
                         seen_status = shared_status;\n\
                         barrier();\n\
                         if (seen_status != 0u || poll >= parameters.spin_limit) {{ break; }}\n\
                     }}\n\
                     if (seen_status == 0u) {{\n\
                         // The fallback: reduce the predecessor's tile here.\n\
                         uint fallback_start = predecessor * {tile}u;\n\
                         {declare_invocation}{neutral_invocation}\n\
                         for (uint item = 0u; item < {items}u; item++) {{\n\
                             {declare_fallback_element}{loader}(fallback_start + invocation * {items}u + item, {fallback_list});\n\
                             {fold_fallback}\n\
                         }}\n\
                         {store_partial}\n\
                         barrier();\n\
                         for (uint stride = 1u; stride < {workgroup}u; stride *= 2u) {{\n\
                             if ((invocation & (2u * stride - 1u)) == 0u) {tree_step}\n\
                             barrier();\n\
                         }}\n\
                         if (invocation == 0u) {{ {found_from_tree} }}\n\
                     }}\n\
                     if (invocation == 0u) {{ {fold_found} }}\n\
                     barrier();\n\
                     if (seen_status == {STATUS_PREFIX}u) {{ break; }}\n\
                 }}\n\
                 {declare_prefix}{read_exclusive}\n\
                 if (invocation == 0u && tile_index > 0u) {{\n\
                     {declare_inclusive}{inclusive}\n\
                     {store_inclusive}\n\
                     memoryBarrierBuffer();\n\
                     atomicExchange(status[1u + tile_index], {STATUS_PREFIX}u);\n\
                 }}\n\
                 if (invocation > 0u) {prefix_step}\n\
                 for (uint item = 0u; item < {items}u; item++) {{\n\
                     uint local_index = invocation * {items}u + item;\n\
                     if (tile_start + local_index < segment_end) {apply_prefix}\n\
                 }}\n\
                 barrier();\n\
                 for (uint item = 0u; item < {items}u; item++) {{\n\
                     uint local_index = item * {workgroup}u + invocation;\n\
                     uint global_index = tile_start + local_index;\n\
                     if (global_index < segment_end) {{ {store_output} }}\n\
                 }}\n\
                 barrier();\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup, "single-pass scan, decoupled look-back with fallback"),
        inputs = source.glsl_declarations(0),
        outputs = tuple_buffer_declarations(output_bindings, "writeonly", "output", output_types),
        aggregates = tuple_buffer_declarations(aggregate_bindings, "coherent", "aggregate", types),
        prefixes = tuple_buffer_declarations(prefix_bindings, "coherent", "prefix_of_tile", types),
        shared = shared_declarations_with_tile_slots(
            operator,
            shape,
            shape.tile_size() + shape.tile_size() / 32
        ),
        shared_exclusive = shared_tuple("shared_exclusive", operator),
        shared_found = shared_tuple("shared_found", operator),
        combine = operator.glsl_function("combine"),
        tile = shape.tile_size(),
        load_tile = load_tile_statements_into(operator, shape, "padded(local_index)", loader),
        declare_invocation = declare_tuple("invocation_accumulator", types),
        neutral_invocation = assign_neutral(&invocation_accumulator, operator),
        scan_tile = tile_scan_statements(operator, shape, &tile_element),
        store_partial = assignments(&my_partial, &invocation_accumulator),
        declare_local_exclusive = declare_tuple("local_exclusive", types),
        neutral_local_exclusive = assign_neutral(&local_exclusive, operator),
        read_local_exclusive = assignments(
            &local_exclusive,
            &component_list("partial", "[source_half + invocation - 1u]", count)
        ),
        declare_tile_total = declare_tuple("tile_total", types),
        read_tile_total = assignments(
            &tile_total,
            &component_list("partial", &format!("[source_half + {}u]", workgroup - 1), count)
        ),
        neutral_exclusive = assign_neutral(&exclusive, operator),
        store_prefix_of_tile = store_components("prefix_of_tile", "0u", &tile_total, operator),
        store_aggregate = store_components("aggregate", "tile_index", &tile_total, operator),
        read_prefix = assignments(&found, &load_components("prefix_of_tile", "predecessor", operator)),
        read_aggregate = assignments(&found, &load_components("aggregate", "predecessor", operator)),
        declare_fallback_element = declare_tuple("fallback_element", types),
        fallback_list = fallback_element.join(", "),
        fold_fallback = combine_into(operator, &invocation_accumulator, &fallback_element, &invocation_accumulator),
        tree_step = combine_into(operator, &my_partial, &neighbour_partial, &my_partial),
        found_from_tree = assignments(&found, &first_partial),
        fold_found = combine_into(operator, &found, &exclusive, &exclusive),
        declare_prefix = declare_tuple("prefix", types),
        read_exclusive = assignments(&prefix, &exclusive),
        declare_inclusive = declare_tuple("inclusive", types),
        inclusive = combine_into(
            operator,
            &exclusive,
            &tile_total,
            &component_list("inclusive", "", count)
        ),
        store_inclusive = store_components(
            "prefix_of_tile",
            "tile_index",
            &component_list("inclusive", "", count),
            operator
        ),
        prefix_step = combine_into(operator, &prefix, &local_exclusive, &prefix),
        apply_prefix = combine_into(operator, &prefix, &tile_element, &tile_element),
        store_output = super::store_tuple(
            "output",
            "global_index",
            &tile_element[value_offset..],
            output_types
        ),
    );
    GeneratedKernel {
        source: KernelSource {
            name: match extent {
                ScanExtent::WholeArray => format!("scan_lookback_{}", source.name_fragment()),
                ScanExtent::Rows => format!("scan_lookback_rows_{}", source.name_fragment()),
            },
            glsl,
        },
        features,
    }
}

/// `shared T{i} {name}{i};` for each component.
fn shared_tuple(name: &str, operator: &Operator) -> String {
    operator
        .element_types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            format!(
                "shared {} {name}{position};\n",
                element_type.glsl_value_type()
            )
        })
        .collect()
}

/// Statements storing `values` into `{prefix}{i}[index]`.
fn store_components(prefix: &str, index: &str, values: &[String], operator: &Operator) -> String {
    super::store_tuple(prefix, index, values, &operator.element_types)
}

/// Expressions loading `{prefix}{i}[index]`.
fn load_components(prefix: &str, index: &str, operator: &Operator) -> Vec<String> {
    super::load_tuple(prefix, index, &operator.element_types)
}

/// Items per invocation the single-pass scan tries, most first: more items
/// make larger tiles, so fewer look-backs per element.
const ITEMS_PER_INVOCATION_CHOICES: [u32; 4] = [8, 4, 2, 1];

/// The single-pass scan's shape for `operator`: the preferred workgroup
/// size (halved while needed) and the most items per invocation whose padded
/// tile and partials fit in three quarters of shared memory (at most 24 KiB).
pub fn lookback_shape(runtime: &Runtime, operator: &Operator) -> GpuResult<KernelShape> {
    let tuple_bytes = shared_tuple_bytes(&operator.element_types);
    shape_fitting_shared_memory_with(
        runtime,
        &ITEMS_PER_INVOCATION_CHOICES,
        |tile, workgroup_size| {
            // The padded tile, the partials, three tuples and two words.
            (tile + tile / 32) * tuple_bytes
                + 2 * workgroup_size * tuple_bytes
                + 3 * tuple_bytes
                + 8
        },
    )
    .ok_or_else(|| GpuError::Unsupported {
        what: format!(
            "single-pass scan: the tuple ({tuple_bytes} bytes per element) is too wide for {} \
             bytes of shared memory",
            shared_memory_budget(runtime)
        ),
    })
}

/// Inclusive `scan operator neutral (map lambda inputs)` in one pass over
/// `inputs` (which the caller checked: element types, lengths, at least one
/// element, a count below 2^32), over the whole array (`row_length` `None`)
/// or restarting at every row of `row_length` elements (a regular array
/// given flat: the scan of (row start, value) pairs under
/// [`row_operator`]): one workgroup per tile where the device's workgroup
/// limit allows, else each takes `⌈tiles / workgroups⌉` tiles in turn.
pub(crate) fn lookback_scan(
    runtime: &Runtime,
    source: &ElementSource,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    waiting: LookBackWaiting,
    row_length: Option<u64>,
) -> GpuResult<DeviceArrays> {
    let maximum_workgroups = u64::from(runtime.device_info().max_workgroup_count[0].max(1));
    lookback_scan_on_workgroups(
        runtime,
        source,
        operator,
        environment,
        inputs,
        waiting,
        maximum_workgroups,
        row_length,
    )
}

/// `lookback_scan` on at most `workgroup_limit` workgroups (tests use a small limit so that
/// workgroups take several tiles each).
#[allow(clippy::too_many_arguments)]
pub fn lookback_scan_on_workgroups(
    runtime: &Runtime,
    source: &ElementSource,
    operator: &Operator,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    waiting: LookBackWaiting,
    workgroup_limit: u64,
    row_length: Option<u64>,
) -> GpuResult<DeviceArrays> {
    const OPERATION: &str = "scan";
    let (extent, working_operator) = match row_length {
        None => (ScanExtent::WholeArray, operator.clone()),
        Some(_) => (ScanExtent::Rows, row_operator(operator)),
    };
    let working_types = &working_operator.element_types;
    let element_count = inputs.length;
    let shape = lookback_shape(runtime, &working_operator)?;
    let tile_count = element_count.div_ceil(u64::from(shape.tile_size())).max(1);
    let outputs = DeviceArrays::allocate(runtime, &operator.element_types, element_count)?;
    let aggregates = DeviceArrays::allocate(runtime, working_types, tile_count)?;
    let prefixes = DeviceArrays::allocate(runtime, working_types, tile_count)?;
    let status_words = 1 + tile_count;
    let status = runtime.allocate_buffer(status_words * 4)?;
    let zero_kernel = GeneratedKernel {
        source: KernelSource {
            name: "zero_lookback_status".to_owned(),
            glsl: ZERO_STATUS_KERNEL.to_owned(),
        },
        features: KernelFeatures::default(),
    }
    .load(runtime)?;
    let scan_kernel = lookback_scan_kernel(source, operator, shape, extent).load(runtime)?;
    let maximum_workgroups =
        u64::from(runtime.device_info().max_workgroup_count[0].max(1)).min(workgroup_limit.max(1));
    let workgroups = tile_count.min(maximum_workgroups);
    let mut scan_buffers = inputs.buffers();
    scan_buffers.extend(outputs.buffers());
    scan_buffers.extend(aggregates.buffers());
    scan_buffers.extend(prefixes.buffers());
    scan_buffers.push(&status);
    let launches = [
        KernelLaunch {
            kernel: &zero_kernel,
            buffers: vec![&status],
            environment: None,
            push_constant_words: vec![status_words as u32],
            workgroup_counts: [
                status_words.div_ceil(256).min(maximum_workgroups) as u32,
                1,
                1,
            ],
        },
        KernelLaunch {
            kernel: &scan_kernel,
            buffers: scan_buffers,
            environment,
            push_constant_words: vec![
                element_count as u32,
                tile_count as u32,
                spin_limit_for(runtime.device_info(), waiting),
                tile_count.div_ceil(workgroups) as u32,
                row_length.unwrap_or(0) as u32,
            ],
            workgroup_counts: [workgroups as u32, 1, 1],
        },
    ];
    runtime.run_kernels(OPERATION, &launches)?;
    Ok(outputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::device_choice::ShaderFeatureSupport;

    fn device(kind: DeviceKind) -> DeviceInfo {
        DeviceInfo {
            index: 0,
            name: "probe".to_owned(),
            kind,
            driver_name: None,
            driver_info: None,
            api_version: vulkano::Version::V1_3,
            subgroup_size: Some(32),
            max_workgroup_count: [65_535; 3],
            max_workgroup_size: [1024; 3],
            max_workgroup_invocations: 1024,
            max_storage_buffer_range: u32::MAX,
            max_shared_memory_bytes: 48 << 10,
            max_push_constants_bytes: 128,
            max_memory_allocation_bytes: None,
            device_local_memory_bytes: 1 << 30,
            has_host_visible_device_memory: false,
            features: ShaderFeatureSupport::default(),
            memory_types: Vec::new(),
            multiprocessors: None,
            unusable_because: None,
        }
    }

    /// GPUs wait for a predecessor; CPU devices (no forward-progress
    /// promise between workgroups) never do; tests can force either.
    #[test]
    fn the_spin_limit_follows_the_device_kind_unless_forced() {
        let gpu = device(DeviceKind::DiscreteGpu);
        let cpu = device(DeviceKind::Cpu);
        assert_eq!(
            spin_limit_for(&gpu, LookBackWaiting::ForDevice),
            GPU_SPIN_LIMIT
        );
        assert_eq!(spin_limit_for(&cpu, LookBackWaiting::ForDevice), 0);
        assert_eq!(spin_limit_for(&gpu, LookBackWaiting::NeverWait), 0);
        assert_eq!(spin_limit_for(&cpu, LookBackWaiting::Polls(9)), 9);
    }
}
