//! Element types of generated kernels (every Futhark primitive type: i8..u64,
//! f32, f64, bool), their GLSL spelling in buffers and in registers, the
//! device features each needs, and host columns of values.
//!
//! Tuples are structures of arrays: a tuple-typed array is one buffer per
//! component (`Vec<ElementType>` in the kernel specifications).

use crate::error::{GpuError, GpuResult};
use crate::runtime::device_choice::ShaderFeatureSupport;

/// A primitive element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    /// Stored as one byte (0 or 1) in buffers, `bool` in registers.
    Bool,
}

impl ElementType {
    /// Every element type.
    pub const ALL: [ElementType; 11] = [
        ElementType::I8,
        ElementType::I16,
        ElementType::I32,
        ElementType::I64,
        ElementType::U8,
        ElementType::U16,
        ElementType::U32,
        ElementType::U64,
        ElementType::F32,
        ElementType::F64,
        ElementType::Bool,
    ];

    /// The Futhark name (`i8`, `f64`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            ElementType::I8 => "i8",
            ElementType::I16 => "i16",
            ElementType::I32 => "i32",
            ElementType::I64 => "i64",
            ElementType::U8 => "u8",
            ElementType::U16 => "u16",
            ElementType::U32 => "u32",
            ElementType::U64 => "u64",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
            ElementType::Bool => "bool",
        }
    }

    /// Bytes per element in a buffer.
    pub fn byte_size(self) -> u64 {
        match self {
            ElementType::I8 | ElementType::U8 | ElementType::Bool => 1,
            ElementType::I16 | ElementType::U16 => 2,
            ElementType::I32 | ElementType::U32 | ElementType::F32 => 4,
            ElementType::I64 | ElementType::U64 | ElementType::F64 => 8,
        }
    }

    /// The GLSL type of a value in registers and shared memory.
    pub fn glsl_value_type(self) -> &'static str {
        match self {
            ElementType::I8 => "int8_t",
            ElementType::I16 => "int16_t",
            ElementType::I32 => "int",
            ElementType::I64 => "int64_t",
            ElementType::U8 => "uint8_t",
            ElementType::U16 => "uint16_t",
            ElementType::U32 => "uint",
            ElementType::U64 => "uint64_t",
            ElementType::F32 => "float",
            ElementType::F64 => "double",
            ElementType::Bool => "bool",
        }
    }

    /// The GLSL type of an element in a `std430` buffer.
    pub fn glsl_storage_type(self) -> &'static str {
        match self {
            ElementType::Bool => "uint8_t",
            other => other.glsl_value_type(),
        }
    }

    /// `stored` (an expression of the storage type) as a value.
    pub fn glsl_load(self, stored: &str) -> String {
        match self {
            ElementType::Bool => format!("({stored} != uint8_t(0))"),
            _ => stored.to_owned(),
        }
    }

    /// `value` (an expression of the value type) as a storage value.
    pub fn glsl_store(self, value: &str) -> String {
        match self {
            ElementType::Bool => format!("(({value}) ? uint8_t(1) : uint8_t(0))"),
            _ => value.to_owned(),
        }
    }

    /// Bytes a value takes in shared memory (booleans are 32-bit there).
    pub fn shared_byte_size(self) -> u64 {
        self.byte_size()
            .max(if self == ElementType::Bool { 4 } else { 1 })
    }

    /// Whether this is an integer type (bool excluded).
    pub fn is_integer(self) -> bool {
        !matches!(
            self,
            ElementType::F32 | ElementType::F64 | ElementType::Bool
        )
    }

    /// Whether this is a signed integer type.
    pub fn is_signed_integer(self) -> bool {
        matches!(
            self,
            ElementType::I8 | ElementType::I16 | ElementType::I32 | ElementType::I64
        )
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, ElementType::F32 | ElementType::F64)
    }
}

/// The optional device features a kernel needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    pub fn for_element_type(element_type: ElementType) -> KernelFeatures {
        let mut features = KernelFeatures::default();
        match element_type {
            ElementType::I8 | ElementType::U8 | ElementType::Bool => {
                features.int8 = true;
                features.storage_buffer_8bit = true;
            }
            ElementType::I16 | ElementType::U16 => {
                features.int16 = true;
                features.storage_buffer_16bit = true;
            }
            ElementType::I64 | ElementType::U64 => features.int64 = true,
            ElementType::F64 => features.float64 = true,
            ElementType::I32 | ElementType::U32 | ElementType::F32 => {}
        }
        features
    }

    /// What values and buffers of every type in `element_types` need.
    pub fn for_element_types<'a>(
        element_types: impl IntoIterator<Item = &'a ElementType>,
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
    pub fn element_type(&self) -> ElementType {
        match self {
            HostColumn::I8(_) => ElementType::I8,
            HostColumn::I16(_) => ElementType::I16,
            HostColumn::I32(_) => ElementType::I32,
            HostColumn::I64(_) => ElementType::I64,
            HostColumn::U8(_) => ElementType::U8,
            HostColumn::U16(_) => ElementType::U16,
            HostColumn::U32(_) => ElementType::U32,
            HostColumn::U64(_) => ElementType::U64,
            HostColumn::F32(_) => ElementType::F32,
            HostColumn::F64(_) => ElementType::F64,
            HostColumn::Bool(_) => ElementType::Bool,
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
    pub fn from_bytes(element_type: ElementType, bytes: &[u8]) -> HostColumn {
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
            ElementType::I8 => decode!(I8, i8),
            ElementType::I16 => decode!(I16, i16),
            ElementType::I32 => decode!(I32, i32),
            ElementType::I64 => decode!(I64, i64),
            ElementType::U8 => decode!(U8, u8),
            ElementType::U16 => decode!(U16, u16),
            ElementType::U32 => decode!(U32, u32),
            ElementType::U64 => decode!(U64, u64),
            ElementType::F32 => decode!(F32, f32),
            ElementType::F64 => decode!(F64, f64),
            ElementType::Bool => HostColumn::Bool(bytes.iter().map(|byte| *byte != 0).collect()),
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
                column.len() as u64 * column.element_type().byte_size()
            );
            assert_eq!(
                HostColumn::from_bytes(column.element_type(), &bytes),
                column
            );
        }
    }

    #[test]
    fn features_follow_the_element_types() {
        let features = KernelFeatures::for_element_types(&[ElementType::U8, ElementType::F64]);
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
