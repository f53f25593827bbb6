//! Differential oracles on generated module-free programs (issue 6, items 2
//! and 3), run by the shared campaign machinery ([`crate::campaign`]):
//!
//! - [`OracleKind::Verdict`]: even items are well-typed programs, odd items
//!   ill-typed mutants ([`crate::gen::mutate`]); the reference
//!   (`reference::front::from_surface` + `core::typing`) and the optimising
//!   front end (`optimized::typecheck`) must give the same accept/reject
//!   verdict, and a well-typed program must be accepted by both.
//! - [`OracleKind::Defunc`]: well-typed programs through the reference
//!   pipeline (evaluate, defunctionalise both ways, evaluate again) on the
//!   generated arguments; the pipeline checks TFP'18 Theorems 1–2 and
//!   Corollary 1 itself. A violated check or a panic disagrees; running out
//!   of fuel is a discard. Items cycle through four kinds of program
//!   ([`DefuncItem`]): module-free programs, programs with function-valued
//!   `if` under TFP'18 §7's `Or` option, module programs (through the
//!   ICFP'18 module calculus first) and programs that may fail at run time.
//! - [`OracleKind::Modules`]: ICFP'18 on module programs over the paper's
//!   core (`GenConfig::paper_core`): even items must elaborate, be
//!   interpreted statically and pass Proposition 6.1
//!   (`reference::modules::check_program`), odd items are mutants the
//!   elaborator must reject.
//!
//! - [`OracleKind::Value`]: the defunc oracle's four kinds of program
//!   ([`DefuncItem`]) compiled and run by the reference and by the
//!   optimising compiler's CPU backend ([`value`]): both reject, or both give
//!   the same values (the CLI's float tolerance), or both fail at run time
//!   with the same message at the same place.
//!
//! - [`OracleKind::Optimisation`]: the same four kinds of program compiled
//!   by the optimising pipeline and judged by its own output
//!   ([`optimisation`]): constant folding complete, the IR and core checkers
//!   rejecting a broken form of the program. What a value oracle cannot see
//!   (a pass that stops firing leaves the values as they were).
//!
//! - [`OracleKind::Gpu`]: odd items are chains of top-level SOACs over the
//!   entry arrays ([`gpu_programs`]), even items the same four kinds of
//!   program (SOACs more likely), each compiled once by the optimising
//!   pipeline and run by its CPU backend and by the GPU driver ([`gpu`]): equal values (the same tolerance) or the same
//!   run-time error, no Vulkan validation message, every SPIR-V module
//!   accepted by `spirv-val`; the summary counts the device's work
//!   ([`Summary::device`]).
//!
//! The oracles form one registry ([`OracleKind::ALL`]): an oracle is a
//! variant, a name, and the examination of one item in [`run_one`].
//!
//! Every item ends as agree, disagree or discard (a discard always has a
//! reason, counted in the summary). Disagreements are shrunk through the
//! generator's choice sequence and written as `-- ==` test programs.

pub mod corpus;
pub mod gpu;
pub mod gpu_programs;
pub mod mutants;
pub mod optimisation;
pub mod value;

use crate::campaign::{run_pool, runner_for, shrink_while_steps, Limits};

/// Shrinking steps per counterexample (a program is checked in milliseconds).
const SHRINK_STEPS: usize = 4000;
use crate::gen::mutate::{Mutant, MutationKind};
use crate::gen::shrink::{ill_typed_programs, well_typed_programs};
use crate::gen::{GenConfig, GeneratedProgram};
use driver::{Backend, LoadError, LoadOptions, LoadedProgram, RunErrorKind};
use mutants::{core_mutant_site, examine_core_mutant, examine_defunc_mutant, CORE_MUTANT};
use proptest::strategy::{Strategy, ValueTree};
use reference::ablation::{with_ablated, Premise};
use reference::coverage::{record, RuleCounts};
use reference::modules::paper_core::PaperCore;
use spec::diagnostic::{codes, DiagnosticKind};
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
    Modules,
    Value,
    Gpu,
    Optimisation,
}

impl OracleKind {
    /// Every oracle of this harness (the `nested` campaign has its own
    /// harness, `crate::nested::campaign`).
    pub const ALL: [OracleKind; 6] = [
        OracleKind::Verdict,
        OracleKind::Defunc,
        OracleKind::Modules,
        OracleKind::Value,
        OracleKind::Gpu,
        OracleKind::Optimisation,
    ];

    pub fn from_name(name: &str) -> Option<OracleKind> {
        OracleKind::ALL.into_iter().find(|k| k.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            OracleKind::Verdict => "verdict",
            OracleKind::Defunc => "defunc",
            OracleKind::Modules => "modules",
            OracleKind::Value => "value",
            OracleKind::Gpu => "gpu",
            OracleKind::Optimisation => "optimisation",
        }
    }

    /// The papers whose rules the oracle's programs fire (the prefixes of
    /// rule ids its coverage table lists).
    pub fn papers(self) -> &'static [&'static str] {
        match self {
            OracleKind::Verdict => &["TFP18 "],
            OracleKind::Defunc | OracleKind::Value => &["TFP18 ", "ICFP18 "],
            OracleKind::Modules => &["ICFP18 "],
            // The reference does not run: no paper rule fires.
            OracleKind::Gpu | OracleKind::Optimisation => &[],
        }
    }
}

/// The kinds of program the defunc and value oracles cycle through (item
/// `i` is kind `i % 4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefuncItem {
    /// A module-free program, `Or` option off.
    Core,
    /// A module-free program whose `if`s may return functions, run with
    /// TFP'18 §7's `Or` option.
    OrConditionals,
    /// A module program (ICFP'18 static interpretation first).
    Modules,
    /// A module-free program with unguarded indexing (run-time errors).
    MayFail,
}

impl DefuncItem {
    pub const ALL: [DefuncItem; 4] = [
        DefuncItem::Core,
        DefuncItem::OrConditionals,
        DefuncItem::Modules,
        DefuncItem::MayFail,
    ];

    pub fn of_index(index: u64) -> DefuncItem {
        match index % 4 {
            0 => DefuncItem::Core,
            1 => DefuncItem::OrConditionals,
            2 => DefuncItem::Modules,
            _ => DefuncItem::MayFail,
        }
    }

    /// The kind's name in summaries.
    pub fn label(self) -> &'static str {
        match self {
            DefuncItem::Core => "well-typed",
            DefuncItem::OrConditionals => "well-typed under the Or option (TFP'18 §7)",
            DefuncItem::Modules => "module program",
            DefuncItem::MayFail => "well-typed, may fail at run time",
        }
    }

    /// The generator's configuration for this kind, from the campaign's.
    pub fn gen(self, base: &GenConfig) -> GenConfig {
        let core = GenConfig {
            modules: false,
            paper_core: false,
            ..base.clone()
        };
        match self {
            DefuncItem::Core => core,
            DefuncItem::OrConditionals => GenConfig {
                or_conditionals: true,
                ..core
            },
            DefuncItem::Modules => GenConfig {
                modules: true,
                ..core
            },
            DefuncItem::MayFail => GenConfig {
                may_fail: true,
                ..core
            },
        }
    }

    pub fn or_conditionals(self) -> bool {
        self == DefuncItem::OrConditionals
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    pub kind: OracleKind,
    pub seed: u64,
    /// The first item's index: the campaign runs items `start..start +
    /// count` (0 by default; another reruns the items past a given one,
    /// each being a function of the seed and its index alone).
    pub start: u64,
    pub count: Option<u64>,
    pub time: Option<Duration>,
    pub jobs: usize,
    /// The generator's configuration (`modules` is forced off).
    pub gen: GenConfig,
    /// Step limit of each evaluation (defunc).
    pub fuel: u64,
    /// The defunc oracle's odd items are ill-typed mutants: items `4k + 1`
    /// mutants of the surface program ([`mutants::examine_defunc_mutant`]),
    /// items `4k + 3` mutants of its core ([`mutants::examine_core_mutant`]; premise
    /// ablation's TFP'18 campaign).
    pub defunc_mutants: bool,
    /// The premise switched off in every item (`runestone ablate`).
    pub ablated: Option<&'static Premise>,
}

impl OracleConfig {
    pub fn new(kind: OracleKind, seed: u64) -> OracleConfig {
        OracleConfig {
            kind,
            seed,
            start: 0,
            count: Some(100),
            time: None,
            jobs: 1,
            gen: GenConfig {
                modules: false,
                ..GenConfig::default()
            },
            fuel: 2_000_000,
            defunc_mutants: false,
            ablated: None,
        }
    }

    fn gen(&self) -> GenConfig {
        GenConfig {
            modules: false,
            ..self.gen.clone()
        }
    }

    /// The verdict oracle's generator for item `index`: one pair of items
    /// (a well-typed program and a mutant) in four is a module program, as
    /// in the value oracle ([`DefuncItem::Modules`]), the others module-free.
    fn verdict_gen(&self, index: u64) -> GenConfig {
        if DefuncItem::of_index(index / 2) == DefuncItem::Modules {
            DefuncItem::Modules.gen(&self.gen)
        } else {
            self.gen()
        }
    }

    fn paper_gen(&self) -> GenConfig {
        GenConfig {
            modules: true,
            paper_core: true,
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
    /// Programs still being examined when the time (and its grace period)
    /// ran out: not counted in `progress`.
    pub abandoned: u64,
    /// Per kind of program (`well-typed`, `mutant: <premise>`): (agree,
    /// discard, disagree).
    pub kinds: BTreeMap<String, (u64, u64, u64)>,
    /// Discards by reason (an unsupported construct, out of fuel, …).
    pub discard_reasons: BTreeMap<String, u64>,
    pub coverage: RuleCounts,
    pub counterexamples: Vec<Counterexample>,
    /// The size in lines of every program examined (printed as its source).
    pub program_lines: Vec<u32>,
    /// The device's work (the GPU oracle; zero for the others).
    pub device: gpu::DeviceTally,
    /// Items in which the ablated premise ([`OracleConfig::ablated`]) was
    /// false and overridden.
    pub items_overriding_the_premise: u64,
}

/// Median, 90th percentile and maximum of program sizes in lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeDistribution {
    pub median: u32,
    pub p90: u32,
    pub max: u32,
}

impl Summary {
    /// The distribution of [`Summary::program_lines`] (`None` when empty).
    pub fn size_distribution(&self) -> Option<SizeDistribution> {
        let mut lines = self.program_lines.clone();
        if lines.is_empty() {
            return None;
        }
        lines.sort_unstable();
        let at = |fraction: f64| lines[((lines.len() - 1) as f64 * fraction).round() as usize];
        Some(SizeDistribution {
            median: at(0.5),
            p90: at(0.9),
            max: *lines.last().expect("not empty"),
        })
    }
}

struct Message {
    kind: String,
    outcome: Outcome,
    coverage: RuleCounts,
    counterexample: Option<Counterexample>,
    lines: u32,
    /// The device's work on the program (the GPU oracle).
    device: Option<gpu::DeviceWork>,
    /// The ablated premise was false and overridden in this item.
    premise_overridden: bool,
}

/// Accept, reject or "not supported" from one implementation.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Accept,
    Reject(Rejection),
    Unsupported(String),
}

/// Why one implementation rejects a program.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rejection {
    message: String,
    /// The code of the uniqueness judgment's rejection
    /// (proofs-notes/uniqueness.md §7), when that judgment rejected: both
    /// implementations transcribe one specification, so where both type
    /// checkers pass, both must reject with the same code.
    uniqueness: Option<String>,
}

impl Verdict {
    fn reject(message: impl Into<String>) -> Verdict {
        Verdict::Reject(Rejection {
            message: message.into(),
            uniqueness: None,
        })
    }

    /// A rejection by diagnostic `d`, of the uniqueness judgment when its
    /// code is one of §7's.
    fn reject_with(d: &spec::diagnostic::Diagnostic) -> Verdict {
        let uniqueness = d
            .code
            .clone()
            .filter(|code| codes::uniqueness::ALL.contains(&code.as_str()));
        Verdict::Reject(Rejection {
            message: d.message.clone(),
            uniqueness,
        })
    }
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

/// Both type checkers on one parsed program, without catching panics (the
/// `typecheck` cargo-fuzz target calls this: a panic there is a finding).
/// Module programs go through the reference's module calculus
/// (`front::tfp18_core::program_to_core`) before its core typing.
/// `true` when the two verdicts agree (both accept, or both reject),
/// `None` when one side does not support a construct of the program.
pub fn both_checkers_agree(ast: &spec::syntax::ast::Program) -> Option<bool> {
    match (reference_verdict(ast), optimized_verdict(ast)) {
        (Verdict::Unsupported(_), _) | (_, Verdict::Unsupported(_)) => None,
        (Verdict::Accept, Verdict::Accept) => Some(true),
        (Verdict::Reject(_), Verdict::Reject(_)) => Some(true),
        _ => Some(false),
    }
}

fn reference_verdict(ast: &spec::syntax::ast::Program) -> Verdict {
    if reference::front::tfp18_core::has_module_constructs(ast) {
        return reference_module_verdict(ast);
    }
    thread_local! {
        // Parsed under a reserved file id, which no generated program has,
        // so that the uniqueness judgment trusts its declarations only.
        static PRELUDE: spec::syntax::ast::Program =
            reference::front::from_surface::parse_prelude(PRELUDE_FILE).expect("the prelude parses");
    }
    PRELUDE.with(
        |prelude| match reference::front::from_surface::elaborate(ast, Some(prelude)) {
            // A module-free program naming a numeric module (`f32.u64`): the
            // numeric prelude is module-level source, so the reference's
            // pipeline sends it through the module calculus, checking its
            // constant sizes (T-ConstantSizes); so does the oracle.
            Err(d) if d.has_code(codes::NEEDS_MODULE_CALCULUS) => reference_module_verdict(ast),
            Err(d) if d.kind() == DiagnosticKind::Unsupported => {
                Verdict::Unsupported(construct(&d.message))
            }
            Err(d) => Verdict::reject_with(&d),
            Ok(core) => match reference::core::typing::check_program(&core, false) {
                Ok(_) => uniqueness_verdict(&core),
                Err(e) => Verdict::reject(format!("{}: {}", e.rule, e.message)),
            },
        },
    )
}

/// The file id the verdict oracle parses the reference's prelude under.
const PRELUDE_FILE: spec::source::FileId =
    spec::source::FileId(spec::source::FileId::FIRST_RESERVED + 1);

/// The reference's uniqueness judgment on a typed core program.
fn uniqueness_verdict(core: &reference::core::syntax::Program) -> Verdict {
    match reference::front::pipeline::judge_uniqueness(core, &[PRELUDE_FILE], false) {
        Ok(()) => Verdict::Accept,
        Err(d) => Verdict::reject_with(&d),
    }
}

/// The reference's verdict through the module calculus (ICFP'18 elaboration
/// and static interpretation, T-ConstantSizes on the source as
/// `front::pipeline` runs it, then TFP'18 typing of the target code).
fn reference_module_verdict(ast: &spec::syntax::ast::Program) -> Verdict {
    match reference::front::tfp18_core::program_to_core(ast) {
        Err(d) if d.kind() == DiagnosticKind::Unsupported => {
            Verdict::Unsupported(construct(&d.message))
        }
        Err(d) => Verdict::reject_with(&d),
        Ok(core) => match reference::front::constant_sizes::check_program(ast)
            .map_err(|d| d.message)
            .and_then(|()| {
                reference::core::typing::check_program(&core, false)
                    .map_err(|e| format!("{}: {}", e.rule, e.message))
            }) {
            Ok(_) => uniqueness_verdict(&core),
            Err(message) => Verdict::reject(message),
        },
    }
}

/// The optimising compiler's front end: type inference, static
/// interpretation, elaboration and the uniqueness judgment.
fn optimized_verdict(ast: &spec::syntax::ast::Program) -> Verdict {
    match optimized::pipeline::check_front_end(ast, optimized::typecheck::CheckOptions::default()) {
        Ok(_) => Verdict::Accept,
        Err(diagnostics) => {
            if let Some(d) = diagnostics
                .iter()
                .find(|d| d.kind() == DiagnosticKind::Unsupported)
            {
                Verdict::Unsupported(construct(&d.message))
            } else {
                diagnostics
                    .first()
                    .map(Verdict::reject_with)
                    .unwrap_or_else(|| Verdict::reject(""))
            }
        }
    }
}

/// The codes with which the reference's and the optimising compiler's
/// uniqueness judgments reject `source` (`None`: that side accepts it, or
/// rejects it before that judgment).
pub fn uniqueness_codes(source: &str) -> (Option<String>, Option<String>) {
    let code = |verdict: Verdict| match verdict {
        Verdict::Reject(rejection) => rejection.uniqueness,
        _ => None,
    };
    match both_verdicts(source) {
        Ok((reference, optimized)) => (code(reference), code(optimized)),
        Err(_) => (None, None),
    }
}

/// The reference's and the optimising compiler's verdicts on `source`; a
/// program that does not parse, or a panic, is the oracle's finding.
fn both_verdicts(source: &str) -> Result<(Verdict, Verdict), Outcome> {
    let mut sources = SourceMap::new();
    let file = sources.add("generated.fut", source);
    let ast = spec::syntax::parse_program(file, source).map_err(|d| Outcome::Disagree {
        check: "parse".into(),
        message: format!("a generated program does not parse: {}", d.message),
    })?;
    let reference =
        catch_unwind(AssertUnwindSafe(|| reference_verdict(&ast))).map_err(|payload| {
            Outcome::Disagree {
                check: "panic in the reference".into(),
                message: panic_message(payload),
            }
        })?;
    let optimized =
        catch_unwind(AssertUnwindSafe(|| optimized_verdict(&ast))).map_err(|payload| {
            Outcome::Disagree {
                check: "panic in optimized".into(),
                message: panic_message(payload),
            }
        })?;
    Ok((reference, optimized))
}

/// The check a mutant fails when both type checkers accept it: the
/// generator's mutation did not break the premise it names, or both
/// checkers miss the same premise.
pub const BOTH_ACCEPT_A_MUTANT: &str = "both checkers accept a mutant";

/// What the generator says a program's verdict must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Generated well typed: both checkers accept it.
    Accept,
    /// A mutant whose mutation always breaks its premise: both reject it.
    Reject,
    /// A mutant whose mutation may leave it well typed
    /// ([`MutationKind::always_ill_typed`]): the checkers agree either way.
    Either,
}

impl Expected {
    /// What a mutant of `kind` must get.
    pub fn of_mutant(kind: MutationKind) -> Expected {
        if kind.always_ill_typed() {
            Expected::Reject
        } else {
            Expected::Either
        }
    }
}

/// The verdict oracle on one program, whose verdict must be `expected`.
pub fn examine_verdict(source: &str, expected: Expected) -> Outcome {
    let (reference, optimized) = match both_verdicts(source) {
        Ok(verdicts) => verdicts,
        Err(finding) => return finding,
    };
    match (&reference, &optimized) {
        (Verdict::Unsupported(c), _) => {
            Outcome::Discard(format!("unsupported by the reference: {c}"))
        }
        (_, Verdict::Unsupported(c)) => Outcome::Discard(format!("unsupported by optimized: {c}")),
        (Verdict::Accept, Verdict::Accept) if expected != Expected::Reject => {
            Outcome::Agree { valid: true }
        }
        (Verdict::Accept, Verdict::Accept) => Outcome::Disagree {
            check: BOTH_ACCEPT_A_MUTANT.into(),
            message: "a program with one premise broken is accepted by both checkers".into(),
        },
        (Verdict::Reject(r), Verdict::Reject(o)) if expected == Expected::Accept => {
            Outcome::Disagree {
                check: "well-typed program rejected by both".into(),
                message: format!("reference: {}; optimized: {}", r.message, o.message),
            }
        }
        (Verdict::Reject(r), Verdict::Reject(o))
            if r.uniqueness.is_some() && o.uniqueness.is_some() && r.uniqueness != o.uniqueness =>
        {
            Outcome::Disagree {
                check: "uniqueness judgments differ".into(),
                message: format!("reference: {}; optimized: {}", r.message, o.message),
            }
        }
        (Verdict::Reject(_), Verdict::Reject(_)) => Outcome::Agree { valid: false },
        (Verdict::Accept, Verdict::Reject(o)) => Outcome::Disagree {
            check: "reference accepts, optimized rejects".into(),
            message: o.message.clone(),
        },
        (Verdict::Reject(r), Verdict::Accept) => Outcome::Disagree {
            check: "optimized accepts, reference rejects".into(),
            message: r.message.clone(),
        },
    }
}

/// The check a violation message names (`Theorem 2 (f): …` → `Theorem 2`).
pub(crate) fn check_name(message: &str) -> String {
    let cut = message.find([':', '(']).unwrap_or(message.len());
    message[..cut].trim().to_string()
}

/// The defunc oracle on one well-typed program and its arguments, through
/// the driver's reference backend (which checks TFP'18 Theorems 1–2 and
/// Corollary 1 itself). On a module program (`module_program`) a
/// rejection is the reference's open defect, grouped by
/// [`module_rejection`].
pub fn examine_defunc(
    source: &str,
    arguments: &[spec::value::Value],
    fuel: u64,
    or_conditionals: bool,
    module_program: bool,
) -> Outcome {
    guarded("panic in the reference pipeline", || {
        let error = match load_reference(source, fuel, or_conditionals) {
            Ok(program) => return run_reference(program.as_ref(), arguments),
            Err(error) => match theorem_or_unsupported(error) {
                Ok(outcome) => return outcome,
                Err(error) => error,
            },
        };
        match error {
            error if module_program => {
                let proposition_6_1 = error.code() == Some(codes::ICFP18_PROPOSITION_6_1);
                Outcome::Discard(module_rejection(proposition_6_1))
            }
            error => {
                let message = error.diagnostic().map(|d| d.message.clone());
                Outcome::Discard(format!(
                    "the reference rejects it (see the verdict oracle): {}",
                    unquoted(&message.unwrap_or_default())
                ))
            }
        }
    })
}

/// The outcome of a load error that every examination on the reference
/// decides alike — Theorem 1 failing, a construct the reference does not
/// support — or the error back.
pub(crate) fn theorem_or_unsupported(error: LoadError) -> Result<Outcome, LoadError> {
    match error {
        LoadError::Internal(d) if d.has_code(codes::TFP18_THEOREM_1) => Ok(Outcome::Disagree {
            check: "Theorem 1".into(),
            message: d.message,
        }),
        LoadError::Unsupported(d) => Ok(Outcome::Discard(format!(
            "unsupported by the reference: {}",
            construct(&d.message)
        ))),
        other => Err(other),
    }
}

/// `work`'s outcome, or a disagreement named `check` if it panics.
pub(crate) fn guarded(check: &str, work: impl FnOnce() -> Outcome) -> Outcome {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(outcome) => outcome,
        Err(payload) => Outcome::Disagree {
            check: check.into(),
            message: panic_message(payload),
        },
    }
}

/// The program on the driver's reference backend (which checks TFP'18
/// Theorem 1 as it loads).
pub(crate) fn load_reference(
    source: &str,
    fuel: u64,
    or_conditionals: bool,
) -> Result<Box<dyn LoadedProgram>, LoadError> {
    let mut sources = SourceMap::new();
    let file = sources.add("generated.fut", source);
    let options = LoadOptions {
        or_conditionals,
        fuel: Some(fuel),
        memory_limit: None,
        segmented: false,
    };
    driver::load(Backend::Reference, &mut sources, file, options)
}

/// `main` on `arguments` on the reference backend (which checks Theorem 2
/// and Corollary 1 as it runs).
pub(crate) fn run_reference(
    program: &dyn LoadedProgram,
    arguments: &[spec::value::Value],
) -> Outcome {
    match program.run("main", arguments) {
        Ok(_) => Outcome::Agree { valid: true },
        Err(e) => match e.kind {
            RunErrorKind::Runtime => Outcome::Agree { valid: true },
            RunErrorKind::OutOfFuel => Outcome::Discard("out of fuel".into()),
            RunErrorKind::MemoryLimit => Outcome::Discard("the memory limit".into()),
            RunErrorKind::Input => Outcome::Disagree {
                check: "generated arguments do not fit".into(),
                message: e.message,
            },
            RunErrorKind::Internal => Outcome::Disagree {
                check: check_name(&e.message),
                message: e.message,
            },
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
fn expected_run(program: &GeneratedProgram, fuel: u64, or_conditionals: bool) -> String {
    let source = program.source();
    let input = values_line(&program.arguments);
    match value::reference_run(&source, &program.arguments, fuel, or_conditionals) {
        value::Run::Values(values) => {
            format!("-- input {{ {input} }} output {{ {} }}\n", values_line(&values))
        }
        value::Run::Failed { message, .. } => {
            format!("-- input {{ {input} }}\n-- error: {}\n", regex_literal(&message))
        }
        _ => format!(
            "-- input {{ {input} }}\n-- (output: the reference gives none; fill it in from Futhark)\n"
        ),
    }
}

/// A regular expression that matches `text` literally.
fn regex_literal(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

fn header(config: &OracleConfig, index: u64, check: &str, message: &str) -> String {
    let campaign = match config.ablated {
        Some(premise) => format!(
            "runestone ablate --premise {} --seed {}",
            premise.name, config.seed
        ),
        None => format!(
            "runestone fuzz --oracle {} --seed {}",
            config.kind.name(),
            config.seed
        ),
    };
    format!(
        "-- Counterexample found by `{campaign}` (program {index}).\n\
         -- Check: {check}\n-- {}\n",
        message.replace('\n', " ")
    )
}

const TAG: &[u8; 8] = b"oracles!";

/// The mutations outside ICFP'18's paper core (no entry points, `if`, loops
/// or arrays there): the modules oracle does not count those mutants.
const OUTSIDE_PAPER_CORE: [MutationKind; 4] = [
    MutationKind::HigherOrderEntryPoint,
    MutationKind::FunctionFromIf,
    MutationKind::FunctionFromLoop,
    MutationKind::FunctionInArray,
];

/// The modules oracle on one module program over the paper's core
/// (`well_typed`: generated well typed, else a mutant that must be
/// rejected): ICFP'18 elaboration, static interpretation and Proposition 6.1.
pub fn examine_modules(program: &spec::syntax::ast::Program, well_typed: bool) -> Outcome {
    let checked = catch_unwind(AssertUnwindSafe(|| {
        reference::modules::check_program::<PaperCore>(program).map(|c| c.verdict)
    }));
    match checked {
        Err(payload) => Outcome::Disagree {
            check: "panic in the ICFP'18 elaborator".into(),
            message: panic_message(payload),
        },
        Ok(Ok(Err(failure))) => Outcome::Disagree {
            check: "Proposition 6.1".into(),
            message: failure.to_string(),
        },
        Ok(Ok(Ok(_))) if well_typed => Outcome::Agree { valid: true },
        Ok(Ok(Ok(_))) => Outcome::Disagree {
            check: ELABORATOR_ACCEPTS_A_MUTANT.into(),
            message: "a program with one premise broken elaborates".into(),
        },
        Ok(Err(failure)) if well_typed => Outcome::Disagree {
            check: "the ICFP'18 elaborator rejects a well-typed program".into(),
            message: format!("{}: {} ({})", failure.rule, failure.premise, failure.detail),
        },
        Ok(Err(_)) => Outcome::Agree { valid: false },
    }
}

/// The check a module mutant fails when the ICFP'18 elaborator accepts it
/// and Proposition 6.1 holds of it.
pub const ELABORATOR_ACCEPTS_A_MUTANT: &str = "the ICFP'18 elaborator accepts a mutant";

fn failing(outcome: &Outcome, check: &str) -> Option<String> {
    match outcome {
        Outcome::Disagree { check: c, message } if c == check => Some(message.clone()),
        _ => None,
    }
}

/// One ill-typed mutant under `gen`, examined by `examine`.
fn mutant_item(
    index: u64,
    config: &OracleConfig,
    gen: GenConfig,
    examine: impl Fn(&Mutant) -> Outcome,
) -> Message {
    let mut runner = runner_for(config.seed, index, TAG);
    let mut tree = ill_typed_programs(gen)
        .new_tree(&mut runner)
        .expect("a mutant");
    let mutant: Mutant = tree.current();
    let kind = format!("mutant: {}", mutant.kind.premise());
    let lines = mutant.program.line_count() as u32;
    if config.kind == OracleKind::Modules && OUTSIDE_PAPER_CORE.contains(&mutant.kind) {
        return Message {
            kind,
            outcome: Outcome::Discard(
                "mutation outside ICFP'18's paper core (TFP'18 restrictions)".into(),
            ),
            coverage: RuleCounts::new(),
            counterexample: None,
            lines,
            device: None,
            premise_overridden: false,
        };
    }
    let (outcome, coverage) = record(|| examine(&mutant));
    let counterexample = match &outcome {
        Outcome::Disagree { check, .. } => {
            let (shrunk, message) = shrink_while_steps(&mut tree, SHRINK_STEPS, |m: &Mutant| {
                failing(&examine(m), check)
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
    Message {
        kind,
        outcome,
        coverage,
        counterexample,
        lines,
        device: None,
        premise_overridden: false,
    }
}

/// One well-typed program under `gen` (program kind `kind`), examined by
/// `examine`; `or_conditionals` for the expected block of a counterexample.
fn well_typed_item(
    index: u64,
    config: &OracleConfig,
    gen: GenConfig,
    kind: &str,
    or_conditionals: bool,
    examine: impl Fn(&GeneratedProgram) -> Outcome,
) -> Message {
    let mut runner = runner_for(config.seed, index, TAG);
    let mut tree = well_typed_programs(gen)
        .new_tree(&mut runner)
        .expect("a program");
    let program = tree.current();
    let lines = program.line_count() as u32;
    let (outcome, coverage) = record(|| examine(&program));
    let counterexample = match &outcome {
        Outcome::Disagree { check, .. } => {
            let (shrunk, message) =
                shrink_while_steps(&mut tree, SHRINK_STEPS, |p: &GeneratedProgram| {
                    failing(&examine(p), check)
                });
            let options = if or_conditionals {
                "-- runestone-options: or-conditionals\n"
            } else {
                ""
            };
            let expected = match config.kind {
                OracleKind::Modules => String::new(),
                _ => expected_run(&shrunk, config.fuel, or_conditionals),
            };
            Some(Counterexample {
                index,
                check: check.clone(),
                program: format!(
                    "{options}{}-- ==\n{expected}\n{}",
                    header(config, index, check, &message),
                    shrunk.source()
                ),
                message,
            })
        }
        _ => None,
    };
    Message {
        kind: kind.to_string(),
        outcome,
        coverage,
        counterexample,
        lines,
        device: None,
        premise_overridden: false,
    }
}

/// The grouped discard reason of a generated module program the reference
/// rejects (value and defunc oracles), by the rejection's code: its check
/// of ICFP'18 Proposition 6.1 on the TFP'18 core instance failed on 0.57 %
/// of the value oracle's programs until SPEC_NOTES ICFP18-23 (0 in 20 000
/// since, `fuzz/findings/value_campaigns.md`); a new class would show as
/// "other". The verdict oracle, which runs module programs too, counts
/// such a rejection as a disagreement.
fn module_rejection(proposition_6_1: bool) -> String {
    let what = if proposition_6_1 {
        "Proposition 6.1 fails"
    } else {
        "other"
    };
    format!(
        "the reference rejects a generated module program ({what}; open defect of the reference)"
    )
}

/// The program one item of a campaign draws, before any shrinking.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemProgram {
    pub source: String,
    /// The entry point's arguments (a mutant's, for the items that are
    /// mutants).
    pub arguments: Vec<spec::value::Value>,
    /// Whether the item runs under TFP'18 §7's `Or` option
    /// ([`DefuncItem::OrConditionals`]).
    pub or_conditionals: bool,
}

impl ItemProgram {
    /// The program as a file `runestone run` takes (the `Or` option as a
    /// `-- runestone-options` line) with its arguments as an `-- input` line.
    pub fn to_file(&self) -> String {
        let options = if self.or_conditionals {
            "-- runestone-options: or-conditionals\n"
        } else {
            ""
        };
        format!(
            "{options}-- input {{ {} }}\n\n{}",
            values_line(&self.arguments),
            self.source
        )
    }
}

/// The program item `index` of a campaign draws, to reproduce one item
/// outside the campaign (`cargo run --release -p fuzz --example campaign --
/// ORACLE SEED --show INDEX`, then `runestone run`).
pub fn item_program(index: u64, config: &OracleConfig) -> ItemProgram {
    let mut runner = runner_for(config.seed, index, TAG);
    let well_typed = |gen: GenConfig, runner: &mut proptest::test_runner::TestRunner| {
        let program = well_typed_programs(gen)
            .new_tree(runner)
            .expect("a program")
            .current();
        (program.source(), program.arguments)
    };
    let mutant = |gen: GenConfig, runner: &mut proptest::test_runner::TestRunner| {
        let mutant: Mutant = ill_typed_programs(gen)
            .new_tree(runner)
            .expect("a mutant")
            .current();
        (mutant.program.source(), mutant.program.arguments)
    };
    let (item, (source, arguments)) = match config.kind {
        OracleKind::Verdict if index % 2 == 1 => {
            (None, mutant(config.verdict_gen(index), &mut runner))
        }
        OracleKind::Verdict => (None, well_typed(config.verdict_gen(index), &mut runner)),
        OracleKind::Modules if index % 2 == 1 => (None, mutant(config.paper_gen(), &mut runner)),
        OracleKind::Modules => (None, well_typed(config.paper_gen(), &mut runner)),
        OracleKind::Defunc if config.defunc_mutants && index % 4 == 3 => {
            (None, well_typed(config.gen(), &mut runner))
        }
        OracleKind::Defunc if config.defunc_mutants && index % 2 == 1 => {
            (None, mutant(config.gen(), &mut runner))
        }
        OracleKind::Defunc | OracleKind::Value | OracleKind::Optimisation => {
            let item = DefuncItem::of_index(index);
            (Some(item), well_typed(item.gen(&config.gen), &mut runner))
        }
        OracleKind::Gpu if index % 2 == 1 => {
            let program = gpu_programs::soac_programs()
                .new_tree(&mut runner)
                .expect("a program")
                .current();
            (None, (program.source(), program.arguments()))
        }
        OracleKind::Gpu => {
            let item = DefuncItem::of_index(index / 2);
            let gen = gpu::generator(item.gen(&config.gen));
            (Some(item), well_typed(gen, &mut runner))
        }
    };
    ItemProgram {
        source,
        arguments,
        or_conditionals: item.is_some_and(DefuncItem::or_conditionals),
    }
}

/// Item `index` of a campaign: which program it draws and how it is examined
/// (the oracle registry's one dispatch).
fn run_one(index: u64, config: &OracleConfig) -> Message {
    match config.kind {
        OracleKind::Verdict if index % 2 == 1 => {
            mutant_item(index, config, config.verdict_gen(index), |m| {
                examine_verdict(&m.program.source(), Expected::of_mutant(m.kind))
            })
        }
        OracleKind::Verdict => {
            let kind = if config.verdict_gen(index).modules {
                "well-typed module program"
            } else {
                "well-typed"
            };
            well_typed_item(index, config, config.verdict_gen(index), kind, false, |p| {
                examine_verdict(&p.source(), Expected::Accept)
            })
        }
        OracleKind::Defunc if config.defunc_mutants && index % 4 == 3 => {
            well_typed_item(index, config, config.gen(), CORE_MUTANT, false, |p| {
                examine_core_mutant(
                    &p.source(),
                    &p.arguments,
                    core_mutant_site(index),
                    config.fuel,
                )
            })
        }
        OracleKind::Defunc if config.defunc_mutants && index % 2 == 1 => {
            mutant_item(index, config, config.gen(), |m| {
                examine_defunc_mutant(
                    &m.program.source(),
                    &m.program.arguments,
                    config.fuel,
                    Expected::of_mutant(m.kind),
                )
            })
        }
        OracleKind::Defunc => defunc_item(index, config, |p, or, module_program| {
            examine_defunc(&p.source(), &p.arguments, config.fuel, or, module_program)
        }),
        OracleKind::Modules if index % 2 == 1 => {
            mutant_item(index, config, config.paper_gen(), |m| {
                examine_modules(&m.program.program, false)
            })
        }
        OracleKind::Modules => well_typed_item(
            index,
            config,
            config.paper_gen(),
            "well-typed module program",
            false,
            |p| examine_modules(&p.program, true),
        ),
        OracleKind::Value => defunc_item(index, config, |p, or, module_program| {
            value::examine_value(&p.source(), &p.arguments, config.fuel, or, module_program)
        }),
        OracleKind::Optimisation => defunc_item(index, config, |p, or, _| {
            optimisation::examine_optimisation(&p.source(), or)
        }),
        OracleKind::Gpu if index % 2 == 1 => soac_item(index, config),
        OracleKind::Gpu => {
            let item = DefuncItem::of_index(index / 2);
            let or = item.or_conditionals();
            // The device's work on the generated program itself (shrinking
            // examines smaller ones afterwards).
            let first_work = RefCell::new(None);
            let mut message = well_typed_item(
                index,
                config,
                gpu::generator(item.gen(&config.gen)),
                item.label(),
                or,
                |p| {
                    let (outcome, work) = gpu::examine_gpu(&p.source(), &p.arguments, or);
                    first_work.borrow_mut().get_or_insert(work);
                    outcome
                },
            );
            message.device = first_work.into_inner();
            message
        }
    }
}

/// Item `index` of the defunctionalisation, value or optimisation oracle:
/// a program of the [`DefuncItem`] kind for `index`, `examine`d (and
/// shrunk) with that kind's `Or` option and whether it is a module program.
fn defunc_item(
    index: u64,
    config: &OracleConfig,
    examine: impl Fn(&GeneratedProgram, bool, bool) -> Outcome,
) -> Message {
    let item = DefuncItem::of_index(index);
    let or = item.or_conditionals();
    let module_program = item == DefuncItem::Modules;
    well_typed_item(
        index,
        config,
        item.gen(&config.gen),
        item.label(),
        or,
        |p| examine(p, or, module_program),
    )
}

/// The program kind of the GPU oracle's own programs.
pub const SOAC_PROGRAMS: &str = "top-level SOACs over the entry arrays (gpu oracle)";

/// One of the GPU oracle's own programs ([`gpu_programs`]): a chain of
/// top-level SOACs over the entry point's arrays.
fn soac_item(index: u64, config: &OracleConfig) -> Message {
    let mut runner = runner_for(config.seed, index, TAG);
    let mut tree = gpu_programs::soac_programs()
        .new_tree(&mut runner)
        .expect("a program");
    let program = tree.current();
    let examine =
        |p: &gpu_programs::SoacProgram| gpu::examine_gpu(&p.source(), &p.arguments(), false);
    let source = program.source();
    let (outcome, work) = examine(&program);
    let counterexample = match &outcome {
        Outcome::Disagree { check, .. } => {
            let (shrunk, message) =
                shrink_while_steps(&mut tree, SHRINK_STEPS, |p: &gpu_programs::SoacProgram| {
                    failing(&examine(p).0, check)
                });
            let arguments = shrunk.arguments();
            let input = values_line(&arguments);
            let expected =
                match value::reference_run(&shrunk.source(), &arguments, config.fuel, false) {
                    value::Run::Values(values) => {
                        format!("-- input {{ {input} }} output {{ {} }}\n", values_line(&values))
                    }
                    value::Run::Failed { message, .. } => {
                        format!("-- input {{ {input} }}\n-- error: {}\n", regex_literal(&message))
                    }
                    other => format!(
                        "-- input {{ {input} }}\n-- (output: the reference {}; fill it in from Futhark)\n",
                        other.describe()
                    ),
                };
            Some(Counterexample {
                index,
                check: check.clone(),
                program: format!(
                    "{}-- ==\n{expected}\n{}",
                    header(config, index, check, &message),
                    shrunk.source()
                ),
                message,
            })
        }
        _ => None,
    };
    Message {
        kind: SOAC_PROGRAMS.to_string(),
        outcome,
        coverage: RuleCounts::new(),
        counterexample,
        lines: source.lines().count() as u32,
        device: Some(work),
        premise_overridden: false,
    }
}

fn fold(summary: &mut Summary, message: Message) {
    summary.progress.programs += 1;
    summary.program_lines.push(message.lines);
    summary.items_overriding_the_premise += u64::from(message.premise_overridden);
    if let Some(work) = &message.device {
        summary.device.add(work);
    }
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
        start: config.start,
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
        move |index| match worker_config.ablated {
            Some(premise) => {
                let (mut message, overrides) =
                    with_ablated(premise, || run_one(index, &worker_config));
                message.premise_overridden = overrides > 0;
                message
            }
            None => run_one(index, &worker_config),
        },
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
