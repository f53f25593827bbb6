//! A map with a fixed capacity that forgets its least recently used entry
//! to make room: the shape of the backend's two compile caches (GLSL
//! source → SPIR-V in [`crate::kernels`], SPIR-V → pipeline in
//! [`crate::runtime::pipelines`]).
//!
//! Both used to grow without bound: every distinct kernel a process ever
//! compiled stayed, and a GPU fuzz campaign compiles new kernels for most
//! of its programs (its lambdas differ), about 0.5 MB of host memory per
//! program on lavapipe, until the kernel's OOM killer ended a
//! 100 000-program campaign at 60 000 (`fuzz/README.md`).
//!
//! Finding the least recently used entry scans the map; it only happens on
//! a miss that is inserted, which costs a shader compilation or a pipeline
//! creation (milliseconds) anyway, over at most `capacity` entries.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

/// One cached value and when it was last used (the cache's clock).
struct Entry<V> {
    value: V,
    last_use: u64,
}

/// A map of at most `capacity` entries, least recently used out first.
pub struct BoundedCache<K, V> {
    capacity: usize,
    entries: HashMap<K, Entry<V>>,
    /// Counts lookups that found an entry and insertions.
    clock: u64,
    evictions: u64,
}

impl<K: Eq + Hash + Clone, V> BoundedCache<K, V> {
    /// An empty cache that keeps at most `capacity` entries (at least one).
    pub fn new(capacity: usize) -> BoundedCache<K, V> {
        BoundedCache {
            capacity: capacity.max(1),
            entries: HashMap::new(),
            clock: 0,
            evictions: 0,
        }
    }

    /// The value under `key`, now the most recently used.
    pub fn get<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.clock += 1;
        let now = self.clock;
        self.entries.get_mut(key).map(|entry| {
            entry.last_use = now;
            &mut entry.value
        })
    }

    /// The value under `key`, inserted with `make` when absent (after
    /// forgetting the least recently used entry if the cache is full); now
    /// the most recently used.
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        self.clock += 1;
        if !self.entries.contains_key(&key) && self.entries.len() >= self.capacity {
            self.forget_least_recently_used();
        }
        let entry = self.entries.entry(key).or_insert_with(|| Entry {
            value: make(),
            last_use: 0,
        });
        entry.last_use = self.clock;
        &mut entry.value
    }

    fn forget_least_recently_used(&mut self) {
        let oldest = self
            .entries
            .iter()
            .min_by_key(|(_, entry)| entry.last_use)
            .map(|(key, _)| key.clone());
        if let Some(oldest) = oldest {
            self.entries.remove(&oldest);
            self.evictions += 1;
        }
    }

    /// The entries held now.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The most entries held at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How many entries were forgotten to make room.
    pub fn evictions(&self) -> u64 {
        self.evictions
    }

    /// The values held now, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.values().map(|entry| &entry.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inserts or looks up each key of `uses` in a cache of `capacity`:
    /// the keys it holds afterwards (sorted) and its evictions.
    fn check(capacity: usize, uses: &[u32], held: &[u32], evictions: u64) {
        let mut cache = BoundedCache::new(capacity);
        for &key in uses {
            if cache.get(&key).is_none() {
                cache.get_or_insert_with(key, || key * 10);
            }
            assert!(cache.len() <= capacity.max(1), "over capacity: {uses:?}");
            assert_eq!(cache.get(&key).copied(), Some(key * 10));
        }
        let mut keys: Vec<u32> = cache.values().map(|value| value / 10).collect();
        keys.sort_unstable();
        assert_eq!(keys, held, "capacity {capacity}, uses {uses:?}");
        assert_eq!(cache.evictions(), evictions, "uses {uses:?}");
    }

    #[test]
    fn the_least_recently_used_entry_goes_first() {
        // (capacity, keys used in order, keys held at the end, evictions)
        let cases: &[(usize, &[u32], &[u32], u64)] = &[
            (3, &[1, 2, 3], &[1, 2, 3], 0),
            (3, &[1, 2, 3, 4], &[2, 3, 4], 1),
            // A use of 1 makes 2 the oldest.
            (3, &[1, 2, 3, 1, 4], &[1, 3, 4], 1),
            (2, &[1, 2, 1, 3, 1, 4], &[1, 4], 2),
            (1, &[5, 6, 7], &[7], 2),
            // Capacity 0 is 1.
            (0, &[5, 6], &[6], 1),
            // Hits cost nothing.
            (2, &[1, 1, 1, 2, 2, 1], &[1, 2], 0),
        ];
        for &(capacity, uses, held, evictions) in cases {
            check(capacity, uses, held, evictions);
        }
    }

    #[test]
    fn a_long_run_of_distinct_keys_stays_at_capacity() {
        let mut cache = BoundedCache::new(64);
        for key in 0..10_000u32 {
            cache.get_or_insert_with(key, || vec![key; 16]);
        }
        assert_eq!(cache.len(), 64);
        assert_eq!(cache.evictions(), 10_000 - 64);
        assert!(cache.get(&9_999).is_some() && cache.get(&0).is_none());
    }
}
