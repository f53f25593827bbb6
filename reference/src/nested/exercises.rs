//! The programs the rule-coverage tidy test (`reference/tests/rules_tidy.rs`)
//! runs: the thesis examples it reads (`tests/nested/*.lp`, given to
//! [`run_all`]) and the coverage exercises below, which use each primitive at
//! every association (`Unit_`, `Int_`, `Bool_`, `×_`, `+_`, `⇒_`, `τ^↑`, μ)
//! so that every transcribed clause of App. B/C runs at least once. Each
//! exercise is checked like an example: both sides must agree ([`run_all`]
//! returns every disagreement).

use super::constants::{Const, Prim};
use super::flat_types::{equivalent, TypeA};
use super::flatten::vectorise;
use super::lambda_a::{ExprA, TermA};
use super::lambda_c::{ExprC, TermC};
use super::machine::{ByNeed, Evaluator, Stop};
use super::observation::Observation;
use super::pipeline::{run_file, Options, Report};
use super::reduce_a::LambdaA;
use super::theorems::{
    flattening_is_correct, flattening_is_type_correct, observe_a, observe_c, Outcome,
};
use super::types::Type;
use super::typing_a::check_program;
use super::typing_c;
use spec::source::SourceMap;
use std::rc::Rc;

/// `(name, program, expected observation)`: none beyond the files yet; the
/// λC and λA terms no λP program produces are built in [`constructed_terms`].
pub const EXERCISES: &[(&str, &str, &str)] = &[];

fn add_one_code() -> ExprC {
    ExprC::lam(
        Type::prod(Type::Unit, Type::Int),
        ExprC::app(
            ExprC::constant(Const {
                prim: Prim::Add,
                type_args: Vec::new(),
            }),
            ExprC::tuple(ExprC::proj(ExprC::bullet(), 2), ExprC::int(1)),
        ),
    )
}

/// A closed λC term checked end to end: typed, flattened, both sides observe
/// `expected`.
fn check_lambda_c(name: &str, e: &ExprC, expected: &Observation, failures: &mut Vec<String>) {
    let annotated = match typing_c::check_program(e) {
        Ok(annotated) => annotated,
        Err(error) => return failures.push(format!("{name}: {error}")),
    };
    let ty = annotated.ty().clone();
    let flattened = vectorise(&annotated);
    if let super::theorems::Verdict::Violated(why) = flattening_is_type_correct(&flattened, &ty) {
        failures.push(format!("{name}: {why}"));
    }
    let (c, _) = observe_c(&annotated, &ty, 10_000);
    let (a, _) = observe_a(&flattened, &ty, 100_000);
    if c != Outcome::Observed(expected.clone()) {
        failures.push(format!("{name}: λC gives {c}, expected {expected}"));
    }
    if let super::theorems::Verdict::Violated(why) = flattening_is_correct(&c, &a) {
        failures.push(format!("{name}: {why}"));
    }
}

/// λC and λA terms that closure conversion and flattening never produce but
/// the semantics must handle: congruences in function position and in closure
/// code, hand-built closures, literals, η, and the ⊥ cases of function arrays.
pub fn constructed_terms() -> Vec<String> {
    let mut failures = Vec::new();
    // (⟨λ•:Int.•, 0⟩.1) 5: λC/λA App-Cong.
    let identity = ExprC::lam(Type::Int, ExprC::bullet());
    let projected = ExprC::proj(ExprC::tuple(identity, ExprC::int(0)), 1);
    check_lambda_c(
        "app-congruence",
        &ExprC::app(projected, ExprC::int(5)),
        &Observation::Int(5),
        &mut failures,
    );
    // ⟨⟨⟨code, 0⟩.1, ⟨⟩, Int, Int, ⟨⟩⟩⟩ † 41: closure code to WHNF.
    let code = ExprC::proj(ExprC::tuple(add_one_code(), ExprC::int(0)), 1);
    let closure = ExprC::new(TermC::Closure(
        code,
        Type::Unit,
        Type::Int,
        Type::Int,
        ExprC::unit(),
    ));
    check_lambda_c(
        "closure-code-congruence",
        &ExprC::clo_app(closure, ExprC::int(41)),
        &Observation::Int(42),
        &mut failures,
    );
    // A λA closure whose two code halves are not yet values.
    match typing_c::check_program(&add_one_code()) {
        Ok(annotated) => {
            let pair = vectorise(&annotated);
            if let TermA::Tuple(vectorised, lifted) = pair.term() {
                let delay = |e: &ExprA| ExprA::proj(ExprA::tuple(e.clone(), ExprA::int(0)), 1);
                let closure = ExprA::new(TermA::Closure(
                    ExprA::tuple(delay(vectorised), delay(lifted)),
                    Rc::new([Type::Unit, Type::Int, Type::Int]),
                    ExprA::unit(),
                ));
                let applied = ExprA::new(TermA::CloApp(closure, ExprA::int(41)));
                if let Err(error) = check_program(&applied) {
                    failures.push(format!("λA closure congruences: {error}"));
                }
                let mut evaluator = ByNeed::<LambdaA>::new(10_000);
                match evaluator.whnf(&applied).map(|v| v.term().clone()) {
                    Ok(TermA::Int(42)) => {}
                    other => failures.push(format!("λA closure congruences gave {other:?}")),
                }
            }
        }
        Err(error) => failures.push(format!("add-one code: {error}")),
    }
    // Unboxed literals (ARRINT, ARRBOOL).
    for (literal, expected) in [
        (ExprA::arr_int(vec![1, 2]), TypeA::ArrInt),
        (ExprA::arr_bool(vec![true]), TypeA::ArrBool),
    ] {
        match check_program(&literal) {
            Ok(found) if equivalent(&found, &expected) => {}
            other => failures.push(format!("literal {literal}: {other:?}")),
        }
    }
    // η: α ≡ ⟨α.1, α.2⟩.
    let alpha = TypeA::Var("a".into());
    if !equivalent(
        &alpha,
        &TypeA::tuple(alpha.clone().proj(1), alpha.clone().proj(2)),
    ) {
        failures.push("η-equivalence of a type variable fails".into());
    }
    // Function arrays can be neither concatenated nor combined (App. C).
    let function = Type::fun(Type::Int, Type::Int);
    let empty = || ExprA::prim(Prim::NilP, std::slice::from_ref(&function), ExprA::unit());
    let concatenated = ExprA::prim(
        Prim::ConcatP,
        std::slice::from_ref(&function),
        ExprA::tuple(empty(), empty()),
    );
    let combined = ExprA::prim(
        Prim::CombineP,
        std::slice::from_ref(&function),
        ExprA::tuple(
            ExprA::prim(Prim::NilP, &[Type::Bool], ExprA::unit()),
            ExprA::tuple(empty(), empty()),
        ),
    );
    for (name, term) in [("concatP", concatenated), ("combineP", combined)] {
        let mut evaluator = ByNeed::<LambdaA>::new(10_000);
        match evaluator.whnf(&term) {
            Err(Stop::Bottom(_)) => {}
            other => failures.push(format!("{name} of function arrays gave {other:?}")),
        }
    }
    failures
}

fn quick_options() -> Options {
    Options {
        fuel: 200_000,
        lambda_a_fuel_factor: 20,
        subject_reduction_steps: 15,
        small_step_fuel: 3_000,
        refocusing_checked_steps: 3_000,
        subject_reduction_size_limit: 2_500,
        trace_steps: 4,
    }
}

/// Runs one program through the pipeline.
pub fn run_program(name: &str, text: &str) -> Result<Report, String> {
    let mut sources = SourceMap::new();
    let file = sources.add(name, text);
    run_file(file, name, text, &quick_options()).map_err(|rejection| format!("{rejection:?}"))
}

/// Every program of `programs` (`(name, text)`: the caller reads them, e.g.
/// the thesis examples of `tests/nested`) and every exercise; returns
/// failures.
pub fn run_all(mut programs: Vec<(String, String)>) -> Vec<String> {
    let mut failures = Vec::new();
    for (name, text, _) in EXERCISES {
        programs.push((name.to_string(), text.to_string()));
    }
    failures.extend(constructed_terms());
    for (name, text) in programs {
        match run_program(&name, &text) {
            Ok(report) => {
                for violation in report.violations() {
                    failures.push(format!(
                        "{name}: {} {:?}",
                        violation.name, violation.verdict
                    ));
                }
            }
            Err(rejection) => failures.push(format!("{name}: {rejection}")),
        }
    }
    failures
}
