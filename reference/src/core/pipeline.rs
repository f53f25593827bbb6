//! The module-free pipeline, with TFP'18's theorems checked on every run:
//! parse → elaborate ([`super::from_surface`]) → type (Fig. 2) → evaluate
//! (Figs. 3–4); and monomorphise (§5.1) → defunctionalise (Figs. 5–6, both
//! the inlining of Fig. 5 and the lambda lifting of §5.3) → type the target
//! (Theorem 1) → evaluate the target and compare (Theorem 2, Corollary 1).

use super::defunc::{static_type, Defunctionalised, Defunctionaliser, Mode, TargetProgram};
use super::eval::{Evaluator, Failure, RuntimeError, DEFAULT_FUEL};
use super::relations::{
    lemma_4, static_has_type, translate_value, translate_value_at, value_has_static, value_has_type,
};
use super::syntax::Program;
use super::typing::{check_program, check_program_recording, LambdaContexts, TypeEnv, Typing};
use super::value::{from_observable, to_observable, Value, ValueEnv};
use spec::diagnostic::Diagnostic;
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

/// Why a run gave no result.
#[derive(Debug)]
pub enum RunError {
    /// `err`: a run-time error of the program.
    Runtime(RuntimeError),
    /// The arguments do not fit the entry point.
    Input(String),
    /// The step limit was reached.
    OutOfFuel,
    /// A theorem or lemma of TFP'18 failed: a bug in the reference or a
    /// defect of the paper.
    Violation(String),
}

/// Options of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// TFP'18 §7: allow conditionals of function type (typing drops T-If's
    /// `orderZero` premise; defunctionalisation uses `Or` static values).
    pub or_conditionals: bool,
    /// The step limit of each evaluation.
    pub fuel: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            or_conditionals: false,
            fuel: DEFAULT_FUEL,
        }
    }
}

impl Options {
    /// The options a test program asks for in a line
    /// `-- runestone-options: or-conditionals`.
    pub fn from_source(text: &str) -> Options {
        let mut options = Options::default();
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
    if crate::modules::tfp18_core::has_module_constructs(&ast) {
        let mut files = spec::imports::ImportedFiles::new();
        let ast = expand_imports(sources, ast, &mut files)?;
        // ICFP'18: elaboration and static interpretation to core code.
        let program =
            crate::modules::tfp18_core::program_to_core_with(&ast, options.or_conditionals)?;
        // Extension (SPEC_NOTES TFP18-19): constant and rigid sizes are
        // checked on the module-level source, as on the module-free path.
        super::constant_sizes::check_program(&ast)?;
        return compile_core(program, options);
    }
    let prelude_file = sources.add("<prelude>/toplevel.fut", super::from_surface::PRELUDE);
    let prelude = super::from_surface::parse_prelude(prelude_file)?;
    match super::from_surface::elaborate(&ast, Some(&prelude)) {
        Ok(program) => compile_core(program, options),
        // A module-free program naming a numeric module (`f32.sqrt`): the
        // numeric prelude is module-level source, so the module calculus.
        Err(diagnostic)
            if diagnostic.code.as_deref() == Some(super::from_surface::NEEDS_MODULE_CALCULUS) =>
        {
            // Extension (SPEC_NOTES TFP18-19): its constant sizes are
            // checked as on the core path.
            super::constant_sizes::check_program(&ast)?;
            let program =
                crate::modules::tfp18_core::program_to_core_with(&ast, options.or_conditionals)?;
            compile_core(program, options)
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

/// Compiles a core program (from any front end).
pub fn compile_core(program: Program, options: Options) -> Result<Compiled, Diagnostic> {
    check_program(&program, options.or_conditionals).map_err(|e| e.to_diagnostic())?;
    let mono = super::monomorphise::monomorphise(&program);
    let (types, lambda_contexts) = check_program_recording(&mono, options.or_conditionals)
        .map_err(|e| {
            e.to_diagnostic()
                .with_note("this error is in the monomorphised program")
        })?;
    let mut inline = Defunctionaliser::new(Mode::Inline, &mono);
    inline.or_conditionals = options.or_conditionals;
    let inline = inline
        .program(&mono)
        .map_err(|e| theorem_1_failure(e.to_diagnostic()))?;
    let mut lifted = Defunctionaliser::new(Mode::Lift, &mono);
    lifted.or_conditionals = options.or_conditionals;
    let lifted = lifted
        .program(&mono)
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
    compiled.check_theorem_1().map_err(|m| {
        Diagnostic::error(format!("Theorem 1 fails: {m}"))
            .with_code(spec::diagnostic::codes::TFP18_THEOREM_1)
    })?;
    Ok(compiled)
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

impl Compiled {
    /// Theorem 1: each declaration's static value is related to its type,
    /// and each residual has type ⟦sv⟧tp in ⟦E⟧tp (both translations).
    pub fn check_theorem_1(&self) -> Result<(), String> {
        for d in [&self.inline, &self.lifted] {
            let typing = Typing::new().with_functions(&d.target.functions);
            // The target has no function types: T-If's premise holds there.
            for f in &d.target.functions {
                let env: TypeEnv = f
                    .params
                    .iter()
                    .map(|(x, t)| (x.clone(), super::typing::Scheme::mono(t.clone())))
                    .collect();
                let t = typing
                    .type_of(&env, &f.body)
                    .map_err(|e| format!("lifted {}: {}", f.name, e.message))?;
                if t != f.result_type {
                    return Err(format!(
                        "lifted function {} has the wrong result type",
                        f.name
                    ));
                }
            }
            let mut env = TypeEnv::new();
            for ((dec, target), (_, sv)) in self
                .mono
                .decs
                .iter()
                .zip(&d.target.decs)
                .zip(&d.dec_statics)
            {
                static_has_type(&self.mono, sv, &dec.ty, self.options.or_conditionals)
                    .map_err(|m| format!("{}: {m}", dec.name))?;
                let t = typing
                    .type_of(&env, &target.value)
                    .map_err(|e| format!("{}: {}", dec.name, e.message))?;
                if t != static_type(sv) {
                    return Err(format!(
                        "the residual of {} does not have type ⟦sv⟧tp",
                        dec.name
                    ));
                }
                env.insert(dec.name.clone(), super::typing::Scheme::mono(t));
            }
            for ((entry, target), sv) in self
                .mono
                .entries
                .iter()
                .zip(&d.target.entries)
                .zip(&d.entry_statics)
            {
                static_has_type(
                    &self.mono,
                    sv,
                    &entry.result_type,
                    self.options.or_conditionals,
                )
                .map_err(|m| format!("entry {}: {m}", entry.name))?;
                let mut inner = env.clone();
                for (x, t) in &target.params {
                    inner.insert(x.clone(), super::typing::Scheme::mono(t.clone()));
                }
                let t = typing
                    .type_of(&inner, &target.body)
                    .map_err(|e| format!("entry {}: {}", entry.name, e.message))?;
                if t != entry.result_type {
                    return Err(format!(
                        "entry {}: the target's result type differs (Corollary 1)",
                        entry.name
                    ));
                }
            }
        }
        Ok(())
    }

    /// Runs entry point `entry` on `args` in the source program, and in both
    /// target programs, checking Theorem 2 and Corollary 1; returns the
    /// observable result (a tuple result is several values, as in Futhark).
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
        // The source program: Σ from the declarations, then E-App.
        let mut evaluator = Evaluator::new(self.options.fuel);
        let source = (|| {
            let mut sigma = ValueEnv::new();
            let mut dec_values = Vec::new();
            for dec in &self.mono.decs {
                let v = evaluator.eval(&sigma, &dec.value)?;
                dec_values.push(v.clone());
                sigma.insert(dec.name.clone(), v);
            }
            let mut f = sigma.get(&ep.name).cloned().ok_or_else(|| Failure::Stuck {
                message: "no entry".into(),
                span: ep.span,
            })?;
            for v in &values {
                f = evaluator.apply(f, v.clone(), ep.span)?;
            }
            Ok((f, dec_values))
        })();
        for d in [&self.inline, &self.lifted] {
            let target = run_target(&d.target, entry, &values, self.options.fuel);
            match (&source, &target) {
                (Ok((v, dec_values)), Ok((tv, target_decs))) => {
                    // Theorem 2 on every declaration and on the result.
                    // Lemma 1: every declaration's value has its type (Fig. 7).
                    for (dec, v) in self.mono.decs.iter().zip(dec_values) {
                        value_has_type(v, &dec.ty, &self.lambda_contexts, 0).map_err(|m| {
                            RunError::Violation(format!("Lemma 1 ({}): {m}", dec.name))
                        })?;
                    }
                    value_has_type(v, &ep.result_type, &self.lambda_contexts, 0)
                        .map_err(|m| RunError::Violation(format!("Lemma 1 (result): {m}")))?;
                    for ((sv_name, sv), (v, tv)) in
                        d.dec_statics.iter().zip(dec_values.iter().zip(target_decs))
                    {
                        value_has_static(v, sv).map_err(|m| {
                            RunError::Violation(format!("Theorem 2 ({sv_name}): {m}"))
                        })?;
                        if translate_value_at(v, sv) != *tv {
                            return Err(RunError::Violation(format!(
                                "Theorem 2 ({sv_name}): the target's value is not ⟦v⟧val"
                            )));
                        }
                    }
                    lemma_4(v, &ep.result_type).map_err(RunError::Violation)?;
                    if translate_value(v) != *tv {
                        return Err(RunError::Violation(
                            "Corollary 1: the target program computes a different value".into(),
                        ));
                    }
                }
                (Err(Failure::Err(e1)), Err(Failure::Err(e2))) => {
                    if e1 != e2 {
                        return Err(RunError::Violation(format!(
                            "Corollary 1: the source fails with \"{}\" but the target with \"{}\"",
                            e1.message, e2.message
                        )));
                    }
                }
                (Err(Failure::OutOfFuel { .. }), _) | (_, Err(Failure::OutOfFuel { .. })) => {
                    return Err(RunError::OutOfFuel)
                }
                (s, t) => {
                    return Err(RunError::Violation(format!(
                        "Corollary 1: the source gives {} but the target {}",
                        describe(s.as_ref().map(|(v, _)| v)),
                        describe(t.as_ref().map(|(v, _)| v))
                    )))
                }
            }
        }
        let result = match source {
            Ok((v, _)) => v,
            Err(Failure::Err(e)) => return Err(RunError::Runtime(e)),
            Err(Failure::OutOfFuel { .. }) => return Err(RunError::OutOfFuel),
            Err(Failure::Stuck { message, .. }) => {
                return Err(RunError::Violation(format!(
                    "evaluation is stuck: {message} (Lemma 1)"
                )))
            }
        };
        let observable = to_observable(&result, &ep.result_type).map_err(RunError::Violation)?;
        Ok(match observable {
            obs::Value::Tuple(vs) if !vs.is_empty() => vs,
            v => vec![v],
        })
    }
}

fn describe(r: Result<&Value, &Failure>) -> String {
    match r {
        Ok(_) => "a value".into(),
        Err(Failure::Err(e)) => format!("err ({})", e.message),
        Err(Failure::OutOfFuel { .. }) => "no result (out of fuel)".into(),
        Err(Failure::Stuck { message, .. }) => format!("a stuck evaluation ({message})"),
    }
}

/// Runs an entry point of a target program: its declarations, then its body.
pub fn run_target(
    target: &TargetProgram,
    entry: &str,
    args: &[Value],
    fuel: u64,
) -> Result<(Value, Vec<Value>), Failure> {
    let mut evaluator = Evaluator::new(fuel).with_functions(&target.functions);
    let mut sigma = ValueEnv::new();
    let mut decs = Vec::new();
    for dec in &target.decs {
        let v = evaluator.eval(&sigma, &dec.value)?;
        decs.push(v.clone());
        sigma.insert(dec.name.clone(), v);
    }
    let Some(e) = target.entries.iter().find(|e| e.name == entry) else {
        return Err(Failure::Stuck {
            message: format!("no entry {entry}"),
            span: Default::default(),
        });
    };
    for ((x, _), v) in e.params.iter().zip(args) {
        sigma.insert(x.clone(), v.clone());
    }
    let v = evaluator.eval(&sigma, &e.body)?;
    Ok((v, decs))
}
