//! Type inference for the core language, with diagnostics.
//!
//! Hindley–Milner with levels (`unify`), extended as Futhark is: overloaded
//! literals and operators (constrained variables defaulted to `i32`/`f64` at the
//! end of each top-level definition), structural records, tuples and sum types
//! (with `HasFields`/`HasConstructors` constraints while a type is unknown),
//! arrays with sizes, lifted type variables, and TFP'18's restrictions on
//! functions (no functions from `if`/`match`, in arrays, from loops, or at entry
//! points), exhaustive `match` and irrefutable binding patterns. What sizes
//! are checked is documented in ARCHITECTURE.md ("optimized/").
//!
//! The module language: structures, aliases, qualified names, `open`,
//! `local`, `m.(e)` and functors, higher-order included (`modules`), module
//! types with opaque ascription and matching (`signatures`), and `import`
//! through an [`ImportLoader`], with the prelude's numeric modules as
//! intrinsics (`prelude`).
//!
//! Error recovery: each declaration is checked on its own. A failing one is
//! reported once and its name is bound to [`Type::Error`] (a module to
//! `ModuleValue::Poisoned`), which is silent wherever it is used, so later uses
//! do not cascade.

mod builtins;
mod decs;
pub mod env;
mod errors;
mod exhaustiveness;
mod exprs;
mod literals;
mod modules;
mod operators;
mod pats;
pub mod prelude;
mod rules;
mod signatures;
mod type_exps;
pub mod typed;
pub mod unify;

use spec::diagnostic::Diagnostic;
use spec::source::{FileId, Span};
use spec::syntax::ast::{Name, Program, ValueBindKind};
use std::rc::Rc;

use crate::types::printer::TypePrinter;
use crate::types::{RigidName, Scheme, Type};
use unify::Substitution;

/// The result of checking a program: the type of every value binding at the
/// top level or in a module, in source order.
#[derive(Clone, Debug)]
pub struct CheckedProgram {
    pub bindings: Vec<CheckedBinding>,
}

/// One `def` or `entry` and its inferred type scheme; `name` is qualified by
/// the enclosing modules (`m.f`).
#[derive(Clone, Debug)]
pub struct CheckedBinding {
    pub name: Name,
    pub kind: ValueBindKind,
    pub scheme: Scheme,
    pub span: Span,
}

impl CheckedBinding {
    /// `name 'a : type` in source syntax: type parameters written out (with
    /// `'^`/`'~` for lifted ones), size parameters implicit in the type.
    pub fn signature(&self) -> String {
        let mut printer = TypePrinter::new();
        let mut text = self.name.clone();
        if spec::syntax::operators::is_operator_name(&self.name) {
            text = format!("({})", self.name);
        }
        for (param, liftedness) in &self.scheme.type_params {
            let marker = match liftedness {
                spec::syntax::ast::Liftedness::Unlifted => "'",
                spec::syntax::ast::Liftedness::SizeLifted => "'~",
                spec::syntax::ast::Liftedness::Lifted => "'^",
            };
            text.push_str(&format!(" {marker}{}", param.name));
        }
        text.push_str(" : ");
        text.push_str(&printer.print(&self.scheme.ty));
        text
    }
}

/// Reads the files a program imports (`import "path"`), for the checker.
pub trait ImportLoader {
    /// The file `path` (as written, without `.fut`) imported by the
    /// declaration at `from`: its id (the same for the same file, however it
    /// is reached) and its syntax tree, or a diagnostic located at `from` (not
    /// found) or in the file (a syntax error).
    fn load(&mut self, from: Span, path: &str) -> Result<(FileId, Rc<Program>), Diagnostic>;
}

/// Type-checks a whole program without imports (`import` is reported). On
/// failure, returns every diagnostic (at most one per declaration), in
/// source order.
pub fn check_program(program: &Program) -> Result<CheckedProgram, Vec<Diagnostic>> {
    check_program_with_imports(program, None)
}

/// Type-checks a whole program, reading its imports with `loader`. Each file
/// is checked once, in the built-in environment, however often it is
/// imported.
pub fn check_program_with_imports(
    program: &Program,
    loader: Option<&mut dyn ImportLoader>,
) -> Result<CheckedProgram, Vec<Diagnostic>> {
    check_program_with_options(program, loader, CheckOptions::default())
}

/// Language options beyond Futhark, asked for by a program in a comment line
/// `-- runestone-options: or-conditionals` (the same pragma the reference
/// reads; documented in ARCHITECTURE.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// TFP'18 §7: `if` may return a function (its orderZero restriction is
    /// lifted; everything else is unchanged).
    pub or_conditionals: bool,
    /// The numeric prelude's intrinsics (`__prim_…`) are in scope. Never set
    /// from a program's text: only for static interpretation's output, whose
    /// definitions from `spec/prelude/numeric.fut` use them (a user program
    /// naming one is rejected before static interpretation runs).
    pub prelude_intrinsics: bool,
}

impl CheckOptions {
    /// The options the program text `source` asks for in its
    /// `-- runestone-options:` lines (unknown words are ignored: they are
    /// other implementations' options, such as the reference's `fuel=N`).
    pub fn from_source(source: &str) -> CheckOptions {
        let mut options = CheckOptions::default();
        for line in source.lines() {
            if let Some(rest) = line.trim().strip_prefix("-- runestone-options:") {
                if rest
                    .split_whitespace()
                    .any(|word| word == "or-conditionals")
                {
                    options.or_conditionals = true;
                }
            }
        }
        options
    }
}

/// [`check_program_with_imports`] with language `options`.
pub fn check_program_with_options(
    program: &Program,
    loader: Option<&mut dyn ImportLoader>,
    options: CheckOptions,
) -> Result<CheckedProgram, Vec<Diagnostic>> {
    let (env, first_free_rigid) = initial_environment(options);
    let mut checker = Checker::new(loader);
    checker.options = options;
    checker.subst.reserve_rigids_below(first_free_rigid);
    checker.initial_env = env.clone();
    let mut bindings = Vec::new();
    let mut diagnostics = Vec::new();
    let mut declarations = modules::Declarations {
        scope: env,
        exports: env::Env::default(),
        bindings: &mut bindings,
        diagnostics: &mut diagnostics,
    };
    checker.check_decs(&program.decs, &mut declarations);
    if diagnostics.is_empty() {
        Ok(CheckedProgram { bindings })
    } else {
        Err(diagnostics)
    }
}

/// Type-checks a module-free program (as [`check_program_with_options`],
/// without imports) and also returns its typed form: the type of every
/// expression and pattern node, every occurrence's instantiation and every
/// function's scheme, from the same inference run (see [`typed`]).
pub fn check_program_typed(
    program: &Program,
    options: CheckOptions,
) -> Result<typed::TypedProgram<'_>, Vec<Diagnostic>> {
    let (env, first_free_rigid) = initial_environment(options);
    let mut checker = Checker::new(None);
    checker.options = options;
    checker.typed = Some(typed::TypeTable::default());
    checker.subst.reserve_rigids_below(first_free_rigid);
    checker.initial_env = env.clone();
    let mut bindings = Vec::new();
    let mut diagnostics = Vec::new();
    let mut declarations = modules::Declarations {
        scope: env,
        exports: env::Env::default(),
        bindings: &mut bindings,
        diagnostics: &mut diagnostics,
    };
    checker.check_decs(&program.decs, &mut declarations);
    if !diagnostics.is_empty() {
        return Err(diagnostics);
    }
    let table = checker.typed.take().unwrap_or_default();
    Ok(typed::TypedProgram::new(
        program,
        CheckedProgram { bindings },
        table,
    ))
}

/// The scheme of the built-in function `name` (`map`, `iota`, …), as the
/// checker's initial environment has it.
pub fn builtin_scheme(name: &str) -> Option<Scheme> {
    let (env, _) = initial_environment(CheckOptions::default());
    match env.values.get(name)? {
        env::ValueBinding::Polymorphic { scheme, .. } => Some((**scheme).clone()),
        env::ValueBinding::Variable { ty, .. } => Some(Scheme::monomorphic(ty.clone())),
    }
}

/// The type of the numeric module function `module.name` (`f32.sqrt`).
pub fn numeric_module_scheme(module: &str, name: &str) -> Option<Scheme> {
    let (env, _) = initial_environment(CheckOptions::default());
    let env::ModuleValue::Structure(contents) = env.modules.get(module)? else {
        return None;
    };
    match contents.values.get(name)? {
        env::ValueBinding::Polymorphic { scheme, .. } => Some((**scheme).clone()),
        env::ValueBinding::Variable { ty, .. } => Some(Scheme::monomorphic(ty.clone())),
    }
}

/// The built-in environments: without and with the numeric prelude's
/// intrinsics, and the first rigid id neither uses.
#[derive(Clone)]
struct InitialEnvironments {
    plain: env::Env,
    with_intrinsics: env::Env,
    first_free_rigid: u32,
}

thread_local! {
    /// The built-in environments, elaborated once per thread.
    static INITIAL_ENVIRONMENT: std::cell::RefCell<Option<InitialEnvironments>> =
        const { std::cell::RefCell::new(None) };
}

/// The environment every file starts in (built-in functions, the numeric
/// modules and the top-level functions of `spec/prelude/toplevel.fut`), and the first rigid id it does not use. Its schemes contain no
/// unification variables, so one copy serves every checking run; a run only
/// has to number its own rigid names above it.
///
/// With `options.prelude_intrinsics`, the environment also binds the
/// numeric prelude's intrinsics (`__prim_…`).
fn initial_environment(options: CheckOptions) -> (env::Env, u32) {
    let environments = INITIAL_ENVIRONMENT.with(|cell| {
        if let Some(cached) = cell.borrow().as_ref() {
            return cached.clone();
        }
        let mut checker = Checker::new(None);
        let env = builtins::initial_env(&mut checker);
        let env = prelude::with_numeric_modules(&mut checker, env);
        let plain = prelude::with_toplevel_prelude(&mut checker, env);
        let with_intrinsics = prelude::with_prelude_intrinsics(&mut checker, plain.clone());
        let built = InitialEnvironments {
            plain,
            with_intrinsics,
            first_free_rigid: checker.subst.next_rigid(),
        };
        *cell.borrow_mut() = Some(built.clone());
        built
    });
    let env = if options.prelude_intrinsics {
        environments.with_intrinsics
    } else {
        environments.plain
    };
    (env, environments.first_free_rigid)
}

/// The state of one checking run.
pub(crate) struct Checker<'loader> {
    pub(crate) subst: Substitution,
    /// The let-nesting depth: variables created at a deeper level than a
    /// binding's are generalised by it.
    pub(crate) level: u32,
    /// Implicit size parameters (anonymous `[]` in parameter types) of the
    /// definition whose parameters are being checked, if any.
    pub(crate) implicit_sizes: Option<Vec<RigidName>>,
    /// The names of the modules being checked, outermost first (empty at the
    /// top level, where entry points live).
    pub(crate) module_path: Vec<Name>,
    /// What the parameter being checked is called in messages (`` `xs` ``).
    pub(crate) current_parameter: Option<String>,
    /// How messages describe anonymous implicit sizes, by rigid id.
    pub(crate) size_descriptions: std::collections::HashMap<u32, String>,
    /// Pattern checks postponed to the end of the current top-level
    /// definition (exhaustiveness needs the final types).
    pub(crate) pending_pattern_checks: Vec<exhaustiveness::PendingPatternCheck>,
    /// Literal range checks postponed to the end of the current top-level
    /// definition (an unsuffixed literal's type is known only then).
    pub(crate) pending_literal_checks: Vec<literals::PendingLiteralCheck>,
    /// Reads imported files, if this run may.
    pub(crate) loader: Option<&'loader mut dyn ImportLoader>,
    /// The built-in environment every file starts in.
    pub(crate) initial_env: env::Env,
    /// Imported files already checked, and the module each one denotes.
    pub(crate) imported: std::collections::HashMap<u32, env::ModuleValue>,
    /// Files being imported (outermost first), to report import cycles.
    pub(crate) importing: Vec<FileId>,
    /// The language options of this run.
    pub(crate) options: CheckOptions,
    /// The typed output being recorded, when asked for
    /// ([`check_program_typed`]).
    pub(crate) typed: Option<typed::TypeTable>,
    /// Why the order-zero type variables exclude functions, by where they
    /// were created: the TFP'18 rule a diagnostic cites.
    pub(crate) order_zero_origins: rules::OrderZeroOrigins,
    /// Every abstract type made so far by an ascription or a functor
    /// application, in order: those a functor's body makes are made anew by
    /// each application (functor application is generative, ICFP'18 rule 17
    /// and Futhark).
    pub(crate) generated_abstract_types: Vec<env::AbstractType>,
}

type CheckResult<T> = Result<T, Diagnostic>;

impl<'loader> Checker<'loader> {
    fn new(loader: Option<&'loader mut dyn ImportLoader>) -> Checker<'loader> {
        Checker {
            loader,
            initial_env: env::Env::default(),
            imported: std::collections::HashMap::new(),
            importing: Vec::new(),
            options: CheckOptions::default(),
            typed: None,
            subst: Substitution::new(),
            level: 0,
            implicit_sizes: None,
            module_path: Vec::new(),
            current_parameter: None,
            size_descriptions: std::collections::HashMap::new(),
            pending_pattern_checks: Vec::new(),
            pending_literal_checks: Vec::new(),
            order_zero_origins: rules::OrderZeroOrigins::default(),
            generated_abstract_types: Vec::new(),
        }
    }

    /// Runs `work` one level deeper.
    pub(crate) fn deeper<T>(&mut self, work: impl FnOnce(&mut Self) -> T) -> T {
        self.level += 1;
        let result = work(self);
        self.level -= 1;
        result
    }

    pub(crate) fn resolve_deep(&self, ty: &Type) -> Type {
        self.subst.resolve_deep(ty)
    }
}
