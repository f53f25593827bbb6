//! Whole programs: type abbreviations, top-level functions (monomorphic,
//! size-polymorphic, polymorphic, higher-order, function-returning,
//! operators, constants), the module section, and the entry point with
//! values for its arguments.

use super::build::*;
use super::env::{Abbreviation, Env};
use super::mutate::MutationKind;
use super::types::*;
use super::Generator;
use spec::syntax::ast::*;
use spec::value::{Array, PrimType, PrimValue, Value, ValueType};

/// Constructor names for sum types.
const CONSTRUCTORS: [&str; 8] = [
    "none", "some", "left", "right", "circle", "square", "leaf", "node",
];

/// Operator names user functions may take (their fixity is that of the
/// built-in prefix).
const OPERATORS: [&str; 3] = ["+^", "*^", "&^"];

impl Generator {
    /// The program, its entry point's argument values and result type.
    pub fn program(&mut self) -> (Program, Vec<Value>, TypeExp) {
        let mut env = Env::default();
        let mut decs = Vec::new();
        if self.config.extra_mutations && self.mutation_site(MutationKind::UnknownModule) {
            // `open absent_module.inner`: the path's first module is unbound.
            decs.push(Dec::Open {
                module: ModExp::Var(qual(&["absent_module".to_string()], "inner")),
                span: span(),
            });
        }
        if !self.config.paper_core {
            self.type_abbreviations(&mut env, &mut decs);
        }
        if self.config.value_dependent_sizes && !self.config.paper_core {
            decs.push(fill_sized_dec());
        }
        let decision = self.choices.used().len();
        if self.config.modules && self.choices.chance(3, 4) {
            let start = self.choices.used().len();
            self.module_section(&mut env, &mut decs);
            let end = self.choices.used().len();
            self.spans.push(super::ChoiceSpan {
                decision,
                start,
                end,
            });
        }
        let count = self.choices.range(1, self.config.max_declarations.max(1));
        for _ in 0..count {
            if self.config.modules && self.choices.chance(1, 4) {
                self.module_section(&mut env, &mut decs);
            } else {
                let (dec, name, scheme) = self.function_dec(&mut env, false);
                decs.push(dec);
                env.bind_scheme(Vec::new(), &name, scheme);
            }
        }
        let (entry, arguments, result_type) = self.entry_point(&mut env);
        decs.push(entry);
        (Program { decs }, arguments, result_type)
    }

    fn type_abbreviations(&mut self, env: &mut Env, decs: &mut Vec<Dec>) {
        let sums = self.choices.range(0, 2);
        for _ in 0..sums {
            let name = self.fresh("shape");
            let count = self.choices.range(2, 3) as usize;
            let start = self.choices.below(CONSTRUCTORS.len() as u32) as usize;
            let mut constructors = Vec::new();
            for k in 0..count {
                let constructor = CONSTRUCTORS[(start + k) % CONSTRUCTORS.len()].to_string();
                let payload_count = self.choices.below(3);
                let payload = (0..payload_count)
                    .map(|_| Ty::Prim(self.random_prim()))
                    .collect();
                constructors.push((constructor, payload));
            }
            let ty = Ty::Sum {
                abbreviation: name.clone(),
                constructors: constructors.clone(),
            };
            let definition = TypeExp::Sum {
                constructors: constructors
                    .iter()
                    .map(|(n, payload)| SumConstructor {
                        name: n.clone(),
                        payload: payload.iter().map(|t| env.type_exp(t)).collect(),
                        span: span(),
                    })
                    .collect(),
                span: span(),
            };
            decs.push(type_dec(&name, Vec::new(), definition));
            env.sum_types.push(ty);
        }
        if self.choices.chance(1, 2) {
            let name = self.fresh("point");
            let ty = Ty::Record(vec![
                ("x".to_string(), Ty::Prim(self.random_prim())),
                ("y".to_string(), Ty::Prim(self.random_prim())),
            ]);
            decs.push(type_dec(&name, Vec::new(), env.type_exp(&ty)));
            env.abbreviations.push(Abbreviation {
                name,
                parameter: None,
                ty,
            });
        }
        if self.choices.chance(1, 3) {
            let name = self.fresh("pair");
            let parameter = "a".to_string();
            let element = Ty::Param(parameter.clone());
            let definition = env.type_exp(&Ty::Tuple(vec![element.clone(), element.clone()]));
            decs.push(type_dec(
                &name,
                vec![TypeParam::Type {
                    name: parameter.clone(),
                    liftedness: Liftedness::Unlifted,
                    span: span(),
                }],
                definition,
            ));
            env.abbreviations.push(Abbreviation {
                name,
                parameter: Some(parameter),
                ty: Ty::Tuple(vec![element.clone(), element]),
            });
        }
    }

    /// A name for a top-level function: fresh, or now and then one that
    /// shadows an earlier top-level function.
    fn function_name(&mut self, env: &Env, prefix: &str, nested: bool) -> String {
        let earlier: Vec<String> = env
            .visible()
            .into_iter()
            .filter(|b| {
                b.qualifiers.is_empty()
                    && b.name.starts_with('f')
                    && !self.names_in_level.contains(&b.name)
            })
            .map(|b| b.name.clone())
            .collect();
        // Futhark rejects two definitions of one name in one declaration
        // list, so only a definition inside a structure shadows an outer one.
        if nested && !earlier.is_empty() && prefix == "f" && self.choices.chance(1, 6) {
            self.counters.shadowing += 1;
            let index = self.choices.below(earlier.len() as u32) as usize;
            let name = earlier[index].clone();
            self.names_in_level.push(name.clone());
            return name;
        }
        let name = self.fresh(prefix);
        self.names_in_level.push(name.clone());
        name
    }

    /// A top-level `def` (also used inside structures and functor bodies):
    /// the declaration, its name and its type scheme.
    pub fn function_dec(&mut self, env: &mut Env, nested: bool) -> (Dec, String, Scheme) {
        let mut kind = self.choices.weighted(&[6, 3, 2, 2, 1, 1, 1, 1]);
        let operator = OPERATORS
            .iter()
            .find(|op| !self.used_operators.iter().any(|used| used == *op));
        if kind == 5 && operator.is_none() {
            kind = 0;
        }
        if self.config.paper_core && !matches!(kind, 3 | 4 | 6) {
            // The paper's core has no type or size parameters and no arrays.
            kind = 0;
        }
        let mark = env.mark();
        let mut size_params: Vec<String> = Vec::new();
        let mut type_params: Vec<String> = Vec::new();
        let mut param_types: Vec<Ty> = Vec::new();
        let result: Ty;
        let name;
        match kind {
            1 => {
                name = self.function_name(env, "f", nested);
                let size = self.fresh("n");
                env.bind_size(&size);
                size_params.push(size.clone());
                let count = self.choices.range(1, 2);
                for _ in 0..count {
                    let element = self.random_type(env, true, 0);
                    param_types.push(array(Size::Named(size.clone()), element));
                }
                if self.choices.chance(1, 2) {
                    param_types.push(self.random_type(env, false, 1));
                }
                result = if self.choices.chance(1, 2) {
                    let element = self.random_type(env, true, 0);
                    array(Size::Named(size), element)
                } else {
                    self.random_type(env, false, 1)
                };
            }
            2 => {
                name = self.function_name(env, "f", nested);
                let parameter = self.fresh("a");
                type_params.push(parameter.clone());
                let element = Ty::Param(parameter.clone());
                param_types.push(element.clone());
                let sized = self.choices.chance(1, 2);
                let size = self.fresh("n");
                if sized {
                    env.bind_size(&size);
                    size_params.push(size.clone());
                    param_types.push(array(Size::Named(size.clone()), element.clone()));
                }
                if self.choices.chance(1, 2) {
                    param_types.push(Ty::Prim(self.random_prim()));
                }
                result = match self.choices.below(4) {
                    0 => element.clone(),
                    1 => Ty::Tuple(vec![element.clone(), Ty::Prim(self.random_prim())]),
                    2 if sized => array(Size::Named(size), element.clone()),
                    _ => Ty::Prim(self.random_prim()),
                };
            }
            3 => {
                name = self.function_name(env, "f", nested);
                let input = self.random_type(env, true, 0);
                let output = self.random_type(env, true, 0);
                param_types.push(arrow(input.clone(), output));
                if self.config.paper_core || self.choices.chance(1, 2) {
                    param_types.push(input);
                } else {
                    param_types.push(array(Size::Unknown, input));
                }
                result = self.random_type(env, false, 1);
            }
            4 => {
                name = self.function_name(env, "f", nested);
                let input = Ty::Prim(self.random_prim());
                param_types.push(input);
                let from = Ty::Prim(self.random_prim());
                let to = self.random_type(env, true, 0);
                result = arrow(from, to);
            }
            5 => {
                name = operator.expect("an unused operator").to_string();
                self.used_operators.push(name.clone());
                let operand = Ty::Prim(self.random_numeric());
                param_types.push(operand.clone());
                param_types.push(operand.clone());
                result = operand;
            }
            6 => {
                name = self.function_name(env, "c", nested);
                result = self.random_type(env, true, 1);
            }
            7 => {
                // `def f '^a (x: a) (y: a) ... : a`: a lifted type parameter,
                // never used where TFP'18 requires orderZero.
                name = self.function_name(env, "f", nested);
                let parameter = self.fresh("a");
                type_params.push(parameter.clone());
                let element = Ty::LiftedParam(parameter);
                param_types.push(element.clone());
                param_types.push(element.clone());
                if self.choices.chance(1, 2) {
                    param_types.push(Ty::Prim(self.random_prim()));
                }
                result = if self.choices.chance(1, 3) {
                    Ty::Tuple(vec![element, Ty::Prim(self.random_prim())])
                } else {
                    element
                };
            }
            _ => {
                name = self.function_name(env, "f", nested);
                let count = self.choices.range(1, 3);
                for _ in 0..count {
                    param_types.push(self.random_type(env, false, 1));
                }
                result = self.random_type(env, false, 1);
            }
        }
        let mut params = Vec::new();
        let mut param_names = Vec::new();
        for param_ty in &param_types {
            let param = self.fresh("x");
            params.push(pat_ascribe(pat_var(&param), env.type_exp(param_ty)));
            param_names.push(param);
        }
        for (param, param_ty) in param_names.iter().zip(&param_types) {
            env.bind(param, param_ty.clone(), false);
        }
        let depth = self.config.depth;
        let mut body = self.expr(env, &result, depth);
        if !param_types.is_empty() && !self.config.paper_core {
            body = fresh_result(body, &result);
        }
        if self.mutation_site(MutationKind::ReturnTypeMismatch) {
            body = self.wrong_value(&result);
        }
        if let Ty::LiftedParam(_) = &result {
            if self.mutation_site(MutationKind::LiftedValueFromIf) {
                body = if_then_else(
                    literal(PrimType::Bool, 1),
                    var(&param_names[0]),
                    var(&param_names[1]),
                );
            }
        }
        let mut return_type = env.type_exp(&result);
        if let Ty::Array(Size::Unknown, element) = &result {
            if self.choices.chance(1, 4) {
                // `?[m].[m]t`: the existential size written out.
                let size = self.fresh("m");
                return_type = TypeExp::Existential {
                    sizes: vec![size.clone()],
                    ty: Box::new(env.type_exp(&array(Size::Named(size), (**element).clone()))),
                    span: span(),
                };
            }
        }
        env.truncate(mark);
        let ty = param_types
            .iter()
            .rev()
            .fold(result, |acc, p| arrow(p.clone(), acc));
        let dec = Dec::Value(ValueBind {
            kind: ValueBindKind::Def,
            name: name.clone(),
            type_params: size_params
                .iter()
                .map(|n| TypeParam::Size {
                    name: n.clone(),
                    span: span(),
                })
                .chain(type_params.iter().map(|n| TypeParam::Type {
                    name: n.clone(),
                    liftedness: if param_types.contains(&Ty::LiftedParam(n.clone())) {
                        Liftedness::Lifted
                    } else {
                        Liftedness::Unlifted
                    },
                    span: span(),
                }))
                .collect(),
            params,
            return_type: Some(return_type),
            body,
            span: span(),
        });
        let scheme = Scheme {
            size_params,
            type_params,
            ty,
        };
        (dec, name, scheme)
    }

    /// `entry main [n] (x: [n]i32) ... : t = body`, with argument values.
    fn entry_point(&mut self, env: &mut Env) -> (Dec, Vec<Value>, TypeExp) {
        let mark = env.mark();
        let size_count = if self.config.paper_core {
            0
        } else {
            self.choices.range(0, 2)
        };
        let declared_sizes: Vec<(String, u64)> = (0..size_count)
            .map(|_| {
                let length = u64::from(self.choices.below(5));
                (self.fresh("n"), length)
            })
            .collect();
        let param_count = self.choices.range(1, 3);
        let mut param_types = Vec::new();
        for _ in 0..param_count {
            let prim = self.random_prim();
            let choose_size = |generator: &mut Generator| -> Size {
                if !declared_sizes.is_empty() && generator.choices.chance(2, 3) {
                    let index = generator.choices.below(declared_sizes.len() as u32) as usize;
                    Size::Named(declared_sizes[index].0.clone())
                } else if generator.choices.chance(1, 2) {
                    Size::Unknown
                } else {
                    Size::Const(u64::from(generator.choices.range(1, 4)))
                }
            };
            let shapes = if self.config.paper_core {
                [1, 0, 0]
            } else {
                [3, 3, 1]
            };
            let structured = self.config.structured_arguments
                && !self.config.paper_core
                && self.choices.chance(1, 3);
            let ty = match self.choices.weighted(&shapes) {
                _ if structured => self.structured_argument_type(env),
                0 => Ty::Prim(prim),
                1 => array(choose_size(self), Ty::Prim(prim)),
                _ => {
                    let outer = choose_size(self);
                    let inner = match choose_size(self) {
                        Size::Unknown => Size::Const(2),
                        known => known,
                    };
                    array(outer, array(inner, Ty::Prim(prim)))
                }
            };
            param_types.push(ty);
        }
        let used_sizes: Vec<(String, u64)> = declared_sizes
            .into_iter()
            .filter(|(n, _)| param_types.iter().any(|t| t.mentions_size(n)))
            .collect();
        for (size, _) in &used_sizes {
            env.bind_size(size);
        }
        let mut params = Vec::new();
        let mut arguments = Vec::new();
        let mut long_parameter = None;
        // Unique parameters (proofs-notes/uniqueness.md): a one-dimensional
        // array parameter of known positive length may be declared `*` and
        // updated in place at the start of the body.
        let mut consumed_parameters: Vec<(String, PrimType, Ty)> = Vec::new();
        for param_ty in &param_types {
            let name = self.fresh("x");
            let known_length = match param_ty {
                Ty::Array(Size::Const(k), _) => Some(*k),
                Ty::Array(Size::Named(n), _) => used_sizes
                    .iter()
                    .find(|(size, _)| size == n)
                    .map(|(_, length)| *length),
                _ => None,
            };
            if let (Some(1..), Ty::Array(_, element)) = (known_length, param_ty) {
                if let (Ty::Prim(prim), false) = (element.as_ref(), self.config.paper_core) {
                    if self.choices.chance(1, 4) {
                        consumed_parameters.push((name.clone(), *prim, param_ty.clone()));
                        let declared =
                            if self.mutation_site(MutationKind::UpdateOfANonUniqueParameter) {
                                env.type_exp(param_ty)
                            } else {
                                TypeExp::Unique {
                                    ty: Box::new(env.type_exp(param_ty)),
                                    span: span(),
                                }
                            };
                        params.push(pat_ascribe(pat_var(&name), declared));
                        env.bind(&name, param_ty.clone(), false);
                        arguments.push(self.argument_value(param_ty, &used_sizes));
                        continue;
                    }
                }
            }
            if let Ty::Array(Size::Unknown, element) = param_ty {
                if let Ty::Prim(prim) = element.as_ref() {
                    if *prim != PrimType::Bool && long_parameter.is_none() {
                        long_parameter = Some((name.clone(), *prim));
                    }
                }
            }
            params.push(pat_ascribe(pat_var(&name), env.type_exp(param_ty)));
            env.bind(&name, param_ty.clone(), false);
            arguments.push(self.argument_value(param_ty, &used_sizes));
        }
        if self.mutation_site(MutationKind::HigherOrderEntryPoint) {
            let name = self.fresh("x");
            let function_ty = arrow(i32_ty(), i32_ty());
            params.push(pat_ascribe(pat_var(&name), env.type_exp(&function_ty)));
        }
        let result = loop {
            let candidate = self.random_type(env, false, 1);
            if !candidate.has_opaque_part() {
                break candidate;
            }
        };
        let depth = self.config.depth;
        let mut body = self.expr(env, &result, depth);
        if !self.config.paper_core {
            body = fresh_result(body, &result);
        }
        // `let x = x with [0] = v in body` for each unique parameter `x`
        // (the body sees the updated array); the mutant binds the update to
        // a new name, so that the body's uses of `x` follow its consumption.
        // A third of the updates go through a local function of a unique
        // parameter, `let set (a: *t) (v: e) : *t = a with [0] = v in let x
        // = set x v in body`: the call consumes `x` (U-Apply, U-SelfAlias);
        // a third through a loop that updates its parameter in place and
        // returns a copy of an array bound outside it in its last round,
        // `let keep = copy x in let x = loop acc = x for i < 2 do let acc' =
        // acc with [0] = v in if i == 0 then acc' else copy keep in body`
        // (U-Loop; the mutant returns `keep` itself: loop-aliases).
        for (name, prim, param_ty) in consumed_parameters.iter().rev() {
            let value = self.literal_of(*prim);
            let route = self.choices.below(3);
            let through_a_function = route == 1;
            let through_a_loop = route == 2;
            let update = |target: Expr, value: Expr| Expr::Update {
                target: Box::new(target),
                indices: vec![DimIndex::Index(i64_literal(0))],
                value: Box::new(value),
                span: span(),
            };
            let bound = if self.mutation_site(MutationKind::UseAfterConsume) {
                // The mutant's body uses the parameter after its update,
                // whether or not the body drawn above mentions it.
                let used = self.fresh("used");
                body = let_in(pat_var(&used), index(var(name), i64_literal(0)), body);
                self.fresh("consumed")
            } else {
                name.clone()
            };
            if through_a_function {
                let (set, a, v) = (self.fresh("set"), self.fresh("a"), self.fresh("v"));
                let unique = || TypeExp::Unique {
                    ty: Box::new(env.type_exp(param_ty)),
                    span: span(),
                };
                let call = apply_all(var(&set), vec![var(name), value]);
                body = Expr::LetFun {
                    name: set.clone(),
                    type_params: Vec::new(),
                    params: vec![
                        pat_ascribe(pat_var(&a), unique()),
                        pat_ascribe(pat_var(&v), env.type_exp(&Ty::Prim(*prim))),
                    ],
                    return_type: Some(unique()),
                    value: Box::new(update(var(&a), var(&v))),
                    body: Box::new(let_in(pat_var(&bound), call, body)),
                    span: span(),
                };
            } else if through_a_loop {
                let (keep, acc, updated, i) = (
                    self.fresh("keep"),
                    self.fresh("acc"),
                    self.fresh("updated"),
                    self.fresh("i"),
                );
                let kept = if self.mutation_site(MutationKind::LoopResultAliasesAnOuterArray) {
                    var(&keep)
                } else {
                    call("copy", vec![var(&keep)])
                };
                let loop_body = let_in(
                    pat_var(&updated),
                    update(var(&acc), value),
                    if_then_else(binop("==", var(&i), i64_literal(0)), var(&updated), kept),
                );
                let looped = Expr::Loop {
                    pat: pat_var(&acc),
                    init: Some(Box::new(var(name))),
                    form: LoopForm::For {
                        var: i,
                        var_span: span(),
                        bound: Box::new(i64_literal(2)),
                    },
                    body: Box::new(loop_body),
                    span: span(),
                };
                body = let_in(
                    pat_var(&keep),
                    call("copy", vec![var(name)]),
                    let_in(pat_var(&bound), looped, body),
                );
            } else {
                body = let_in(pat_var(&bound), update(var(name), value), body);
            }
        }

        let mut result = result;
        // `long_arrays`: the entry also returns `scan (+) 0 xs` of its first
        // long parameter, so the optimising side's chunked paths run,
        // the `scan` and `reduce` of the same elements with a branching
        // maximum (`\a b -> if a < b then b else a`, from `T.lowest`): an
        // associative operator that is not one primitive operator, so it
        // takes the lane-parallel and element-wise chunked paths where
        // `(+)` takes the vectorised one, and a gather (below). No generator
        // choice is drawn.
        if let (true, Some((name, prim))) = (self.config.long_arrays, long_parameter) {
            let scanned = call("scan", vec![op_section("+"), literal(prim, 0), var(&name)]);
            let (a, b) = (self.fresh("a"), self.fresh("b"));
            let maximum = lambda(
                vec![pat_var(&a), pat_var(&b)],
                None,
                if_then_else(binop("<", var(&a), var(&b)), var(&b), var(&a)),
            );
            let lowest = || qualified_var(&[prim.name().to_string()], "lowest");
            let scanned_maximum = call("scan", vec![maximum.clone(), lowest(), var(&name)]);
            let maximum = call("reduce", vec![maximum, lowest(), var(&name)]);
            // A gather from the free array at a computed `i64` index, as in
            // a stencil or a sparse product: `map (\i -> xs[(i * 7919) %
            // length xs]) (iota (length xs))`.
            let i = self.fresh("i");
            let length = || call("length", vec![var(&name)]);
            let position = binop("%", binop("*", var(&i), i64_literal(7919)), length());
            let gathered = call(
                "map",
                vec![
                    lambda(vec![pat_var(&i)], None, index(var(&name), position)),
                    call("iota", vec![length()]),
                ],
            );
            body = tuple(vec![body, scanned, scanned_maximum, maximum, gathered]);
            let elements = || array(Size::Unknown, Ty::Prim(prim));
            result = Ty::Tuple(vec![
                result,
                elements(),
                elements(),
                Ty::Prim(prim),
                elements(),
            ]);
        }
        let result_type = env.type_exp(&result);
        // A point-free entry point, as real programs write them (`entry f
        // (x: t) : u -> r = \y -> e`): the last parameter becomes the
        // body's lambda and the result an arrow; Futhark (and both
        // implementations, SPEC_NOTES TFP18-24) takes it as a parameter.
        let mut declared_result = result_type.clone();
        // (Not with the higher-order mutant's extra parameter, nor when the
        // parameter's type has a size parameter: a size parameter must be
        // the size of one of the parameters the entry point names.)
        let movable = params.len() >= 2
            && params.len() == param_types.len()
            && consumed_parameters.is_empty()
            && param_types
                .last()
                .is_some_and(|t| !used_sizes.iter().any(|(n, _)| t.mentions_size(n)));
        if movable && self.choices.chance(1, 4) {
            let last = params.pop().expect("two parameters or more");
            let last_type = param_types[params.len()].clone();
            declared_result = env.type_exp(&arrow(last_type, result.clone()));
            body = lambda(vec![last], None, body);
        }
        env.truncate(mark);
        let dec = Dec::Value(ValueBind {
            kind: ValueBindKind::Entry,
            name: "main".to_string(),
            type_params: used_sizes
                .iter()
                .map(|(n, _)| TypeParam::Size {
                    name: n.clone(),
                    span: span(),
                })
                .collect(),
            params,
            return_type: Some(declared_result),
            body,
            span: span(),
        });
        (dec, arguments, result_type)
    }

    /// A tuple, record, array of pairs or sum type for an entry parameter
    /// (`GenConfig::structured_arguments`).
    fn structured_argument_type(&mut self, env: &Env) -> Ty {
        let sums = env.sum_types.len() as u32;
        match self.choices.below(if sums > 0 { 4 } else { 3 }) {
            0 => Ty::Tuple(vec![
                self.structured_component(env),
                Ty::Prim(self.random_prim()),
            ]),
            1 => Ty::Record(vec![
                ("x".to_string(), self.structured_component(env)),
                ("y".to_string(), self.structured_component(env)),
            ]),
            // An array of one to three pairs: the backends store it as one
            // array per component (rows stacked per leaf).
            2 => array(
                Size::Const(u64::from(self.choices.range(1, 3))),
                Ty::Tuple(vec![
                    Ty::Prim(self.random_prim()),
                    Ty::Prim(self.random_prim()),
                ]),
            ),
            _ => env.sum_types[self.choices.below(sums) as usize].clone(),
        }
    }

    /// A component of a structured entry parameter: a primitive, a pair of
    /// primitives or one of the program's sum types.
    fn structured_component(&mut self, env: &Env) -> Ty {
        let sums = env.sum_types.len() as u32;
        match self.choices.weighted(&[3, 1, sums.min(1)]) {
            0 => Ty::Prim(self.random_prim()),
            1 => Ty::Tuple(vec![
                Ty::Prim(self.random_prim()),
                Ty::Prim(self.random_prim()),
            ]),
            _ => env.sum_types[self.choices.below(sums) as usize].clone(),
        }
    }

    /// A value of an entry parameter type (primitives and arrays of them;
    /// tuples, records and sums under `GenConfig::structured_arguments`).
    fn argument_value(&mut self, ty: &Ty, sizes: &[(String, u64)]) -> Value {
        match ty {
            Ty::Prim(prim) => Value::Prim(self.prim_value(*prim)),
            Ty::Array(size, element) => {
                let length = match size {
                    Size::Const(k) => *k,
                    Size::Named(name) => sizes
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, k)| *k)
                        .unwrap_or(0),
                    Size::Unknown if self.config.long_arrays => {
                        super::LONG_ARRAY_LENGTH + u64::from(self.choices.below(5))
                    }
                    Size::Unknown => u64::from(self.choices.below(5)),
                };
                let rows: Vec<Value> = (0..length)
                    .map(|_| self.argument_value(element, sizes))
                    .collect();
                if rows.is_empty() {
                    let (inner_shape, prim) = shape_of(element, sizes);
                    let mut shape = vec![0];
                    shape.extend(inner_shape);
                    return Value::Array(
                        Array::empty(shape, ValueType::Prim(prim)).expect("empty array"),
                    );
                }
                Value::Array(Array::from_rows(rows).expect("regular rows"))
            }
            Ty::Tuple(components) => Value::Tuple(
                components
                    .iter()
                    .map(|component| self.argument_value(component, sizes))
                    .collect(),
            ),
            Ty::Record(fields) => {
                let fields = fields
                    .iter()
                    .map(|(name, field)| (name.clone(), self.argument_value(field, sizes)))
                    .collect();
                Value::record(fields).expect("a record with distinct field names")
            }
            Ty::Sum { constructors, .. } => {
                let index = self.choices.below(constructors.len() as u32) as usize;
                let (name, payload) = &constructors[index];
                let payload = payload
                    .iter()
                    .map(|component| self.argument_value(component, sizes))
                    .collect();
                Value::sum(name.clone(), payload).expect("a constructor and its payload")
            }
            _ => unreachable!("entry parameters are primitives, arrays, tuples, records or sums"),
        }
    }

    fn prim_value(&mut self, prim: PrimType) -> PrimValue {
        let magnitude = self.choices.below(41) as i64 - 20;
        match prim {
            PrimType::I8 => PrimValue::I8(magnitude as i8),
            PrimType::I16 => PrimValue::I16(magnitude as i16),
            PrimType::I32 => PrimValue::I32(magnitude as i32),
            PrimType::I64 => PrimValue::I64(magnitude),
            PrimType::U8 => PrimValue::U8(magnitude.unsigned_abs() as u8),
            PrimType::U16 => PrimValue::U16(magnitude.unsigned_abs() as u16),
            PrimType::U32 => PrimValue::U32(magnitude.unsigned_abs() as u32),
            PrimType::U64 => PrimValue::U64(magnitude.unsigned_abs()),
            PrimType::F32 => PrimValue::F32(magnitude as f32 / 4.0),
            PrimType::F64 => PrimValue::F64(magnitude as f64 / 8.0),
            PrimType::Bool => PrimValue::Bool(magnitude % 2 == 0),
        }
    }
}

/// The inner shape and element type of an entry parameter's element type.
fn shape_of(ty: &Ty, sizes: &[(String, u64)]) -> (Vec<usize>, PrimType) {
    match ty {
        Ty::Prim(prim) => (Vec::new(), *prim),
        Ty::Array(size, element) => {
            let length = match size {
                Size::Const(k) => *k,
                Size::Named(name) => sizes
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, k)| *k)
                    .unwrap_or(0),
                Size::Unknown => 0,
            };
            let (mut shape, prim) = shape_of(element, sizes);
            shape.insert(0, length as usize);
            (shape, prim)
        }
        _ => unreachable!("entry parameters are primitives or arrays"),
    }
}

/// The function [`super::GenConfig::value_dependent_sizes`] declares; its
/// name is not one the generator's fresh names can take.
pub(crate) const FILL_SIZED: &str = "fill_sized";

/// `copy body` when a `body` of type `ty` may hold arrays: a function's
/// result may not alias a top-level constant (proofs-notes/uniqueness.md,
/// `return-aliases-free`), and the generator does not track which
/// variables its results alias. Not in the paper's core (`paper_core`),
/// which has no arrays and no prelude.
pub(crate) fn fresh_result(body: Expr, ty: &Ty) -> Expr {
    if ty.holds_arrays() {
        call("copy", vec![body])
    } else {
        body
    }
}

fn fill_sized_dec() -> Dec {
    let text = format!("def {FILL_SIZED} 't (n: i64) (x: t) : [n]t = replicate n x");
    let parsed = spec::syntax::parse_program(spec::source::FileId(0), &text)
        .expect("the declaration parses");
    parsed.decs.into_iter().next().expect("one declaration")
}

fn type_dec(name: &str, params: Vec<TypeParam>, definition: TypeExp) -> Dec {
    Dec::Type(TypeBind {
        liftedness: Liftedness::Unlifted,
        name: name.to_string(),
        params,
        definition,
        span: span(),
    })
}
