//! The evaluation machinery shared by λC and λA (§6.3, Def. 6.2): a calculus
//! provides `decide`, which looks at the head of a term and says which rule of
//! Fig. 6.3 (or which induced primitive rule, App. B/C) applies — a contraction,
//! a congruence into the subterm at a path, or that the term is a value (WHNF)
//! or stuck (⊥: a violated precondition or an explicit `bottom`).
//!
//! Two drivers share `decide`:
//! - [`SmallStep`]: the literal call-by-name small-step relation `e → e'`
//!   without sharing; `→*` iterated under a fuel bound.
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

/// The small-step driver: `→*` to WHNF under a fuel bound.
pub struct SmallStep<C: Calculus> {
    pub fuel: u64,
    pub used: u64,
    /// Wall-clock bound: each literal step rebuilds and re-inspects the path
    /// to its redex, so the small-step driver is slow on large terms; running
    /// past the deadline counts as running out of fuel (unknown).
    pub deadline: Option<std::time::Instant>,
    marker: std::marker::PhantomData<C>,
}

impl<C: Calculus> SmallStep<C> {
    pub fn new(fuel: u64) -> Self {
        SmallStep {
            fuel,
            used: 0,
            deadline: None,
            marker: std::marker::PhantomData,
        }
    }

    pub fn with_deadline(fuel: u64, time: std::time::Duration) -> Self {
        SmallStep {
            deadline: Some(std::time::Instant::now() + time),
            ..SmallStep::new(fuel)
        }
    }
}

impl<C: Calculus> Evaluator<C::Term> for SmallStep<C> {
    fn whnf(&mut self, term: &C::Term) -> Result<C::Term, Stop> {
        let mut current = term.clone();
        loop {
            if self.used >= self.fuel {
                return Err(Stop::OutOfFuel);
            }
            if self.used % 64 == 0 && self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
                return Err(Stop::OutOfFuel);
            }
            match step::<C>(&current)? {
                None => return Ok(current),
                Some(next) => {
                    self.used += 1;
                    current = next;
                }
            }
        }
    }
    fn steps(&self) -> u64 {
        self.used
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
