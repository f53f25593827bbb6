//! quickcheck `Arbitrary` wrappers: [`WellTypedProgram`] and
//! [`IllTypedProgram`]. Both shrink by editing the choice sequence (see
//! [`super::shrink`]), so every shrunk value is still well typed (resp.
//! still has exactly one broken premise).

use super::mutate::{mutate, Mutant};
use super::shrink::shrink_candidates;
use super::{choice_spans, generate, generate_from_choices, GenConfig, GeneratedProgram};
use quickcheck::{Arbitrary, Gen};

/// The configuration for a quickcheck size: depth grows slowly with it.
fn config_for(size: usize) -> GenConfig {
    GenConfig {
        depth: (1 + size / 40).clamp(1, 4) as u32,
        ..GenConfig::default()
    }
}

/// A well-typed program for quickcheck.
#[derive(Clone, Debug)]
pub struct WellTypedProgram {
    pub config: GenConfig,
    pub generated: GeneratedProgram,
}

impl Arbitrary for WellTypedProgram {
    fn arbitrary(g: &mut Gen) -> Self {
        let config = config_for(g.size());
        let seed = u64::arbitrary(g);
        WellTypedProgram {
            generated: generate(seed, &config),
            config,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let config = self.config.clone();
        let choices = self.generated.choices.clone();
        let spans = choice_spans(choices.clone(), &config);
        let candidates: Vec<Vec<u32>> = shrink_candidates(&choices, &spans).collect();
        Box::new(
            candidates
                .into_iter()
                .map(move |candidate| WellTypedProgram {
                    generated: generate_from_choices(candidate, &config),
                    config: config.clone(),
                }),
        )
    }
}

/// An ill-typed program (one premise broken) for quickcheck.
#[derive(Clone, Debug)]
pub struct IllTypedProgram {
    pub config: GenConfig,
    /// The choices of the well-typed original.
    pub original_choices: Vec<u32>,
    pub selector: u32,
    pub mutant: Mutant,
}

impl Arbitrary for IllTypedProgram {
    fn arbitrary(g: &mut Gen) -> Self {
        let config = config_for(g.size());
        loop {
            let seed = u64::arbitrary(g);
            let selector = u32::arbitrary(g);
            let original = generate(seed, &config);
            if let Some(mutant) = mutate(&original, selector, &config) {
                return IllTypedProgram {
                    config,
                    original_choices: original.choices,
                    selector,
                    mutant,
                };
            }
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let config = self.config.clone();
        let selector = self.selector;
        let spans = choice_spans(self.original_choices.clone(), &config);
        let candidates: Vec<Vec<u32>> = shrink_candidates(&self.original_choices, &spans).collect();
        Box::new(candidates.into_iter().filter_map(move |candidate| {
            let original = generate_from_choices(candidate, &config);
            mutate(&original, selector, &config).map(|mutant| IllTypedProgram {
                config: config.clone(),
                original_choices: original.choices,
                selector,
                mutant,
            })
        }))
    }
}
