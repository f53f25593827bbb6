//! `scatter dest is vs`: `dest[is[i]] = vs[i]` for every `i` whose index is
//! within `dest` (others are ignored, as in Futhark); `dest` is updated in
//! place. Where several indices are equal, which value lands is unspecified
//! (Futhark leaves it unspecified too).
//!
//! Bindings: destination `destination0…` (read-write), `indices` (`i32` or
//! `i64`), values `value0…`. Push constants: the value count and the
//! destination length.

use super::{
    check_arrays, element_count_word, glsl_header, grid_stride_workgroups,
    preferred_workgroup_size, tuple_buffer_declarations, types_name_fragment, DeviceArrays,
    GeneratedKernel,
};
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::GlslElement;
use crate::kernels::element::{KernelFeatures, PrimType};
use crate::kernels::KernelSource;
use crate::runtime::Runtime;

/// The GLSL test that `index` (of `index_type`) lies in `0..length` (a
/// `uint` expression), or `None` for index types other than `i32`/`i64`.
pub(crate) fn glsl_index_in_bounds(
    index_type: PrimType,
    index: &str,
    length: &str,
) -> Option<String> {
    match index_type {
        PrimType::I32 => Some(format!("({index} >= 0 && uint({index}) < {length})")),
        PrimType::I64 => Some(format!(
            "({index} >= 0l && uint64_t({index}) < uint64_t({length}))"
        )),
        _ => None,
    }
}

/// An error unless `index_type` is `i32` or `i64`.
pub(crate) fn check_index_type(operation: &str, indices: &DeviceArrays) -> GpuResult<PrimType> {
    match indices.element_types.as_slice() {
        [index_type @ (PrimType::I32 | PrimType::I64)] => Ok(*index_type),
        other => Err(GpuError::Validation {
            operation: operation.to_owned(),
            detail: format!(
                "indices must be one array of i32 or i64, not ({})",
                types_name_fragment(other)
            ),
        }),
    }
}

/// The scatter kernel for `element_types` with `index_type` indices.
pub fn scatter_kernel(
    element_types: &[PrimType],
    index_type: PrimType,
    workgroup_size: u32,
) -> Option<GeneratedKernel> {
    let in_bounds = glsl_index_in_bounds(index_type, "target", "parameters.destination_length")?;
    let features = KernelFeatures::for_element_types(element_types)
        .union(KernelFeatures::for_element_type(index_type));
    let count = element_types.len() as u32;
    let copies: String = (0..count)
        .map(|position| format!("destination{position}[uint(target)] = value{position}[index]; "))
        .collect();
    let glsl = format!(
        "{header}{destination}\
         layout(std430, set = 0, binding = {count}) readonly buffer Buffer_indices {{ {index_type} indices[]; }};\n\
         {values}\
         layout(push_constant) uniform Parameters {{ uint value_count; uint destination_length; }} parameters;\n\
         void main() {{\n\
             uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n\
             for (uint index = gl_GlobalInvocationID.x; index < parameters.value_count; index += stride) {{\n\
                 {index_type} target = indices[index];\n\
                 if {in_bounds} {{ {copies}}}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup_size, "scatter"),
        destination = tuple_buffer_declarations(0, "", "destination", element_types),
        index_type = index_type.glsl_storage_type(),
        values = tuple_buffer_declarations(count + 1, "readonly", "value", element_types),
    );
    Some(GeneratedKernel {
        source: KernelSource {
            name: format!(
                "scatter_{}_by_{}",
                types_name_fragment(element_types),
                index_type.name()
            ),
            glsl,
        },
        features,
    })
}

/// `scatter destination indices values`, in place.
pub fn scatter(
    runtime: &Runtime,
    destination: &DeviceArrays,
    indices: &DeviceArrays,
    values: &DeviceArrays,
) -> GpuResult<()> {
    const OPERATION: &str = "scatter";
    check_arrays(OPERATION, &destination.element_types, destination)?;
    check_arrays(OPERATION, &destination.element_types, values)?;
    let index_type = check_index_type(OPERATION, indices)?;
    if indices.length != values.length {
        return Err(GpuError::Validation {
            operation: OPERATION.to_owned(),
            detail: format!("{} indices for {} values", indices.length, values.length),
        });
    }
    let value_count = element_count_word(values.length, OPERATION)?;
    let destination_length = element_count_word(destination.length, OPERATION)?;
    if value_count == 0 || destination_length == 0 {
        return Ok(());
    }
    let workgroup_size = preferred_workgroup_size(runtime);
    let kernel = scatter_kernel(&destination.element_types, index_type, workgroup_size)
        .ok_or_else(|| GpuError::Validation {
            operation: OPERATION.to_owned(),
            detail: "indices must be i32 or i64".to_owned(),
        })?
        .load(runtime)?;
    let mut buffers = destination.buffers();
    buffers.extend(indices.buffers());
    buffers.extend(values.buffers());
    runtime.dispatch(
        &kernel,
        &buffers,
        None,
        &[value_count, destination_length],
        [
            grid_stride_workgroups(runtime, values.length, workgroup_size),
            1,
            1,
        ],
    )
}
