//! Lists the prelude files (`spec/prelude/*.fut`, sorted by name) for
//! `static_interp::prelude`, so that a file added there is interpreted as
//! ordinary declarations preceding every program without a code change.
//! `numeric.fut` included: its modules (`i32`, `f32`, ...) are ordinary
//! modules whose definitions use the `__prim_*` intrinsics, which the core
//! elaboration maps to core primitives.

use std::path::Path;

fn main() {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/prelude");
    println!("cargo:rerun-if-changed={}", directory.display());
    // A prelude that cannot be read is an error, never an empty list: a
    // build with no prelude compiles every module program that calls
    // `copy` or `++` into one that cannot find them (seen once: a release
    // build whose list had come out empty).
    let entries = std::fs::read_dir(&directory).unwrap_or_else(|error| {
        panic!(
            "cannot read the prelude directory {}: {error}",
            directory.display()
        )
    });
    let mut files: Vec<_> = entries
        .map(|entry| {
            entry
                .unwrap_or_else(|error| panic!("cannot list {}: {error}", directory.display()))
                .path()
        })
        .filter(|path| path.extension().is_some_and(|ext| ext == "fut"))
        .collect();
    assert!(
        !files.is_empty(),
        "no prelude files (*.fut) in {}",
        directory.display()
    );
    files.sort();
    let mut generated = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        // Named as the reference names them (`<prelude>/toplevel.fut`), so
        // a run-time error in the prelude has one location on both.
        let name = format!(
            "<prelude>/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        generated.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.canonicalize()
                .unwrap_or(path.clone())
                .display()
                .to_string()
        ));
    }
    generated.push(']');
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("prelude_files.rs"), generated)
        .expect("OUT_DIR is writable");
}
