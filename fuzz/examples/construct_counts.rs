//! How many of N programs use each promised construct:
//! `cargo run --release -p fuzz --example construct_counts -- [COUNT]`.

use fuzz::gen::coverage::{constructs, PROMISED};
use fuzz::gen::{generate, GenConfig};
use std::collections::BTreeMap;

fn main() {
    let count: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let config = GenConfig::default();
    let mut programs_using: BTreeMap<&'static str, usize> = BTreeMap::new();
    for seed in 0..count {
        for construct in constructs(&generate(seed, &config).program) {
            *programs_using.entry(construct).or_insert(0) += 1;
        }
    }
    let mut rows: Vec<(&str, usize)> = PROMISED
        .iter()
        .map(|c| (*c, programs_using.get(c).copied().unwrap_or(0)))
        .collect();
    rows.sort_by_key(|(_, n)| *n);
    for (construct, n) in rows {
        println!("{n:6}  {construct}");
    }
}
