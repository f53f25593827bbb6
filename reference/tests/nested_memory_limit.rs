//! Bad input never aborts the nested evaluators: a λP term asking for an
//! array past the memory limit stops its λC or λA evaluation with
//! `Stop::MemoryLimit` (an unknown outcome) before anything of that size is
//! allocated, and the pipeline reports the observation as unknown rather
//! than ⊥. The programs are `tests/nested_limits/*.lp` (found by hand:
//! both aborted `runestone nested` with a failed allocation).

use reference::nested::closure_conversion::convert_program;
use reference::nested::flatten::vectorise;
use reference::nested::lambda_c::ExprC;
use reference::nested::machine::{
    set_memory_limit, with_large_stack, ByNeed, Calculus, Evaluator, Stop,
};
use reference::nested::pipeline::{front_end, run_file, Options};
use reference::nested::reduce_a::LambdaA;
use reference::nested::reduce_c::LambdaC;
use reference::nested::theorems::Outcome;
use reference::nested::typing_c;
use spec::memory::MemoryLimit;
use spec::source::SourceMap;

const REPLICATE: &str =
    include_str!("../../tests/nested_limits/replicate_past_the_memory_limit.lp");
const TAKE: &str = include_str!("../../tests/nested_limits/take_past_the_memory_limit.lp");

/// A λP program, closure-converted and annotated.
fn lambda_c(text: &'static str) -> ExprC {
    let mut sources = SourceMap::new();
    let file = sources.add("limit.lp", text);
    let program = front_end(file, text).expect("a well-typed λP program");
    typing_c::check_program(&convert_program(&program)).expect("well-typed λC")
}

/// Builds a term and evaluates it to WHNF in calculus `C` under a 1 GiB
/// limit: the value printed, or where evaluation stopped.
fn whnf_under_a_small_limit<C: Calculus>(
    term: impl FnOnce() -> C::Term + Send + 'static,
) -> Result<String, Stop>
where
    C::Term: std::fmt::Display,
{
    set_memory_limit(MemoryLimit::from_bytes(1 << 30));
    with_large_stack(move || {
        ByNeed::<C>::new(1_000_000)
            .whnf(&term())
            .map(|value| value.to_string())
    })
}

/// The λA kernel `repP` at `Int` is refused before it allocates 80 GB.
#[test]
fn a_replicate_past_the_limit_stops_lambda_a_with_the_memory_limit() {
    let outcome = whnf_under_a_small_limit::<LambdaA>(|| vectorise(&lambda_c(REPLICATE)));
    assert!(
        matches!(outcome, Err(Stop::MemoryLimit(_))),
        "λA gave {outcome:?}"
    );
}

/// λC's `takeP` tabulates its result: three billion elements are refused.
#[test]
fn a_take_past_the_limit_stops_lambda_c_with_the_memory_limit() {
    let outcome = whnf_under_a_small_limit::<LambdaC>(|| lambda_c(TAKE));
    assert!(
        matches!(outcome, Err(Stop::MemoryLimit(_))),
        "λC gave {outcome:?}"
    );
}

/// The whole pipeline: λC observes the element (it never tabulates the
/// replicate), λA's observation is unknown, and no check is violated.
#[test]
fn the_pipeline_reports_the_limit_as_unknown_not_as_bottom() {
    set_memory_limit(MemoryLimit::from_bytes(1 << 30));
    let text = REPLICATE;
    let report = with_large_stack(move || {
        let mut sources = SourceMap::new();
        let file = sources.add("limit.lp", text);
        let options = Options {
            subject_reduction_steps: 0,
            small_step_fuel: 0,
            ..Options::default()
        };
        run_file(file, "limit.lp", text, &options).map_err(|_| "rejected")
    })
    .expect("the program is accepted");
    assert!(
        matches!(&report.outcome_c, Outcome::Observed(o) if o.to_string() == "1"),
        "λC gave {}",
        report.outcome_c
    );
    assert!(
        matches!(report.outcome_a, Outcome::Unknown(_)),
        "λA gave {}",
        report.outcome_a
    );
    let violations: Vec<_> = report.violations().map(|c| c.name).collect();
    assert!(violations.is_empty(), "violated: {violations:?}");
}
