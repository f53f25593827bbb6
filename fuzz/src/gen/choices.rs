//! The choice stream every generator draws from.
//!
//! A generated program is a pure function of a sequence of small integers, the
//! *choices*: each decision (which construct, which variable, how many
//! elements) reads one. Fresh generation draws them from a seeded SplitMix64
//! generator and records them; replay reads a recorded sequence back and reads
//! `0` past its end. Every decision lists its alternatives simplest first, so a
//! smaller or shorter choice sequence means a simpler program: shrinking edits
//! the sequence (see [`super::shrink`]) and regenerates, and because the
//! generator is type-directed whatever sequence it reads, every shrunk program
//! is still well typed.

/// SplitMix64: small, fast, and stable across versions, so a seed names the
/// same program forever.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Where the choices come from.
#[derive(Clone, Debug)]
enum Source {
    Random(SplitMix64),
    Replay { recorded: Vec<u32>, position: usize },
}

/// A stream of choices that remembers the choices it handed out.
#[derive(Clone, Debug)]
pub struct Choices {
    source: Source,
    used: Vec<u32>,
}

impl Choices {
    /// Fresh choices from `seed`.
    pub fn random(seed: u64) -> Choices {
        Choices {
            source: Source::Random(SplitMix64::new(seed)),
            used: Vec::new(),
        }
    }

    /// Replays `recorded`; past its end every choice is `0`.
    pub fn replay(recorded: Vec<u32>) -> Choices {
        Choices {
            source: Source::Replay {
                recorded,
                position: 0,
            },
            used: Vec::new(),
        }
    }

    /// A choice in `0..bound` (`bound` ≥ 1; `0` is read as `1`).
    pub fn below(&mut self, bound: u32) -> u32 {
        let bound = bound.max(1);
        let value = match &mut self.source {
            Source::Random(rng) => (rng.next_u64() % u64::from(bound)) as u32,
            Source::Replay { recorded, position } => {
                let raw = recorded.get(*position).copied().unwrap_or(0);
                *position += 1;
                raw % bound
            }
        };
        self.used.push(value);
        value
    }

    /// An index into `weights`, with probability proportional to the weight;
    /// smaller choices pick earlier entries. All weights zero picks `0`.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return 0;
        }
        let mut roll = self.below(total);
        for (index, weight) in weights.iter().enumerate() {
            if roll < *weight {
                return index;
            }
            roll -= weight;
        }
        weights.len() - 1
    }

    /// `true` with probability `numerator / denominator` (`false` is simpler).
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        self.below(denominator) >= denominator.saturating_sub(numerator)
    }

    /// A number in `low..=high` (`low` is the simplest).
    pub fn range(&mut self, low: u32, high: u32) -> u32 {
        low + self.below(high.saturating_sub(low) + 1)
    }

    /// The choices handed out so far: replaying them gives the same program.
    pub fn used(&self) -> &[u32] {
        &self.used
    }

    pub fn into_used(self) -> Vec<u32> {
        self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_reproduces_random_choices_and_pads_with_zeros() {
        let mut random = Choices::random(7);
        let drawn: Vec<u32> = (1..20).map(|bound| random.below(bound)).collect();
        let mut replay = Choices::replay(random.into_used());
        let replayed: Vec<u32> = (1..20).map(|bound| replay.below(bound)).collect();
        assert_eq!(drawn, replayed);
        assert_eq!(replay.below(10), 0);
    }

    #[test]
    fn weighted_zero_picks_first_alternative() {
        let mut replay = Choices::replay(vec![]);
        assert_eq!(replay.weighted(&[0, 3, 5]), 1);
        assert!(!replay.chance(1, 2));
    }
}
