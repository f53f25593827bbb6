//! Lists the prelude files (`spec/prelude/*.fut`, sorted by name) for
//! `static_interp::prelude`, so that a file added there is interpreted as
//! ordinary declarations preceding every program without a code change.
//!
//! Except `numeric.fut`: its modules (`i32`, `f32`, ... over the `__prim_*`
//! intrinsics) are in the type checker's built-in environment, and the core
//! elaboration does not map the `__prim_*` intrinsics yet, so static
//! interpretation leaves `f32.sqrt` & co. as built-in names (elaborated as
//! numeric-module intrinsics). A program passing a numeric module to a
//! functor (`mk_complex f32`) is therefore not compiled yet
//! (ARCHITECTURE-notes "Next steps", 1).

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
                .filter(|path| path.file_name().is_some_and(|name| name != "numeric.fut"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut generated = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().unwrap_or_default().to_string_lossy();
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
