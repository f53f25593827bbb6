//! `filter p xs` and `partition p xs` by scan-based compaction:
//!
//! 1. `scanomap (+) 0 (map (\x -> if p x then 1 else 0) xs)` on `u32` gives
//!    each kept element its 1-based output position (the ordered scan of
//!    [`super::scan`]);
//! 2. the compaction kernel re-evaluates `p` (cheaper than storing flags)
//!    and writes each kept element to `offsets[i] − 1` (and, for
//!    `partition`, each rejected one to `kept + i − offsets[i]`).
//!
//! The kept count is the scan's last element, read back; the result arrays
//! are allocated at the input length and truncated to it.
//!
//! Compaction bindings: inputs `input0…`, `offsets`, outputs `output0…`.
//! Push constants: the element count.

use super::scan::scanomap;
use super::{
    check_arrays, element_count_word, glsl_header, grid_stride_workgroups,
    preferred_workgroup_size, tuple_buffer_declarations, types_name_fragment, DeviceArrays,
    GeneratedKernel,
};
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::GlslElement;
use crate::kernels::element::{KernelFeatures, PrimType};
use crate::kernels::lambda::{BuiltinOperator, MapLambda, Operator};
use crate::kernels::KernelSource;
use crate::runtime::{EnvironmentBuffers, Runtime};

/// An error unless `predicate` maps `element_types` to one `bool`.
fn check_predicate(predicate: &MapLambda, element_types: &[PrimType]) -> GpuResult<()> {
    if predicate.parameter_types != element_types || predicate.result_types != [PrimType::Bool] {
        return Err(GpuError::Validation {
            operation: "filter".to_owned(),
            detail: format!(
                "the predicate must map ({}) to (bool)",
                types_name_fragment(element_types)
            ),
        });
    }
    Ok(())
}

/// `\x -> if p x then 1u else 0u`.
pub fn keep_flag_lambda(predicate: &MapLambda) -> MapLambda {
    let arguments: Vec<String> = (0..predicate.parameter_types.len())
        .map(|position| format!("x{position}"))
        .collect();
    MapLambda {
        parameter_types: predicate.parameter_types.clone(),
        result_types: vec![PrimType::U32],
        body: format!(
            "bool keep; predicate_function({}, keep); y0 = keep ? 1u : 0u;",
            arguments.join(", ")
        ),
        helper_functions: predicate.glsl_function("predicate_function"),
        body_features: predicate.body_features,
    }
}

/// What the compaction kernel does with rejected elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compaction {
    /// Drop them (`filter`).
    Filter,
    /// Write them, in order, after the kept ones (`partition`): element `i`
    /// goes to `kept_total + i − offsets[i]`.
    Partition,
}

/// The compaction kernel of `predicate`.
pub fn compaction_kernel(
    predicate: &MapLambda,
    compaction: Compaction,
    workgroup_size: u32,
) -> GeneratedKernel {
    let types = &predicate.parameter_types;
    let features = KernelFeatures::for_element_types(types).union(predicate.body_features);
    let count = types.len();
    let loads: Vec<String> = types
        .iter()
        .enumerate()
        .map(|(position, element_type)| element_type.glsl_load(&format!("input{position}[index]")))
        .collect();
    let copies: String = (0..count)
        .map(|position| format!("output{position}[position] = input{position}[index]; "))
        .collect();
    let glsl = format!(
        "{header}{inputs}\
         layout(std430, set = 0, binding = {offsets_binding}) readonly buffer Buffer_offsets {{ uint offsets[]; }};\n\
         {outputs}\
         layout(push_constant) uniform Parameters {{ uint element_count; }} parameters;\n\
         {predicate_function}\
         void main() {{\n\
             uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n\
             for (uint index = gl_GlobalInvocationID.x; index < parameters.element_count; index += stride) {{\n\
                 bool keep; predicate_function({loads}, keep);\n\
                 if (keep) {{ uint position = offsets[index] - 1u; {copies}}}{rejected}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup_size, "filter/partition: compaction"),
        rejected = match compaction {
            Compaction::Filter => String::new(),
            Compaction::Partition => format!(
                " else {{ uint position = offsets[parameters.element_count - 1u] + index - offsets[index]; {copies}}}"
            ),
        },
        inputs = tuple_buffer_declarations(0, "readonly", "input", types),
        offsets_binding = count,
        outputs = tuple_buffer_declarations(count as u32 + 1, "writeonly", "output", types),
        predicate_function = predicate.glsl_function("predicate_function"),
        loads = loads.join(", "),
    );
    GeneratedKernel {
        source: KernelSource {
            name: format!(
                "{}_compaction_{}",
                match compaction {
                    Compaction::Filter => "filter",
                    Compaction::Partition => "partition",
                },
                types_name_fragment(types)
            ),
            glsl,
        },
        features,
    }
}

/// `filter predicate inputs`: the elements where `predicate` holds, in order.
pub fn filter(
    runtime: &Runtime,
    predicate: &MapLambda,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<DeviceArrays> {
    let (mut outputs, kept) = compact(runtime, predicate, environment, inputs, Compaction::Filter)?;
    outputs.truncate(kept);
    Ok(outputs)
}

/// `partition predicate inputs`: the elements where `predicate` holds, in
/// order, then the others, in order (one array of the input's length), and
/// how many were kept.
pub fn partition(
    runtime: &Runtime,
    predicate: &MapLambda,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
) -> GpuResult<(DeviceArrays, u64)> {
    compact(
        runtime,
        predicate,
        environment,
        inputs,
        Compaction::Partition,
    )
}

/// The compaction of `inputs` by `predicate` (outputs of the input's
/// length) and the kept count; every launch binds `environment`.
fn compact(
    runtime: &Runtime,
    predicate: &MapLambda,
    environment: Option<&EnvironmentBuffers>,
    inputs: &DeviceArrays,
    compaction: Compaction,
) -> GpuResult<(DeviceArrays, u64)> {
    const OPERATION: &str = "filter";
    check_arrays(OPERATION, &inputs.element_types, inputs)?;
    check_predicate(predicate, &inputs.element_types)?;
    let count = element_count_word(inputs.length, OPERATION)?;
    let outputs = DeviceArrays::allocate(runtime, &inputs.element_types, inputs.length)?;
    if inputs.length == 0 {
        return Ok((outputs, 0));
    }
    let add = Operator::builtin(BuiltinOperator::Add, PrimType::U32).ok_or_else(|| {
        GpuError::Validation {
            operation: OPERATION.to_owned(),
            detail: "(+) on u32".to_owned(),
        }
    })?;
    let offsets = scanomap(
        runtime,
        &keep_flag_lambda(predicate),
        &add,
        environment,
        inputs,
    )?;
    let workgroup_size = preferred_workgroup_size(runtime);
    let kernel = compaction_kernel(predicate, compaction, workgroup_size).load(runtime)?;
    let mut buffers = inputs.buffers();
    buffers.extend(offsets.buffers());
    buffers.extend(outputs.buffers());
    runtime.dispatch(
        &kernel,
        &buffers,
        environment,
        &[count],
        [
            grid_stride_workgroups(runtime, inputs.length, workgroup_size),
            1,
            1,
        ],
    )?;
    let last_offset =
        runtime.download_byte_range(&offsets.columns[0], (inputs.length - 1) * 4, 4)?;
    let kept = u64::from(u32::from_le_bytes([
        last_offset[0],
        last_offset[1],
        last_offset[2],
        last_offset[3],
    ]));
    Ok((outputs, kept))
}
