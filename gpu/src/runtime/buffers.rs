//! Device buffers: allocation with size checks, host↔device transfers, and a
//! pool that reuses buffers across runs.
//!
//! On devices whose memory the host cannot map cheaply (discrete GPUs, by
//! default) data travels through host-visible staging buffers and a copy
//! command; elsewhere (integrated GPUs, lavapipe) the host writes and reads
//! the device buffer directly. A dropped [`DeviceBuffer`] goes back to its
//! runtime's pool and the next allocation of the same size class reuses it.

use crate::error::{GpuError, GpuResult};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use vulkano::buffer::Subbuffer;

/// Where a buffer's memory lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferLocation {
    /// Device-local memory the host does not map (reached through staging).
    DeviceLocal,
    /// Device memory the host maps directly (unified memory, lavapipe).
    HostVisibleDevice,
    /// Host memory used to stage transfers.
    Staging,
}

/// The smallest buffer the pool hands out, in bytes.
pub const MINIMUM_BUFFER_CAPACITY_BYTES: u64 = 256;

/// The pooled capacity for a request of `byte_length` bytes: the next power of
/// two (at least [`MINIMUM_BUFFER_CAPACITY_BYTES`]) unless that would pass
/// `largest_capacity`, in which case the length rounded up to 4 bytes.
pub fn pooled_capacity_bytes(byte_length: u64, largest_capacity: u64) -> u64 {
    let rounded_to_words = byte_length.div_ceil(4) * 4;
    let power_of_two = rounded_to_words
        .max(MINIMUM_BUFFER_CAPACITY_BYTES)
        .next_power_of_two();
    if power_of_two <= largest_capacity {
        power_of_two
    } else {
        rounded_to_words.max(MINIMUM_BUFFER_CAPACITY_BYTES)
    }
}

/// Buffers waiting to be reused, by location and capacity.
#[derive(Debug)]
pub struct BufferPool {
    free_buffers: HashMap<(BufferLocation, u64), Vec<Subbuffer<[u8]>>>,
    pooled_bytes: u64,
    maximum_pooled_bytes: u64,
    reused_buffer_count: u64,
    created_buffer_count: u64,
    /// Set after a timeout or device loss: the device may still use any
    /// buffer, so none is reused or freed any more (they are leaked).
    abandoned: bool,
}

impl BufferPool {
    /// An empty pool that keeps at most `maximum_pooled_bytes` of idle buffers.
    pub fn new(maximum_pooled_bytes: u64) -> BufferPool {
        BufferPool {
            free_buffers: HashMap::new(),
            pooled_bytes: 0,
            maximum_pooled_bytes,
            reused_buffer_count: 0,
            created_buffer_count: 0,
            abandoned: false,
        }
    }

    /// Stop reusing and freeing buffers (after a timeout or device loss,
    /// when the device may still access them): idle buffers and every buffer
    /// given back later are leaked.
    pub fn abandon(&mut self) {
        self.abandoned = true;
        std::mem::forget(std::mem::take(&mut self.free_buffers));
        self.pooled_bytes = 0;
    }

    /// A pooled buffer of exactly this location and capacity, if one is idle.
    pub fn take(&mut self, location: BufferLocation, capacity: u64) -> Option<Subbuffer<[u8]>> {
        if self.abandoned {
            return None;
        }
        let storage = self.free_buffers.get_mut(&(location, capacity))?.pop()?;
        self.pooled_bytes -= capacity;
        self.reused_buffer_count += 1;
        Some(storage)
    }

    /// Count a freshly created buffer.
    pub fn note_created(&mut self) {
        self.created_buffer_count += 1;
    }

    /// Keep an idle buffer for reuse (or drop it when the pool is full).
    pub fn give_back(&mut self, location: BufferLocation, storage: Subbuffer<[u8]>) {
        if self.abandoned {
            std::mem::forget(storage);
            return;
        }
        let capacity = storage.size();
        if self.pooled_bytes + capacity > self.maximum_pooled_bytes {
            return;
        }
        self.pooled_bytes += capacity;
        self.free_buffers
            .entry((location, capacity))
            .or_default()
            .push(storage);
    }

    /// How many allocations were served from the pool.
    pub fn reused_buffer_count(&self) -> u64 {
        self.reused_buffer_count
    }

    /// How many buffers were created.
    pub fn created_buffer_count(&self) -> u64 {
        self.created_buffer_count
    }
}

/// Lock the pool even if a thread panicked while holding it (the pool's state
/// is always consistent between calls).
pub fn lock_pool(pool: &Mutex<BufferPool>) -> std::sync::MutexGuard<'_, BufferPool> {
    match pool.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// The buffers of a kernel's environment, descriptor set 1: binding 0
/// holds the scalars its lambdas read from the enclosing scope, binding 1
/// the status word a failing operation sets (zero until one fails), and
/// bindings 2, 3, … the arrays they read.
#[derive(Debug)]
pub struct EnvironmentBuffers {
    pub scalars: DeviceBuffer,
    pub status: DeviceBuffer,
    pub arrays: Vec<DeviceBuffer>,
}

impl EnvironmentBuffers {
    /// The buffers in binding order.
    pub fn buffers(&self) -> Vec<&DeviceBuffer> {
        let mut buffers = vec![&self.scalars, &self.status];
        buffers.extend(self.arrays.iter());
        buffers
    }
}

/// A buffer on the device holding `byte_length` bytes (its capacity may be
/// larger). Dropping it returns the memory to the runtime's pool.
#[derive(Debug)]
pub struct DeviceBuffer {
    storage: Option<Subbuffer<[u8]>>,
    byte_length: u64,
    location: BufferLocation,
    pool: Arc<Mutex<BufferPool>>,
}

impl DeviceBuffer {
    pub(crate) fn new(
        storage: Subbuffer<[u8]>,
        byte_length: u64,
        location: BufferLocation,
        pool: Arc<Mutex<BufferPool>>,
    ) -> DeviceBuffer {
        DeviceBuffer {
            storage: Some(storage),
            byte_length,
            location,
            pool,
        }
    }

    /// The number of bytes the buffer holds.
    pub fn byte_length(&self) -> u64 {
        self.byte_length
    }

    /// Keep only the first `byte_length` bytes (a no-op when longer than
    /// the buffer): the capacity is unchanged.
    pub fn truncate(&mut self, byte_length: u64) {
        self.byte_length = self.byte_length.min(byte_length);
    }

    /// Where the buffer lives.
    pub fn location(&self) -> BufferLocation {
        self.location
    }

    /// The whole allocation.
    pub(crate) fn storage(&self) -> GpuResult<&Subbuffer<[u8]>> {
        self.storage.as_ref().ok_or_else(|| GpuError::Vulkan {
            operation: "using a device buffer".to_owned(),
            detail: "the buffer was already released".to_owned(),
        })
    }

    /// The range a kernel binds: the data rounded up to whole 32-bit words,
    /// and at least one word (Vulkan has no empty buffers).
    pub(crate) fn bound_range(&self) -> GpuResult<Subbuffer<[u8]>> {
        let bound_bytes = (self.byte_length.div_ceil(4) * 4).max(4);
        Ok(self.storage()?.clone().slice(0..bound_bytes))
    }

    /// The range holding the data, `None` when the buffer is empty.
    pub(crate) fn data_range(&self) -> GpuResult<Option<Subbuffer<[u8]>>> {
        if self.byte_length == 0 {
            return Ok(None);
        }
        Ok(Some(self.storage()?.clone().slice(0..self.byte_length)))
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if let Some(storage) = self.storage.take() {
            lock_pool(&self.pool).give_back(self.location, storage);
        }
    }
}

/// A primitive type stored in device buffers, little-endian.
pub trait DeviceScalar: Copy {
    /// Its size in bytes.
    const BYTE_SIZE: usize;
    /// Append its bytes.
    fn append_bytes(self, bytes: &mut Vec<u8>);
    /// Read it from exactly `BYTE_SIZE` bytes.
    fn from_byte_slice(bytes: &[u8]) -> Self;
}

macro_rules! device_scalar_for_primitive {
    ($($primitive:ty),*) => {
        $(
            impl DeviceScalar for $primitive {
                const BYTE_SIZE: usize = std::mem::size_of::<$primitive>();
                fn append_bytes(self, bytes: &mut Vec<u8>) {
                    bytes.extend_from_slice(&self.to_le_bytes());
                }
                fn from_byte_slice(bytes: &[u8]) -> Self {
                    let mut array = [0u8; std::mem::size_of::<$primitive>()];
                    array.copy_from_slice(bytes);
                    <$primitive>::from_le_bytes(array)
                }
            }
        )*
    };
}

device_scalar_for_primitive!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// The little-endian bytes of `values`.
pub fn scalars_to_bytes<T: DeviceScalar>(values: &[T]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(values.len() * T::BYTE_SIZE);
    for value in values {
        value.append_bytes(&mut bytes);
    }
    bytes
}

/// The values whose little-endian bytes are `bytes` (a trailing partial value
/// is ignored).
pub fn bytes_to_scalars<T: DeviceScalar>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(T::BYTE_SIZE)
        .map(T::from_byte_slice)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities_are_powers_of_two_below_the_limit_and_exact_above() {
        assert_eq!(pooled_capacity_bytes(0, 1 << 27), 256);
        assert_eq!(pooled_capacity_bytes(257, 1 << 27), 512);
        assert_eq!(pooled_capacity_bytes(100 << 20, 1 << 27), 1 << 27);
        assert_eq!(
            pooled_capacity_bytes((100 << 20) + 1, 110 << 20),
            (100 << 20) + 4
        );
    }

    #[test]
    fn scalars_round_trip_through_bytes() {
        let values = [1.5f32, -0.0, f32::INFINITY];
        assert_eq!(bytes_to_scalars::<f32>(&scalars_to_bytes(&values)), values);
        let values = [u64::MAX, 7];
        assert_eq!(bytes_to_scalars::<u64>(&scalars_to_bytes(&values)), values);
    }
}
