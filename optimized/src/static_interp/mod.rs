//! Static interpretation: the module language eliminated (ICFP'18 §5–§6,
//! rules 54–65), with memoised functor application in the spirit of
//! ICFP'99's smart recompilation.
//!
//! [`eliminate_modules`] runs on a program that type-checked and returns a
//! *module-free surface program*: only `def`, `entry` and `type`
//! declarations, every top-level name unique, no capture, qualified names
//! resolved, type names replaced by the flattened abbreviations they
//! denote. The prelude files (`spec/prelude/*.fut`, [`prelude`]) are
//! interpreted first as ordinary declarations; only what the entry points
//! reach is kept.
//!
//! Structure: [`env`] (persistent environments, module values with
//! identities, functor closures, shapes of module types), `modules`
//! (declarations, module expressions, functor application and its memo),
//! `exprs` (names in expressions, patterns and types resolved, local binders
//! tracked), `naming` (reachability from the entry points and the final
//! names), `totality` (the constants no entry point needs: total ones go). Invariants: ARCHITECTURE.md
//! ("optimized/"); measurements: `benches/RESULTS.md`.

pub mod env;
mod exprs;
mod modules;
mod naming;
pub mod prelude;
mod totality;

use spec::diagnostic::Diagnostic;
use spec::source::{FileId, Span};
use spec::syntax::ast::{Dec, Name, Program};
use std::collections::{HashMap, HashSet};

use crate::typecheck::ImportLoader;
use env::{Entity, Env, Module, ModuleId, SymbolId};

/// What static interpretation did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Functor applications evaluated (each `F(A)` met, reused or not).
    pub functor_applications: usize,
    /// Applications answered from the memo: the same functor value applied
    /// to the same argument module value again, so the body was not
    /// interpreted and nothing was emitted.
    pub reused_applications: usize,
    /// Declarations (`def`, `entry`, `type`) emitted, before unreachable
    /// ones were dropped.
    pub declarations_emitted: usize,
    /// Declarations in the output program (reachable from the entry points).
    pub declarations_kept: usize,
}

/// Eliminates the modules of `program` (which must have type-checked with
/// the same `loader`): the module-free program and what it took. Imports are
/// read with `loader` (`None`: an `import` is reported), each file
/// interpreted once.
///
/// Entry points are the `entry` declarations (wherever declared) and
/// `def main` at the top level of `program`; they keep their names. A
/// program without entry points keeps every declaration of its own files
/// (prelude declarations only where those reach them).
pub fn eliminate_modules(
    program: &Program,
    loader: Option<&mut dyn ImportLoader>,
) -> Result<(Program, Statistics), Vec<Diagnostic>> {
    eliminate_modules_keeping(program, loader, Keep::Reachable)
}

/// What the module-free output keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// What the entry points reach (the program to compile).
    Reachable,
    /// Every declaration of the program's own files too (the program to
    /// judge: Futhark rejects an unused definition that breaks a rule).
    Everything,
}

/// [`eliminate_modules`], keeping `keep`.
pub fn eliminate_modules_keeping(
    program: &Program,
    loader: Option<&mut dyn ImportLoader>,
    keep: Keep,
) -> Result<(Program, Statistics), Vec<Diagnostic>> {
    let mut interpreter = Interpreter::new(loader);
    let result = spec::recursion::with_stack(|| interpreter.interpret_program(program));
    match result {
        Ok(()) => {
            let output = match keep {
                Keep::Reachable => naming::finish(&interpreter),
                Keep::Everything => naming::finish_everything(&interpreter),
            };
            let mut statistics = interpreter.statistics;
            statistics.declarations_kept = output.decs.len();
            Ok((output, statistics))
        }
        Err(diagnostic) => Err(vec![diagnostic]),
    }
}

/// Which namespace a symbol's name lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Namespace {
    Value,
    Type,
}

/// One output declaration.
#[derive(Debug)]
pub(crate) struct Symbol {
    /// The name it was declared with (its output name when nothing clashes).
    pub base: Name,
    pub namespace: Namespace,
    /// An entry point: keeps its name.
    pub entry_point: bool,
    /// Declared by the program's own files (not a prelude file).
    pub from_program: bool,
    /// The declaration, with references to globals written as
    /// [`provisional_name`]s until `naming` picks the final names.
    pub dec: Option<Dec>,
    /// The globals its declaration refers to.
    pub uses: Vec<SymbolId>,
    /// The local binders in scope where it is referred to: its output name
    /// must differ from each, or the local would capture it.
    pub captured_by: std::collections::HashSet<Name>,
}

/// The name standing for global `id` in the tree being built: a NUL byte
/// and the number, which no source text can contain.
pub(crate) fn provisional_name(id: SymbolId) -> Name {
    format!("\u{0}{}", id.0)
}

/// The global a provisional name stands for.
pub(crate) fn provisional_symbol(name: &str) -> Option<SymbolId> {
    name.strip_prefix('\u{0}')?.parse().ok().map(SymbolId)
}

/// The state of one static interpretation.
pub(crate) struct Interpreter<'loader> {
    pub loader: Option<&'loader mut dyn ImportLoader>,
    pub next_module_id: ModuleId,
    /// Memoised functor application: (functor, argument) → result.
    pub memo: HashMap<(ModuleId, ModuleId), Module>,
    /// Imported files already interpreted, and their structures.
    pub imported: HashMap<u32, Module>,
    /// Files being imported (to report cycles).
    pub importing: Vec<FileId>,
    /// The environment every file starts in (after the prelude files).
    pub initial_env: Env,
    pub symbols: Vec<Symbol>,
    /// The globals the declaration being translated refers to.
    pub current_uses: Vec<SymbolId>,
    /// Every name bound by a local binder, by namespace (fresh local names
    /// made by `naming` avoid them).
    pub local_values: HashSet<Name>,
    pub local_types: HashSet<Name>,
    /// Names referred to but bound nowhere in the program or the prelude
    /// files (built-ins), kept as they are; no global may take them.
    pub free_values: HashSet<Name>,
    pub free_types: HashSet<Name>,
    /// Interpreting the program's files rather than the prelude.
    pub in_program: bool,
    pub statistics: Statistics,
}

impl<'loader> Interpreter<'loader> {
    fn new(loader: Option<&'loader mut dyn ImportLoader>) -> Interpreter<'loader> {
        Interpreter {
            loader,
            next_module_id: 0,
            memo: HashMap::new(),
            imported: HashMap::new(),
            importing: Vec::new(),
            initial_env: Env::default(),
            symbols: Vec::new(),
            current_uses: Vec::new(),
            local_values: HashSet::new(),
            local_types: HashSet::new(),
            free_values: HashSet::new(),
            free_types: HashSet::new(),
            in_program: false,
            statistics: Statistics::default(),
        }
    }

    /// The prelude files, then `program`'s declarations.
    fn interpret_program(&mut self, program: &Program) -> Result<(), Diagnostic> {
        let mut scope = Env::default();
        // Prelude files import nothing: the loader reads the program's
        // files, relative to a file in its source map.
        let loader = self.loader.take();
        for prelude_program in prelude::programs()? {
            let mut exports = Env::default();
            let result =
                self.interpret_decs(&prelude_program.decs, &mut scope, &mut exports, false);
            if result.is_err() {
                self.loader = loader;
                return result;
            }
        }
        self.loader = loader;
        self.initial_env = scope.clone();
        self.in_program = true;
        let mut exports = Env::default();
        self.interpret_decs(&program.decs, &mut scope, &mut exports, true)
    }

    /// A new module identity.
    pub(crate) fn fresh_module_id(&mut self) -> ModuleId {
        self.next_module_id += 1;
        self.next_module_id
    }

    /// A new output declaration named `base`, its declaration to come.
    pub(crate) fn new_symbol(
        &mut self,
        base: &str,
        namespace: Namespace,
        entry_point: bool,
    ) -> SymbolId {
        let id = SymbolId(self.symbols.len() as u32);
        self.symbols.push(Symbol {
            base: base.to_string(),
            namespace,
            entry_point,
            from_program: self.in_program,
            dec: None,
            uses: Vec::new(),
            captured_by: std::collections::HashSet::new(),
        });
        id
    }

    /// Records `dec` as the declaration of `symbol`, with the globals it
    /// used (collected in `current_uses` since the translation started).
    pub(crate) fn emit(&mut self, symbol: SymbolId, dec: Dec) {
        let mut uses = std::mem::take(&mut self.current_uses);
        uses.sort_unstable();
        uses.dedup();
        let entry = &mut self.symbols[symbol.0 as usize];
        entry.dec = Some(dec);
        entry.uses = uses;
        self.statistics.declarations_emitted += 1;
    }

    /// The output name of a value name's entity in `scope`, recording the
    /// use and the locals that could capture it there.
    pub(crate) fn use_value(&mut self, entity: Entity, name: &str, scope: &Env) -> Name {
        match entity {
            Entity::Global(symbol) => {
                self.current_uses.push(symbol);
                let captured_by = &mut self.symbols[symbol.0 as usize].captured_by;
                captured_by.extend(scope.local_values.iter().cloned());
                provisional_name(symbol)
            }
            Entity::Local => name.to_string(),
        }
    }

    /// [`Interpreter::use_value`] for a type name.
    pub(crate) fn use_type(&mut self, symbol: SymbolId, scope: &Env) -> Name {
        self.current_uses.push(symbol);
        let captured_by = &mut self.symbols[symbol.0 as usize].captured_by;
        captured_by.extend(scope.local_types.iter().cloned());
        provisional_name(symbol)
    }
}

/// An internal-error diagnostic for a program the type checker should have
/// rejected (static interpretation runs only after type checking).
pub(crate) fn not_checked(span: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(message)
        .with_code("static-interpretation")
        .with_primary(span, "here")
        .with_note("static interpretation expects a program that type-checked")
}
