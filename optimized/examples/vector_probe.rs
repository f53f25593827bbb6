//! Lists which SOAC lambdas of a program's optimised IR the CPU backend's
//! block-vectorised path accepts (`cargo run -p optimized --example
//! vector_probe -- FILE.fut`).
use optimized::ir::{Body, Exp, Soac};

fn visit(body: &Body, depth: usize) {
    for statement in &body.statements {
        match &statement.expression {
            Exp::Soac(soac) => {
                let lambdas: Vec<&optimized::ir::Lambda> = match soac {
                    Soac::Map { lambda, .. } => vec![lambda],
                    _ => vec![],
                };
                for lambda in lambdas {
                    let planned = optimized::cpu::vector::plan(lambda, &mut |_| 0).is_some();
                    println!(
                        "{}map at {:?}: vectorised {planned}",
                        "  ".repeat(depth),
                        statement
                            .pattern
                            .iter()
                            .map(|p| p.name.to_string())
                            .collect::<Vec<_>>()
                    );
                    visit(&lambda.body, depth + 1);
                }
            }
            Exp::Loop { body, .. } => visit(body, depth + 1),
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                visit(then_body, depth + 1);
                visit(else_body, depth + 1);
            }
            _ => {}
        }
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut sources = spec::source::SourceMap::new();
    let file = sources.add(path.clone(), text.clone());
    let ast = spec::syntax::parse_program(file, &text).expect("parses");
    let prelude = optimized::pipeline::add_prelude_file(&mut sources);
    let mut imports = optimized::imports::FileImports::new(sources);
    let compiled =
        optimized::pipeline::compile_program(&ast, prelude, Some(&mut imports), Default::default())
            .map_err(|d| d[0].message.clone())
            .expect("compiles");
    for f in &compiled.fused.functions {
        println!("fun {}", f.name.0);
        visit(&f.body, 1);
    }
    // Optional timing: ENTRY then arguments in Futhark syntax.
    if let (Some(entry), Some(args)) = (std::env::args().nth(2), std::env::args().nth(3)) {
        // `@PATH` reads the arguments from a file (large inputs exceed argv's limits).
        let args = match args.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path).expect("an argument file"),
            None => args,
        };
        let values = spec::value::read_values(&args).expect("values");
        let prepared = compiled
            .prepare_arguments(&entry, values)
            .expect("prepared");
        let repeat: usize = std::env::var("PROBE_REPEAT")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(5);
        for _ in 0..repeat {
            let start = std::time::Instant::now();
            compiled.run_prepared(&prepared).expect("runs");
            println!("{entry}: {:?}", start.elapsed());
        }
    }
}
