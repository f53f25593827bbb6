//! `map` and `map2`, and the nests of a SOAC over rows that people write
//! (`map (\row -> map f row) xss`, `… scan …`, `… reduce …`), grids
//! computed from their indices (`map (\i -> … map (\j -> …) (iota m))
//! (iota n)`) and inner products of rows (matrix multiplication's
//! `map (\row -> map (\col -> reduce op ne (map2 f row col)) yss) xss`).

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

    /// `map (\row -> map f row) xss`, `map (\row -> scan op ne row) xss`
    /// (rows of an element type with a scan operator) and
    /// `map (\row -> reduce op ne row) xss` (a primitive element): a SOAC
    /// over each row, the nest flattening turns into one segmented
    /// operation over two dimensions (`optimized::flatten`). `f` may use
    /// the row, which keeps the nest at one level.
    pub(crate) fn nested_soac_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(size, element) = ty else {
            unreachable!()
        };
        if let Ty::Array(inner_size @ (Size::Const(_) | Size::Named(_)), inner) = element.as_ref() {
            if self.choices.chance(1, 4) {
                return self.index_grid_expr(env, size, inner_size, inner, depth);
            }
        }
        if let Ty::Array(inner_size, inner) = element.as_ref() {
            if Self::scan_operator(inner).is_some() && self.choices.chance(1, 5) {
                return self.inner_product_grid_expr(env, size, inner_size, inner, depth);
            }
            if Self::scan_operator(inner).is_some() && self.choices.chance(1, 3) {
                return self.row_statistic_expr(env, size, inner_size, inner, depth);
            }
        }
        let row = self.fresh("row");
        let mark = env.mark();
        let (row_ty, body) = match element.as_ref() {
            Ty::Array(_, inner)
                if Self::scan_operator(inner).is_some() && self.choices.chance(1, 3) =>
            {
                let row_ty = (**element).clone();
                env.bind(&row, row_ty.clone(), false);
                let (function, neutral) = self.operator_function(env, inner);
                (row_ty, call("scan", vec![function, neutral, var(&row)]))
            }
            Ty::Array(inner_size, inner) => {
                let input = self.random_type(env, true, 0);
                let row_ty = array(inner_size.clone(), input.clone());
                env.bind(&row, row_ty.clone(), false);
                let function = self.expr(env, &arrow(input, (**inner).clone()), depth);
                (row_ty, call("map", vec![function, var(&row)]))
            }
            prim => {
                let row_ty = array(Size::Unknown, prim.clone());
                env.bind(&row, row_ty.clone(), false);
                let (function, neutral) = self.operator_function(env, prim);
                (row_ty, call("reduce", vec![function, neutral, var(&row)]))
            }
        };
        env.truncate(mark);
        let xss = self.expr(env, &array(size.clone(), row_ty.clone()), depth);
        let parameter = pat_ascribe(pat_var(&row), env.type_exp(&row_ty));
        call("map", vec![lambda(vec![parameter], None, body), xss])
    }

    /// `map (\(row: [k]a) -> map (\(col: [k]b) -> reduce op ne (map2 f row
    /// col)) yss) xss`: matrix multiplication's shape, an inner reduction
    /// over a row of the outer map. Flattening carries the row into the
    /// inner level (F-Carry) and makes the nest one segmented reduction over
    /// three dimensions, or, where `f` uses the row or the column itself,
    /// undoes that and keeps the nest at the outer level.
    fn inner_product_grid_expr(
        &mut self,
        env: &mut Env,
        size: &Size,
        inner_size: &Size,
        element: &Ty,
        depth: u32,
    ) -> Expr {
        let length = self.known_size(env);
        let left = self.random_type(env, true, 0);
        let right = self.random_type(env, true, 0);
        let row_ty = array(length.clone(), left.clone());
        let col_ty = array(length, right.clone());
        let xss = self.expr(env, &array(size.clone(), row_ty.clone()), depth);
        let yss = self.expr(env, &array(inner_size.clone(), col_ty.clone()), depth);
        let (row, col) = (self.fresh("row"), self.fresh("col"));
        let mark = env.mark();
        env.bind(&row, row_ty.clone(), false);
        env.bind(&col, col_ty.clone(), false);
        let function = self.expr(env, &arrow(left, arrow(right, element.clone())), depth);
        let (operator, neutral) = self.operator_function(env, element);
        env.truncate(mark);
        let products = call("map2", vec![function, var(&row), var(&col)]);
        let reduction = call("reduce", vec![operator, neutral, products]);
        let col_param = pat_ascribe(pat_var(&col), env.type_exp(&col_ty));
        let row_param = pat_ascribe(pat_var(&row), env.type_exp(&row_ty));
        let inner_map = call("map", vec![lambda(vec![col_param], None, reduction), yss]);
        call("map", vec![lambda(vec![row_param], None, inner_map), xss])
    }

    /// `map (\(row: [k]a) -> let s = reduce op ne row in map f row) xss`,
    /// where `f` may use `s`: an imperfect nest (a row's statistic used by a
    /// map over the same row), which F-Distribute makes a segmented
    /// reduction and a segmented map over two dimensions.
    fn row_statistic_expr(
        &mut self,
        env: &mut Env,
        size: &Size,
        inner_size: &Size,
        element: &Ty,
        depth: u32,
    ) -> Expr {
        let row_ty = array(inner_size.clone(), element.clone());
        let xss = self.expr(env, &array(size.clone(), row_ty.clone()), depth);
        let (row, statistic) = (self.fresh("row"), self.fresh("s"));
        let mark = env.mark();
        env.bind(&row, row_ty.clone(), false);
        let (operator, neutral) = self.operator_function(env, element);
        env.bind(&statistic, element.clone(), false);
        let function = self.expr(env, &arrow(element.clone(), element.clone()), depth);
        env.truncate(mark);
        let reduction = call("reduce", vec![operator, neutral, var(&row)]);
        let body = let_in(
            pat_var(&statistic),
            reduction,
            call("map", vec![function, var(&row)]),
        );
        let row_param = pat_ascribe(pat_var(&row), env.type_exp(&row_ty));
        call("map", vec![lambda(vec![row_param], None, body), xss])
    }

    /// `map (\(i: i64) -> let s = i * k + c in map (\(j: i64) -> e) (iota
    /// m)) (iota n)`: a grid computed from its indices (mandelbrot's
    /// shape), where `e` may use `i`, `j` and `s`. Flattening makes it one
    /// segmented map over two dimensions (F-Iota computes the inner iota's
    /// elements, F-Sink moves `s` into the inner body).
    fn index_grid_expr(
        &mut self,
        env: &mut Env,
        size: &Size,
        inner_size: &Size,
        inner: &Ty,
        depth: u32,
    ) -> Expr {
        let outer = match size {
            Size::Unknown => self.known_size(env),
            known => known.clone(),
        };
        let (i, j, s) = (self.fresh("i"), self.fresh("j"), self.fresh("s"));
        let scalar = binop(
            "+",
            binop(
                "*",
                var(&i),
                i64_literal(u64::from(self.choices.range(1, 9))),
            ),
            i64_literal(u64::from(self.choices.range(0, 9))),
        );
        let mark = env.mark();
        env.bind(&i, i64_ty(), false);
        env.bind(&s, i64_ty(), false);
        env.bind(&j, i64_ty(), false);
        let element = self.expr(env, inner, depth);
        env.truncate(mark);
        let index_param = |name: &str| pat_ascribe(pat_var(name), TypeExp::Var(qual(&[], "i64")));
        let inner_map = call(
            "map",
            vec![
                lambda(vec![index_param(&j)], None, element),
                call("iota", vec![super::size_expr(inner_size)]),
            ],
        );
        call(
            "map",
            vec![
                lambda(
                    vec![index_param(&i)],
                    None,
                    let_in(pat_var(&s), scalar, inner_map),
                ),
                call("iota", vec![super::size_expr(&outer)]),
            ],
        )
    }
}
