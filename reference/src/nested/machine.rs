//! The evaluation machinery shared by λC and λA (§6.3, Def. 6.2): a calculus
//! provides `decide`, which looks at the head of a term and says which rule of
//! Fig. 6.3 (or which induced primitive rule, App. B/C) applies — a contraction,
//! a congruence into the subterm at a path, or that the term is a value (WHNF)
//! or stuck (⊥: a violated precondition or an explicit `bottom`).
//!
//! Two drivers share `decide`:
//! - [`SmallStep`]: the literal call-by-name small-step relation `e → e'`
//!   without sharing; `→*` iterated under a fuel bound, by refocusing (the
//!   evaluation context is kept between steps) and checked against [`step`].
//! - [`ByNeed`]: the same rules with sharing: terms are DAGs, substitution
//!   shares the argument, and every subterm reduced to WHNF is memoised by
//!   identity, so each shared thunk is reduced once. It is checked against
//!   [`SmallStep`] on small terms (`theorems::check_by_need_agrees`).
//!
//! Fuel counts contractions. Running out of fuel or of depth is *unknown*, never
//! a verdict (guide P1).

use spec::memory::MemoryLimit;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// What the head of a term calls for.
pub enum Decision<T> {
    /// The term is a value (WHNF).
    Value,
    /// A contraction to this term.
    Contract(T),
    /// Reduce the (non-value) subterm at this path first.
    Congruence(Vec<usize>),
    /// Stuck: ⊥.
    Bottom(String),
    /// The contraction would build an array past the memory limit
    /// ([`admit_elements`]): no result (unknown), never ⊥.
    Limit(String),
    /// A λA term applies `▷`, which the thesis defines only as a λC
    /// reasoning device (SPEC_NOTES L05-21): no result (unknown), never ⊥.
    Impose,
}

impl<T> Decision<T> {
    /// Prefixes a congruence path (a primitive decides relative to its argument).
    pub fn under(self, prefix: usize) -> Decision<T> {
        match self {
            Decision::Congruence(mut path) => {
                path.insert(0, prefix);
                Decision::Congruence(path)
            }
            other => other,
        }
    }
}

/// Why evaluation stopped without a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The term is ⊥ (stuck on a violated precondition or `bottom`).
    Bottom(String),
    /// Fuel exhausted: unknown.
    OutOfFuel,
    /// Evaluation nested too deeply: unknown.
    TooDeep,
    /// An array past the memory limit was asked for: unknown.
    MemoryLimit(String),
    /// λA evaluation needed `▷` ([`Decision::Impose`]): unknown.
    Impose,
}

/// The bytes one materialised array element is counted as where it is a term
/// (a λC element, an index term): an estimate of a term node with its `Rc`
/// header, so that the limit refuses absurd requests before they allocate.
pub const TERM_ELEMENT_BYTES: u64 = 64;

/// Whether an array of `elements` elements of `element_bytes` bytes each may
/// be built now, under [`memory_limit`] (`spec::memory`'s admission, as every
/// other implementation honours it): `repP⟨10000000000, 1⟩` in a λA kernel or
/// a λC primitive that tabulates it stops with [`Decision::Limit`] instead of
/// an allocation failure.
pub fn admit_elements<T>(elements: i64, element_bytes: u64) -> Result<(), Decision<T>> {
    let elements = u64::try_from(elements.max(0)).unwrap_or(0);
    memory_limit()
        .admit(elements, element_bytes)
        .map_err(|exceeded| Decision::Limit(exceeded.to_string()))
}

/// The limit set by [`set_memory_limit`] (`runestone nested --memory-limit`),
/// in bytes; 0 while unset.
static MEMORY_LIMIT_BYTES: AtomicU64 = AtomicU64::new(0);

/// Sets the memory limit of every λC and λA evaluation of this process (the
/// primitives decide without a context, so the limit is process-wide, like
/// the memory it protects).
pub fn set_memory_limit(limit: MemoryLimit) {
    MEMORY_LIMIT_BYTES.store(limit.bytes(), Ordering::Relaxed);
}

/// The memory limit the evaluations honour: the one set, or half of this
/// machine's memory.
pub fn memory_limit() -> MemoryLimit {
    match MEMORY_LIMIT_BYTES.load(Ordering::Relaxed) {
        0 => MemoryLimit::of_this_machine(),
        bytes => MemoryLimit::from_bytes(bytes),
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Bottom(reason) => write!(f, "_|_ ({reason})"),
            Stop::OutOfFuel => f.write_str("fuel exhausted"),
            Stop::TooDeep => f.write_str("evaluation too deep"),
            Stop::MemoryLimit(reason) => f.write_str(reason),
            Stop::Impose => f.write_str("λA needs ▷, which only λC defines"),
        }
    }
}

impl Stop {
    pub fn is_unknown(&self) -> bool {
        !matches!(self, Stop::Bottom(_))
    }
}

/// A calculus: its terms and its `decide`.
pub trait Calculus {
    type Term: Clone;
    fn decide(term: &Self::Term) -> Decision<Self::Term>;
    fn id(term: &Self::Term) -> usize;
    fn at_path(term: &Self::Term, path: &[usize]) -> Option<Self::Term>;
    fn replace_at(term: &Self::Term, path: &[usize], replacement: Self::Term) -> Self::Term;
}

/// An evaluator to weak head normal form.
pub trait Evaluator<T> {
    fn whnf(&mut self, term: &T) -> Result<T, Stop>;
    /// Contractions performed so far.
    fn steps(&self) -> u64;
}

/// `e → e'` (one step), or `None` when `e` is a value.
pub fn step<C: Calculus>(term: &C::Term) -> Result<Option<C::Term>, Stop> {
    match C::decide(term) {
        Decision::Value => Ok(None),
        Decision::Contract(next) => Ok(Some(next)),
        Decision::Bottom(reason) => Err(Stop::Bottom(reason)),
        Decision::Limit(reason) => Err(Stop::MemoryLimit(reason)),
        Decision::Impose => Err(Stop::Impose),
        Decision::Congruence(path) => {
            let child = C::at_path(term, &path)
                .ok_or_else(|| Stop::Bottom("congruence into a missing subterm".into()))?;
            match step::<C>(&child)? {
                Some(next_child) => Ok(Some(C::replace_at(term, &path, next_child))),
                None => Err(Stop::Bottom(
                    "a congruence rule pointed at a value (no rule applies)".into(),
                )),
            }
        }
    }
}

/// The small-step driver: `→*` to WHNF under a fuel bound, by refocusing
/// (Danvy & Nielsen 2004): the term is kept as a focus and its evaluation
/// context, a stack of [`Frame`]s from the root, so a step costs its
/// contraction and not a walk from the root and a rebuild of the path to the
/// redex. The sequence of reducts is the literal relation's — `→` is
/// deterministic and every congruence rule of Fig. 6.3 / App. B–C keeps
/// choosing the same subterm while that subterm is not a value (unique
/// decomposition), which is what lets the context stay put between steps.
/// That property is itself checked: [`SmallStep::whnf_checked`] also takes
/// every step with [`step`] from the root and compares the reducts.
///
/// Call by name shares nothing: `(λ•. • + •) e` reduces `e` twice, and the
/// thesis' `quicksort` takes more than 10⁸ steps. The driver therefore
/// *replays*: the relation is deterministic and a hole is a closed term, so
/// once a hole `t` has reduced to its WHNF `v` in `k` steps, every later
/// hole that is the same term (the same node: substitution shares its
/// argument) reduces to `v` in the same `k` steps, in any context. A replay
/// plugs `v` and adds `k` to [`SmallStep::relation_steps`] without taking the
/// steps; `used`, which the fuel bounds, counts the contractions taken. This
/// rests on determinism alone — not on call by need being sound, which is
/// what the driver is compared with `ByNeed` to check.
pub struct SmallStep<C: Calculus> {
    pub fuel: u64,
    /// Contractions taken.
    pub used: u64,
    /// The length of the relation's reduction sequences, replays included
    /// (saturating: call by name can be exponentially long).
    pub relation_steps: u64,
    /// Wall-clock bound; running past it counts as running out of fuel
    /// (unknown).
    pub deadline: Option<std::time::Instant>,
    /// Hole identity ↦ (the hole, kept alive so the identity stays unique;
    /// its WHNF; the relation's steps to it). `None`: no replays
    /// ([`CheckedSmallStep`], which compares single steps).
    replays: Option<HashMap<usize, Replay<C::Term>>>,
    marker: std::marker::PhantomData<C>,
}

/// A hole that reduced to its WHNF, and how many steps of the relation that
/// took.
struct Replay<T> {
    _hole: T,
    whnf: T,
    relation_steps: u64,
}

/// One layer of an evaluation context: a term whose decision was a
/// congruence into the subterm at `path` (the hole), the hole as it was
/// entered, and the relation's step count then.
pub struct Frame<T> {
    around: T,
    path: Vec<usize>,
    hole: T,
    relation_steps_at_entry: u64,
}

/// The term a context and its focus stand for: the focus plugged into every
/// frame's hole, innermost first.
fn plug<C: Calculus>(context: &[Frame<C::Term>], focus: &C::Term) -> C::Term {
    context.iter().rev().fold(focus.clone(), |inner, frame| {
        C::replace_at(&frame.around, &frame.path, inner)
    })
}

impl<C: Calculus> SmallStep<C> {
    pub fn new(fuel: u64) -> Self {
        SmallStep {
            fuel,
            used: 0,
            relation_steps: 0,
            deadline: None,
            replays: Some(HashMap::new()),
            marker: std::marker::PhantomData,
        }
    }

    pub fn with_deadline(fuel: u64, time: std::time::Duration) -> Self {
        SmallStep {
            deadline: Some(std::time::Instant::now() + time),
            ..SmallStep::new(fuel)
        }
    }

    /// A driver that takes every step (no replays).
    pub fn without_replays(fuel: u64) -> Self {
        SmallStep {
            replays: None,
            ..SmallStep::new(fuel)
        }
    }

    fn out_of_time(&self) -> bool {
        self.used % 64 == 0 && self.deadline.is_some_and(|d| std::time::Instant::now() > d)
    }

    /// The recorded WHNF of `hole`, if it was reduced before.
    fn replay(&mut self, hole: &C::Term) -> Option<C::Term> {
        let replay = self.replays.as_ref()?.get(&C::id(hole))?;
        self.relation_steps = self.relation_steps.saturating_add(replay.relation_steps);
        Some(replay.whnf.clone())
    }

    /// Records that `hole` reduced to `whnf`, if that took steps (a hole
    /// that is a value is stuck, never replayed).
    fn record(&mut self, hole: C::Term, whnf: &C::Term, relation_steps_at_entry: u64) {
        if self.relation_steps == relation_steps_at_entry {
            return;
        }
        if let Some(replays) = &mut self.replays {
            replays.insert(
                C::id(&hole),
                Replay {
                    _hole: hole,
                    whnf: whnf.clone(),
                    relation_steps: self.relation_steps - relation_steps_at_entry,
                },
            );
        }
    }

    /// `→*` to WHNF; `on_step(context, focus, next)` sees every contraction
    /// (`next = Ok(contractum)`) before it is taken, and the stop where the
    /// relation is stuck (`next = Err(stop)`), and may end the run (`Err(E)`).
    fn drive<E>(
        &mut self,
        term: &C::Term,
        mut on_step: impl FnMut(&[Frame<C::Term>], &C::Term, Result<&C::Term, &Stop>) -> Result<(), E>,
    ) -> Result<Result<C::Term, Stop>, E> {
        if let Some(whnf) = self.replay(term) {
            return Ok(Ok(whnf));
        }
        let relation_steps_at_start = self.relation_steps;
        let mut context: Vec<Frame<C::Term>> = Vec::new();
        let mut focus = term.clone();
        // Whether `focus` was reached by a congruence and has not stepped
        // yet: a congruence rule that points at a value is stuck, as in
        // [`step`].
        let mut entered = false;
        let (stuck_at, stop) = loop {
            match C::decide(&focus) {
                Decision::Value if entered => {
                    // The term whose rule pointed here is the hole's frame.
                    let stop = Stop::Bottom(
                        "a congruence rule pointed at a value (no rule applies)".into(),
                    );
                    match context.pop() {
                        Some(frame) => break (frame.around, stop),
                        None => break (focus, stop),
                    }
                }
                Decision::Value => match context.pop() {
                    None => {
                        self.record(term.clone(), &focus, relation_steps_at_start);
                        return Ok(Ok(focus));
                    }
                    Some(frame) => {
                        self.record(frame.hole, &focus, frame.relation_steps_at_entry);
                        focus = C::replace_at(&frame.around, &frame.path, focus);
                    }
                },
                Decision::Contract(next) => {
                    if self.used >= self.fuel || self.out_of_time() {
                        return Ok(Err(Stop::OutOfFuel));
                    }
                    on_step(&context, &focus, Ok(&next))?;
                    self.used += 1;
                    self.relation_steps = self.relation_steps.saturating_add(1);
                    focus = next;
                    entered = false;
                }
                Decision::Congruence(path) => {
                    let Some(hole) = C::at_path(&focus, &path) else {
                        break (
                            focus,
                            Stop::Bottom("congruence into a missing subterm".into()),
                        );
                    };
                    if let Some(whnf) = self.replay(&hole) {
                        // The steps it stands for were taken in this focus.
                        focus = C::replace_at(&focus, &path, whnf);
                        entered = false;
                        continue;
                    }
                    context.push(Frame {
                        around: focus,
                        path,
                        hole: hole.clone(),
                        relation_steps_at_entry: self.relation_steps,
                    });
                    focus = hole;
                    entered = true;
                }
                Decision::Bottom(reason) => break (focus, Stop::Bottom(reason)),
                Decision::Limit(reason) => break (focus, Stop::MemoryLimit(reason)),
                Decision::Impose => break (focus, Stop::Impose),
            }
        };
        on_step(&context, &stuck_at, Err(&stop))?;
        Ok(Err(stop))
    }
}

impl<C: Calculus> SmallStep<C>
where
    C::Term: PartialEq + std::fmt::Display,
{
    /// `→*` to WHNF, taking every step also with [`step`] from the root:
    /// `Err` names the first step where the refocused reduct differs from the
    /// relation's.
    pub fn whnf_checked(&mut self, term: &C::Term) -> Result<Result<C::Term, Stop>, String> {
        self.drive(term, |context, focus, next| {
            let before = plug::<C>(context, focus);
            match (step::<C>(&before), next) {
                (Ok(Some(literal)), Ok(contractum)) => {
                    let after = plug::<C>(context, contractum);
                    if literal == after {
                        Ok(())
                    } else {
                        Err(format!(
                            "from `{before}` the relation steps to `{literal}`, refocusing to `{after}`"
                        ))
                    }
                }
                (Err(literal), Err(refocused)) if literal == *refocused => Ok(()),
                (literal, refocused) => Err(format!(
                    "from `{before}` the relation gives {literal}, refocusing {refocused}",
                    literal = match literal {
                        Ok(Some(reduct)) => format!("`{reduct}`"),
                        Ok(None) => "a value".into(),
                        Err(stop) => stop.to_string(),
                    },
                    refocused = match refocused {
                        Ok(contractum) => format!("`{}`", plug::<C>(context, contractum)),
                        Err(stop) => stop.to_string(),
                    }
                )),
            }
        })
    }
}

impl<C: Calculus> Evaluator<C::Term> for SmallStep<C> {
    fn whnf(&mut self, term: &C::Term) -> Result<C::Term, Stop> {
        match self.drive(term, |_, _, _| Ok::<(), std::convert::Infallible>(())) {
            Ok(outcome) => outcome,
            Err(never) => match never {},
        }
    }
    fn steps(&self) -> u64 {
        self.used
    }
}

/// [`SmallStep`] with every step checked against the relation
/// ([`SmallStep::whnf_checked`]), as an [`Evaluator`] (so a whole readback can
/// run on it): the first difference is kept in `difference` and ends the run
/// (every later `whnf` stops with [`Stop::OutOfFuel`]; read `difference`, not
/// the observation).
pub struct CheckedSmallStep<C: Calculus> {
    pub driver: SmallStep<C>,
    pub difference: Option<String>,
}

impl<C: Calculus> CheckedSmallStep<C> {
    pub fn new(fuel: u64) -> Self {
        CheckedSmallStep {
            driver: SmallStep::without_replays(fuel),
            difference: None,
        }
    }
}

impl<C: Calculus> Evaluator<C::Term> for CheckedSmallStep<C>
where
    C::Term: PartialEq + std::fmt::Display,
{
    fn whnf(&mut self, term: &C::Term) -> Result<C::Term, Stop> {
        if self.difference.is_some() {
            return Err(Stop::OutOfFuel);
        }
        match self.driver.whnf_checked(term) {
            Ok(outcome) => outcome,
            Err(difference) => {
                self.difference = Some(difference);
                Err(Stop::OutOfFuel)
            }
        }
    }
    fn steps(&self) -> u64 {
        self.driver.used
    }
}

/// Maximum nesting of forced subterms before evaluation gives up (unknown).
pub const MAX_DEPTH: usize = 20_000;

/// A memoised term (kept alive so its identity stays unique) and its WHNF or ⊥.
type Memo<T> = (T, Result<T, String>);

/// The call-by-need driver.
pub struct ByNeed<C: Calculus> {
    pub fuel: u64,
    pub used: u64,
    depth: usize,
    /// Memo: term identity ↦ (the term, kept alive so the identity stays
    /// unique; its WHNF or ⊥).
    memo: HashMap<usize, Memo<C::Term>>,
}

impl<C: Calculus> ByNeed<C> {
    pub fn new(fuel: u64) -> Self {
        ByNeed {
            fuel,
            used: 0,
            depth: 0,
            memo: HashMap::new(),
        }
    }

    fn remember(&mut self, chain: Vec<C::Term>, result: &Result<C::Term, String>) {
        for term in chain {
            self.memo.insert(C::id(&term), (term, result.clone()));
        }
    }
}

impl<C: Calculus> Evaluator<C::Term> for ByNeed<C> {
    fn whnf(&mut self, term: &C::Term) -> Result<C::Term, Stop> {
        if let Some((_, done)) = self.memo.get(&C::id(term)) {
            return done.clone().map_err(Stop::Bottom);
        }
        if self.depth >= MAX_DEPTH {
            return Err(Stop::TooDeep);
        }
        self.depth += 1;
        let mut chain = vec![term.clone()];
        let mut current = term.clone();
        let outcome = loop {
            if let Some((_, done)) = self.memo.get(&C::id(&current)) {
                break done.clone();
            }
            match C::decide(&current) {
                Decision::Value => break Ok(current.clone()),
                Decision::Bottom(reason) => break Err(reason),
                Decision::Limit(reason) => {
                    self.depth -= 1;
                    return Err(Stop::MemoryLimit(reason));
                }
                Decision::Impose => {
                    self.depth -= 1;
                    return Err(Stop::Impose);
                }
                Decision::Contract(next) => {
                    if self.used >= self.fuel {
                        self.depth -= 1;
                        return Err(Stop::OutOfFuel);
                    }
                    self.used += 1;
                    chain.push(next.clone());
                    current = next;
                }
                Decision::Congruence(path) => {
                    let Some(child) = C::at_path(&current, &path) else {
                        break Err("congruence into a missing subterm".into());
                    };
                    match self.whnf(&child) {
                        Ok(value) => {
                            if C::id(&value) == C::id(&child) {
                                break Err("a congruence rule pointed at a value".into());
                            }
                            current = C::replace_at(&current, &path, value);
                            chain.push(current.clone());
                        }
                        Err(Stop::Bottom(reason)) => break Err(reason),
                        Err(unknown) => {
                            self.depth -= 1;
                            return Err(unknown);
                        }
                    }
                }
            }
        };
        self.depth -= 1;
        self.remember(chain, &outcome);
        outcome.map_err(Stop::Bottom)
    }
    fn steps(&self) -> u64 {
        self.used
    }
}

/// Runs `work` on a thread with a large stack (the judgments and evaluators are
/// recursive over terms), returning its result.
pub fn with_large_stack<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> R {
    let handle = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(work)
        .expect("spawning an evaluation thread");
    match handle.join() {
        Ok(result) => result,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}
