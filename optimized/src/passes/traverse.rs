//! The visitors the passes share, built on the one IR walk
//! ([`crate::ir::visit`]): used names, use counts and bound names (shared),
//! substitution and fresh renaming of binders (mutable). The effect judgement every pass consults
//! before removing, moving or merging a statement is [`crate::ir::effects`].

use std::collections::{HashMap, HashSet};

pub use crate::ir::visit::mutable::*;
pub use crate::ir::visit::shared;
use crate::ir::visit::shared::NameVisitor;
use crate::ir::*;

/// Collects every name used (not bound) in what it walks; with names unique
/// in a program, the uses of locals of nested bodies are harmless extras.
#[derive(Default)]
pub struct UsedNames {
    pub names: HashSet<VName>,
}

impl NameVisitor for UsedNames {
    fn visit_operand(&mut self, operand: &SubExp) {
        if let SubExp::Var(v) = operand {
            self.names.insert(v.clone());
        }
    }
    fn visit_variable(&mut self, name: &VName) {
        self.names.insert(name.clone());
    }
}

/// Counts the uses of each name.
#[derive(Default)]
pub struct UseCounts {
    pub counts: HashMap<VName, usize>,
}

impl NameVisitor for UseCounts {
    fn visit_operand(&mut self, operand: &SubExp) {
        if let SubExp::Var(v) = operand {
            *self.counts.entry(v.clone()).or_default() += 1;
        }
    }
    fn visit_variable(&mut self, name: &VName) {
        *self.counts.entry(name.clone()).or_default() += 1;
    }
}

/// Collects every name bound in what it walks.
#[derive(Default)]
pub struct BoundNames {
    pub names: HashSet<VName>,
}

impl NameVisitor for BoundNames {
    fn visit_binder(&mut self, name: &VName) {
        self.names.insert(name.clone());
    }
}

/// Replaces uses of names by operands. A variable-only position is replaced
/// only by a variable (an array is never replaced by a constant, since
/// constants are primitives).
#[derive(Default)]
pub struct Substitution {
    pub map: HashMap<VName, SubExp>,
}

impl Substitution {
    fn resolve(&self, name: &VName) -> Option<&SubExp> {
        self.map.get(name)
    }
}

impl NameVisitorMut for Substitution {
    fn visit_operand(&mut self, operand: &mut SubExp) {
        if let SubExp::Var(v) = operand {
            if let Some(replacement) = self.resolve(v) {
                *operand = replacement.clone();
            }
        }
    }
    fn visit_variable(&mut self, name: &mut VName) {
        if let Some(SubExp::Var(replacement)) = self.resolve(name) {
            *name = replacement.clone();
        }
    }
    /// A negative constant never becomes a dimension (ill-typed IR): the
    /// name stays, bound by the copy `simplify` keeps for it.
    fn visit_dimension(&mut self, dimension: &mut SubExp) {
        if let SubExp::Var(v) = dimension {
            match self.resolve(v) {
                Some(replacement) if may_be_dimension(replacement) => {
                    *dimension = replacement.clone()
                }
                _ => {}
            }
        }
    }
}

/// Whether [`Substitution`] puts `operand` in a dimension position: every
/// operand but a negative `i64` constant (ill-typed as a dimension). A pass
/// that substitutes such a constant for a name must keep the name bound
/// (`let n = -1i64`), for the dimension positions where it stays.
pub fn may_be_dimension(operand: &SubExp) -> bool {
    !matches!(operand, SubExp::Constant(PrimValue::I64(n)) if *n < 0)
}

/// Gives every binder a fresh name and renames its uses consistently (for
/// copying code, e.g. inlining a function body). Walk the binders first
/// ([`rename_binders_fresh`]) so that uses that precede nothing are covered.
struct FreshRenaming<'a> {
    names: &'a mut NameSource,
    map: HashMap<VName, VName>,
}

impl NameVisitorMut for FreshRenaming<'_> {
    fn visit_binder(&mut self, name: &mut VName) {
        let fresh = self.names.fresh(&name.base);
        self.map.insert(name.clone(), fresh.clone());
        *name = fresh;
    }
}

/// Renames every binder of `walk`'s target freshly, then every use of those
/// binders; returns the renaming.
pub fn rename_binders_fresh(
    names: &mut NameSource,
    mut walk: impl FnMut(&mut dyn NameVisitorMut),
) -> HashMap<VName, VName> {
    let mut renaming = FreshRenaming {
        names,
        map: HashMap::new(),
    };
    walk(&mut renaming);
    let map = renaming.map;
    let mut substitution = Substitution {
        map: map
            .iter()
            .map(|(k, v)| (k.clone(), SubExp::Var(v.clone())))
            .collect(),
    };
    walk(&mut substitution);
    map
}

/// The names used by a statement (nested bodies and types included).
pub fn used_in_statement(statement: &Statement) -> HashSet<VName> {
    let mut used = UsedNames::default();
    shared::walk_statement(statement, &mut used);
    used.names
}

/// The lambdas of a SOAC, mutably.
pub fn soac_lambdas_mut(soac: &mut Soac) -> Vec<&mut Lambda> {
    match soac {
        Soac::Map { lambda, .. } | Soac::Reduce { lambda, .. } | Soac::Scan { lambda, .. } => {
            vec![lambda]
        }
        Soac::Filter { predicate, .. } => vec![predicate],
        Soac::Scatter { .. } => Vec::new(),
        Soac::Hist { operator, .. } => vec![operator],
        Soac::Redomap {
            map_lambda,
            reduce_lambda: combine,
            ..
        }
        | Soac::Scanomap {
            map_lambda,
            scan_lambda: combine,
            ..
        } => vec![map_lambda, combine],
    }
}

/// The bodies directly inside an expression (branches, loop body, lambda
/// bodies), mutably.
pub fn nested_bodies_mut(exp: &mut Exp) -> Vec<&mut Body> {
    match exp {
        Exp::If {
            then_body,
            else_body,
            ..
        } => vec![then_body, else_body],
        Exp::Loop { body, .. } => vec![body],
        Exp::Soac(soac) => soac_lambdas_mut(soac)
            .into_iter()
            .map(|l| &mut l.body)
            .collect(),
        Exp::Seg(op) => match op {
            SegOp::Map { body, .. } => vec![body],
            SegOp::Red { body, operator, .. } | SegOp::Scan { body, operator, .. } => {
                vec![body, &mut operator.body]
            }
        },
        _ => Vec::new(),
    }
}
