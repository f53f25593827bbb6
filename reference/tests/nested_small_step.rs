//! The small-step driver (`machine::SmallStep`): refocusing and replays give
//! the relation's results and step counts, and the refocusing check can fail.
//!
//! - On every `tests/nested` program, λC and λA: the driver with replays and
//!   the one that takes every step observe the same value in the same number
//!   of the relation's steps, wherever that number is within the fuel.
//! - On a toy calculus whose congruence rule changes its mind while the hole
//!   is not a value (no unique decomposition), `whnf_checked` names the step
//!   where refocusing leaves the relation; on one that keeps it, it finds none.

use reference::nested::closure_conversion::convert_program;
use reference::nested::flatten::vectorise;
use reference::nested::machine::{
    with_large_stack, Calculus, Decision, Evaluator, SmallStep, Stop,
};
use reference::nested::observation::Observation;
use reference::nested::pipeline::front_end;
use reference::nested::readback::{readback_a, readback_c, Readback};
use reference::nested::reduce_a::LambdaA;
use reference::nested::reduce_c::LambdaC;
use reference::nested::typing_c;
use spec::source::SourceMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Steps the driver without replays may take per side.
const FUEL: u64 = 6_000_000;

fn programs() -> Vec<PathBuf> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/nested");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&directory)
        .expect("tests/nested exists")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "lp"))
        .collect();
    files.sort();
    files
}

/// One side's comparison: `None` when they agree (or the relation is longer
/// than [`FUEL`]), else what differs.
fn compare(
    side: &str,
    replayed: (String, u64),
    every_step: (String, u64),
    finished: bool,
) -> Option<String> {
    if replayed.1 > FUEL {
        return None;
    }
    if !finished {
        return Some(format!(
            "{side}: replays count {} steps, but taking every step ran out of {FUEL}",
            replayed.1
        ));
    }
    (replayed != every_step).then(|| {
        format!(
            "{side}: with replays {} in {} steps, taking every step {} in {} steps",
            replayed.0, replayed.1, every_step.0, every_step.1
        )
    })
}

/// Reads one side back with replays and taking every step: the difference,
/// if any, and whether taking every step finished within [`FUEL`].
fn one_side<C: Calculus>(
    label: String,
    read: impl Fn(&mut SmallStep<C>) -> Readback<Observation>,
) -> (Option<String>, bool) {
    let show = |read: Readback<Observation>| match read {
        Ok(observation) => observation.to_string(),
        Err(error) => format!("{error:?}"),
    };
    let mut replaying = SmallStep::<C>::new(u64::MAX);
    let replayed = show(read(&mut replaying));
    let mut every = SmallStep::<C>::without_replays(FUEL);
    let taken = show(read(&mut every));
    let finished = every.steps() < FUEL;
    let difference = compare(
        &label,
        (replayed, replaying.relation_steps),
        (taken, every.relation_steps),
        finished,
    );
    (difference, finished)
}

/// Runs one program's λC and λA sides both ways; returns the differences and
/// how many sides were compared in full.
fn replays_against_every_step(path: &Path) -> (Vec<String>, usize) {
    let text = std::fs::read_to_string(path).expect("readable program");
    let name = path.display().to_string();
    with_large_stack(move || {
        let mut sources = SourceMap::new();
        let file = sources.add(name.clone(), text.clone());
        let program = front_end(file, &text).expect("the example is a λP program");
        let annotated =
            typing_c::check_program(&convert_program(&program)).expect("closure conversion");
        let ty = annotated.ty().clone();
        let flattened = vectorise(&annotated);
        let sides = [
            one_side::<LambdaC>(format!("{name} λC"), |driver| {
                readback_c(driver, &annotated, &ty)
            }),
            one_side::<LambdaA>(format!("{name} λA"), |driver| {
                readback_a(driver, &flattened, &ty)
            }),
        ];
        let compared = sides.iter().filter(|(_, finished)| *finished).count();
        let differences = sides.into_iter().filter_map(|(found, _)| found).collect();
        (differences, compared)
    })
}

#[test]
fn replays_give_the_relations_value_in_the_relations_number_of_steps() {
    let files = programs();
    let mut differences = Vec::new();
    let mut compared = 0;
    for file in &files {
        let (found, sides) = replays_against_every_step(file);
        differences.extend(found);
        compared += sides;
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    // Only the thesis' quicksort is longer than the fuel (by name, its λC
    // side alone takes billions of steps).
    assert!(
        compared + 2 >= 2 * files.len(),
        "only {compared} of {} sides were compared in full",
        2 * files.len()
    );
}

// ---- a toy calculus: `Tick n` counts down; `Pair` reduces its halves ----

/// `Tick n` contracts to `Tick (n − 1)` until it is the value `Tick 0`.
/// `Pair a b` reduces `a`, then `b`; it is a value when both are. With
/// `fickle`, `Pair` reduces whichever half has the larger count — a choice
/// that changes while the hole is still not a value.
#[derive(Clone, Debug)]
struct Toy(Rc<Node>);

#[derive(Debug)]
enum Node {
    Tick(u32),
    Pair { fickle: bool, halves: [Toy; 2] },
}

impl PartialEq for Toy {
    fn eq(&self, other: &Toy) -> bool {
        match (&*self.0, &*other.0) {
            (Node::Tick(a), Node::Tick(b)) => a == b,
            (
                Node::Pair {
                    fickle: f,
                    halves: a,
                },
                Node::Pair {
                    fickle: g,
                    halves: b,
                },
            ) => f == g && a == b,
            _ => false,
        }
    }
}

impl fmt::Display for Toy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            Node::Tick(n) => write!(f, "{n}"),
            Node::Pair { halves: [a, b], .. } => write!(f, "({a}, {b})"),
        }
    }
}

fn tick(n: u32) -> Toy {
    Toy(Rc::new(Node::Tick(n)))
}

fn pair(fickle: bool, a: Toy, b: Toy) -> Toy {
    Toy(Rc::new(Node::Pair {
        fickle,
        halves: [a, b],
    }))
}

fn count(t: &Toy) -> u32 {
    match &*t.0 {
        Node::Tick(n) => *n,
        Node::Pair { .. } => u32::MAX,
    }
}

struct ToyCalculus;

impl Calculus for ToyCalculus {
    type Term = Toy;
    fn decide(term: &Toy) -> Decision<Toy> {
        match &*term.0 {
            Node::Tick(0) => Decision::Value,
            Node::Tick(n) => Decision::Contract(tick(n - 1)),
            Node::Pair { fickle, halves } => {
                let pending: Vec<usize> = (0..2)
                    .filter(|&i| !matches!(Self::decide(&halves[i]), Decision::Value))
                    .collect();
                match pending.as_slice() {
                    [] => Decision::Value,
                    [only] => Decision::Congruence(vec![*only]),
                    _ if *fickle && count(&halves[1]) > count(&halves[0]) => {
                        Decision::Congruence(vec![1])
                    }
                    _ => Decision::Congruence(vec![0]),
                }
            }
        }
    }
    fn id(term: &Toy) -> usize {
        Rc::as_ptr(&term.0) as usize
    }
    fn at_path(term: &Toy, path: &[usize]) -> Option<Toy> {
        match (path.split_first(), &*term.0) {
            (None, _) => Some(term.clone()),
            (Some((i, rest)), Node::Pair { halves, .. }) => Self::at_path(halves.get(*i)?, rest),
            _ => None,
        }
    }
    fn replace_at(term: &Toy, path: &[usize], replacement: Toy) -> Toy {
        match (path.split_first(), &*term.0) {
            (None, _) => replacement,
            (Some((i, rest)), Node::Pair { fickle, halves }) if *i < 2 => {
                let mut halves = halves.clone();
                halves[*i] = Self::replace_at(&halves[*i], rest, replacement);
                pair(*fickle, halves[0].clone(), halves[1].clone())
            }
            _ => term.clone(),
        }
    }
}

#[test]
fn the_refocusing_check_finds_a_congruence_that_changes_its_mind() {
    // (1, 2): the fickle pair reduces the 2 first; at (1, 1) the relation
    // goes back to the left half, while refocusing stays in the right one.
    let mut driver = SmallStep::<ToyCalculus>::without_replays(100);
    let checked = driver.whnf_checked(&pair(true, tick(1), tick(2)));
    let Err(difference) = checked else {
        panic!("the fickle pair passed the check: {checked:?}");
    };
    assert!(
        difference.contains("(0, 1)") && difference.contains("(1, 0)"),
        "the difference names both reducts of (1, 1): {difference}"
    );
}

#[test]
fn the_refocusing_check_passes_a_calculus_with_unique_decomposition() {
    let mut driver = SmallStep::<ToyCalculus>::without_replays(100);
    let term = pair(false, pair(false, tick(2), tick(1)), tick(3));
    let checked = driver.whnf_checked(&term);
    assert_eq!(
        checked,
        Ok(Ok(pair(false, pair(false, tick(0), tick(0)), tick(0))))
    );
    assert_eq!(driver.steps(), 6);
}

#[test]
fn a_congruence_into_a_value_is_stuck_as_in_the_relation() {
    // A pair that points at a half that is already a value: the relation
    // is stuck there, and so is the driver, with the relation's reason.
    struct PointsAtValues;
    impl Calculus for PointsAtValues {
        type Term = Toy;
        fn decide(term: &Toy) -> Decision<Toy> {
            match &*term.0 {
                Node::Pair { .. } => Decision::Congruence(vec![0]),
                _ => ToyCalculus::decide(term),
            }
        }
        fn id(term: &Toy) -> usize {
            ToyCalculus::id(term)
        }
        fn at_path(term: &Toy, path: &[usize]) -> Option<Toy> {
            ToyCalculus::at_path(term, path)
        }
        fn replace_at(term: &Toy, path: &[usize], replacement: Toy) -> Toy {
            ToyCalculus::replace_at(term, path, replacement)
        }
    }
    // `whnf_checked` compares the driver's stop with the relation's, so
    // agreeing on ⊥ here means agreeing on where and why.
    let mut driver = SmallStep::<PointsAtValues>::without_replays(100);
    let checked = driver.whnf_checked(&pair(false, tick(1), tick(0)));
    assert!(matches!(&checked, Ok(Err(Stop::Bottom(_)))), "{checked:?}");
    assert_eq!(
        driver.steps(),
        1,
        "the left half stepped once, then was a value"
    );
}
