//! The `runestone` command line (work in progress: see src/cli/).
fn main() {
    eprintln!("runestone: the command line is being built");
    std::process::exit(2);
}
