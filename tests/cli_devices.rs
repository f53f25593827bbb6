//! `runestone devices` end to end: it lists what Vulkan sees (lavapipe in CI)
//! and marks the chosen device; without a Vulkan driver, or with a
//! `RUNESTONE_DEVICE` that names nothing, it says so and exits 1.

mod common;

use common::{runestone_command, text};
use std::process::Output;

#[test]
fn devices_lists_every_device_and_marks_the_chosen_one() {
    let out = runestone_devices(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    assert_eq!(
        listing
            .lines()
            .filter(|line| line.starts_with("* "))
            .count(),
        1,
        "{listing}"
    );
    for field in [
        "driver:",
        "Vulkan API:",
        "subgroup size:",
        "max workgroups:",
        "max storage buffer:",
        "shared memory:",
        "features:",
    ] {
        assert!(listing.contains(field), "missing {field}:\n{listing}");
    }
}

#[test]
fn devices_picks_the_device_runestone_device_names() {
    let out = runestone_devices(&[("RUNESTONE_DEVICE", "0")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("* 0: "), "{}", text(&out.stdout));
}

#[test]
fn devices_exits_1_when_runestone_device_names_nothing() {
    let out = runestone_devices(&[("RUNESTONE_DEVICE", "no such device anywhere")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("matches no device"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn devices_exits_1_with_a_clear_message_without_a_vulkan_driver() {
    let out = runestone_devices(&[
        ("VK_DRIVER_FILES", "/nonexistent/icd.json"),
        ("VK_ICD_FILENAMES", "/nonexistent/icd.json"),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("Vulkan is not available"), "{stderr}");
    assert!(stderr.contains("mesa-vulkan-drivers"), "{stderr}");
}

/// `runestone devices` with `RUNESTONE_DEVICE` unset, then `environment` set.
fn runestone_devices(environment: &[(&str, &str)]) -> Output {
    let mut command = runestone_command(&["devices"]);
    command.env_remove("RUNESTONE_DEVICE");
    command
        .envs(environment.iter().copied())
        .output()
        .expect("runestone runs")
}
