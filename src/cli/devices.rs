//! `runestone devices`: list what Vulkan sees, and mark the device the GPU
//! backend would choose (discrete > integrated > virtual > CPU, or
//! `RUNESTONE_DEVICE`). Exit 0; exit 1 with a clear message when Vulkan is not
//! available or no listed device can be used (none at all, or
//! `RUNESTONE_DEVICE` names none).

use gpu::runtime::device_choice::DeviceInfo;
use std::process::ExitCode;

/// List the Vulkan devices.
#[derive(clap::Args)]
pub struct Args {}

fn format_bytes(bytes: u64) -> String {
    const MEBIBYTE: u64 = 1 << 20;
    const KIBIBYTE: u64 = 1 << 10;
    if bytes >= MEBIBYTE && bytes % MEBIBYTE == 0 {
        format!("{} MiB", bytes / MEBIBYTE)
    } else if bytes >= KIBIBYTE && bytes % KIBIBYTE == 0 {
        format!("{} KiB", bytes / KIBIBYTE)
    } else if bytes >= MEBIBYTE {
        format!("{:.1} MiB", bytes as f64 / MEBIBYTE as f64)
    } else {
        format!("{bytes} bytes")
    }
}

fn print_device(device: &DeviceInfo, chosen: bool) {
    let marker = if chosen { "* " } else { "  " };
    println!("{marker}{}", device.headline());
    let driver = match (&device.driver_name, &device.driver_info) {
        (Some(name), Some(info)) => format!("{name} ({info})"),
        (Some(name), None) => name.clone(),
        (None, Some(info)) => info.clone(),
        (None, None) => "unknown".to_owned(),
    };
    println!("    driver:                {driver}");
    println!("    Vulkan API:            {}", device.api_version);
    println!(
        "    subgroup size:         {}",
        device
            .subgroup_size
            .map_or_else(|| "unknown".to_owned(), |size| size.to_string())
    );
    let [count_x, count_y, count_z] = device.max_workgroup_count;
    println!("    max workgroups:        {count_x} x {count_y} x {count_z}");
    let [size_x, size_y, size_z] = device.max_workgroup_size;
    println!(
        "    max workgroup size:    {size_x} x {size_y} x {size_z} ({} invocations)",
        device.max_workgroup_invocations
    );
    println!(
        "    max storage buffer:    {}",
        format_bytes(u64::from(device.max_storage_buffer_range))
    );
    println!(
        "    shared memory:         {}",
        format_bytes(u64::from(device.max_shared_memory_bytes))
    );
    println!(
        "    device memory:         {}{}",
        format_bytes(device.device_local_memory_bytes),
        if device.has_host_visible_device_memory {
            " (host-visible)"
        } else {
            ""
        }
    );
    for (position, memory_type) in device.memory_types.iter().enumerate() {
        println!(
            "    {:<23}heap {} ({}){}{}",
            format!("memory type {position}:"),
            memory_type.heap_index,
            format_bytes(memory_type.heap_bytes),
            if memory_type.flags.is_empty() {
                ""
            } else {
                ": "
            },
            memory_type.flags.join(", ")
        );
    }
    println!(
        "    multiprocessors:       {}",
        match device.multiprocessors {
            Some(multiprocessors) => format!(
                "{} ({} resident invocations each)",
                multiprocessors.count, multiprocessors.resident_invocations_each
            ),
            None => "not reported by the driver".to_owned(),
        }
    );
    println!(
        "    peak bandwidth:        {}",
        match gpu::runtime::peak_bandwidth::peak_memory_bandwidth(&device.name) {
            Some((value, gpu::runtime::peak_bandwidth::PeakBandwidthSource::Environment)) => {
                format!("{value:.0} GB/s (RUNESTONE_PEAK_BANDWIDTH_GBPS)")
            }
            Some((value, gpu::runtime::peak_bandwidth::PeakBandwidthSource::DataSheet { .. })) => {
                format!("{value:.0} GB/s (data sheet)")
            }
            None => "unknown".to_owned(),
        }
    );
    println!(
        "    transfers:             {}",
        if device.prefers_staging_transfers() {
            "through staging buffers"
        } else {
            "direct (mapped device memory)"
        }
    );
    let features = device.features.names();
    println!(
        "    features:              {}",
        if features.is_empty() {
            "none".to_owned()
        } else {
            features.join(" ")
        }
    );
    if let Some(reason) = &device.unusable_because {
        println!("    unusable:              {reason}");
    }
}

pub fn run(_args: Args) -> ExitCode {
    let listing = match gpu::runtime::list_devices() {
        Ok(listing) => listing,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(1);
        }
    };
    println!(
        "Vulkan {} instance, {} device(s); * marks the device runestone uses \
         (RUNESTONE_DEVICE=<index or name> picks another)",
        listing.instance_api_version,
        listing.devices.len()
    );
    let chosen_position = listing.chosen.as_ref().ok().copied();
    for (position, device) in listing.devices.iter().enumerate() {
        print_device(device, chosen_position == Some(position));
    }
    match &listing.chosen {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: no device can run kernels: {error}");
            ExitCode::from(1)
        }
    }
}
