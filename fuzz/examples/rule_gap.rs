//! Prints the rules a fixed-seed budget of every campaign leaves unfired:
//! `cargo run -p fuzz --example rule_gap -- PROGRAMS [SEED]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let programs: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(500);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let counts = fuzz::rule_coverage::budget_coverage(seed, programs, 2);
    let table = fuzz::rule_coverage::render_table(&counts, &["TFP18 ", "ICFP18 ", "L05 "]);
    for line in table.lines() {
        if line.contains("never") || line.contains("rules fired") {
            println!("{line}");
        }
    }
}
