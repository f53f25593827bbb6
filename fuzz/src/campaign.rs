//! The campaign machinery shared by every oracle: a pool of worker threads
//! that examine items `0, 1, 2, …` (each a pure function of the campaign's
//! seed and its index, so results do not depend on `--jobs`), stop after a
//! count or a duration, and hand their results to the calling thread, which
//! folds them and reports progress every `interval`; and shrinking of a
//! proptest value tree while a failure persists.
//!
//! A timed campaign ends within [`Limits::grace_after_time`] of its time,
//! whatever its workers are doing: items still being examined then are
//! abandoned (counted, not folded; their threads run on until they finish or
//! the process ends). Issue 27: `runestone fuzz --oracle gpu --time 45s` was
//! still running 45 s after its budget, one job shrinking a counterexample.

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
    /// How long a timed campaign waits, once its time is up, for the items
    /// its workers are still examining ([`GRACE_AFTER_TIME`] by default).
    pub grace_after_time: Duration,
}

/// How long a timed campaign waits for items in flight after its time.
pub const GRACE_AFTER_TIME: Duration = Duration::from_secs(5);

/// How a pool of workers ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolEnd {
    pub elapsed: Duration,
    /// Items still being examined when the grace period after the time ran
    /// out: their results were not folded.
    pub abandoned: u64,
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
/// total elapsed time and how many items were abandoned: a timed pool stops
/// waiting [`Limits::grace_after_time`] after its time.
pub fn run_pool<M: Send + 'static>(
    limits: Limits,
    interval: Duration,
    work: impl Fn(u64) -> M + Send + Sync + 'static,
    mut fold: impl FnMut(M),
    mut on_progress: impl FnMut(Duration),
) -> PoolEnd {
    let start = Instant::now();
    let work = Arc::new(work);
    let next_index = Arc::new(AtomicU64::new(limits.start));
    let stop = Arc::new(AtomicBool::new(false));
    let dispatched = Arc::new(AtomicU64::new(0));
    let (sender, receiver) = mpsc::channel();
    let mut workers = Vec::new();
    for _ in 0..limits.jobs.max(1) {
        let (work, next_index, stop, dispatched, sender) = (
            work.clone(),
            next_index.clone(),
            stop.clone(),
            dispatched.clone(),
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
                dispatched.fetch_add(1, Ordering::SeqCst);
                if sender.send(work(index)).is_err() {
                    break;
                }
            })
            .expect("spawning a campaign worker");
        workers.push(worker);
    }
    drop(sender);
    let mut last_report = Instant::now();
    let mut received = 0u64;
    let mut all_finished = false;
    loop {
        match receiver.recv_timeout(Duration::from_millis(200)) {
            Ok(message) => {
                received += 1;
                fold(message);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                all_finished = true;
                break;
            }
        }
        if let Some(time) = limits.time {
            let elapsed = start.elapsed();
            if elapsed >= time {
                stop.store(true, Ordering::Relaxed);
            }
            if elapsed >= time + limits.grace_after_time {
                break;
            }
        }
        if last_report.elapsed() >= interval {
            on_progress(start.elapsed());
            last_report = Instant::now();
        }
    }
    if all_finished {
        for worker in workers {
            let _ = worker.join();
        }
    } else {
        // The grace period is over: take what has arrived and leave the
        // workers still examining an item (they stop on their own after it).
        while let Ok(message) = receiver.try_recv() {
            received += 1;
            fold(message);
        }
    }
    PoolEnd {
        elapsed: start.elapsed(),
        abandoned: dispatched.load(Ordering::SeqCst).saturating_sub(received),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A timed pool ends within its grace period even when a worker is
    /// stuck on an item, and counts that item as abandoned.
    #[test]
    fn a_timed_pool_abandons_an_item_that_outlives_the_grace_period() {
        let limits = Limits {
            start: 0,
            count: None,
            time: Some(Duration::from_millis(300)),
            jobs: 2,
            grace_after_time: Duration::from_millis(300),
        };
        let mut folded = 0u64;
        let end = run_pool(
            limits,
            Duration::from_secs(60),
            |index| {
                if index == 0 {
                    std::thread::sleep(Duration::from_secs(30));
                } else {
                    std::thread::sleep(Duration::from_millis(5));
                }
                index
            },
            |_| folded += 1,
            |_| {},
        );
        assert!(end.elapsed < Duration::from_secs(5), "{:?}", end.elapsed);
        assert_eq!(end.abandoned, 1);
        assert!(folded > 0);
    }

    /// A counted pool waits for every item: nothing is abandoned.
    #[test]
    fn a_counted_pool_folds_every_item() {
        let limits = Limits {
            start: 0,
            count: Some(20),
            time: None,
            jobs: 3,
            grace_after_time: Duration::ZERO,
        };
        let mut folded = Vec::new();
        let end = run_pool(
            limits,
            Duration::from_secs(60),
            |index| index,
            |index| folded.push(index),
            |_| {},
        );
        folded.sort_unstable();
        assert_eq!(folded, (0..20).collect::<Vec<_>>());
        assert_eq!(end.abandoned, 0);
    }
}
