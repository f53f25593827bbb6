//! The prelude, from the language definition's own source (never a copy):
//! `spec/prelude/numeric.fut` (the module types `numeric`, `integral`,
//! `real`, `float` and the modules `i8 … u64`, `f32`, `f64`, `bool`,
//! ascribed transparently) and `spec/prelude/toplevel.fut` (`id`, `flip`,
//! `foldl`, ...), both checked like programs once per thread, before every
//! program. The numeric prelude is checked in a scope with its intrinsics
//! (`__prim_…`, the list in its header) as polymorphic built-ins of
//! [`prelude_intrinsics_signature`]; only its modules and module types are
//! exported, so no user program sees an intrinsic. Static interpretation's
//! output, which keeps the numeric modules' definitions the program reaches,
//! is checked with them bound (`CheckOptions::prelude_intrinsics`).

use std::rc::Rc;

use spec::source::FileId;
use spec::syntax::ast::{ModTypeExp, Spec};

use super::env::{Env, ModuleValue, ValueBinding};
use super::type_exps::AnonymousSizes;
use super::Checker;
use crate::types::{PrimType, Scheme};

/// The file id given to `spec/prelude/numeric.fut`; never rendered.
const NUMERIC_PRELUDE_FILE: FileId = FileId(u32::MAX - 1);

/// The file id given to the intrinsics' signature; never rendered.
const INTRINSICS_FILE: FileId = FileId(u32::MAX - 3);

/// The numeric prelude: module-level source shared with the reference.
pub const NUMERIC_PRELUDE: &str = include_str!("../../../spec/prelude/numeric.fut");

/// The file id given to `spec/prelude/toplevel.fut`; never rendered.
const TOPLEVEL_PRELUDE_FILE: FileId = FileId(u32::MAX - 2);

/// The top-level functions of the prelude (`id`, `flip`, `>->`, `foldl`,
/// `all`, `head`, ...): the language definition's own source, shared with the
/// reference (which loads the same file), never a copy.
pub const TOPLEVEL_PRELUDE: &str = include_str!("../../../spec/prelude/toplevel.fut");

/// `env` extended with the definitions of [`TOPLEVEL_PRELUDE`], checked like
/// a program in `env`. The prelude is a constant of the repository, tested
/// below to check without diagnostics; were it ever broken, its failing
/// definitions would simply be missing. Its bindings carry no definition site
/// (the prelude is never rendered in a diagnostic).
pub(crate) fn with_toplevel_prelude(checker: &mut Checker<'_>, env: Env) -> Env {
    let Ok(program) = spec::syntax::parse_program(TOPLEVEL_PRELUDE_FILE, TOPLEVEL_PRELUDE) else {
        return env;
    };
    let (exports, _) = check_toplevel_prelude(checker, &program, env.clone());
    let mut result = env;
    for (name, binding) in exports.values.iter() {
        let binding = match binding {
            ValueBinding::Polymorphic { scheme, .. } => ValueBinding::Polymorphic {
                scheme: scheme.clone(),
                defined_at: None,
            },
            other => other.clone(),
        };
        result = result.with_value(name.clone(), binding);
    }
    result
}

/// What the prelude `program` declares, checked in `env`, and its diagnostics.
fn check_toplevel_prelude(
    checker: &mut Checker<'_>,
    program: &spec::syntax::ast::Program,
    env: Env,
) -> (Env, Vec<spec::diagnostic::Diagnostic>) {
    let mut bindings = Vec::new();
    let mut diagnostics = Vec::new();
    let mut declarations = super::modules::Declarations {
        scope: env,
        exports: Env::default(),
        bindings: &mut bindings,
        diagnostics: &mut diagnostics,
    };
    checker.check_decs(&program.decs, &mut declarations);
    let exports = declarations.exports;
    (exports, diagnostics)
}

/// The types of the numeric prelude's intrinsics (documented in the header
/// of `spec/prelude/numeric.fut`), as a Futhark module type. They are
/// polymorphic here; the prelude uses each at one primitive type, and the
/// reference constrains each to its domain.
pub fn prelude_intrinsics_signature() -> String {
    let mut specs = Vec::new();
    for target in PrimType::ALL {
        let t = target.name();
        specs.push(format!("val __prim_to_{t} 'a : a -> {t}"));
    }
    for name in ["abs", "sgn"] {
        specs.push(format!("val __prim_{name} 'a : a -> a"));
    }
    for target in [PrimType::U32, PrimType::U64, PrimType::F32, PrimType::F64] {
        let t = target.name();
        specs.push(format!("val __prim_reinterpret_{t} 'a : a -> {t}"));
    }
    for name in ["min", "max", "atan2", "mul_hi"] {
        specs.push(format!("val __prim_{name} 'a : a -> a -> a"));
    }
    specs.push("val __prim_fma 'a : a -> a -> a -> a".to_string());
    for name in [
        "sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
        "cosh", "tanh", "asinh", "acosh", "atanh", "floor", "ceil", "round", "trunc", "cbrt",
        "log1p", "gamma", "lgamma", "erf", "erfc",
    ] {
        specs.push(format!("val __prim_{name} 'a : a -> a"));
    }
    for name in ["isnan", "isinf"] {
        specs.push(format!("val __prim_{name} 'a : a -> bool"));
    }
    for name in ["popc", "clz", "ctz"] {
        specs.push(format!("val __prim_{name} 'a : a -> i32"));
    }
    format!("{{\n  {}\n}}", specs.join("\n  "))
}

/// `env` with the value specifications of the signature `text` bound as
/// built-ins (no definition site).
fn with_signature_values(checker: &mut Checker<'_>, env: Env, file: FileId, text: &str) -> Env {
    let Ok(ModTypeExp::Signature { specs, .. }) = spec::syntax::parse_mod_type(file, text) else {
        return env;
    };
    let mut result = env.clone();
    for spec in &specs {
        let Spec::Val {
            name,
            type_params,
            ty,
            ..
        } = spec
        else {
            continue;
        };
        let Ok(scheme) = checker.deeper(|checker| {
            let (inner, size_params, type_params) = checker.bind_type_params(&env, type_params);
            let ty = checker.elaborate_type(&inner, ty, AnonymousSizes::Unknown)?;
            Ok::<Scheme, spec::diagnostic::Diagnostic>(Scheme {
                type_params,
                size_params,
                ty: checker.resolve_deep(&ty),
            })
        }) else {
            continue;
        };
        result = result.with_value(
            name.clone(),
            ValueBinding::Polymorphic {
                scheme: Rc::new(scheme),
                defined_at: None,
            },
        );
    }
    result
}

/// `env`'s bindings without definition sites (the prelude is never
/// rendered in a diagnostic), structures included.
fn without_definition_sites(env: &Env) -> Env {
    let mut result = env.clone();
    for (name, binding) in env.values.iter() {
        if let ValueBinding::Polymorphic { scheme, .. } = binding {
            result = result.with_value(
                name.clone(),
                ValueBinding::Polymorphic {
                    scheme: scheme.clone(),
                    defined_at: None,
                },
            );
        }
    }
    for (name, module) in env.modules.iter() {
        if let ModuleValue::Structure(contents) = module {
            result = result.with_module(
                name.clone(),
                ModuleValue::Structure(Rc::new(without_definition_sites(contents))),
            );
        }
    }
    result
}

/// The module types and modules `spec/prelude/numeric.fut` declares,
/// checked in `env` extended by the intrinsics, and its diagnostics.
fn check_numeric_prelude(
    checker: &mut Checker<'_>,
    env: Env,
) -> (Env, Vec<spec::diagnostic::Diagnostic>) {
    let program = match spec::syntax::parse_program(NUMERIC_PRELUDE_FILE, NUMERIC_PRELUDE) {
        Ok(program) => program,
        Err(diagnostic) => return (Env::default(), vec![diagnostic]),
    };
    let scope = with_prelude_intrinsics(checker, env);
    check_toplevel_prelude(checker, &program, scope)
}

/// `env` with the numeric prelude's intrinsics bound (as built-ins without
/// definition site): the environment static interpretation's output is
/// checked in, since the numeric modules' definitions it keeps use them.
pub(crate) fn with_prelude_intrinsics(checker: &mut Checker<'_>, env: Env) -> Env {
    with_signature_values(
        checker,
        env,
        INTRINSICS_FILE,
        &prelude_intrinsics_signature(),
    )
}

/// `env` with the numeric prelude's module types and modules. The prelude
/// is a constant of the repository, tested below to check without
/// diagnostics; were it ever broken, its failing declarations would simply
/// be missing.
pub(crate) fn with_numeric_modules(checker: &mut Checker<'_>, env: Env) -> Env {
    let (exports, _) = check_numeric_prelude(checker, env.clone());
    env.extended_by(&without_definition_sites(&exports))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_toplevel_prelude_checks_without_diagnostics() {
        let program = spec::syntax::parse_program(TOPLEVEL_PRELUDE_FILE, TOPLEVEL_PRELUDE)
            .expect("the prelude parses");
        let mut checker = Checker::new(None);
        let env = super::super::builtins::initial_env(&mut checker);
        let env = with_numeric_modules(&mut checker, env);
        let (exports, diagnostics) = check_toplevel_prelude(&mut checker, &program, env);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        for name in [
            "id", "flip", ">->", "<-<", "foldl", "all", "head", "uncurry",
        ] {
            assert!(exports.values.contains_key(name), "`{name}` is missing");
        }
    }

    #[test]
    fn the_numeric_prelude_checks_without_diagnostics_and_exports_no_intrinsic() {
        let mut checker = Checker::new(None);
        let env = super::super::builtins::initial_env(&mut checker);
        let (exports, diagnostics) = check_numeric_prelude(&mut checker, env);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        for name in [
            "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "bool",
        ] {
            assert!(
                exports.modules.contains_key(name),
                "module `{name}` is missing"
            );
        }
        for name in ["from_prim", "numeric", "integral", "real", "float"] {
            assert!(
                exports.module_types.contains_key(name),
                "module type `{name}` is missing"
            );
        }
        assert!(
            exports
                .values
                .keys()
                .all(|name| !name.starts_with("__prim_")),
            "an intrinsic is exported"
        );
    }

    #[test]
    fn every_intrinsic_named_in_the_prelude_is_declared_once() {
        let text = prelude_intrinsics_signature();
        let specs = match spec::syntax::parse_mod_type(INTRINSICS_FILE, &text) {
            Ok(ModTypeExp::Signature { specs, .. }) => specs,
            other => panic!("the intrinsics' signature does not parse: {other:?}\n{text}"),
        };
        let declared: Vec<&str> = specs
            .iter()
            .filter_map(|spec| match spec {
                Spec::Val { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(declared.len(), text.lines().count() - 2, "{text}");
        let code = NUMERIC_PRELUDE
            .lines()
            .filter(|line| !line.trim_start().starts_with("--"));
        for word in code.flat_map(|line| line.split(|c: char| !(c.is_alphanumeric() || c == '_'))) {
            if word.starts_with("__prim_") {
                assert!(
                    declared.contains(&word),
                    "intrinsic `{word}` is not declared"
                );
            }
        }
    }
}
