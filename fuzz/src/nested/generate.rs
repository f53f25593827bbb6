//! Generators of closed, well-typed λP terms (and, through closure conversion
//! or directly, λC terms) for the nested oracle.
//!
//! A term is decoded from a *choice sequence* (`Vec<u32>`, a proptest value):
//! every decision reads the next choice, and choice 0 (or running out of
//! choices) always picks the smallest production. Shrinking the sequence —
//! proptest removes elements and lowers them towards 0 — therefore shrinks the
//! term, and the same sequence always decodes to the same term.
//!
//! Guide P1/P5: generated programs are total except for precondition
//! violations (indexing, `takeP` beyond the length, `zipP` of unequal lengths),
//! which are ⊥ on both sides; expressions of types that contain functions are
//! only built from forms that converge (λ, variables, applications, tuples,
//! projections of those, `let`), so no divergent closure reaches `mapP` or
//! `repP` (the genuine gap P5 of App. C).

use proptest::collection::vec;
use proptest::prelude::*;
use reference::nested::constants::Prim;
use reference::nested::lambda_p::{ExprP, TermP};
use reference::nested::types::Type;
use spec::source::Span;
use std::rc::Rc;

/// A decoder of a choice sequence.
pub struct Choices<'a> {
    data: &'a [u32],
    position: usize,
    fresh: usize,
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u32]) -> Self {
        Choices {
            data,
            position: 0,
            fresh: 0,
        }
    }

    /// A number in `0..n` (0 when the sequence is exhausted).
    pub fn pick(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let choice = self.data.get(self.position).copied().unwrap_or(0);
        self.position += 1;
        choice as usize % n
    }

    fn small_int(&mut self) -> i64 {
        [0, 1, 2, 3, -1, 5, 7, 10][self.pick(8)]
    }

    fn fresh_name(&mut self) -> Rc<str> {
        self.fresh += 1;
        format!("v{}", self.fresh).into()
    }
}

fn e(term: TermP) -> ExprP {
    ExprP::new(term, Span::default())
}
fn app(f: ExprP, x: ExprP) -> ExprP {
    e(TermP::App(Box::new(f), Box::new(x)))
}
fn tuple(a: ExprP, b: ExprP) -> ExprP {
    e(TermP::Tuple(Box::new(a), Box::new(b)))
}
fn prim(p: Prim, args: Vec<Type>) -> ExprP {
    e(TermP::Const(p, Some(args)))
}
fn call(p: Prim, args: Vec<Type>, argument: ExprP) -> ExprP {
    app(prim(p, args), argument)
}
fn lam(name: Rc<str>, ty: Type, body: ExprP) -> ExprP {
    e(TermP::Lam(name, Some(ty), Box::new(body)))
}
fn var(name: &Rc<str>) -> ExprP {
    e(TermP::Var(name.clone()))
}

/// The recursive type of integer lists, `μl.⟨⟩ + Int × l`.
pub fn int_list() -> Type {
    Type::mu(
        "l",
        Type::sum(Type::Unit, Type::prod(Type::Int, Type::Var("l".into()))),
    )
}

/// A type; `first_order` leaves out function types.
pub fn generate_type(choices: &mut Choices, depth: usize, first_order: bool) -> Type {
    let options = if depth == 0 {
        3
    } else if first_order {
        7
    } else {
        8
    };
    match choices.pick(options) {
        0 => Type::Int,
        1 => Type::Bool,
        2 => Type::Unit,
        3 => Type::array(generate_type(choices, depth - 1, first_order)),
        4 => Type::prod(
            generate_type(choices, depth - 1, first_order),
            generate_type(choices, depth - 1, first_order),
        ),
        5 => Type::sum(
            generate_type(choices, depth - 1, first_order),
            generate_type(choices, depth - 1, first_order),
        ),
        6 => {
            if choices.pick(3) == 0 {
                int_list()
            } else {
                Type::array(Type::Int)
            }
        }
        _ => Type::fun(
            generate_type(choices, depth - 1, true),
            generate_type(choices, depth - 1, false),
        ),
    }
}

/// The typing context of the generator.
type Context = Vec<(Rc<str>, Type)>;

/// Generates a closed λP term of type `ty` within `budget` nodes (roughly).
pub struct Generator<'a, 'b> {
    pub choices: &'b mut Choices<'a>,
}

impl Generator<'_, '_> {
    /// The smallest term of type `ty`.
    pub fn minimal(&mut self, context: &Context, ty: &Type) -> ExprP {
        if let Some((name, _)) = context.iter().rev().find(|(_, t)| t == ty) {
            if self.choices.pick(2) == 1 {
                return var(name);
            }
        }
        match ty {
            Type::Int => e(TermP::Int(self.choices.small_int())),
            Type::Bool => e(TermP::Bool(self.choices.pick(2) == 1)),
            Type::Unit | Type::Var(_) => e(TermP::Unit),
            Type::Prod(a, b) => tuple(self.minimal(context, a), self.minimal(context, b)),
            Type::Sum(a, b) => {
                if self.choices.pick(2) == 0 {
                    call(
                        Prim::Left,
                        vec![(**a).clone(), (**b).clone()],
                        self.minimal(context, a),
                    )
                } else {
                    call(
                        Prim::Right,
                        vec![(**a).clone(), (**b).clone()],
                        self.minimal(context, b),
                    )
                }
            }
            Type::Array(element) => match self.choices.pick(3) {
                0 => call(Prim::NilP, vec![(**element).clone()], e(TermP::Unit)),
                _ => call(
                    Prim::RepP,
                    vec![(**element).clone()],
                    tuple(
                        e(TermP::Int(self.choices.pick(3) as i64 + 1)),
                        self.minimal(context, element),
                    ),
                ),
            },
            Type::Fun(a, b) | Type::Clo(a, b) => {
                let name = self.choices.fresh_name();
                let mut inner = context.clone();
                inner.push((name.clone(), (**a).clone()));
                let body = self.minimal(&inner, b);
                lam(name, (**a).clone(), body)
            }
            Type::Mu(..) => {
                let unfolded = ty.unfold().unwrap_or(Type::Unit);
                call(Prim::In, vec![ty.clone()], self.minimal(context, &unfolded))
            }
        }
    }

    /// A term of type `ty`.
    pub fn term(&mut self, context: &Context, ty: &Type, budget: usize) -> ExprP {
        if budget <= 1 {
            return self.minimal(context, ty);
        }
        let restricted = ty.mentions_function();
        let variables: Vec<Rc<str>> = context
            .iter()
            .filter(|(_, t)| t == ty)
            .map(|(name, _)| name.clone())
            .collect();
        if !variables.is_empty() && self.choices.pick(3) == 1 {
            return var(&variables[self.choices.pick(variables.len())]);
        }
        let general_forms = if restricted { 4 } else { 8 };
        let specific = self.specific_forms(ty);
        let choice = self.choices.pick(general_forms + specific);
        let half = budget / 2;
        match choice {
            0 => self.minimal(context, ty),
            1 => self.structural(context, ty, budget),
            2 => {
                // let v = e1 in e2
                let depth = if self.choices.pick(3) == 0 { 2 } else { 1 };
                let bound_type = generate_type(self.choices, depth, restricted);
                let bound = self.term(context, &bound_type, half);
                let name = self.choices.fresh_name();
                let mut inner = context.clone();
                inner.push((name.clone(), bound_type.clone()));
                let body = self.term(&inner, ty, half);
                app(lam(name, bound_type, body), bound)
            }
            3 => {
                // (λv:σ. e) e'
                let argument_type = generate_type(self.choices, 1, true);
                let function =
                    self.term(context, &Type::fun(argument_type.clone(), ty.clone()), half);
                let argument = self.term(context, &argument_type, half);
                app(function, argument)
            }
            4 => {
                // (e, e').1
                let other = generate_type(self.choices, 0, true);
                let pair = self.term(context, &Type::prod(ty.clone(), other), budget - 1);
                e(TermP::Proj(Box::new(pair), 1))
            }
            5 => {
                // if c then a else b
                let condition = self.term(context, &Type::Bool, budget / 3);
                let then_branch = self.term(context, ty, budget / 3);
                let else_branch = self.term(context, ty, budget / 3);
                let unit_lambda = |body: ExprP| lam("_".into(), Type::Unit, body);
                call(
                    Prim::Case,
                    vec![Type::Unit, Type::Unit, ty.clone()],
                    tuple(
                        tuple(unit_lambda(else_branch), unit_lambda(then_branch)),
                        call(Prim::BoolToSum, Vec::new(), condition),
                    ),
                )
            }
            6 => {
                // match s with Left x -> a | Right y -> b
                let left = generate_type(self.choices, 1, true);
                let right = generate_type(self.choices, 1, true);
                let scrutinee =
                    self.term(context, &Type::sum(left.clone(), right.clone()), budget / 3);
                let (x, y) = (self.choices.fresh_name(), self.choices.fresh_name());
                let mut left_context = context.clone();
                left_context.push((x.clone(), left.clone()));
                let mut right_context = context.clone();
                right_context.push((y.clone(), right.clone()));
                let a = self.term(&left_context, ty, budget / 3);
                let b = self.term(&right_context, ty, budget / 3);
                call(
                    Prim::Case,
                    vec![left.clone(), right.clone(), ty.clone()],
                    tuple(tuple(lam(x, left, a), lam(y, right, b)), scrutinee),
                )
            }
            7 => {
                // xs ! i
                let xs = self.term(context, &Type::array(ty.clone()), half);
                let i = self.index_term(context, half);
                call(Prim::IndexP, vec![ty.clone()], tuple(xs, i))
            }
            k => self.specific(context, ty, budget, k - general_forms),
        }
    }

    fn index_term(&mut self, context: &Context, budget: usize) -> ExprP {
        if self.choices.pick(3) == 0 {
            self.term(context, &Type::Int, budget)
        } else {
            e(TermP::Int(self.choices.pick(3) as i64))
        }
    }

    /// A constructor form at the top of `ty` with generated parts.
    fn structural(&mut self, context: &Context, ty: &Type, budget: usize) -> ExprP {
        match ty {
            Type::Prod(a, b) => tuple(
                self.term(context, a, budget / 2),
                self.term(context, b, budget / 2),
            ),
            Type::Sum(a, b) => {
                if self.choices.pick(2) == 0 {
                    call(
                        Prim::Left,
                        vec![(**a).clone(), (**b).clone()],
                        self.term(context, a, budget - 1),
                    )
                } else {
                    call(
                        Prim::Right,
                        vec![(**a).clone(), (**b).clone()],
                        self.term(context, b, budget - 1),
                    )
                }
            }
            Type::Array(element) => {
                let length = self.choices.pick(4) + 1;
                let items: Vec<ExprP> = (0..length)
                    .map(|_| self.term(context, element, budget / length))
                    .collect();
                let singleton = |item: ExprP| {
                    call(
                        Prim::RepP,
                        vec![(**element).clone()],
                        tuple(e(TermP::Int(1)), item),
                    )
                };
                let mut iter = items.into_iter().rev();
                let last = singleton(iter.next().unwrap_or_else(|| e(TermP::Unit)));
                iter.fold(last, |rest, item| {
                    call(
                        Prim::ConcatP,
                        vec![(**element).clone()],
                        tuple(singleton(item), rest),
                    )
                })
            }
            Type::Fun(a, b) => {
                let name = self.choices.fresh_name();
                let mut inner = context.clone();
                inner.push((name.clone(), (**a).clone()));
                let body = self.term(&inner, b, budget - 1);
                lam(name, (**a).clone(), body)
            }
            Type::Mu(..) => {
                let unfolded = ty.unfold().unwrap_or(Type::Unit);
                call(
                    Prim::In,
                    vec![ty.clone()],
                    self.term(context, &unfolded, budget - 1),
                )
            }
            _ => self.minimal(context, ty),
        }
    }

    fn specific_forms(&self, ty: &Type) -> usize {
        match ty {
            Type::Int => 7,
            Type::Bool => 3,
            Type::Array(element) if element.mentions_function() => 2,
            Type::Array(_) => 9,
            _ => 0,
        }
    }

    fn specific(&mut self, context: &Context, ty: &Type, budget: usize, which: usize) -> ExprP {
        let half = budget / 2;
        match (ty, which) {
            (Type::Int, 0..=2) => {
                let op = [Prim::Add, Prim::Sub, Prim::Mul][which];
                let a = self.term(context, &Type::Int, half);
                let b = self.term(context, &Type::Int, half);
                call(op, Vec::new(), tuple(a, b))
            }
            (Type::Int, 3) => {
                let element = generate_type(self.choices, 1, false);
                let xs = self.term(context, &Type::array(element.clone()), budget - 1);
                call(Prim::LenP, vec![element], xs)
            }
            (Type::Int, 4) => {
                let xs = self.term(context, &Type::array(Type::Int), budget - 1);
                call(Prim::SumP, Vec::new(), xs)
            }
            (Type::Int, 5) => self.bounded_recursion(context, budget),
            (Type::Int, _) => {
                // match Out<list> l with Left _ -> e | Right p -> p.1
                let list = int_list();
                let cell = Type::prod(Type::Int, list.clone());
                let scrutinee = call(
                    Prim::Out,
                    vec![list.clone()],
                    self.term(context, &list, half),
                );
                let (u, p) = (self.choices.fresh_name(), self.choices.fresh_name());
                let empty = self.term(context, &Type::Int, half);
                call(
                    Prim::Case,
                    vec![Type::Unit, cell.clone(), Type::Int],
                    tuple(
                        tuple(
                            lam(u, Type::Unit, empty),
                            lam(p.clone(), cell, e(TermP::Proj(Box::new(var(&p)), 1))),
                        ),
                        scrutinee,
                    ),
                )
            }
            (Type::Bool, 0 | 1) => {
                let op = [Prim::Lt, Prim::Eq][which];
                let a = self.term(context, &Type::Int, half);
                let b = self.term(context, &Type::Int, half);
                call(op, Vec::new(), tuple(a, b))
            }
            (Type::Bool, _) => call(
                Prim::Not,
                Vec::new(),
                self.term(context, &Type::Bool, budget - 1),
            ),
            (Type::Array(element), 0) => {
                // mapP (λx:σ. e, xs)
                let source = generate_type(self.choices, 1, true);
                let name = self.choices.fresh_name();
                let mut inner = context.clone();
                inner.push((name.clone(), source.clone()));
                let body = self.term(&inner, element, half);
                let xs = self.term(context, &Type::array(source.clone()), half);
                call(
                    Prim::MapP,
                    vec![source.clone(), (**element).clone()],
                    tuple(lam(name, source, body), xs),
                )
            }
            (Type::Array(element), 1) => {
                let a = self.term(context, ty, half);
                let b = self.term(context, ty, half);
                call(Prim::ConcatP, vec![(**element).clone()], tuple(a, b))
            }
            (Type::Array(element), 2) => {
                // let v = xs in packP (mapP (λx. p, v), v)
                let xs = self.term(context, ty, half);
                let v = self.choices.fresh_name();
                let x = self.choices.fresh_name();
                let mut inner = context.clone();
                inner.push((v.clone(), ty.clone()));
                let mut predicate_context = inner.clone();
                predicate_context.push((x.clone(), (**element).clone()));
                let predicate = self.term(&predicate_context, &Type::Bool, half);
                let flags = call(
                    Prim::MapP,
                    vec![(**element).clone(), Type::Bool],
                    tuple(lam(x, (**element).clone(), predicate), var(&v)),
                );
                let body = call(
                    Prim::PackP,
                    vec![(**element).clone()],
                    tuple(flags, var(&v)),
                );
                app(lam(v, ty.clone(), body), xs)
            }
            (Type::Array(element), 3) => {
                let n = self.index_term(context, half);
                let xs = self.term(context, ty, half);
                let p = if self.choices.pick(2) == 0 {
                    Prim::TakeP
                } else {
                    Prim::DropP
                };
                call(p, vec![(**element).clone()], tuple(n, xs))
            }
            (Type::Array(element), 4) => {
                let n = e(TermP::Int(self.choices.pick(4) as i64));
                let x = self.term(context, element, budget - 1);
                call(Prim::RepP, vec![(**element).clone()], tuple(n, x))
            }
            (Type::Array(element), 5) => {
                // let v = xs in let f = mapP (λx. p, v) in
                // combineP (f, (packP (mapP (not, f), v), packP (f, v)))
                let xs = self.term(context, ty, half);
                let (v, f, b, x) = (
                    self.choices.fresh_name(),
                    self.choices.fresh_name(),
                    self.choices.fresh_name(),
                    self.choices.fresh_name(),
                );
                let element = (**element).clone();
                let mut predicate_context = context.clone();
                predicate_context.push((v.clone(), ty.clone()));
                predicate_context.push((x.clone(), element.clone()));
                let predicate = self.term(&predicate_context, &Type::Bool, half);
                let flags = call(
                    Prim::MapP,
                    vec![element.clone(), Type::Bool],
                    tuple(lam(x, element.clone(), predicate), var(&v)),
                );
                let negated = call(
                    Prim::MapP,
                    vec![Type::Bool, Type::Bool],
                    tuple(
                        lam(b.clone(), Type::Bool, call(Prim::Not, Vec::new(), var(&b))),
                        var(&f),
                    ),
                );
                let pack =
                    |flags: ExprP| call(Prim::PackP, vec![element.clone()], tuple(flags, var(&v)));
                let body = call(
                    Prim::CombineP,
                    vec![element.clone()],
                    tuple(var(&f), tuple(pack(negated), pack(var(&f)))),
                );
                let with_flags = app(lam(f, Type::array(Type::Bool), body), flags);
                app(lam(v, ty.clone(), with_flags), xs)
            }
            (Type::Array(element), 6) => match &**element {
                Type::Prod(a, b) => {
                    let xs = self.term(context, &Type::array((**a).clone()), half);
                    let v = self.choices.fresh_name();
                    let x = self.choices.fresh_name();
                    let mut inner = context.clone();
                    inner.push((v.clone(), Type::array((**a).clone())));
                    let mut function_context = inner.clone();
                    function_context.push((x.clone(), (**a).clone()));
                    let body = self.term(&function_context, b, half);
                    let ys = call(
                        Prim::MapP,
                        vec![(**a).clone(), (**b).clone()],
                        tuple(lam(x, (**a).clone(), body), var(&v)),
                    );
                    let zipped = call(
                        Prim::ZipP,
                        vec![(**a).clone(), (**b).clone()],
                        tuple(var(&v), ys),
                    );
                    app(lam(v, Type::array((**a).clone()), zipped), xs)
                }
                _ => self.structural(context, ty, budget),
            },
            (Type::Array(element), 8) => {
                // mapP (λf. f x, fs) over an array of functions, which may be
                // a concatenation or a combination of closure arrays (cappP).
                let source = generate_type(self.choices, 0, true);
                let function = Type::fun(source.clone(), (**element).clone());
                let functions = Type::array(function.clone());
                let make = |g: &mut Self| {
                    let (k, x) = (g.choices.fresh_name(), g.choices.fresh_name());
                    let mut inner = context.clone();
                    inner.push((k.clone(), Type::Int));
                    inner.push((x.clone(), source.clone()));
                    let body = g.term(&inner, element, budget / 4);
                    let keys = g.term(context, &Type::array(Type::Int), budget / 4);
                    call(
                        Prim::MapP,
                        vec![Type::Int, function.clone()],
                        tuple(lam(k, Type::Int, lam(x, source.clone(), body)), keys),
                    )
                };
                let (first, second) = (make(self), make(self));
                let fs = if self.choices.pick(2) == 0 {
                    call(Prim::ConcatP, vec![function.clone()], tuple(first, second))
                } else {
                    // combineP (flags, (first, second)) with flags of the right shape.
                    let (a, b) = (self.choices.fresh_name(), self.choices.fresh_name());
                    let falses = call(
                        Prim::MapP,
                        vec![function.clone(), Type::Bool],
                        tuple(
                            lam(
                                self.choices.fresh_name(),
                                function.clone(),
                                e(TermP::Bool(false)),
                            ),
                            var(&a),
                        ),
                    );
                    let trues = call(
                        Prim::MapP,
                        vec![function.clone(), Type::Bool],
                        tuple(
                            lam(
                                self.choices.fresh_name(),
                                function.clone(),
                                e(TermP::Bool(true)),
                            ),
                            var(&b),
                        ),
                    );
                    let flags = call(Prim::ConcatP, vec![Type::Bool], tuple(trues, falses));
                    let combined = call(
                        Prim::CombineP,
                        vec![function.clone()],
                        tuple(flags, tuple(var(&a), var(&b))),
                    );
                    app(
                        lam(
                            a,
                            functions.clone(),
                            app(lam(b, functions.clone(), combined), first),
                        ),
                        second,
                    )
                };
                let f = self.choices.fresh_name();
                let argument = self.term(context, &source, budget / 4);
                call(
                    Prim::MapP,
                    vec![function.clone(), (**element).clone()],
                    tuple(lam(f.clone(), function, app(var(&f), argument)), fs),
                )
            }
            (Type::Array(element), _) => {
                // mapP over a nested array: mapP (λxs. mapP (λx. e, xs), xss)
                let source = generate_type(self.choices, 0, true);
                let (outer, inner_name) = (self.choices.fresh_name(), self.choices.fresh_name());
                let mut inner = context.clone();
                inner.push((outer.clone(), Type::array(source.clone())));
                let mut innermost = inner.clone();
                innermost.push((inner_name.clone(), source.clone()));
                let body = self.term(&innermost, element, half);
                let inner_map = call(
                    Prim::MapP,
                    vec![source.clone(), (**element).clone()],
                    tuple(lam(inner_name, source.clone(), body), var(&outer)),
                );
                let summed = call(Prim::LenP, vec![(**element).clone()], inner_map);
                let xss = self.term(context, &Type::array(Type::array(source.clone())), half);
                let lengths = call(
                    Prim::MapP,
                    vec![Type::array(source.clone()), Type::Int],
                    tuple(lam(outer, Type::array(source), summed), xss),
                );
                // One element per inner array, built from its length.
                let element_value = self.minimal(context, element);
                call(
                    Prim::MapP,
                    vec![Type::Int, (**element).clone()],
                    tuple(
                        lam(self.choices.fresh_name(), Type::Int, element_value),
                        lengths,
                    ),
                )
            }
            _ => self.minimal(context, ty),
        }
    }

    /// `letrec f : Int → Int = λn. if n ≤ 0 then b else s (f (n − 1)) in f k`
    /// with a small literal `k`: terminating recursion.
    fn bounded_recursion(&mut self, context: &Context, budget: usize) -> ExprP {
        let (f, n, acc) = (
            self.choices.fresh_name(),
            self.choices.fresh_name(),
            self.choices.fresh_name(),
        );
        let function_type = Type::fun(Type::Int, Type::Int);
        let base = self.term(context, &Type::Int, budget / 3);
        let mut step_context = context.clone();
        step_context.push((acc.clone(), Type::Int));
        let step = self.term(&step_context, &Type::Int, budget / 3);
        let recursive_call = app(
            var(&f),
            call(Prim::Sub, Vec::new(), tuple(var(&n), e(TermP::Int(1)))),
        );
        let step_applied = app(lam(acc, Type::Int, step), recursive_call);
        let unit_lambda = |body: ExprP| lam("_".into(), Type::Unit, body);
        let body = call(
            Prim::Case,
            vec![Type::Unit, Type::Unit, Type::Int],
            tuple(
                tuple(unit_lambda(step_applied), unit_lambda(base)),
                call(
                    Prim::BoolToSum,
                    Vec::new(),
                    call(Prim::Le, Vec::new(), tuple(var(&n), e(TermP::Int(0)))),
                ),
            ),
        );
        let recursive = e(TermP::Mu(
            f,
            function_type,
            Box::new(lam(n, Type::Int, body)),
        ));
        app(recursive, e(TermP::Int(self.choices.pick(4) as i64)))
    }
}

/// Decodes a closed λP term of a first-order type from a choice sequence.
pub fn decode_term(data: &[u32], budget: usize) -> ExprP {
    let mut choices = Choices::new(data);
    let ty = if choices.pick(5) < 3 {
        Type::array(generate_type(&mut choices, 1, true))
    } else {
        generate_type(&mut choices, 2, true)
    };
    let mut generator = Generator {
        choices: &mut choices,
    };
    generator.term(&Vec::new(), &ty, budget)
}

/// The proptest strategy of choice sequences.
pub fn choice_sequences(length: usize) -> impl Strategy<Value = Vec<u32>> {
    vec(any::<u32>(), 0..length)
}
