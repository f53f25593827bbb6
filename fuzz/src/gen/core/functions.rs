//! Function values: lambdas, operator/projection/index sections, and the
//! TFP'18 orderZero mutation sites of a function-valued expression.

use super::super::build::*;
use super::super::env::Env;
use super::super::mutate::MutationKind;
use super::super::types::*;
use super::super::Generator;
use spec::syntax::ast::*;
use spec::value::PrimType;

impl Generator {
    pub(crate) fn lambda_expr(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Arrow(from, to) = ty else {
            unreachable!()
        };
        let mark = env.mark();
        let mut params = Vec::new();
        let first = self.fresh("p");
        env.bind(&first, (**from).clone(), false);
        params.push(pat_ascribe(pat_var(&first), env.type_exp(from)));
        let mut result: &Ty = to;
        if let Ty::Arrow(second_from, second_to) = to.as_ref() {
            if self.choices.chance(2, 3) {
                let second = self.fresh("p");
                env.bind(&second, (**second_from).clone(), false);
                params.push(pat_ascribe(pat_var(&second), env.type_exp(second_from)));
                result = second_to;
            }
        }
        let return_type = if result.order_zero() && self.choices.chance(1, 4) {
            Some(env.type_exp(result))
        } else {
            None
        };
        let body = self.expr(env, result, depth);
        env.truncate(mark);
        self.lambda_site(env, ty, lambda(params, return_type, body))
    }

    /// Mutation sites for a function-valued expression: the TFP'18 orderZero
    /// premises (no function from `if`, from a loop, or in an array).
    pub(crate) fn lambda_site(&mut self, env: &Env, ty: &Ty, function: Expr) -> Expr {
        // Each mutant joins two different static values of one function
        // (the function and its η-expansion), which is what the premise
        // keeps out: TFP'18 D-If, D-Loop and D-Array cannot name one static
        // value for the result. Two copies of one function have the same
        // static value, and the theorems hold without the premise
        // (`runestone ablate --premise TFP18_T_IF_ORDER_ZERO`).
        if self.mutation_site(MutationKind::FunctionFromIf) {
            let expanded = self.eta_expanded(env, ty, function.clone());
            return if_then_else(literal(PrimType::Bool, 1), function, expanded);
        }
        if self.mutation_site(MutationKind::FunctionFromLoop) {
            let name = self.fresh("h");
            return Expr::Loop {
                pat: pat_ascribe(pat_var(&name), env.type_exp(ty)),
                init: Some(Box::new(function)),
                form: LoopForm::For {
                    var: self.fresh("i"),
                    var_span: span(),
                    bound: Box::new(i64_literal(1)),
                },
                body: Box::new(self.eta_expanded(env, ty, var(&name))),
                span: span(),
            };
        }
        if self.mutation_site(MutationKind::FunctionInArray) {
            return index(
                Expr::Array {
                    elements: vec![function.clone(), self.eta_expanded(env, ty, function)],
                    span: span(),
                },
                i64_literal(0),
            );
        }
        function
    }

    /// `\(p: τ) -> function p` for a function of type `τ -> τ'`: the same
    /// function, another static value (the function itself otherwise).
    fn eta_expanded(&mut self, env: &Env, ty: &Ty, function: Expr) -> Expr {
        let Ty::Arrow(from, _) = ty else {
            return function;
        };
        let p = self.fresh("p");
        lambda(
            vec![pat_ascribe(pat_var(&p), env.type_exp(from))],
            None,
            apply(function, var(&p)),
        )
    }

    pub(crate) fn section_possible(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Arrow(from, to) => match (from.as_ref(), to.as_ref()) {
                (Ty::Prim(a), Ty::Prim(b)) => {
                    a == b && *a != PrimType::Bool || *b == PrimType::Bool
                }
                (Ty::Prim(a), Ty::Arrow(b, c)) => {
                    matches!((b.as_ref(), c.as_ref()), (Ty::Prim(b), Ty::Prim(c)) if a == b && b == c)
                }
                (Ty::Tuple(elements), result) => elements.iter().any(|t| t == result),
                (Ty::Record(fields), result) => fields.iter().any(|(_, t)| t == result),
                (Ty::Array(Size::Const(k), element), result) => *k >= 1 && **element == *result,
                _ => false,
            },
            _ => false,
        }
    }

    /// Operator sections `(+)`, `(x +)`, `(+ y)`, `(< y)`, projection
    /// sections `(.f)` and index sections `(.[i])`.
    pub(crate) fn section(&mut self, env: &mut Env, ty: &Ty, depth: u32) -> Expr {
        let Ty::Arrow(from, to) = ty else {
            unreachable!()
        };
        let section = match (from.as_ref(), to.as_ref()) {
            (Ty::Prim(a), Ty::Arrow(..)) => {
                let op = if a.is_float() || *a == PrimType::Bool {
                    "=="
                } else {
                    "+"
                };
                let op = if *a == PrimType::Bool {
                    "&&"
                } else if a.is_float() {
                    "*"
                } else {
                    op
                };
                op_section(op)
            }
            (Ty::Prim(a), Ty::Prim(b)) if *b == PrimType::Bool => {
                let ops: &[&str] = if *a == PrimType::Bool {
                    &["==", "!="]
                } else {
                    &["<", ">=", "=="]
                };
                let op = ops[self.choices.below(ops.len() as u32) as usize];
                let operand = self.expr(env, from, depth);
                if self.choices.chance(1, 2) {
                    Expr::RightSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        right: Box::new(operand),
                        span: span(),
                    }
                } else {
                    Expr::LeftSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        left: Box::new(operand),
                        span: span(),
                    }
                }
            }
            (Ty::Prim(_), Ty::Prim(_)) => {
                let op = ["+", "*", "-"][self.choices.below(3) as usize];
                let operand = self.expr(env, from, depth);
                if op == "-" || self.choices.chance(1, 2) {
                    Expr::LeftSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        left: Box::new(operand),
                        span: span(),
                    }
                } else {
                    Expr::RightSection {
                        op: BinOp::Symbol(qual(&[], op)),
                        right: Box::new(operand),
                        span: span(),
                    }
                }
            }
            (Ty::Tuple(elements), result) => {
                let position = elements.iter().position(|t| t == result).expect("field");
                Expr::ProjectSection {
                    fields: vec![position.to_string()],
                    span: span(),
                }
            }
            (Ty::Record(fields), result) => {
                let (name, _) = fields.iter().find(|(_, t)| t == result).expect("field");
                Expr::ProjectSection {
                    fields: vec![name.clone()],
                    span: span(),
                }
            }
            (Ty::Array(Size::Const(k), _), _) => {
                let position = u64::from(self.choices.below(*k as u32));
                Expr::IndexSection {
                    indices: vec![DimIndex::Index(i64_literal(position))],
                    span: span(),
                }
            }
            _ => unreachable!("section_possible admitted {ty:?}"),
        };
        section
    }
}
