//! proptest strategies with integrated, type-preserving shrinking.
//!
//! A value tree holds a choice sequence and regenerates its program from it.
//! Shrinking edits the *sequence*, never the tree: it deletes blocks of
//! choices (later decisions then read zeros, the simplest alternatives),
//! zeroes single choices, and halves them. Every edited sequence is read by
//! the same type-directed generator, so every shrunk program is well typed,
//! and each step makes the sequence smaller in shortlex order, so shrinking
//! terminates.

use super::choices::Choices;
use super::mutate::{mutate, Mutant};
use super::{choice_spans, generate_from_choices, run, ChoiceSpan, GenConfig, GeneratedProgram};
use proptest::prelude::Rng;
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// The edits tried on a choice sequence, simplest result first: replacing
/// a compound construct by the simplest alternative (delete its span, zero
/// its decision; largest spans first), then deleting blocks, zeroing,
/// halving and decrementing single choices.
pub fn shrink_candidates<'a>(
    choices: &'a [u32],
    spans: &'a [ChoiceSpan],
) -> impl Iterator<Item = Vec<u32>> + 'a {
    let mut ordered: Vec<ChoiceSpan> = spans
        .iter()
        .copied()
        .filter(|s| s.end <= choices.len() && s.start < s.end && s.decision < s.start)
        .collect();
    ordered.sort_by_key(|s| std::cmp::Reverse(s.end - s.start));
    let simplifications = ordered.into_iter().map(move |span| {
        let mut edited = choices[..span.start].to_vec();
        edited[span.decision] = 0;
        edited.extend_from_slice(&choices[span.end..]);
        edited
    });
    simplifications.chain(block_candidates(choices))
}

fn block_candidates(choices: &[u32]) -> impl Iterator<Item = Vec<u32>> + '_ {
    let length = choices.len();
    let deletions = [64usize, 16, 4, 1].into_iter().flat_map(move |block| {
        (0..length.div_ceil(block)).rev().filter_map(move |k| {
            let start = k * block;
            let end = (start + block).min(length);
            (start < end).then(|| {
                let mut shorter = choices[..start].to_vec();
                shorter.extend_from_slice(&choices[end..]);
                shorter
            })
        })
    });
    let zeroes = (0..length).filter(move |&i| choices[i] != 0).map(move |i| {
        let mut edited = choices.to_vec();
        edited[i] = 0;
        edited
    });
    let halves = (0..length).filter(move |&i| choices[i] > 1).map(move |i| {
        let mut edited = choices.to_vec();
        edited[i] /= 2;
        edited
    });
    let decrements = (0..length).filter(move |&i| choices[i] > 0).map(move |i| {
        let mut edited = choices.to_vec();
        edited[i] -= 1;
        edited
    });
    deletions.chain(zeroes).chain(halves).chain(decrements)
}

/// The shrinking state shared by both value trees.
#[derive(Clone, Debug)]
struct ChoiceShrinker {
    config: GenConfig,
    accepted: Vec<u32>,
    /// The construct spans of `accepted`.
    spans: Vec<ChoiceSpan>,
    current: Vec<u32>,
    /// How many candidates of `accepted` were tried.
    cursor: usize,
}

impl ChoiceShrinker {
    fn new(choices: Vec<u32>, config: &GenConfig) -> ChoiceShrinker {
        ChoiceShrinker {
            config: config.clone(),
            spans: choice_spans(choices.clone(), config),
            accepted: choices.clone(),
            current: choices,
            cursor: 0,
        }
    }

    /// The next candidate of `accepted` satisfying `valid`, if any.
    fn advance(&mut self, valid: &dyn Fn(&[u32]) -> bool) -> bool {
        let candidate = shrink_candidates(&self.accepted, &self.spans)
            .enumerate()
            .skip(self.cursor)
            .find(|(_, candidate)| valid(candidate));
        match candidate {
            Some((index, candidate)) => {
                self.cursor = index + 1;
                self.current = candidate;
                true
            }
            None => {
                self.cursor = usize::MAX;
                self.current = self.accepted.clone();
                false
            }
        }
    }

    /// The current candidate still fails: keep it and start over from it.
    fn simplify(&mut self, valid: &dyn Fn(&[u32]) -> bool) -> bool {
        if self.accepted != self.current {
            self.accepted = self.current.clone();
            self.spans = choice_spans(self.accepted.clone(), &self.config);
        }
        self.cursor = 0;
        self.advance(valid)
    }

    /// The current candidate passed: go back and try the next one.
    fn complicate(&mut self, valid: &dyn Fn(&[u32]) -> bool) -> bool {
        self.advance(valid)
    }
}

/// A value tree of well-typed programs.
#[derive(Clone, Debug)]
pub struct ProgramTree {
    config: GenConfig,
    shrinker: ChoiceShrinker,
}

impl ValueTree for ProgramTree {
    type Value = GeneratedProgram;

    fn current(&self) -> GeneratedProgram {
        generate_from_choices(self.shrinker.current.clone(), &self.config)
    }

    fn simplify(&mut self) -> bool {
        self.shrinker.simplify(&|_| true)
    }

    fn complicate(&mut self) -> bool {
        self.shrinker.complicate(&|_| true)
    }
}

/// A strategy of well-typed programs under `config` (its seed is ignored:
/// proptest's runner supplies the randomness).
#[derive(Clone, Debug)]
pub struct WellTypedPrograms {
    pub config: GenConfig,
}

impl Strategy for WellTypedPrograms {
    type Tree = ProgramTree;
    type Value = GeneratedProgram;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let seed = runner.rng().next_u64();
        let (program, _, _) = run(Choices::random(seed), &self.config, None);
        Ok(ProgramTree {
            config: self.config.clone(),
            shrinker: ChoiceShrinker::new(program.choices, &self.config),
        })
    }
}

/// Well-typed programs under `config`.
pub fn well_typed_programs(config: GenConfig) -> WellTypedPrograms {
    WellTypedPrograms { config }
}

/// A value tree of ill-typed programs: a choice sequence and a site selector;
/// shrinking keeps only sequences whose program still has a mutation site.
#[derive(Clone, Debug)]
pub struct MutantTree {
    config: GenConfig,
    selector: u32,
    shrinker: ChoiceShrinker,
}

impl MutantTree {
    fn mutant_of(&self, choices: &[u32]) -> Option<Mutant> {
        let original = generate_from_choices(choices.to_vec(), &self.config);
        mutate(&original, self.selector, &self.config)
    }
}

impl ValueTree for MutantTree {
    type Value = Mutant;

    fn current(&self) -> Mutant {
        self.mutant_of(&self.shrinker.current)
            .expect("value trees only hold sequences with a mutation site")
    }

    fn simplify(&mut self) -> bool {
        let this = self.clone();
        self.shrinker
            .simplify(&|choices| this.mutant_of(choices).is_some())
    }

    fn complicate(&mut self) -> bool {
        let this = self.clone();
        self.shrinker
            .complicate(&|choices| this.mutant_of(choices).is_some())
    }
}

/// A strategy of ill-typed neighbours of well-typed programs.
#[derive(Clone, Debug)]
pub struct IllTypedPrograms {
    pub config: GenConfig,
}

impl Strategy for IllTypedPrograms {
    type Tree = MutantTree;
    type Value = Mutant;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        loop {
            let seed = runner.rng().next_u64();
            let selector = runner.rng().next_u32();
            let (program, _, _) = run(Choices::random(seed), &self.config, None);
            if mutate(&program, selector, &self.config).is_some() {
                return Ok(MutantTree {
                    config: self.config.clone(),
                    selector,
                    shrinker: ChoiceShrinker::new(program.choices, &self.config),
                });
            }
        }
    }
}

/// Ill-typed programs (one premise broken) under `config`.
pub fn ill_typed_programs(config: GenConfig) -> IllTypedPrograms {
    IllTypedPrograms { config }
}
