//! `reduce_by_index dest op ne is vs` (generalised histograms): for every
//! `i` with `is[i]` within `dest`, `dest[is[i]] = dest[is[i]] ⊕ vs[i]`; other
//! indices are ignored. `dest` is updated in place. Futhark requires the
//! operator to be associative and commutative; the strategies:
//!
//! * [`HistogramStrategy::NativeAtomic`]: `atomicAdd/Min/Max/And/Or/Xor` on
//!   `i32`/`u32` bins for the known operators;
//! * [`HistogramStrategy::CompareAndSwap`]: any commutative operator on one
//!   32-bit component (`i32`, `u32`, `f32`: float addition included), as a
//!   compare-and-swap loop on the bin's bits. Lock-free: a failed swap means
//!   another invocation's succeeded, and no invocation waits for another, so
//!   it progresses on lavapipe's lock-step subgroups too;
//! * [`HistogramStrategy::PrivatisedPerWorkgroup`]: everything else (tuples,
//!   8/16/64-bit types, any operator — even a non-commutative one gets the
//!   sequential left-to-right result). Each of `G` workgroups takes a
//!   contiguous chunk of the input and owns a partial histogram in global
//!   memory (`G × bins`, initialised to the neutral element); invocation `t`
//!   owns the bins `b ≡ t (mod workgroup size)` and folds, in input order,
//!   the chunk's values (staged tile by tile in shared memory) that fall in
//!   its bins — no atomics, no races. A merge kernel then folds, per bin,
//!   `dest[b] ⊕ partial₀[b] ⊕ … ⊕ partial_{G−1}[b]`. Every invocation reads
//!   every staged element, so this costs `workgroup size ×` the reads of the
//!   atomic path: it is the fallback, not the fast path.
//!
//! Atomic bindings: `bins`, `indices`, `values`. Privatised bindings:
//! `indices`, values `value0…`, partials `partial0…`; merge bindings:
//! destination `destination0…`, partials `partial0…`.

use super::scatter::{check_index_type, glsl_index_in_bounds};
use super::{
    assign_neutral, check_arrays, combine_into, component_list, declare_tuple, element_count_word,
    glsl_header, grid_stride_workgroups, load_tuple, preferred_workgroup_size,
    shape_fitting_shared_memory, shared_tuple_bytes, store_tuple, tuple_buffer_declarations,
    types_name_fragment, DeviceArrays, GeneratedKernel, KernelShape,
};
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::GlslElement;
use crate::kernels::element::{KernelFeatures, PrimType};
use crate::kernels::lambda::{BuiltinOperator, Operator};
use crate::kernels::KernelSource;
use crate::runtime::submission::KernelLaunch;
use crate::runtime::Runtime;

/// How `reduce_by_index` combines into the bins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistogramStrategy {
    NativeAtomic,
    CompareAndSwap,
    PrivatisedPerWorkgroup,
}

impl HistogramStrategy {
    /// The fastest strategy that applies to `operator`.
    pub fn best_for(operator: &Operator) -> HistogramStrategy {
        match (operator.builtin, operator.element_types.as_slice()) {
            (Some(builtin), [PrimType::I32 | PrimType::U32])
                if native_atomic_function(builtin).is_some() =>
            {
                HistogramStrategy::NativeAtomic
            }
            (_, [PrimType::I32 | PrimType::U32 | PrimType::F32]) if operator.commutative => {
                HistogramStrategy::CompareAndSwap
            }
            _ => HistogramStrategy::PrivatisedPerWorkgroup,
        }
    }

    /// Whether this strategy can run `operator`.
    pub fn applies_to(self, operator: &Operator) -> bool {
        match self {
            HistogramStrategy::PrivatisedPerWorkgroup => true,
            HistogramStrategy::CompareAndSwap => matches!(
                HistogramStrategy::best_for(operator),
                HistogramStrategy::CompareAndSwap | HistogramStrategy::NativeAtomic
            ),
            HistogramStrategy::NativeAtomic => {
                HistogramStrategy::best_for(operator) == HistogramStrategy::NativeAtomic
            }
        }
    }
}

fn native_atomic_function(builtin: BuiltinOperator) -> Option<&'static str> {
    match builtin {
        BuiltinOperator::Add => Some("atomicAdd"),
        BuiltinOperator::Minimum => Some("atomicMin"),
        BuiltinOperator::Maximum => Some("atomicMax"),
        BuiltinOperator::And => Some("atomicAnd"),
        BuiltinOperator::Or => Some("atomicOr"),
        BuiltinOperator::Xor => Some("atomicXor"),
        BuiltinOperator::Multiply => None,
    }
}

/// The atomic kernel (native or compare-and-swap) of `operator`, `None`
/// where the strategy does not apply.
pub fn atomic_histogram_kernel(
    operator: &Operator,
    strategy: HistogramStrategy,
    index_type: PrimType,
    workgroup_size: u32,
) -> Option<GeneratedKernel> {
    if strategy == HistogramStrategy::PrivatisedPerWorkgroup || !strategy.applies_to(operator) {
        return None;
    }
    let element_type = operator.element_types[0];
    let value_type = element_type.glsl_value_type();
    let in_bounds = glsl_index_in_bounds(index_type, "target", "parameters.bin_count")?;
    let features = KernelFeatures::for_element_type(index_type);
    let (bin_type, update, combine) = if strategy == HistogramStrategy::NativeAtomic {
        let function = native_atomic_function(operator.builtin?)?;
        (
            value_type,
            format!("{function}(bins[uint(target)], values[index]);"),
            String::new(),
        )
    } else {
        let (from_bits, to_bits) = match element_type {
            PrimType::F32 => ("uintBitsToFloat", "floatBitsToUint"),
            PrimType::I32 => ("int", "uint"),
            _ => ("uint", "uint"),
        };
        (
            "uint",
            format!(
                "uint expected = atomicOr(bins[uint(target)], 0u);\n\
                 for (;;) {{\n\
                     {value_type} combined; combine({from_bits}(expected), values[index], combined);\n\
                     uint seen = atomicCompSwap(bins[uint(target)], expected, {to_bits}(combined));\n\
                     if (seen == expected) {{ break; }}\n\
                     expected = seen;\n\
                 }}"
            ),
            operator.glsl_function("combine"),
        )
    };
    let glsl = format!(
        "{header}\
         layout(std430, set = 0, binding = 0) buffer Buffer_bins {{ {bin_type} bins[]; }};\n\
         layout(std430, set = 0, binding = 1) readonly buffer Buffer_indices {{ {index_storage} indices[]; }};\n\
         layout(std430, set = 0, binding = 2) readonly buffer Buffer_values {{ {value_type} values[]; }};\n\
         layout(push_constant) uniform Parameters {{ uint value_count; uint bin_count; }} parameters;\n\
         {combine}\
         void main() {{\n\
             uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n\
             for (uint index = gl_GlobalInvocationID.x; index < parameters.value_count; index += stride) {{\n\
                 {index_storage} target = indices[index];\n\
                 if {in_bounds} {{ {update} }}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup_size, "reduce_by_index with atomics"),
        index_storage = index_type.glsl_storage_type(),
    );
    Some(GeneratedKernel {
        source: KernelSource {
            name: format!(
                "histogram_{}_{}_by_{}",
                if strategy == HistogramStrategy::NativeAtomic {
                    "atomic"
                } else {
                    "cas"
                },
                element_type.name(),
                index_type.name()
            ),
            glsl,
        },
        features,
    })
}

/// The privatised partial-histogram kernel.
pub fn privatised_histogram_kernel(
    operator: &Operator,
    index_type: PrimType,
    shape: KernelShape,
) -> Option<GeneratedKernel> {
    let types = &operator.element_types;
    let count = types.len();
    let in_bounds = glsl_index_in_bounds(index_type, "target", "parameters.bin_count")?;
    let features = KernelFeatures::for_element_types(types)
        .union(KernelFeatures::for_element_type(index_type));
    let index_storage = index_type.glsl_storage_type();
    let tile = shape.tile_size();
    let workgroup = shape.workgroup_size;
    let shared: String = types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            format!(
                "shared {} tile_value{position}[{tile}];\n",
                element_type.glsl_value_type()
            )
        })
        .collect();
    let stage: String = load_tuple("value", "global_index", types)
        .iter()
        .enumerate()
        .map(|(position, value)| format!("tile_value{position}[local_index] = {value}; "))
        .collect();
    let bin = component_list("bin", "", count);
    let neutral = component_list("neutral", "", count);
    let glsl = format!(
        "{header}\
         layout(std430, set = 0, binding = 0) readonly buffer Buffer_indices {{ {index_storage} indices[]; }};\n\
         {values}{partials}\
         layout(push_constant) uniform Parameters {{ uint value_count; uint bin_count; uint chunk_length; }} parameters;\n\
         shared {index_storage} tile_index[{tile}];\n\
         {shared}\
         {combine}\
         void main() {{\n\
             uint invocation = gl_LocalInvocationID.x;\n\
             uint partial_base = gl_WorkGroupID.x * parameters.bin_count;\n\
             {declare_neutral}{assign_neutral}\n\
             for (uint owned = invocation; owned < parameters.bin_count; owned += {workgroup}u) {{ {initialise} }}\n\
             uint chunk_start = min(gl_WorkGroupID.x * parameters.chunk_length, parameters.value_count);\n\
             uint chunk_end = min(chunk_start + parameters.chunk_length, parameters.value_count);\n\
             for (uint tile_start = chunk_start; tile_start < chunk_end; tile_start += {tile}u) {{\n\
                 for (uint item = 0u; item < {items}u; item++) {{\n\
                     uint local_index = item * {workgroup}u + invocation;\n\
                     uint global_index = tile_start + local_index;\n\
                     if (global_index < chunk_end) {{ tile_index[local_index] = indices[global_index]; {stage}}}\n\
                 }}\n\
                 barrier();\n\
                 uint tile_length = min({tile}u, chunk_end - tile_start);\n\
                 for (uint element = 0u; element < tile_length; element++) {{\n\
                     {index_storage} target = tile_index[element];\n\
                     if ({in_bounds} && (uint(target) & {mask}u) == invocation) {{\n\
                         uint slot = partial_base + uint(target);\n\
                         {declare_bin}{read_bin}\n\
                         {fold}\n\
                         {write_bin}\n\
                     }}\n\
                 }}\n\
                 barrier();\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup, "reduce_by_index: privatised partial histograms"),
        values = tuple_buffer_declarations(1, "readonly", "value", types),
        partials = tuple_buffer_declarations(1 + count as u32, "", "partial", types),
        combine = operator.glsl_function("combine"),
        declare_neutral = declare_tuple("neutral", types),
        assign_neutral = assign_neutral(&neutral, operator),
        initialise = store_tuple("partial", "partial_base + owned", &neutral, types),
        items = shape.items_per_invocation,
        mask = workgroup - 1,
        declare_bin = declare_tuple("bin", types),
        read_bin = bin
            .iter()
            .zip(load_tuple("partial", "slot", types))
            .map(|(target, value)| format!("{target} = {value}; "))
            .collect::<String>(),
        fold = combine_into(
            operator,
            &bin,
            &component_list("tile_value", "[element]", count),
            &bin
        ),
        write_bin = store_tuple("partial", "slot", &bin, types),
    );
    Some(GeneratedKernel {
        source: KernelSource {
            name: format!(
                "histogram_privatised_{}_by_{}",
                types_name_fragment(types),
                index_type.name()
            ),
            glsl,
        },
        features,
    })
}

/// The merge kernel: `dest[b] ⊕ partial₀[b] ⊕ … ⊕ partial_{G−1}[b]`.
pub fn histogram_merge_kernel(operator: &Operator, workgroup_size: u32) -> GeneratedKernel {
    let types = &operator.element_types;
    let count = types.len();
    let accumulator = component_list("accumulator", "", count);
    let features = KernelFeatures::for_element_types(types);
    let glsl = format!(
        "{header}{destination}{partials}\
         layout(push_constant) uniform Parameters {{ uint bin_count; uint partial_count; }} parameters;\n\
         {combine}\
         void main() {{\n\
             uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n\
             for (uint bin = gl_GlobalInvocationID.x; bin < parameters.bin_count; bin += stride) {{\n\
                 {declare}{read}\n\
                 for (uint partial = 0u; partial < parameters.partial_count; partial++) {{\n\
                     uint slot = partial * parameters.bin_count + bin;\n\
                     {fold}\n\
                 }}\n\
                 {write}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup_size, "reduce_by_index: merge partial histograms"),
        destination = tuple_buffer_declarations(0, "", "destination", types),
        partials = tuple_buffer_declarations(count as u32, "readonly", "partial", types),
        combine = operator.glsl_function("combine"),
        declare = declare_tuple("accumulator", types),
        read = accumulator
            .iter()
            .zip(load_tuple("destination", "bin", types))
            .map(|(target, value)| format!("{target} = {value}; "))
            .collect::<String>(),
        fold = combine_into(operator, &accumulator, &load_tuple("partial", "slot", types), &accumulator),
        write = store_tuple("destination", "bin", &accumulator, types),
    );
    GeneratedKernel {
        source: KernelSource {
            name: format!("histogram_merge_{}", types_name_fragment(types)),
            glsl,
        },
        features,
    }
}

/// The most partial histograms of the privatised strategy.
pub const MAXIMUM_PARTIAL_HISTOGRAMS: u64 = 64;

/// `reduce_by_index destination operator indices values`, in place, with
/// `strategy` (see [`HistogramStrategy::best_for`]); an error where the
/// strategy does not apply to the operator.
pub fn reduce_by_index(
    runtime: &Runtime,
    destination: &DeviceArrays,
    operator: &Operator,
    indices: &DeviceArrays,
    values: &DeviceArrays,
    strategy: HistogramStrategy,
) -> GpuResult<()> {
    const OPERATION: &str = "reduce_by_index";
    check_arrays(OPERATION, &operator.element_types, destination)?;
    check_arrays(OPERATION, &operator.element_types, values)?;
    let index_type = check_index_type(OPERATION, indices)?;
    if indices.length != values.length || operator.neutral.len() != operator.element_types.len() {
        return Err(GpuError::Validation {
            operation: OPERATION.to_owned(),
            detail: format!(
                "{} indices for {} values (and {} neutral components for {})",
                indices.length,
                values.length,
                operator.neutral.len(),
                operator.element_types.len()
            ),
        });
    }
    if !strategy.applies_to(operator) {
        return Err(GpuError::Validation {
            operation: OPERATION.to_owned(),
            detail: format!(
                "{strategy:?} does not apply to this operator on ({}); use {:?}",
                types_name_fragment(&operator.element_types),
                HistogramStrategy::best_for(operator)
            ),
        });
    }
    let value_count = element_count_word(values.length, OPERATION)?;
    let bin_count = element_count_word(destination.length, OPERATION)?;
    if value_count == 0 || bin_count == 0 {
        return Ok(());
    }
    let not_applicable = || GpuError::Validation {
        operation: OPERATION.to_owned(),
        detail: "the strategy does not apply".to_owned(),
    };
    let workgroup_size = preferred_workgroup_size(runtime);
    if strategy != HistogramStrategy::PrivatisedPerWorkgroup {
        let kernel = atomic_histogram_kernel(operator, strategy, index_type, workgroup_size)
            .ok_or_else(not_applicable)?
            .load(runtime)?;
        let mut buffers = destination.buffers();
        buffers.extend(indices.buffers());
        buffers.extend(values.buffers());
        return runtime.dispatch(
            &kernel,
            &buffers,
            None,
            &[value_count, bin_count],
            [
                grid_stride_workgroups(runtime, values.length, workgroup_size),
                1,
                1,
            ],
        );
    }
    let tuple_bytes = shared_tuple_bytes(&operator.element_types) + index_type.buffer_bytes();
    let shape = shape_fitting_shared_memory(runtime, OPERATION, tuple_bytes, 0)?;
    // Partial histograms: as many as fit one buffer, at most 64, at most one
    // per tile of input.
    let widest = operator
        .element_types
        .iter()
        .map(|element_type| element_type.buffer_bytes())
        .max()
        .unwrap_or(1);
    let fitting =
        u64::from(runtime.device_info().max_storage_buffer_range) / (u64::from(bin_count) * widest);
    let partial_count = values
        .length
        .div_ceil(u64::from(shape.tile_size()))
        .min(MAXIMUM_PARTIAL_HISTOGRAMS)
        .min(fitting)
        .min(u64::from(runtime.device_info().max_workgroup_count[0]));
    if partial_count == 0 {
        return Err(GpuError::BufferTooLarge {
            requested_bytes: u64::from(bin_count) * widest,
            limit_bytes: u64::from(runtime.device_info().max_storage_buffer_range),
            limit_name: "maxStorageBufferRange",
        });
    }
    let chunk_length = values.length.div_ceil(partial_count);
    let partials = DeviceArrays::allocate(
        runtime,
        &operator.element_types,
        partial_count * u64::from(bin_count),
    )?;
    let privatised = privatised_histogram_kernel(operator, index_type, shape)
        .ok_or_else(not_applicable)?
        .load(runtime)?;
    let merge = histogram_merge_kernel(operator, workgroup_size).load(runtime)?;
    let mut privatised_buffers = indices.buffers();
    privatised_buffers.extend(values.buffers());
    privatised_buffers.extend(partials.buffers());
    let mut merge_buffers = destination.buffers();
    merge_buffers.extend(partials.buffers());
    runtime.run_kernels(
        OPERATION,
        &[
            KernelLaunch {
                kernel: &privatised,
                buffers: privatised_buffers,
                environment: None,
                push_constant_words: vec![value_count, bin_count, chunk_length as u32],
                workgroup_counts: [partial_count as u32, 1, 1],
            },
            KernelLaunch {
                kernel: &merge,
                buffers: merge_buffers,
                environment: None,
                push_constant_words: vec![bin_count, partial_count as u32],
                workgroup_counts: [
                    grid_stride_workgroups(runtime, u64::from(bin_count), workgroup_size),
                    1,
                    1,
                ],
            },
        ],
    )
}
