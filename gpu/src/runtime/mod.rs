//! The Vulkan runtime: one chosen device, its compute queue, allocators, a
//! pipeline cache and a buffer pool.
//!
//! * [`instance`]: instance creation and validation messages;
//! * [`device_choice`]: [`DeviceInfo`] and which device runs kernels;
//! * [`buffers`]: device buffers, the pool, scalar ↔ byte conversion;
//! * [`transfers`]: allocation with size checks, upload and download;
//! * [`pipelines`]: compute pipelines cached by SPIR-V hash;
//! * [`peak_bandwidth`]: data-sheet peak memory bandwidth of known devices;
//! * [`submission`]: recording, submitting and waiting with a timeout, and the
//!   dispatch helper.
//!
//! A runtime is `Send + Sync`; all its operations are synchronous (they return
//! when the device has finished). After a device loss or a timeout it refuses
//! further work with [`GpuError::RuntimeUnusable`].

pub mod buffers;
pub mod device_choice;
pub mod instance;
pub mod peak_bandwidth;
pub mod pipelines;
pub mod submission;
pub mod transfers;

use crate::error::{from_validated_vulkan_error, from_vulkan_error, GpuError, GpuResult};
use buffers::BufferPool;
use device_choice::{
    choose_device, device_request_from_environment, DeviceInfo, ShaderFeatureSupport,
};
use instance::{create_vulkan_instance, ValidationMode, VulkanInstance};
use pipelines::PipelineCache;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use vulkano::command_buffer::allocator::StandardCommandBufferAllocator;
use vulkano::descriptor_set::allocator::StandardDescriptorSetAllocator;
use vulkano::device::physical::PhysicalDevice;
use vulkano::device::{
    Device, DeviceCreateInfo, DeviceExtensions, DeviceFeatures, Queue, QueueCreateInfo, QueueFlags,
};
use vulkano::memory::allocator::StandardMemoryAllocator;
use vulkano::Version;

pub use buffers::{BufferLocation, DeviceBuffer, DeviceScalar, EnvironmentBuffers};
pub use pipelines::{BindingInterface, ComputeKernel};

/// Which device to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceRequest {
    /// `RUNESTONE_DEVICE` if set, else the preferred device.
    FromEnvironment,
    /// The preferred device (discrete > integrated > virtual > CPU).
    Preferred,
    /// A device index or name substring.
    Named(String),
}

/// How host data reaches device buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferMode {
    /// Staging buffers on discrete GPUs and devices without host-visible
    /// device memory; direct mapping elsewhere.
    Automatic,
    /// Always through staging buffers (tests use it to exercise that path on
    /// lavapipe).
    AlwaysStaging,
    /// Always mapped directly (an error where device memory is not host-visible).
    AlwaysDirect,
}

/// Options for [`Runtime::new`].
#[derive(Clone, Debug)]
pub struct RuntimeOptions {
    pub validation: ValidationMode,
    pub device_request: DeviceRequest,
    pub transfer_mode: TransferMode,
    /// How long one submission may run before the runtime gives up on it.
    pub submission_timeout: Duration,
    /// The most idle buffer memory the pool keeps.
    pub maximum_pooled_bytes: u64,
    /// The size of the memory blocks buffers are suballocated from, on
    /// heaps of at least 1 GiB; `None`: vulkano's 256 MiB. A buffer larger
    /// than half a block gets a dedicated allocation of its own.
    pub memory_block_bytes: Option<u64>,
}

impl Default for RuntimeOptions {
    fn default() -> RuntimeOptions {
        RuntimeOptions {
            validation: ValidationMode::FromEnvironment,
            device_request: DeviceRequest::FromEnvironment,
            transfer_mode: TransferMode::Automatic,
            submission_timeout: Duration::from_secs(120),
            maximum_pooled_bytes: 512 << 20,
            memory_block_bytes: None,
        }
    }
}

/// The buffer allocator: vulkano's default, or blocks of `block_bytes` on
/// heaps of at least 1 GiB (64 MiB on smaller heaps, as vulkano's).
fn memory_allocator(device: &Arc<Device>, block_bytes: Option<u64>) -> StandardMemoryAllocator {
    let Some(block_bytes) = block_bytes else {
        return StandardMemoryAllocator::new_default(device.clone());
    };
    let properties = device.physical_device().memory_properties();
    let mut memory_type_bits = u32::MAX;
    let block_sizes: Vec<u64> = properties
        .memory_types
        .iter()
        .enumerate()
        .map(|(index, memory_type)| {
            // What vulkano's default leaves out of suballocation.
            if memory_type.property_flags.intersects(
                vulkano::memory::MemoryPropertyFlags::LAZILY_ALLOCATED
                    | vulkano::memory::MemoryPropertyFlags::PROTECTED
                    | vulkano::memory::MemoryPropertyFlags::DEVICE_COHERENT
                    | vulkano::memory::MemoryPropertyFlags::RDMA_CAPABLE,
            ) {
                memory_type_bits &= !(1 << index);
            }
            if properties.memory_heaps[memory_type.heap_index as usize].size >= 1 << 30 {
                block_bytes
            } else {
                64 << 20
            }
        })
        .collect();
    StandardMemoryAllocator::new(
        device.clone(),
        vulkano::memory::allocator::GenericMemoryAllocatorCreateInfo {
            block_sizes: &block_sizes,
            memory_type_bits,
            ..Default::default()
        },
    )
}

/// Every device Vulkan sees, and which one a runtime would choose.
pub struct DeviceListing {
    pub devices: Vec<DeviceInfo>,
    /// The position in `devices` of the device a runtime would use, or why
    /// none can be used.
    pub chosen: Result<usize, GpuError>,
    pub instance_api_version: Version,
}

fn enumerate_physical_devices(
    instance: &VulkanInstance,
) -> GpuResult<(Vec<Arc<PhysicalDevice>>, Vec<DeviceInfo>)> {
    let physical_devices: Vec<Arc<PhysicalDevice>> = instance
        .instance
        .enumerate_physical_devices()
        .map_err(|error| from_vulkan_error("enumerating devices", error))?
        .collect();
    let infos = physical_devices
        .iter()
        .enumerate()
        .map(|(index, physical_device)| DeviceInfo::describe(index, physical_device))
        .collect();
    Ok((physical_devices, infos))
}

fn requested_device_name(request: &DeviceRequest) -> Option<String> {
    match request {
        DeviceRequest::FromEnvironment => device_request_from_environment(),
        DeviceRequest::Preferred => None,
        DeviceRequest::Named(name) => Some(name.clone()),
    }
}

/// List the devices Vulkan sees (for `runestone devices`), with the choice
/// `RUNESTONE_DEVICE` and the preference order make.
pub fn list_devices() -> GpuResult<DeviceListing> {
    let instance = create_vulkan_instance(ValidationMode::Disabled)?;
    let (_, devices) = enumerate_physical_devices(&instance)?;
    let request = requested_device_name(&DeviceRequest::FromEnvironment);
    let chosen = choose_device(&devices, request.as_deref());
    Ok(DeviceListing {
        devices,
        chosen,
        instance_api_version: instance.instance.api_version(),
    })
}

/// A device ready to run compute kernels.
pub struct Runtime {
    vulkan_instance: VulkanInstance,
    device_info: DeviceInfo,
    enabled_features: ShaderFeatureSupport,
    device: Arc<Device>,
    queue: Arc<Queue>,
    memory_allocator: Arc<StandardMemoryAllocator>,
    command_buffer_allocator: Arc<StandardCommandBufferAllocator>,
    descriptor_set_allocator: Arc<StandardDescriptorSetAllocator>,
    pipeline_cache: Mutex<PipelineCache>,
    buffer_pool: Arc<Mutex<BufferPool>>,
    uses_staging: bool,
    submission_timeout: Duration,
    unusable: AtomicBool,
    /// Nanoseconds per timestamp tick, and the valid bits of the queue's
    /// timestamps (`None`: the queue has no timestamps).
    timestamp_period_nanoseconds: f32,
    timestamp_valid_bits: Option<u32>,
    /// The timings of submissions while profiling is on.
    profile: Mutex<Option<Vec<submission::SubmissionTiming>>>,
}

impl Runtime {
    /// Create a runtime on the requested (or preferred) device.
    pub fn new(options: RuntimeOptions) -> GpuResult<Runtime> {
        let vulkan_instance = create_vulkan_instance(options.validation)?;
        let (physical_devices, infos) = enumerate_physical_devices(&vulkan_instance)?;
        let request = requested_device_name(&options.device_request);
        let chosen = choose_device(&infos, request.as_deref())?;
        let physical_device = physical_devices[chosen].clone();
        let device_info = infos[chosen].clone();
        let queue_family_index = physical_device
            .queue_family_properties()
            .iter()
            .position(|family| family.queue_flags.contains(QueueFlags::COMPUTE))
            .ok_or_else(|| GpuError::Unsupported {
                what: "a compute queue".to_owned(),
            })? as u32;
        let timestamp_valid_bits = physical_device.queue_family_properties()
            [queue_family_index as usize]
            .timestamp_valid_bits;
        let timestamp_period_nanoseconds = physical_device.properties().timestamp_period;
        let enabled_features = device_info.features;
        let before_vulkan_1_2 = physical_device.api_version() < Version::V1_2;
        let supported_extensions = physical_device.supported_extensions();
        let mut enabled_extensions = DeviceExtensions::empty();
        let mut usable_features = enabled_features;
        if before_vulkan_1_2 {
            // 8-bit storage and int8/float16 arithmetic became core in 1.2.
            if usable_features.storage_buffer_8bit && supported_extensions.khr_8bit_storage {
                enabled_extensions.khr_8bit_storage = true;
            } else {
                usable_features.storage_buffer_8bit = false;
            }
            if (usable_features.int8 || usable_features.float16)
                && supported_extensions.khr_shader_float16_int8
            {
                enabled_extensions.khr_shader_float16_int8 = true;
            } else {
                usable_features.int8 = false;
                usable_features.float16 = false;
            }
        }
        let device_features = DeviceFeatures {
            shader_int64: usable_features.int64,
            shader_float64: usable_features.float64,
            shader_int16: usable_features.int16,
            shader_int8: usable_features.int8,
            shader_float16: usable_features.float16,
            storage_buffer8_bit_access: usable_features.storage_buffer_8bit,
            storage_buffer16_bit_access: usable_features.storage_buffer_16bit,
            ..DeviceFeatures::empty()
        };
        let (device, mut queues) = Device::new(
            physical_device,
            DeviceCreateInfo {
                queue_create_infos: vec![QueueCreateInfo {
                    queue_family_index,
                    ..Default::default()
                }],
                enabled_extensions,
                enabled_features: device_features,
                ..Default::default()
            },
        )
        .map_err(|error| from_validated_vulkan_error("creating the Vulkan device", error))?;
        let queue = queues.next().ok_or_else(|| GpuError::Vulkan {
            operation: "creating the Vulkan device".to_owned(),
            detail: "the device returned no queue".to_owned(),
        })?;
        let uses_staging = match options.transfer_mode {
            TransferMode::Automatic => device_info.prefers_staging_transfers(),
            TransferMode::AlwaysStaging => true,
            TransferMode::AlwaysDirect => {
                if !device_info.has_host_visible_device_memory {
                    return Err(GpuError::Unsupported {
                        what: "host-visible device memory (direct transfers)".to_owned(),
                    });
                }
                false
            }
        };
        Ok(Runtime {
            memory_allocator: Arc::new(memory_allocator(&device, options.memory_block_bytes)),
            command_buffer_allocator: Arc::new(StandardCommandBufferAllocator::new(
                device.clone(),
                Default::default(),
            )),
            descriptor_set_allocator: Arc::new(StandardDescriptorSetAllocator::new(
                device.clone(),
                Default::default(),
            )),
            vulkan_instance,
            device_info,
            enabled_features: usable_features,
            device,
            queue,
            pipeline_cache: Mutex::new(PipelineCache::default()),
            buffer_pool: Arc::new(Mutex::new(BufferPool::new(options.maximum_pooled_bytes))),
            uses_staging,
            submission_timeout: options.submission_timeout,
            unusable: AtomicBool::new(false),
            timestamp_period_nanoseconds,
            timestamp_valid_bits,
            profile: Mutex::new(None),
        })
    }

    /// The chosen device.
    pub fn device_info(&self) -> &DeviceInfo {
        &self.device_info
    }

    /// The optional shader features enabled on the device.
    pub fn enabled_features(&self) -> ShaderFeatureSupport {
        self.enabled_features
    }

    /// Whether transfers go through staging buffers.
    pub fn uses_staging(&self) -> bool {
        self.uses_staging
    }

    /// Whether the validation layer is on.
    pub fn validation_enabled(&self) -> bool {
        self.vulkan_instance.validation_enabled
    }

    /// Every validation message recorded since the runtime was created.
    pub fn validation_messages(&self) -> Vec<String> {
        self.vulkan_instance.validation_messages.snapshot()
    }

    /// (reused, created) buffer counts of the pool.
    pub fn buffer_pool_statistics(&self) -> (u64, u64) {
        let pool = buffers::lock_pool(&self.buffer_pool);
        (pool.reused_buffer_count(), pool.created_buffer_count())
    }
}
