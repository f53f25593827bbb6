//! The nested campaign: generate closed well-typed λP terms, push each through
//! closure conversion and flattening, and check Theorem 5.27, Theorem 6.37,
//! Lemma 6.3 / Theorem 6.8 and the agreement of the two evaluators on it
//! (`reference::nested::pipeline`). Violations are shrunk (proptest's value
//! tree over the choice sequence) and returned as ready-to-commit `.lp` test
//! programs. Rule coverage is recorded per term and summed.
//!
//! Reproducibility: term `i` of seed `s` is generated from a ChaCha RNG seeded
//! with `(s, i)` alone, so a campaign's terms do not depend on `--jobs`.

use super::generate::{choice_sequences, decode_term};
use super::generate_c::decode_term_c;
use crate::campaign::{run_pool, Limits};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, TestRng, TestRunner};
use reference::coverage::{record, RuleCounts};
use reference::nested::pipeline::{run_checked, run_lambda_c, Options, Report};
use reference::nested::theorems::{Outcome, Verdict};
use reference::nested::{typing_c, typing_p};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::Duration;

/// What to run.
#[derive(Clone, Debug)]
pub struct CampaignConfig {
    pub seed: u64,
    /// Stop after this many terms…
    pub count: Option<u64>,
    /// …or after this long.
    pub time: Option<Duration>,
    pub jobs: usize,
    /// Length bound of the choice sequences.
    pub choice_length: usize,
    /// Size budget of generated terms.
    pub term_budget: usize,
    /// Evaluation options per term.
    pub options: Options,
}

impl Default for CampaignConfig {
    fn default() -> Self {
        CampaignConfig {
            seed: 0,
            count: Some(100),
            time: None,
            jobs: 1,
            choice_length: 64,
            term_budget: 24,
            options: Options {
                fuel: 50_000,
                lambda_a_fuel_factor: 20,
                subject_reduction_steps: 12,
                small_step_fuel: 100_000,
                refocusing_checked_steps: 1_000,
                subject_reduction_size_limit: 50_000,
                trace_steps: 4,
            },
        }
    }
}

/// A shrunk violation, with the test program that exhibits it (`.lp` for λP
/// terms, `.lc` for λC terms).
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub index: u64,
    pub language: Language,
    pub check: String,
    pub message: String,
    /// A `.lp` file: comments naming the check, the program, an `-- expect:`
    /// line with the λC observation.
    pub program: String,
}

/// Running totals.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub terms: u64,
    /// Terms some check could not decide (fuel exhausted) or the generator
    /// produced ill-typed (a generator defect, also counted in `ill_typed`).
    pub discards: u64,
    pub ill_typed: u64,
    pub violations: u64,
    pub elapsed: Duration,
}

/// The end of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub progress: Progress,
    /// Terms still being examined when the time (and its grace period) ran
    /// out: not counted in `progress`.
    pub abandoned: u64,
    /// Per check: (holds, unknown, violated).
    pub verdicts: BTreeMap<String, (u64, u64, u64)>,
    pub coverage: RuleCounts,
    pub counterexamples: Vec<Counterexample>,
}

enum Message {
    Done {
        report: Option<Report>,
        coverage: RuleCounts,
        counterexample: Option<Counterexample>,
    },
}

fn rng_for(seed: u64, index: u64) -> TestRng {
    crate::campaign::rng_for(seed, index, b"nested!!")
}

/// Which calculus a term is generated in: even-numbered terms are λP
/// programs (closure-converted), odd-numbered ones λC terms generated directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    P,
    C,
}

pub fn language_of(index: u64) -> Language {
    if index % 2 == 0 {
        Language::P
    } else {
        Language::C
    }
}

/// Runs the checks on one choice sequence.
pub fn examine(data: &[u32], config: &CampaignConfig, language: Language) -> Option<Report> {
    match language {
        Language::P => {
            let term = decode_term(data, config.term_budget);
            let checked = typing_p::check_program(&term).ok()?;
            run_checked(&checked, &config.options).ok()
        }
        Language::C => {
            let term = decode_term_c(data, config.term_budget);
            let annotated = typing_c::check_program(&term).ok()?;
            Some(run_lambda_c(&annotated, &config.options))
        }
    }
}

fn first_violation(report: &Report) -> Option<(String, String)> {
    report.checks.iter().find_map(|c| match &c.verdict {
        Verdict::Violated(why) => Some((c.name.to_string(), why.clone())),
        _ => None,
    })
}

/// Shrinks a violating choice sequence (same check must stay violated).
fn shrink(
    tree: &mut impl ValueTree<Value = Vec<u32>>,
    check: &str,
    config: &CampaignConfig,
    language: Language,
) -> (Vec<u32>, String) {
    shrink_while(tree, |data| {
        let report = examine(data, config, language)?;
        let (name, why) = first_violation(&report)?;
        (name == check).then_some(why)
    })
}

/// [`crate::campaign::shrink_while`] on choice sequences.
pub fn shrink_while(
    tree: &mut impl ValueTree<Value = Vec<u32>>,
    fails: impl Fn(&[u32]) -> Option<String>,
) -> (Vec<u32>, String) {
    crate::campaign::shrink_while(tree, |data: &Vec<u32>| fails(data))
}

fn counterexample_program(
    index: u64,
    check: &str,
    message: &str,
    data: &[u32],
    config: &CampaignConfig,
    language: Language,
) -> String {
    if language == Language::C {
        let term = decode_term_c(data, config.term_budget);
        let expect = typing_c::check_program(&term)
            .ok()
            .and_then(
                |annotated| match run_lambda_c(&annotated, &config.options).outcome_c {
                    Outcome::Observed(o) => Some(o.to_string()),
                    _ => None,
                },
            )
            .unwrap_or_else(|| "(λC gave no observation)".into());
        return format!(
            "-- Counterexample found by `runestone fuzz --oracle nested --seed {}` (term {index}, λC).\n\
             -- Check: {check}\n-- {}\n-- expect: {expect}\n{term}\n",
            config.seed,
            message.replace('\n', " "),
        );
    }
    let term = decode_term(data, config.term_budget);
    let (printed, expect) = match typing_p::check_program(&term) {
        Ok(checked) => {
            let expect = run_checked(&checked, &config.options)
                .ok()
                .and_then(|report| match report.outcome_c {
                    Outcome::Observed(o) => Some(o.to_string()),
                    _ => None,
                })
                .unwrap_or_else(|| "(λC gave no observation)".into());
            (checked.to_string(), expect)
        }
        Err(_) => (term.to_string(), "(ill-typed)".into()),
    };
    format!(
        "-- Counterexample found by `runestone fuzz --oracle nested --seed {}` (term {index}).\n\
         -- Check: {check}\n-- {}\n-- expect: {expect}\n{printed}\n",
        config.seed,
        message.replace('\n', " ")
    )
}

fn run_one(index: u64, config: &CampaignConfig) -> Message {
    let mut runner = TestRunner::new_with_rng(Config::default(), rng_for(config.seed, index));
    let strategy = choice_sequences(config.choice_length);
    let Ok(mut tree) = strategy.new_tree(&mut runner) else {
        return Message::Done {
            report: None,
            coverage: RuleCounts::new(),
            counterexample: None,
        };
    };
    let data = tree.current();
    let language = language_of(index);
    let (report, coverage) = record(|| examine(&data, config, language));
    let counterexample = report.as_ref().and_then(first_violation).map(|(check, _)| {
        let (shrunk, message) = shrink(&mut tree, &check, config, language);
        Counterexample {
            index,
            language,
            program: counterexample_program(index, &check, &message, &shrunk, config, language),
            check,
            message,
        }
    });
    Message::Done {
        report,
        coverage,
        counterexample,
    }
}

/// Runs a campaign, calling `on_progress` every `interval`.
pub fn run_campaign(
    config: &CampaignConfig,
    interval: Duration,
    mut on_progress: impl FnMut(&Progress),
) -> Summary {
    let limits = Limits {
        start: 0,
        count: config.count,
        time: config.time,
        jobs: config.jobs,
        grace_after_time: crate::campaign::GRACE_AFTER_TIME,
    };
    let summary = RefCell::new(Summary::default());
    let worker_config = config.clone();
    let end = run_pool(
        limits,
        interval,
        move |index| run_one(index, &worker_config),
        |message| fold(&mut summary.borrow_mut(), message),
        |elapsed| {
            let mut summary = summary.borrow_mut();
            summary.progress.elapsed = elapsed;
            on_progress(&summary.progress);
        },
    );
    let mut summary = summary.into_inner();
    summary.progress.elapsed = end.elapsed;
    summary.abandoned = end.abandoned;
    summary
}

fn fold(summary: &mut Summary, message: Message) {
    let Message::Done {
        report,
        coverage,
        counterexample,
    } = message;
    summary.progress.terms += 1;
    for (rule, n) in coverage {
        *summary.coverage.entry(rule).or_insert(0) += n;
    }
    match report {
        None => {
            summary.progress.discards += 1;
            summary.progress.ill_typed += 1;
        }
        Some(report) => {
            let mut unknown = false;
            for check in &report.checks {
                let entry = summary.verdicts.entry(check.name.to_string()).or_default();
                match check.verdict {
                    Verdict::Holds => entry.0 += 1,
                    Verdict::Unknown(_) => {
                        entry.1 += 1;
                        if check.name.starts_with("Thm 6.37") {
                            unknown = true;
                        }
                    }
                    Verdict::Violated(_) => entry.2 += 1,
                }
            }
            if unknown {
                summary.progress.discards += 1;
            }
        }
    }
    if let Some(counterexample) = counterexample {
        summary.progress.violations += 1;
        summary.counterexamples.push(counterexample);
    }
}
