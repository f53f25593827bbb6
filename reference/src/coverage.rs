//! Rule coverage: which transcribed rules fired, and how often.
//!
//! Every arm that transcribes a paper rule calls [`fire`] with the rule's id as
//! listed in `proofs-notes/rules.toml` (for example `"ICFP18 rule 29"`,
//! `"TFP18 D-App"`, `"L05 Fig5.8 V-Lam"`). Counting is off unless a caller asks
//! for it with [`record`], so judgments pay one thread-local read when nobody
//! listens. The tidy test (`reference/tests/rules_tidy.rs`) and the fuzz
//! campaigns' coverage table are built on this.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// How often each rule fired during one recording.
pub type RuleCounts = BTreeMap<&'static str, u64>;

/// The counts of one recording while it runs, keyed by the address of the
/// rule's id (a hot evaluator fires millions of times; comparing the ids'
/// text in a `BTreeMap` cost half of a λA campaign). Two copies of one id at
/// different addresses are merged by [`Recording::counts`].
#[derive(Default)]
struct Recording {
    by_address: HashMap<usize, (&'static str, u64), BuildHasherDefault<AddressHasher>>,
}

/// Hashes an address by one multiplication (Fibonacci hashing): addresses
/// are distinct already, and SipHash was a third of the recording's cost.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_usize(&mut self, address: usize) {
        self.0 = (address as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl Recording {
    fn fire(&mut self, rule: &'static str, times: u64) {
        self.by_address
            .entry(rule.as_ptr() as usize)
            .or_insert((rule, 0))
            .1 += times;
    }

    fn counts(&self) -> RuleCounts {
        let mut counts = RuleCounts::new();
        for (rule, n) in self.by_address.values() {
            *counts.entry(*rule).or_insert(0) += n;
        }
        counts
    }
}

thread_local! {
    static RECORDER: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Notes that the rule `rule` was applied.
pub fn fire(rule: &'static str) {
    RECORDER.with(|recorder| {
        if let Some(recording) = recorder.borrow_mut().as_mut() {
            recording.fire(rule, 1);
        }
    });
}

/// Runs `work` on this thread and returns its result with the rules it fired.
/// Recordings nest: an inner recording's counts are added to the outer one's.
pub fn record<R>(work: impl FnOnce() -> R) -> (R, RuleCounts) {
    let outer = RECORDER.with(|recorder| recorder.borrow_mut().replace(Recording::default()));
    let result = work();
    let counts = RECORDER
        .with(|recorder| std::mem::replace(&mut *recorder.borrow_mut(), outer))
        .unwrap_or_default()
        .counts();
    RECORDER.with(|recorder| {
        if let Some(outer) = recorder.borrow_mut().as_mut() {
            for (rule, n) in &counts {
                outer.fire(rule, *n);
            }
        }
    });
    (result, counts)
}

/// Runs `work` with counting off: what it fires is not recorded (work that
/// is not part of a derivation, such as the evaluator's probe for the row
/// shape of an empty `map`).
pub fn muted<R>(work: impl FnOnce() -> R) -> R {
    let outer = RECORDER.with(|recorder| recorder.borrow_mut().take());
    let result = work();
    RECORDER.with(|recorder| *recorder.borrow_mut() = outer);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_only_inside_a_recording_and_nests() {
        fire("outside");
        let ((), outer) = record(|| {
            fire("a");
            let ((), inner) = record(|| fire("b"));
            assert_eq!(inner.get("b"), Some(&1));
            assert_eq!(inner.get("a"), None);
        });
        assert_eq!(outer.get("a"), Some(&1));
        assert_eq!(outer.get("b"), Some(&1));
        assert_eq!(outer.get("outside"), None);
    }

    #[test]
    fn muted_work_is_not_recorded() {
        let ((), counts) = record(|| {
            fire("a");
            muted(|| fire("b"));
            fire("c");
        });
        assert_eq!(counts.get("a"), Some(&1));
        assert_eq!(counts.get("b"), None);
        assert_eq!(counts.get("c"), Some(&1));
    }
}
