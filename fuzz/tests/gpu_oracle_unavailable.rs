//! The gpu oracle without a usable Vulkan device (`RUNESTONE_DEVICE` names
//! none; its own test binary, so the variable reaches no other test): the
//! probe says why, and a program examined anyway is a disagreement naming
//! the reason, never a panic.

#[test]
fn the_gpu_oracle_says_why_it_cannot_run_without_a_device() {
    std::env::set_var("RUNESTONE_DEVICE", "no-such-device-anywhere");
    let reason = fuzz::oracles::gpu::probe().expect_err("no device may be opened");
    assert!(
        reason.contains("no usable Vulkan device") && reason.contains("no-such-device-anywhere"),
        "{reason}"
    );
    let arguments = spec::value::read_values("[1, 2]").expect("values");
    let (outcome, work) = fuzz::oracles::gpu::examine_gpu(
        "entry main (xs: []i32) : []i32 = map (\\x -> x + 1) xs",
        &arguments,
        false,
    );
    match outcome {
        fuzz::oracles::Outcome::Disagree { check, message } => {
            assert_eq!(check, "the GPU runtime cannot be opened");
            assert!(message.contains("no-such-device-anywhere"), "{message}");
        }
        other => panic!("expected a disagreement, got {other:?}"),
    }
    assert!(!work.ran);
}
