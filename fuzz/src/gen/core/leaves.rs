//! Leaves: variables, field projections, literals, and structural values
//! built from leaves (the only constructs at depth 0, so every request ends).

use super::super::build::*;
use super::super::env::Env;
use super::super::mutate::MutationKind;
use super::super::types::*;
use super::super::Generator;
use super::size_expr;
use spec::syntax::ast::*;
use spec::value::PrimType;

impl Generator {
    /// A literal of a primitive type (small magnitudes). The literals of
    /// the largest magnitude are the sites of
    /// [`MutationKind::LiteralOutOfRange`] (one in sixteen, so that they do
    /// not crowd out the other kinds of site).
    pub fn literal_of(&mut self, prim: PrimType) -> Expr {
        let magnitude = u64::from(
            self.choices
                .below(if prim == PrimType::Bool { 2 } else { 16 }),
        );
        if magnitude == 15 {
            if let Some(outside) = literal_out_of_range(prim) {
                if self.mutation_site(MutationKind::LiteralOutOfRange) {
                    return outside;
                }
            }
        }
        literal(prim, magnitude)
    }

    /// A value of `ty` built without compound computation. `ty` must be
    /// inhabited in `env`.
    pub fn leaf(&mut self, env: &mut Env, ty: &Ty) -> Expr {
        if self.config.extra_mutations && self.mutation_site(MutationKind::InfiniteType) {
            // `let g = \y -> y y in leaf`: `y`'s type would contain itself.
            let function = self.fresh("g");
            let parameter = self.fresh("y");
            let self_applied = lambda(
                vec![pat_var(&parameter)],
                None,
                apply(var(&parameter), var(&parameter)),
            );
            let body = self.leaf(env, ty);
            return let_in(pat_var(&function), self_applied, body);
        }
        let variables: Vec<(Vec<String>, String)> = env
            .variables_of(ty)
            .into_iter()
            .map(|b| (b.qualifiers.clone(), b.name.clone()))
            .collect();
        let projections = self.projections_of(env, ty);
        let opaque = matches!(ty, Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_));
        let weights = [
            if opaque { 0 } else { 2 },
            variables.len().min(3) as u32 * 2,
            projections.len().min(2) as u32,
        ];
        match self.choices.weighted(&weights) {
            1 => {
                let index = self.choices.below(variables.len() as u32) as usize;
                let (qualifiers, name) = &variables[index];
                self.variable_reference(qualifiers, name)
            }
            2 => {
                let index = self.choices.below(projections.len() as u32) as usize;
                projections[index].clone()
            }
            _ => self.construct_leaf(env, ty),
        }
    }

    pub(crate) fn variable_reference(&mut self, qualifiers: &[String], name: &str) -> Expr {
        if self.mutation_site(MutationKind::UnboundVariable) {
            return var("unbound_variable");
        }
        if spec::syntax::operators::is_operator_name(name) {
            // An operator as a value is written as a section: `(M.+^)`.
            return Expr::OpSection {
                op: BinOp::Symbol(qual(qualifiers, name)),
                span: span(),
            };
        }
        qualified_var(qualifiers, name)
    }

    /// `r.f` for visible unqualified records and tuples with a field of `ty`.
    pub(crate) fn projections_of(&self, env: &Env, ty: &Ty) -> Vec<Expr> {
        let mut out = Vec::new();
        for binding in env.visible() {
            if !binding.qualifiers.is_empty() || !binding.scheme.is_mono() {
                continue;
            }
            let fields: Vec<(String, &Ty)> = match &binding.scheme.ty {
                Ty::Tuple(elements) => elements
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (i.to_string(), t))
                    .collect(),
                Ty::Record(fields) => fields.iter().map(|(n, t)| (n.clone(), t)).collect(),
                _ => continue,
            };
            for (field, field_ty) in fields {
                if field_ty.fits(ty) {
                    out.push(Expr::Var(qual(std::slice::from_ref(&binding.name), &field)));
                }
            }
        }
        out
    }

    pub(crate) fn construct_leaf(&mut self, env: &mut Env, ty: &Ty) -> Expr {
        match ty {
            Ty::Prim(prim) => self.literal_of(*prim),
            Ty::Array(size, element) => {
                let size = match size {
                    Size::Unknown => Size::Const(u64::from(self.choices.range(1, 3))),
                    other => other.clone(),
                };
                let element = element.concretise(u64::from(self.choices.range(1, 2)));
                match size {
                    Size::Const(k) if (1..=3).contains(&k) && self.choices.chance(2, 3) => {
                        let elements = (0..k).map(|_| self.leaf(env, &element)).collect();
                        Expr::Array {
                            elements,
                            span: span(),
                        }
                    }
                    size => {
                        let count = size_expr(&size);
                        let value = self.leaf(env, &element);
                        call("replicate", vec![count, value])
                    }
                }
            }
            Ty::Tuple(elements) => tuple(elements.iter().map(|t| self.leaf(env, t)).collect()),
            Ty::Record(fields) => Expr::Record {
                fields: fields
                    .iter()
                    .map(|(n, t)| (n.clone(), self.leaf(env, t)))
                    .collect(),
                span: span(),
            },
            Ty::Sum { constructors, .. } => {
                let usable: Vec<&(String, Vec<Ty>)> = constructors
                    .iter()
                    .filter(|(_, payload)| payload.iter().all(|t| env.inhabited(t)))
                    .collect();
                let index = self.choices.below(usable.len() as u32) as usize;
                let (name, payload) = usable[index].clone();
                let payload = payload.iter().map(|t| self.leaf(env, t)).collect();
                self.constructor_expr(env, ty, &name, payload)
            }
            Ty::Arrow(from, to) => {
                let name = self.fresh("p");
                let mark = env.mark();
                env.bind(&name, (**from).clone(), false);
                let body = self.leaf(env, to);
                env.truncate(mark);
                let param = pat_ascribe(pat_var(&name), env.type_exp(from));
                self.lambda_site(env, ty, lambda(vec![param], None, body))
            }
            Ty::Param(_) | Ty::LiftedParam(_) | Ty::Abstract(_) => {
                let witnesses: Vec<(Vec<String>, String, Vec<Ty>)> = env
                    .opaque_witnesses(ty)
                    .into_iter()
                    .map(|b| {
                        let (params, _) = b.scheme.ty.uncurry();
                        (
                            b.qualifiers.clone(),
                            b.name.clone(),
                            params.into_iter().cloned().collect(),
                        )
                    })
                    .collect();
                assert!(
                    !witnesses.is_empty(),
                    "requested an uninhabited type {ty:?}"
                );
                let index = self.choices.below(witnesses.len() as u32) as usize;
                let (qualifiers, name, params) = &witnesses[index];
                let arguments = params.iter().map(|p| self.leaf(env, p)).collect();
                apply_all(self.variable_reference(qualifiers, name), arguments)
            }
        }
    }

    pub(crate) fn constructor_expr(
        &mut self,
        env: &Env,
        ty: &Ty,
        name: &str,
        payload: Vec<Expr>,
    ) -> Expr {
        let constructor = Expr::Constructor {
            name: name.to_string(),
            payload,
            span: span(),
        };
        ascribe(constructor, env.type_exp(ty))
    }
}

/// A literal of type `prim` one past the largest value of `prim` (`256u8`,
/// `1e39f32`), where one can be written: not for `u64` (the lexer's limit)
/// nor `f64` (a decimal literal beyond `f64` is already infinite), nor
/// `bool`.
fn literal_out_of_range(prim: PrimType) -> Option<Expr> {
    let literal = match prim {
        PrimType::F32 => Literal::float(1e39, Some(FloatType::F32)),
        PrimType::U64 | PrimType::F64 | PrimType::Bool => return None,
        integer => {
            // Two past the largest: one past it is the negation of the
            // smallest signed value (`-128i8` is in range), and a literal
            // may sit under a negation.
            let (_, highest) = integer.integer_range()?;
            Literal::Int {
                value: u64::try_from(highest + 2).ok()?,
                suffix: int_type(integer),
            }
        }
    };
    Some(Expr::Literal {
        literal,
        span: span(),
    })
}
