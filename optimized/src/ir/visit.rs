//! The one walk over IR code (issue 24): every use of a name (operands,
//! array arguments, type dimensions) and every binder, in one definition
//! from which [`shared`] (walks `&T`) and [`mutable`] (walks `&mut T`) are
//! generated, as rustc's MIR visitors are. The passes' visitors (free
//! names, substitution, fresh renaming) are in `passes::traverse`; the
//! backends read with [`shared`].

use crate::ir::*;

/// Generates a visitor trait and its walk functions, over shared
/// references (no `mut`) or mutable ones (`mut`).
macro_rules! name_walk {
    ($visitor:ident $(, $mutability:ident)?) => {
        /// What a walk does at each name. Every method defaults to doing nothing.
        pub trait $visitor {
            /// An operand position.
            fn visit_operand(&mut self, _operand: & $($mutability)? SubExp) {}
            /// A position that may be a dimension (the IR checker wants a
            /// non-negative constant there): an array dimension in a type, the
            /// length of a slice, an `iota` or a concatenation, the shape of a
            /// `replicate` or `reshape`, a SOAC's width, a body's result (an existential size of a
            /// branch or loop), a function's argument (the value of a size
            /// parameter); by default an operand position.
            fn visit_dimension(&mut self, dimension: & $($mutability)? SubExp) {
                self.visit_operand(dimension);
            }
            /// A position that must be a variable (an array argument, the
            /// condition parameter of a `while` loop).
            fn visit_variable(&mut self, _name: & $($mutability)? VName) {}
            /// A binding occurrence (parameters, pattern elements, loop indices).
            fn visit_binder(&mut self, _name: & $($mutability)? VName) {}
        }

        pub fn walk_type<V: $visitor + ?Sized>(ty: & $($mutability)? Type, v: &mut V) {
            if let TypeBase::Array { shape, .. } = ty {
                for d in shape {
                    v.visit_dimension(d);
                }
            }
        }

        pub fn walk_ext_type<V: $visitor + ?Sized>(ty: & $($mutability)? ExtType, v: &mut V) {
            if let TypeBase::Array { shape, .. } = ty {
                for d in shape {
                    if let ExtDim::Free(d) = d {
                        v.visit_dimension(d);
                    }
                }
            }
        }

        pub fn walk_param<V: $visitor + ?Sized>(param: & $($mutability)? Param, v: &mut V) {
            v.visit_binder(& $($mutability)? param.name);
            walk_type(& $($mutability)? param.ty, v);
        }

        pub fn walk_body<V: $visitor + ?Sized>(body: & $($mutability)? Body, v: &mut V) {
            for statement in & $($mutability)? body.statements {
                walk_statement(statement, v);
            }
            for r in & $($mutability)? body.result {
                v.visit_dimension(r);
            }
        }

        pub fn walk_statement<V: $visitor + ?Sized>(statement: & $($mutability)? Statement, v: &mut V) {
            walk_exp(& $($mutability)? statement.expression, v);
            for p in & $($mutability)? statement.pattern {
                walk_param(p, v);
            }
        }

        pub fn walk_lambda<V: $visitor + ?Sized>(lambda: & $($mutability)? Lambda, v: &mut V) {
            for p in & $($mutability)? lambda.params {
                walk_param(p, v);
            }
            walk_body(& $($mutability)? lambda.body, v);
            for t in & $($mutability)? lambda.return_types {
                walk_type(t, v);
            }
        }

        pub fn walk_exp<V: $visitor + ?Sized>(exp: & $($mutability)? Exp, v: &mut V) {
            match exp {
                Exp::SubExp(s) => v.visit_operand(s),
                Exp::BinOp { left, right, .. } | Exp::CmpOp { left, right, .. } => {
                    v.visit_operand(left);
                    v.visit_operand(right);
                }
                Exp::UnOp { operand, .. } | Exp::ConvOp { operand, .. } => v.visit_operand(operand),
                Exp::Fma { a, b, c, .. } => {
                    v.visit_operand(a);
                    v.visit_operand(b);
                    v.visit_operand(c);
                }
                // An argument may be a size parameter's value (the callee's types
                // are instantiated with it), so it may be a dimension.
                Exp::Apply { args, .. } => for a in args { v.visit_dimension(a) },
                Exp::If {
                    condition,
                    then_body,
                    else_body,
                    types,
                } => {
                    v.visit_operand(condition);
                    walk_body(then_body, v);
                    walk_body(else_body, v);
                    for t in types { walk_ext_type(t, v) };
                }
                Exp::Loop { params, form, body } => {
                    for (p, init) in params {
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
                    for i in indices { v.visit_operand(i) };
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
                    for i in indices { v.visit_operand(i) };
                    v.visit_operand(value);
                }
                Exp::Iota {
                    length,
                    start,
                    step,
                    ..
                } => {
                    // The length is the result's dimension.
                    v.visit_dimension(length);
                    v.visit_operand(start);
                    v.visit_operand(step);
                }
                Exp::Replicate { shape, value } => {
                    for d in shape { v.visit_dimension(d) };
                    v.visit_operand(value);
                }
                Exp::ArrayLiteral { elements, row_type } => {
                    for e in elements { v.visit_operand(e) };
                    walk_type(row_type, v);
                }
                Exp::Concat { arrays, length } => {
                    for a in arrays { v.visit_variable(a) };
                    v.visit_dimension(length);
                }
                Exp::Rearrange { array, .. } | Exp::Reverse { array } | Exp::Copy { array } => {
                    v.visit_variable(array)
                }
                Exp::Reshape { shape, array } => {
                    for d in shape { v.visit_dimension(d) };
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
                    for o in operands { v.visit_operand(o) };
                }
                Exp::Soac(soac) => walk_soac(soac, v),
                Exp::Seg(op) => walk_seg_op(op, v),
            }
        }

        pub fn walk_seg_op<V: $visitor + ?Sized>(op: & $($mutability)? SegOp, v: &mut V) {
            let (space, body, types, operator, neutral) = match op {
                SegOp::Map { space, body, return_types } => (space, body, Some(return_types), None, None),
                SegOp::Red { space, body, operator, neutral }
                | SegOp::Scan { space, body, operator, neutral } => {
                    (space, body, None, Some(operator), Some(neutral))
                }
            };
            for dim in & $($mutability)? space.dims {
                v.visit_dimension(& $($mutability)? dim.size);
                v.visit_binder(& $($mutability)? dim.index);
            }
            walk_body(body, v);
            for t in types.into_iter().flatten() { walk_type(t, v) };
            if let Some(operator) = operator { walk_lambda(operator, v) };
            for n in neutral.into_iter().flatten() { v.visit_operand(n) };
        }

        pub fn walk_soac<V: $visitor + ?Sized>(soac: & $($mutability)? Soac, v: &mut V) {
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
                    for a in arrays { v.visit_variable(a) };
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
                    for n in neutral { v.visit_operand(n) };
                    for a in arrays { v.visit_variable(a) };
                }
                Soac::Scatter {
                    width,
                    destinations,
                    indices,
                    values,
                } => {
                    v.visit_dimension(width);
                    for a in destinations { v.visit_variable(a) };
                    v.visit_variable(indices);
                    for a in values { v.visit_variable(a) };
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
                    for a in destinations { v.visit_variable(a) };
                    walk_lambda(operator, v);
                    for n in neutral { v.visit_operand(n) };
                    v.visit_variable(indices);
                    for a in values { v.visit_variable(a) };
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
                    for n in neutral { v.visit_operand(n) };
                    for a in arrays { v.visit_variable(a) };
                }
            }
        }
    };
}

/// The walk over shared references: [`NameVisitor`](shared::NameVisitor).
pub mod shared {
    use super::*;
    name_walk!(NameVisitor);
}

/// The walk over mutable references:
/// [`NameVisitorMut`](mutable::NameVisitorMut).
pub mod mutable {
    use super::*;
    name_walk!(NameVisitorMut, mut);
}

/// Calls a function on every use of a name (not on binders).
struct EachUse<F: FnMut(&VName)>(F);

impl<F: FnMut(&VName)> shared::NameVisitor for EachUse<F> {
    fn visit_operand(&mut self, operand: &SubExp) {
        if let SubExp::Var(name) = operand {
            (self.0)(name)
        }
    }
    fn visit_variable(&mut self, name: &VName) {
        (self.0)(name)
    }
}

/// Calls `f` on every use of a name in `exp` (nested bodies, lambdas and
/// types included), in walk order, repeats included.
pub fn for_each_use_in_exp(exp: &Exp, f: impl FnMut(&VName)) {
    shared::walk_exp(exp, &mut EachUse(f));
}

/// [`for_each_use_in_exp`] over a body, its results included.
pub fn for_each_use_in_body(body: &Body, f: impl FnMut(&VName)) {
    shared::walk_body(body, &mut EachUse(f));
}

/// Calls `f` on every name a type uses (its dimensions).
pub fn for_each_use_in_type(ty: &Type, f: impl FnMut(&VName)) {
    shared::walk_type(ty, &mut EachUse(f));
}

/// Calls a function on every binder.
struct EachBinder<F: FnMut(&VName)>(F);

impl<F: FnMut(&VName)> shared::NameVisitor for EachBinder<F> {
    fn visit_binder(&mut self, name: &VName) {
        (self.0)(name)
    }
}

/// Calls `f` on every name `lambda` binds: its parameters and every binder
/// of its body (patterns, loop parameters and indices, nested lambdas).
pub fn for_each_binder_in_lambda(lambda: &Lambda, f: impl FnMut(&VName)) {
    shared::walk_lambda(lambda, &mut EachBinder(f));
}

/// Calls `f` on every name `body` binds (patterns, loop parameters and
/// indices, lambda parameters, segmented indices, at any depth).
pub fn for_each_binder_in_body(body: &Body, f: impl FnMut(&VName)) {
    shared::walk_body(body, &mut EachBinder(f));
}
