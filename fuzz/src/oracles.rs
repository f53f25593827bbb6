//! Differential oracles on generated module-free programs (issue 6, items 2
//! and 3), run by the shared campaign machinery ([`crate::campaign`]):
//!
//! - [`OracleKind::Verdict`]: even items are well-typed programs, odd items
//!   ill-typed mutants ([`crate::gen::mutate`]); the reference
//!   (`reference::core::from_surface` + `core::typing`) and the optimising
//!   front end (`optimized::typecheck`) must give the same accept/reject
//!   verdict, and a well-typed program must be accepted by both.
//! - [`OracleKind::Defunc`]: well-typed programs through the reference
//!   pipeline (evaluate, defunctionalise both ways, evaluate again) on the
//!   generated arguments; the pipeline checks TFP'18 Theorems 1–2 and
//!   Corollary 1 itself. A violated check or a panic disagrees; running out
//!   of fuel is a discard.
//!
//! Every item ends as agree, disagree or discard (a discard always has a
//! reason, counted in the summary). Disagreements are shrunk through the
//! generator's choice sequence and written as `-- ==` test programs.

use crate::campaign::{run_pool, runner_for, shrink_while_steps, Limits};

/// Shrinking steps per counterexample (a program is checked in milliseconds).
const SHRINK_STEPS: usize = 4000;
use crate::gen::mutate::Mutant;
use crate::gen::shrink::{ill_typed_programs, well_typed_programs};
use crate::gen::{GenConfig, GeneratedProgram};
use proptest::strategy::{Strategy, ValueTree};
use reference::core::pipeline::{compile_with, Options, RunError};
use reference::coverage::{record, RuleCounts};
use spec::source::SourceMap;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// Which oracle a campaign runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OracleKind {
    Verdict,
    Defunc,
}

impl OracleKind {
    pub fn from_name(name: &str) -> Option<OracleKind> {
        match name {
            "verdict" => Some(OracleKind::Verdict),
            "defunc" => Some(OracleKind::Defunc),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OracleKind::Verdict => "verdict",
            OracleKind::Defunc => "defunc",
        }
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    pub kind: OracleKind,
    pub seed: u64,
    pub count: Option<u64>,
    pub time: Option<Duration>,
    pub jobs: usize,
    /// The generator's configuration (`modules` is forced off).
    pub gen: GenConfig,
    /// Step limit of each evaluation (defunc).
    pub fuel: u64,
    /// Disagreements already reported (not yet fixed): a disagreement whose
    /// check and message contain one of these pairs is counted as a discard
    /// with reason `known: …` instead. Empty by default (the CLI).
    pub known: Vec<KnownDisagreement>,
}

/// A disagreement already reported, recognised by its check and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownDisagreement {
    /// The program kind it occurs on (`well-typed`, `mutant: <premise>`).
    pub program_kind: &'static str,
    pub check: &'static str,
    pub message_contains: &'static str,
    /// Where it is recorded (for the discard reason).
    pub label: &'static str,
}

/// The disagreements found by the first campaigns (issue 6), open until the
/// implementations are fixed; the bounded campaigns in `fuzz/tests/` use this
/// list so they keep catching new ones.
pub const KNOWN_DISAGREEMENTS: &[KnownDisagreement] = &[KnownDisagreement {
    program_kind: "mutant: zip or map2 of arrays of different constant sizes",
    check: "reference accepts, optimized rejects",
    message_contains: "sizes do not match",
    label: "the reference accepts map2/zip of different constant sizes (fails at run time)",
}];

impl OracleConfig {
    pub fn new(kind: OracleKind, seed: u64) -> OracleConfig {
        OracleConfig {
            kind,
            seed,
            count: Some(100),
            time: None,
            jobs: 1,
            gen: GenConfig {
                modules: false,
                ..GenConfig::default()
            },
            fuel: 2_000_000,
            known: Vec::new(),
        }
    }

    fn gen(&self) -> GenConfig {
        GenConfig {
            modules: false,
            ..self.gen.clone()
        }
    }
}

/// How one program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Both sides agree; `valid`: the program was accepted (and, for
    /// defunc, ran to a value or a run-time error).
    Agree { valid: bool },
    /// Not decided, with the reason (counted per reason).
    Discard(String),
    /// The check that failed and why.
    Disagree { check: String, message: String },
}

/// A shrunk disagreement and its test program.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub index: u64,
    pub check: String,
    pub message: String,
    /// A ready-to-commit `.fut` test program with a `-- ==` block.
    pub program: String,
}

/// Running totals.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub programs: u64,
    pub valid: u64,
    pub discards: u64,
    pub disagreements: u64,
    pub elapsed: Duration,
}

/// The end of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub progress: Progress,
    /// Per kind of program (`well-typed`, `mutant: <premise>`): (agree,
    /// discard, disagree).
    pub kinds: BTreeMap<String, (u64, u64, u64)>,
    /// Discards by reason (an unsupported construct, out of fuel, …).
    pub discard_reasons: BTreeMap<String, u64>,
    pub coverage: RuleCounts,
    pub counterexamples: Vec<Counterexample>,
}

struct Message {
    kind: String,
    outcome: Outcome,
    coverage: RuleCounts,
    counterexample: Option<Counterexample>,
}

/// Accept, reject or "not supported" from one implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Accept,
    Reject(String),
    Unsupported(String),
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "panic".into())
}

/// `message` with every `quoted` part replaced by `…` (so that reasons
/// group).
fn unquoted(message: &str) -> String {
    message
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "…" } else { part })
        .collect::<Vec<_>>()
        .join("`")
}

/// The construct an "unsupported" message names.
fn construct(message: &str) -> String {
    let cut = ["is not supported", "are not supported", "needs the module"]
        .iter()
        .filter_map(|pattern| message.find(pattern))
        .min()
        .unwrap_or(message.len());
    message[..cut].trim().to_string()
}

fn reference_verdict(ast: &spec::syntax::ast::Program) -> Verdict {
    thread_local! {
        static PRELUDE: spec::syntax::ast::Program = {
            let mut sources = SourceMap::new();
            let file = sources.add("<prelude>/toplevel.fut", reference::core::from_surface::PRELUDE);
            reference::core::from_surface::parse_prelude(file).expect("the prelude parses")
        };
    }
    PRELUDE.with(
        |prelude| match reference::core::from_surface::elaborate(ast, Some(prelude)) {
            Err(d)
                if d.code.as_deref() == Some("modules") || d.message.contains("not supported") =>
            {
                Verdict::Unsupported(construct(&d.message))
            }
            Err(d) => Verdict::Reject(d.message),
            Ok(core) => match reference::core::typing::check_program(&core, false) {
                Ok(_) => Verdict::Accept,
                Err(e) => Verdict::Reject(format!("{}: {}", e.rule, e.message)),
            },
        },
    )
}

fn optimized_verdict(ast: &spec::syntax::ast::Program) -> Verdict {
    match optimized::typecheck::check_program(ast) {
        Ok(_) => Verdict::Accept,
        Err(diagnostics) => {
            if let Some(d) = diagnostics
                .iter()
                .find(|d| d.code.as_deref() == Some("unsupported"))
            {
                Verdict::Unsupported(construct(&d.message))
            } else {
                Verdict::Reject(
                    diagnostics
                        .first()
                        .map(|d| d.message.clone())
                        .unwrap_or_default(),
                )
            }
        }
    }
}

/// The verdict oracle on one program (`well_typed`: generated well typed).
pub fn examine_verdict(source: &str, well_typed: bool) -> Outcome {
    let mut sources = SourceMap::new();
    let file = sources.add("generated.fut", source);
    let ast = match spec::syntax::parse_program(file, source) {
        Ok(ast) => ast,
        Err(d) => {
            return Outcome::Disagree {
                check: "parse".into(),
                message: format!("a generated program does not parse: {}", d.message),
            }
        }
    };
    let reference = match catch_unwind(AssertUnwindSafe(|| reference_verdict(&ast))) {
        Ok(v) => v,
        Err(payload) => {
            return Outcome::Disagree {
                check: "panic in the reference".into(),
                message: panic_message(payload),
            }
        }
    };
    let optimized = match catch_unwind(AssertUnwindSafe(|| optimized_verdict(&ast))) {
        Ok(v) => v,
        Err(payload) => {
            return Outcome::Disagree {
                check: "panic in optimized".into(),
                message: panic_message(payload),
            }
        }
    };
    match (&reference, &optimized) {
        (Verdict::Unsupported(c), _) => {
            Outcome::Discard(format!("unsupported by the reference: {c}"))
        }
        (_, Verdict::Unsupported(c)) => Outcome::Discard(format!("unsupported by optimized: {c}")),
        (Verdict::Accept, Verdict::Accept) => Outcome::Agree { valid: true },
        (Verdict::Reject(r), Verdict::Reject(o)) if well_typed => Outcome::Disagree {
            check: "well-typed program rejected by both".into(),
            message: format!("reference: {r}; optimized: {o}"),
        },
        (Verdict::Reject(_), Verdict::Reject(_)) => Outcome::Agree { valid: false },
        (Verdict::Accept, Verdict::Reject(o)) => Outcome::Disagree {
            check: "reference accepts, optimized rejects".into(),
            message: o.clone(),
        },
        (Verdict::Reject(r), Verdict::Accept) => Outcome::Disagree {
            check: "optimized accepts, reference rejects".into(),
            message: r.clone(),
        },
    }
}

/// The check a violation message names (`Theorem 2 (f): …` → `Theorem 2`).
fn check_name(message: &str) -> String {
    let cut = message.find([':', '(']).unwrap_or(message.len());
    message[..cut].trim().to_string()
}

/// The defunc oracle on one well-typed program and its arguments.
pub fn examine_defunc(source: &str, arguments: &[spec::value::Value], fuel: u64) -> Outcome {
    let run = || {
        let mut sources = SourceMap::new();
        let file = sources.add("generated.fut", source);
        let options = Options {
            or_conditionals: false,
            fuel,
        };
        let compiled = match compile_with(&mut sources, file, options) {
            Ok(compiled) => compiled,
            Err(d)
                if d.code.as_deref() == Some("TFP18 Theorem 1")
                    || d.notes.iter().any(|n| n.contains("Theorem 1")) =>
            {
                return Outcome::Disagree {
                    check: "Theorem 1".into(),
                    message: d.message,
                }
            }
            Err(d)
                if d.code.as_deref() == Some("modules") || d.message.contains("not supported") =>
            {
                return Outcome::Discard(format!(
                    "unsupported by the reference: {}",
                    construct(&d.message)
                ))
            }
            Err(d) => {
                return Outcome::Discard(format!(
                    "the reference rejects it (see the verdict oracle): {}",
                    unquoted(&d.message)
                ))
            }
        };
        match compiled.run("main", arguments) {
            Ok(_) => Outcome::Agree { valid: true },
            Err(RunError::Runtime(_)) => Outcome::Agree { valid: true },
            Err(RunError::OutOfFuel) => Outcome::Discard("out of fuel".into()),
            Err(RunError::Input(m)) => Outcome::Disagree {
                check: "generated arguments do not fit".into(),
                message: m,
            },
            Err(RunError::Violation(m)) => Outcome::Disagree {
                check: check_name(&m),
                message: m,
            },
        }
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(outcome) => outcome,
        Err(payload) => Outcome::Disagree {
            check: "panic in the reference pipeline".into(),
            message: panic_message(payload),
        },
    }
}

fn values_line(values: &[spec::value::Value]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The expected block of a well-typed program: its input and, if the
/// reference runs it, the output.
fn expected_run(program: &GeneratedProgram, fuel: u64) -> String {
    let source = program.source();
    let input = values_line(&program.arguments);
    let output = catch_unwind(AssertUnwindSafe(|| {
        let mut sources = SourceMap::new();
        let file = sources.add("generated.fut", source.as_str());
        let compiled = compile_with(
            &mut sources,
            file,
            Options {
                or_conditionals: false,
                fuel,
            },
        )
        .ok()?;
        compiled.run("main", &program.arguments).ok()
    }))
    .ok()
    .flatten();
    match output {
        Some(values) => format!("-- input {{ {input} }} output {{ {} }}\n", values_line(&values)),
        None => format!(
            "-- input {{ {input} }}\n-- (output: the reference gives none; fill it in from Futhark)\n"
        ),
    }
}

fn header(config: &OracleConfig, index: u64, check: &str, message: &str) -> String {
    format!(
        "-- Counterexample found by `runestone fuzz --oracle {} --seed {}` (program {index}).\n\
         -- Check: {check}\n-- {}\n",
        config.kind.name(),
        config.seed,
        message.replace('\n', " ")
    )
}

/// A disagreement listed in `config.known` becomes a discard.
fn known(config: &OracleConfig, program_kind: &str, outcome: Outcome) -> Outcome {
    if let Outcome::Disagree { check, message } = &outcome {
        if let Some(k) = config.known.iter().find(|k| {
            k.program_kind == program_kind
                && k.check == check
                && message.contains(k.message_contains)
        }) {
            return Outcome::Discard(format!("known: {}", k.label));
        }
    }
    outcome
}

const TAG: &[u8; 8] = b"oracles!";

fn run_one(index: u64, config: &OracleConfig) -> Message {
    let gen = config.gen();
    let mut runner = runner_for(config.seed, index, TAG);
    let failing = |outcome: &Outcome, check: &str| match outcome {
        Outcome::Disagree { check: c, message } if c == check => Some(message.clone()),
        _ => None,
    };
    if config.kind == OracleKind::Verdict && index % 2 == 1 {
        let mut tree = ill_typed_programs(gen.clone())
            .new_tree(&mut runner)
            .expect("a mutant");
        let mutant: Mutant = tree.current();
        let kind = format!("mutant: {}", mutant.kind.premise());
        let (outcome, coverage) = record(|| examine_verdict(&mutant.program.source(), false));
        let outcome = known(config, &kind, outcome);
        let counterexample = match &outcome {
            Outcome::Disagree { check, .. } => {
                let (shrunk, message) =
                    shrink_while_steps(&mut tree, SHRINK_STEPS, |m: &Mutant| {
                        failing(&examine_verdict(&m.program.source(), false), check)
                    });
                Some(Counterexample {
                    index,
                    check: check.clone(),
                    program: format!(
                        "{}-- Mutation: {}\n-- ==\n-- error:\n\n{}",
                        header(config, index, check, &message),
                        shrunk.kind.premise(),
                        shrunk.program.source()
                    ),
                    message,
                })
            }
            _ => None,
        };
        return Message {
            kind,
            outcome,
            coverage,
            counterexample,
        };
    }
    let mut tree = well_typed_programs(gen)
        .new_tree(&mut runner)
        .expect("a program");
    let program = tree.current();
    let examine = |p: &GeneratedProgram| match config.kind {
        OracleKind::Verdict => examine_verdict(&p.source(), true),
        OracleKind::Defunc => examine_defunc(&p.source(), &p.arguments, config.fuel),
    };
    let (outcome, coverage) = record(|| examine(&program));
    let outcome = known(config, "well-typed", outcome);
    let counterexample = match &outcome {
        Outcome::Disagree { check, .. } => {
            let (shrunk, message) =
                shrink_while_steps(&mut tree, SHRINK_STEPS, |p: &GeneratedProgram| {
                    failing(&examine(p), check)
                });
            Some(Counterexample {
                index,
                check: check.clone(),
                program: format!(
                    "{}-- ==\n{}\n{}",
                    header(config, index, check, &message),
                    expected_run(&shrunk, config.fuel),
                    shrunk.source()
                ),
                message,
            })
        }
        _ => None,
    };
    Message {
        kind: "well-typed".into(),
        outcome,
        coverage,
        counterexample,
    }
}

fn fold(summary: &mut Summary, message: Message) {
    summary.progress.programs += 1;
    for (rule, n) in message.coverage {
        *summary.coverage.entry(rule).or_insert(0) += n;
    }
    let entry = summary.kinds.entry(message.kind).or_default();
    match message.outcome {
        Outcome::Agree { valid } => {
            entry.0 += 1;
            if valid {
                summary.progress.valid += 1;
            }
        }
        Outcome::Discard(reason) => {
            entry.1 += 1;
            summary.progress.discards += 1;
            *summary.discard_reasons.entry(reason).or_insert(0) += 1;
        }
        Outcome::Disagree { .. } => {
            entry.2 += 1;
            summary.progress.disagreements += 1;
        }
    }
    if let Some(counterexample) = message.counterexample {
        summary.counterexamples.push(counterexample);
    }
}

/// Runs an oracle campaign, calling `on_progress` every `interval`.
pub fn run_campaign(
    config: &OracleConfig,
    interval: Duration,
    mut on_progress: impl FnMut(&Progress),
) -> Summary {
    let limits = Limits {
        count: config.count,
        time: config.time,
        jobs: config.jobs,
    };
    let summary = RefCell::new(Summary::default());
    let worker_config = config.clone();
    let elapsed = run_pool(
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
    summary.progress.elapsed = elapsed;
    summary
}
