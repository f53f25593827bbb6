//! The campaign machinery shared by every oracle: a pool of worker threads
//! that examine items `0, 1, 2, …` (each a pure function of the campaign's
//! seed and its index, so results do not depend on `--jobs`), stop after a
//! count or a duration, and hand their results to the calling thread, which
//! folds them and reports progress every `interval`; and shrinking of a
//! proptest value tree while a failure persists.

use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How long and how wide a campaign runs.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The first item's index (items `start..start + count`; 0 for a whole
    /// campaign, another to rerun the items past a given one).
    pub start: u64,
    /// Stop after this many items…
    pub count: Option<u64>,
    /// …or after this long.
    pub time: Option<Duration>,
    pub jobs: usize,
}

/// A ChaCha RNG seeded with `(seed, index, tag)` alone.
pub fn rng_for(seed: u64, index: u64, tag: &[u8; 8]) -> TestRng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    bytes[16..24].copy_from_slice(tag);
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// A proptest runner for item `index` of a campaign.
pub fn runner_for(seed: u64, index: u64, tag: &[u8; 8]) -> TestRunner {
    TestRunner::new_with_rng(Config::default(), rng_for(seed, index, tag))
}

/// Runs `work` on items `limits.start..` with `limits.jobs` threads (large stacks); the
/// calling thread passes each result to `fold` (in completion order) and
/// calls `on_progress` with the elapsed time every `interval`. Returns the
/// total elapsed time.
pub fn run_pool<M: Send + 'static>(
    limits: Limits,
    interval: Duration,
    work: impl Fn(u64) -> M + Send + Sync + 'static,
    mut fold: impl FnMut(M),
    mut on_progress: impl FnMut(Duration),
) -> Duration {
    let start = Instant::now();
    let work = Arc::new(work);
    let next_index = Arc::new(AtomicU64::new(limits.start));
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = mpsc::channel();
    let mut workers = Vec::new();
    for _ in 0..limits.jobs.max(1) {
        let (work, next_index, stop, sender) = (
            work.clone(),
            next_index.clone(),
            stop.clone(),
            sender.clone(),
        );
        let worker = std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let index = next_index.fetch_add(1, Ordering::Relaxed);
                if limits
                    .count
                    .is_some_and(|count| index >= limits.start.saturating_add(count))
                {
                    break;
                }
                if limits.time.is_some_and(|time| start.elapsed() >= time) {
                    break;
                }
                if sender.send(work(index)).is_err() {
                    break;
                }
            })
            .expect("spawning a campaign worker");
        workers.push(worker);
    }
    drop(sender);
    let mut last_report = Instant::now();
    loop {
        match receiver.recv_timeout(Duration::from_millis(200)) {
            Ok(message) => fold(message),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if limits.time.is_some_and(|time| start.elapsed() >= time) {
            stop.store(true, Ordering::Relaxed);
        }
        if last_report.elapsed() >= interval {
            on_progress(start.elapsed());
            last_report = Instant::now();
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    start.elapsed()
}

/// Proptest's shrinking of a value tree while `fails` keeps answering
/// `Some(message)`: the smallest failing value found (at most 300 steps)
/// and its message.
pub fn shrink_while<V: ValueTree>(
    tree: &mut V,
    fails: impl Fn(&V::Value) -> Option<String>,
) -> (V::Value, String) {
    shrink_while_steps(tree, 300, fails)
}

/// [`shrink_while`] with at most `steps` shrinking steps.
pub fn shrink_while_steps<V: ValueTree>(
    tree: &mut V,
    steps: usize,
    fails: impl Fn(&V::Value) -> Option<String>,
) -> (V::Value, String) {
    let mut best = tree.current();
    let mut message = fails(&best).unwrap_or_default();
    for _ in 0..steps {
        if !tree.simplify() {
            break;
        }
        let candidate = tree.current();
        match fails(&candidate) {
            Some(why) => {
                best = candidate;
                message = why;
            }
            None => {
                if !tree.complicate() {
                    break;
                }
            }
        }
    }
    (best, message)
}
