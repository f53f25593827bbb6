//! The built-in functions (SOACs and array primitives), with their polymorphic
//! types written once, in Futhark's own syntax, in [`BUILTIN_SIGNATURE`].
//!
//! Type parameters written `'a` exclude functions: `map` may not build an
//! array of functions (TFP'18 §2.2). Anonymous sizes `[]` in results are
//! unknown sizes (Futhark's existential sizes). The table is parsed and
//! elaborated once per checking run; the built-in source never appears in a
//! diagnostic (instantiated variables carry the span of the use).

use std::rc::Rc;
use std::sync::OnceLock;

use spec::source::FileId;
use spec::syntax::ast::{ModTypeExp, Spec};

use super::env::{Env, ValueBinding};
use super::type_exps::AnonymousSizes;
use super::Checker;
use crate::types::Scheme;

/// The built-in functions, as a Futhark module type.
pub const BUILTIN_SIGNATURE: &str = r#"{
  val map 'a [n] 'x : (a -> x) -> [n]a -> *[n]x
  val map1 'a [n] 'x : (a -> x) -> [n]a -> *[n]x
  val map2 'a 'b [n] 'x : (a -> b -> x) -> [n]a -> [n]b -> *[n]x
  val map3 'a 'b 'c [n] 'x : (a -> b -> c -> x) -> [n]a -> [n]b -> [n]c -> *[n]x
  val map4 'a 'b 'c 'd [n] 'x : (a -> b -> c -> d -> x) -> [n]a -> [n]b -> [n]c -> [n]d -> *[n]x
  val map5 'a 'b 'c 'd 'e [n] 'x : (a -> b -> c -> d -> e -> x) -> [n]a -> [n]b -> [n]c -> [n]d -> [n]e -> *[n]x
  val reduce 'a [n] : (a -> a -> a) -> a -> [n]a -> a
  val reduce_comm 'a [n] : (a -> a -> a) -> a -> [n]a -> a
  val scan 'a [n] : (a -> a -> a) -> a -> [n]a -> *[n]a
  val filter 'a [n] : (a -> bool) -> [n]a -> *[]a
  val partition 'a [n] : (a -> bool) -> [n]a -> ([]a, []a)
  val scatter 't [k] [n] : *[k]t -> [n]i64 -> [n]t -> *[k]t
  val reduce_by_index 'a [k] [n] : *[k]a -> (a -> a -> a) -> a -> [n]i64 -> [n]a -> *[k]a
  val iota : (n: i64) -> *[n]i64
  val replicate 't : (n: i64) -> t -> *[n]t
  val zip 'a 'b [n] : [n]a -> [n]b -> *[n](a, b)
  val zip2 'a 'b [n] : [n]a -> [n]b -> *[n](a, b)
  val zip3 'a 'b 'c [n] : [n]a -> [n]b -> [n]c -> *[n](a, b, c)
  val zip4 'a 'b 'c 'd [n] : [n]a -> [n]b -> [n]c -> [n]d -> *[n](a, b, c, d)
  val zip5 'a 'b 'c 'd 'e [n] : [n]a -> [n]b -> [n]c -> [n]d -> [n]e -> *[n](a, b, c, d, e)
  val unzip 'a 'b [n] : [n](a, b) -> ([n]a, [n]b)
  val unzip2 'a 'b [n] : [n](a, b) -> ([n]a, [n]b)
  val unzip3 'a 'b 'c [n] : [n](a, b, c) -> ([n]a, [n]b, [n]c)
  val unzip4 'a 'b 'c 'd [n] : [n](a, b, c, d) -> ([n]a, [n]b, [n]c, [n]d)
  val unzip5 'a 'b 'c 'd 'e [n] : [n](a, b, c, d, e) -> ([n]a, [n]b, [n]c, [n]d, [n]e)
  val length 't [n] : [n]t -> i64
  val concat 't [n] [m] : [n]t -> [m]t -> *[]t
  val ++ 't [n] [m] : [n]t -> [m]t -> *[]t
  val flatten 't [n] [m] : [n][m]t -> []t
  val unflatten 't [p] : (n: i64) -> (m: i64) -> [p]t -> [n][m]t
  val transpose 't [n] [m] : [n][m]t -> *[m][n]t
  val reverse 't [n] : [n]t -> [n]t
  val rotate 't [n] : i64 -> [n]t -> [n]t
  val copy 't : t -> *t
  val assert_keyword 't : bool -> t -> t
}"#;

/// The name [`BUILTIN_SIGNATURE`] gives `assert c e`'s intrinsic, which is
/// bound as [`spec::syntax::ast::ASSERT`]: the keyword cannot be written in
/// a specification.
const ASSERT_IN_SIGNATURE: &str = "assert_keyword";

/// The name a specification of [`BUILTIN_SIGNATURE`] binds.
fn bound_name(specified: &str) -> &str {
    if specified == ASSERT_IN_SIGNATURE {
        spec::syntax::ast::ASSERT
    } else {
        specified
    }
}

/// The file id given to the built-in signature; never rendered.
const BUILTIN_FILE: FileId = FileId(u32::MAX);

/// The specifications of [`BUILTIN_SIGNATURE`], parsed once per process.
fn builtin_specs() -> &'static [Spec] {
    static SPECS: OnceLock<Vec<Spec>> = OnceLock::new();
    SPECS.get_or_init(
        || match spec::syntax::parse_mod_type(BUILTIN_FILE, BUILTIN_SIGNATURE) {
            Ok(ModTypeExp::Signature { specs, .. }) => specs,
            _ => Vec::new(),
        },
    )
}

/// The environment every program starts in: the built-in functions.
pub(crate) fn initial_env(checker: &mut Checker<'_>) -> Env {
    let mut env = Env::default();
    // The signature is a constant of this crate, tested below to parse and
    // elaborate; were it ever broken, programs would see no built-ins rather
    // than a panic.
    for spec in builtin_specs() {
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
        env = env.with_value(
            bound_name(name).to_string(),
            ValueBinding::Polymorphic {
                scheme: Rc::new(scheme),
                defined_at: None,
            },
        );
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_elaborates() {
        let specs = match spec::syntax::parse_mod_type(BUILTIN_FILE, BUILTIN_SIGNATURE) {
            Ok(ModTypeExp::Signature { specs, .. }) => specs,
            other => panic!("the built-in signature does not parse: {other:?}"),
        };
        let mut checker = Checker::new(None);
        let env = initial_env(&mut checker);
        for spec in specs {
            if let Spec::Val { name, .. } = spec {
                assert!(
                    env.values.contains_key(bound_name(&name)),
                    "built-in `{name}` is missing"
                );
            }
        }
    }
}
