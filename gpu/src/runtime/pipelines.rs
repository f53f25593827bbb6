//! Compute pipelines, created once per SPIR-V module and reused.
//!
//! The cache is keyed by a hash of the SPIR-V words (and compares the words on
//! a hit, so a collision cannot hand back the wrong kernel). It holds the
//! [`PIPELINE_CACHE_CAPACITY`] most recently used modules' kernels
//! ([`BoundedCache`]): a kernel it forgets lives on while a caller holds it,
//! and is created again if it is loaded again.
//!
//! Every kernel that declares the same number of storage buffers shares
//! one pipeline layout (one descriptor-set layout): vulkano's descriptor
//! set allocator keeps a pool of 32 sets per set layout it ever allocated
//! from, for as long as the runtime lives, so a layout per kernel grew the
//! host memory of a long campaign with every kernel it created. Loading reflects
//! the module's interface: its storage-buffer bindings (set 0, bindings
//! 0..n) and its push-constant block, which [`Runtime::dispatch`] checks its
//! arguments against. The module only shows the buffers it uses (the
//! optimiser removes one the kernel never reads), so the caller gives the
//! number the kernel declares and the layout binds every one of them: a
//! launch passes its buffers in the declared order whether or not the
//! kernel reads each.

use super::Runtime;
use crate::bounded_cache::BoundedCache;
use crate::error::{from_validated_vulkan_error, GpuError, GpuResult};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use vulkano::descriptor_set::layout::{
    DescriptorSetLayout, DescriptorSetLayoutBinding, DescriptorSetLayoutCreateInfo, DescriptorType,
};
use vulkano::pipeline::compute::ComputePipelineCreateInfo;
use vulkano::pipeline::layout::{
    PipelineDescriptorSetLayoutCreateInfo, PipelineLayoutCreateInfo, PushConstantRange,
};
use vulkano::pipeline::{ComputePipeline, PipelineLayout, PipelineShaderStageCreateInfo};
use vulkano::shader::{ShaderModule, ShaderModuleCreateInfo, ShaderStages};

/// A loaded compute kernel.
#[derive(Debug)]
pub struct ComputeKernel {
    /// The name used in diagnostics.
    pub name: String,
    pub(crate) pipeline: Arc<ComputePipeline>,
    /// How many storage buffers it binds (set 0, bindings 0..n), used or
    /// not.
    pub storage_buffer_count: u32,
    /// How many storage buffers of its lambdas' environment it declares
    /// (set 1, bindings 0..n: none, or at least
    /// [`MINIMUM_ENVIRONMENT_BUFFER_COUNT`]; see
    /// [`super::EnvironmentBuffers`]).
    pub environment_buffer_count: u32,
    /// The bytes of push constants its code reads (from offset 0): a launch
    /// must give at least these, and at most [`PUSH_CONSTANT_RANGE_BYTES`].
    pub push_constant_bytes: u32,
}

/// The push-constant range every kernel's layout declares. A kernel may
/// read fewer bytes than its GLSL block declares (the optimiser drops
/// unused members, e.g. the element count of a filter whose predicate is
/// constant), so the layout covers what any launch gives, not what the
/// module reads; 128 bytes is the Vulkan minimum of
/// `maxPushConstantsSize`.
pub const PUSH_CONSTANT_RANGE_BYTES: u32 = 128;

/// The fewest storage buffers of descriptor set 1, a kernel's environment,
/// where it declares one: the scalars its lambdas read from the enclosing
/// scope (binding 0) and the status word an operation that fails sets
/// (binding 1); the arrays they read follow.
pub const MINIMUM_ENVIRONMENT_BUFFER_COUNT: u32 = 2;

/// The interface of a kernel's pipeline layout: the storage buffers of set
/// 0 and of set 1 (the environment; 0 where none is declared).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BindingInterface {
    pub storage_buffer_count: u32,
    pub environment_buffer_count: u32,
}

impl BindingInterface {
    /// The storage buffers of each descriptor set the layout declares.
    fn set_buffer_counts(self) -> Vec<u32> {
        if self.environment_buffer_count > 0 {
            vec![self.storage_buffer_count, self.environment_buffer_count]
        } else if self.storage_buffer_count > 0 {
            vec![self.storage_buffer_count]
        } else {
            Vec::new()
        }
    }
}

/// A cached kernel with the SPIR-V it was made from and the buffers it
/// declares (compared on a hit).
struct CachedKernel {
    spirv_words: Vec<u32>,
    interface: BindingInterface,
    kernel: Arc<ComputeKernel>,
}

/// How many SPIR-V modules' kernels the pipeline cache keeps: more than
/// any one program of the test corpus loads (each of its SOAC statements
/// is a kernel or two), few enough that a process creating new kernels
/// for hours (a GPU fuzz campaign: about 0.5 MB of host memory per kernel
/// on lavapipe) stays bounded.
pub const PIPELINE_CACHE_CAPACITY: usize = 256;

/// Kernels by SPIR-V hash, the most recently used ones, and the pipeline
/// layouts they share.
pub struct PipelineCache {
    kernels_by_hash: BoundedCache<u64, Vec<CachedKernel>>,
    /// The one layout of the kernels of each interface (a few dozen at
    /// most, never evicted).
    layouts_by_interface: HashMap<BindingInterface, Arc<PipelineLayout>>,
    hits: u64,
    misses: u64,
}

impl Default for PipelineCache {
    fn default() -> PipelineCache {
        PipelineCache {
            kernels_by_hash: BoundedCache::new(PIPELINE_CACHE_CAPACITY),
            layouts_by_interface: HashMap::new(),
            hits: 0,
            misses: 0,
        }
    }
}

/// What the pipeline cache did so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipelineCacheStatistics {
    pub hits: u64,
    pub misses: u64,
    /// Modules whose kernels it holds now (at most
    /// [`PIPELINE_CACHE_CAPACITY`]).
    pub modules_held: usize,
    /// Modules it forgot to make room.
    pub evictions: u64,
    /// Pipeline layouts created (one per [`BindingInterface`]).
    pub layouts: usize,
}

/// The cache key of a SPIR-V module.
pub fn spirv_hash(spirv_words: &[u32]) -> u64 {
    let mut hasher = DefaultHasher::new();
    spirv_words.hash(&mut hasher);
    hasher.finish()
}

impl Runtime {
    /// The compute kernel for `spirv_words` (entry point `main`) that
    /// declares `interface`'s storage buffers (set 0, bindings 0..n;
    /// [`crate::kernels::KernelSource::binding_interface`]), from the cache
    /// or created now.
    pub fn load_kernel(
        &self,
        name: &str,
        spirv_words: &[u32],
        interface: BindingInterface,
    ) -> GpuResult<Arc<ComputeKernel>> {
        self.ensure_usable()?;
        let hash = spirv_hash(spirv_words);
        {
            let mut cache = self.lock_pipeline_cache();
            let found = cache.kernels_by_hash.get(&hash).and_then(|entries| {
                entries
                    .iter()
                    .find(|cached| {
                        cached.spirv_words.as_slice() == spirv_words
                            && cached.interface == interface
                    })
                    .map(|cached| cached.kernel.clone())
            });
            if let Some(kernel) = found {
                cache.hits += 1;
                return Ok(kernel);
            }
            cache.misses += 1;
        }
        let kernel = Arc::new(self.create_kernel(name, spirv_words, interface)?);
        self.lock_pipeline_cache()
            .kernels_by_hash
            .get_or_insert_with(hash, Vec::new)
            .push(CachedKernel {
                spirv_words: spirv_words.to_vec(),
                interface,
                kernel: kernel.clone(),
            });
        Ok(kernel)
    }

    /// (hits, misses) of the pipeline cache.
    pub fn pipeline_cache_statistics(&self) -> (u64, u64) {
        let cache = self.lock_pipeline_cache();
        (cache.hits, cache.misses)
    }

    /// The pipeline cache's hits, misses, size and evictions.
    pub fn pipeline_cache_details(&self) -> PipelineCacheStatistics {
        let cache = self.lock_pipeline_cache();
        PipelineCacheStatistics {
            hits: cache.hits,
            misses: cache.misses,
            modules_held: cache.kernels_by_hash.len(),
            evictions: cache.kernels_by_hash.evictions(),
            layouts: cache.layouts_by_interface.len(),
        }
    }

    /// The pipeline layout of every kernel of `interface`: set 0 binds a
    /// storage buffer at each binding below its count, set 1 (where
    /// declared) the environment's buffers, all for the compute stage, and the push constants are
    /// [`PUSH_CONSTANT_RANGE_BYTES`] from offset 0. Created on first use.
    fn shared_layout(
        &self,
        interface: BindingInterface,
        operation: &str,
    ) -> GpuResult<Arc<PipelineLayout>> {
        if let Some(layout) = self
            .lock_pipeline_cache()
            .layouts_by_interface
            .get(&interface)
        {
            return Ok(layout.clone());
        }
        let mut set_layouts = Vec::new();
        for buffer_count in interface.set_buffer_counts() {
            let bindings = (0..buffer_count)
                .map(|binding| {
                    (
                        binding,
                        DescriptorSetLayoutBinding {
                            stages: ShaderStages::COMPUTE,
                            ..DescriptorSetLayoutBinding::descriptor_type(
                                DescriptorType::StorageBuffer,
                            )
                        },
                    )
                })
                .collect();
            let set = DescriptorSetLayout::new(
                self.device.clone(),
                DescriptorSetLayoutCreateInfo {
                    bindings,
                    ..Default::default()
                },
            )
            .map_err(|error| from_validated_vulkan_error(operation, error))?;
            set_layouts.push(set);
        }
        let layout = PipelineLayout::new(
            self.device.clone(),
            PipelineLayoutCreateInfo {
                set_layouts,
                push_constant_ranges: vec![PushConstantRange {
                    stages: ShaderStages::COMPUTE,
                    offset: 0,
                    size: PUSH_CONSTANT_RANGE_BYTES,
                }],
                ..Default::default()
            },
        )
        .map_err(|error| from_validated_vulkan_error(operation, error))?;
        Ok(self
            .lock_pipeline_cache()
            .layouts_by_interface
            .entry(interface)
            .or_insert(layout)
            .clone())
    }

    fn lock_pipeline_cache(&self) -> std::sync::MutexGuard<'_, PipelineCache> {
        match self.pipeline_cache.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn create_kernel(
        &self,
        name: &str,
        spirv_words: &[u32],
        interface: BindingInterface,
    ) -> GpuResult<ComputeKernel> {
        let operation = format!("loading kernel `{name}`");
        // SAFETY: the words come from shaderc (and every generated module
        // passes spirv-val in the tests); vulkano still reflects and checks
        // the module's capabilities against the enabled features.
        let module = unsafe {
            ShaderModule::new(
                self.device.clone(),
                ShaderModuleCreateInfo::new(spirv_words),
            )
        }
        .map_err(|error| from_validated_vulkan_error(&operation, error))?;
        let entry_point = module.entry_point("main").ok_or_else(|| GpuError::Vulkan {
            operation: operation.clone(),
            detail: "the module has no entry point `main`".to_owned(),
        })?;
        let stage = PipelineShaderStageCreateInfo::new(entry_point);
        let mut set_layouts = PipelineDescriptorSetLayoutCreateInfo::from_stages([&stage]);
        declare_every_storage_buffer(&mut set_layouts, interface).map_err(|detail| {
            GpuError::Vulkan {
                operation: operation.clone(),
                detail,
            }
        })?;
        // The module's reflected bindings are checked against the interface
        // above; the pipeline uses the layout every kernel of that interface
        // shares (vulkano checks the module against it).
        let push_constant_bytes = set_layouts
            .push_constant_ranges
            .iter()
            .map(|range| range.offset + range.size)
            .max()
            .unwrap_or(0);
        let layout = self.shared_layout(interface, &operation)?;
        let pipeline = ComputePipeline::new(
            self.device.clone(),
            None,
            ComputePipelineCreateInfo::stage_layout(stage, layout),
        )
        .map_err(|error| from_validated_vulkan_error(&operation, error))?;
        Ok(ComputeKernel {
            name: name.to_owned(),
            pipeline,
            storage_buffer_count: interface.storage_buffer_count,
            environment_buffer_count: interface.environment_buffer_count,
            push_constant_bytes,
        })
    }
}

/// Completes the reflected sets of `set_layouts` to `interface`: a storage
/// buffer at every binding of each set below its count that the module
/// does not use, so that a launch binds each declared buffer at its own binding; an
/// error when the module uses another set, another kind of descriptor, or
/// a binding beyond its set's count.
fn declare_every_storage_buffer(
    set_layouts: &mut PipelineDescriptorSetLayoutCreateInfo,
    interface: BindingInterface,
) -> Result<(), String> {
    let set_buffer_counts = interface.set_buffer_counts();
    if set_layouts.set_layouts.len() > set_buffer_counts.len() {
        return Err(format!(
            "the module uses {} descriptor sets, but the kernel declares {}",
            set_layouts.set_layouts.len(),
            set_buffer_counts.len()
        ));
    }
    set_layouts.set_layouts.resize_with(
        set_buffer_counts.len(),
        DescriptorSetLayoutCreateInfo::default,
    );
    for (set_number, (set, buffer_count)) in set_layouts
        .set_layouts
        .iter_mut()
        .zip(set_buffer_counts)
        .enumerate()
    {
        for (binding, used) in &set.bindings {
            if *binding >= buffer_count || used.descriptor_type != DescriptorType::StorageBuffer {
                return Err(format!(
                    "the module uses binding {binding} of set {set_number} as a {:?}, but the \
                     kernel declares {buffer_count} storage buffers there",
                    used.descriptor_type
                ));
            }
        }
        for binding in 0..buffer_count {
            set.bindings
                .entry(binding)
                .or_insert_with(|| DescriptorSetLayoutBinding {
                    stages: ShaderStages::COMPUTE,
                    ..DescriptorSetLayoutBinding::descriptor_type(DescriptorType::StorageBuffer)
                });
        }
    }
    Ok(())
}
