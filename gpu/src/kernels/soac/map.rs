//! `map f xs₀ … xsₖ` with `f` a GLSL lambda ([`MapLambda`]).
//!
//! Two kernels, both grid-stride loops (at most `maxComputeWorkGroupCount[0]`
//! workgroups, 65 535 on lavapipe; each workgroup strides over the rest):
//!
//! * **vector access** (what [`map`] runs): every column is read and written
//!   four elements at a time (`vec4`, `u8vec4`, …, views of the same
//!   bindings), each invocation loads [`VECTORS_PER_INVOCATION`] vectors per
//!   column before it computes and stores, and a workgroup's vectors are
//!   consecutive, so each load instruction of a subgroup moves whole cache
//!   lines; the last `n mod 4` elements are mapped one by one by the first
//!   workgroup. Issue 22: one four-byte load per invocation keeps too few
//!   bytes in flight for an HBM3 memory (`gpu/NOTES.md`, "Bandwidth").
//! * **scalar access** (`MapAccess::Scalars`): one element per invocation
//!   and iteration, the kernel before issue 22, kept as the benchmark's
//!   baseline and tested like the other.
//!
//! Bindings: inputs `input0…` (0..k), outputs `output0…` (k..k+m). Push
//! constants: the element count.

use super::{
    check_arrays, element_count_word, glsl_header, grid_stride_workgroups,
    preferred_workgroup_size, store_tuple, tuple_buffer_declarations,
    tuple_vector_buffer_declarations, types_name_fragment, DeviceArrays, ElementSource,
    GeneratedKernel, VECTORS_PER_INVOCATION, VECTOR_WIDTH,
};
use crate::error::GpuResult;
use crate::kernels::element::GlslElement;
use crate::kernels::lambda::MapLambda;
use crate::kernels::KernelSource;
use crate::runtime::{EnvironmentBuffers, Runtime};

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

/// The vector-access map kernel of `lambda` at `workgroup_size` (module
/// header).
pub fn vector_map_kernel(lambda: &MapLambda, workgroup_size: u32) -> GeneratedKernel {
    let source = ElementSource::mapped(lambda);
    let features = source.features();
    let parameter_count = lambda.parameter_types.len();
    let result_count = lambda.result_types.len();
    let results = super::component_list("v", "", result_count);
    let raw: Vec<String> = (0..parameter_count)
        .map(|position| format!("raw{position}[item]"))
        .collect();
    let declare_raw: String = lambda
        .parameter_types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            format!(
                "{} raw{position}[{VECTORS_PER_INVOCATION}]; ",
                element_type.glsl_vector_storage_type()
            )
        })
        .collect();
    let declare_stored: String = lambda
        .result_types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            format!(
                "{} stored{position}; ",
                element_type.glsl_vector_storage_type()
            )
        })
        .collect();
    let store_lanes: String = lambda
        .result_types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            format!(
                "stored{position}[lane] = {}; ",
                element_type.glsl_store(&format!("v{position}"))
            )
        })
        .collect();
    let store_vectors: String = (0..result_count)
        .map(|position| format!("output{position}_vectors[vector_index] = stored{position}; "))
        .collect();
    let mut element_arguments = raw.clone();
    element_arguments.push("lane".to_owned());
    element_arguments.extend(results.iter().cloned());
    let glsl = format!(
        "{header}{inputs}{input_vectors}{outputs}{output_vectors}\
         layout(push_constant) uniform Parameters {{ uint element_count; }} parameters;\n\
         void main() {{\n\
             uint invocation = gl_LocalInvocationID.x;\n\
             uint vector_count = parameters.element_count / {VECTOR_WIDTH}u;\n\
             uint chunk = gl_WorkGroupSize.x * {VECTORS_PER_INVOCATION}u;\n\
             for (uint chunk_start = gl_WorkGroupID.x * chunk; chunk_start < vector_count; chunk_start += gl_NumWorkGroups.x * chunk) {{\n\
                 {declare_raw}\n\
                 for (uint item = 0u; item < {VECTORS_PER_INVOCATION}u; item++) {{\n\
                     uint vector_index = chunk_start + item * gl_WorkGroupSize.x + invocation;\n\
                     if (vector_index < vector_count) {{ load_vector(vector_index, {raw_list}); }}\n\
                 }}\n\
                 for (uint item = 0u; item < {VECTORS_PER_INVOCATION}u; item++) {{\n\
                     uint vector_index = chunk_start + item * gl_WorkGroupSize.x + invocation;\n\
                     if (vector_index < vector_count) {{\n\
                         {declare_stored}\n\
                         for (uint lane = 0u; lane < {VECTOR_WIDTH}u; lane++) {{\n\
                             {declarations}\n\
                             element_of_vector({element_arguments});\n\
                             {store_lanes}\n\
                         }}\n\
                         {store_vectors}\n\
                     }}\n\
                 }}\n\
             }}\n\
             uint index = vector_count * {VECTOR_WIDTH}u + invocation;\n\
             if (gl_WorkGroupID.x == 0u && index < parameters.element_count) {{\n\
                 {declarations}\n\
                 load_element(index, {results_list});\n\
                 {stores}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup_size, "map, vector access, grid-stride"),
        inputs = source.glsl_declarations(0),
        input_vectors = source.glsl_vector_declarations(0),
        outputs = tuple_buffer_declarations(
            parameter_count as u32,
            "writeonly",
            "output",
            &lambda.result_types
        ),
        output_vectors = tuple_vector_buffer_declarations(
            parameter_count as u32,
            "writeonly",
            "output",
            &lambda.result_types
        ),
        raw_list = raw.join(", "),
        declarations = super::declare_tuple("v", &lambda.result_types),
        element_arguments = element_arguments.join(", "),
        results_list = results.join(", "),
        stores = store_tuple("output", "index", &results, &lambda.result_types),
    );
    GeneratedKernel {
        source: KernelSource {
            name: format!(
                "map_vectors_{}_to_{}",
                types_name_fragment(&lambda.parameter_types),
                types_name_fragment(&lambda.result_types)
            ),
            glsl,
        },
        features,
    }
}

/// How a map kernel reads and writes its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapAccess {
    /// Four elements per load and store, several loads in flight per
    /// invocation (the default).
    Vectors,
    /// One element per load and store.
    Scalars,
}

/// `map lambda inputs`: new arrays of the lambda's result types (vector
/// access; scalar access for a lambda that reads no column).
pub fn map(
    runtime: &Runtime,
    lambda: &MapLambda,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    // A map that reads no column (its lambda ignores its arrays) has no
    // loads to vectorise, and the vector kernel loads at least one column.
    let access = match lambda.parameter_types.len() {
        0 => MapAccess::Scalars,
        _ => MapAccess::Vectors,
    };
    map_with(runtime, lambda, environment, inputs, access)
}

/// `map lambda inputs` with the given access, `environment` bound.
pub fn map_with(
    runtime: &Runtime,
    lambda: &MapLambda,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    access: MapAccess,
) -> GpuResult<DeviceArrays> {
    const OPERATION: &str = "map";
    check_arrays(OPERATION, &lambda.parameter_types, inputs)?;
    let count = element_count_word(inputs.length, OPERATION)?;
    let workgroup_size = preferred_workgroup_size(runtime);
    let (kernel, workgroups) = match access {
        MapAccess::Vectors => {
            let elements_per_workgroup =
                u64::from(workgroup_size * VECTORS_PER_INVOCATION * VECTOR_WIDTH);
            let needed = inputs.length.div_ceil(elements_per_workgroup).max(1);
            let workgroups = needed.min(u64::from(
                runtime.device_info().max_workgroup_count[0].max(1),
            )) as u32;
            (vector_map_kernel(lambda, workgroup_size), workgroups)
        }
        MapAccess::Scalars => (
            map_kernel(lambda, workgroup_size),
            grid_stride_workgroups(runtime, inputs.length, workgroup_size),
        ),
    };
    let kernel = kernel.load(runtime)?;
    let outputs = DeviceArrays::allocate(runtime, &lambda.result_types, inputs.length)?;
    let mut buffers = inputs.buffers();
    buffers.extend(outputs.buffers());
    runtime.dispatch(&kernel, &buffers, environment, &[count], [workgroups, 1, 1])?;
    Ok(outputs)
}
