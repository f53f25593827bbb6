//! The numeric modules of Futhark's prelude (`i32`, `f32`, ...), as
//! intrinsics: one structure per numeric type, its value specifications
//! generated here in Futhark syntax, parsed and elaborated like the built-in
//! functions.
//!
//! This is a stopgap with a documented scope: DESIGN.md plans the prelude as
//! Futhark source in `spec/prelude/`, shared by both implementations; once it
//! exists, it is checked like an import and this table goes. The functions
//! are a subset of Futhark's `numeric`, `integral` and `float` module types
//! (arithmetic and comparison operators, `max`/`min`/`abs`/`sgn`/`neg`,
//! conversions from every primitive type, `highest`/`lowest`, `sum`/
//! `product`/`maximum`/`minimum`, bit operations for integers, and the usual
//! elementary functions and constants for floats).

use std::rc::Rc;

use spec::source::FileId;
use spec::syntax::ast::{ModTypeExp, Spec};

use super::env::{Env, ModuleValue, ValueBinding};
use super::type_exps::AnonymousSizes;
use super::Checker;
use crate::types::{PrimType, Scheme};

/// The file id given to the generated signatures; never rendered.
const PRELUDE_FILE: FileId = FileId(u32::MAX - 1);

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

/// The value specifications of the module for `prim`, in Futhark syntax.
pub fn numeric_module_signature(prim: PrimType) -> String {
    let t = prim.name();
    let mut specs = Vec::new();
    for op in ["+", "-", "*", "/", "%", "**"] {
        specs.push(format!("val {op} : {t} -> {t} -> {t}"));
    }
    for op in ["==", "!=", "<", ">", "<=", ">="] {
        specs.push(format!("val {op} : {t} -> {t} -> bool"));
    }
    for name in ["neg", "abs", "sgn"] {
        specs.push(format!("val {name} : {t} -> {t}"));
    }
    for name in ["max", "min"] {
        specs.push(format!("val {name} : {t} -> {t} -> {t}"));
    }
    for name in ["highest", "lowest"] {
        specs.push(format!("val {name} : {t}"));
    }
    for from in PrimType::ALL {
        let from = from.name();
        specs.push(format!("val {from} : {from} -> {t}"));
    }
    specs.push(format!("val to_i64 : {t} -> i64"));
    specs.push("val num_bits : i32".to_string());
    for name in ["sum", "product", "maximum", "minimum"] {
        specs.push(format!("val {name} [n] : [n]{t} -> {t}"));
    }
    match prim {
        PrimType::Float(_) => {
            for name in [
                "sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
                "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "gamma", "lgamma", "ceil",
                "floor", "trunc", "round",
            ] {
                specs.push(format!("val {name} : {t} -> {t}"));
            }
            for name in ["atan2", "hypot", "pow"] {
                specs.push(format!("val {name} : {t} -> {t} -> {t}"));
            }
            for name in ["lerp", "fma", "mad"] {
                specs.push(format!("val {name} : {t} -> {t} -> {t} -> {t}"));
            }
            for name in ["isinf", "isnan"] {
                specs.push(format!("val {name} : {t} -> bool"));
            }
            for name in ["inf", "nan", "pi", "e", "epsilon"] {
                specs.push(format!("val {name} : {t}"));
            }
            specs.push(format!("val from_fraction : i64 -> i64 -> {t}"));
        }
        PrimType::Signed(_) | PrimType::Unsigned(_) => {
            for op in ["//", "%%", "&", "|", "^", "<<", ">>", ">>>"] {
                specs.push(format!("val {op} : {t} -> {t} -> {t}"));
            }
            specs.push(format!("val not : {t} -> {t}"));
            for name in ["popc", "clz", "ctz"] {
                specs.push(format!("val {name} : {t} -> i32"));
            }
            specs.push(format!("val get_bit : i32 -> {t} -> i32"));
            specs.push(format!("val set_bit : i32 -> {t} -> i32 -> {t}"));
            specs.push(format!("val mul_hi : {t} -> {t} -> {t}"));
            specs.push(format!("val mad_hi : {t} -> {t} -> {t} -> {t}"));
        }
        PrimType::Bool => {}
    }
    format!("{{\n  {}\n}}", specs.join("\n  "))
}

/// `env` with a module for each numeric type.
pub(crate) fn with_numeric_modules(checker: &mut Checker<'_>, env: Env) -> Env {
    let mut result = env.clone();
    for prim in PrimType::ALL {
        if prim == PrimType::Bool {
            continue;
        }
        let text = numeric_module_signature(prim);
        let Ok(ModTypeExp::Signature { specs, .. }) =
            spec::syntax::parse_mod_type(PRELUDE_FILE, &text)
        else {
            continue;
        };
        let mut contents = Env::default();
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
            contents = contents.with_value(
                name.clone(),
                ValueBinding::Polymorphic {
                    scheme: Rc::new(scheme),
                    defined_at: None,
                },
            );
        }
        result = result.with_module(
            prim.name().to_string(),
            ModuleValue::Structure(Rc::new(contents)),
        );
    }
    result
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
    fn every_numeric_module_signature_parses_completely() {
        for prim in PrimType::ALL {
            let text = numeric_module_signature(prim);
            let specs = match spec::syntax::parse_mod_type(PRELUDE_FILE, &text) {
                Ok(ModTypeExp::Signature { specs, .. }) => specs,
                other => panic!(
                    "the {} module does not parse: {other:?}\n{text}",
                    prim.name()
                ),
            };
            assert_eq!(specs.len(), text.lines().count() - 2, "{text}");
        }
    }
}
