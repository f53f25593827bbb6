//! Element types of generated kernels (every Futhark primitive type: i8..u64,
//! f32, f64, bool), their GLSL spelling in buffers and in registers, the
//! device features each needs, and host columns of values.
//!
//! Tuples are structures of arrays: a tuple-typed array is one buffer per
//! component (`Vec<PrimType>` in the kernel specifications).

use crate::error::{GpuError, GpuResult};
use crate::runtime::device_choice::ShaderFeatureSupport;

/// The element type of a kernel's buffers and registers is the one primitive
/// type enum of the workspace, `spec::value::PrimType` (the IR's too).
pub use spec::value::PrimType;

/// How a primitive type is spelled and stored in generated GLSL.
pub trait GlslElement: Copy {
    /// Bytes per element in a buffer.
    fn buffer_bytes(self) -> u64;
    /// The GLSL type of a value in registers and shared memory.
    fn glsl_value_type(self) -> &'static str;
    /// The GLSL type of an element in a `std430` buffer (booleans are one
    /// byte there).
    fn glsl_storage_type(self) -> &'static str;
    /// The GLSL type of four consecutive elements in a `std430` buffer
    /// (`vec4`, `u8vec4`, …): what vector loads and stores move.
    fn glsl_vector_storage_type(self) -> &'static str;
    /// `stored` (an expression of the storage type) as a value.
    fn glsl_load(self, stored: &str) -> String;
    /// `value` (an expression of the value type) as a storage value.
    fn glsl_store(self, value: &str) -> String;
    /// Bytes a value takes in shared memory (booleans are 32-bit there).
    fn shared_byte_size(self) -> u64;
}

impl GlslElement for PrimType {
    fn buffer_bytes(self) -> u64 {
        PrimType::byte_size(self) as u64
    }

    fn glsl_value_type(self) -> &'static str {
        match self {
            PrimType::I8 => "int8_t",
            PrimType::I16 => "int16_t",
            PrimType::I32 => "int",
            PrimType::I64 => "int64_t",
            PrimType::U8 => "uint8_t",
            PrimType::U16 => "uint16_t",
            PrimType::U32 => "uint",
            PrimType::U64 => "uint64_t",
            PrimType::F32 => "float",
            PrimType::F64 => "double",
            PrimType::Bool => "bool",
        }
    }

    fn glsl_storage_type(self) -> &'static str {
        match self {
            PrimType::Bool => "uint8_t",
            other => other.glsl_value_type(),
        }
    }

    fn glsl_vector_storage_type(self) -> &'static str {
        match self {
            PrimType::I8 => "i8vec4",
            PrimType::I16 => "i16vec4",
            PrimType::I32 => "ivec4",
            PrimType::I64 => "i64vec4",
            PrimType::U8 | PrimType::Bool => "u8vec4",
            PrimType::U16 => "u16vec4",
            PrimType::U32 => "uvec4",
            PrimType::U64 => "u64vec4",
            PrimType::F32 => "vec4",
            PrimType::F64 => "dvec4",
        }
    }

    fn glsl_load(self, stored: &str) -> String {
        match self {
            PrimType::Bool => format!("({stored} != uint8_t(0))"),
            _ => stored.to_owned(),
        }
    }

    fn glsl_store(self, value: &str) -> String {
        match self {
            PrimType::Bool => format!("(({value}) ? uint8_t(1) : uint8_t(0))"),
            _ => value.to_owned(),
        }
    }

    fn shared_byte_size(self) -> u64 {
        self.buffer_bytes()
            .max(if self == PrimType::Bool { 4 } else { 1 })
    }
}

/// The optional device features a kernel needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelFeatures {
    pub int8: bool,
    pub int16: bool,
    pub int64: bool,
    pub float64: bool,
    pub storage_buffer_8bit: bool,
    pub storage_buffer_16bit: bool,
    pub subgroup_arithmetic: bool,
}

impl KernelFeatures {
    /// What values and buffers of `element_type` need.
    pub fn for_element_type(element_type: PrimType) -> KernelFeatures {
        let mut features = KernelFeatures::default();
        match element_type {
            PrimType::I8 | PrimType::U8 | PrimType::Bool => {
                features.int8 = true;
                features.storage_buffer_8bit = true;
            }
            PrimType::I16 | PrimType::U16 => {
                features.int16 = true;
                features.storage_buffer_16bit = true;
            }
            PrimType::I64 | PrimType::U64 => features.int64 = true,
            PrimType::F64 => features.float64 = true,
            PrimType::I32 | PrimType::U32 | PrimType::F32 => {}
        }
        features
    }

    /// What values and buffers of every type in `element_types` need.
    pub fn for_element_types<'a>(
        element_types: impl IntoIterator<Item = &'a PrimType>,
    ) -> KernelFeatures {
        element_types
            .into_iter()
            .fold(KernelFeatures::default(), |features, element_type| {
                features.union(KernelFeatures::for_element_type(*element_type))
            })
    }

    /// Both sets of needs.
    pub fn union(self, other: KernelFeatures) -> KernelFeatures {
        KernelFeatures {
            int8: self.int8 || other.int8,
            int16: self.int16 || other.int16,
            int64: self.int64 || other.int64,
            float64: self.float64 || other.float64,
            storage_buffer_8bit: self.storage_buffer_8bit || other.storage_buffer_8bit,
            storage_buffer_16bit: self.storage_buffer_16bit || other.storage_buffer_16bit,
            subgroup_arithmetic: self.subgroup_arithmetic || other.subgroup_arithmetic,
        }
    }

    /// The Vulkan names of the needed features the device lacks.
    pub fn missing_on(self, device: ShaderFeatureSupport) -> Vec<&'static str> {
        let mut missing = Vec::new();
        let needs = [
            (self.int8, device.int8, "shaderInt8"),
            (self.int16, device.int16, "shaderInt16"),
            (self.int64, device.int64, "shaderInt64"),
            (self.float64, device.float64, "shaderFloat64"),
            (
                self.storage_buffer_8bit,
                device.storage_buffer_8bit,
                "storageBuffer8BitAccess",
            ),
            (
                self.storage_buffer_16bit,
                device.storage_buffer_16bit,
                "storageBuffer16BitAccess",
            ),
            (
                self.subgroup_arithmetic,
                device.subgroup_arithmetic,
                "subgroup arithmetic in compute shaders",
            ),
        ];
        for (needed, supported, name) in needs {
            if needed && !supported {
                missing.push(name);
            }
        }
        missing
    }

    /// An [`GpuError::Unsupported`] naming `kernel_name` and what the device
    /// lacks, if it lacks anything.
    pub fn check_supported(self, kernel_name: &str, device: ShaderFeatureSupport) -> GpuResult<()> {
        let missing = self.missing_on(device);
        if missing.is_empty() {
            Ok(())
        } else {
            Err(GpuError::Unsupported {
                what: format!(
                    "kernel `{kernel_name}` needs {}, which the device does not support",
                    missing.join(", ")
                ),
            })
        }
    }

    /// The GLSL `#extension` lines these needs take.
    pub fn glsl_extensions(self) -> String {
        let mut lines = String::new();
        if self.int8 || self.storage_buffer_8bit {
            lines.push_str("#extension GL_EXT_shader_8bit_storage : require\n");
            lines.push_str("#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n");
        }
        if self.int16 || self.storage_buffer_16bit {
            lines.push_str("#extension GL_EXT_shader_16bit_storage : require\n");
            lines.push_str("#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n");
        }
        if self.int64 {
            lines.push_str("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n");
        }
        if self.subgroup_arithmetic {
            lines.push_str("#extension GL_KHR_shader_subgroup_basic : require\n");
            lines.push_str("#extension GL_KHR_shader_subgroup_arithmetic : require\n");
        }
        lines
    }
}

/// A host array of one element type (one component of a tuple array).
#[derive(Clone, Debug, PartialEq)]
pub enum HostColumn {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
}

macro_rules! for_each_numeric_column {
    ($column:expr, $values:ident => $body:expr) => {
        match $column {
            HostColumn::I8($values) => $body,
            HostColumn::I16($values) => $body,
            HostColumn::I32($values) => $body,
            HostColumn::I64($values) => $body,
            HostColumn::U8($values) => $body,
            HostColumn::U16($values) => $body,
            HostColumn::U32($values) => $body,
            HostColumn::U64($values) => $body,
            HostColumn::F32($values) => $body,
            HostColumn::F64($values) => $body,
            HostColumn::Bool(_) => unreachable!("booleans are handled separately"),
        }
    };
}

impl HostColumn {
    /// The element type.
    pub fn element_type(&self) -> PrimType {
        match self {
            HostColumn::I8(_) => PrimType::I8,
            HostColumn::I16(_) => PrimType::I16,
            HostColumn::I32(_) => PrimType::I32,
            HostColumn::I64(_) => PrimType::I64,
            HostColumn::U8(_) => PrimType::U8,
            HostColumn::U16(_) => PrimType::U16,
            HostColumn::U32(_) => PrimType::U32,
            HostColumn::U64(_) => PrimType::U64,
            HostColumn::F32(_) => PrimType::F32,
            HostColumn::F64(_) => PrimType::F64,
            HostColumn::Bool(_) => PrimType::Bool,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            HostColumn::Bool(values) => values.len(),
            other => for_each_numeric_column!(other, values => values.len()),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The little-endian buffer bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            HostColumn::Bool(values) => values.iter().map(|value| u8::from(*value)).collect(),
            other => for_each_numeric_column!(other, values => values
                .iter()
                .flat_map(|value| value.to_le_bytes())
                .collect()),
        }
    }

    /// The column of `element_type` whose buffer bytes are `bytes`.
    pub fn from_bytes(element_type: PrimType, bytes: &[u8]) -> HostColumn {
        macro_rules! decode {
            ($variant:ident, $primitive:ty) => {
                HostColumn::$variant(
                    bytes
                        .chunks_exact(std::mem::size_of::<$primitive>())
                        .map(|chunk| {
                            let mut array = [0u8; std::mem::size_of::<$primitive>()];
                            array.copy_from_slice(chunk);
                            <$primitive>::from_le_bytes(array)
                        })
                        .collect(),
                )
            };
        }
        match element_type {
            PrimType::I8 => decode!(I8, i8),
            PrimType::I16 => decode!(I16, i16),
            PrimType::I32 => decode!(I32, i32),
            PrimType::I64 => decode!(I64, i64),
            PrimType::U8 => decode!(U8, u8),
            PrimType::U16 => decode!(U16, u16),
            PrimType::U32 => decode!(U32, u32),
            PrimType::U64 => decode!(U64, u64),
            PrimType::F32 => decode!(F32, f32),
            PrimType::F64 => decode!(F64, f64),
            PrimType::Bool => HostColumn::Bool(bytes.iter().map(|byte| *byte != 0).collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_columns_round_trip_through_buffer_bytes() {
        let columns = [
            HostColumn::I8(vec![-128, 0, 127]),
            HostColumn::U16(vec![0, 65_535]),
            HostColumn::I64(vec![i64::MIN, 1]),
            HostColumn::F64(vec![-0.5, 1e300]),
            HostColumn::Bool(vec![true, false]),
        ];
        for column in columns {
            let bytes = column.to_bytes();
            assert_eq!(
                bytes.len() as u64,
                column.len() as u64 * column.element_type().buffer_bytes()
            );
            assert_eq!(
                HostColumn::from_bytes(column.element_type(), &bytes),
                column
            );
        }
    }

    #[test]
    fn features_follow_the_element_types() {
        let features = KernelFeatures::for_element_types(&[PrimType::U8, PrimType::F64]);
        assert!(features.int8 && features.storage_buffer_8bit && features.float64);
        assert!(!features.int64 && !features.int16);
        let device = ShaderFeatureSupport {
            int8: true,
            storage_buffer_8bit: true,
            ..ShaderFeatureSupport::default()
        };
        assert_eq!(features.missing_on(device), vec!["shaderFloat64"]);
        let error = features
            .check_supported("reduce_f64", device)
            .expect_err("float64 is missing");
        assert!(error.to_string().contains("shaderFloat64"), "{error}");
    }
}
