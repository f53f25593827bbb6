//! Generated kernels for the first-order SOACs, parameterised by element
//! types and by GLSL snippets for the lambdas ([`super::lambda`]): the
//! layer the IR → GPU code generator targets.
//!
//! * [`map`]: grid-stride `map` over several inputs and outputs;
//! * [`reduce`]: `reduce`/`redomap`, with subgroup operations for known
//!   commutative operators on 32-bit types and an order-preserving
//!   shared-memory tree otherwise; regular segmented `reduce`;
//! * [`scan`]: inclusive `scan`/`scanomap` in one pass ([`lookback`]:
//!   decoupled look-back with a fallback) or reduce-then-scan in three
//!   passes, regular segmented `scan`;
//! * [`filter`]: `filter` and `partition` by scan-based compaction;
//! * [`scatter`]: bounds-checked parallel writes;
//! * [`segmented`]: row-per-invocation segmented reduce/scan for many short
//!   rows;
//! * [`histogram`]: `reduce_by_index` with atomics (native or compare-and-swap
//!   loops) where operator and type allow, per-workgroup privatised partial
//!   histograms merged in order otherwise.
//!
//! Arrays are structures of arrays ([`DeviceArrays`]): one buffer per tuple
//! component. Buffers are bound at set 0 in the order the kernels document;
//! sizes travel as 32-bit push constants, so arrays hold fewer than 2^32
//! elements (and each buffer at most `maxStorageBufferRange` bytes: larger
//! arrays are refused with [`GpuError::BufferTooLarge`], never split).

pub mod filter;
pub mod histogram;
pub mod lookback;
pub mod map;
pub mod reduce;
pub mod scan;
pub mod scatter;
pub mod segmented;

use super::element::{HostColumn, KernelFeatures, PrimType};
use super::lambda::{MapLambda, Operator};
use super::{compiled_spirv, KernelSource};
use crate::error::{GpuError, GpuResult};
use crate::kernels::element::GlslElement;
use crate::runtime::{ComputeKernel, DeviceBuffer, Runtime};
use std::sync::Arc;

/// A tuple-typed array on the device: one buffer per component, all of
/// `length` elements.
#[derive(Debug)]
pub struct DeviceArrays {
    pub element_types: Vec<PrimType>,
    pub columns: Vec<DeviceBuffer>,
    pub length: u64,
}

impl DeviceArrays {
    /// Upload host columns (all of the same length, at least one).
    pub fn upload(runtime: &Runtime, columns: &[HostColumn]) -> GpuResult<DeviceArrays> {
        let length = columns.first().map_or(0, HostColumn::len) as u64;
        if columns.is_empty() || columns.iter().any(|column| column.len() as u64 != length) {
            return Err(GpuError::Validation {
                operation: "uploading arrays".to_owned(),
                detail: "a tuple array needs at least one column, all of one length".to_owned(),
            });
        }
        let mut buffers = Vec::with_capacity(columns.len());
        for column in columns {
            buffers.push(runtime.upload_bytes(&column.to_bytes())?);
        }
        Ok(DeviceArrays {
            element_types: columns.iter().map(HostColumn::element_type).collect(),
            columns: buffers,
            length,
        })
    }

    /// Uninitialised arrays of `length` elements of `element_types`.
    pub fn allocate(
        runtime: &Runtime,
        element_types: &[PrimType],
        length: u64,
    ) -> GpuResult<DeviceArrays> {
        let mut columns = Vec::with_capacity(element_types.len());
        for element_type in element_types {
            let byte_length = length.checked_mul(element_type.buffer_bytes()).ok_or(
                GpuError::BufferTooLarge {
                    requested_bytes: u64::MAX,
                    limit_bytes: u64::from(runtime.device_info().max_storage_buffer_range),
                    limit_name: "maxStorageBufferRange",
                },
            )?;
            columns.push(runtime.allocate_buffer(byte_length)?);
        }
        Ok(DeviceArrays {
            element_types: element_types.to_vec(),
            columns,
            length,
        })
    }

    /// Download every column.
    pub fn download(&self, runtime: &Runtime) -> GpuResult<Vec<HostColumn>> {
        let mut columns = Vec::with_capacity(self.columns.len());
        for (buffer, element_type) in self.columns.iter().zip(&self.element_types) {
            let bytes = runtime.download_bytes(buffer)?;
            columns.push(HostColumn::from_bytes(*element_type, &bytes));
        }
        Ok(columns)
    }

    /// Keep only the first `length` elements (no copy).
    pub fn truncate(&mut self, length: u64) {
        if length >= self.length {
            return;
        }
        for (buffer, element_type) in self.columns.iter_mut().zip(&self.element_types) {
            buffer.truncate(length * element_type.buffer_bytes());
        }
        self.length = length;
    }

    /// The buffers, borrowed, in order.
    pub fn buffers(&self) -> Vec<&DeviceBuffer> {
        self.columns.iter().collect()
    }
}

/// A generated kernel: its GLSL and the device features it needs.
#[derive(Clone, Debug)]
pub struct GeneratedKernel {
    pub source: KernelSource,
    pub features: KernelFeatures,
}

impl GeneratedKernel {
    /// Check the device has what the kernel needs, compile it (once per
    /// process) and load its pipeline (once per runtime).
    pub fn load(&self, runtime: &Runtime) -> GpuResult<Arc<ComputeKernel>> {
        self.features
            .check_supported(&self.source.name, runtime.enabled_features())?;
        runtime.load_kernel(
            &self.source.name,
            &compiled_spirv(&self.source)?,
            self.source.binding_interface(),
        )
    }
}

/// How work is laid out: invocations per workgroup (a power of two) and
/// elements per invocation in a tile (the tile is their product).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KernelShape {
    pub workgroup_size: u32,
    pub items_per_invocation: u32,
}

impl KernelShape {
    /// Elements per tile.
    pub fn tile_size(self) -> u32 {
        self.workgroup_size * self.items_per_invocation
    }
}

/// The preferred workgroup size on `runtime`'s device: 256 invocations, or
/// the largest power of two the device allows below that.
pub fn preferred_workgroup_size(runtime: &Runtime) -> u32 {
    let info = runtime.device_info();
    let limit = 256
        .min(info.max_workgroup_invocations)
        .min(info.max_workgroup_size[0])
        .max(1);
    1 << (31 - limit.leading_zeros())
}

/// A shape whose shared memory (`bytes_per_tile_element` per tile element
/// plus `bytes_per_invocation` per invocation) fits in three quarters of the
/// device's shared memory (at most 24 KiB, leaving room for the compiler):
/// 4, 2 or 1 items per invocation.
pub fn shape_fitting_shared_memory(
    runtime: &Runtime,
    kernel_name: &str,
    bytes_per_tile_element: u64,
    bytes_per_invocation: u64,
) -> GpuResult<KernelShape> {
    shape_fitting_shared_memory_with(runtime, &[4, 2, 1], |tile, workgroup_size| {
        tile * bytes_per_tile_element + workgroup_size * bytes_per_invocation
    })
    .ok_or_else(|| GpuError::Unsupported {
        what: format!(
            "kernel `{kernel_name}`: the tuple ({bytes_per_tile_element} bytes per element) is too \
             wide for {} bytes of shared memory",
            shared_memory_budget(runtime)
        ),
    })
}

/// The shared memory a kernel may take: three quarters of the device's, at
/// most 24 KiB.
pub fn shared_memory_budget(runtime: &Runtime) -> u64 {
    (u64::from(runtime.device_info().max_shared_memory_bytes) * 3 / 4).min(24 << 10)
}

/// The first shape, from the preferred workgroup size down to 32 and from
/// the first of `items_choices` to the last, whose `bytes_needed(tile,
/// workgroup size)` fits in [`shared_memory_budget`].
pub fn shape_fitting_shared_memory_with(
    runtime: &Runtime,
    items_choices: &[u32],
    bytes_needed: impl Fn(u64, u64) -> u64,
) -> Option<KernelShape> {
    let budget = shared_memory_budget(runtime);
    let mut workgroup_size = preferred_workgroup_size(runtime);
    while workgroup_size >= 32 {
        for &items_per_invocation in items_choices {
            let tile = u64::from(workgroup_size * items_per_invocation);
            if bytes_needed(tile, u64::from(workgroup_size)) <= budget {
                return Some(KernelShape {
                    workgroup_size,
                    items_per_invocation,
                });
            }
        }
        workgroup_size /= 2;
    }
    None
}

/// Bytes one tuple of `element_types` takes in shared memory.
pub fn shared_tuple_bytes(element_types: &[PrimType]) -> u64 {
    element_types
        .iter()
        .map(|element_type| element_type.shared_byte_size())
        .sum()
}

/// `element_count` as a push constant, refusing counts that do not fit
/// (with room for one tile of index arithmetic above the count).
pub fn element_count_word(element_count: u64, operation: &str) -> GpuResult<u32> {
    const HEADROOM: u64 = 1 << 20;
    if element_count > u64::from(u32::MAX) - HEADROOM {
        return Err(GpuError::Unsupported {
            what: format!(
                "{operation} over {element_count} elements: kernels index with 32 bits \
                 (at most {} elements)",
                u64::from(u32::MAX) - HEADROOM
            ),
        });
    }
    Ok(element_count as u32)
}

/// An error unless every array has `element_types` and all have one length.
pub fn check_arrays(
    operation: &str,
    element_types: &[PrimType],
    arrays: &DeviceArrays,
) -> GpuResult<()> {
    if arrays.element_types != element_types || arrays.columns.len() != element_types.len() {
        return Err(GpuError::Validation {
            operation: operation.to_owned(),
            detail: format!(
                "the kernel takes arrays of ({}) but was given ({})",
                type_names(element_types),
                type_names(&arrays.element_types)
            ),
        });
    }
    for (buffer, element_type) in arrays.columns.iter().zip(element_types) {
        let expected_bytes = arrays.length * element_type.buffer_bytes();
        if buffer.byte_length() != expected_bytes {
            return Err(GpuError::LengthMismatch {
                operation: "checking kernel arguments",
                expected_bytes,
                actual_bytes: buffer.byte_length(),
            });
        }
    }
    Ok(())
}

fn type_names(element_types: &[PrimType]) -> String {
    element_types
        .iter()
        .map(|element_type| element_type.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A kernel-name fragment for a list of types (`u8_f64`).
pub fn types_name_fragment(element_types: &[PrimType]) -> String {
    element_types
        .iter()
        .map(|element_type| element_type.name())
        .collect::<Vec<_>>()
        .join("_")
}

/// How a kernel gets element `index` of its (possibly mapped) input: the
/// input columns' types, and the map fused in front (`redomap`, `scanomap`)
/// or none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ElementSource {
    pub input_types: Vec<PrimType>,
    pub fused_map: Option<MapLambda>,
    /// Whether the fused map's first parameter is the element's position
    /// (`index`, an `i64`) rather than a column: the map computes each
    /// element from where it is, reading no input buffer for it.
    pub position_parameter: bool,
}

impl ElementSource {
    /// The input columns themselves.
    pub fn columns(input_types: &[PrimType]) -> ElementSource {
        ElementSource {
            input_types: input_types.to_vec(),
            fused_map: None,
            position_parameter: false,
        }
    }

    /// The input columns through `lambda`.
    pub fn mapped(lambda: &MapLambda) -> ElementSource {
        ElementSource {
            input_types: lambda.parameter_types.clone(),
            fused_map: Some(lambda.clone()),
            position_parameter: false,
        }
    }

    /// `lambda` applied to each element's position (its only parameter, an
    /// `i64`): no input columns.
    pub fn positions(lambda: &MapLambda) -> ElementSource {
        ElementSource {
            input_types: Vec::new(),
            fused_map: Some(lambda.clone()),
            position_parameter: true,
        }
    }

    /// The types of the elements the kernel sees.
    pub fn element_types(&self) -> Vec<PrimType> {
        match &self.fused_map {
            Some(lambda) => lambda.result_types.clone(),
            None => self.input_types.clone(),
        }
    }

    /// The features its loads and map need.
    pub fn features(&self) -> KernelFeatures {
        let body = self
            .fused_map
            .as_ref()
            .map_or(KernelFeatures::default(), |lambda| lambda.body_features);
        let position = if self.position_parameter {
            KernelFeatures::for_element_type(PrimType::I64)
        } else {
            KernelFeatures::default()
        };
        KernelFeatures::for_element_types(&self.input_types)
            .union(KernelFeatures::for_element_types(&self.element_types()))
            .union(body)
            .union(position)
    }

    /// The GLSL declarations of the input buffers (`input0…` at bindings
    /// `first_binding…`), the map function if any, and
    /// `void load_element(uint index, out S0 v0, …)`.
    pub fn glsl_declarations(&self, first_binding: u32) -> String {
        let mut text = String::new();
        for (position, element_type) in self.input_types.iter().enumerate() {
            text.push_str(&buffer_declaration(
                first_binding + position as u32,
                "readonly",
                &format!("input{position}"),
                element_type.glsl_storage_type(),
            ));
        }
        let element_types = self.element_types();
        let mut parameters = Vec::new();
        for (position, element_type) in element_types.iter().enumerate() {
            parameters.push(format!(
                "out {} v{position}",
                element_type.glsl_value_type()
            ));
        }
        let mut body = String::new();
        match &self.fused_map {
            Some(lambda) => {
                text.push_str(&lambda.glsl_function("map_function"));
                let mut arguments = Vec::new();
                if self.position_parameter {
                    arguments.push("int64_t(index)".to_owned());
                }
                for (position, element_type) in self.input_types.iter().enumerate() {
                    arguments.push(element_type.glsl_load(&format!("input{position}[index]")));
                }
                for position in 0..element_types.len() {
                    arguments.push(format!("v{position}"));
                }
                body.push_str(&format!("    map_function({});\n", arguments.join(", ")));
            }
            None => {
                for (position, element_type) in self.input_types.iter().enumerate() {
                    body.push_str(&format!(
                        "    v{position} = {};\n",
                        element_type.glsl_load(&format!("input{position}[index]"))
                    ));
                }
            }
        }
        text.push_str(&format!(
            "void load_element(uint index, {}) {{\n{body}}}\n",
            parameters.join(", ")
        ));
        text
    }

    /// Vector views of the input buffers (`input{i}_vectors`, aliases of
    /// `input{i}` at the same bindings: four consecutive elements per
    /// vector) and the functions that read them, after
    /// [`ElementSource::glsl_declarations`] (which defines the map function):
    /// `void load_vector(uint vector_index, out T4 raw0, …)` (one vector load
    /// per column) and `void element_of_vector(T4 raw0, …, uint lane, out S0
    /// v0, …)` (element `lane` of the loaded vectors, through the map if
    /// any). Only whole vectors may be read: elements past the last multiple
    /// of [`VECTOR_WIDTH`] go through `load_element`. Not for a source of
    /// [`ElementSource::positions`]: its kernels load element by element.
    pub fn glsl_vector_declarations(&self, first_binding: u32) -> String {
        let mut text = String::new();
        for (position, element_type) in self.input_types.iter().enumerate() {
            text.push_str(&buffer_declaration(
                first_binding + position as u32,
                "readonly",
                &format!("input{position}_vectors"),
                element_type.glsl_vector_storage_type(),
            ));
        }
        let raw_parameters = |mode: &str| -> Vec<String> {
            self.input_types
                .iter()
                .enumerate()
                .map(|(position, element_type)| {
                    format!(
                        "{mode}{} raw{position}",
                        element_type.glsl_vector_storage_type()
                    )
                })
                .collect()
        };
        let loads: String = (0..self.input_types.len())
            .map(|position| format!("    raw{position} = input{position}_vectors[vector_index];\n"))
            .collect();
        text.push_str(&format!(
            "void load_vector(uint vector_index, {}) {{\n{loads}}}\n",
            raw_parameters("out ").join(", ")
        ));
        let element_types = self.element_types();
        let mut parameters = raw_parameters("");
        parameters.push("uint lane".to_owned());
        for (position, element_type) in element_types.iter().enumerate() {
            parameters.push(format!(
                "out {} v{position}",
                element_type.glsl_value_type()
            ));
        }
        let lanes: Vec<String> = self
            .input_types
            .iter()
            .enumerate()
            .map(|(position, element_type)| element_type.glsl_load(&format!("raw{position}[lane]")))
            .collect();
        let body = match &self.fused_map {
            Some(_) => {
                let mut arguments = lanes;
                arguments.extend(component_list("v", "", element_types.len()));
                format!("    map_function({});\n", arguments.join(", "))
            }
            None => lanes
                .iter()
                .enumerate()
                .map(|(position, lane)| format!("    v{position} = {lane};\n"))
                .collect(),
        };
        text.push_str(&format!(
            "void element_of_vector({}) {{\n{body}}}\n",
            parameters.join(", ")
        ));
        text
    }

    /// A kernel-name fragment.
    pub fn name_fragment(&self) -> String {
        match &self.fused_map {
            Some(_) if self.position_parameter => "of_positions".to_owned(),
            Some(_) => format!("mapped_{}", types_name_fragment(&self.input_types)),
            None => types_name_fragment(&self.input_types),
        }
    }
}

/// `layout(std430, set = 0, binding = B) QUALIFIER buffer Name { T name[]; };`
pub fn buffer_declaration(binding: u32, qualifier: &str, name: &str, storage_type: &str) -> String {
    format!(
        "layout(std430, set = 0, binding = {binding}) {qualifier} buffer Buffer_{name} {{ {storage_type} {name}[]; }};\n"
    )
}

/// The buffer declarations of a tuple array named `{prefix}0…` at bindings
/// `first_binding…`.
pub fn tuple_buffer_declarations(
    first_binding: u32,
    qualifier: &str,
    prefix: &str,
    element_types: &[PrimType],
) -> String {
    column_declarations(
        first_binding,
        qualifier,
        prefix,
        "",
        element_types,
        |element_type| element_type.glsl_storage_type(),
    )
}

/// Vector views (`{prefix}{i}_vectors`, four elements per vector) of a
/// tuple array's buffers `{prefix}{i}` at bindings `first_binding…`.
pub fn tuple_vector_buffer_declarations(
    first_binding: u32,
    qualifier: &str,
    prefix: &str,
    element_types: &[PrimType],
) -> String {
    column_declarations(
        first_binding,
        qualifier,
        prefix,
        "_vectors",
        element_types,
        |element_type| element_type.glsl_vector_storage_type(),
    )
}

/// One buffer `{prefix}{i}{suffix}` of `storage_type(column type)` per
/// column, at bindings `first_binding…`.
fn column_declarations(
    first_binding: u32,
    qualifier: &str,
    prefix: &str,
    suffix: &str,
    element_types: &[PrimType],
    storage_type: impl Fn(PrimType) -> &'static str,
) -> String {
    element_types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            buffer_declaration(
                first_binding + position as u32,
                qualifier,
                &format!("{prefix}{position}{suffix}"),
                storage_type(*element_type),
            )
        })
        .collect()
}

/// Elements one vector access moves: every column has a four-component
/// vector type ([`GlslElement::glsl_vector_storage_type`]).
pub const VECTOR_WIDTH: u32 = 4;

/// Vector loads each invocation of a vectorised kernel has in flight per
/// column before it computes (so each invocation keeps
/// `VECTORS_PER_INVOCATION × 4` elements' loads outstanding: what a
/// high-bandwidth memory needs to stay busy, by Little's law).
pub const VECTORS_PER_INVOCATION: u32 = 4;

/// `#version 450`, the extensions `features` need and the workgroup size.
pub fn glsl_header(features: KernelFeatures, workgroup_size: u32, comment: &str) -> String {
    format!(
        "#version 450\n{}// {comment}\nlayout(local_size_x = {workgroup_size}) in;\n",
        features.glsl_extensions()
    )
}

/// `"{prefix}0{suffix}, {prefix}1{suffix}, …"` for `count` components.
pub fn component_list(prefix: &str, suffix: &str, count: usize) -> Vec<String> {
    (0..count)
        .map(|position| format!("{prefix}{position}{suffix}"))
        .collect()
}

/// Declarations `S0 {prefix}0; …` of a tuple variable.
pub fn declare_tuple(prefix: &str, element_types: &[PrimType]) -> String {
    element_types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            format!("{} {prefix}{position}; ", element_type.glsl_value_type())
        })
        .collect()
}

/// Statements `destination_i = neutral_i;`.
pub fn assign_neutral(destination: &[String], operator: &Operator) -> String {
    destination
        .iter()
        .zip(&operator.neutral)
        .map(|(target, neutral)| format!("{target} = {neutral}; "))
        .collect()
}

/// A block computing `destination = left ⊕ right` through temporaries (the
/// destination may alias an operand).
pub fn combine_into(
    operator: &Operator,
    left: &[String],
    right: &[String],
    destination: &[String],
) -> String {
    let mut arguments: Vec<String> = left.to_vec();
    arguments.extend(right.iter().cloned());
    arguments.extend(component_list("combined", "", operator.element_types.len()));
    let assignments: String = destination
        .iter()
        .enumerate()
        .map(|(position, target)| format!("{target} = combined{position}; "))
        .collect();
    format!(
        "{{ {}combine({}); {assignments}}}",
        declare_tuple("combined", &operator.element_types),
        arguments.join(", ")
    )
}

/// Statements storing tuple `values` into `{prefix}i[index]`.
pub fn store_tuple(
    prefix: &str,
    index: &str,
    values: &[String],
    element_types: &[PrimType],
) -> String {
    values
        .iter()
        .zip(element_types)
        .enumerate()
        .map(|(position, (value, element_type))| {
            format!(
                "{prefix}{position}[{index}] = {}; ",
                element_type.glsl_store(value)
            )
        })
        .collect()
}

/// Expressions loading `{prefix}i[index]` as values.
pub fn load_tuple(prefix: &str, index: &str, element_types: &[PrimType]) -> Vec<String> {
    element_types
        .iter()
        .enumerate()
        .map(|(position, element_type)| {
            element_type.glsl_load(&format!("{prefix}{position}[{index}]"))
        })
        .collect()
}

/// Workgroups for a grid-stride loop over `element_count` elements.
pub fn grid_stride_workgroups(runtime: &Runtime, element_count: u64, workgroup_size: u32) -> u32 {
    super::grid_stride_workgroup_count(
        element_count,
        workgroup_size,
        runtime.device_info().max_workgroup_count[0],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::lambda::BuiltinOperator;
    use crate::runtime::device_choice::ShaderFeatureSupport;

    fn shape() -> KernelShape {
        KernelShape {
            workgroup_size: 256,
            items_per_invocation: 4,
        }
    }

    /// Kernels ask only for what their types need, and a device without it
    /// gets a clear error naming the Vulkan feature.
    #[test]
    fn kernels_declare_the_features_their_types_need() {
        let u32_map = map::map_kernel(&MapLambda::identity(&[PrimType::U32]), 256);
        assert_eq!(u32_map.features, KernelFeatures::default());
        let f64_to_u8 =
            MapLambda::new(vec![PrimType::F64], vec![PrimType::U8], "y0 = uint8_t(x0);");
        let features = map::map_kernel(&f64_to_u8, 256).features;
        assert!(features.float64 && features.int8 && features.storage_buffer_8bit);
        assert!(!features.int64 && !features.int16 && !features.subgroup_arithmetic);
        let add_i64 = Operator::builtin(BuiltinOperator::Add, PrimType::I64).expect("applies");
        let scan =
            scan::ordered_scan_kernel(&ElementSource::columns(&[PrimType::I64]), &add_i64, shape());
        assert!(scan.features.int64 && !scan.features.float64);
        let error = scan
            .features
            .check_supported(&scan.source.name, ShaderFeatureSupport::default())
            .expect_err("no int64");
        assert!(
            error.to_string().contains("shaderInt64")
                && error.to_string().contains("scan_ordered_i64"),
            "{error}"
        );
        let add_f32 = Operator::builtin(BuiltinOperator::Add, PrimType::F32).expect("applies");
        let subgroup = reduce::subgroup_reduce_kernel(
            &ElementSource::columns(&[PrimType::F32]),
            &add_f32,
            256,
        )
        .expect("applies to f32 +");
        assert!(subgroup.features.subgroup_arithmetic);
        assert!(reduce::subgroup_reduce_kernel(
            &ElementSource::columns(&[PrimType::I64]),
            &add_i64,
            256
        )
        .is_none());
    }

    #[test]
    fn whole_array_passes_make_at_most_the_maximum_segments_of_whole_tiles() {
        assert_eq!(reduce::whole_array_segments(0, 1024, 1024), (1024, 1));
        assert_eq!(reduce::whole_array_segments(1024, 1024, 1024), (1024, 1));
        assert_eq!(reduce::whole_array_segments(1025, 1024, 1024), (1024, 2));
        let (length, count) = reduce::whole_array_segments(1 << 26, 1024, 1024);
        assert_eq!((length, count), (65_536, 1024));
        let (length, count) = reduce::whole_array_segments((1 << 26) - 1, 1024, 1024);
        assert!(count <= 1024 && length % 1024 == 0 && length * count >= (1 << 26) - 1);
    }
}
