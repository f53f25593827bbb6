//! Specialisation of a SOAC on the values of the scalars it reads from the
//! enclosing scope: each such variable in its lambdas and neutral elements
//! becomes a constant, so that [`super::extract`] can plan it (kernels take
//! no scalar arguments). The GPU driver specialises a statement when it
//! runs, on the values of that run; each distinct set of values is one
//! more kernel to compile (the kernel library caches modules by source).
//!
//! Only map lambdas, predicates and neutral elements are specialised, not
//! operators: an operator that captures a value is left to the host, which
//! combines a small array strictly in order (a non-associative operator
//! such as `\a b -> a + b * k` in `tests/programs/hof/closure_operator.fut`
//! then gives the reference's left fold). Only the scalar operations
//! [`super::lambda`] translates are rewritten; a lambda with anything else
//! is not translated either way.

use optimized::ir::{Body, Exp, Lambda, PrimValue, Soac, SubExp, VName};

/// `soac` with every variable `value_of` answers replaced by its constant
/// in the map lambdas, predicates and neutral elements, and the names
/// replaced.
pub fn specialise(
    soac: &Soac,
    value_of: &impl Fn(&VName) -> Option<PrimValue>,
) -> (Soac, Vec<VName>) {
    let mut soac = soac.clone();
    let mut replaced = Vec::new();
    let mut rewrite = Rewrite {
        value_of,
        replaced: &mut replaced,
    };
    match &mut soac {
        Soac::Map { lambda, .. } => rewrite.lambda(lambda),
        Soac::Filter { predicate, .. } => rewrite.lambda(predicate),
        Soac::Reduce { neutral, .. } | Soac::Scan { neutral, .. } => {
            neutral.iter_mut().for_each(|n| rewrite.sub_exp(n));
        }
        Soac::Redomap {
            map_lambda,
            neutral,
            ..
        }
        | Soac::Scanomap {
            map_lambda,
            neutral,
            ..
        } => {
            rewrite.lambda(map_lambda);
            neutral.iter_mut().for_each(|n| rewrite.sub_exp(n));
        }
        Soac::Scatter { .. } | Soac::Hist { .. } => {}
    }
    (soac, replaced)
}

struct Rewrite<'a, F> {
    value_of: &'a F,
    replaced: &'a mut Vec<VName>,
}

impl<F: Fn(&VName) -> Option<PrimValue>> Rewrite<'_, F> {
    fn sub_exp(&mut self, value: &mut SubExp) {
        if let SubExp::Var(name) = value {
            if let Some(constant) = (self.value_of)(name) {
                if !self.replaced.contains(name) {
                    self.replaced.push(name.clone());
                }
                *value = SubExp::Constant(constant);
            }
        }
    }

    fn lambda(&mut self, lambda: &mut Lambda) {
        self.body(&mut lambda.body);
    }

    fn body(&mut self, body: &mut Body) {
        for statement in &mut body.statements {
            match &mut statement.expression {
                Exp::SubExp(value)
                | Exp::UnOp { operand: value, .. }
                | Exp::ConvOp { operand: value, .. } => self.sub_exp(value),
                Exp::BinOp { left, right, .. } | Exp::CmpOp { left, right, .. } => {
                    self.sub_exp(left);
                    self.sub_exp(right);
                }
                Exp::Fma { a, b, c, .. } => {
                    self.sub_exp(a);
                    self.sub_exp(b);
                    self.sub_exp(c);
                }
                Exp::If {
                    condition,
                    then_body,
                    else_body,
                    ..
                } => {
                    self.sub_exp(condition);
                    self.body(then_body);
                    self.body(else_body);
                }
                _ => {}
            }
        }
        body.result.iter_mut().for_each(|r| self.sub_exp(r));
    }
}
