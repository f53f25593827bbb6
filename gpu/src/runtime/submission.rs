//! Recording, submitting and waiting — with a timeout — and the dispatch
//! helper.
//!
//! Submission goes through `vkQueueSubmit` with our own fence rather than
//! vulkano's `GpuFuture` chain, whose destructors block forever on a hung
//! device and panic on a lost one. When the wait fails (timeout or device
//! loss) the command buffer and fence are deliberately leaked — the device may
//! still use them — and the runtime is marked unusable, so the caller gets an
//! error instead of a hang or a panic.

use super::pipelines::ComputeKernel;
use super::{DeviceBuffer, Runtime};
use crate::error::{
    from_validated_vulkan_error, from_validation_error, from_vulkan_error, GpuError, GpuResult,
};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use vulkano::command_buffer::{
    AutoCommandBufferBuilder, CommandBufferSubmitInfo, CommandBufferUsage,
    PrimaryAutoCommandBuffer, SubmitInfo,
};
use vulkano::descriptor_set::{DescriptorSet, WriteDescriptorSet};
use vulkano::pipeline::{Pipeline, PipelineBindPoint, PipelineLayout};
use vulkano::sync::fence::{Fence, FenceCreateInfo};
use vulkano::VulkanError;

/// A command buffer being recorded.
pub type CommandRecorder = AutoCommandBufferBuilder<PrimaryAutoCommandBuffer>;

impl Runtime {
    /// An error if an earlier failure left the runtime unusable.
    pub fn ensure_usable(&self) -> GpuResult<()> {
        if self.unusable.load(Ordering::SeqCst) {
            Err(GpuError::RuntimeUnusable)
        } else {
            Ok(())
        }
    }

    fn mark_unusable_on_fatal(&self, error: &GpuError) {
        if matches!(
            error,
            GpuError::DeviceLost { .. } | GpuError::Timeout { .. }
        ) {
            self.unusable.store(true, Ordering::SeqCst);
        }
    }

    /// Record commands with `record`, submit them and wait until the device
    /// has finished them (or the submission timeout has passed).
    pub fn run_commands(
        &self,
        operation: &str,
        record: impl FnOnce(&mut CommandRecorder) -> GpuResult<()>,
    ) -> GpuResult<()> {
        self.ensure_usable()?;
        let mut builder = AutoCommandBufferBuilder::primary(
            self.command_buffer_allocator.clone(),
            self.queue.queue_family_index(),
            CommandBufferUsage::OneTimeSubmit,
        )
        .map_err(|error| from_validated_vulkan_error(operation, error))?;
        record(&mut builder)?;
        let command_buffer = builder
            .build()
            .map_err(|error| from_validated_vulkan_error(operation, error))?;
        let fence = Arc::new(
            Fence::new(self.device.clone(), FenceCreateInfo::default())
                .map_err(|error| from_validated_vulkan_error(operation, error))?,
        );
        let submit_info = SubmitInfo {
            command_buffers: vec![CommandBufferSubmitInfo::new(command_buffer.clone())],
            ..Default::default()
        };
        // SAFETY: the command buffer (which keeps every resource it uses
        // alive) and the fence live until the fence has signalled, or are
        // leaked below; every submission waits before returning, so no other
        // use of these resources overlaps it; the command buffer is
        // one-time-submit and submitted once.
        let submitted = self
            .queue
            .with(|mut queue| unsafe { queue.submit(&[submit_info], Some(&fence)) });
        if let Err(error) = submitted {
            let error = from_validated_vulkan_error(operation, error);
            self.mark_unusable_on_fatal(&error);
            return Err(error);
        }
        match fence.wait(Some(self.submission_timeout)) {
            Ok(()) => Ok(()),
            Err(error) => {
                std::mem::forget(command_buffer);
                std::mem::forget(fence);
                let error = match error {
                    VulkanError::Timeout => GpuError::Timeout {
                        operation: operation.to_owned(),
                        seconds: self.submission_timeout.as_secs_f64(),
                    },
                    other => from_vulkan_error(operation, other),
                };
                // Any failed wait leaves the device's use of the resources
                // unknown: refuse further work.
                self.unusable.store(true, Ordering::SeqCst);
                Err(error)
            }
        }
    }

    /// Run `kernel` once over `workgroup_counts` workgroups with `buffers`
    /// bound at set 0, bindings 0..n, and `push_constant_words` as its push
    /// constants. Returns when the device has finished.
    pub fn dispatch(
        &self,
        kernel: &ComputeKernel,
        buffers: &[&DeviceBuffer],
        push_constant_words: &[u32],
        workgroup_counts: [u32; 3],
    ) -> GpuResult<()> {
        let operation = format!("running kernel `{}`", kernel.name);
        if buffers.len() as u32 != kernel.storage_buffer_count {
            return Err(GpuError::Vulkan {
                operation,
                detail: format!(
                    "the kernel binds {} storage buffers but {} were given",
                    kernel.storage_buffer_count,
                    buffers.len()
                ),
            });
        }
        if push_constant_words.len() as u32 * 4 != kernel.push_constant_bytes {
            return Err(GpuError::Vulkan {
                operation,
                detail: format!(
                    "the kernel takes {} bytes of push constants but {} were given",
                    kernel.push_constant_bytes,
                    push_constant_words.len() * 4
                ),
            });
        }
        let limit = self.device_info.max_workgroup_count;
        if workgroup_counts
            .iter()
            .zip(limit.iter())
            .any(|(requested, maximum)| requested > maximum)
        {
            return Err(GpuError::TooManyWorkgroups {
                requested: workgroup_counts,
                limit,
            });
        }
        if workgroup_counts.contains(&0) {
            return Ok(());
        }
        let layout = kernel.pipeline.layout().clone();
        let descriptor_set = match layout.set_layouts().first() {
            Some(set_layout) if !buffers.is_empty() => {
                let mut writes = Vec::with_capacity(buffers.len());
                for (binding, buffer) in buffers.iter().enumerate() {
                    writes.push(WriteDescriptorSet::buffer(
                        binding as u32,
                        buffer.bound_range()?,
                    ));
                }
                Some(
                    DescriptorSet::new(
                        self.descriptor_set_allocator.clone(),
                        set_layout.clone(),
                        writes,
                        [],
                    )
                    .map_err(|error| from_validated_vulkan_error(&operation, error))?,
                )
            }
            _ => None,
        };
        self.run_commands(&operation, |builder| {
            let validation = |error| from_validation_error(&operation, error);
            builder
                .bind_pipeline_compute(kernel.pipeline.clone())
                .map_err(validation)?;
            if let Some(descriptor_set) = descriptor_set {
                builder
                    .bind_descriptor_sets(
                        PipelineBindPoint::Compute,
                        layout.clone(),
                        0,
                        descriptor_set,
                    )
                    .map_err(validation)?;
            }
            push_constants(builder, &layout, push_constant_words).map_err(validation)?;
            // SAFETY: the kernel comes from our own GLSL, validated by
            // spirv-val in tests; every buffer it binds is bound, and kernels
            // bound their accesses by the lengths passed as push constants.
            unsafe { builder.dispatch(workgroup_counts) }.map_err(validation)?;
            Ok(())
        })
    }
}

fn push_fixed_constants<const WORD_COUNT: usize>(
    builder: &mut CommandRecorder,
    layout: &Arc<PipelineLayout>,
    words: &[u32],
) -> Result<(), Box<vulkano::ValidationError>> {
    let mut array = [0u32; WORD_COUNT];
    array.copy_from_slice(words);
    builder.push_constants(layout.clone(), 0, array)?;
    Ok(())
}

macro_rules! push_constants_by_word_count {
    ($builder:expr, $layout:expr, $words:expr; $($count:literal)*) => {
        match $words.len() {
            0 => Ok(()),
            $($count => push_fixed_constants::<$count>($builder, $layout, $words),)*
            _ => Err(Box::new(vulkano::ValidationError {
                problem: "more than 128 bytes of push constants".into(),
                ..Default::default()
            })),
        }
    };
}

/// Push `words` at offset 0 (vulkano wants a sized value; Vulkan guarantees
/// 128 bytes, i.e. up to 32 words).
fn push_constants(
    builder: &mut CommandRecorder,
    layout: &Arc<PipelineLayout>,
    words: &[u32],
) -> Result<(), Box<vulkano::ValidationError>> {
    push_constants_by_word_count!(builder, layout, words;
        1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::map::map_times_two_plus_one_source;
    use crate::kernels::{compiled_spirv, DemoElementType};
    use crate::runtime::instance::ValidationMode;
    use crate::runtime::RuntimeOptions;

    /// The tests' "zero validation messages" assertions mean something only if
    /// the messenger really records what the layer reports: record (but never
    /// submit) a dispatch past the workgroup limit, which vulkano's checks
    /// would refuse, and expect the layer to complain (it then skips the call,
    /// so the driver never sees it).
    #[test]
    fn the_validation_layer_reports_an_invalid_dispatch_to_the_recorder() {
        let runtime = Runtime::new(RuntimeOptions {
            validation: ValidationMode::Required,
            ..RuntimeOptions::default()
        })
        .unwrap_or_else(|error| panic!("cannot create a validated runtime: {error}"));
        let source = map_times_two_plus_one_source(DemoElementType::U32);
        let kernel = runtime
            .load_kernel(&source.name, &compiled_spirv(&source).expect("compiles"))
            .expect("loads");
        let buffer = runtime.upload_scalars(&[1u32, 2, 3]).expect("uploads");
        let layout = kernel.pipeline.layout().clone();
        let set_layout = layout.set_layouts()[0].clone();
        let writes = [
            WriteDescriptorSet::buffer(0, buffer.bound_range().expect("bound")),
            WriteDescriptorSet::buffer(1, buffer.bound_range().expect("bound")),
        ];
        let descriptor_set = DescriptorSet::new(
            runtime.descriptor_set_allocator.clone(),
            set_layout,
            writes,
            [],
        )
        .expect("descriptor set");
        let mut builder = AutoCommandBufferBuilder::primary(
            runtime.command_buffer_allocator.clone(),
            runtime.queue.queue_family_index(),
            CommandBufferUsage::OneTimeSubmit,
        )
        .expect("command buffer");
        builder
            .bind_pipeline_compute(kernel.pipeline.clone())
            .expect("bind pipeline")
            .bind_descriptor_sets(
                PipelineBindPoint::Compute,
                layout.clone(),
                0,
                descriptor_set,
            )
            .expect("bind descriptor set");
        push_constants(&mut builder, &layout, &[3]).expect("push constants");
        let too_many = runtime.device_info().max_workgroup_count[0].saturating_add(1);
        assert!(runtime.validation_messages().is_empty());
        // SAFETY: the command buffer is recorded but never submitted.
        unsafe {
            builder.dispatch_unchecked([too_many, 1, 1]);
        }
        drop(builder.build());
        let messages = runtime.validation_messages();
        assert!(
            messages
                .iter()
                .any(|message| message.contains("groupCountX")),
            "the recorder missed the layer's report: {messages:?}"
        );
    }
}
