//! `map f xs₀ … xsₖ` with `f` a GLSL lambda ([`MapLambda`]): a grid-stride
//! loop (at most `maxComputeWorkGroupCount[0]` workgroups, 65 535 on
//! lavapipe; each invocation strides over the rest).
//!
//! Bindings: inputs `input0…` (0..k), outputs `output0…` (k..k+m). Push
//! constants: the element count.

use super::{
    check_arrays, element_count_word, glsl_header, grid_stride_workgroups,
    preferred_workgroup_size, store_tuple, tuple_buffer_declarations, types_name_fragment,
    DeviceArrays, ElementSource, GeneratedKernel,
};
use crate::error::GpuResult;
use crate::kernels::lambda::MapLambda;
use crate::kernels::KernelSource;
use crate::runtime::Runtime;

/// The map kernel of `lambda` at `workgroup_size`.
pub fn map_kernel(lambda: &MapLambda, workgroup_size: u32) -> GeneratedKernel {
    let source = ElementSource::mapped(lambda);
    let features = source.features();
    let result_count = lambda.result_types.len();
    let results = super::component_list("v", "", result_count);
    let glsl = format!(
        "{header}{inputs}{outputs}\
         layout(push_constant) uniform Parameters {{ uint element_count; }} parameters;\n\
         void main() {{\n\
             uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n\
             for (uint index = gl_GlobalInvocationID.x; index < parameters.element_count; index += stride) {{\n\
                 {declarations}\n\
                 load_element(index, {results});\n\
                 {stores}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup_size, "map, grid-stride"),
        inputs = source.glsl_declarations(0),
        outputs = tuple_buffer_declarations(
            lambda.parameter_types.len() as u32,
            "writeonly",
            "output",
            &lambda.result_types
        ),
        declarations = super::declare_tuple("v", &lambda.result_types),
        results = results.join(", "),
        stores = store_tuple("output", "index", &results, &lambda.result_types),
    );
    GeneratedKernel {
        source: KernelSource {
            name: format!(
                "map_{}_to_{}",
                types_name_fragment(&lambda.parameter_types),
                types_name_fragment(&lambda.result_types)
            ),
            glsl,
        },
        features,
    }
}

/// `map lambda inputs`: new arrays of the lambda's result types.
pub fn map(
    runtime: &Runtime,
    lambda: &MapLambda,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    const OPERATION: &str = "map";
    check_arrays(OPERATION, &lambda.parameter_types, inputs)?;
    let count = element_count_word(inputs.length, OPERATION)?;
    let workgroup_size = preferred_workgroup_size(runtime);
    let kernel = map_kernel(lambda, workgroup_size).load(runtime)?;
    let outputs = DeviceArrays::allocate(runtime, &lambda.result_types, inputs.length)?;
    let mut buffers = inputs.buffers();
    buffers.extend(outputs.buffers());
    runtime.dispatch(
        &kernel,
        &buffers,
        &[count],
        [
            grid_stride_workgroups(runtime, inputs.length, workgroup_size),
            1,
            1,
        ],
    )?;
    Ok(outputs)
}
