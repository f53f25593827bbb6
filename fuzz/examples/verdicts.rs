//! Both type checkers' verdicts on source files (the verdict oracle's
//! examination): `cargo run -p fuzz --example verdicts -- FILE…`.

fn main() {
    for path in std::env::args().skip(1) {
        let source = std::fs::read_to_string(&path).expect("readable file");
        let outcome = fuzz::oracles::examine_verdict(&source, fuzz::oracles::Expected::Either);
        println!("{path}: {outcome:?}");
    }
}
