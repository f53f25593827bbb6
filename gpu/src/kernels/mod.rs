//! Hand-written kernels that prove the toolchain end to end (GLSL → shaderc →
//! SPIR-V → vulkano → device) until kernels are generated from the SOAC IR.
//!
//! * [`map`]: a grid-stride `map (\x -> x*2+1)`;
//! * [`reduce`]: a two-pass workgroup sum with subgroup operations and shared
//!   memory that never assumes the subgroup size.
//!
//! Each kernel is a GLSL template instantiated per element type; the SPIR-V
//! of each instance is compiled once per process.

pub mod map;
pub mod reduce;

use crate::compile::compile_compute_shader;
use crate::error::GpuResult;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The element types the demonstration kernels are instantiated at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DemoElementType {
    U32,
    F32,
}

impl DemoElementType {
    /// Every instantiated type.
    pub const ALL: [DemoElementType; 2] = [DemoElementType::U32, DemoElementType::F32];

    /// The GLSL type name.
    pub fn glsl_name(self) -> &'static str {
        match self {
            DemoElementType::U32 => "uint",
            DemoElementType::F32 => "float",
        }
    }

    /// The suffix of kernel names (`u32`, `f32`).
    pub fn short_name(self) -> &'static str {
        match self {
            DemoElementType::U32 => "u32",
            DemoElementType::F32 => "f32",
        }
    }
}

/// A kernel's name and GLSL source.
#[derive(Clone, Debug)]
pub struct KernelSource {
    pub name: String,
    pub glsl: String,
}

/// Every demonstration kernel at every element type (what the `spirv-val`
/// test validates).
pub fn all_demo_kernel_sources() -> Vec<KernelSource> {
    let mut sources = Vec::new();
    for element_type in DemoElementType::ALL {
        sources.push(map::map_times_two_plus_one_source(element_type));
        sources.push(reduce::reduce_sum_source(element_type));
    }
    sources
}

/// The SPIR-V of `source`, compiled once per process.
pub fn compiled_spirv(source: &KernelSource) -> GpuResult<Arc<Vec<u32>>> {
    static COMPILED_BY_SOURCE: OnceLock<Mutex<HashMap<String, Arc<Vec<u32>>>>> = OnceLock::new();
    let cache = COMPILED_BY_SOURCE.get_or_init(|| Mutex::new(HashMap::new()));
    let lookup = |cache: &Mutex<HashMap<String, Arc<Vec<u32>>>>| match cache.lock() {
        Ok(map) => map.get(&source.glsl).cloned(),
        Err(poisoned) => poisoned.into_inner().get(&source.glsl).cloned(),
    };
    if let Some(words) = lookup(cache) {
        return Ok(words);
    }
    let words = Arc::new(compile_compute_shader(&source.name, &source.glsl)?);
    match cache.lock() {
        Ok(mut map) => map.insert(source.glsl.clone(), words.clone()),
        Err(poisoned) => poisoned
            .into_inner()
            .insert(source.glsl.clone(), words.clone()),
    };
    Ok(words)
}

/// How many workgroups of `workgroup_size` cover `element_count` elements,
/// at least one and at most `maximum_workgroups` (grid-stride loops cover the
/// rest).
pub fn grid_stride_workgroup_count(
    element_count: u64,
    workgroup_size: u32,
    maximum_workgroups: u32,
) -> u32 {
    let needed = element_count.div_ceil(u64::from(workgroup_size)).max(1);
    needed.min(u64::from(maximum_workgroups.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workgroup_counts_are_clamped_to_the_device_limit() {
        assert_eq!(grid_stride_workgroup_count(0, 64, 65_535), 1);
        assert_eq!(grid_stride_workgroup_count(65, 64, 65_535), 2);
        assert_eq!(
            grid_stride_workgroup_count(65_535 * 64 + 3, 64, 65_535),
            65_535
        );
    }
}
