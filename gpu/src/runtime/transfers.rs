//! Allocation with size checks, and host↔device transfers.
//!
//! Every allocation is checked first against `maxStorageBufferRange` (the most
//! a kernel can bind), `maxMemoryAllocationSize` and the device-local heap, so
//! an oversized request is a clear [`GpuError::BufferTooLarge`] rather than a
//! driver error. (Splitting large arrays across several bindings is the code
//! generator's job; the runtime refuses.) Transfers use staging buffers when
//! [`Runtime::uses_staging`] says so, and map device memory directly otherwise.

use super::buffers::{
    bytes_to_scalars, lock_pool, pooled_capacity_bytes, scalars_to_bytes, BufferLocation,
    DeviceBuffer, DeviceScalar,
};
use super::Runtime;
use crate::error::{from_validation_error, from_vulkan_error, GpuError, GpuResult};
use vulkano::buffer::{AllocateBufferError, Buffer, BufferCreateInfo, BufferUsage, Subbuffer};
use vulkano::command_buffer::CopyBufferInfo;
use vulkano::memory::allocator::{AllocationCreateInfo, MemoryAllocatorError, MemoryTypeFilter};
use vulkano::Validated;

fn from_allocate_buffer_error(operation: &str, error: Validated<AllocateBufferError>) -> GpuError {
    match error {
        Validated::ValidationError(error) => from_validation_error(operation, error),
        Validated::Error(AllocateBufferError::CreateBuffer(error))
        | Validated::Error(AllocateBufferError::BindMemory(error))
        | Validated::Error(AllocateBufferError::AllocateMemory(
            MemoryAllocatorError::AllocateDeviceMemory(Validated::Error(error)),
        )) => from_vulkan_error(operation, error),
        Validated::Error(other) => GpuError::Vulkan {
            operation: operation.to_owned(),
            detail: other.to_string(),
        },
    }
}

fn host_access_error(operation: &str, error: impl std::fmt::Display) -> GpuError {
    GpuError::Vulkan {
        operation: operation.to_owned(),
        detail: error.to_string(),
    }
}

impl Runtime {
    /// Check that a buffer of `byte_length` bytes can be bound by a kernel and
    /// allocated on this device.
    pub fn check_buffer_size(&self, byte_length: u64) -> GpuResult<()> {
        let info = &self.device_info;
        let storage_range = u64::from(info.max_storage_buffer_range);
        if byte_length > storage_range {
            return Err(GpuError::BufferTooLarge {
                requested_bytes: byte_length,
                limit_bytes: storage_range,
                limit_name: "maxStorageBufferRange",
            });
        }
        if let Some(allocation_limit) = info.max_memory_allocation_bytes {
            if byte_length > allocation_limit {
                return Err(GpuError::BufferTooLarge {
                    requested_bytes: byte_length,
                    limit_bytes: allocation_limit,
                    limit_name: "maxMemoryAllocationSize",
                });
            }
        }
        if byte_length > info.device_local_memory_bytes {
            return Err(GpuError::BufferTooLarge {
                requested_bytes: byte_length,
                limit_bytes: info.device_local_memory_bytes,
                limit_name: "device-local memory heap",
            });
        }
        Ok(())
    }

    fn device_buffer_location(&self) -> BufferLocation {
        if self.uses_staging {
            BufferLocation::DeviceLocal
        } else {
            BufferLocation::HostVisibleDevice
        }
    }

    /// A pooled or new allocation of at least `byte_length` bytes.
    fn acquire_storage(
        &self,
        location: BufferLocation,
        byte_length: u64,
    ) -> GpuResult<Subbuffer<[u8]>> {
        self.ensure_usable()?;
        self.check_buffer_size(byte_length)?;
        let largest_capacity = u64::from(self.device_info.max_storage_buffer_range);
        let capacity = pooled_capacity_bytes(byte_length, largest_capacity);
        if let Some(storage) = lock_pool(&self.buffer_pool).take(location, capacity) {
            return Ok(storage);
        }
        let memory_type_filter = match location {
            BufferLocation::DeviceLocal => MemoryTypeFilter::PREFER_DEVICE,
            BufferLocation::HostVisibleDevice => {
                MemoryTypeFilter::PREFER_DEVICE | MemoryTypeFilter::HOST_RANDOM_ACCESS
            }
            BufferLocation::Staging => {
                MemoryTypeFilter::PREFER_HOST | MemoryTypeFilter::HOST_RANDOM_ACCESS
            }
        };
        let storage = Buffer::new_slice::<u8>(
            self.memory_allocator.clone(),
            BufferCreateInfo {
                usage: BufferUsage::STORAGE_BUFFER
                    | BufferUsage::TRANSFER_SRC
                    | BufferUsage::TRANSFER_DST,
                ..Default::default()
            },
            AllocationCreateInfo {
                memory_type_filter,
                ..Default::default()
            },
            capacity,
        )
        .map_err(|error| {
            from_allocate_buffer_error(&format!("allocating a {capacity}-byte buffer"), error)
        })?;
        lock_pool(&self.buffer_pool).note_created();
        Ok(storage)
    }

    fn wrap(
        &self,
        location: BufferLocation,
        storage: Subbuffer<[u8]>,
        byte_length: u64,
    ) -> DeviceBuffer {
        DeviceBuffer::new(storage, byte_length, location, self.buffer_pool.clone())
    }

    /// A device buffer of `byte_length` bytes with unspecified contents.
    pub fn allocate_buffer(&self, byte_length: u64) -> GpuResult<DeviceBuffer> {
        let location = self.device_buffer_location();
        let storage = self.acquire_storage(location, byte_length)?;
        Ok(self.wrap(location, storage, byte_length))
    }

    /// A device buffer holding `bytes`.
    pub fn upload_bytes(&self, bytes: &[u8]) -> GpuResult<DeviceBuffer> {
        let buffer = self.allocate_buffer(bytes.len() as u64)?;
        self.write_bytes(&buffer, bytes)?;
        Ok(buffer)
    }

    /// A device buffer holding `values`.
    pub fn upload_scalars<T: DeviceScalar>(&self, values: &[T]) -> GpuResult<DeviceBuffer> {
        self.upload_bytes(&scalars_to_bytes(values))
    }

    /// Overwrite a device buffer's contents with `bytes` (same length).
    pub fn write_bytes(&self, buffer: &DeviceBuffer, bytes: &[u8]) -> GpuResult<()> {
        const OPERATION: &str = "writing a device buffer";
        if bytes.len() as u64 != buffer.byte_length() {
            return Err(GpuError::LengthMismatch {
                operation: OPERATION,
                expected_bytes: buffer.byte_length(),
                actual_bytes: bytes.len() as u64,
            });
        }
        let Some(destination) = buffer.data_range()? else {
            return Ok(());
        };
        if buffer.location() != BufferLocation::DeviceLocal {
            let mut mapped = destination
                .write()
                .map_err(|error| host_access_error(OPERATION, error))?;
            mapped.copy_from_slice(bytes);
            return Ok(());
        }
        let staging_storage = self.acquire_storage(BufferLocation::Staging, bytes.len() as u64)?;
        let staging = self.wrap(BufferLocation::Staging, staging_storage, bytes.len() as u64);
        let Some(staging_range) = staging.data_range()? else {
            return Ok(());
        };
        {
            let mut mapped = staging_range
                .write()
                .map_err(|error| host_access_error(OPERATION, error))?;
            mapped.copy_from_slice(bytes);
        }
        self.run_commands(OPERATION, |recorder| {
            // SAFETY: both buffers outlive the submission (`run_commands`
            // waits) and nothing else uses them meanwhile.
            unsafe {
                recorder.copy_buffer(&CopyBufferInfo::buffers(
                    staging_range.clone(),
                    destination.clone(),
                ))
            }
            .map_err(|error| from_validation_error(OPERATION, error))?;
            Ok(())
        })
    }

    /// A device buffer's contents.
    pub fn download_bytes(&self, buffer: &DeviceBuffer) -> GpuResult<Vec<u8>> {
        self.download_byte_range(buffer, 0, buffer.byte_length())
    }

    /// Bytes `start..start + length` of a device buffer (an error past its
    /// end).
    pub fn download_byte_range(
        &self,
        buffer: &DeviceBuffer,
        start: u64,
        length: u64,
    ) -> GpuResult<Vec<u8>> {
        const OPERATION: &str = "reading a device buffer";
        if start.saturating_add(length) > buffer.byte_length() {
            return Err(GpuError::LengthMismatch {
                operation: OPERATION,
                expected_bytes: start.saturating_add(length),
                actual_bytes: buffer.byte_length(),
            });
        }
        let Some(whole) = buffer.data_range()? else {
            return Ok(Vec::new());
        };
        if length == 0 {
            return Ok(Vec::new());
        }
        let source = whole.slice(start..start + length);
        self.ensure_usable()?;
        if buffer.location() != BufferLocation::DeviceLocal {
            let mapped = source
                .read()
                .map_err(|error| host_access_error(OPERATION, error))?;
            return Ok(mapped.to_vec());
        }
        let byte_length = length;
        let staging_storage = self.acquire_storage(BufferLocation::Staging, byte_length)?;
        let staging = self.wrap(BufferLocation::Staging, staging_storage, byte_length);
        let Some(staging_range) = staging.data_range()? else {
            return Ok(Vec::new());
        };
        self.run_commands(OPERATION, |recorder| {
            // SAFETY: both buffers outlive the submission (`run_commands`
            // waits) and nothing else uses them meanwhile.
            unsafe {
                recorder.copy_buffer(&CopyBufferInfo::buffers(
                    source.clone(),
                    staging_range.clone(),
                ))
            }
            .map_err(|error| from_validation_error(OPERATION, error))?;
            Ok(())
        })?;
        let mapped = staging_range
            .read()
            .map_err(|error| host_access_error(OPERATION, error))?;
        Ok(mapped.to_vec())
    }

    /// A device buffer's contents as values of `T`.
    pub fn download_scalars<T: DeviceScalar>(&self, buffer: &DeviceBuffer) -> GpuResult<Vec<T>> {
        Ok(bytes_to_scalars(&self.download_bytes(buffer)?))
    }
}
