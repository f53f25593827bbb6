//! The printer/parser contract as a property: for every generated syntax tree
//! `t` (all variants of every syntactic class, `syntax_gen`),
//! `parse(print(t)) == t`, for whole programs and for each class on its own.
//! Programs run 10 000 cases; each single class 2 000.

mod syntax_gen;

use proptest::prelude::*;
use spec::source::FileId;
use spec::syntax::printer::{
    print_expr, print_mod_exp, print_mod_type, print_pat, print_program, print_type,
};
use spec::syntax::{
    parse_expr, parse_mod_exp, parse_mod_type, parse_pat, parse_program, parse_type,
};
use syntax_gen::GenConfig;

/// Parses `printed` with `parse` and checks it gives `tree` back.
fn check_round_trip<T: PartialEq + std::fmt::Debug>(
    tree: &T,
    printed: &str,
    parse: fn(FileId, &str) -> Result<T, spec::diagnostic::Diagnostic>,
) -> Result<(), TestCaseError> {
    match parse(FileId(0), printed) {
        Ok(reparsed) => {
            prop_assert!(
                &reparsed == tree,
                "printed text parses to a different tree\n--- printed ---\n{printed}\n--- tree ---\n{tree:?}\n--- reparsed ---\n{reparsed:?}"
            );
            Ok(())
        }
        Err(d) => Err(TestCaseError::fail(format!(
            "printed text does not parse: {}\n--- printed ---\n{printed}",
            d.message
        ))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn programs_round_trip(program in syntax_gen::program()) {
        check_round_trip(&program, &print_program(&program), parse_program)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn expressions_round_trip(expr in syntax_gen::expr(GenConfig::default())) {
        check_round_trip(&expr, &print_expr(&expr), parse_expr)?;
    }

    #[test]
    fn types_round_trip(ty in syntax_gen::type_exp(GenConfig::default())) {
        check_round_trip(&ty, &print_type(&ty), parse_type)?;
    }

    #[test]
    fn patterns_round_trip(pat in syntax_gen::pat(GenConfig::default())) {
        check_round_trip(&pat, &print_pat(&pat), parse_pat)?;
    }

    #[test]
    fn module_types_round_trip(mt in syntax_gen::mod_type_exp(GenConfig::default())) {
        check_round_trip(&mt, &print_mod_type(&mt), parse_mod_type)?;
    }

    #[test]
    fn module_expressions_round_trip(me in syntax_gen::mod_exp(GenConfig::default())) {
        check_round_trip(&me, &print_mod_exp(&me), parse_mod_exp)?;
    }
}
