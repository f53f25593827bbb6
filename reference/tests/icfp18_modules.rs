//! ICFP'18 reference, data-driven: every valid program under `tests/modules/`
//! elaborates, interprets, and satisfies Proposition 6.1, with its environment
//! (Fig. 5 notation) and target code (Fig. 3b) pinned by insta snapshots; every
//! program under `tests/modules/errors/` is rejected by the rule and premise
//! named on its first line (`-- error: rule 29: ...`).

mod icfp18_common;

use icfp18_common::{check_file, check_text, programs};
use reference::derivation;
use reference::modules::print;

#[test]
fn valid_programs_elaborate_interpret_and_satisfy_proposition_6_1() {
    insta::glob!("../../tests/modules", "*.fut", |path| {
        let checked = check_file(path).unwrap_or_else(|failure| {
            panic!(
                "{} does not elaborate: {}",
                path.display(),
                failure.message()
            )
        });
        if let Err(failure) = &checked.verdict {
            panic!("{}: {failure}", path.display());
        }
        let shown = format!(
            "{}-- target --\n{}",
            print::program_env(&checked.bound, &checked.env),
            print::code(&checked.code())
        );
        insta::assert_snapshot!(shown);
    });
}

#[test]
fn figure_3_elaborates_to_figure_5_and_interprets_to_figure_3b() {
    let path = icfp18_common::workspace().join("tests/modules/fig3.fut");
    let checked = check_file(&path).expect("Fig. 3a elaborates");
    assert!(checked.verdict.is_ok(), "{:?}", checked.verdict);
    let env = print::program_env(&checked.bound, &checked.env);
    // Fig. 5: E_Prg with Σ_F, Σ_MT, M_f as in the paper.
    let m_f = "({}, {f ↦ i32 → i32}, {}, {})";
    let sigma_f = format!("∀∅.(({{}}, {{b ↦ i32}}, {{}}, {{}}), ∃∅.{m_f})");
    assert!(env.contains("VE = {main ↦ i32 → i32}"), "{env}");
    assert!(env.contains(&format!("Main ↦ {m_f}")), "{env}");
    assert!(
        env.contains(&format!("MT ↦ ∃∅.({{}}, {{}}, {{F ↦ {sigma_f}}}, {{}})")),
        "{env}"
    );
    assert!(
        env.contains(&format!(
            "H ↦ ∀∅.(({{}}, {{}}, {{F ↦ {sigma_f}}}, {{}}), ∃∅.{m_f})"
        )),
        "{env}"
    );
    // Fig. 3b up to label names: val b = 8; val f = λx → b + x; val main = λa → f a.
    let code = print::code(&checked.code());
    let lines: Vec<&str> = code.lines().collect();
    assert_eq!(lines.len(), 3, "{code}");
    assert!(
        lines[0].starts_with("val b_") && lines[0].ends_with(" = 8"),
        "{code}"
    );
    assert!(
        lines[1].starts_with("val f_")
            && lines[1].contains("λ(x_")
            && lines[1].contains("b_")
            && lines[1].contains(" + x_"),
        "{code}"
    );
    assert!(
        lines[2].starts_with("val main_") && lines[2].contains("λ(a_") && lines[2].contains("→ f_"),
        "{code}"
    );
}

#[test]
fn negative_programs_fail_with_the_named_rule_and_premise() {
    let files = programs("tests/modules/errors");
    assert!(files.len() >= 40, "only {} negative programs", files.len());
    let mut wrong = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let expected = text
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("-- error: "))
            .unwrap_or_else(|| panic!("{} lacks its `-- error:` line", path.display()))
            .trim()
            .to_string();
        match check_file(path) {
            Ok(_) => wrong.push(format!(
                "{}: elaborated, expected `{expected}`",
                path.display()
            )),
            Err(failure) if failure.message().contains(&expected) => {}
            Err(failure) => wrong.push(format!(
                "{}: expected `{expected}`, got `{}`",
                path.display(),
                failure.message()
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_rule_side_condition_family_has_a_negative_program() {
    let files = programs("tests/modules/errors");
    let firsts: Vec<String> = files
        .iter()
        .map(|path| {
            std::fs::read_to_string(path)
                .expect("readable")
                .lines()
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    for rule in [16, 18, 23, 28, 29, 36, 37] {
        let tag = format!("rule {rule}:");
        let named = firsts.iter().filter(|line| line.contains(&tag)).count();
        // Rules 18, 28 and 36 also fail through their premises (other rules).
        assert!(
            named >= 1 || [36].contains(&rule),
            "no negative program names {tag}"
        );
    }
}

#[test]
fn a_failed_elaboration_is_a_located_diagnostic() {
    let text = "module F (X: {val b: i32}) = {}\nmodule M = F({def a = 1})\n";
    let failure = check_text("inline.fut", text).err().expect("rejected");
    assert_eq!(failure.rule, "rule 29");
    assert_eq!(
        failure.message(),
        "rule 29: argument does not match the parameter module type: missing val b"
    );
    let diagnostic = failure.to_diagnostic();
    assert_eq!(diagnostic.code.as_deref(), Some("rule 29"));
    assert!(diagnostic.primary_span().is_some_and(|span| span.start > 0));
}

#[test]
fn the_trace_records_the_rules_of_the_derivation() {
    let path = icfp18_common::workspace().join("tests/modules/fig3.fut");
    let (result, derivation) = derivation::record(|| check_file(&path));
    assert!(result.is_ok());
    let rendered = derivation.to_text();
    for rule in [
        "ICFP18 rule 18",
        "ICFP18 rule 28",
        "ICFP18 rule 29",
        "ICFP18 rule 58",
        "ICFP18 rule 70",
    ] {
        assert!(rendered.contains(rule), "{rule} missing from the trace");
    }
    assert!(
        derivation.roots.iter().any(|root| root.height() > 3),
        "the trace is nested"
    );
}

#[test]
fn deeply_nested_modules_do_not_overflow_the_stack() {
    let depth = 300;
    let mut text = String::new();
    for _ in 0..depth {
        text.push_str("module M = {\n");
    }
    text.push_str("def x = 1\n");
    for _ in 0..depth {
        text.push_str("}\n");
    }
    let checked = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || check_text("deep.fut", &text).map(|checked| checked.verdict.is_ok()))
        .expect("thread")
        .join()
        .expect("no stack overflow");
    assert_eq!(checked.ok(), Some(true));
}

#[test]
fn proposition_6_1_check_catches_ill_typed_target_code_and_wrong_environments() {
    use reference::modules::paper_core::TargetExp;
    use reference::modules::target::Code;
    let path = icfp18_common::workspace().join("tests/modules/fig3.fut");
    let checked = check_file(&path).expect("elaborates");
    assert!(reference::modules::recheck(&checked).is_ok());
    // Replace `val b = 8` by `val b = 8 8`: Γ ⊢ c : Γ' must fail.
    let mut broken = check_file(&path).expect("elaborates");
    let target = broken.interpretation.as_mut().expect("interpreted");
    let statements: Vec<_> = target
        .code
        .statements()
        .into_iter()
        .map(|(label, exp)| (label.clone(), exp.clone()))
        .collect();
    let mut code = Code::Empty;
    for (index, (label, exp)) in statements.into_iter().enumerate() {
        let exp = if index == 0 {
            TargetExp::Apply(Box::new(exp.clone()), Box::new(exp))
        } else {
            exp
        };
        code = Code::seq(code, Code::Val(label, exp));
    }
    target.code = code;
    let verdict = reference::modules::recheck(&broken).unwrap_err();
    assert!(verdict.contains("Γ ⊢ c : Γ' fails"), "{verdict}");
    // Claim main : i32 in E': the erasure no longer matches.
    let mut wrong_env = check_file(&path).expect("elaborates");
    wrong_env.env.ve.insert(
        "main".to_string(),
        reference::modules::paper_core::i32_type(),
    );
    let verdict = reference::modules::recheck(&wrong_env).unwrap_err();
    assert!(verdict.contains("erasure"), "{verdict}");
}
