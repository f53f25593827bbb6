//! Vulkan instance creation, with the Khronos validation layer on request.
//!
//! Validation is enabled when `RUNESTONE_VALIDATION=1`, when
//! `VK_INSTANCE_LAYERS` names the Khronos layer (the loader would enable it
//! anyway; the runtime then records its messages), or when the caller asks
//! for it (tests always do). A debug messenger records every warning and
//! error message the layers or the loader emit, so a test can assert that a
//! run produced none. Without a Vulkan loader, creation fails with
//! [`GpuError::VulkanUnavailable`], never a panic.

use crate::error::{from_validated_vulkan_error, GpuError, GpuResult};
use std::sync::{Arc, Mutex};
use vulkano::instance::debug::ValidationFeatureEnable;
use vulkano::instance::debug::{
    DebugUtilsMessageSeverity, DebugUtilsMessageType, DebugUtilsMessenger,
    DebugUtilsMessengerCallback, DebugUtilsMessengerCreateInfo,
};
use vulkano::instance::{Instance, InstanceCreateFlags, InstanceCreateInfo, InstanceExtensions};
use vulkano::{Validated, VulkanError, VulkanLibrary};

/// The name of the Khronos validation layer.
pub const KHRONOS_VALIDATION_LAYER_NAME: &str = "VK_LAYER_KHRONOS_validation";

/// Whether to run with the validation layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValidationMode {
    /// No validation layer.
    Disabled,
    /// Enabled when the environment says `RUNESTONE_VALIDATION=1` or
    /// `VK_INSTANCE_LAYERS` names [`KHRONOS_VALIDATION_LAYER_NAME`].
    FromEnvironment,
    /// Always enabled; a missing layer is an error.
    Required,
}

impl ValidationMode {
    /// Resolve `FromEnvironment` against `RUNESTONE_VALIDATION`.
    pub fn is_enabled(self) -> bool {
        match self {
            ValidationMode::Disabled => false,
            ValidationMode::Required => true,
            ValidationMode::FromEnvironment => {
                std::env::var("RUNESTONE_VALIDATION")
                    .map(|value| value == "1" || value.eq_ignore_ascii_case("true"))
                    .unwrap_or(false)
                    || std::env::var("VK_INSTANCE_LAYERS").is_ok_and(|layers| {
                        layers
                            .split([':', ';'])
                            .any(|layer| layer == KHRONOS_VALIDATION_LAYER_NAME)
                    })
            }
        }
    }
}

/// The message identifier of the layer's warning that
/// `vkGetDeviceProcAddr` was asked for an instance-level function. vulkano
/// fills its device function table by asking for every function of the
/// device's extensions, physical-device queries such as
/// `vkGetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR` included (the
/// driver answers null, and vulkano never calls them through that table).
/// Validation layers from 1.4 warn about it once per device created: on an
/// NVIDIA H100 with layer 1.4.309 it was the only message of every GPU test
/// (gpu/NOTES.md, "On an NVIDIA H100"). Such messages are kept apart, not
/// dropped: [`ValidationMessages::set_aside`].
pub const FUNCTION_LOADING_WARNING_ID: &str = "WARNING-vkGetDeviceProcAddr-device";

/// Whether a message with this identifier is about vulkano's loading of
/// function pointers rather than about anything the runtime does.
pub fn is_about_function_loading(message_identifier: &str) -> bool {
    message_identifier == FUNCTION_LOADING_WARNING_ID
}

/// Every validation (or loader) message recorded so far, shared with the
/// debug callback.
#[derive(Clone, Debug, Default)]
pub struct ValidationMessages {
    recorded_messages: Arc<Mutex<Vec<String>>>,
    set_aside_messages: Arc<Mutex<Vec<String>>>,
}

fn copy_of(messages: &Mutex<Vec<String>>) -> Vec<String> {
    match messages.lock() {
        Ok(messages) => messages.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    }
}

fn push(messages: &Mutex<Vec<String>>, message: String) {
    match messages.lock() {
        Ok(mut messages) => messages.push(message),
        Err(poisoned) => poisoned.into_inner().push(message),
    }
}

impl ValidationMessages {
    /// A copy of the messages recorded so far (those about function loading
    /// excepted).
    pub fn snapshot(&self) -> Vec<String> {
        copy_of(&self.recorded_messages)
    }

    /// The messages about vulkano's function loading
    /// ([`is_about_function_loading`]), recorded apart.
    pub fn set_aside(&self) -> Vec<String> {
        copy_of(&self.set_aside_messages)
    }

    fn record(&self, identifier: &str, message: String) {
        if is_about_function_loading(identifier) {
            push(&self.set_aside_messages, message);
        } else {
            push(&self.recorded_messages, message);
        }
    }
}

/// A Vulkan instance and, when validating, the messenger that records messages.
pub struct VulkanInstance {
    /// The instance.
    pub instance: Arc<Instance>,
    /// Whether the validation layer is enabled.
    pub validation_enabled: bool,
    /// The messages recorded by the messenger (empty when not validating).
    pub validation_messages: ValidationMessages,
    _messenger: Option<DebugUtilsMessenger>,
}

fn load_vulkan_library() -> GpuResult<Arc<VulkanLibrary>> {
    VulkanLibrary::new().map_err(|error| GpuError::VulkanUnavailable {
        detail: error.to_string(),
    })
}

fn messenger_create_info(messages: &ValidationMessages) -> DebugUtilsMessengerCreateInfo {
    let recorder = messages.clone();
    // SAFETY: the callback makes no Vulkan call; it only formats and stores text.
    let callback = unsafe {
        DebugUtilsMessengerCallback::new(move |severity, message_type, data| {
            let identifier = data.message_id_name.unwrap_or("no id");
            recorder.record(
                identifier,
                format!(
                    "[{severity:?} {message_type:?} {identifier}] {}",
                    data.message
                ),
            );
        })
    };
    DebugUtilsMessengerCreateInfo {
        message_severity: DebugUtilsMessageSeverity::ERROR | DebugUtilsMessageSeverity::WARNING,
        message_type: DebugUtilsMessageType::GENERAL
            | DebugUtilsMessageType::VALIDATION
            | DebugUtilsMessageType::PERFORMANCE,
        ..DebugUtilsMessengerCreateInfo::user_callback(callback)
    }
}

/// Create a Vulkan instance; with `validation`, enable the Khronos layer
/// (an error naming the package when it is missing) and record its messages.
pub fn create_vulkan_instance(validation: ValidationMode) -> GpuResult<VulkanInstance> {
    let library = load_vulkan_library()?;
    let validation_enabled = validation.is_enabled();
    let messages = ValidationMessages::default();
    let supported_extensions = *library.supported_extensions();
    let mut enabled_extensions = InstanceExtensions::empty();
    let mut flags = InstanceCreateFlags::empty();
    if supported_extensions.khr_portability_enumeration {
        enabled_extensions.khr_portability_enumeration = true;
        flags |= InstanceCreateFlags::ENUMERATE_PORTABILITY;
    }
    let mut enabled_layers = Vec::new();
    let mut debug_utils_messengers = Vec::new();
    let mut enabled_validation_features = Vec::new();
    if validation_enabled {
        let layer_available = library
            .layer_properties()
            .map_err(|error| from_validated_vulkan_error("listing Vulkan layers", error.into()))?
            .any(|layer| layer.name() == KHRONOS_VALIDATION_LAYER_NAME);
        if !layer_available {
            return Err(GpuError::ValidationLayerMissing);
        }
        if !supported_extensions.ext_debug_utils {
            return Err(GpuError::Unsupported {
                what: "VK_EXT_debug_utils (needed to record validation messages)".to_owned(),
            });
        }
        enabled_layers.push(KHRONOS_VALIDATION_LAYER_NAME.to_owned());
        enabled_extensions.ext_debug_utils = true;
        debug_utils_messengers.push(messenger_create_info(&messages));
        // Synchronisation validation (off by default in the layer) checks
        // the runtime's own barriers: hazards between launches, or between
        // the device and the host, are reported like any other message.
        let layer_extensions = library
            .supported_extensions_with_layers([KHRONOS_VALIDATION_LAYER_NAME])
            .map_err(|error| {
                from_validated_vulkan_error(
                    "listing the validation layer's extensions",
                    error.into(),
                )
            })?;
        if layer_extensions.ext_validation_features {
            enabled_extensions.ext_validation_features = true;
            enabled_validation_features.push(ValidationFeatureEnable::SynchronizationValidation);
        }
    }
    let instance = Instance::new(
        library,
        InstanceCreateInfo {
            application_name: Some("runestone".to_owned()),
            flags,
            enabled_layers,
            enabled_extensions,
            debug_utils_messengers,
            enabled_validation_features,
            ..Default::default()
        },
    )
    .map_err(|error| match error {
        Validated::Error(VulkanError::IncompatibleDriver) => GpuError::VulkanUnavailable {
            detail: "the Vulkan loader found no compatible driver (ICD)".to_owned(),
        },
        other => from_validated_vulkan_error("creating the Vulkan instance", other),
    })?;
    let messenger = if validation_enabled {
        Some(
            DebugUtilsMessenger::new(instance.clone(), messenger_create_info(&messages)).map_err(
                |error| from_validated_vulkan_error("creating the debug messenger", error),
            )?,
        )
    } else {
        None
    };
    Ok(VulkanInstance {
        instance,
        validation_enabled,
        validation_messages: messages,
        _messenger: messenger,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the function-loading warning is set aside; every other message,
    /// warnings and synchronisation hazards included, is recorded.
    #[test]
    fn only_the_function_loading_warning_is_set_aside() {
        let messages = ValidationMessages::default();
        for identifier in [
            FUNCTION_LOADING_WARNING_ID,
            "SYNC-HAZARD-READ-AFTER-WRITE",
            "VUID-vkCmdDispatch-groupCountX-00386",
            "WARNING-vkGetInstanceProcAddr-device",
            "no id",
        ] {
            messages.record(identifier, format!("[{identifier}] text"));
        }
        assert_eq!(
            messages.set_aside(),
            vec![format!("[{FUNCTION_LOADING_WARNING_ID}] text")]
        );
        assert_eq!(messages.snapshot().len(), 4);
        assert!(messages
            .snapshot()
            .iter()
            .all(|message| !message.contains(FUNCTION_LOADING_WARNING_ID)));
    }
}
