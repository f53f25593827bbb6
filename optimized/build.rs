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
    let mut files: Vec<_> = std::fs::read_dir(&directory)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "fut"))
                .collect()
        })
        .unwrap_or_default();
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
