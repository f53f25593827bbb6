//! Free variables of core expressions: what a closure captures (TFP'18 §3,
//! the environment of a `Lam` static value). Names are unique in a core
//! program, so the free variables are the referenced names minus the names
//! bound inside, without tracking scopes.

use std::collections::HashSet;

use crate::core::{DimIndex, Expr, ExprKind, Function, LoopForm, Pat, Size, Type, VarName};

/// The variables referenced by `params` and `body` and not bound in them, in
/// order of first reference.
pub fn free_variables(size_params: &[VarName], params: &[Pat], body: &Expr) -> Vec<VarName> {
    let mut collector = Collector::default();
    for name in size_params {
        collector.bound.insert(name.id);
    }
    for param in params {
        collector.pattern(param);
    }
    collector.expression(body);
    let bound = collector.bound;
    collector
        .referenced
        .into_iter()
        .filter(|name| !bound.contains(&name.id))
        .collect()
}

#[derive(Default)]
struct Collector {
    seen: HashSet<u32>,
    referenced: Vec<VarName>,
    bound: HashSet<u32>,
}

impl Collector {
    fn reference(&mut self, name: &VarName) {
        if self.seen.insert(name.id) {
            self.referenced.push(name.clone());
        }
    }

    fn pattern(&mut self, pat: &Pat) {
        for (name, _) in pat.bound_vars() {
            self.bound.insert(name.id);
        }
    }

    fn function(&mut self, function: &Function) {
        self.bound.insert(function.name.id);
        for name in &function.size_params {
            self.bound.insert(name.id);
        }
        for param in &function.params {
            self.pattern(param);
        }
        self.expression(&function.body);
    }

    fn indices(&mut self, indices: &[DimIndex]) {
        for index in indices {
            match index {
                DimIndex::Index(e) => self.expression(e),
                DimIndex::Slice { start, end, stride } => {
                    for e in [start, end, stride].into_iter().flatten() {
                        self.expression(e);
                    }
                }
            }
        }
    }

    fn expression(&mut self, expr: &Expr) {
        spec::recursion::with_stack(|| self.expression_inner(expr))
    }

    fn expression_inner(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Literal(_) => {}
            ExprKind::Var { name, .. } => self.reference(name),
            ExprKind::Intrinsic { args, .. } => args.iter().for_each(|e| self.expression(e)),
            ExprKind::BinOp { lhs, rhs, .. } | ExprKind::Equal { lhs, rhs, .. } => {
                self.expression(lhs);
                self.expression(rhs);
            }
            ExprKind::UnOp { operand, .. } => self.expression(operand),
            ExprKind::Record(fields) => fields.iter().for_each(|(_, e)| self.expression(e)),
            ExprKind::Project { record, .. } => self.expression(record),
            ExprKind::RecordUpdate { target, value, .. } => {
                self.expression(target);
                self.expression(value);
            }
            ExprKind::Constructor { payload, .. } => {
                payload.iter().for_each(|e| self.expression(e))
            }
            ExprKind::ArrayLit(elements) => elements.iter().for_each(|e| self.expression(e)),
            ExprKind::Range {
                start, step, end, ..
            } => {
                self.expression(start);
                if let Some(step) = step {
                    self.expression(step);
                }
                self.expression(end);
            }
            ExprKind::Index { array, indices } => {
                self.expression(array);
                self.indices(indices);
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                self.expression(target);
                self.indices(indices);
                self.expression(value);
            }
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                for name in sizes {
                    self.bound.insert(name.id);
                }
                self.pattern(pat);
                self.expression(value);
                self.expression(body);
            }
            ExprKind::LetFun { function, body } => {
                self.function(function);
                self.expression(body);
            }
            ExprKind::Lambda { params, body } => {
                params.iter().for_each(|p| self.pattern(p));
                self.expression(body);
            }
            ExprKind::Apply { function, args } => {
                self.expression(function);
                args.iter().for_each(|e| self.expression(e));
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                self.expression(condition);
                self.expression(then_branch);
                self.expression(else_branch);
            }
            ExprKind::Match { scrutinee, cases } => {
                self.expression(scrutinee);
                for case in cases {
                    self.pattern(&case.pat);
                    self.expression(&case.body);
                }
            }
            ExprKind::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => {
                self.pattern(pat);
                self.expression(init);
                match form {
                    LoopForm::For { var, bound } => {
                        self.bound.insert(var.id);
                        self.expression(bound);
                    }
                    LoopForm::ForIn { pat, array } => {
                        self.pattern(pat);
                        self.expression(array);
                    }
                    LoopForm::While { condition } => self.expression(condition),
                }
                self.expression(body);
            }
            // The sizes a coercion checks against are values it reads: a
            // closure captures them (else its coercion could check nothing).
            ExprKind::Coerce(inner) => {
                self.expression(inner);
                self.sizes_of(&expr.ty);
            }
        }
    }

    /// References the size variables of `ty`'s order-zero structure.
    fn sizes_of(&mut self, ty: &Type) {
        match ty {
            Type::Array { size, element } => {
                if let Size::Var(name) = size {
                    self.reference(name);
                }
                self.sizes_of(element);
            }
            Type::Record(fields) => fields.values().for_each(|t| self.sizes_of(t)),
            Type::Sum(constructors) => constructors
                .values()
                .flatten()
                .for_each(|t| self.sizes_of(t)),
            Type::Prim(_) | Type::Param(_) | Type::Arrow { .. } => {}
        }
    }
}

/// Whether `expr` is small enough to inline at every application instead of
/// lifting it into a function of its own (TFP'18's inlining of trivial
/// lambdas): at most `limit` nodes and no binding construct.
pub fn is_trivial(expr: &Expr, limit: usize) -> bool {
    fn count(expr: &Expr, budget: &mut usize) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        match &expr.kind {
            ExprKind::Literal(_) | ExprKind::Var { .. } => true,
            ExprKind::BinOp { lhs, rhs, .. } | ExprKind::Equal { lhs, rhs, .. } => {
                count(lhs, budget) && count(rhs, budget)
            }
            ExprKind::UnOp { operand, .. } => count(operand, budget),
            ExprKind::Record(fields) => fields.iter().all(|(_, e)| count(e, budget)),
            ExprKind::Project { record, .. } => count(record, budget),
            ExprKind::Apply { function, args } => {
                count(function, budget) && args.iter().all(|e| count(e, budget))
            }
            ExprKind::Intrinsic { args, .. } => args
                .iter()
                .all(|e| !matches!(e.kind, ExprKind::Lambda { .. }) && count(e, budget)),
            _ => false,
        }
    }
    let mut budget = limit;
    count(expr, &mut budget)
}
