//! The mutants of premise ablation's TFP'18 campaign (`fuzz::ablation`):
//! ill-typed mutants of the surface program through the reference pipeline
//! ([`examine_defunc_mutant`]), and mutants of its core that the front
//! end's type inference never sees ([`examine_core_mutant`]), each judged
//! by TFP'18 Theorems 1–2 and Corollary 1 where the reference accepts it.

use super::{
    check_name, guarded, load_reference, run_reference, theorem_or_unsupported, Expected, Outcome,
};
use spec::diagnostic::codes;
use spec::source::SourceMap;

/// The check a mutant fails when the reference accepts it and runs it
/// without any theorem check failing: its verdict is wrong, and only the
/// generator's intent says so (premise ablation tells it from a theorem).
pub const REFERENCE_ACCEPTS_A_MUTANT: &str = "the reference accepts a mutant";

/// The defunc oracle on one ill-typed mutant (`runestone ablate --paper
/// tfp18`): a rejection agrees; a mutant the reference loads goes through
/// TFP'18 Theorems 1–2 and Corollary 1 as a well-typed program does, and if
/// none fails and the mutant must be rejected (`expected`),
/// [`REFERENCE_ACCEPTS_A_MUTANT`].
pub fn examine_defunc_mutant(
    source: &str,
    arguments: &[spec::value::Value],
    fuel: u64,
    expected: Expected,
) -> Outcome {
    guarded("panic in the reference pipeline", || {
        match load_reference(source, fuel, false) {
            Ok(program) => match run_reference(program.as_ref(), arguments) {
                Outcome::Agree { .. } | Outcome::Discard(_) if expected == Expected::Reject => {
                    Outcome::Disagree {
                        check: REFERENCE_ACCEPTS_A_MUTANT.into(),
                        message: "a program with one premise broken loads and runs".into(),
                    }
                }
                theorem => theorem,
            },
            // A rejection agrees.
            Err(error) => theorem_or_unsupported(error).unwrap_or(Outcome::Agree { valid: false }),
        }
    })
}

/// The defunc oracle on a core mutant of a well-typed module-free program
/// (premise ablation's TFP'18 campaign): the program is elaborated to the
/// core, and expression `site` (modulo the number of the program's own
/// expressions, in pre-order) is replaced by a literal of another type —
/// `true`, or `0i32` where the expression is a `bool` literal or a
/// comparison. The front end's type inference, which rejects a mistyped
/// surface program before the TFP'18 typing judgment sees it, is not in
/// the way. A rejection agrees; a mutant the reference compiles goes
/// through Theorems 1–2 and Corollary 1. Its acceptance is no finding: a
/// replaced expression need not make the program ill typed (`let n = dim0
/// xs` with `n` unused takes `true` as well), so only the theorems judge.
pub fn examine_core_mutant(
    source: &str,
    arguments: &[spec::value::Value],
    site: u64,
    fuel: u64,
) -> Outcome {
    guarded("panic in the reference pipeline", || {
        use reference::core::syntax::{map_children, Expr, ExprKind, PrimValue};
        use reference::front::pipeline::{compile_core_trusting, Options};
        let mut sources = SourceMap::new();
        let file = sources.add("generated.fut", source);
        let prelude_file = sources.add(
            "<prelude>/toplevel.fut",
            reference::front::from_surface::PRELUDE,
        );
        let Ok(ast) = spec::syntax::parse_program(file, source) else {
            return Outcome::Discard("core mutant: the program does not parse".into());
        };
        let Ok(prelude) = reference::front::from_surface::parse_prelude(prelude_file) else {
            return Outcome::Discard("core mutant: the prelude does not parse".into());
        };
        let Ok(mut core) = reference::front::from_surface::elaborate(&ast, Some(&prelude)) else {
            return Outcome::Discard(
                "core mutant: a module program or one the front end rejects".into(),
            );
        };
        // The program's own expression number `at` in pre-order (counting
        // down) replaced; a pass that reaches none counts them.
        fn replace(e: &Expr, file: spec::source::FileId, at: &mut u64) -> Expr {
            if e.span.file == file {
                if *at == 0 {
                    *at = u64::MAX;
                    let was_bool = matches!(e.kind, ExprKind::Literal(PrimValue::Bool(_)))
                        || matches!(&e.kind, ExprKind::BinOp { op, .. } if op.is_comparison());
                    let literal = if was_bool {
                        PrimValue::I32(0)
                    } else {
                        PrimValue::Bool(true)
                    };
                    return Expr::new(ExprKind::Literal(literal), e.span);
                }
                *at = at.wrapping_sub(1);
            }
            map_children(e, &mut |c| replace(c, file, at))
        }
        let mut unreached = u64::MAX;
        for dec in &core.decs {
            replace(&dec.value, file, &mut unreached);
        }
        let sites = u64::MAX - unreached;
        if sites == 0 {
            return Outcome::Discard("core mutant: no expression to mutate".into());
        }
        let position = site % sites;
        let mut at = position;
        for dec in &mut core.decs {
            dec.value = replace(&dec.value, file, &mut at);
        }

        let options = Options {
            fuel,
            ..Options::default()
        };
        let compiled = match spec::recursion::with_stack(|| {
            compile_core_trusting(core, options, &[prelude_file])
        }) {
            Ok(compiled) => compiled,
            Err(d) if d.has_code(codes::TFP18_THEOREM_1) => {
                return Outcome::Disagree {
                    check: "Theorem 1".into(),
                    message: format!(
                        "{} (core expression {position} of {sites} replaced)",
                        d.message
                    ),
                }
            }
            Err(_) => return Outcome::Agree { valid: false },
        };
        match compiled.run("main", arguments) {
            Err(reference::core::theorems::RunError::Violation(message)) => Outcome::Disagree {
                check: check_name(&message),
                message: format!("{message} (core expression {position} of {sites} replaced)"),
            },
            Err(reference::core::theorems::RunError::OutOfFuel) => {
                Outcome::Discard("out of fuel".into())
            }
            _ => Outcome::Agree { valid: true },
        }
    })
}

/// The program kind of the core mutants ([`examine_core_mutant`]).
pub const CORE_MUTANT: &str = "core mutant (one expression replaced by a literal of another type)";

/// Which expression item `index`'s core mutant replaces (before the modulo
/// by the program's number of expressions).
pub(super) fn core_mutant_site(index: u64) -> u64 {
    index.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 33
}
