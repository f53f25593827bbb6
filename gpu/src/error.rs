//! The one error type of the GPU backend.
//!
//! Every failure the runtime can meet — no Vulkan loader, no device, a kernel
//! that does not compile, a buffer larger than the device allows, out of
//! memory, a lost device, a submission that never finishes — is a `GpuError`
//! with enough context to act on. Vulkano's `Validated<...>` errors are mapped
//! here with the name of the operation that failed; nothing in this crate
//! panics on a device or driver failure.

use std::fmt;
use vulkano::{Validated, ValidationError, VulkanError};

/// A diagnostic from the GLSL compiler, located in the kernel's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileDiagnostic {
    /// The 1-based line in the kernel source, when the compiler gave one.
    pub line: Option<u32>,
    /// The compiler's message, without the file and line prefix.
    pub message: String,
}

/// Everything that can go wrong in the GPU backend.
#[derive(Debug)]
pub enum GpuError {
    /// The Vulkan loader (`libvulkan.so.1`) could not be loaded.
    VulkanUnavailable { detail: String },
    /// Vulkan is there but lists no physical device.
    NoDevice,
    /// `RUNESTONE_DEVICE` names no device.
    RequestedDeviceNotFound {
        requested: String,
        available: Vec<String>,
    },
    /// The validation layer was required but is not installed.
    ValidationLayerMissing,
    /// A kernel's GLSL did not compile.
    Compile {
        kernel_name: String,
        diagnostics: Vec<CompileDiagnostic>,
    },
    /// The device lacks something a kernel needs.
    Unsupported { what: String },
    /// A buffer larger than the device can bind or allocate.
    BufferTooLarge {
        requested_bytes: u64,
        limit_bytes: u64,
        limit_name: &'static str,
    },
    /// More workgroups than the device allows in one dispatch.
    TooManyWorkgroups {
        requested: [u32; 3],
        limit: [u32; 3],
    },
    /// Host data whose length does not match the device buffer.
    LengthMismatch {
        operation: &'static str,
        expected_bytes: u64,
        actual_bytes: u64,
    },
    /// Host or device memory ran out.
    OutOfMemory { operation: String },
    /// The device was lost (driver crash, reset, removal).
    DeviceLost { operation: String },
    /// A submission did not finish in time; the runtime is unusable afterwards.
    Timeout { operation: String, seconds: f64 },
    /// An earlier timeout or device loss left the runtime unusable.
    RuntimeUnusable,
    /// Vulkano rejected a call (a bug in this crate, reported, not panicked).
    Validation { operation: String, detail: String },
    /// Any other Vulkan error.
    Vulkan { operation: String, detail: String },
}

impl fmt::Display for GpuError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::VulkanUnavailable { detail } => write!(
                formatter,
                "Vulkan is not available: {detail} (install a Vulkan loader and driver, \
                 e.g. `apt-get install libvulkan1 mesa-vulkan-drivers` for the lavapipe CPU device)"
            ),
            GpuError::NoDevice => write!(
                formatter,
                "Vulkan found no device (install `mesa-vulkan-drivers` for the lavapipe CPU device)"
            ),
            GpuError::RequestedDeviceNotFound {
                requested,
                available,
            } => write!(
                formatter,
                "RUNESTONE_DEVICE={requested:?} matches no device; available: {}",
                if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                }
            ),
            GpuError::ValidationLayerMissing => write!(
                formatter,
                "the Vulkan validation layer VK_LAYER_KHRONOS_validation is not installed \
                 (apt-get install vulkan-validationlayers)"
            ),
            GpuError::Compile {
                kernel_name,
                diagnostics,
            } => {
                write!(formatter, "kernel `{kernel_name}` does not compile:")?;
                for diagnostic in diagnostics {
                    match diagnostic.line {
                        Some(line) => write!(
                            formatter,
                            "\n  {kernel_name}:{line}: {}",
                            diagnostic.message
                        )?,
                        None => write!(formatter, "\n  {kernel_name}: {}", diagnostic.message)?,
                    }
                }
                Ok(())
            }
            GpuError::Unsupported { what } => {
                write!(formatter, "the device does not support {what}")
            }
            GpuError::BufferTooLarge {
                requested_bytes,
                limit_bytes,
                limit_name,
            } => write!(
                formatter,
                "a buffer of {requested_bytes} bytes exceeds the device's {limit_name} \
                 ({limit_bytes} bytes)"
            ),
            GpuError::TooManyWorkgroups { requested, limit } => write!(
                formatter,
                "a dispatch of {requested:?} workgroups exceeds the device's limit {limit:?} \
                 (kernels must use grid-stride loops)"
            ),
            GpuError::LengthMismatch {
                operation,
                expected_bytes,
                actual_bytes,
            } => write!(
                formatter,
                "{operation}: the device buffer holds {expected_bytes} bytes but the host data \
                 has {actual_bytes}"
            ),
            GpuError::OutOfMemory { operation } => {
                write!(formatter, "out of memory during {operation}")
            }
            GpuError::DeviceLost { operation } => {
                write!(formatter, "the Vulkan device was lost during {operation}")
            }
            GpuError::Timeout { operation, seconds } => write!(
                formatter,
                "{operation} did not finish within {seconds} s; the GPU runtime is unusable now"
            ),
            GpuError::RuntimeUnusable => write!(
                formatter,
                "the GPU runtime is unusable after an earlier device loss or timeout"
            ),
            GpuError::Validation { operation, detail } => {
                write!(formatter, "{operation} was rejected by vulkano: {detail}")
            }
            GpuError::Vulkan { operation, detail } => {
                write!(formatter, "{operation} failed: {detail}")
            }
        }
    }
}

impl std::error::Error for GpuError {}

/// The result type of the GPU backend.
pub type GpuResult<T> = Result<T, GpuError>;

/// Map a raw Vulkan error, naming the operation.
pub fn from_vulkan_error(operation: &str, error: VulkanError) -> GpuError {
    match error {
        VulkanError::OutOfHostMemory | VulkanError::OutOfDeviceMemory => GpuError::OutOfMemory {
            operation: operation.to_owned(),
        },
        VulkanError::DeviceLost => GpuError::DeviceLost {
            operation: operation.to_owned(),
        },
        other => GpuError::Vulkan {
            operation: operation.to_owned(),
            detail: other.to_string(),
        },
    }
}

/// Map a vulkano validation error, naming the operation.
pub fn from_validation_error(operation: &str, error: Box<ValidationError>) -> GpuError {
    GpuError::Validation {
        operation: operation.to_owned(),
        detail: error.to_string(),
    }
}

/// Map vulkano's `Validated<VulkanError>`, naming the operation.
pub fn from_validated_vulkan_error(operation: &str, error: Validated<VulkanError>) -> GpuError {
    match error {
        Validated::Error(error) => from_vulkan_error(operation, error),
        Validated::ValidationError(error) => from_validation_error(operation, error),
    }
}
