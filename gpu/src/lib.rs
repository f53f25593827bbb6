//! The GPU backend: kernel extraction from the SOAC IR, GLSL compute shaders
//! compiled to SPIR-V, and a Vulkan runtime.
//!
//! Nothing is implemented yet (the GPU-backend issue). It depends on `optimized/`
//! for the IR once that exists.
