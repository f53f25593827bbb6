//! A kernel's environment, descriptor set 1 (issue 27, deliverable 3): the
//! scalars its lambdas read from the enclosing scope, and the status word
//! an operation that fails sets.
//!
//! * binding 0, `environment_scalars.words`: scalar `k` in words `2k`
//!   (low) and `2k + 1` (high) of its 64-bit two's-complement or IEEE
//!   pattern, whatever its type, so reading one needs no 8-, 16- or 64-bit
//!   storage feature. The values are bound when the kernel runs: one
//!   pipeline serves every value (no kernel is compiled per value).
//! * binding 1, `environment_status.failed`: 0 until an operation that
//!   fails on the host (an integer division by zero, an integer power with
//!   a negative exponent, a false assertion, an index out of bounds) runs
//!   in the kernel; it then
//!   stores 1 and computes on with a stand-in value. The driver reads the
//!   word after a fallible operation and, where it is set, hands the
//!   statement back to the host, which reports the error with its message
//!   and source location (`gpu/NOTES.md`, "Whole programs").
//! * bindings 2, 3, …, `environment_array{j}`: the arrays of primitives
//!   the lambdas index, read-only, row-major; their dimensions are `i64`
//!   scalars after the scalars, array by array, outermost first.
//!
//! Every snippet that reads the environment prints
//! [`EnvironmentLayout::glsl_declarations`] of its SOAC's one layout,
//! guarded so that a kernel holding a map lambda and an operator declares
//! it once.

use super::element::{GlslElement, PrimType};
use crate::error::GpuResult;
use crate::runtime::{DeviceBuffer, EnvironmentBuffers, Runtime};
use optimized::ir::PrimValue;

/// What a SOAC's kernels find in their environment: the types of its
/// scalars, and of its arrays' elements with their ranks, in binding order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvironmentLayout {
    pub scalar_types: Vec<PrimType>,
    pub array_types: Vec<(PrimType, usize)>,
}

impl EnvironmentLayout {
    /// The GLSL declarations of the environment's buffers (guarded by the
    /// preprocessor: printing them twice declares them once).
    pub fn glsl_declarations(&self) -> String {
        let declaration = super::ENVIRONMENT_DECLARATION;
        let arrays: String = self
            .array_types
            .iter()
            .enumerate()
            .map(|(position, (element_type, _))| {
                format!(
                    "layout(std430, {declaration}{}) readonly buffer EnvironmentArray{position} \
                     {{ {} environment_array{position}[]; }};\n",
                    position + 2,
                    element_type.glsl_storage_type()
                )
            })
            .collect();
        format!(
            "\n#ifndef RUNESTONE_ENVIRONMENT\n#define RUNESTONE_ENVIRONMENT\n\
             layout(std430, {declaration}0) readonly buffer EnvironmentScalars {{ uint words[]; }} environment_scalars;\n\
             layout(std430, {declaration}1) buffer EnvironmentStatus {{ uint failed; }} environment_status;\n\
             {arrays}#endif\n"
        )
    }

    /// Dimension `dimension` of array `position`, an `i64` expression.
    pub fn array_dimension_expression(&self, position: usize, dimension: usize) -> String {
        let earlier: usize = self.array_types[..position]
            .iter()
            .map(|(_, rank)| rank)
            .sum();
        scalar_expression(self.scalar_types.len() + earlier + dimension, PrimType::I64)
    }

    /// The element of array `position` at `flat_index` (an `i64` GLSL
    /// expression the caller checked to be in bounds, row-major), as a
    /// value.
    pub fn array_element_expression(&self, position: usize, flat_index: &str) -> String {
        self.array_types[position]
            .0
            .glsl_load(&format!("environment_array{position}[uint({flat_index})]"))
    }
}

/// The statement a failing operation runs.
pub const FAIL_STATEMENT: &str = "environment_status.failed = 1u;";

/// The GLSL expression of scalar `position` of the environment, of
/// `prim_type`.
pub fn scalar_expression(position: usize, prim_type: PrimType) -> String {
    let low = format!("environment_scalars.words[{}]", 2 * position);
    let high = format!("environment_scalars.words[{}]", 2 * position + 1);
    let wide = format!("(uint64_t({low}) | (uint64_t({high}) << 32))");
    match prim_type {
        PrimType::I8 => format!("int8_t(int({low}))"),
        PrimType::I16 => format!("int16_t(int({low}))"),
        PrimType::I32 => format!("int({low})"),
        PrimType::U8 => format!("uint8_t({low})"),
        PrimType::U16 => format!("uint16_t({low})"),
        PrimType::U32 => low,
        PrimType::I64 => format!("int64_t{wide}"),
        PrimType::U64 => wide,
        PrimType::F32 => format!("uintBitsToFloat({low})"),
        PrimType::F64 => format!("packDouble2x32(uvec2({low}, {high}))"),
        PrimType::Bool => format!("({low} != 0u)"),
    }
}

/// The bytes of binding 0 for `values` (at least one word pair: a buffer
/// is never empty).
pub fn scalar_bytes(values: &[PrimValue]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8 * values.len().max(1));
    for value in values {
        let pattern: u64 = match *value {
            PrimValue::I8(x) => i64::from(x) as u64,
            PrimValue::I16(x) => i64::from(x) as u64,
            PrimValue::I32(x) => i64::from(x) as u64,
            PrimValue::I64(x) => x as u64,
            PrimValue::U8(x) => u64::from(x),
            PrimValue::U16(x) => u64::from(x),
            PrimValue::U32(x) => u64::from(x),
            PrimValue::U64(x) => x,
            PrimValue::F32(x) => u64::from(x.to_bits()),
            PrimValue::F64(x) => x.to_bits(),
            PrimValue::Bool(x) => u64::from(x),
        };
        bytes.extend_from_slice(&pattern.to_le_bytes());
    }
    if bytes.is_empty() {
        bytes.extend_from_slice(&[0; 8]);
    }
    bytes
}

/// The environment of the scalars `values` and of `arrays` (each a buffer,
/// already on the device, and its shape), with a cleared status word.
pub fn upload(
    runtime: &Runtime,
    values: &[PrimValue],
    arrays: Vec<(DeviceBuffer, Vec<usize>)>,
) -> GpuResult<EnvironmentBuffers> {
    let mut words = values.to_vec();
    for (_, shape) in &arrays {
        words.extend(shape.iter().map(|size| PrimValue::I64(*size as i64)));
    }
    Ok(EnvironmentBuffers {
        scalars: runtime.upload_bytes(&scalar_bytes(&words))?,
        status: runtime.upload_bytes(&[0; 4])?,
        arrays: arrays.into_iter().map(|(buffer, _)| buffer).collect(),
    })
}

/// Whether an operation that fails ran since `environment` was uploaded.
pub fn failed(runtime: &Runtime, environment: &EnvironmentBuffers) -> GpuResult<bool> {
    let word = runtime.download_bytes(&environment.status)?;
    Ok(word.iter().any(|byte| *byte != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scalar_is_a_sign_or_zero_extended_word_pair() {
        let bytes = scalar_bytes(&[
            PrimValue::I8(-2),
            PrimValue::U16(65535),
            PrimValue::F32(1.5),
            PrimValue::Bool(true),
        ]);
        let words: Vec<u64> = bytes
            .chunks(8)
            .map(|chunk| u64::from_le_bytes(chunk.try_into().unwrap()))
            .collect();
        assert_eq!(
            words,
            vec![u64::MAX - 1, 65535, u64::from(1.5f32.to_bits()), 1]
        );
        assert_eq!(scalar_bytes(&[]), vec![0; 8]);
    }

    #[test]
    fn the_declarations_are_guarded_and_in_set_one() {
        let layout = EnvironmentLayout {
            scalar_types: vec![PrimType::F32],
            array_types: vec![(PrimType::Bool, 2), (PrimType::I64, 1)],
        };
        let text = layout.glsl_declarations();
        assert!(text.starts_with("\n#ifndef RUNESTONE_ENVIRONMENT\n"));
        assert_eq!(
            text.matches(super::super::ENVIRONMENT_DECLARATION).count(),
            4
        );
        assert!(text.contains("binding = 2) readonly buffer EnvironmentArray0 { uint8_t"));
        assert!(text.contains("binding = 3) readonly buffer EnvironmentArray1 { int64_t"));
        // The scalar, then the boolean array's two dimensions.
        assert_eq!(
            layout.array_dimension_expression(1, 0),
            scalar_expression(3, PrimType::I64)
        );
    }
}
