//! Kernel inputs and results kept on the device while the host holds
//! them, so that a later kernel reading the same array skips the upload.

use crate::runtime::DeviceBuffer;
use optimized::cpu::value::Data;
use std::sync::Arc;

/// Kernel results kept on the device: each device buffer with the host
/// array downloaded from it, oldest first. An entry holds the host array's
/// `Arc`, so the host can never update it in place (copy-on-write copies a
/// shared array): the device copy stays equal to it. An entry is dropped
/// once the host no longer holds the array, and the oldest go when the
/// entries exceed [`RESIDENT_BYTES`].
#[derive(Default)]
pub(super) struct Resident {
    pub(super) entries: Vec<(Data, DeviceBuffer)>,
}

/// The most device memory [`Resident`] keeps.
pub(super) const RESIDENT_BYTES: u64 = 256 << 20;

impl Resident {
    /// Forgets the arrays only this cache still holds.
    pub(super) fn release_dropped(&mut self) {
        self.entries.retain(|(data, _)| host_holds(data));
    }

    /// The device copy of `data`, taken out of the cache.
    pub(super) fn take(&mut self, data: &Data) -> Option<DeviceBuffer> {
        let position = self
            .entries
            .iter()
            .position(|(held, _)| same_data(held, data))?;
        Some(self.entries.remove(position).1)
    }

    pub(super) fn keep(&mut self, data: Data, buffer: DeviceBuffer) {
        self.entries.push((data, buffer));
        let mut bytes: u64 = self.entries.iter().map(|(_, b)| b.byte_length()).sum();
        while bytes > RESIDENT_BYTES && !self.entries.is_empty() {
            bytes -= self.entries.remove(0).1.byte_length();
        }
    }
}

/// Whether anything besides the cache holds `data`.
pub(super) fn host_holds(data: &Data) -> bool {
    match data {
        Data::I8(v) => Arc::strong_count(v) > 1,
        Data::I16(v) => Arc::strong_count(v) > 1,
        Data::I32(v) => Arc::strong_count(v) > 1,
        Data::I64(v) => Arc::strong_count(v) > 1,
        Data::U8(v) => Arc::strong_count(v) > 1,
        Data::U16(v) => Arc::strong_count(v) > 1,
        Data::U32(v) => Arc::strong_count(v) > 1,
        Data::U64(v) => Arc::strong_count(v) > 1,
        Data::F32(v) => Arc::strong_count(v) > 1,
        Data::F64(v) => Arc::strong_count(v) > 1,
        Data::Bool(v) => Arc::strong_count(v) > 1,
    }
}

/// Whether `a` and `b` are the same elements (the same allocation).
pub(super) fn same_data(a: &Data, b: &Data) -> bool {
    match (a, b) {
        (Data::I8(x), Data::I8(y)) => Arc::ptr_eq(x, y),
        (Data::I16(x), Data::I16(y)) => Arc::ptr_eq(x, y),
        (Data::I32(x), Data::I32(y)) => Arc::ptr_eq(x, y),
        (Data::I64(x), Data::I64(y)) => Arc::ptr_eq(x, y),
        (Data::U8(x), Data::U8(y)) => Arc::ptr_eq(x, y),
        (Data::U16(x), Data::U16(y)) => Arc::ptr_eq(x, y),
        (Data::U32(x), Data::U32(y)) => Arc::ptr_eq(x, y),
        (Data::U64(x), Data::U64(y)) => Arc::ptr_eq(x, y),
        (Data::F32(x), Data::F32(y)) => Arc::ptr_eq(x, y),
        (Data::F64(x), Data::F64(y)) => Arc::ptr_eq(x, y),
        (Data::Bool(x), Data::Bool(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

/// Keeps `buffers`, the device copies of `inputs`, resident.
pub(super) fn keep_all(resident: &mut Resident, inputs: &[&Data], buffers: Vec<DeviceBuffer>) {
    for (data, buffer) in inputs.iter().zip(buffers) {
        resident.keep((*data).clone(), buffer);
    }
}
