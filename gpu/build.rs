//! Link shaderc from the Debian/Ubuntu packages, never from source.
//!
//! `shaderc-sys` (with the `prefer-static-linking` feature) finds Debian's
//! `libshaderc_combined.a` and links it, but Debian's "combined" archive holds
//! only shaderc's own objects: glslang and SPIRV-Tools live in separate static
//! archives shipped by `glslang-dev` and `spirv-tools`. This script checks that
//! every archive is present (failing at once, naming the package, when one is
//! missing: otherwise `shaderc-sys` would quietly spend minutes compiling
//! shaderc from C++ source, or fail late with undefined symbols) and asks the
//! linker for them, followed by the C++ standard library they need.
//!
//! On x86_64 Linux, `.cargo/config.toml` goes further and replaces
//! `shaderc-sys`'s build script with a fixed list of these archives, so that
//! script never runs and can never fall back to a source build; this script
//! then only checks the archives are there (the links it adds repeat that
//! list). Elsewhere (say aarch64 Debian) `shaderc-sys` links
//! `libshaderc_combined.a` itself and the links below supply the rest. The
//! order is the dependency order (users before what they use); rust-lld, the
//! default linker on x86_64 Linux since Rust 1.90, does not depend on it.
//!
//! `SHADERC_LIB_DIR` overrides the directory searched (as it does for
//! `shaderc-sys`).

use std::env;
use std::path::{Path, PathBuf};

/// Each static archive we link, with the Debian package that ships it.
const STATIC_ARCHIVES_WITH_PACKAGES: &[(&str, &str)] = &[
    ("shaderc_combined", "libshaderc-dev"),
    ("glslang", "glslang-dev"),
    ("MachineIndependent", "glslang-dev"),
    ("GenericCodeGen", "glslang-dev"),
    ("OSDependent", "glslang-dev"),
    ("OGLCompiler", "glslang-dev"),
    ("HLSL", "glslang-dev"),
    ("SPIRV", "glslang-dev"),
    ("glslang-default-resource-limits", "glslang-dev"),
    ("SPIRV-Tools-opt", "spirv-tools"),
    ("SPIRV-Tools", "spirv-tools"),
];

fn candidate_library_directories() -> Vec<PathBuf> {
    if let Ok(explicit_directory) = env::var("SHADERC_LIB_DIR") {
        return vec![PathBuf::from(explicit_directory)];
    }
    let target_arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_else(|_| "x86_64".to_owned());
    let debian_arch = if target_arch == "x86" {
        "i386".to_owned()
    } else {
        target_arch
    };
    vec![
        PathBuf::from(format!("/usr/lib/{debian_arch}-linux-gnu")),
        PathBuf::from("/usr/lib64"),
        PathBuf::from("/usr/lib"),
        PathBuf::from("/usr/local/lib"),
    ]
}

fn archive_path(directory: &Path, archive_name: &str) -> PathBuf {
    directory.join(format!("lib{archive_name}.a"))
}

fn main() {
    println!("cargo:rerun-if-env-changed=SHADERC_LIB_DIR");
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os != "linux" {
        // Other systems get whatever `shaderc-sys` finds (e.g. the Vulkan SDK).
        return;
    }
    let directories = candidate_library_directories();
    let chosen_directory = directories.iter().find(|directory| {
        STATIC_ARCHIVES_WITH_PACKAGES
            .iter()
            .all(|(archive_name, _)| archive_path(directory, archive_name).is_file())
    });
    let Some(library_directory) = chosen_directory else {
        let first_directory = &directories[0];
        let mut missing_packages: Vec<&str> = Vec::new();
        let mut missing_archives: Vec<String> = Vec::new();
        for (archive_name, package) in STATIC_ARCHIVES_WITH_PACKAGES {
            let path = archive_path(first_directory, archive_name);
            if !path.is_file() {
                missing_archives.push(path.display().to_string());
                if !missing_packages.contains(package) {
                    missing_packages.push(package);
                }
            }
        }
        eprintln!(
            "error: the gpu crate links shaderc, glslang and SPIRV-Tools from static archives \
             installed by the system packages, and some are missing:\n  {}\n\
             Install them with:\n  apt-get install -y {}\n\
             (or set SHADERC_LIB_DIR to a directory that holds all of: {}). \
             runestone never compiles shaderc from source.",
            missing_archives.join("\n  "),
            missing_packages.join(" "),
            STATIC_ARCHIVES_WITH_PACKAGES
                .iter()
                .map(|(archive_name, _)| format!("lib{archive_name}.a"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        std::process::exit(1);
    };
    println!(
        "cargo:rustc-link-search=native={}",
        library_directory.display()
    );
    for (archive_name, _) in STATIC_ARCHIVES_WITH_PACKAGES.iter().skip(1) {
        // Not bundled into the rlib: the final link reads the system archive.
        println!("cargo:rustc-link-lib=static:-bundle={archive_name}");
        println!(
            "cargo:rerun-if-changed={}",
            archive_path(library_directory, archive_name).display()
        );
    }
    println!("cargo:rustc-link-lib=dylib=stdc++");
}
