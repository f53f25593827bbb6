//! GLSL compute source → SPIR-V words with shaderc.
//!
//! One `shaderc::Compiler` per thread, created on first use and reused (a
//! compiler is not `Sync`, and creating one per kernel is wasteful). Kernels
//! are compiled for Vulkan 1.1 (SPIR-V 1.3: subgroup operations) with
//! performance optimisation. Compile errors come back as
//! [`GpuError::Compile`] with the kernel name and each diagnostic's line;
//! nothing here panics.

use crate::error::{CompileDiagnostic, GpuError, GpuResult};
use std::cell::RefCell;

/// The Vulkan version kernels target; `spirv-val --target-env` must match.
pub const TARGET_VULKAN_VERSION_NAME: &str = "vulkan1.1";

thread_local! {
    static THREAD_COMPILER: RefCell<Option<shaderc::Compiler>> = const { RefCell::new(None) };
}

/// Compile the GLSL compute shader `glsl_source` (entry point `main`) to
/// SPIR-V. `kernel_name` names the source in diagnostics.
pub fn compile_compute_shader(kernel_name: &str, glsl_source: &str) -> GpuResult<Vec<u32>> {
    THREAD_COMPILER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let compiler = match slot.take() {
            Some(compiler) => compiler,
            None => shaderc::Compiler::new().map_err(|error| GpuError::Compile {
                kernel_name: kernel_name.to_owned(),
                diagnostics: vec![CompileDiagnostic {
                    line: None,
                    message: format!("cannot create the shaderc compiler: {error}"),
                }],
            })?,
        };
        let result = compile_with(&compiler, kernel_name, glsl_source);
        *slot = Some(compiler);
        result
    })
}

fn compile_with(
    compiler: &shaderc::Compiler,
    kernel_name: &str,
    glsl_source: &str,
) -> GpuResult<Vec<u32>> {
    let internal_error = |message: String| GpuError::Compile {
        kernel_name: kernel_name.to_owned(),
        diagnostics: vec![CompileDiagnostic {
            line: None,
            message,
        }],
    };
    let mut options = shaderc::CompileOptions::new()
        .map_err(|error| internal_error(format!("cannot create compile options: {error}")))?;
    options.set_source_language(shaderc::SourceLanguage::GLSL);
    options.set_target_env(
        shaderc::TargetEnv::Vulkan,
        shaderc::EnvVersion::Vulkan1_1 as u32,
    );
    options.set_optimization_level(shaderc::OptimizationLevel::Performance);
    match compiler.compile_into_spirv(
        glsl_source,
        shaderc::ShaderKind::Compute,
        kernel_name,
        "main",
        Some(&options),
    ) {
        Ok(artifact) => Ok(artifact.as_binary().to_vec()),
        Err(shaderc::Error::CompilationError(_, text)) => Err(GpuError::Compile {
            kernel_name: kernel_name.to_owned(),
            diagnostics: parse_diagnostics(kernel_name, &text),
        }),
        Err(other) => Err(internal_error(other.to_string())),
    }
}

/// Split shaderc's error text (`NAME:LINE: error: MESSAGE`, one per line)
/// into located diagnostics.
pub fn parse_diagnostics(kernel_name: &str, text: &str) -> Vec<CompileDiagnostic> {
    let mut diagnostics = Vec::new();
    for raw_line in text.lines() {
        let trimmed = raw_line.trim();
        if trimmed.is_empty() || is_error_count_summary(trimmed) {
            continue;
        }
        let located = trimmed
            .strip_prefix(kernel_name)
            .and_then(|rest| rest.strip_prefix(':'))
            .and_then(|rest| {
                let (line_text, message) = rest.split_once(':')?;
                let line = line_text.trim().parse::<u32>().ok()?;
                Some(CompileDiagnostic {
                    line: Some(line),
                    message: message.trim().to_owned(),
                })
            });
        diagnostics.push(located.unwrap_or_else(|| {
            CompileDiagnostic {
                line: None,
                message: trimmed
                    .strip_prefix(kernel_name)
                    .and_then(|rest| rest.strip_prefix(':'))
                    .unwrap_or(trimmed)
                    .trim()
                    .to_owned(),
            }
        }));
    }
    if diagnostics.is_empty() {
        diagnostics.push(CompileDiagnostic {
            line: None,
            message: text.trim().to_owned(),
        });
    }
    diagnostics
}

fn is_error_count_summary(line: &str) -> bool {
    // shaderc ends with e.g. "2 errors generated."
    line.ends_with("generated.")
        && line
            .split_whitespace()
            .next()
            .is_some_and(|count| count.parse::<u32>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_kernel_compiles_to_spirv_with_the_magic_number() {
        let source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
        let words = compile_compute_shader("empty", source).expect("compiles");
        assert_eq!(words[0], 0x0723_0203);
    }

    #[test]
    fn a_syntax_error_is_located_by_kernel_name_and_line() {
        let source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  int x = ;\n}\n";
        let error = compile_compute_shader("broken_kernel", source).expect_err("must not compile");
        match &error {
            GpuError::Compile {
                kernel_name,
                diagnostics,
            } => {
                assert_eq!(kernel_name, "broken_kernel");
                assert_eq!(diagnostics[0].line, Some(4), "{diagnostics:?}");
                assert!(diagnostics[0].message.contains("error"), "{diagnostics:?}");
            }
            other => panic!("expected a compile error, got {other:?}"),
        }
        assert!(error.to_string().contains("broken_kernel:4:"), "{error}");
    }

    #[test]
    fn an_undeclared_name_is_an_error_not_a_panic() {
        let source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { y = 1; }\n";
        let error = compile_compute_shader("undeclared", source).expect_err("must not compile");
        assert!(error.to_string().contains("undeclared:3:"), "{error}");
    }

    #[test]
    fn each_thread_reuses_its_compiler() {
        let source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
        let handles: Vec<_> = (0..2)
            .map(|_| {
                std::thread::spawn(move || {
                    (0..3)
                        .map(|_| compile_compute_shader("empty", source).map(|words| words.len()))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            for result in handle.join().expect("thread finished") {
                assert!(result.expect("compiles") > 5);
            }
        }
    }
}
