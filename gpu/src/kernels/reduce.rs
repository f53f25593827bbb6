//! `reduce (+) 0` in two passes: each workgroup sums a grid-stride slice of
//! the input into one partial sum, then one workgroup sums the partials.
//!
//! Within a workgroup, `subgroupAdd` combines each subgroup, the subgroup
//! leaders store their sums in shared memory, and the first subgroup adds
//! those up, striding by `gl_SubgroupSize`. Nothing assumes the subgroup size
//! (8 on lavapipe, 32 on NVIDIA, 64 on AMD GCN), only that it is at least 1.

use super::{compiled_spirv, grid_stride_workgroup_count, DemoElementType, KernelSource};
use crate::error::{GpuError, GpuResult};
use crate::runtime::{DeviceBuffer, Runtime};

/// Invocations per workgroup of the reduce kernel.
pub const REDUCE_WORKGROUP_SIZE: u32 = 256;

/// The most workgroups of the first pass (the grid-stride loop covers more).
pub const REDUCE_MAXIMUM_FIRST_PASS_WORKGROUPS: u32 = 1024;

/// The GLSL of the workgroup sum at `element_type`.
pub fn reduce_sum_source(element_type: DemoElementType) -> KernelSource {
    let element = element_type.glsl_name();
    let glsl = format!(
        r#"#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// One partial sum per workgroup over a grid-stride slice of the input.
layout(local_size_x = {REDUCE_WORKGROUP_SIZE}) in;

layout(std430, set = 0, binding = 0) readonly buffer InputValues {{
    {element} input_values[];
}};
layout(std430, set = 0, binding = 1) writeonly buffer PartialSums {{
    {element} partial_sums[];
}};
layout(push_constant) uniform Parameters {{
    uint element_count;
}} parameters;

// One slot per subgroup; a workgroup has at most as many subgroups as invocations.
shared {element} subgroup_sums[{REDUCE_WORKGROUP_SIZE}];

void main() {{
    {element} invocation_sum = {element}(0);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint index = gl_GlobalInvocationID.x; index < parameters.element_count; index += stride) {{
        invocation_sum += input_values[index];
    }}
    {element} subgroup_sum = subgroupAdd(invocation_sum);
    if (subgroupElect()) {{
        subgroup_sums[gl_SubgroupID] = subgroup_sum;
    }}
    memoryBarrierShared();
    barrier();
    if (gl_SubgroupID == 0) {{
        {element} workgroup_sum = {element}(0);
        for (uint slot = gl_SubgroupInvocationID; slot < gl_NumSubgroups; slot += gl_SubgroupSize) {{
            workgroup_sum += subgroup_sums[slot];
        }}
        workgroup_sum = subgroupAdd(workgroup_sum);
        if (subgroupElect()) {{
            partial_sums[gl_WorkGroupID.x] = workgroup_sum;
        }}
    }}
}}
"#
    );
    KernelSource {
        name: format!("reduce_sum_{}", element_type.short_name()),
        glsl,
    }
}

/// Sum the first `element_count` elements of `input` (wrapping for `u32`);
/// returns a one-element buffer.
pub fn reduce_sum(
    runtime: &Runtime,
    input: &DeviceBuffer,
    element_type: DemoElementType,
    element_count: u64,
) -> GpuResult<DeviceBuffer> {
    if !runtime.enabled_features().subgroup_arithmetic {
        return Err(GpuError::Unsupported {
            what: "subgroup arithmetic in compute shaders (needed by reduce)".to_owned(),
        });
    }
    if input.byte_length() < element_count * 4 {
        return Err(GpuError::LengthMismatch {
            operation: "reduce_sum",
            expected_bytes: element_count * 4,
            actual_bytes: input.byte_length(),
        });
    }
    let element_count_word =
        u32::try_from(element_count).map_err(|_| GpuError::BufferTooLarge {
            requested_bytes: element_count * 4,
            limit_bytes: u64::from(u32::MAX) * 4,
            limit_name: "32-bit element index",
        })?;
    let source = reduce_sum_source(element_type);
    let kernel = runtime.load_kernel(
        &source.name,
        &compiled_spirv(&source)?,
        source.binding_interface(),
    )?;
    let first_pass_workgroups = grid_stride_workgroup_count(
        element_count,
        REDUCE_WORKGROUP_SIZE,
        REDUCE_MAXIMUM_FIRST_PASS_WORKGROUPS.min(runtime.device_info().max_workgroup_count[0]),
    );
    let partial_sums = runtime.allocate_buffer(u64::from(first_pass_workgroups) * 4)?;
    runtime.dispatch(
        &kernel,
        &[input, &partial_sums],
        None,
        &[element_count_word],
        [first_pass_workgroups, 1, 1],
    )?;
    let total = runtime.allocate_buffer(4)?;
    runtime.dispatch(
        &kernel,
        &[&partial_sums, &total],
        None,
        &[first_pass_workgroups],
        [1, 1, 1],
    )?;
    Ok(total)
}
