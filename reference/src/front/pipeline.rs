//! The whole-program driver: parse → elaborate (module-free programs with
//! [`super::from_surface`]; module programs through the ICFP'18 calculus
//! on the TFP'18 core, [`super::tfp18_core`]) → check constant sizes
//! ([`super::constant_sizes`]) → type (TFP'18 Fig. 2) → monomorphise
//! ([`super::monomorphise`], §5.1) → defunctionalise (Figs. 5–6, both the
//! inlining of Fig. 5 and the lambda lifting of §5.3) → Theorem 1; and on
//! every run, Theorem 2 and Corollary 1 ([`crate::core::theorems`]).

use super::monomorphise::monomorphise;
use super::tfp18_core::{
    has_module_constructs, program_to_core_with, NUMERIC_PRELUDE_FILE, TOPLEVEL_PRELUDE_FILE,
};
use crate::core::defunc::{Defunctionalised, Defunctionaliser, Mode};
use crate::core::eval::DEFAULT_FUEL;
use crate::core::syntax::Program;
use crate::core::theorems::{self, RunError};
use crate::core::typing::{check_program, check_program_recording, LambdaContexts, TypeEnv};
use crate::core::value::{from_observable, to_observable};
use crate::derivation::phase;
use spec::diagnostic::Diagnostic;
use spec::memory::MemoryLimit;
use spec::source::{FileId, SourceMap};
use spec::value as obs;

/// A program through every compile-time stage.
pub struct Compiled {
    /// The core program (polymorphic), as elaborated.
    pub program: Program,
    /// Its monomorphic version (§5.1).
    pub mono: Program,
    /// Γ of the monomorphic program's declarations.
    pub types: TypeEnv,
    /// Fig. 5 literally (D-App inlines).
    pub inline: Defunctionalised,
    /// §5.3 (D-App calls a lifted function).
    pub lifted: Defunctionalised,
    pub options: Options,
    /// The Γ of every λ of `mono` (Fig. 7's closure rule).
    pub lambda_contexts: LambdaContexts,
}

/// Options of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// TFP'18 §7: allow conditionals of function type (typing drops T-If's
    /// `orderZero` premise; defunctionalisation uses `Or` static values).
    pub or_conditionals: bool,
    /// The step limit of each evaluation.
    pub fuel: u64,
    /// Extension (SPEC_NOTES TFP18-29): the memory limit of each evaluation.
    pub memory_limit: MemoryLimit,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            or_conditionals: false,
            fuel: DEFAULT_FUEL,
            memory_limit: MemoryLimit::of_this_machine(),
        }
    }
}

impl Options {
    /// The options a test program asks for in a line
    /// `-- runestone-options: or-conditionals fuel=N memory-limit=SIZE`.
    pub fn from_source(text: &str) -> Options {
        let mut options = Options::default();
        if let Some(limit) = MemoryLimit::from_program_options(text) {
            options.memory_limit = limit;
        }
        for line in text.lines() {
            if let Some(rest) = line.trim().strip_prefix("-- runestone-options:") {
                for word in rest.split_whitespace() {
                    if word == "or-conditionals" {
                        options.or_conditionals = true;
                    } else if let Some(n) = word.strip_prefix("fuel=").and_then(|n| n.parse().ok())
                    {
                        options.fuel = n;
                    }
                }
            }
        }
        options
    }
}

/// Compiles the program in `file` (the prelude is added to `sources`), with
/// the options its source asks for ([`Options::from_source`]).
pub fn compile(sources: &mut SourceMap, file: FileId) -> Result<Compiled, Diagnostic> {
    let options = Options::from_source(&sources.get(file).text);
    compile_with(sources, file, options)
}

/// Compiles the program in `file` with `options`.
pub fn compile_with(
    sources: &mut SourceMap,
    file: FileId,
    options: Options,
) -> Result<Compiled, Diagnostic> {
    let text = sources.get(file).text.clone();
    let ast = spec::syntax::parse_program(file, &text)?;
    if has_module_constructs(&ast) {
        let mut files = spec::imports::ImportedFiles::new();
        let ast = expand_imports(sources, ast, &mut files)?;
        // ICFP'18: elaboration and static interpretation to core code.
        let program = program_to_core_with(&ast, options.or_conditionals)?;
        // Extension (SPEC_NOTES TFP18-19): constant and rigid sizes are
        // checked on the module-level source, as on the module-free path.
        super::constant_sizes::check_program(&ast)?;
        return compile_core_trusting(program, options, &[]);
    }
    let prelude_file = sources.add("<prelude>/toplevel.fut", super::from_surface::PRELUDE);
    let prelude = super::from_surface::parse_prelude(prelude_file)?;
    let elaborated = phase(
        || "elaboration of the surface language to TFP'18's core".to_string(),
        || super::from_surface::elaborate(&ast, Some(&prelude)),
    );
    match elaborated {
        Ok(program) => compile_core_trusting(program, options, &[prelude_file]),
        // A module-free program naming a numeric module (`f32.sqrt`): the
        // numeric prelude is module-level source, so the module calculus.
        Err(diagnostic)
            if diagnostic.code.as_deref() == Some(super::from_surface::NEEDS_MODULE_CALCULUS) =>
        {
            // Extension (SPEC_NOTES TFP18-19): its constant sizes are
            // checked as on the core path.
            super::constant_sizes::check_program(&ast)?;
            let program = program_to_core_with(&ast, options.or_conditionals)?;
            compile_core_trusting(program, options, &[prelude_file])
        }
        Err(diagnostic) => Err(diagnostic),
    }
}

/// `import "p"` (SPEC_NOTES ICFP18-17): the declarations of `p.fut`, by the
/// one file-system import rule ([`spec::imports`]), in place of the import,
/// each file once.
fn expand_imports(
    sources: &mut SourceMap,
    ast: spec::syntax::ast::Program,
    files: &mut spec::imports::ImportedFiles,
) -> Result<spec::syntax::ast::Program, Diagnostic> {
    use spec::syntax::ast::Dec;
    let mut decs = Vec::new();
    for dec in ast.decs {
        let Dec::Import { path, span } = &dec else {
            decs.push(dec);
            continue;
        };
        let imported = files.import(sources, *span, path)?;
        if imported.first_time {
            let expanded = expand_imports(sources, (*imported.program).clone(), files)?;
            decs.extend(expanded.decs);
        }
    }
    Ok(spec::syntax::ast::Program { decs })
}

/// Extension (proofs-notes/uniqueness.md, SPEC_NOTES TFP18-34): the
/// uniqueness judgment on a typed core program, before monomorphisation and
/// defunctionalisation; the prelude (the module calculus' built-in prelude
/// files and the files `trusted`) is trusted.
pub fn judge_uniqueness(
    program: &Program,
    trusted: &[FileId],
    or_conditionals: bool,
) -> Result<(), Diagnostic> {
    let mut trusted_files = vec![TOPLEVEL_PRELUDE_FILE, NUMERIC_PRELUDE_FILE];
    trusted_files.extend_from_slice(trusted);
    crate::core::uniqueness::check_program(program, &trusted_files, or_conditionals)
}

/// Compiles a core program (from any front end).
pub fn compile_core(program: Program, options: Options) -> Result<Compiled, Diagnostic> {
    compile_core_trusting(program, options, &[])
}

/// [`compile_core`], the files `trusted` holding the prelude (besides the
/// module calculus' built-in prelude files): the uniqueness judgment does
/// not judge their declarations.
pub fn compile_core_trusting(
    program: Program,
    options: Options,
    trusted: &[FileId],
) -> Result<Compiled, Diagnostic> {
    phase(
        || "TFP'18 typing: Γ ⊢ e : τ (Fig. 3)".to_string(),
        || check_program(&program, options.or_conditionals),
    )
    .map_err(|e| e.to_diagnostic())?;
    phase(
        || "uniqueness: Γ; C ⊢ e ⇒ ᾱ; C' (proofs-notes/uniqueness.md)".to_string(),
        || judge_uniqueness(&program, trusted, options.or_conditionals),
    )?;
    let mono = monomorphise(&program);
    let (types, lambda_contexts) = phase(
        || "TFP'18 typing of the monomorphised program (Fig. 3)".to_string(),
        || check_program_recording(&mono, options.or_conditionals),
    )
    .map_err(|e| {
        e.to_diagnostic()
            .with_note("this error is in the monomorphised program")
    })?;
    let mut inline = Defunctionaliser::new(Mode::Inline, &mono);
    inline.or_conditionals = options.or_conditionals;
    let inline = phase(
        || "defunctionalisation: E ⊢ e ⇝ ⟨e', sv⟩ (Fig. 5)".to_string(),
        || inline.program(&mono),
    )
    .map_err(|e| theorem_1_failure(e.to_diagnostic()))?;
    let mut lifted = Defunctionaliser::new(Mode::Lift, &mono);
    lifted.or_conditionals = options.or_conditionals;
    let lifted = phase(
        || "defunctionalisation with lambda lifting (Fig. 5, §5.3)".to_string(),
        || lifted.program(&mono),
    )
    .map_err(|e| theorem_1_failure(e.to_diagnostic()))?;
    let compiled = Compiled {
        program,
        mono,
        types,
        inline,
        lifted,
        options,
        lambda_contexts,
    };
    phase(
        || "Theorem 1: both translations are well typed (Fig. 3)".to_string(),
        || compiled.check_theorem_1(),
    )
    .map_err(|m| {
        Diagnostic::error(format!("Theorem 1 fails: {m}"))
            .with_code(spec::diagnostic::codes::TFP18_THEOREM_1)
    })?;
    Ok(compiled)
}

impl Compiled {
    /// Theorem 1 on both translations ([`theorems::theorem_1`]).
    pub fn check_theorem_1(&self) -> Result<(), String> {
        theorems::theorem_1(
            &self.mono,
            [&self.inline, &self.lifted],
            self.options.or_conditionals,
        )
    }

    /// Runs entry point `entry` on `args` in the source program, and in both
    /// target programs, checking Theorem 2 and Corollary 1
    /// ([`theorems::run_checked`]); returns the observable result (a tuple
    /// result is several values, as in Futhark).
    pub fn run(&self, entry: &str, args: &[obs::Value]) -> Result<Vec<obs::Value>, RunError> {
        let Some(ep) = self.mono.entry(entry) else {
            return Err(RunError::Input(format!("no entry point {entry}")));
        };
        if args.len() != ep.param_types.len() {
            return Err(RunError::Input(format!(
                "the entry point {entry} takes {} arguments, {} were given",
                ep.param_types.len(),
                args.len()
            )));
        }
        let values = args
            .iter()
            .zip(&ep.param_types)
            .map(|(a, t)| from_observable(a, t))
            .collect::<Result<Vec<_>, _>>()
            .map_err(RunError::Input)?;
        let result = phase(
            || format!("evaluation of {entry}: Σ ⊢ e ↓ r (Fig. 4), Theorem 2 and Corollary 1"),
            || {
                theorems::run_checked(
                    &self.mono,
                    [&self.inline, &self.lifted],
                    &self.lambda_contexts,
                    self.options.fuel,
                    self.options.memory_limit,
                    ep,
                    &values,
                )
            },
        )?;
        let observable = to_observable(&result, &ep.result_type).map_err(RunError::Violation)?;
        Ok(match observable {
            obs::Value::Tuple(vs) if !vs.is_empty() => vs,
            v => vec![v],
        })
    }
}

/// A defunctionalisation failure of a well-typed program: Theorem 1 says it
/// cannot happen, so it is the reference's failure (code
/// [`spec::diagnostic::codes::TFP18_THEOREM_1`]), with the rule that failed
/// in a note.
fn theorem_1_failure(diagnostic: Diagnostic) -> Diagnostic {
    let rule = diagnostic.code.clone().unwrap_or_default();
    Diagnostic {
        code: Some(spec::diagnostic::codes::TFP18_THEOREM_1.to_string()),
        ..diagnostic
    }
    .with_note(format!("the failed rule: {rule}"))
    .with_note("Theorem 1 says this cannot happen")
}
