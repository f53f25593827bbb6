//! `map (\x -> x*2+1)` over a buffer of any length, with a grid-stride loop:
//! at most `maxComputeWorkGroupCount[0]` workgroups (65 535 on lavapipe) are
//! launched and each invocation strides over the rest.

use super::{compiled_spirv, grid_stride_workgroup_count, DemoElementType, KernelSource};
use crate::error::{GpuError, GpuResult};
use crate::runtime::{DeviceBuffer, Runtime};

/// Invocations per workgroup of the map kernel.
pub const MAP_WORKGROUP_SIZE: u32 = 64;

/// The GLSL of the map kernel at `element_type`.
pub fn map_times_two_plus_one_source(element_type: DemoElementType) -> KernelSource {
    let element = element_type.glsl_name();
    let glsl = format!(
        r#"#version 450
// map (\x -> x*2+1), grid-stride.
layout(local_size_x = {MAP_WORKGROUP_SIZE}) in;

layout(std430, set = 0, binding = 0) readonly buffer InputValues {{
    {element} input_values[];
}};
layout(std430, set = 0, binding = 1) writeonly buffer OutputValues {{
    {element} output_values[];
}};
layout(push_constant) uniform Parameters {{
    uint element_count;
}} parameters;

void main() {{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint index = gl_GlobalInvocationID.x; index < parameters.element_count; index += stride) {{
        output_values[index] = input_values[index] * {element}(2) + {element}(1);
    }}
}}
"#
    );
    KernelSource {
        name: format!("map_times_two_plus_one_{}", element_type.short_name()),
        glsl,
    }
}

/// Run the map kernel over the first `element_count` elements of `input`;
/// returns a new buffer of `element_count` results.
pub fn map_times_two_plus_one(
    runtime: &Runtime,
    input: &DeviceBuffer,
    element_type: DemoElementType,
    element_count: u64,
) -> GpuResult<DeviceBuffer> {
    let byte_length = element_count * 4;
    if input.byte_length() < byte_length {
        return Err(GpuError::LengthMismatch {
            operation: "map_times_two_plus_one",
            expected_bytes: byte_length,
            actual_bytes: input.byte_length(),
        });
    }
    let element_count_word =
        u32::try_from(element_count).map_err(|_| GpuError::BufferTooLarge {
            requested_bytes: byte_length,
            limit_bytes: u64::from(u32::MAX) * 4,
            limit_name: "32-bit element index",
        })?;
    let source = map_times_two_plus_one_source(element_type);
    let kernel = runtime.load_kernel(
        &source.name,
        &compiled_spirv(&source)?,
        source.binding_interface(),
    )?;
    let output = runtime.allocate_buffer(byte_length)?;
    let workgroups = grid_stride_workgroup_count(
        element_count,
        MAP_WORKGROUP_SIZE,
        runtime.device_info().max_workgroup_count[0],
    );
    runtime.dispatch(
        &kernel,
        &[input, &output],
        None,
        &[element_count_word],
        [workgroups, 1, 1],
    )?;
    Ok(output)
}
