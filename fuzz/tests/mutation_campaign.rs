//! The killing test of the mutation score of `optimized/` (issue 6, item 6;
//! `fuzz/findings/mutation_score.md`): fixed-seed, count-bounded campaigns of
//! the differential oracles that run the optimising compiler — `value`
//! (reference vs optimised CPU values, run-time errors and verdicts) and
//! `verdict` (reference vs optimised type checker on programs and their
//! ill-typed mutants). A mutant of `optimized/` is killed when any campaign
//! here reports a disagreement, or when the
//! optimising side stops deciding programs it decides today (more discards
//! than the bounds below allow), or when it panics or hangs.
//!
//! The `modules` oracle is not here: it runs the reference's ICFP'18
//! elaborator alone and never calls `optimized`.
//!
//! Budget: counts, not durations, so that a mutant's fate does not depend
//! on the machine's load. The default is the short budget CI runs;
//! `RUNESTONE_MUTATION_BUDGET=long` selects the budget the mutation score
//! was measured with (both are listed in [`Budget`]).

use fuzz::gen::mutate::{mutate_kind, MutationKind};
use fuzz::gen::{generate, site_kinds, GenConfig};
use fuzz::oracles::optimisation::OptimisationEvidence;
use fuzz::oracles::{
    examine_verdict, run_campaign, DefuncItem, Expected, OracleConfig, OracleKind, Outcome, Summary,
};
use std::time::Duration;

/// How many fixed-seed campaigns of how many programs each.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// How many of [`SEEDS`] are used (each seed is one campaign, checked
    /// before the next starts, so a killed mutant usually dies in the
    /// first).
    seeds: usize,
    /// Value-oracle programs per seed (four kinds in turn: module-free,
    /// `Or` conditionals, module programs, may-fail programs).
    value: u64,
    /// Verdict-oracle items per seed (well-typed programs and mutants in
    /// turn).
    verdict: u64,
    /// Value-oracle programs per seed whose array arguments of unknown
    /// size are longer than the CPU backend's parallel threshold
    /// (`GenConfig::long_arrays`).
    long_arrays: u64,
    /// Value-oracle programs per seed that also use the numeric modules'
    /// functions and constants (`GenConfig::numeric_functions`).
    numeric_functions: u64,
    /// Value-oracle programs per seed whose entry points also take tuple,
    /// record and sum arguments (`GenConfig::structured_arguments`).
    structured_arguments: u64,
    /// Verdict-oracle items per seed whose mutants may also open a module
    /// path that does not exist or apply a function to itself
    /// (`GenConfig::extra_mutations`).
    extra_mutations: u64,
    /// Module programs (seeds `0..`) whose mutant mixing two opaque
    /// modules' abstract types is examined, if they have such a site.
    abstract_types_mixed: u64,
    /// Programs per seed, each with short and with long arrays, judged by
    /// the optimisation oracle (`fuzz::oracles::optimisation`).
    optimisation: u64,
    /// Value-oracle programs per seed that build arrays with a function
    /// whose result size is its argument (`GenConfig::value_dependent_sizes`).
    value_dependent_sizes: u64,
    /// Programs (seeds `0..`) whose loop mutant returning an array bound
    /// outside the loop is examined, if they have such a site.
    loop_aliases: u64,
}

/// CI's budget (5–20 s in the dev profile on the shared 2-core machine,
/// depending on its load).
const SHORT: Budget = Budget {
    seeds: 2,
    value: 100,
    verdict: 200,
    long_arrays: 20,
    numeric_functions: 100,
    structured_arguments: 100,
    extra_mutations: 200,
    abstract_types_mixed: 400,
    optimisation: 100,
    value_dependent_sizes: 100,
    loop_aliases: 400,
};

/// The mutation-score budget (`RUNESTONE_MUTATION_BUDGET=long`; 21–65 s in
/// the dev profile): 800 value programs and 1 600 verdict items.
const LONG: Budget = Budget {
    seeds: 8,
    value: 100,
    verdict: 200,
    long_arrays: LONG_ARRAYS_LONG,
    numeric_functions: 100,
    structured_arguments: 100,
    extra_mutations: 200,
    abstract_types_mixed: 400,
    optimisation: 100,
    value_dependent_sizes: 100,
    loop_aliases: 400,
};

/// Value programs per seed over long arrays in the long budget.
const LONG_ARRAYS_LONG: u64 = 20;

/// The most discards allowed over long arrays, in percent (the reference,
/// element by element, runs out of fuel on more of them).
const LONG_ARRAYS_MAX_DISCARD_PERCENT: u64 = 40;

/// The campaigns' seeds, in order (fixed: a mutant's fate is reproducible).
const SEEDS: [u64; 8] = [11, 2026, 3, 5, 7, 13, 17, 19];

fn budget() -> Budget {
    match std::env::var("RUNESTONE_MUTATION_BUDGET").as_deref() {
        Ok("long") => LONG,
        _ => SHORT,
    }
}

/// A campaign of `kind` on `count` programs from `seed`.
fn campaign(kind: OracleKind, seed: u64, count: u64) -> OracleConfig {
    let mut config = OracleConfig::new(kind, seed);
    config.count = Some(count);
    config.jobs = 2;
    config
}

/// The optimising side supports every construct the generators produce (a
/// discard for an unsupported construct there is a loss), and at least
/// `min_valid_percent` % of the programs are valid on both sides.
fn assert_supported_and_valid(summary: &Summary, seed: u64, min_valid_percent: u64) {
    assert_eq!(
        discards_starting_with(summary, "unsupported by optimized"),
        0,
        "seed {seed}: {:?}",
        summary.discard_reasons
    );
    assert!(
        summary.progress.valid * 100 >= summary.progress.programs * min_valid_percent,
        "seed {seed}: {:?}",
        summary.progress
    );
}

/// The one helper: runs `config` and fails on any disagreement, on a
/// program without an outcome, and when more than
/// `max_discard_percent` % of the programs are discarded (an optimising
/// side that stops deciding programs, e.g. by calling every construct
/// unsupported, must not pass silently).
fn check(config: &OracleConfig, max_discard_percent: u64) -> Summary {
    let (kind, seed) = (config.kind, config.seed);
    let count = config.count.expect("a count budget");
    let summary = run_campaign(config, Duration::from_secs(3600), |_| {});
    let progress = &summary.progress;
    assert_eq!(progress.programs, count, "{} seed {seed}", kind.name());
    let outcomes: u64 = summary.kinds.values().map(|(a, d, x)| a + d + x).sum();
    assert_eq!(outcomes, count, "every program has an outcome");
    assert!(
        summary.counterexamples.is_empty() && progress.disagreements == 0,
        "{} seed {seed}: {} disagreements:\n{}",
        kind.name(),
        progress.disagreements,
        summary
            .counterexamples
            .iter()
            .map(|c| format!("{}: {}\n{}", c.check, c.message, c.program))
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert!(
        progress.discards * 100 <= count * max_discard_percent,
        "{} seed {seed}: {} of {count} programs discarded: {:?}",
        kind.name(),
        progress.discards,
        summary.discard_reasons
    );
    // Native code the translator emitted and Cranelift rejected is a
    // translator defect even though the SOAC then runs on the other paths
    // with the same results (counted over the whole process).
    let (rejected, first) = optimized::cpu::native::kernel_rejections();
    assert_eq!(
        rejected, 0,
        "native kernels rejected by Cranelift: {first:?}"
    );
    summary
}

/// Value campaigns of `count` programs per seed with a generator mode
/// `enable` switches on: no disagreement, no construct unsupported by the
/// optimising side, at most 12 % discards and at least 80 % valid programs.
fn value_campaigns_in_mode(count: u64, enable: fn(&mut GenConfig)) {
    for seed in SEEDS.into_iter().take(budget().seeds) {
        let mut config = campaign(OracleKind::Value, seed, count);
        enable(&mut config.gen);
        let summary = check(&config, 12);
        assert_supported_and_valid(&summary, seed, 80);
    }
}

/// The number of discards whose reason starts with `prefix`.
fn discards_starting_with(summary: &Summary, prefix: &str) -> u64 {
    summary
        .discard_reasons
        .iter()
        .filter(|(reason, _)| reason.starts_with(prefix))
        .map(|(_, n)| n)
        .sum()
}

#[test]
fn value_campaigns_find_no_disagreement_with_the_optimising_compiler() {
    let budget = budget();
    for seed in SEEDS.into_iter().take(budget.seeds) {
        let summary = check(&campaign(OracleKind::Value, seed, budget.value), 12);
        // Most programs run to a value or a run-time error on both sides.
        assert_supported_and_valid(&summary, seed, 80);
    }
}

#[test]
fn verdict_campaigns_find_no_disagreement_with_the_optimising_type_checker() {
    let budget = budget();
    for seed in SEEDS.into_iter().take(budget.seeds) {
        let summary = check(&campaign(OracleKind::Verdict, seed, budget.verdict), 2);
        // Half the items are well-typed programs, accepted by both sides.
        assert_supported_and_valid(&summary, seed, 45);
    }
}

/// Value campaigns whose array arguments of unknown size have at least
/// `optimized::cpu::PARALLEL_THRESHOLD` elements, so that `map`, `reduce`,
/// `scan`, `filter` and `hist` over them run in chunks on the optimising
/// side (the generated programs' own arrays are short): the mutation
/// campaign found the chunked paths unreached otherwise
/// (`fuzz/findings/mutation_score.md`; the entry point also returns scans,
/// a reduction and a gather of its first long parameter). The reference runs these programs
/// element by element, so more of them run out of fuel (discarded).
/// One value campaign of `count` programs over long arrays: no
/// disagreement, and at least half the programs valid.
fn long_array_campaign(seed: u64, count: u64) {
    let mut config = campaign(OracleKind::Value, seed, count);
    config.gen.long_arrays = true;
    let summary = check(&config, LONG_ARRAYS_MAX_DISCARD_PERCENT);
    assert!(
        summary.progress.valid * 100 >= summary.progress.programs * 50,
        "seed {seed}: {:?}",
        summary.progress
    );
}

#[test]
fn value_campaigns_over_long_arrays_find_no_disagreement() {
    let budget = budget();
    for seed in SEEDS.into_iter().take(budget.seeds) {
        long_array_campaign(seed, budget.long_arrays);
    }
}

/// The campaigns over long arrays and the first value campaigns again with
/// the native path off (`RUNESTONE_NATIVE=0`, read once per process: the
/// test reruns itself in a child process with it set). The native kernels
/// run ahead of the block-vectorised and lane-parallel paths
/// (`cpu::vector`, `cpu::soac::lanes`) and shadow them, so the campaigns
/// above do not check those paths (`fuzz/findings/mutation_score.md`,
/// third sample).
#[test]
fn value_campaigns_without_native_code_find_no_disagreement() {
    const NAME: &str = "value_campaigns_without_native_code_find_no_disagreement";
    if optimized::cpu::native::enabled() {
        let output = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args([NAME, "--exact", "--nocapture", "--test-threads=1"])
            .env("RUNESTONE_NATIVE", "0")
            .output()
            .expect("the test binary runs again");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert!(output.status.success(), "{stdout}\n{stderr}");
        assert!(
            stdout.contains("1 passed"),
            "the child ran no test:\n{stdout}"
        );
        return;
    }
    let budget = budget();
    for seed in SEEDS.into_iter().take(budget.seeds) {
        long_array_campaign(seed, budget.long_arrays);
        let summary = check(&campaign(OracleKind::Value, seed, budget.value), 12);
        assert_supported_and_valid(&summary, seed, 80);
    }
}

/// `GenConfig::long_arrays` gives some programs an argument of at least
/// `PARALLEL_THRESHOLD` rows, and without it no argument is that long.
#[test]
fn long_arrays_reach_the_parallel_threshold() {
    use fuzz::gen::{generate, GenConfig, LONG_ARRAY_LENGTH};
    use spec::value::Value;
    let longest = |config: &GenConfig, seed: u64| {
        generate(seed, config)
            .arguments
            .iter()
            .map(|argument| match argument {
                Value::Array(array) => array.shape()[0] as u64,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    };
    let short = GenConfig {
        modules: false,
        ..GenConfig::default()
    };
    let long = GenConfig {
        long_arrays: true,
        ..short.clone()
    };
    assert_eq!(LONG_ARRAY_LENGTH, optimized::cpu::PARALLEL_THRESHOLD as u64);
    let reaching = (0..100)
        .filter(|&seed| longest(&long, seed) >= LONG_ARRAY_LENGTH)
        .count();
    assert!(reaching >= 15, "only {reaching} of 100 programs");
    assert!((0..100).all(|seed| longest(&short, seed) < 8));
}

/// Value campaigns whose programs also call the numeric modules' functions
/// and name their constants (`T.min`, `T.abs`, `T.lowest`, `f32.isnan`, …;
/// `GenConfig::numeric_functions`), whose lowering the other campaigns
/// never reach (`fuzz/findings/mutation_score.md`).
#[test]
fn value_campaigns_with_numeric_functions_find_no_disagreement() {
    value_campaigns_in_mode(budget().numeric_functions, |gen| {
        gen.numeric_functions = true
    });
}

/// `GenConfig::numeric_functions` puts each numeric-module function and
/// constant it generates (the bit-level and special functions among them)
/// in some of 10 000 programs, and without it none appears.
#[test]
fn numeric_functions_appear_only_when_asked_for() {
    let plain = GenConfig {
        modules: false,
        ..GenConfig::default()
    };
    let numeric = GenConfig {
        numeric_functions: true,
        ..plain.clone()
    };
    let sources = |config: &GenConfig| -> Vec<String> {
        (0..10_000)
            .map(|seed| generate(seed, config).source())
            .collect()
    };
    let (with, without) = (sources(&numeric), sources(&plain));

    for name in [
        ".lowest",
        ".highest",
        ".abs ",
        ".min ",
        ".max ",
        ".isnan ",
        ".isinf ",
        ".+",
        ".-",
        ".*",
        ".mul_hi ",
        ".mad_hi ",
        ".set_bit ",
        ".get_bit ",
        ".popc ",
        ".clz ",
        ".ctz ",
        ".to_bits ",
        ".nextafter ",
        ".recip ",
        ".mad ",
    ] {
        assert!(
            with.iter().any(|s| s.contains(name)),
            "{name} never appears"
        );
        assert!(!without.iter().any(|s| s.contains(name)), "{name} appears");
    }
}

/// Value campaigns whose programs build arrays of a known size with `def
/// fill_sized 't (n: i64) (x: t) : [n]t` (`GenConfig::value_dependent_sizes`):
/// the optimising type checker's value-dependent function types are
/// otherwise unchecked (`fuzz/findings/mutation_score.md`, fifth round). At
/// least a fifth of the programs call it (besides declaring it).
#[test]
fn value_campaigns_with_value_dependent_sizes_find_no_disagreement() {
    value_campaigns_in_mode(budget().value_dependent_sizes, |gen| {
        gen.value_dependent_sizes = true
    });
    let config = GenConfig {
        value_dependent_sizes: true,
        ..GenConfig::default()
    };
    let calling = (0..100)
        .filter(|&seed| {
            generate(seed, &config)
                .source()
                .matches("fill_sized")
                .count()
                > 1
        })
        .count();
    assert!(
        calling >= 20,
        "only {calling} of 100 programs call fill_sized"
    );
}

/// Value campaigns whose entry points also take tuple, record and sum
/// arguments (`GenConfig::structured_arguments`): the optimising CPU
/// backend's conversion of such arguments into its flat values is
/// otherwise unchecked (`fuzz/findings/mutation_score.md`).
#[test]
fn value_campaigns_with_structured_arguments_find_no_disagreement() {
    value_campaigns_in_mode(budget().structured_arguments, |gen| {
        gen.structured_arguments = true
    });
}

/// Verdict campaigns whose mutants may also open a module path whose first
/// module does not exist (`open absent_module.inner`) or apply a function to itself (`\y -> y y`:
/// the occurs check), `GenConfig::extra_mutations`: the optimising type
/// checker's module path lookup and occurs check are otherwise unchecked
/// (`fuzz/findings/mutation_score.md`).
#[test]
fn verdict_campaigns_with_extra_mutations_find_no_disagreement() {
    let budget = budget();
    for seed in SEEDS.into_iter().take(budget.seeds) {
        let mut config = campaign(OracleKind::Verdict, seed, budget.extra_mutations);
        config.gen.extra_mutations = true;
        let summary = check(&config, 2);
        // Both extra kinds are among the mutants, rejected by both sides.
        for kind in fuzz::gen::mutate::MutationKind::EXTRA {
            let label = format!("mutant: {}", kind.premise());
            let agreed = summary
                .kinds
                .get(&label)
                .map_or(0, |(agreed, _, _)| *agreed);
            assert!(agreed > 0, "seed {seed}: no `{label}`: {:?}", summary.kinds);
        }
        assert_supported_and_valid(&summary, seed, 45);
    }
}

/// Mutants of module programs that pass a value of one opaque module's
/// abstract type where another's is expected
/// (`MutationKind::AbstractTypesMixed`, a site only under
/// `GenConfig::extra_mutations`): both type checkers reject every one. A
/// verdict campaign's mutant picks this site rarely (one among many), so the
/// kind is mutated directly; it reaches the optimising unifier's check that
/// two named types are the same (`typecheck/unify.rs`, `unify_inner`),
/// which no campaign reached before (`fuzz/findings/mutation_score.md`).
/// Without the option the programs and their other sites are unchanged.
#[test]
fn mutants_mixing_two_abstract_types_are_rejected_by_both_sides() {
    let config = GenConfig {
        extra_mutations: true,
        depth: 5,
        max_declarations: 4,
        ..DefuncItem::Modules.gen(&GenConfig::default())
    };
    let without = GenConfig {
        extra_mutations: false,
        ..config.clone()
    };
    let mut rejected = 0;
    for seed in 0..budget().abstract_types_mixed {
        let original = generate(seed, &config);
        // Off by default: the same program, and no such site, without it.
        let plain = generate(seed, &without);
        assert_eq!(plain.program, original.program, "seed {seed}");
        assert!(!site_kinds(plain.choices, &without).contains(&MutationKind::AbstractTypesMixed));
        let kind = MutationKind::AbstractTypesMixed;
        let Some(mutant) = mutate_kind(&original, kind, seed as u32, &config) else {
            continue;
        };
        assert_eq!(mutant.kind, kind);
        match examine_verdict(&mutant.program.source(), Expected::of_mutant(kind)) {
            Outcome::Agree { valid: false } => rejected += 1,
            other => panic!("seed {seed}: {other:?}\n{}", mutant.program.source()),
        }
    }
    assert!(
        rejected >= 10,
        "only {rejected} mutants mixing abstract types"
    );
}

/// A loop that updates its parameter in place and returns an array bound
/// outside it (`MutationKind::LoopResultAliasesAnOuterArray`): both
/// uniqueness judgments reject every such mutant with `loop-aliases`, and
/// accept its original. The site is rare among a campaign's mutants (one
/// route of three for a unique entry parameter), so the kind is mutated
/// directly.
#[test]
fn loop_results_aliasing_an_outer_array_are_rejected_by_both_uniqueness_judgments() {
    use spec::diagnostic::codes::uniqueness::LOOP_ALIASES;
    let config = GenConfig {
        modules: false,
        ..GenConfig::default()
    };
    let kind = MutationKind::LoopResultAliasesAnOuterArray;
    let mut rejected = 0;
    for seed in 0..budget().loop_aliases {
        let original = generate(seed, &config);
        let Some(mutant) = mutate_kind(&original, kind, seed as u32, &config) else {
            continue;
        };
        assert_eq!(mutant.kind, kind);
        let source = mutant.program.source();
        let expected = Some(LOOP_ALIASES.to_string());
        assert_eq!(
            fuzz::oracles::uniqueness_codes(&source),
            (expected.clone(), expected),
            "seed {seed}\n{source}"
        );
        assert_eq!(
            examine_verdict(&original.source(), Expected::Accept),
            Outcome::Agree { valid: true },
            "seed {seed}: the original\n{}",
            original.source()
        );
        rejected += 1;
    }
    assert!(rejected >= 10, "only {rejected} loop mutants");
}

/// The optimisation oracle (`fuzz::oracles::optimisation`) on the value
/// oracle's four kinds of program, with short and with long arrays: every
/// program's constant operators are folded and both checkers reject its
/// broken forms, every pass of the default pipeline changes some program,
/// and the CPU backend vectorises some SOAC. The value campaigns cannot
/// see a pass that stops firing (the values stay the same): the mutation
/// score counted such mutants as equivalent before this oracle
/// (`fuzz/findings/mutation_score.md`, fifth round).
#[test]
fn optimisations_fire_on_generated_programs() {
    let budget = budget();
    let mut evidence = OptimisationEvidence::default();
    let mut rejected = 0;
    for seed in SEEDS.into_iter().take(budget.seeds) {
        for long_arrays in [false, true] {
            let base = GenConfig {
                long_arrays,
                ..GenConfig::default()
            };
            for index in 0..budget.optimisation {
                let item = DefuncItem::of_index(index);
                let program = generate(seed * 1_000_000 + index, &item.gen(&base));
                let source = program.source();
                let compiled =
                    fuzz::oracles::value::optimized_compile(&source, item.or_conditionals());
                let Ok(compiled) = compiled else {
                    rejected += 1;
                    continue;
                };
                if let Err(defect) = evidence.add(&compiled.compiled) {
                    panic!("seed {seed}, program {index}: {defect}\n{source}");
                }
            }
        }
    }
    let programs = budget.seeds as u64 * 2 * budget.optimisation;
    assert!(
        rejected * 10 <= programs,
        "{rejected} of {programs} generated programs not compiled"
    );
    assert!(
        evidence.passes_that_never_fired().is_empty(),
        "{evidence:?}"
    );
    assert!(evidence.backend.vectorised > 0, "{evidence:?}");
    // Flattening reaches generated programs: every kind of segmented
    // operation, and perfect nests of two levels or more.
    let segmented = evidence.segmented;
    assert!(
        segmented.maps > 0 && segmented.reductions > 0 && segmented.scans > 0,
        "{evidence:?}"
    );
    assert!(segmented.deepest_space >= 2, "{evidence:?}");
    assert!(
        evidence.checker_probes_skipped * 2 <= evidence.programs,
        "{evidence:?}"
    );
    eprintln!("{evidence:?}");
}
