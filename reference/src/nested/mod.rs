//! Leshchinskiy (2005), *Higher-Order Nested Data Parallelism*: λP, closure
//! conversion to λC, flattening to λA, the call-by-name semantics of λC and λA,
//! readback into a common observation type, and the thesis' theorems as
//! executable checks. `proofs-notes/leshchinskiy05.md` maps every definition and
//! theorem to the function that implements it.

pub mod closure_conversion;
pub mod concrete;
pub mod constants;
pub mod exercises;
pub mod flat_types;
pub mod flatten;
pub mod lambda_a;
pub mod lambda_c;
pub mod lambda_p;
pub mod machine;
pub mod observation;
pub mod pipeline;
pub mod primitives_a;
pub mod primitives_c;
pub mod readback;
pub mod reduce_a;
pub mod reduce_c;
pub mod stepper;
pub mod theorems;
pub mod types;
pub mod typing_a;
pub mod typing_c;
pub mod typing_p;
