//! The GPU backend: GLSL compute shaders compiled to SPIR-V with shaderc and
//! run through Vulkan (vulkano 0.35).
//!
//! * [`compile`]: GLSL → SPIR-V, one compiler per thread, located errors;
//! * [`runtime`]: instance (with validation on request), device choice,
//!   buffers, pipelines, dispatch;
//! * [`kernels`]: hand-written kernels (grid-stride `map`, workgroup
//!   `reduce`) that prove the toolchain end to end until kernels are generated
//!   from the SOAC IR of `optimized/`;
//! * [`codegen`]: IR lambdas → GLSL, top-level SOACs → kernel plans;
//! * [`driver`]: whole programs on the CPU backend with their planned
//!   SOACs run as kernels;
//! * [`error`]: [`GpuError`], the one error type;
//! * [`bounded_cache`]: the least-recently-used map both compile caches
//!   (modules by source, pipelines by SPIR-V) are.

pub mod bounded_cache;
pub mod codegen;
pub mod compile;
pub mod driver;
pub mod error;
pub mod kernels;
pub mod runtime;

pub use error::{GpuError, GpuResult};
pub use runtime::{Runtime, RuntimeOptions};
