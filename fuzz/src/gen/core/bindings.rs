//! `let` in all its forms: plain, destructuring, local functions,
//! existential sizes `let [m]`, and in-place updates of fresh arrays.

use super::super::build::*;
use super::super::env::Env;
use super::super::mutate::MutationKind;
use super::super::types::*;
use super::super::Generator;
use super::other_prim_type;
use spec::syntax::ast::*;

impl Generator {
    /// A name for a new local: fresh, or (rarely) shadowing a primitive local.
    pub(crate) fn local_name(&mut self, env: &Env) -> String {
        let shadowable: Vec<String> = env
            .visible()
            .into_iter()
            .filter(|b| b.shadowable && b.qualifiers.is_empty())
            .map(|b| b.name.clone())
            .collect();
        if !shadowable.is_empty() && self.choices.chance(1, 8) {
            let index = self.choices.below(shadowable.len() as u32) as usize;
            self.counters.shadowing += 1;
            return shadowable[index].clone();
        }
        self.fresh("x")
    }

    pub(crate) fn let_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let bound = if self.choices.chance(1, 10) {
            // A record holding a function (TFP'18 allows it; such a record is
            // itself not order zero).
            let from = Ty::Prim(self.random_prim());
            let to = Ty::Prim(self.random_prim());
            Ty::Record(vec![
                ("a".to_string(), Ty::Prim(self.random_prim())),
                ("b".to_string(), arrow(from, to)),
            ])
        } else {
            self.random_type(env, false, 1)
        };
        let value = self.expr(env, &bound, depth);
        let name = self.local_name(env);
        let mut pat = pat_var(&name);
        if self.choices.chance(1, 3) {
            let mut annotation = env.type_exp(&bound);
            if self.mutation_site(MutationKind::AnnotationMismatch) {
                annotation = env.type_exp(&other_prim_type(&bound));
            }
            pat = pat_ascribe(pat, annotation);
        }
        let mark = env.mark();
        env.bind(&name, bound.clone(), matches!(bound, Ty::Prim(_)));
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let_in(pat, value, body)
    }

    pub(crate) fn let_destructure(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let first = self.random_type(env, false, 0);
        let second = self.random_type(env, false, 0);
        let as_record = self.choices.chance(1, 3);
        let bound = if as_record {
            Ty::Record(vec![
                ("a".to_string(), first.clone()),
                ("b".to_string(), second.clone()),
            ])
        } else {
            Ty::Tuple(vec![first.clone(), second.clone()])
        };
        let value = self.expr(env, &bound, depth);
        let mark = env.mark();
        let mut parts = Vec::new();
        for part in [&first, &second] {
            if self.choices.chance(1, 6) {
                parts.push(Pat::Wildcard { span: span() });
            } else {
                let name = self.fresh("x");
                env.bind(&name, part.clone(), matches!(part, Ty::Prim(_)));
                parts.push(pat_var(&name));
            }
        }
        let pat = if as_record {
            Pat::Record {
                fields: vec![
                    ("a".to_string(), parts.remove(0)),
                    ("b".to_string(), parts.remove(0)),
                ],
                span: span(),
            }
        } else {
            Pat::Tuple {
                elements: parts,
                span: span(),
            }
        };
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let_in(pat, value, body)
    }

    pub(crate) fn let_fun(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let name = self.fresh("g");
        let param_count = self.choices.range(1, 2);
        let mut params = Vec::new();
        let mut param_types = Vec::new();
        let mark = env.mark();
        for _ in 0..param_count {
            let param_ty = self.random_type(env, true, 0);
            let param = self.fresh("y");
            params.push(pat_ascribe(pat_var(&param), env.type_exp(&param_ty)));
            param_types.push(param_ty);
        }
        let result = self.random_type(env, true, 0);
        for (param, param_ty) in params.iter().zip(&param_types) {
            if let Pat::Ascribe { pat, .. } = param {
                if let Pat::Var { name, .. } = pat.as_ref() {
                    env.bind(name, param_ty.clone(), false);
                }
            }
        }
        let value = self.expr(env, &result, depth);
        env.truncate(mark);
        let function_ty = param_types
            .iter()
            .rev()
            .fold(result.clone(), |acc, p| arrow(p.clone(), acc));
        env.bind(&name, function_ty, false);
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        Expr::LetFun {
            name,
            type_params: Vec::new(),
            params,
            return_type: Some(env.type_exp(&result)),
            value: Box::new(value),
            body: Box::new(body),
            span: span(),
        }
    }

    /// `let [m] (ys: [m]t) = filter p xs in body`: binds an existential size.
    pub(crate) fn let_sized(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let element = Ty::Prim(self.random_prim());
        let xs = self.expr(env, &array(Size::Unknown, element.clone()), depth);
        let predicate = self.expr(env, &arrow(element.clone(), bool_ty()), depth);
        let size = self.fresh("m");
        let name = self.fresh("ys");
        let mark = env.mark();
        env.bind_size(&size);
        let bound = array(Size::Named(size.clone()), element);
        let pat = pat_ascribe(pat_var(&name), env.type_exp(&bound));
        env.bind(&name, bound, false);
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        Expr::Let {
            sizes: vec![size],
            pat,
            value: Box::new(call("filter", vec![predicate, xs])),
            body: Box::new(body),
            span: span(),
        }
    }

    /// An array of constant size that aliases no variable (a literal, a
    /// `replicate` or a `map`), so that Futhark's uniqueness rules allow an
    /// in-place update of it.
    pub(crate) fn fresh_array(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Array(Size::Const(k), element) = ty else {
            unreachable!()
        };
        match self.choices.weighted(&[2, if *k <= 4 { 2 } else { 0 }, 1]) {
            1 => Expr::Array {
                elements: (0..*k).map(|_| self.expr(env, element, depth)).collect(),
                span: span(),
            },
            2 => {
                let input = self.random_type(env, true, 0);
                let xs = self.expr(env, &array(Size::Const(*k), input.clone()), depth);
                let function = self.expr(env, &arrow(input, (**element).clone()), depth);
                call("map", vec![function, xs])
            }
            _ => {
                let value = self.expr(env, element, depth);
                call("replicate", vec![i64_literal(*k), value])
            }
        }
    }

    /// `let xs = fresh in let xs[i] = v in body`.
    pub(crate) fn let_with(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let k = u64::from(self.choices.range(1, 3));
        let element = self.random_type(env, true, 0);
        let array_ty = array(Size::Const(k), element.clone());
        let initial = self.fresh_array(env, &array_ty, depth);
        let name = self.fresh("xs");
        let position = u64::from(self.choices.below(k as u32));
        let value = self.expr(env, &element, depth);
        let mark = env.mark();
        env.bind(&name, array_ty, false);
        let body = self.expr(env, ty, depth);
        env.truncate(mark);
        let_in(
            pat_var(&name),
            initial,
            Expr::LetWith {
                name,
                name_span: span(),
                indices: vec![DimIndex::Index(i64_literal(position))],
                value: Box::new(value),
                body: Box::new(body),
                span: span(),
            },
        )
    }
}
