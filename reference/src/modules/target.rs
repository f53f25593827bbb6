//! The target language (ICFP'18 §5.1, Fig. 9): code `c ::= val l = ex | c₁ ; c₂
//! | ε` over a core's target expressions, contexts Γ, and the typing rules for
//! code (41–43; rules 38–40 for expressions belong to the core).

use super::core_interface::Core;
use super::error::{rule_failure, Failure};
use super::objects::{Label, Substitution};
use crate::derivation;
use imbl::OrdMap;
use spec::source::Span;

/// Γ: labels to types.
pub type Context<C> = OrdMap<Label, <C as Core>::Type>;

/// Target code c.
#[derive(Clone, Debug)]
pub enum Code<C: Core> {
    Val(Label, C::TargetExp),
    Seq(Box<Code<C>>, Box<Code<C>>),
    Empty,
}

impl<C: Core> Code<C> {
    /// c₁ ; c₂ (ε dropped, so printed code has no empty statements).
    pub fn seq(first: Code<C>, second: Code<C>) -> Code<C> {
        match (first, second) {
            (Code::Empty, c) | (c, Code::Empty) => c,
            (a, b) => Code::Seq(Box::new(a), Box::new(b)),
        }
    }

    /// The `val l = ex` statements in order.
    pub fn statements(&self) -> Vec<(&Label, &C::TargetExp)> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<(&'a Label, &'a C::TargetExp)>) {
        match self {
            Code::Val(label, exp) => out.push((label, exp)),
            Code::Seq(a, b) => {
                a.collect(out);
                b.collect(out);
            }
            Code::Empty => {}
        }
    }
}

/// Γ ⊢ c : Γ' (rules 41–43).
pub fn type_code<C: Core>(
    context: &Context<C>,
    code: &Code<C>,
    witness: &Substitution<C::Type>,
    guesses: &mut C::Guesses,
) -> Result<Context<C>, Failure> {
    derivation::judgment(None, || match code {
        // ICFP18 rule 41
        Code::Seq(first, second) => {
            derivation::fire("ICFP18 rule 41", || "Γ ⊢ c₁ ; c₂".to_string());
            let gamma1 = type_code(context, first, witness, guesses)?;
            let gamma2 = type_code(
                &gamma1.clone().union(context.clone()),
                second,
                witness,
                guesses,
            )?;
            Ok(gamma2.union(gamma1))
        }
        // ICFP18 rule 42
        Code::Val(label, exp) => {
            derivation::fire("ICFP18 rule 42", || {
                format!("Γ ⊢ val {} = …", label.display())
            });
            let ty = C::type_target_exp(context, exp, witness, guesses).map_err(|failure| {
                rule_failure(
                    42,
                    format!(
                        "the right-hand side of val {} is ill-typed",
                        label.display()
                    ),
                    failure.message(),
                    Span::default(),
                )
            })?;
            let mut out = OrdMap::new();
            out.insert(label.clone(), ty);
            Ok(out)
        }
        // ICFP18 rule 43
        Code::Empty => {
            derivation::fire("ICFP18 rule 43", || "Γ ⊢ ε : {}".to_string());
            Ok(OrdMap::new())
        }
    })
}
