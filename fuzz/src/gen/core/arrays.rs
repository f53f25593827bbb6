//! `map` and `map2`.

use super::super::build::*;
use super::super::env::Env;
use super::super::mutate::MutationKind;
use super::super::types::*;
use super::super::Generator;
use spec::syntax::ast::*;

impl Generator {
    pub(crate) fn map_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(size, element) = ty else {
            unreachable!()
        };
        let input = match self.choices.weighted(&[6, 1, 1, 1]) {
            0 => self.random_type(env, true, 1),
            // Inputs a projection or index section can map from.
            1 | 2 => {
                let other = self.random_type(env, true, 0);
                Ty::Tuple(vec![other, (**element).clone()])
            }
            _ => array(
                Size::Const(u64::from(self.choices.range(1, 3))),
                (**element).clone(),
            ),
        };
        let xs = self.expr(env, &array(size.clone(), input.clone()), depth);
        let function = self.expr(env, &arrow(input, (**element).clone()), depth);
        if self.choices.chance(1, 5) {
            binop("|>", xs, call("map", vec![function]))
        } else {
            call("map", vec![function, xs])
        }
    }

    pub(crate) fn map2_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(size, element) = ty else {
            unreachable!()
        };
        let size = match size {
            Size::Unknown => self.known_size(env),
            other => other.clone(),
        };
        let first = self.random_type(env, true, 0);
        let second = self.random_type(env, true, 0);
        let xs = self.expr(env, &array(size.clone(), first.clone()), depth);
        let mut ys = self.expr(env, &array(size.clone(), second.clone()), depth);
        if let Size::Const(k) = size {
            if self.mutation_site(MutationKind::SizeMismatch) {
                let other = self.leaf(env, &second);
                ys = call("replicate", vec![i64_literal(k + 1), other]);
            }
        }
        let function = self.expr(
            env,
            &arrow(first, arrow(second, (**element).clone())),
            depth,
        );
        call("map2", vec![function, xs, ys])
    }
}
