//! The row-per-invocation kernels of regular segmented `reduce`/`scan`
//! (`[n][m]` given flat), for many short rows: invocation `r` folds (or
//! scans) row `r` sequentially, left to right, so any associative operator
//! works; a grid-stride loop covers more rows than invocations. Long rows, or
//! few rows, go through the workgroup-per-row ordered kernels of
//! [`super::reduce`] and [`super::scan`] instead ([`SegmentedStrategy`]).
//!
//! Bindings: inputs `input0…`, outputs `output0…` (operator types). Push
//! constants: segment count, segment length.

use super::{
    assign_neutral, combine_into, component_list, declare_tuple, glsl_header, store_tuple,
    tuple_buffer_declarations, ElementSource, GeneratedKernel,
};
use crate::kernels::element::KernelFeatures;
use crate::kernels::lambda::Operator;
use crate::kernels::KernelSource;

/// How regular segmented operations are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentedStrategy {
    /// Row per invocation for rows of at most [`SHORT_ROW_LENGTH`] elements
    /// when there are at least a workgroup's worth of rows; workgroup per row
    /// otherwise.
    Automatic,
    WorkgroupPerRow,
    InvocationPerRow,
    /// Scans only: one pass over the whole flat array with decoupled
    /// look-back, the scan restarting at every row
    /// ([`super::lookback::ScanExtent::Rows`]); any row shape uses the whole
    /// device. Not chosen automatically until measured on a GPU. A
    /// reduction given it uses a workgroup per row.
    SinglePass,
}

/// The longest rows the automatic strategy gives one invocation each.
pub const SHORT_ROW_LENGTH: u64 = 64;

impl SegmentedStrategy {
    /// The concrete strategy for `segment_count` rows of `segment_length`.
    pub fn resolve(
        self,
        segment_count: u64,
        segment_length: u64,
        workgroup_size: u32,
    ) -> SegmentedStrategy {
        match self {
            SegmentedStrategy::Automatic
                if segment_length <= SHORT_ROW_LENGTH
                    && segment_count >= u64::from(workgroup_size) =>
            {
                SegmentedStrategy::InvocationPerRow
            }
            SegmentedStrategy::Automatic => SegmentedStrategy::WorkgroupPerRow,
            concrete => concrete,
        }
    }
}

/// What a row-per-invocation kernel computes per row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOperation {
    /// One result per row.
    Reduce,
    /// The inclusive scan of each row.
    Scan,
}

/// The row-per-invocation kernel.
pub fn row_per_invocation_kernel(
    source: &ElementSource,
    operator: &Operator,
    row_operation: RowOperation,
    workgroup_size: u32,
) -> GeneratedKernel {
    let types = &operator.element_types;
    let count = types.len();
    let features = source
        .features()
        .union(KernelFeatures::for_element_types(types));
    let accumulator = component_list("accumulator", "", count);
    let loaded = component_list("loaded", "", count);
    let (store_each, store_last) = match row_operation {
        RowOperation::Scan => (
            store_tuple("output", "row_start + column", &accumulator, types),
            String::new(),
        ),
        RowOperation::Reduce => (
            String::new(),
            store_tuple("output", "row", &accumulator, types),
        ),
    };
    let glsl = format!(
        "{header}{inputs}{outputs}\
         layout(push_constant) uniform Parameters {{ uint segment_count; uint segment_length; }} parameters;\n\
         {combine}\
         void main() {{\n\
             uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n\
             for (uint row = gl_GlobalInvocationID.x; row < parameters.segment_count; row += stride) {{\n\
                 uint row_start = row * parameters.segment_length;\n\
                 {declare_accumulator}{neutral}\n\
                 for (uint column = 0u; column < parameters.segment_length; column++) {{\n\
                     {declare_loaded}load_element(row_start + column, {loaded_list});\n\
                     {fold}\n\
                     {store_each}\n\
                 }}\n\
                 {store_last}\n\
             }}\n\
         }}\n",
        header = glsl_header(features, workgroup_size, "segmented, row per invocation"),
        inputs = source.glsl_declarations(0),
        outputs = tuple_buffer_declarations(
            source.input_types.len() as u32,
            "writeonly",
            "output",
            types
        ),
        combine = operator.glsl_function("combine"),
        declare_accumulator = declare_tuple("accumulator", types),
        neutral = assign_neutral(&accumulator, operator),
        declare_loaded = declare_tuple("loaded", types),
        loaded_list = loaded.join(", "),
        fold = combine_into(operator, &accumulator, &loaded, &accumulator),
    );
    GeneratedKernel {
        source: KernelSource {
            name: format!(
                "segmented_{}_row_per_invocation_{}",
                match row_operation {
                    RowOperation::Reduce => "reduce",
                    RowOperation::Scan => "scan",
                },
                source.name_fragment()
            ),
            glsl,
        },
        features,
    }
}
