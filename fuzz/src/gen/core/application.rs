//! Application of visible functions: instantiation by matching the
//! requested type, arguments, and the infix, backtick and pipe forms.

use super::super::build::*;
use super::super::env::Env;
use super::super::mutate::MutationKind;
use super::super::types::*;
use super::super::Generator;
use spec::syntax::ast::*;

impl Generator {
    /// Visible functions (and polymorphic values) that, applied to some
    /// number of arguments, give `ty`: (qualifiers, name, scheme, arity used,
    /// substitution).
    pub(crate) fn application_candidates(
        &self,
        env: &Env,
        ty: &Ty,
    ) -> Vec<(Vec<String>, String, Scheme, usize, Substitution)> {
        let mut out = Vec::new();
        for binding in env.visible() {
            let scheme = &binding.scheme;
            let (params, _) = scheme.ty.uncurry();
            let mut remaining = &scheme.ty;
            for arity in 0..=params.len() {
                if arity > 0 || !scheme.is_mono() {
                    let mut substitution = Substitution::default();
                    if unify(scheme, remaining, ty, &mut substitution) {
                        out.push((
                            binding.qualifiers.clone(),
                            binding.name.clone(),
                            scheme.clone(),
                            arity,
                            substitution,
                        ));
                    }
                }
                if let Ty::Arrow(_, to) = remaining {
                    remaining = to;
                }
            }
        }
        out.retain(|(_, _, scheme, arity, substitution)| {
            let (params, _) = scheme.ty.uncurry();
            params[..*arity].iter().all(|p| {
                let instantiated = substitution.apply(p).map_opaque(&|t| match t {
                    Ty::Param(name) | Ty::LiftedParam(name)
                        if scheme.type_params.contains(name) =>
                    {
                        Some(i32_ty())
                    }
                    _ => None,
                });
                let instantiated = instantiated.map_sizes(&|size| match size {
                    Size::Named(name) if scheme.size_params.contains(name) => Size::Const(1),
                    other => other.clone(),
                });
                env.inhabited(&instantiated)
            })
        });
        out
    }

    pub(crate) fn application(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let candidates = self.application_candidates(env, ty);
        let index = self.choices.below(candidates.len() as u32) as usize;
        let (qualifiers, name, scheme, arity, mut substitution) = candidates[index].clone();
        for type_param in &scheme.type_params {
            if !substitution.types.iter().any(|(n, _)| n == type_param) {
                let lifted = Ty::LiftedParam(type_param.clone());
                let is_lifted = scheme.ty.map_opaque(&|t| (*t == lifted).then(i32_ty)) != scheme.ty;
                let chosen = if is_lifted && self.choices.chance(1, 2) {
                    // A lifted type parameter may stand for a function type.
                    arrow(Ty::Prim(self.random_prim()), Ty::Prim(self.random_prim()))
                } else {
                    Ty::Prim(self.random_prim())
                };
                substitution.types.push((type_param.clone(), chosen));
            }
        }
        for size_param in &scheme.size_params {
            if !substitution.sizes.iter().any(|(n, _)| n == size_param) {
                let chosen = self.known_size(env);
                substitution.sizes.push((size_param.clone(), chosen));
            }
        }
        let (params, _) = scheme.ty.uncurry();
        let params: Vec<Ty> = params.into_iter().cloned().collect();
        let mut arguments = Vec::new();
        for param in &params[..arity] {
            let instantiated = substitution.apply(param);
            if !env.inhabited(&instantiated) {
                // An opaque parameter type without a witness here: fall back.
                return self.leaf(env, ty);
            }
            let mut argument = self.expr(env, &instantiated, depth);
            if !param.has_opaque_part() && self.mutation_site(MutationKind::ArgumentMismatch) {
                argument = self.wrong_value(&instantiated);
            }
            if let Ty::Param(_) = param {
                if self.mutation_site(MutationKind::FunctionForUnliftedParameter) {
                    let name = self.fresh("p");
                    argument = lambda(
                        vec![pat_ascribe(pat_var(&name), env.type_exp(&i32_ty()))],
                        None,
                        var(&name),
                    );
                }
            }
            if let Ty::Abstract(path) = &instantiated {
                if let Some((_, carrier)) = env.carriers.iter().find(|(p, _)| p == path) {
                    let carrier = carrier.clone();
                    if self.mutation_site(MutationKind::AbstractTypeLeak) {
                        argument = self.leaf(env, &carrier);
                    }
                }
            }
            if self.config.extra_mutations && matches!(instantiated, Ty::Abstract(_)) {
                // Another opaque module's abstract type with a value here:
                // each opaque ascription makes a distinct type.
                let other = env
                    .carriers
                    .iter()
                    .map(|(path, _)| Ty::Abstract(path.clone()))
                    .find(|other| *other != instantiated && env.inhabited(other));
                if let Some(other) = other {
                    if self.mutation_site(MutationKind::AbstractTypesMixed) {
                        argument = self.expr(env, &other, depth);
                    }
                }
            }
            arguments.push(argument);
        }
        let is_operator = spec::syntax::operators::is_operator_name(&name);
        let paper_core = self.config.paper_core;
        if arity == 2 && (is_operator || (!paper_core && self.choices.chance(1, 6))) {
            let op = if self.mutation_site(MutationKind::UnboundVariable) {
                BinOp::Backtick(qual(&[], "unbound_variable"))
            } else if is_operator {
                BinOp::Symbol(qual(&qualifiers, &name))
            } else {
                BinOp::Backtick(qual(&qualifiers, &name))
            };
            let rhs = arguments.pop().expect("two arguments");
            let lhs = arguments.pop().expect("two arguments");
            return Expr::BinOp {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                span: span(),
            };
        }
        // Operators as values become sections: `(+^) x`.
        let function = self.variable_reference(&qualifiers, &name);
        if arity >= 1 && !is_operator && !paper_core && self.choices.chance(1, 8) {
            let last = arguments.pop().expect("at least one argument");
            return binop("|>", last, apply_all(function, arguments));
        }
        apply_all(function, arguments)
    }
}
