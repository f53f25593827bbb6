//! Peak memory bandwidth of known devices (Vulkan does not report it), for
//! the bandwidth benchmark's "% of peak" column. `RUNESTONE_PEAK_BANDWIDTH_GBPS`
//! overrides the table (e.g. for a device it lacks).
//!
//! Figures are the vendors' data-sheet numbers in GB/s (10^9 bytes/s).

/// Data-sheet peak bandwidths, matched as substrings of the Vulkan device
/// name, most specific first.
const KNOWN_PEAK_BANDWIDTHS: [(&str, f64); 14] = [
    ("H200", 4800.0),
    ("H100 80GB HBM3", 3350.0),
    ("H100 SXM", 3350.0),
    ("H100 NVL", 3900.0),
    ("H100 PCIe", 2000.0),
    ("A100-SXM4-80GB", 2039.0),
    ("A100 80GB PCIe", 1935.0),
    ("A100", 1555.0),
    ("L40S", 864.0),
    ("RTX 4090", 1008.0),
    ("RTX 3090", 936.0),
    ("V100", 900.0),
    ("T4", 320.0),
    ("L4", 300.0),
];

/// Where a peak figure came from.
#[derive(Clone, Debug, PartialEq)]
pub enum PeakBandwidthSource {
    Environment,
    DataSheet { matched: &'static str },
}

/// The peak memory bandwidth of the device named `device_name` in GB/s,
/// from `RUNESTONE_PEAK_BANDWIDTH_GBPS` or the table; `None` when unknown
/// (lavapipe, unlisted devices).
pub fn peak_memory_bandwidth(device_name: &str) -> Option<(f64, PeakBandwidthSource)> {
    if let Some(value) = std::env::var("RUNESTONE_PEAK_BANDWIDTH_GBPS")
        .ok()
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|value| *value > 0.0)
    {
        return Some((value, PeakBandwidthSource::Environment));
    }
    peak_memory_bandwidth_from_data_sheets(device_name)
}

/// The table lookup alone.
pub fn peak_memory_bandwidth_from_data_sheets(
    device_name: &str,
) -> Option<(f64, PeakBandwidthSource)> {
    KNOWN_PEAK_BANDWIDTHS
        .iter()
        .find(|(pattern, _)| device_name.contains(pattern))
        .map(|(pattern, value)| (*value, PeakBandwidthSource::DataSheet { matched: pattern }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_devices_match_their_most_specific_entry() {
        let cases = [
            ("NVIDIA H100 80GB HBM3", Some(3350.0)),
            ("NVIDIA H100 PCIe", Some(2000.0)),
            ("NVIDIA H200", Some(4800.0)),
            ("NVIDIA A100-SXM4-80GB", Some(2039.0)),
            ("llvmpipe (LLVM 15.0.6, 256 bits)", None),
        ];
        for (name, expected) in cases {
            assert_eq!(
                peak_memory_bandwidth_from_data_sheets(name).map(|(value, _)| value),
                expected,
                "{name}"
            );
        }
    }
}
