//! A generator of closed, well-typed λC terms, directly in the mononomic
//! calculus (Fig. 5.3) rather than through closure conversion: it produces the
//! forms closure conversion never does — primitives applied directly, `λ`s
//! applied directly, applications whose function is computed (`⟨λ, 0⟩.1 e`),
//! closures with arbitrary environments and non-recursive `μ`-closures — so the
//! λC and λA rules are exercised beyond the image of Fig. 5.5.
//!
//! Like the λP generator it decodes a choice sequence; closure-typed
//! expressions only take converging forms (guide P5).

use super::generate::{generate_type, Choices};
use reference::nested::constants::{Const, Prim};
use reference::nested::lambda_c::{ExprC, TermC};
use reference::nested::types::Type;

fn constant(prim: Prim, type_args: Vec<Type>) -> ExprC {
    ExprC::constant(Const { prim, type_args })
}
fn call(prim: Prim, type_args: Vec<Type>, argument: ExprC) -> ExprC {
    ExprC::app(constant(prim, type_args), argument)
}

/// Generates λC terms.
pub struct GeneratorC<'a, 'b> {
    pub choices: &'b mut Choices<'a>,
}

impl GeneratorC<'_, '_> {
    /// Paths `•.i.j…` of `gamma` that have type `ty`.
    fn bullet_paths(gamma: Option<&Type>, ty: &Type) -> Vec<ExprC> {
        fn walk(at: ExprC, current: &Type, ty: &Type, out: &mut Vec<ExprC>) {
            if current == ty {
                out.push(at.clone());
            }
            if let Type::Prod(a, b) = current {
                walk(ExprC::proj(at.clone(), 1), a, ty, out);
                walk(ExprC::proj(at, 2), b, ty, out);
            }
        }
        let mut out = Vec::new();
        if let Some(gamma) = gamma {
            walk(ExprC::bullet(), gamma, ty, &mut out);
        }
        out
    }

    fn minimal(&mut self, gamma: Option<&Type>, ty: &Type) -> ExprC {
        let paths = Self::bullet_paths(gamma, ty);
        if !paths.is_empty() && self.choices.pick(2) == 1 {
            return paths[self.choices.pick(paths.len())].clone();
        }
        match ty {
            Type::Int => ExprC::int(self.choices.pick(5) as i64),
            Type::Bool => ExprC::boolean(self.choices.pick(2) == 1),
            Type::Prod(a, b) => ExprC::tuple(self.minimal(gamma, a), self.minimal(gamma, b)),
            Type::Sum(a, b) => {
                let args = vec![(**a).clone(), (**b).clone()];
                if self.choices.pick(2) == 0 {
                    call(Prim::Left, args, self.minimal(gamma, a))
                } else {
                    call(Prim::Right, args, self.minimal(gamma, b))
                }
            }
            Type::Array(element) => {
                if self.choices.pick(2) == 0 {
                    call(Prim::NilP, vec![(**element).clone()], ExprC::unit())
                } else {
                    call(
                        Prim::RepP,
                        vec![(**element).clone()],
                        ExprC::tuple(
                            ExprC::int(self.choices.pick(3) as i64 + 1),
                            self.minimal(gamma, element),
                        ),
                    )
                }
            }
            Type::Clo(a, b) => self.closure(gamma, a, b, 1),
            Type::Mu(..) => {
                let unfolded = ty.unfold().unwrap_or(Type::Unit);
                call(Prim::In, vec![ty.clone()], self.minimal(gamma, &unfolded))
            }
            _ => ExprC::unit(),
        }
    }

    /// `⟨⟨λ•:E×a. body, E, a, b, env⟩⟩`, or a non-recursive μ-closure.
    fn closure(&mut self, gamma: Option<&Type>, a: &Type, b: &Type, budget: usize) -> ExprC {
        let environment_type = if self.choices.pick(3) == 0 {
            Type::Unit
        } else {
            generate_type(self.choices, 1, true)
        };
        let code_type = Type::prod(environment_type.clone(), a.clone());
        let body = self.term(Some(&code_type), b, budget / 2);
        let code = ExprC::lam(code_type, body);
        if self.choices.pick(4) == 0 {
            // μ•:(a⇒b). ⟨⟨λ•:(a⇒b)×a. body', a⇒b, a, b, •⟩⟩ whose body does not
            // recurse (it may mention •.2 only).
            let self_type = Type::clo(a.clone(), b.clone());
            let code_type = Type::prod(self_type.clone(), a.clone());
            let argument_only = Type::prod(Type::Unit, a.clone());
            let inner = self.term(Some(&argument_only), b, budget / 2);
            let body = ExprC::app(
                ExprC::lam(argument_only, inner),
                ExprC::tuple(ExprC::unit(), ExprC::proj(ExprC::bullet(), 2)),
            );
            return ExprC::new(TermC::Mu(
                self_type.clone(),
                ExprC::new(TermC::Closure(
                    ExprC::lam(code_type, body),
                    self_type,
                    a.clone(),
                    b.clone(),
                    ExprC::bullet(),
                )),
            ));
        }
        let environment = self.term(gamma, &environment_type, budget / 2);
        let code = if self.choices.pick(4) == 0 {
            // Code that is not yet a value: ⟨λ, 0⟩.1.
            ExprC::proj(ExprC::tuple(code, ExprC::int(0)), 1)
        } else {
            code
        };
        ExprC::new(TermC::Closure(
            code,
            environment_type,
            a.clone(),
            b.clone(),
            environment,
        ))
    }

    /// A term of type `ty` under `Γ = gamma`.
    pub fn term(&mut self, gamma: Option<&Type>, ty: &Type, budget: usize) -> ExprC {
        if budget <= 1 {
            return self.minimal(gamma, ty);
        }
        let restricted = !ty.is_first_order();
        let forms = if restricted { 4 } else { 8 };
        let half = budget / 2;
        match self.choices.pick(forms + if restricted { 0 } else { 4 }) {
            0 => self.minimal(gamma, ty),
            1 => match ty {
                Type::Prod(a, b) => {
                    ExprC::tuple(self.term(gamma, a, half), self.term(gamma, b, half))
                }
                Type::Clo(a, b) => self.closure(gamma, a, b, budget),
                _ => self.minimal(gamma, ty),
            },
            2 => {
                // (λ•:σ. body) arg — the body sees only the new •.
                let sigma = generate_type(self.choices, 1, true);
                let body = self.term(Some(&sigma), ty, half);
                let argument = self.term(gamma, &sigma, half);
                ExprC::app(ExprC::lam(sigma, body), argument)
            }
            3 => {
                // (⟨λ•:σ. body, 0⟩.1) arg: a computed function.
                let sigma = generate_type(self.choices, 0, true);
                let body = self.term(Some(&sigma), ty, half);
                let argument = self.term(gamma, &sigma, half);
                let function = ExprC::proj(ExprC::tuple(ExprC::lam(sigma, body), ExprC::int(0)), 1);
                ExprC::app(function, argument)
            }
            4 => {
                // closure † arg
                let sigma = generate_type(self.choices, 1, true);
                let closure = self.closure(gamma, &sigma, ty, half);
                let argument = self.term(gamma, &sigma, half);
                ExprC::clo_app(closure, argument)
            }
            5 => {
                // case⟨⟨c1, c2⟩, s⟩
                let (left, right) = (
                    generate_type(self.choices, 1, true),
                    generate_type(self.choices, 1, true),
                );
                let c1 = self.closure(gamma, &left, ty, budget / 3);
                let c2 = self.closure(gamma, &right, ty, budget / 3);
                let scrutinee =
                    self.term(gamma, &Type::sum(left.clone(), right.clone()), budget / 3);
                call(
                    Prim::Case,
                    vec![left, right, ty.clone()],
                    ExprC::tuple(ExprC::tuple(c1, c2), scrutinee),
                )
            }
            6 => {
                // xs !: i
                let xs = self.term(gamma, &Type::array(ty.clone()), half);
                let i = ExprC::int(self.choices.pick(3) as i64);
                call(Prim::IndexP, vec![ty.clone()], ExprC::tuple(xs, i))
            }
            7 => {
                let other = generate_type(self.choices, 0, true);
                let pair = self.term(gamma, &Type::prod(ty.clone(), other), budget - 1);
                ExprC::proj(pair, 1)
            }
            _ => self.specific(gamma, ty, budget),
        }
    }

    fn specific(&mut self, gamma: Option<&Type>, ty: &Type, budget: usize) -> ExprC {
        let half = budget / 2;
        match ty {
            Type::Int => match self.choices.pick(3) {
                0 => {
                    let op = [Prim::Add, Prim::Sub, Prim::Mul][self.choices.pick(3)];
                    call(
                        op,
                        Vec::new(),
                        ExprC::tuple(self.term(gamma, ty, half), self.term(gamma, ty, half)),
                    )
                }
                1 => {
                    let element = generate_type(self.choices, 1, true);
                    call(
                        Prim::LenP,
                        vec![element.clone()],
                        self.term(gamma, &Type::array(element), budget - 1),
                    )
                }
                _ => call(
                    Prim::SumP,
                    Vec::new(),
                    self.term(gamma, &Type::array(Type::Int), budget - 1),
                ),
            },
            Type::Bool => {
                let op = [Prim::Lt, Prim::Eq, Prim::Le][self.choices.pick(3)];
                call(
                    op,
                    Vec::new(),
                    ExprC::tuple(
                        self.term(gamma, &Type::Int, half),
                        self.term(gamma, &Type::Int, half),
                    ),
                )
            }
            Type::Array(element) => match self.choices.pick(4) {
                0 => {
                    let sigma = generate_type(self.choices, 1, true);
                    let closure = self.closure(gamma, &sigma, element, half);
                    let xs = self.term(gamma, &Type::array(sigma.clone()), half);
                    call(
                        Prim::MapP,
                        vec![sigma, (**element).clone()],
                        ExprC::tuple(closure, xs),
                    )
                }
                1 => call(
                    Prim::ConcatP,
                    vec![(**element).clone()],
                    ExprC::tuple(self.term(gamma, ty, half), self.term(gamma, ty, half)),
                ),
                2 => {
                    let flags = self.term(gamma, &Type::array(Type::Bool), half);
                    let xs = self.term(gamma, ty, half);
                    call(
                        Prim::PackP,
                        vec![(**element).clone()],
                        ExprC::tuple(flags, xs),
                    )
                }
                _ => call(
                    Prim::RepP,
                    vec![(**element).clone()],
                    ExprC::tuple(
                        ExprC::int(self.choices.pick(4) as i64),
                        self.term(gamma, element, budget - 1),
                    ),
                ),
            },
            _ => self.minimal(gamma, ty),
        }
    }
}

/// Decodes a closed λC term of a first-order type.
pub fn decode_term_c(data: &[u32], budget: usize) -> ExprC {
    let mut choices = Choices::new(data);
    let ty = if choices.pick(2) == 0 {
        Type::array(generate_type(&mut choices, 1, true))
    } else {
        generate_type(&mut choices, 2, true)
    };
    let mut generator = GeneratorC {
        choices: &mut choices,
    };
    generator.term(None, &ty, budget)
}
