//! Size distribution and generation speed of the program generator:
//! `cargo run --release -p fuzz --example gen_stats -- [COUNT] [DEPTH] [MAX_DECLARATIONS] [--core]`.

use fuzz::gen::{generate, GenConfig};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number =
        |i: usize, default: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let count = number(1, 1000);
    let defaults = GenConfig::default();
    let config = GenConfig {
        depth: number(2, u64::from(defaults.depth)) as u32,
        max_declarations: number(3, u64::from(defaults.max_declarations)) as u32,
        modules: !args.iter().any(|a| a == "--core"),
        ..defaults
    };
    let start = Instant::now();
    let mut lines: Vec<usize> = Vec::new();
    for seed in 0..count {
        let generated = generate(seed, &config);
        lines.push(generated.line_count());
    }
    let elapsed = start.elapsed().as_secs_f64();
    lines.sort_unstable();
    let percentile = |p: usize| lines[(lines.len() - 1) * p / 100];
    println!(
        "{count} programs, depth {}, max declarations {}, modules {}: lines min {} p10 {} p25 {} median {} p75 {} p90 {} max {}; {:.0} programs/s (generation + printing)",
        config.depth,
        config.max_declarations,
        config.modules,
        lines[0],
        percentile(10),
        percentile(25),
        percentile(50),
        percentile(75),
        percentile(90),
        lines[lines.len() - 1],
        count as f64 / elapsed
    );
}
