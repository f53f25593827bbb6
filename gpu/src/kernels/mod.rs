//! Kernels: the generated SOAC kernel library and the first hand-written
//! demonstration kernels.
//!
//! * [`element`], [`lambda`], [`soac`]: kernels generated from element types
//!   and GLSL lambdas (map, reduce, scan, filter, scatter, histogram,
//!   segmented operations) — what the IR → GPU code generator targets;
//! * [`environment`]: descriptor set 1, the scalars lambdas read from the
//!   enclosing scope and the status word a failing operation sets;
//! * [`map`]: a hand-written grid-stride `map (\x -> x*2+1)`;
//! * [`reduce`]: a hand-written two-pass workgroup sum with subgroup
//!   operations and shared memory that never assumes the subgroup size.
//!
//! Each kernel is a GLSL template instantiated per element type; the SPIR-V
//! of each instance is compiled once, and kept in a process-wide cache of
//! the [`COMPILED_MODULE_CAPACITY`] most recently used modules.

pub mod element;
pub mod environment;
pub mod lambda;
pub mod map;
pub mod reduce;
pub mod soac;

use crate::bounded_cache::BoundedCache;
use crate::compile::compile_compute_shader;
use crate::error::GpuResult;
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

/// How a generated kernel declares a storage buffer of its own (set 0).
const BINDING_DECLARATION: &str = "set = 0, binding = ";

/// How a generated kernel declares its environment's buffers (set 1,
/// [`environment`]).
pub const ENVIRONMENT_DECLARATION: &str = "set = 1, binding = ";

impl KernelSource {
    /// The kernel's interface: its set-0 buffers and whether it declares
    /// an environment.
    pub fn binding_interface(&self) -> crate::runtime::BindingInterface {
        crate::runtime::BindingInterface {
            storage_buffer_count: self.storage_buffer_count(),
            environment_buffer_count: self.highest_binding_after(ENVIRONMENT_DECLARATION),
        }
    }

    /// How many storage buffers the kernel declares (its highest binding in
    /// set 0, plus one): the buffers a launch passes, in binding order. The
    /// compiled module may use fewer (the optimiser removes a buffer the
    /// kernel never reads, e.g. the input of a map lambda that ignores its
    /// argument), so the runtime takes the count from here, not from the
    /// module.
    pub fn storage_buffer_count(&self) -> u32 {
        self.highest_binding_after(BINDING_DECLARATION)
    }

    /// One more than the highest binding number after `declaration` in the
    /// GLSL (0 when there is none).
    fn highest_binding_after(&self, declaration: &str) -> u32 {
        self.glsl
            .match_indices(declaration)
            .filter_map(|(position, _)| {
                let digits: String = self.glsl[position + declaration.len()..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                digits.parse::<u32>().ok()
            })
            .map(|binding| binding + 1)
            .max()
            .unwrap_or(0)
    }
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

/// A compiled module: its kernel name and SPIR-V.
pub type CompiledModule = (String, Arc<Vec<u32>>);

/// How many compiled modules the process keeps (by GLSL source): more
/// than a test binary or one program compiles, few enough that a process
/// compiling new kernels for hours (a GPU fuzz campaign) stays bounded.
pub const COMPILED_MODULE_CAPACITY: usize = 2048;

fn compiled_modules_by_source(
) -> std::sync::MutexGuard<'static, BoundedCache<String, CompiledModule>> {
    static COMPILED_BY_SOURCE: OnceLock<Mutex<BoundedCache<String, CompiledModule>>> =
        OnceLock::new();
    let cache =
        COMPILED_BY_SOURCE.get_or_init(|| Mutex::new(BoundedCache::new(COMPILED_MODULE_CAPACITY)));
    match cache.lock() {
        Ok(map) => map,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// The SPIR-V of `source`, compiled once while the process's cache of the
/// [`COMPILED_MODULE_CAPACITY`] most recently used modules holds it
/// (recorded for [`modules_used_by`] on this thread).
pub fn compiled_spirv(source: &KernelSource) -> GpuResult<Arc<Vec<u32>>> {
    let cached = compiled_modules_by_source()
        .get(source.glsl.as_str())
        .map(|(_, words)| words.clone());
    let words = match cached {
        Some(words) => words,
        None => {
            let words = Arc::new(compile_compute_shader(&source.name, &source.glsl)?);
            compiled_modules_by_source()
                .get_or_insert_with(source.glsl.clone(), || (source.name.clone(), words.clone()));
            words
        }
    };
    MODULES_USED.with(|used| {
        if let Some(used) = used.borrow_mut().as_mut() {
            used.push((source.name.clone(), words.clone()));
        }
    });
    Ok(words)
}

thread_local! {
    /// The modules [`compiled_spirv`] handed out on this thread while
    /// [`modules_used_by`] records (`None`: not recording).
    static MODULES_USED: std::cell::RefCell<Option<Vec<CompiledModule>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `work` and returns, with its result, every module (kernel name,
/// SPIR-V) that [`compiled_spirv`] handed out on this thread meanwhile,
/// compiled then or cached (once each, in first-use order): the modules a
/// run on this thread loaded. The GPU fuzz oracle validates exactly these
/// per program, so a module `spirv-val` rejects blames every program that
/// uses it, and only those.
pub fn modules_used_by<T>(work: impl FnOnce() -> T) -> (T, Vec<CompiledModule>) {
    let outer = MODULES_USED.with(|used| used.borrow_mut().replace(Vec::new()));
    let result = work();
    let mut recorded = MODULES_USED
        .with(|used| std::mem::replace(&mut *used.borrow_mut(), outer))
        .unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    recorded.retain(|(_, words)| seen.insert(Arc::as_ptr(words)));
    MODULES_USED.with(|used| {
        if let Some(outer) = used.borrow_mut().as_mut() {
            outer.extend(recorded.iter().cloned());
        }
    });
    (result, recorded)
}

/// Every module the process's cache holds, as (kernel name, SPIR-V): every
/// module it has compiled while [`compiled_modules_evicted`] is 0 (what the
/// tests run `spirv-val` on).
pub fn all_compiled_modules() -> Vec<(String, Arc<Vec<u32>>)> {
    compiled_modules_by_source().values().cloned().collect()
}

/// How many compiled modules the process's cache has forgotten to make
/// room (beyond [`COMPILED_MODULE_CAPACITY`]).
pub fn compiled_modules_evicted() -> u64 {
    compiled_modules_by_source().evictions()
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

    fn check_storage_buffer_count(glsl: &str, expected: u32) {
        let source = KernelSource {
            name: "probe".to_owned(),
            glsl: glsl.to_owned(),
        };
        assert_eq!(source.storage_buffer_count(), expected, "{glsl}");
    }

    #[test]
    fn the_declared_storage_buffers_are_counted_from_the_glsl() {
        check_storage_buffer_count("void main() {}", 0);
        check_storage_buffer_count(
            "layout(std430, set = 0, binding = 0) readonly buffer A { int a[]; };\n\
             layout(std430, set = 0, binding = 1) writeonly buffer B { int b[]; };",
            2,
        );
        // The highest binding counts, whatever the order of declarations.
        check_storage_buffer_count(
            "layout(std430, set = 0, binding = 2) buffer C { int c[]; };\n\
             layout(std430, set = 0, binding = 0) buffer A { int a[]; };",
            3,
        );
        check_storage_buffer_count(
            &map::map_times_two_plus_one_source(DemoElementType::U32).glsl,
            2,
        );
    }

    #[test]
    fn the_modules_a_run_uses_are_recorded_once_each_on_its_thread() {
        let (u32_source, f32_source) = (
            map::map_times_two_plus_one_source(DemoElementType::U32),
            map::map_times_two_plus_one_source(DemoElementType::F32),
        );
        // Compiled before recording: a cached module counts as used too.
        compiled_spirv(&u32_source).expect("compiles");
        let (inner, outer) = modules_used_by(|| {
            compiled_spirv(&u32_source).expect("compiles");
            let ((), inner) = modules_used_by(|| {
                compiled_spirv(&f32_source).expect("compiles");
                compiled_spirv(&f32_source).expect("compiles");
            });
            // Another thread's modules are not this thread's.
            std::thread::spawn(move || {
                compiled_spirv(&map::map_times_two_plus_one_source(DemoElementType::U32))
            })
            .join()
            .expect("joins")
            .expect("compiles");
            inner
        });
        let names = |modules: &[CompiledModule]| -> Vec<String> {
            modules.iter().map(|(name, _)| name.clone()).collect()
        };
        assert_eq!(names(&inner), vec![f32_source.name.clone()]);
        assert_eq!(names(&outer), vec![u32_source.name, f32_source.name]);
        let ((), nothing) = modules_used_by(|| {});
        assert!(nothing.is_empty());
    }

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
