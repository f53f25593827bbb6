//! Generic traversals of IR code shared by the passes: one mutable walk that
//! visits every use of a name (operands, array arguments, type dimensions)
//! and every binder, and the visitors built on it (free names, substitution,
//! fresh renaming of binders). The effect judgement every pass consults
//! before removing, moving or merging a statement is [`crate::ir::effects`].

use std::collections::{HashMap, HashSet};

use crate::ir::*;

/// What a walk does at each name. Every method defaults to doing nothing.
pub trait NameVisitor {
    /// An operand position.
    fn visit_operand(&mut self, _operand: &mut SubExp) {}
    /// A position that may be a dimension (the IR checker wants a
    /// non-negative constant there): an array dimension in a type, the
    /// length of a slice or a concatenation, the shape of a `replicate` or
    /// `reshape`, a SOAC's width, a body's result (an existential size of a
    /// branch or loop), a function's argument (the value of a size
    /// parameter); by default an operand position.
    fn visit_dimension(&mut self, dimension: &mut SubExp) {
        self.visit_operand(dimension);
    }
    /// A position that must be a variable (an array argument, the
    /// condition parameter of a `while` loop).
    fn visit_variable(&mut self, _name: &mut VName) {}
    /// A binding occurrence (parameters, pattern elements, loop indices).
    fn visit_binder(&mut self, _name: &mut VName) {}
}

pub fn walk_type<V: NameVisitor + ?Sized>(ty: &mut Type, v: &mut V) {
    if let TypeBase::Array { shape, .. } = ty {
        for d in shape {
            v.visit_dimension(d);
        }
    }
}

pub fn walk_ext_type<V: NameVisitor + ?Sized>(ty: &mut ExtType, v: &mut V) {
    if let TypeBase::Array { shape, .. } = ty {
        for d in shape {
            if let ExtDim::Free(d) = d {
                v.visit_dimension(d);
            }
        }
    }
}

pub fn walk_param<V: NameVisitor + ?Sized>(param: &mut Param, v: &mut V) {
    v.visit_binder(&mut param.name);
    walk_type(&mut param.ty, v);
}

pub fn walk_body<V: NameVisitor + ?Sized>(body: &mut Body, v: &mut V) {
    for statement in &mut body.statements {
        walk_statement(statement, v);
    }
    for r in &mut body.result {
        v.visit_dimension(r);
    }
}

pub fn walk_statement<V: NameVisitor + ?Sized>(statement: &mut Statement, v: &mut V) {
    walk_exp(&mut statement.expression, v);
    for p in &mut statement.pattern {
        walk_param(p, v);
    }
}

pub fn walk_lambda<V: NameVisitor + ?Sized>(lambda: &mut Lambda, v: &mut V) {
    for p in &mut lambda.params {
        walk_param(p, v);
    }
    walk_body(&mut lambda.body, v);
    for t in &mut lambda.return_types {
        walk_type(t, v);
    }
}

pub fn walk_exp<V: NameVisitor + ?Sized>(exp: &mut Exp, v: &mut V) {
    match exp {
        Exp::SubExp(s) => v.visit_operand(s),
        Exp::BinOp { left, right, .. } | Exp::CmpOp { left, right, .. } => {
            v.visit_operand(left);
            v.visit_operand(right);
        }
        Exp::UnOp { operand, .. } | Exp::ConvOp { operand, .. } => v.visit_operand(operand),
        // An argument may be a size parameter's value (the callee's types
        // are instantiated with it), so it may be a dimension.
        Exp::Apply { args, .. } => args.iter_mut().for_each(|a| v.visit_dimension(a)),
        Exp::If {
            condition,
            then_body,
            else_body,
            types,
        } => {
            v.visit_operand(condition);
            walk_body(then_body, v);
            walk_body(else_body, v);
            types.iter_mut().for_each(|t| walk_ext_type(t, v));
        }
        Exp::Loop { params, form, body } => {
            for (p, init) in params.iter_mut() {
                v.visit_operand(init);
                walk_param(p, v);
            }
            match form {
                LoopForm::For { index, bound } => {
                    v.visit_operand(bound);
                    v.visit_binder(index);
                }
                LoopForm::While { condition_param } => v.visit_variable(condition_param),
            }
            walk_body(body, v);
        }
        Exp::Index { array, indices } => {
            v.visit_variable(array);
            indices.iter_mut().for_each(|i| v.visit_operand(i));
        }
        Exp::Slice { array, slice } => {
            v.visit_variable(array);
            for d in slice {
                match d {
                    DimIndex::Fix(i) => v.visit_operand(i),
                    DimIndex::Range {
                        start,
                        length,
                        stride,
                    } => {
                        v.visit_operand(start);
                        // The slice's length is its result's dimension.
                        v.visit_dimension(length);
                        v.visit_operand(stride);
                    }
                }
            }
        }
        Exp::Update {
            array,
            indices,
            value,
        } => {
            v.visit_variable(array);
            indices.iter_mut().for_each(|i| v.visit_operand(i));
            v.visit_operand(value);
        }
        Exp::Iota {
            length,
            start,
            step,
            ..
        } => {
            v.visit_operand(length);
            v.visit_operand(start);
            v.visit_operand(step);
        }
        Exp::Replicate { shape, value } => {
            shape.iter_mut().for_each(|d| v.visit_dimension(d));
            v.visit_operand(value);
        }
        Exp::ArrayLiteral { elements, row_type } => {
            elements.iter_mut().for_each(|e| v.visit_operand(e));
            walk_type(row_type, v);
        }
        Exp::Concat { arrays, length } => {
            arrays.iter_mut().for_each(|a| v.visit_variable(a));
            v.visit_dimension(length);
        }
        Exp::Rearrange { array, .. } | Exp::Reverse { array } | Exp::Copy { array } => {
            v.visit_variable(array)
        }
        Exp::Reshape { shape, array } => {
            shape.iter_mut().for_each(|d| v.visit_dimension(d));
            v.visit_variable(array);
        }
        Exp::Rotate { amount, array } => {
            v.visit_operand(amount);
            v.visit_variable(array);
        }
        Exp::Assert {
            condition,
            operands,
            ..
        } => {
            v.visit_operand(condition);
            operands.iter_mut().for_each(|o| v.visit_operand(o));
        }
        Exp::Soac(soac) => walk_soac(soac, v),
    }
}

pub fn walk_soac<V: NameVisitor + ?Sized>(soac: &mut Soac, v: &mut V) {
    match soac {
        Soac::Map {
            width,
            lambda,
            arrays,
        }
        | Soac::Filter {
            width,
            predicate: lambda,
            arrays,
        } => {
            v.visit_dimension(width);
            walk_lambda(lambda, v);
            arrays.iter_mut().for_each(|a| v.visit_variable(a));
        }
        Soac::Reduce {
            width,
            lambda,
            neutral,
            arrays,
        }
        | Soac::Scan {
            width,
            lambda,
            neutral,
            arrays,
        } => {
            v.visit_dimension(width);
            walk_lambda(lambda, v);
            neutral.iter_mut().for_each(|n| v.visit_operand(n));
            arrays.iter_mut().for_each(|a| v.visit_variable(a));
        }
        Soac::Scatter {
            width,
            destinations,
            indices,
            values,
        } => {
            v.visit_dimension(width);
            destinations.iter_mut().for_each(|a| v.visit_variable(a));
            v.visit_variable(indices);
            values.iter_mut().for_each(|a| v.visit_variable(a));
        }
        Soac::Hist {
            width,
            destinations,
            operator,
            neutral,
            indices,
            values,
        } => {
            v.visit_dimension(width);
            destinations.iter_mut().for_each(|a| v.visit_variable(a));
            walk_lambda(operator, v);
            neutral.iter_mut().for_each(|n| v.visit_operand(n));
            v.visit_variable(indices);
            values.iter_mut().for_each(|a| v.visit_variable(a));
        }
        Soac::Redomap {
            width,
            map_lambda,
            reduce_lambda: combine,
            neutral,
            arrays,
        }
        | Soac::Scanomap {
            width,
            map_lambda,
            scan_lambda: combine,
            neutral,
            arrays,
        } => {
            v.visit_dimension(width);
            walk_lambda(map_lambda, v);
            walk_lambda(combine, v);
            neutral.iter_mut().for_each(|n| v.visit_operand(n));
            arrays.iter_mut().for_each(|a| v.visit_variable(a));
        }
    }
}

/// Collects every name used (not bound) in what it walks; with names unique
/// in a program, the uses of locals of nested bodies are harmless extras.
#[derive(Default)]
pub struct UsedNames {
    pub names: HashSet<VName>,
}

impl NameVisitor for UsedNames {
    fn visit_operand(&mut self, operand: &mut SubExp) {
        if let SubExp::Var(v) = operand {
            self.names.insert(v.clone());
        }
    }
    fn visit_variable(&mut self, name: &mut VName) {
        self.names.insert(name.clone());
    }
}

/// Counts the uses of each name.
#[derive(Default)]
pub struct UseCounts {
    pub counts: HashMap<VName, usize>,
}

impl NameVisitor for UseCounts {
    fn visit_operand(&mut self, operand: &mut SubExp) {
        if let SubExp::Var(v) = operand {
            *self.counts.entry(v.clone()).or_default() += 1;
        }
    }
    fn visit_variable(&mut self, name: &mut VName) {
        *self.counts.entry(name.clone()).or_default() += 1;
    }
}

/// Collects every name bound in what it walks.
#[derive(Default)]
pub struct BoundNames {
    pub names: HashSet<VName>,
}

impl NameVisitor for BoundNames {
    fn visit_binder(&mut self, name: &mut VName) {
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

impl NameVisitor for Substitution {
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

impl NameVisitor for FreshRenaming<'_> {
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
    mut walk: impl FnMut(&mut dyn NameVisitor),
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
pub fn used_in_statement(statement: &mut Statement) -> HashSet<VName> {
    let mut used = UsedNames::default();
    walk_statement(statement, &mut used);
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
        _ => Vec::new(),
    }
}
