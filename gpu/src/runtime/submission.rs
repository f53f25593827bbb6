//! Recording, submitting and waiting — with a timeout — and the dispatch
//! helpers.
//!
//! Commands are recorded into vulkano's unsafe `RecordingCommandBuffer`
//! (not the `AutoCommandBufferBuilder`, which cannot record a barrier to the
//! host stage) and submitted with `vkQueueSubmit` and our own fence rather
//! than vulkano's `GpuFuture` chain, whose destructors block forever on a hung
//! device and panic on a lost one. Every recording ends with a memory barrier
//! from all commands' writes to `HOST`/`HOST_READ | HOST_WRITE`, so what
//! kernels and copies wrote is visible to the host after the fence wait (the
//! Vulkan memory model asks for both); consecutive launches of
//! [`Runtime::run_kernels`] are separated by an all-commands memory barrier.
//!
//! Resource lifetimes are ours to keep: every submission waits before
//! returning, and the buffers, descriptor sets and pipelines it uses are
//! borrowed or owned by the caller for the whole call. When the wait fails
//! (timeout or device loss) the command buffer and fence are deliberately
//! leaked — the device may still use them — and the runtime is marked
//! unusable, so the caller gets an error instead of a hang or a panic.

use super::pipelines::ComputeKernel;
use super::{DeviceBuffer, EnvironmentBuffers, Runtime};
use crate::error::{
    from_validated_vulkan_error, from_validation_error, from_vulkan_error, GpuError, GpuResult,
};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vulkano::command_buffer::{
    CommandBufferBeginInfo, CommandBufferLevel, CommandBufferUsage, RecordingCommandBuffer,
};
use vulkano::descriptor_set::{DescriptorSet, WriteDescriptorSet};
use vulkano::pipeline::{Pipeline, PipelineBindPoint, PipelineLayout};
use vulkano::query::{QueryPool, QueryPoolCreateInfo, QueryResultFlags, QueryType};
use vulkano::sync::fence::{Fence, FenceCreateInfo};
use vulkano::sync::PipelineStage;
use vulkano::sync::{AccessFlags, DependencyInfo, MemoryBarrier, PipelineStages};
use vulkano::{VulkanError, VulkanObject};

/// A command buffer being recorded.
pub type CommandRecorder = RecordingCommandBuffer;

/// One kernel launch of a [`Runtime::run_kernels`] sequence.
pub struct KernelLaunch<'a> {
    pub kernel: &'a ComputeKernel,
    /// Bound at set 0, bindings 0..n.
    pub buffers: Vec<&'a DeviceBuffer>,
    /// Bound at set 1 where the kernel declares an environment (a kernel
    /// that declares none ignores it; one that declares one needs it).
    pub environment: Option<&'a EnvironmentBuffers>,
    /// The push-constant block, as 32-bit words.
    pub push_constant_words: Vec<u32>,
    pub workgroup_counts: [u32; 3],
}

/// The descriptor sets of one launch, by set number.
type BoundSets = Vec<(u32, Arc<DescriptorSet>)>;

/// The measured time of one submission (while profiling is on, see
/// [`Runtime::start_profiling`]).
#[derive(Clone, Debug)]
pub struct SubmissionTiming {
    pub operation: String,
    /// Between timestamps written before the first and after the last
    /// command (`None` where the queue has no timestamps).
    pub device_time: Option<Duration>,
    /// From `vkQueueSubmit` to the fence's signal as the host saw it.
    pub host_time: Duration,
}

/// A memory barrier from `source` stages' writes to `destination` stages'
/// accesses.
fn memory_barrier(
    source_stages: PipelineStages,
    destination_stages: PipelineStages,
    destination_access: AccessFlags,
) -> DependencyInfo {
    DependencyInfo {
        memory_barriers: [MemoryBarrier {
            src_stages: source_stages,
            src_access: AccessFlags::MEMORY_WRITE,
            dst_stages: destination_stages,
            dst_access: destination_access,
            ..Default::default()
        }]
        .into_iter()
        .collect(),
        ..Default::default()
    }
}

/// What the end of every submission records: device writes → host accesses.
fn device_to_host_barrier() -> DependencyInfo {
    memory_barrier(
        PipelineStages::ALL_COMMANDS,
        PipelineStages::HOST,
        AccessFlags::HOST_READ | AccessFlags::HOST_WRITE,
    )
}

/// What separates two launches of one submission: earlier writes → any later
/// read or write.
fn launch_to_launch_barrier() -> DependencyInfo {
    memory_barrier(
        PipelineStages::ALL_COMMANDS,
        PipelineStages::ALL_COMMANDS,
        AccessFlags::MEMORY_READ | AccessFlags::MEMORY_WRITE,
    )
}

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
            self.abandon_device_resources();
        }
    }

    /// Refuse further work and leak, rather than free or reuse, every
    /// buffer the device may still be using.
    fn abandon_device_resources(&self) {
        self.unusable.store(true, Ordering::SeqCst);
        super::buffers::lock_pool(&self.buffer_pool).abandon();
    }

    /// Record commands with `record` (then the device → host barrier), submit
    /// them and wait until the device has finished them (or the submission
    /// timeout has passed). Every resource `record` uses must outlive this
    /// call, which it does when it is borrowed by the closure.
    pub fn run_commands(
        &self,
        operation: &str,
        record: impl FnOnce(&mut CommandRecorder) -> GpuResult<()>,
    ) -> GpuResult<()> {
        self.ensure_usable()?;
        let mut recorder = RecordingCommandBuffer::new(
            self.command_buffer_allocator.clone(),
            self.queue.queue_family_index(),
            CommandBufferLevel::Primary,
            CommandBufferBeginInfo {
                usage: CommandBufferUsage::OneTimeSubmit,
                ..Default::default()
            },
        )
        .map_err(|error| from_validated_vulkan_error(operation, error))?;
        let timestamps = self.profiling_timestamps(operation)?;
        if let Some(pool) = &timestamps {
            // SAFETY: a fresh pool, reset before use, used by this command
            // buffer only.
            unsafe {
                recorder.reset_query_pool(pool, 0..2).and_then(|recorder| {
                    recorder.write_timestamp(pool, 0, PipelineStage::TopOfPipe)
                })
            }
            .map_err(|error| from_validation_error(operation, error))?;
        }
        record(&mut recorder)?;
        if let Some(pool) = &timestamps {
            // SAFETY: as above; query 1 after every command.
            unsafe { recorder.write_timestamp(pool, 1, PipelineStage::BottomOfPipe) }
                .map_err(|error| from_validation_error(operation, error))?;
        }
        // SAFETY: a plain memory barrier on a primary command buffer of a
        // compute-capable queue.
        unsafe { recorder.pipeline_barrier(&device_to_host_barrier()) }
            .map_err(|error| from_validation_error(operation, error))?;
        // SAFETY: recording is complete.
        let command_buffer =
            unsafe { recorder.end() }.map_err(|error| from_vulkan_error(operation, error))?;
        let fence = Fence::new(self.device.clone(), FenceCreateInfo::default())
            .map_err(|error| from_validated_vulkan_error(operation, error))?;
        let command_buffer_handle = command_buffer.handle();
        let submit_info = ash::vk::SubmitInfo::default()
            .command_buffers(std::slice::from_ref(&command_buffer_handle));
        let queue_submit = self.device.fns().v1_0.queue_submit;
        let submitted_at = Instant::now();
        // SAFETY: `with` holds the queue's lock (external synchronisation);
        // the command buffer was recorded for this queue's family, is
        // one-time-submit and submitted once; every resource it uses outlives
        // the wait below (or is leaked with it on failure).
        let submitted = self.queue.with(|_locked_queue| unsafe {
            queue_submit(self.queue.handle(), 1, &submit_info, fence.handle())
        });
        if let Err(result) = submitted.result() {
            let error = from_vulkan_error(operation, VulkanError::from(result));
            self.mark_unusable_on_fatal(&error);
            return Err(error);
        }
        match fence.wait(Some(self.submission_timeout)) {
            Ok(()) => {
                let host_time = submitted_at.elapsed();
                self.record_timing(operation, timestamps.as_deref(), host_time)
            }
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
                // unknown: refuse further work and free no buffer.
                self.abandon_device_resources();
                Err(error)
            }
        }
    }

    /// Record the time of every later submission until
    /// [`Runtime::stop_profiling`] (device time from timestamp queries where
    /// the queue has them).
    pub fn start_profiling(&self) {
        *self.lock_profile() = Some(Vec::new());
    }

    /// Stop recording and return the timings recorded since
    /// [`Runtime::start_profiling`].
    pub fn stop_profiling(&self) -> Vec<SubmissionTiming> {
        self.lock_profile().take().unwrap_or_default()
    }

    /// Whether the queue writes timestamps (profiling then measures device
    /// time, otherwise host time around the fence only).
    pub fn has_timestamps(&self) -> bool {
        self.timestamp_valid_bits.is_some()
    }

    fn lock_profile(&self) -> std::sync::MutexGuard<'_, Option<Vec<SubmissionTiming>>> {
        match self.profile.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// A two-query timestamp pool when profiling with timestamps.
    fn profiling_timestamps(&self, operation: &str) -> GpuResult<Option<Arc<QueryPool>>> {
        if self.lock_profile().is_none() || self.timestamp_valid_bits.is_none() {
            return Ok(None);
        }
        QueryPool::new(
            self.device.clone(),
            QueryPoolCreateInfo {
                query_count: 2,
                ..QueryPoolCreateInfo::query_type(QueryType::Timestamp)
            },
        )
        .map(Some)
        .map_err(|error| from_validated_vulkan_error(operation, error))
    }

    fn record_timing(
        &self,
        operation: &str,
        timestamps: Option<&QueryPool>,
        host_time: Duration,
    ) -> GpuResult<()> {
        let device_time = match (timestamps, self.timestamp_valid_bits) {
            (Some(pool), Some(valid_bits)) => {
                let mut ticks = [0u64; 2];
                pool.get_results(0..2, &mut ticks, QueryResultFlags::WAIT)
                    .map_err(|error| from_validated_vulkan_error(operation, error))?;
                let mask = if valid_bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << valid_bits) - 1
                };
                let elapsed_ticks = ticks[1].wrapping_sub(ticks[0]) & mask;
                Some(Duration::from_nanos(
                    (elapsed_ticks as f64 * f64::from(self.timestamp_period_nanoseconds)) as u64,
                ))
            }
            _ => None,
        };
        if let Some(profile) = self.lock_profile().as_mut() {
            profile.push(SubmissionTiming {
                operation: operation.to_owned(),
                device_time,
                host_time,
            });
        }
        Ok(())
    }

    /// A descriptor set of `set_layout` with `writes`.
    fn descriptor_set(
        &self,
        operation: &str,
        set_layout: &Arc<vulkano::descriptor_set::layout::DescriptorSetLayout>,
        writes: Vec<WriteDescriptorSet>,
    ) -> GpuResult<Arc<DescriptorSet>> {
        DescriptorSet::new(
            self.descriptor_set_allocator.clone(),
            set_layout.clone(),
            writes,
            [],
        )
        .map_err(|error| from_validated_vulkan_error(operation, error))
    }

    /// Check a launch against its kernel's interface and the device limits.
    fn check_launch(&self, launch: &KernelLaunch<'_>) -> GpuResult<()> {
        let kernel = launch.kernel;
        let operation = format!("running kernel `{}`", kernel.name);
        if launch.buffers.len() as u32 != kernel.storage_buffer_count {
            return Err(GpuError::Vulkan {
                operation,
                detail: format!(
                    "the kernel binds {} storage buffers but {} were given",
                    kernel.storage_buffer_count,
                    launch.buffers.len()
                ),
            });
        }
        if kernel.environment_buffer_count > 0 {
            let given = launch
                .environment
                .map_or(0, |environment| environment.buffers().len() as u32);
            if given != kernel.environment_buffer_count {
                return Err(GpuError::Vulkan {
                    operation,
                    detail: format!(
                        "the kernel declares {} environment buffers (set 1) but {given} were given",
                        kernel.environment_buffer_count
                    ),
                });
            }
        }
        let given_bytes = launch.push_constant_words.len() as u32 * 4;
        if given_bytes < kernel.push_constant_bytes
            || given_bytes > super::pipelines::PUSH_CONSTANT_RANGE_BYTES
        {
            return Err(GpuError::Vulkan {
                operation,
                detail: format!(
                    "the kernel reads {} bytes of push constants but {given_bytes} were given",
                    kernel.push_constant_bytes,
                ),
            });
        }
        let limit = self.device_info.max_workgroup_count;
        if launch
            .workgroup_counts
            .iter()
            .zip(limit.iter())
            .any(|(requested, maximum)| requested > maximum)
        {
            return Err(GpuError::TooManyWorkgroups {
                requested: launch.workgroup_counts,
                limit,
            });
        }
        Ok(())
    }

    /// Run `kernel` once over `workgroup_counts` workgroups with `buffers`
    /// bound at set 0, bindings 0..n, `environment` at set 1 where it
    /// declares one, and `push_constant_words` as its push constants.
    /// Returns when the device has finished.
    pub fn dispatch(
        &self,
        kernel: &ComputeKernel,
        buffers: &[&DeviceBuffer],
        environment: Option<&EnvironmentBuffers>,
        push_constant_words: &[u32],
        workgroup_counts: [u32; 3],
    ) -> GpuResult<()> {
        self.run_kernels(
            &format!("running kernel `{}`", kernel.name),
            &[KernelLaunch {
                kernel,
                buffers: buffers.to_vec(),
                environment,
                push_constant_words: push_constant_words.to_vec(),
                workgroup_counts,
            }],
        )
    }

    /// Run `launches` in order in one submission, each launch's writes
    /// visible to the next (a memory barrier between them), and wait until
    /// the device has finished. Launches with a zero workgroup count are
    /// skipped.
    pub fn run_kernels(&self, operation: &str, launches: &[KernelLaunch<'_>]) -> GpuResult<()> {
        for launch in launches {
            self.check_launch(launch)?;
        }
        let mut descriptor_sets = Vec::with_capacity(launches.len());
        for launch in launches {
            let set_layouts = launch.kernel.pipeline.layout().set_layouts();
            let mut sets = Vec::with_capacity(2);
            if let Some(set_layout) = set_layouts.first() {
                if !launch.buffers.is_empty() {
                    let mut writes = Vec::with_capacity(launch.buffers.len());
                    for (binding, buffer) in launch.buffers.iter().enumerate() {
                        writes.push(WriteDescriptorSet::buffer(
                            binding as u32,
                            buffer.bound_range()?,
                        ));
                    }
                    sets.push((0, self.descriptor_set(operation, set_layout, writes)?));
                }
            }
            if let (true, Some(environment), Some(set_layout)) = (
                launch.kernel.environment_buffer_count > 0,
                launch.environment,
                set_layouts.get(1),
            ) {
                let mut writes = Vec::new();
                for (binding, buffer) in environment.buffers().into_iter().enumerate() {
                    writes.push(WriteDescriptorSet::buffer(
                        binding as u32,
                        buffer.bound_range()?,
                    ));
                }
                sets.push((1, self.descriptor_set(operation, set_layout, writes)?));
            }
            descriptor_sets.push(sets);
        }
        let launches_to_run: Vec<(&KernelLaunch<'_>, &BoundSets)> = launches
            .iter()
            .zip(descriptor_sets.iter())
            .filter(|(launch, _)| !launch.workgroup_counts.contains(&0))
            .collect();
        if launches_to_run.is_empty() {
            return Ok(());
        }
        self.run_commands(operation, |recorder| {
            let validation = |error| from_validation_error(operation, error);
            for (position, (launch, descriptor_sets)) in launches_to_run.iter().enumerate() {
                let layout = launch.kernel.pipeline.layout();
                // SAFETY: the pipeline, descriptor sets and buffers are
                // borrowed for the whole submission (`run_commands` waits);
                // kernels come from our own GLSL, validated by spirv-val in
                // tests, and bound their accesses by the lengths passed as
                // push constants; launches are separated by barriers.
                unsafe {
                    if position > 0 {
                        recorder
                            .pipeline_barrier(&launch_to_launch_barrier())
                            .map_err(validation)?;
                    }
                    recorder
                        .bind_pipeline_compute(&launch.kernel.pipeline)
                        .map_err(validation)?;
                    for (set_number, descriptor_set) in descriptor_sets.iter() {
                        recorder
                            .bind_descriptor_sets(
                                PipelineBindPoint::Compute,
                                layout,
                                *set_number,
                                &[descriptor_set.as_raw()],
                                &[],
                            )
                            .map_err(validation)?;
                    }
                    push_constants(recorder, layout, &launch.push_constant_words)
                        .map_err(validation)?;
                    recorder
                        .dispatch(launch.workgroup_counts)
                        .map_err(validation)?;
                }
            }
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
    // SAFETY: plain data, checked against the layout by vulkano.
    unsafe { builder.push_constants(layout, 0, &array) }?;
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
            .load_kernel(
                &source.name,
                &compiled_spirv(&source).expect("compiles"),
                source.binding_interface(),
            )
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
        let mut recorder = RecordingCommandBuffer::new(
            runtime.command_buffer_allocator.clone(),
            runtime.queue.queue_family_index(),
            CommandBufferLevel::Primary,
            CommandBufferBeginInfo {
                usage: CommandBufferUsage::OneTimeSubmit,
                ..Default::default()
            },
        )
        .expect("command buffer");
        let too_many = runtime.device_info().max_workgroup_count[0].saturating_add(1);
        assert!(runtime.validation_messages().is_empty());
        // SAFETY: the command buffer is recorded but never submitted.
        unsafe {
            recorder
                .bind_pipeline_compute(&kernel.pipeline)
                .expect("bind pipeline")
                .bind_descriptor_sets(
                    PipelineBindPoint::Compute,
                    &layout,
                    0,
                    &[descriptor_set.as_raw()],
                    &[],
                )
                .expect("bind descriptor set");
            push_constants(&mut recorder, &layout, &[3]).expect("push constants");
            recorder.dispatch_unchecked([too_many, 1, 1]);
            drop(recorder.end());
        }
        let messages = runtime.validation_messages();
        assert!(
            messages
                .iter()
                .any(|message| message.contains("groupCountX")),
            "the recorder missed the layer's report: {messages:?}"
        );
    }
}

#[cfg(test)]
mod synchronisation_tests {
    use super::*;
    use crate::kernels::map::map_times_two_plus_one_source;
    use crate::kernels::{compiled_spirv, DemoElementType};
    use crate::runtime::instance::ValidationMode;
    use crate::runtime::RuntimeOptions;

    /// The barriers `run_kernels` records matter, and the tests would see
    /// them missing: two dispatches where the second reads what the first
    /// wrote, recorded (never submitted) without a barrier, make the
    /// validation layer's synchronisation checks (enabled by
    /// `ValidationMode::Required`) report a read-after-write hazard; with
    /// the launch-to-launch barrier in between they report nothing.
    #[test]
    fn synchronisation_validation_reports_a_missing_barrier_between_launches() {
        let runtime = Runtime::new(RuntimeOptions {
            validation: ValidationMode::Required,
            ..RuntimeOptions::default()
        })
        .unwrap_or_else(|error| panic!("cannot create a validated runtime: {error}"));
        let source = map_times_two_plus_one_source(DemoElementType::U32);
        let kernel = runtime
            .load_kernel(
                &source.name,
                &compiled_spirv(&source).expect("compiles"),
                source.binding_interface(),
            )
            .expect("loads");
        let first = runtime.upload_scalars(&[1u32, 2, 3]).expect("uploads");
        let second = runtime.allocate_buffer(12).expect("allocates");
        let third = runtime.allocate_buffer(12).expect("allocates");
        let layout = kernel.pipeline.layout().clone();
        let set_layout = layout.set_layouts()[0].clone();
        let descriptor_set = |input: &DeviceBuffer, output: &DeviceBuffer| {
            DescriptorSet::new(
                runtime.descriptor_set_allocator.clone(),
                set_layout.clone(),
                [
                    WriteDescriptorSet::buffer(0, input.bound_range().expect("bound")),
                    WriteDescriptorSet::buffer(1, output.bound_range().expect("bound")),
                ],
                [],
            )
            .expect("descriptor set")
        };
        let writes_second = descriptor_set(&first, &second);
        let reads_second = descriptor_set(&second, &third);
        let record_two_launches = |with_barrier: bool| {
            let mut recorder = RecordingCommandBuffer::new(
                runtime.command_buffer_allocator.clone(),
                runtime.queue.queue_family_index(),
                CommandBufferLevel::Primary,
                CommandBufferBeginInfo {
                    usage: CommandBufferUsage::OneTimeSubmit,
                    ..Default::default()
                },
            )
            .expect("command buffer");
            // SAFETY: recorded, never submitted.
            unsafe {
                recorder
                    .bind_pipeline_compute(&kernel.pipeline)
                    .expect("bind pipeline");
                for (position, set) in [&writes_second, &reads_second].into_iter().enumerate() {
                    if position > 0 && with_barrier {
                        recorder
                            .pipeline_barrier(&launch_to_launch_barrier())
                            .expect("barrier");
                    }
                    recorder
                        .bind_descriptor_sets(
                            PipelineBindPoint::Compute,
                            &layout,
                            0,
                            &[set.as_raw()],
                            &[],
                        )
                        .expect("bind descriptor set");
                    push_constants(&mut recorder, &layout, &[3]).expect("push constants");
                    recorder.dispatch([1, 1, 1]).expect("dispatch");
                }
                drop(recorder.end());
            }
        };
        assert!(runtime.validation_messages().is_empty());
        record_two_launches(true);
        assert!(
            runtime.validation_messages().is_empty(),
            "with the barrier: {:?}",
            runtime.validation_messages()
        );
        record_two_launches(false);
        let messages = runtime.validation_messages();
        assert!(
            messages
                .iter()
                .any(|message| message.contains("SYNC-HAZARD-READ-AFTER-WRITE")),
            "synchronisation validation missed the hazard: {messages:?}"
        );
    }
}
