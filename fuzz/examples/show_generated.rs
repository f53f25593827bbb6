//! Prints the program a seed names: `cargo run -p fuzz --example
//! show_generated -- SEED [--core]`.

use fuzz::gen::{generate, GenConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let config = GenConfig {
        modules: !args.iter().any(|a| a == "--core"),
        ..GenConfig::default()
    };
    let generated = generate(seed, &config);
    print!("{}", generated.source());
    let arguments: Vec<String> = generated.arguments.iter().map(|v| v.to_string()).collect();
    println!("-- arguments: {}", arguments.join(" "));
    if args.iter().any(|a| a == "--check") {
        let parsed = spec::syntax::parse_program(spec::source::FileId(0), &generated.source())
            .expect("parses");
        for (a, b) in parsed.decs.iter().zip(&generated.program.decs) {
            if a != b {
                println!("{a:#?}\n-----\n{b:#?}");
            }
        }
    }
}
