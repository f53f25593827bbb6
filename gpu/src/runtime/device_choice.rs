//! Physical devices: what each one offers ([`DeviceInfo`]) and which one runs
//! our kernels.
//!
//! The choice prefers a discrete GPU, then an integrated GPU, then a virtual
//! GPU, then a CPU device (lavapipe), then anything else; among equals, the
//! first listed. `RUNESTONE_DEVICE` overrides it with a device index (as
//! printed by `runestone devices`) or a case-insensitive substring of the
//! device name. Devices without a compute queue or older than Vulkan 1.1 are
//! listed but never chosen.

use crate::error::{GpuError, GpuResult};
use std::fmt;
use std::sync::Arc;
use vulkano::device::physical::{PhysicalDevice, PhysicalDeviceType};
use vulkano::device::QueueFlags;
use vulkano::memory::MemoryPropertyFlags;
use vulkano::shader::ShaderStages;
use vulkano::Version;

/// The environment variable that picks a device.
pub const DEVICE_ENVIRONMENT_VARIABLE: &str = "RUNESTONE_DEVICE";

/// The kind of a physical device, in order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DeviceKind {
    DiscreteGpu,
    IntegratedGpu,
    VirtualGpu,
    Cpu,
    Other,
}

impl fmt::Display for DeviceKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            DeviceKind::DiscreteGpu => "discrete GPU",
            DeviceKind::IntegratedGpu => "integrated GPU",
            DeviceKind::VirtualGpu => "virtual GPU",
            DeviceKind::Cpu => "CPU",
            DeviceKind::Other => "other",
        })
    }
}

/// The optional shader features a kernel may need, as supported by a device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShaderFeatureSupport {
    pub int64: bool,
    pub float64: bool,
    pub int16: bool,
    pub int8: bool,
    pub float16: bool,
    pub storage_buffer_8bit: bool,
    pub storage_buffer_16bit: bool,
    /// Subgroup arithmetic (`subgroupAdd`, ...) in compute shaders.
    pub subgroup_arithmetic: bool,
}

impl ShaderFeatureSupport {
    /// The supported features' names, for printing.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        let table = [
            (self.int64, "int64"),
            (self.float64, "float64"),
            (self.int16, "int16"),
            (self.int8, "int8"),
            (self.float16, "float16"),
            (self.storage_buffer_8bit, "storage8"),
            (self.storage_buffer_16bit, "storage16"),
            (self.subgroup_arithmetic, "subgroup-arithmetic"),
        ];
        for (supported, name) in table {
            if supported {
                names.push(name);
            }
        }
        names
    }
}

/// How many workgroups a device runs at once: its multiprocessors (NVIDIA's
/// SMs, AMD's compute units) and the invocations each keeps resident.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Multiprocessors {
    pub count: u32,
    pub resident_invocations_each: u32,
}

/// One memory type: its heap, the heap's size and its property flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryTypeInfo {
    pub heap_index: u32,
    pub heap_bytes: u64,
    pub flags: Vec<&'static str>,
}

/// Workgroups a kernel that strides over its input launches where the
/// device does not say how many multiprocessors it has.
pub const DEFAULT_RESIDENT_WORKGROUPS: u32 = 1024;

/// What a physical device offers that matters to runestone.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    /// The index in Vulkan's enumeration (what `RUNESTONE_DEVICE` may name).
    pub index: usize,
    pub name: String,
    pub kind: DeviceKind,
    pub driver_name: Option<String>,
    pub driver_info: Option<String>,
    pub api_version: Version,
    /// The default subgroup size (8 on lavapipe, 32 on NVIDIA, 64 on some AMD).
    pub subgroup_size: Option<u32>,
    pub max_workgroup_count: [u32; 3],
    pub max_workgroup_size: [u32; 3],
    pub max_workgroup_invocations: u32,
    pub max_storage_buffer_range: u32,
    pub max_shared_memory_bytes: u32,
    pub max_push_constants_bytes: u32,
    pub max_memory_allocation_bytes: Option<u64>,
    /// The size of the largest device-local memory heap.
    pub device_local_memory_bytes: u64,
    /// Whether some device-local memory is also host-visible (unified memory).
    pub has_host_visible_device_memory: bool,
    pub features: ShaderFeatureSupport,
    /// The memory types, in Vulkan's order (what the allocator chooses
    /// among).
    pub memory_types: Vec<MemoryTypeInfo>,
    /// The device's multiprocessors, where a vendor extension tells
    /// (`VK_NV_shader_sm_builtins`, `VK_AMD_shader_core_properties`).
    pub multiprocessors: Option<Multiprocessors>,
    /// Why the device can never be chosen, if it cannot.
    pub unusable_because: Option<String>,
}

impl DeviceInfo {
    /// Read a physical device's properties.
    pub fn describe(index: usize, physical_device: &Arc<PhysicalDevice>) -> DeviceInfo {
        let properties = physical_device.properties();
        let supported = physical_device.supported_features();
        let kind = match properties.device_type {
            PhysicalDeviceType::DiscreteGpu => DeviceKind::DiscreteGpu,
            PhysicalDeviceType::IntegratedGpu => DeviceKind::IntegratedGpu,
            PhysicalDeviceType::VirtualGpu => DeviceKind::VirtualGpu,
            PhysicalDeviceType::Cpu => DeviceKind::Cpu,
            _ => DeviceKind::Other,
        };
        let subgroup_arithmetic =
            properties
                .subgroup_supported_operations
                .is_some_and(|operations| {
                    operations.contains(vulkano::device::physical::SubgroupFeatures::ARITHMETIC)
                })
                && properties
                    .subgroup_supported_stages
                    .is_some_and(|stages| stages.contains(ShaderStages::COMPUTE));
        let memory_properties = physical_device.memory_properties();
        let device_local_memory_bytes = memory_properties
            .memory_heaps
            .iter()
            .filter(|heap| {
                heap.flags
                    .contains(vulkano::memory::MemoryHeapFlags::DEVICE_LOCAL)
            })
            .map(|heap| heap.size)
            .max()
            .unwrap_or(0);
        let has_host_visible_device_memory =
            memory_properties.memory_types.iter().any(|memory_type| {
                memory_type
                    .property_flags
                    .contains(MemoryPropertyFlags::DEVICE_LOCAL | MemoryPropertyFlags::HOST_VISIBLE)
            });
        let memory_types = memory_properties
            .memory_types
            .iter()
            .map(|memory_type| {
                let flags = [
                    (MemoryPropertyFlags::DEVICE_LOCAL, "device-local"),
                    (MemoryPropertyFlags::HOST_VISIBLE, "host-visible"),
                    (MemoryPropertyFlags::HOST_COHERENT, "host-coherent"),
                    (MemoryPropertyFlags::HOST_CACHED, "host-cached"),
                    (MemoryPropertyFlags::LAZILY_ALLOCATED, "lazily-allocated"),
                    (MemoryPropertyFlags::PROTECTED, "protected"),
                ]
                .into_iter()
                .filter(|(flag, _)| memory_type.property_flags.contains(*flag))
                .map(|(_, name)| name)
                .collect();
                MemoryTypeInfo {
                    heap_index: memory_type.heap_index,
                    heap_bytes: memory_properties.memory_heaps[memory_type.heap_index as usize]
                        .size,
                    flags,
                }
            })
            .collect();
        let api_version = physical_device.api_version();
        let has_compute_queue = physical_device
            .queue_family_properties()
            .iter()
            .any(|family| family.queue_flags.contains(QueueFlags::COMPUTE));
        let unusable_because = if api_version < Version::V1_1 {
            Some(format!("Vulkan {api_version} (1.1 is needed)"))
        } else if !has_compute_queue {
            Some("no compute queue".to_owned())
        } else {
            None
        };
        let nvidia_multiprocessors = properties
            .shader_sm_count
            .zip(properties.shader_warps_per_sm)
            .map(|(count, warps)| Multiprocessors {
                count,
                resident_invocations_each: warps * properties.subgroup_size.unwrap_or(32),
            });
        let amd_multiprocessors = (|| {
            let count = properties.shader_engine_count?
                * properties.shader_arrays_per_engine_count?
                * properties.compute_units_per_shader_array?;
            let resident = properties.simd_per_compute_unit?
                * properties.wavefronts_per_simd?
                * properties.wavefront_size?;
            Some(Multiprocessors {
                count,
                resident_invocations_each: resident,
            })
        })();
        DeviceInfo {
            index,
            name: properties.device_name.clone(),
            kind,
            driver_name: properties.driver_name.clone(),
            driver_info: properties.driver_info.clone(),
            api_version,
            subgroup_size: properties.subgroup_size,
            max_workgroup_count: properties.max_compute_work_group_count,
            max_workgroup_size: properties.max_compute_work_group_size,
            max_workgroup_invocations: properties.max_compute_work_group_invocations,
            max_storage_buffer_range: properties.max_storage_buffer_range,
            max_shared_memory_bytes: properties.max_compute_shared_memory_size,
            max_push_constants_bytes: properties.max_push_constants_size,
            max_memory_allocation_bytes: properties.max_memory_allocation_size,
            device_local_memory_bytes,
            has_host_visible_device_memory,
            features: ShaderFeatureSupport {
                int64: supported.shader_int64,
                float64: supported.shader_float64,
                int16: supported.shader_int16,
                int8: supported.shader_int8,
                float16: supported.shader_float16,
                storage_buffer_8bit: supported.storage_buffer8_bit_access,
                storage_buffer_16bit: supported.storage_buffer16_bit_access,
                subgroup_arithmetic,
            },
            memory_types,
            multiprocessors: nvidia_multiprocessors.or(amd_multiprocessors),
            unusable_because,
        }
    }

    /// Workgroups of `workgroup_size` invocations the whole device keeps
    /// resident at once (multiprocessors × workgroups each, at least one
    /// each), or [`DEFAULT_RESIDENT_WORKGROUPS`] where the device does not
    /// say; never more than `maxComputeWorkGroupCount[0]`. What a kernel
    /// that strides over its input launches.
    pub fn resident_workgroups(&self, workgroup_size: u32) -> u32 {
        let resident = match self.multiprocessors {
            Some(multiprocessors) => {
                multiprocessors.count
                    * (multiprocessors.resident_invocations_each / workgroup_size.max(1)).max(1)
            }
            None => DEFAULT_RESIDENT_WORKGROUPS,
        };
        resident.clamp(1, self.max_workgroup_count[0].max(1))
    }

    /// Whether host↔device transfers should go through staging buffers:
    /// on discrete GPUs, and wherever device memory is not host-visible.
    pub fn prefers_staging_transfers(&self) -> bool {
        self.kind == DeviceKind::DiscreteGpu || !self.has_host_visible_device_memory
    }

    /// One line: index, name, kind.
    pub fn headline(&self) -> String {
        format!("{}: {} ({})", self.index, self.name, self.kind)
    }
}

/// `RUNESTONE_DEVICE`, when set and not empty.
pub fn device_request_from_environment() -> Option<String> {
    std::env::var(DEVICE_ENVIRONMENT_VARIABLE)
        .ok()
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

/// The index (into `devices`) of the device to use: the one `request` names
/// (an index or a name substring), else the most preferred usable one.
pub fn choose_device(devices: &[DeviceInfo], request: Option<&str>) -> GpuResult<usize> {
    if devices.is_empty() {
        return Err(GpuError::NoDevice);
    }
    let usable = |device: &&DeviceInfo| device.unusable_because.is_none();
    if let Some(request) = request {
        let by_index = request
            .parse::<usize>()
            .ok()
            .and_then(|index| devices.iter().position(|device| device.index == index));
        let lowered_request = request.to_lowercase();
        let chosen = by_index.or_else(|| {
            devices
                .iter()
                .position(|device| device.name.to_lowercase().contains(&lowered_request))
        });
        return match chosen {
            Some(position) => match &devices[position].unusable_because {
                None => Ok(position),
                Some(reason) => Err(GpuError::Unsupported {
                    what: format!(
                        "running kernels on {} chosen by {DEVICE_ENVIRONMENT_VARIABLE}: {reason}",
                        devices[position].name
                    ),
                }),
            },
            None => Err(GpuError::RequestedDeviceNotFound {
                requested: request.to_owned(),
                available: devices.iter().map(DeviceInfo::headline).collect(),
            }),
        };
    }
    devices
        .iter()
        .filter(usable)
        .min_by_key(|device| (device.kind, device.index))
        .and_then(|best| devices.iter().position(|device| device.index == best.index))
        .ok_or(GpuError::NoDevice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_device(index: usize, name: &str, kind: DeviceKind) -> DeviceInfo {
        DeviceInfo {
            index,
            name: name.to_owned(),
            kind,
            driver_name: None,
            driver_info: None,
            api_version: Version::V1_3,
            subgroup_size: Some(32),
            max_workgroup_count: [65_535; 3],
            max_workgroup_size: [1024, 1024, 64],
            max_workgroup_invocations: 1024,
            max_storage_buffer_range: 1 << 27,
            max_shared_memory_bytes: 32 << 10,
            max_push_constants_bytes: 128,
            max_memory_allocation_bytes: None,
            device_local_memory_bytes: 1 << 30,
            has_host_visible_device_memory: true,
            features: ShaderFeatureSupport::default(),
            memory_types: Vec::new(),
            multiprocessors: None,
            unusable_because: None,
        }
    }

    #[test]
    fn discrete_beats_integrated_beats_virtual_beats_cpu() {
        let devices = vec![
            fake_device(0, "llvmpipe", DeviceKind::Cpu),
            fake_device(1, "Virtio", DeviceKind::VirtualGpu),
            fake_device(2, "Intel UHD", DeviceKind::IntegratedGpu),
            fake_device(3, "NVIDIA H100", DeviceKind::DiscreteGpu),
        ];
        assert_eq!(choose_device(&devices, None).ok(), Some(3));
        assert_eq!(choose_device(&devices[..3], None).ok(), Some(2));
        assert_eq!(choose_device(&devices[..2], None).ok(), Some(1));
        assert_eq!(choose_device(&devices[..1], None).ok(), Some(0));
    }

    #[test]
    fn an_unusable_device_is_never_chosen_automatically() {
        let mut discrete = fake_device(1, "Old GPU", DeviceKind::DiscreteGpu);
        discrete.unusable_because = Some("Vulkan 1.0.0 (1.1 is needed)".to_owned());
        let devices = vec![fake_device(0, "llvmpipe", DeviceKind::Cpu), discrete];
        assert_eq!(choose_device(&devices, None).ok(), Some(0));
        assert!(matches!(
            choose_device(&devices, Some("old")),
            Err(GpuError::Unsupported { .. })
        ));
    }

    #[test]
    fn a_request_picks_by_index_or_name_substring() {
        let devices = vec![
            fake_device(0, "llvmpipe (LLVM 15)", DeviceKind::Cpu),
            fake_device(1, "NVIDIA H100", DeviceKind::DiscreteGpu),
        ];
        assert_eq!(choose_device(&devices, Some("0")).ok(), Some(0));
        assert_eq!(choose_device(&devices, Some("LLVMPIPE")).ok(), Some(0));
        assert_eq!(choose_device(&devices, Some("h100")).ok(), Some(1));
        let error = choose_device(&devices, Some("radeon")).expect_err("no such device");
        assert!(
            error.to_string().contains("0: llvmpipe (LLVM 15) (CPU)"),
            "{error}"
        );
    }

    #[test]
    fn no_device_is_a_clear_error() {
        let error = choose_device(&[], None).expect_err("nothing to choose");
        assert!(error.to_string().contains("mesa-vulkan-drivers"), "{error}");
    }
}
