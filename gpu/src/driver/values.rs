//! Conversions between the CPU backend's values and the kernel library's
//! host columns, and the values a kernel's statement binds.

use crate::codegen::extract::KernelPlan;
use crate::kernels::element::HostColumn;
use optimized::cpu::value::{ArrayVal, Data, Val};
use std::sync::Arc;

/// The values the statement binds, from the kernel's output columns: for
/// `reduce`/`redomap` one scalar per column; for `filter` the count, then
/// the kept elements; for a segmented `scanomap` one `[count][length]`
/// array per column (`segment_length`: the length); otherwise (a segmented
/// `redomap`: one element per segment; `scatter` and `reduce_by_index`: the
/// updated destinations) one array per column.
pub(super) fn bound_values(
    plan: &KernelPlan,
    columns: Vec<HostColumn>,
    segment_length: Option<usize>,
) -> Vec<Val> {
    use crate::codegen::extract::KernelChoice;
    match plan.choice {
        KernelChoice::Reduce { .. } | KernelChoice::Redomap { .. } => columns
            .into_iter()
            .map(|column| {
                let data = data_of(column);
                if data.len() == 1 {
                    Val::Prim(data.get(0))
                } else {
                    Val::Array(array_of(data))
                }
            })
            .collect(),
        KernelChoice::Filter { .. } => {
            let count = columns.first().map_or(0, HostColumn::len);
            std::iter::once(Val::Prim(optimized::ir::PrimValue::I64(count as i64)))
                .chain(
                    columns
                        .into_iter()
                        .map(|column| Val::Array(array_of(data_of(column)))),
                )
                .collect()
        }
        KernelChoice::SegmentedScanomap { .. } => columns
            .into_iter()
            .map(|column| {
                let data = data_of(column);
                let length = segment_length.unwrap_or(data.len()).max(1);
                Val::Array(ArrayVal {
                    shape: vec![data.len() / length, length],
                    data,
                })
            })
            .collect(),
        KernelChoice::Map { .. }
        | KernelChoice::SegmentedRedomap { .. }
        | KernelChoice::Scan { .. }
        | KernelChoice::Scanomap { .. }
        | KernelChoice::Scatter { .. }
        | KernelChoice::Histogram { .. } => columns
            .into_iter()
            .map(|column| Val::Array(array_of(data_of(column))))
            .collect(),
    }
}

pub(super) fn array_of(data: Data) -> ArrayVal {
    ArrayVal {
        shape: vec![data.len()],
        data,
    }
}

/// A host column holding a copy of `data`.
pub(super) fn host_column(data: &Data) -> HostColumn {
    match data {
        Data::I8(v) => HostColumn::I8(v.to_vec()),
        Data::I16(v) => HostColumn::I16(v.to_vec()),
        Data::I32(v) => HostColumn::I32(v.to_vec()),
        Data::I64(v) => HostColumn::I64(v.to_vec()),
        Data::U8(v) => HostColumn::U8(v.to_vec()),
        Data::U16(v) => HostColumn::U16(v.to_vec()),
        Data::U32(v) => HostColumn::U32(v.to_vec()),
        Data::U64(v) => HostColumn::U64(v.to_vec()),
        Data::F32(v) => HostColumn::F32(v.to_vec()),
        Data::F64(v) => HostColumn::F64(v.to_vec()),
        Data::Bool(v) => HostColumn::Bool(v.to_vec()),
    }
}

/// The CPU backend's data holding `column`.
pub(super) fn data_of(column: HostColumn) -> Data {
    match column {
        HostColumn::I8(v) => Data::I8(Arc::new(v)),
        HostColumn::I16(v) => Data::I16(Arc::new(v)),
        HostColumn::I32(v) => Data::I32(Arc::new(v)),
        HostColumn::I64(v) => Data::I64(Arc::new(v)),
        HostColumn::U8(v) => Data::U8(Arc::new(v)),
        HostColumn::U16(v) => Data::U16(Arc::new(v)),
        HostColumn::U32(v) => Data::U32(Arc::new(v)),
        HostColumn::U64(v) => Data::U64(Arc::new(v)),
        HostColumn::F32(v) => Data::F32(Arc::new(v)),
        HostColumn::F64(v) => Data::F64(Arc::new(v)),
        HostColumn::Bool(v) => Data::Bool(Arc::new(v)),
    }
}
