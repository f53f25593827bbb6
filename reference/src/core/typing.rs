//! TFP'18 §2.2, Fig. 2: the typing judgment `Γ ⊢ e : τ` with the
//! `τ orderZero` premises that restrict higher-order functions (no function
//! from a conditional, in an array, as a `map` result or from a loop), and
//! the judgment `τ orderZero` itself; extended (marked rules) to the rest of
//! the core, to polymorphic top-level declarations (§5.1: an unlifted type
//! parameter `'a` is of order zero and only instantiated with order-zero
//! types; a lifted one `'^a` is not of order zero), and to programs (entry
//! points must be first-order, §3).
//!
//! One function per judgment, one arm per rule; a failing premise is a
//! [`TypeError`] naming the rule.

use super::syntax::{
    BinOp, Expr, ExprKind, Intrinsic, LiftedFunction, LoopForm, Name, Pat, PrimType, PrimValue,
    Program, ReduceKind, Type, TypeParam, UnOp,
};
use super::value::type_name;
use crate::ablation::{self, *};
use crate::derivation::fire_rule;
use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::Liftedness;
use std::collections::{BTreeMap, HashMap};

/// A type scheme ∀α….τ (extension; a monomorphic binding has no parameters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheme {
    pub params: Vec<TypeParam>,
    pub ty: Type,
}

impl Scheme {
    pub fn mono(ty: Type) -> Scheme {
        Scheme {
            params: Vec::new(),
            ty,
        }
    }
}

/// Γ: a typing context.
pub type TypeEnv = imbl::OrdMap<Name, Scheme>;

/// A premise of a typing rule that does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub rule: &'static str,
    pub message: String,
    pub span: Span,
}

impl TypeError {
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(format!("{}: {}", self.rule, self.message))
            .with_code(self.rule)
            .with_primary(self.span, self.message.clone())
    }
}

fn fail<T>(rule: &'static str, span: Span, message: impl Into<String>) -> Result<T, TypeError> {
    Err(TypeError {
        rule,
        message: message.into(),
        span,
    })
}

/// τ orderZero: τ contains no function type (nor a lifted type parameter).
pub fn order_zero(ty: &Type) -> bool {
    match ty {
        Type::Prim(_) => {
            // TFP18 O-Prim
            fire_rule("TFP18 O-Prim");
            true
        }
        Type::Record(fields) => {
            // TFP18 O-Rcd
            fire_rule("TFP18 O-Rcd");
            fields.values().all(order_zero)
        }
        Type::Array(elem) => {
            // TFP18 O-Arr
            fire_rule("TFP18 O-Arr");
            order_zero(elem)
        }
        Type::Arrow(..) => false,
        Type::Sum(cs) => {
            // Extension: TFP18 O-Sum
            fire_rule("TFP18 O-Sum");
            cs.values().flatten().all(order_zero)
        }
        Type::Param(_, liftedness) => {
            // Extension: TFP18 O-Param
            fire_rule("TFP18 O-Param");
            *liftedness != Liftedness::Lifted
        }
        Type::Meta(_) => false,
    }
}

/// The premise `premise` (an equation of types): `expected = actual`.
fn expect_equal(
    premise: &'static Premise,
    span: Span,
    expected: &Type,
    actual: &Type,
    what: &str,
) -> Result<(), TypeError> {
    if ablation::holds(premise, expected == actual) {
        Ok(())
    } else {
        fail(
            premise.rule,
            span,
            format!(
                "{what}: expected {}, found {}",
                type_name(expected),
                type_name(actual)
            ),
        )
    }
}

/// The premise `premise` (`ty` orderZero).
fn expect_order_zero(
    premise: &'static Premise,
    span: Span,
    ty: &Type,
    what: &str,
) -> Result<(), TypeError> {
    if ablation::holds(premise, order_zero(ty)) {
        Ok(())
    } else {
        fail(
            premise.rule,
            span,
            format!(
                "{what} has type {}, which is not of order zero (it contains a function type or a lifted type parameter)",
                type_name(ty)
            ),
        )
    }
}

fn array_elem(rule: &'static str, span: Span, ty: &Type) -> Result<Type, TypeError> {
    match ty {
        Type::Array(elem) => Ok((**elem).clone()),
        other => fail(
            rule,
            span,
            format!("expected an array, found {}", type_name(other)),
        ),
    }
}

fn expect_int(
    rule: &'static str,
    span: Span,
    ty: &Type,
    what: &str,
) -> Result<PrimType, TypeError> {
    match ty {
        Type::Prim(t) if t.is_integer() => Ok(*t),
        other => fail(
            rule,
            span,
            format!("{what}: expected an integer, found {}", type_name(other)),
        ),
    }
}

/// The typing judgment, with the lifted functions of a target program.
#[derive(Default)]
pub struct Typing {
    functions: HashMap<Name, (Vec<Type>, Type)>,
    /// TFP'18 §7: conditionals may be of function type.
    pub or_conditionals: bool,
    /// When set, T-Lam records the types of each λ's free variables.
    pub lambda_contexts: Option<std::cell::RefCell<LambdaContexts>>,
}

/// For each λ (by address), the types of its free variables where it was
/// typed: the Γ of Fig. 7's closure rule.
pub type LambdaContexts = HashMap<usize, Vec<(Name, Type)>>;

impl Typing {
    pub fn new() -> Typing {
        Typing::default()
    }

    /// Makes lifted functions callable (target programs).
    pub fn with_functions(mut self, functions: &[LiftedFunction]) -> Typing {
        for f in functions {
            self.functions.insert(
                f.name.clone(),
                (
                    f.params.iter().map(|(_, t)| t.clone()).collect(),
                    f.result_type.clone(),
                ),
            );
        }
        self
    }

    /// Γ ⊢ e : τ.
    pub fn type_of(&self, env: &TypeEnv, expr: &Expr) -> Result<Type, TypeError> {
        crate::derivation::judgment(Some(expr.span), || {
            let judged = self.type_of_inner(env, expr);
            if let Ok(ty) = &judged {
                crate::derivation::conclusion(|| format!("τ = {}", type_name(ty)));
            }
            judged
        })
    }

    fn type_of_inner(&self, env: &TypeEnv, expr: &Expr) -> Result<Type, TypeError> {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Var { name, type_args } if type_args.is_empty() => {
                // TFP18 T-Var
                fire_rule("TFP18 T-Var");
                match env.get(name) {
                    Some(scheme) if scheme.params.is_empty() => Ok(scheme.ty.clone()),
                    Some(_) => fail(
                        "TFP18 T-Var",
                        span,
                        format!("{name} is polymorphic and needs type arguments"),
                    ),
                    None => fail("TFP18 T-Var", span, format!("unbound variable {name}")),
                }
            }
            ExprKind::Var { name, type_args } => {
                // Extension: TFP18 T-VarInst
                fire_rule("TFP18 T-VarInst");
                let rule = "TFP18 T-VarInst";
                let scheme = env.get(name).ok_or_else(|| TypeError {
                    rule,
                    message: format!("unbound variable {name}"),
                    span,
                })?;
                if scheme.params.len() != type_args.len() {
                    return fail(
                        rule,
                        span,
                        format!("{name} takes {} type arguments", scheme.params.len()),
                    );
                }
                let mut subst = BTreeMap::new();
                for (param, arg) in scheme.params.iter().zip(type_args) {
                    if param.liftedness == Liftedness::Unlifted && !order_zero(arg) {
                        return fail(
                            rule,
                            span,
                            format!(
                                "the type parameter '{} of {name} is not lifted, so it cannot be instantiated with {}, which is not of order zero (TFP'18 §5.1; declare it '^{})",
                                param.name,
                                type_name(arg),
                                param.name
                            ),
                        );
                    }
                    subst.insert(param.name.clone(), arg.clone());
                }
                Ok(scheme.ty.substitute(&subst))
            }
            ExprKind::Literal(PrimValue::Bool(true)) => {
                // TFP18 T-True
                fire_rule("TFP18 T-True");
                Ok(Type::bool())
            }
            ExprKind::Literal(PrimValue::Bool(false)) => {
                // TFP18 T-False
                fire_rule("TFP18 T-False");
                Ok(Type::bool())
            }
            ExprKind::Literal(p @ (PrimValue::F32(_) | PrimValue::F64(_))) => {
                // Extension: TFP18 T-Float
                fire_rule("TFP18 T-Float");
                Ok(Type::Prim(p.prim_type()))
            }
            ExprKind::Literal(p) => {
                // TFP18 T-Num
                fire_rule("TFP18 T-Num");
                Ok(Type::Prim(p.prim_type()))
            }
            ExprKind::BinOp {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                // TFP18 T-Plus
                fire_rule("TFP18 T-Plus");
                let t1 = self.type_of(env, lhs)?;
                let t2 = self.type_of(env, rhs)?;
                match &t1 {
                    Type::Prim(t) if *t != PrimType::Bool => {}
                    other => {
                        return fail(
                            "TFP18 T-Plus",
                            lhs.span,
                            format!("`+` needs numbers, found {}", type_name(other)),
                        )
                    }
                }
                expect_equal(
                    &TFP18_T_PLUS_OPERANDS,
                    rhs.span,
                    &t1,
                    &t2,
                    "the operands of `+`",
                )?;
                Ok(t1)
            }
            ExprKind::BinOp {
                op: BinOp::Le,
                lhs,
                rhs,
            } => {
                // TFP18 T-Leq
                fire_rule("TFP18 T-Leq");
                let t1 = self.type_of(env, lhs)?;
                let t2 = self.type_of(env, rhs)?;
                if !matches!(t1, Type::Prim(_)) {
                    return fail(
                        "TFP18 T-Leq",
                        lhs.span,
                        format!("`<=` needs primitive operands, found {}", type_name(&t1)),
                    );
                }
                expect_equal(
                    &TFP18_T_LEQ_OPERANDS,
                    rhs.span,
                    &t1,
                    &t2,
                    "the operands of `<=`",
                )?;
                Ok(Type::bool())
            }
            ExprKind::BinOp { op, lhs, rhs } => {
                // Extension: TFP18 T-BinOp
                fire_rule("TFP18 T-BinOp");
                let rule = "TFP18 T-BinOp";
                let t1 = self.type_of(env, lhs)?;
                let t2 = self.type_of(env, rhs)?;
                expect_equal(
                    &TFP18_T_BINOP_OPERANDS,
                    rhs.span,
                    &t1,
                    &t2,
                    &format!("the operands of `{}`", op.symbol()),
                )?;
                if matches!(op, BinOp::Eq | BinOp::Neq) {
                    expect_order_zero(
                        &TFP18_T_BINOP_COMPARED_ORDER_ZERO,
                        lhs.span,
                        &t1,
                        "a compared value",
                    )?;
                    return Ok(Type::bool());
                }
                let p = match t1 {
                    Type::Prim(p) => p,
                    other => {
                        return fail(
                            rule,
                            lhs.span,
                            format!(
                                "`{}` needs primitive operands, found {}",
                                op.symbol(),
                                type_name(&other)
                            ),
                        )
                    }
                };
                let ok = match op {
                    BinOp::And | BinOp::Or => p == PrimType::Bool,
                    BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => true,
                    BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                        p != PrimType::F32 && p != PrimType::F64
                    }
                    BinOp::Shl | BinOp::Shr | BinOp::UShr => p.is_integer(),
                    _ => p != PrimType::Bool,
                };
                if !ok {
                    return fail(
                        rule,
                        span,
                        format!("`{}` is not defined on {p}", op.symbol()),
                    );
                }
                Ok(if op.is_comparison() {
                    Type::bool()
                } else {
                    Type::Prim(p)
                })
            }
            ExprKind::UnOp { op, operand } => {
                // Extension: TFP18 T-UnOp
                fire_rule("TFP18 T-UnOp");
                let t = self.type_of(env, operand)?;
                match (&t, op) {
                    (Type::Prim(p), UnOp::Neg) if *p != PrimType::Bool => Ok(t),
                    (Type::Prim(p), UnOp::Not) if !p.is_float() => Ok(t),
                    _ => fail(
                        "TFP18 T-UnOp",
                        span,
                        format!("{op:?} is not defined on {}", type_name(&t)),
                    ),
                }
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } if self.or_conditionals => {
                // Extension: TFP18 T-IfOr
                fire_rule("TFP18 T-IfOr");
                let t1 = self.type_of(env, condition)?;
                expect_equal(
                    &TFP18_T_IFOR_CONDITION,
                    condition.span,
                    &Type::bool(),
                    &t1,
                    "the condition",
                )?;
                let t2 = self.type_of(env, then_branch)?;
                let t3 = self.type_of(env, else_branch)?;
                expect_equal(
                    &TFP18_T_IFOR_BRANCHES,
                    else_branch.span,
                    &t2,
                    &t3,
                    "the branches",
                )?;
                Ok(t2)
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                // TFP18 T-If
                fire_rule("TFP18 T-If");
                let t1 = self.type_of(env, condition)?;
                expect_equal(
                    &TFP18_T_IF_CONDITION,
                    condition.span,
                    &Type::bool(),
                    &t1,
                    "the condition",
                )?;
                let t2 = self.type_of(env, then_branch)?;
                let t3 = self.type_of(env, else_branch)?;
                expect_equal(
                    &TFP18_T_IF_BRANCHES,
                    else_branch.span,
                    &t2,
                    &t3,
                    "the branches",
                )?;
                expect_order_zero(&TFP18_T_IF_ORDER_ZERO, span, &t2, "a conditional")?;
                Ok(t2)
            }
            ExprKind::Lambda(lambda) => {
                // TFP18 T-Lam
                fire_rule("TFP18 T-Lam");
                if let Some(contexts) = &self.lambda_contexts {
                    // Remember Γ restricted to the λ's free variables (the Γ
                    // of Fig. 7's closure rule).
                    let lambda_expr = Expr::new(ExprKind::Lambda(lambda.clone()), span);
                    let gamma: Vec<(Name, Type)> = super::syntax::free_vars(&lambda_expr)
                        .into_iter()
                        .filter_map(|y| {
                            env.get(&y)
                                .filter(|s| s.params.is_empty())
                                .map(|s| (y.clone(), s.ty.clone()))
                        })
                        .collect();
                    contexts
                        .borrow_mut()
                        .insert(std::rc::Rc::as_ptr(lambda) as usize, gamma);
                }
                let inner = env.update(
                    lambda.param.clone(),
                    Scheme::mono(lambda.param_type.clone()),
                );
                let t2 = self.type_of(&inner, &lambda.body)?;
                Ok(Type::arrow(lambda.param_type.clone(), t2))
            }
            ExprKind::Apply { function, argument } => {
                // TFP18 T-App
                fire_rule("TFP18 T-App");
                let t1 = self.type_of(env, function)?;
                let t2 = self.type_of(env, argument)?;
                match t1 {
                    Type::Arrow(from, to) => {
                        expect_equal(
                            &TFP18_T_APP_ARGUMENT,
                            argument.span,
                            &from,
                            &t2,
                            "the argument",
                        )?;
                        Ok(*to)
                    }
                    other => fail(
                        "TFP18 T-App",
                        function.span,
                        format!(
                            "applying a value of type {}, which is not a function",
                            type_name(&other)
                        ),
                    ),
                }
            }
            ExprKind::Let { name, value, body } => {
                // TFP18 T-Let
                fire_rule("TFP18 T-Let");
                let t1 = self.type_of(env, value)?;
                let inner = env.update(name.clone(), Scheme::mono(t1));
                self.type_of(&inner, body)
            }
            ExprKind::Record(fields) => {
                // TFP18 T-Rcd
                fire_rule("TFP18 T-Rcd");
                let mut out = BTreeMap::new();
                for (label, e) in fields {
                    if out.insert(label.clone(), self.type_of(env, e)?).is_some() {
                        return fail("TFP18 T-Rcd", e.span, format!("duplicate field {label}"));
                    }
                }
                Ok(Type::Record(out))
            }
            ExprKind::Project { record, label } => {
                // TFP18 T-Proj
                fire_rule("TFP18 T-Proj");
                match self.type_of(env, record)? {
                    Type::Record(fields) => match fields.get(label) {
                        Some(t) => Ok(t.clone()),
                        None => fail(
                            "TFP18 T-Proj",
                            span,
                            format!("the record has no field {label}"),
                        ),
                    },
                    other => fail(
                        "TFP18 T-Proj",
                        span,
                        format!("projecting field {label} from {}", type_name(&other)),
                    ),
                }
            }
            ExprKind::Array {
                elements,
                elem_type,
            } => {
                // TFP18 T-Array
                fire_rule("TFP18 T-Array");
                for e in elements {
                    let t = self.type_of(env, e)?;
                    expect_equal(
                        &TFP18_T_ARRAY_ELEMENTS,
                        e.span,
                        elem_type,
                        &t,
                        "an array element",
                    )?;
                }
                expect_order_zero(
                    &TFP18_T_ARRAY_ORDER_ZERO,
                    span,
                    elem_type,
                    "an array element",
                )?;
                Ok(Type::array(elem_type.clone()))
            }
            ExprKind::Index { array, index } => {
                // TFP18 T-Index
                fire_rule("TFP18 T-Index");
                let t1 = self.type_of(env, array)?;
                let elem = array_elem("TFP18 T-Index", array.span, &t1)?;
                let t2 = self.type_of(env, index)?;
                expect_int("TFP18 T-Index", index.span, &t2, "the index")?;
                Ok(elem)
            }
            ExprKind::Update {
                array,
                index,
                value,
            } => {
                // TFP18 T-Update
                fire_rule("TFP18 T-Update");
                let t0 = self.type_of(env, array)?;
                let elem = array_elem("TFP18 T-Update", array.span, &t0)?;
                let t1 = self.type_of(env, index)?;
                expect_int("TFP18 T-Update", index.span, &t1, "the index")?;
                let t2 = self.type_of(env, value)?;
                expect_equal(
                    &TFP18_T_UPDATE_ELEMENT,
                    value.span,
                    &elem,
                    &t2,
                    "the new element",
                )?;
                Ok(t0)
            }
            ExprKind::Length(array) => {
                // TFP18 T-Length
                fire_rule("TFP18 T-Length");
                let t = self.type_of(env, array)?;
                array_elem("TFP18 T-Length", array.span, &t)?;
                Ok(Type::i64())
            }
            ExprKind::Map { param, body, array } => {
                // TFP18 T-Map
                fire_rule("TFP18 T-Map");
                let t = self.type_of(env, array)?;
                let t2 = array_elem("TFP18 T-Map", array.span, &t)?;
                let inner = env.update(param.clone(), Scheme::mono(t2));
                let t1 = self.type_of(&inner, body)?;
                expect_order_zero(
                    &TFP18_T_MAP_ORDER_ZERO,
                    body.span,
                    &t1,
                    "the result of the mapped function",
                )?;
                Ok(Type::array(t1))
            }
            ExprKind::Loop {
                param,
                init,
                form: LoopForm::ForIn { var, array },
                body,
                ..
            } => {
                // TFP18 T-Loop
                fire_rule("TFP18 T-Loop");
                let rule = "TFP18 T-Loop";
                let t = self.type_of(env, init)?;
                let ta = self.type_of(env, array)?;
                let t2 = array_elem(rule, array.span, &ta)?;
                let inner = env
                    .update(param.clone(), Scheme::mono(t.clone()))
                    .update(var.clone(), Scheme::mono(t2));
                let t3 = self.type_of(&inner, body)?;
                expect_equal(&TFP18_T_LOOP_BODY, body.span, &t, &t3, "the loop body")?;
                expect_order_zero(&TFP18_T_LOOP_ORDER_ZERO, span, &t, "a loop")?;
                Ok(t)
            }
            ExprKind::Loop {
                param,
                init,
                form: LoopForm::While { condition },
                body,
                ..
            } => {
                // Extension: TFP18 T-While
                fire_rule("TFP18 T-While");
                let t = self.type_of(env, init)?;
                let inner = env.update(param.clone(), Scheme::mono(t.clone()));
                let tc = self.type_of(&inner, condition)?;
                expect_equal(
                    &TFP18_T_WHILE_CONDITION,
                    condition.span,
                    &Type::bool(),
                    &tc,
                    "the loop condition",
                )?;
                let t3 = self.type_of(&inner, body)?;
                expect_equal(&TFP18_T_WHILE_BODY, body.span, &t, &t3, "the loop body")?;
                expect_order_zero(&TFP18_T_WHILE_ORDER_ZERO, span, &t, "a loop")?;
                Ok(t)
            }
            ExprKind::Reduce {
                kind,
                x,
                y,
                operator,
                neutral,
                array,
            } => {
                let (rule, [elements, elements_order_zero, operator_result]) = match kind {
                    ReduceKind::Reduce => {
                        // Extension: TFP18 T-Reduce
                        fire_rule("TFP18 T-Reduce");
                        (
                            "TFP18 T-Reduce",
                            [
                                &TFP18_T_REDUCE_ELEMENTS,
                                &TFP18_T_REDUCE_ORDER_ZERO,
                                &TFP18_T_REDUCE_OPERATOR,
                            ],
                        )
                    }
                    ReduceKind::Scan => {
                        // Extension: TFP18 T-Scan
                        fire_rule("TFP18 T-Scan");
                        (
                            "TFP18 T-Scan",
                            [
                                &TFP18_T_SCAN_ELEMENTS,
                                &TFP18_T_SCAN_ORDER_ZERO,
                                &TFP18_T_SCAN_OPERATOR,
                            ],
                        )
                    }
                };
                let t = self.type_of(env, neutral)?;
                let ta = self.type_of(env, array)?;
                let elem = array_elem(rule, array.span, &ta)?;
                expect_equal(elements, array.span, &t, &elem, "the array's elements")?;
                expect_order_zero(elements_order_zero, span, &t, "the elements")?;
                let inner = env
                    .update(x.clone(), Scheme::mono(t.clone()))
                    .update(y.clone(), Scheme::mono(t.clone()));
                let tr = self.type_of(&inner, operator)?;
                expect_equal(
                    operator_result,
                    operator.span,
                    &t,
                    &tr,
                    "the operator's result",
                )?;
                Ok(match kind {
                    ReduceKind::Reduce => t,
                    ReduceKind::Scan => Type::array(t),
                })
            }
            ExprKind::Filter {
                param,
                predicate,
                array,
            } => {
                // Extension: TFP18 T-Filter
                fire_rule("TFP18 T-Filter");
                let ta = self.type_of(env, array)?;
                let elem = array_elem("TFP18 T-Filter", array.span, &ta)?;
                let inner = env.update(param.clone(), Scheme::mono(elem));
                let tp = self.type_of(&inner, predicate)?;
                expect_equal(
                    &TFP18_T_FILTER_PREDICATE,
                    predicate.span,
                    &Type::bool(),
                    &tp,
                    "the predicate",
                )?;
                Ok(ta)
            }
            ExprKind::ReduceByIndex {
                dest,
                x,
                y,
                operator,
                neutral,
                indices,
                values,
            } => {
                // Extension: TFP18 T-ReduceByIndex
                fire_rule("TFP18 T-ReduceByIndex");
                let rule = "TFP18 T-ReduceByIndex";
                let td = self.type_of(env, dest)?;
                let t = array_elem(rule, dest.span, &td)?;
                let tn = self.type_of(env, neutral)?;
                expect_equal(
                    &TFP18_T_REDUCEBYINDEX_NEUTRAL,
                    neutral.span,
                    &t,
                    &tn,
                    "the neutral element",
                )?;
                let ti = self.type_of(env, indices)?;
                let ie = array_elem(rule, indices.span, &ti)?;
                expect_equal(
                    &TFP18_T_REDUCEBYINDEX_INDICES,
                    indices.span,
                    &Type::i64(),
                    &ie,
                    "the indices",
                )?;
                let tv = self.type_of(env, values)?;
                let ve = array_elem(rule, values.span, &tv)?;
                expect_equal(
                    &TFP18_T_REDUCEBYINDEX_VALUES,
                    values.span,
                    &t,
                    &ve,
                    "the values",
                )?;
                let inner = env
                    .update(x.clone(), Scheme::mono(t.clone()))
                    .update(y.clone(), Scheme::mono(t.clone()));
                let tr = self.type_of(&inner, operator)?;
                expect_equal(
                    &TFP18_T_REDUCEBYINDEX_OPERATOR,
                    operator.span,
                    &t,
                    &tr,
                    "the operator's result",
                )?;
                Ok(td)
            }
            ExprKind::Slice {
                array,
                start,
                end,
                stride,
            } => {
                // Extension: TFP18 T-Slice
                fire_rule("TFP18 T-Slice");
                let ta = self.type_of(env, array)?;
                array_elem("TFP18 T-Slice", array.span, &ta)?;
                for part in [start, end, stride].into_iter().flatten() {
                    let t = self.type_of(env, part)?;
                    expect_equal(
                        &TFP18_T_SLICE_BOUNDS,
                        part.span,
                        &Type::i64(),
                        &t,
                        "a slice bound",
                    )?;
                }
                Ok(ta)
            }
            ExprKind::Intrinsic { op, args } => {
                // Extension: TFP18 T-Intrinsic
                fire_rule("TFP18 T-Intrinsic");
                let mut types = Vec::new();
                for a in args {
                    types.push(self.type_of(env, a)?);
                }
                intrinsic_type(op, &types).or_else(|m| fail("TFP18 T-Intrinsic", span, m))
            }
            ExprKind::Assert {
                condition, body, ..
            } => {
                // Extension: TFP18 T-Assert
                fire_rule("TFP18 T-Assert");
                let t = self.type_of(env, condition)?;
                expect_equal(
                    &TFP18_T_ASSERT_CONDITION,
                    condition.span,
                    &Type::bool(),
                    &t,
                    "the assertion",
                )?;
                self.type_of(env, body)
            }
            ExprKind::Constructor {
                name,
                payload,
                sum_type,
            } => {
                // Extension: TFP18 T-Constructor
                fire_rule("TFP18 T-Constructor");
                let rule = "TFP18 T-Constructor";
                let Type::Sum(cs) = sum_type else {
                    return fail(rule, span, format!("#{name} is not of a sum type"));
                };
                let Some(types) = cs.get(name) else {
                    return fail(
                        rule,
                        span,
                        format!("#{name} is not a constructor of {}", type_name(sum_type)),
                    );
                };
                if types.len() != payload.len() {
                    return fail(
                        rule,
                        span,
                        format!("#{name} takes {} arguments", types.len()),
                    );
                }
                for (e, t) in payload.iter().zip(types) {
                    let te = self.type_of(env, e)?;
                    expect_equal(
                        &TFP18_T_CONSTRUCTOR_ARGUMENTS,
                        e.span,
                        t,
                        &te,
                        "the constructor's argument",
                    )?;
                }
                expect_order_zero(
                    &TFP18_T_CONSTRUCTOR_ORDER_ZERO,
                    span,
                    sum_type,
                    "a sum type",
                )?;
                Ok(sum_type.clone())
            }
            ExprKind::Match { scrutinee, cases } => {
                // Extension: TFP18 T-Match
                fire_rule("TFP18 T-Match");
                let rule = "TFP18 T-Match";
                let ts = self.type_of(env, scrutinee)?;
                let mut result: Option<Type> = None;
                for (pat, body) in cases {
                    let mut inner = env.clone();
                    bind_pattern(pat, &ts, &mut inner).or_else(|m| fail(rule, body.span, m))?;
                    let t = self.type_of(&inner, body)?;
                    match &result {
                        None => result = Some(t),
                        Some(r) => {
                            expect_equal(&TFP18_T_MATCH_CASES, body.span, r, &t, "the cases")?
                        }
                    }
                }
                let t = result.ok_or_else(|| TypeError {
                    rule,
                    message: "a match needs a case".into(),
                    span,
                })?;
                expect_order_zero(&TFP18_T_MATCH_ORDER_ZERO, span, &t, "a match")?;
                // Extension: TFP18 T-MatchExhaustive
                // (SPEC_NOTES TFP18-18: as Futhark, the cases must cover
                // every value of the scrutinee's type.)
                fire_rule("TFP18 T-MatchExhaustive");
                let patterns: Vec<Pat> = cases.iter().map(|(p, _)| p.clone()).collect();
                if let Some(unmatched) = unmatched_value(&patterns, &ts) {
                    return fail(
                        "TFP18 T-MatchExhaustive",
                        span,
                        format!("the match is not exhaustive: no case matches `{unmatched}`"),
                    );
                }
                Ok(t)
            }
            ExprKind::Call { function, args } => {
                // Extension: TFP18 T-Call
                fire_rule("TFP18 T-Call");
                let Some((params, result)) = self.functions.get(function) else {
                    return fail("TFP18 T-Call", span, format!("unknown function {function}"));
                };
                if params.len() != args.len() {
                    return fail("TFP18 T-Call", span, "wrong number of arguments");
                }
                for (a, t) in args.iter().zip(params) {
                    let ta = self.type_of(env, a)?;
                    expect_equal(&TFP18_T_CALL_ARGUMENTS, a.span, t, &ta, "an argument")?;
                }
                Ok(result.clone())
            }
        }
    }
}

/// Binds the variables of a `match` pattern at type `ty`.
pub fn bind_pattern(pat: &Pat, ty: &Type, env: &mut TypeEnv) -> Result<(), String> {
    match (pat, ty) {
        (Pat::Wildcard, _) => Ok(()),
        (Pat::Var(x), t) => {
            env.insert(x.clone(), Scheme::mono(t.clone()));
            Ok(())
        }
        (Pat::Literal(p), Type::Prim(t)) if p.prim_type() == *t => Ok(()),
        (Pat::Record(fields), Type::Record(types)) => {
            for (l, p) in fields {
                let t = types.get(l).ok_or_else(|| format!("no field {l}"))?;
                bind_pattern(p, t, env)?;
            }
            Ok(())
        }
        (Pat::Constructor(c, ps), Type::Sum(cs)) => {
            let ts = cs
                .get(c)
                .ok_or_else(|| format!("#{c} is not a constructor of {}", type_name(ty)))?;
            if ts.len() != ps.len() {
                return Err(format!("#{c} takes {} arguments", ts.len()));
            }
            for (p, t) in ps.iter().zip(ts) {
                bind_pattern(p, t, env)?;
            }
            Ok(())
        }
        (p, t) => Err(format!(
            "the pattern {p:?} does not match type {}",
            type_name(t)
        )),
    }
}

/// A value of type `ty` (written as a pattern, `_` for "any other value")
/// that none of `patterns` matches, if there is one: the premise of the
/// extension rule T-MatchExhaustive. Futhark's rule: a variable or wildcard matches
/// everything; `true` and `false` together cover `bool`; the constructors of
/// a sum and the fields of a record are covered componentwise; literals of
/// any other type never cover it.
pub fn unmatched_value(patterns: &[Pat], ty: &Type) -> Option<String> {
    let rows: Vec<Vec<Pat>> = patterns.iter().map(|p| vec![p.clone()]).collect();
    uncovered(&rows, std::slice::from_ref(ty)).map(|mut values| values.remove(0))
}

/// Values of the column types `types` (one per column) that no row of
/// `rows` matches, if there are any (the usefulness check of a pattern
/// matrix, one column at a time).
fn uncovered(rows: &[Vec<Pat>], types: &[Type]) -> Option<Vec<String>> {
    let Some((first, rest)) = types.split_first() else {
        // No columns: one value, matched iff some row is left.
        return if rows.is_empty() {
            Some(Vec::new())
        } else {
            None
        };
    };
    let is_any = |p: &Pat| matches!(p, Pat::Wildcard | Pat::Var(_));
    match first {
        Type::Record(fields) => {
            // The fields become columns (a missing field pattern is `_`).
            let expanded: Vec<Vec<Pat>> = rows
                .iter()
                .map(|row| {
                    let mut out: Vec<Pat> = fields
                        .keys()
                        .map(|l| match &row[0] {
                            Pat::Record(ps) => ps
                                .iter()
                                .find(|(m, _)| m == l)
                                .map_or(Pat::Wildcard, |(_, p)| p.clone()),
                            _ => Pat::Wildcard,
                        })
                        .collect();
                    out.extend(row[1..].iter().cloned());
                    out
                })
                .collect();
            let mut types: Vec<Type> = fields.values().cloned().collect();
            types.extend(rest.iter().cloned());
            let mut values = uncovered(&expanded, &types)?;
            let tail = values.split_off(fields.len());
            let tuple = fields.keys().enumerate().all(|(i, l)| *l == i.to_string());
            let shown = if tuple {
                format!("({})", values.join(", "))
            } else {
                let parts: Vec<String> = fields
                    .keys()
                    .zip(&values)
                    .map(|(l, v)| format!("{l} = {v}"))
                    .collect();
                format!("{{{}}}", parts.join(", "))
            };
            Some(std::iter::once(shown).chain(tail).collect())
        }
        Type::Sum(constructors) => {
            for (c, payload) in constructors {
                let specialised: Vec<Vec<Pat>> = rows
                    .iter()
                    .filter_map(|row| {
                        let mut out = match &row[0] {
                            Pat::Constructor(d, ps) if d == c => ps.clone(),
                            p if is_any(p) => vec![Pat::Wildcard; payload.len()],
                            _ => return None,
                        };
                        out.extend(row[1..].iter().cloned());
                        Some(out)
                    })
                    .collect();
                let mut types: Vec<Type> = payload.clone();
                types.extend(rest.iter().cloned());
                if let Some(mut values) = uncovered(&specialised, &types) {
                    let tail = values.split_off(payload.len());
                    let shown = std::iter::once(format!("#{c}"))
                        .chain(values)
                        .collect::<Vec<_>>()
                        .join(" ");
                    return Some(std::iter::once(shown).chain(tail).collect());
                }
            }
            None
        }
        Type::Prim(PrimType::Bool) => {
            for b in [false, true] {
                let specialised: Vec<Vec<Pat>> = rows
                    .iter()
                    .filter(|row| is_any(&row[0]) || row[0] == Pat::Literal(PrimValue::Bool(b)))
                    .map(|row| row[1..].to_vec())
                    .collect();
                if let Some(tail) = uncovered(&specialised, rest) {
                    return Some(std::iter::once(b.to_string()).chain(tail).collect());
                }
            }
            None
        }
        _ => {
            // Literals never cover the other types: only `_` and variables do.
            let defaults: Vec<Vec<Pat>> = rows
                .iter()
                .filter(|row| is_any(&row[0]))
                .map(|row| row[1..].to_vec())
                .collect();
            let tail = uncovered(&defaults, rest)?;
            Some(std::iter::once("_".to_string()).chain(tail).collect())
        }
    }
}

/// The result type of an intrinsic applied to arguments of these types.
pub fn intrinsic_type(op: &Intrinsic, args: &[Type]) -> Result<Type, String> {
    let arity = match op {
        Intrinsic::Iota
        | Intrinsic::Transpose
        | Intrinsic::Flatten
        | Intrinsic::Reverse
        | Intrinsic::Unzip(_)
        | Intrinsic::Dim(_)
        | Intrinsic::Convert(_)
        | Intrinsic::Reinterpret(_) => 1,
        Intrinsic::Replicate | Intrinsic::Concat | Intrinsic::Rotate => 2,
        Intrinsic::Unflatten | Intrinsic::Scatter | Intrinsic::Range(_) => 3,
        Intrinsic::Zip(k) => *k,
        Intrinsic::Math(f) => f.arity(),
    };
    if args.len() != arity {
        return Err(format!("{} takes {arity} arguments", op.name()));
    }
    let elem = |t: &Type| match t {
        Type::Array(e) => Ok((**e).clone()),
        other => Err(format!(
            "{}: expected an array, found {}",
            op.name(),
            type_name(other)
        )),
    };
    let i64_arg = |t: &Type, what: &str| {
        if *t == Type::i64() {
            Ok(())
        } else {
            Err(format!(
                "{}: {what} must be i64, found {}",
                op.name(),
                type_name(t)
            ))
        }
    };
    match op {
        Intrinsic::Iota => match &args[0] {
            Type::Prim(t) if t.is_integer() => Ok(Type::array(args[0].clone())),
            other => Err(format!(
                "iota: expected an integer, found {}",
                type_name(other)
            )),
        },
        Intrinsic::Replicate => {
            i64_arg(&args[0], "the count")?;
            if !order_zero(&args[1]) {
                return Err(
                    "replicate: arrays of functions are not allowed (TFP'18 T-Array)".into(),
                );
            }
            Ok(Type::array(args[1].clone()))
        }
        Intrinsic::Zip(_) => Ok(Type::array(Type::tuple(
            args.iter().map(elem).collect::<Result<_, _>>()?,
        ))),
        Intrinsic::Unzip(k) => match elem(&args[0])? {
            Type::Record(fields) if Type::tuple_arity(&fields) == Some(*k) => Ok(Type::tuple(
                (0..*k)
                    .map(|i| Type::array(fields[&i.to_string()].clone()))
                    .collect(),
            )),
            other => Err(format!(
                "unzip: expected an array of {k}-tuples, found elements of type {}",
                type_name(&other)
            )),
        },
        Intrinsic::Concat => {
            if args[0] != args[1] {
                return Err(format!(
                    "concat: arrays of types {} and {}",
                    type_name(&args[0]),
                    type_name(&args[1])
                ));
            }
            elem(&args[0])?;
            Ok(args[0].clone())
        }
        Intrinsic::Transpose => {
            let row = elem(&args[0])?;
            elem(&row)?;
            Ok(args[0].clone())
        }
        Intrinsic::Flatten => {
            let row = elem(&args[0])?;
            elem(&row)?;
            Ok(row)
        }
        Intrinsic::Unflatten => {
            i64_arg(&args[0], "the first size")?;
            i64_arg(&args[1], "the second size")?;
            elem(&args[2])?;
            Ok(Type::array(args[2].clone()))
        }
        Intrinsic::Reverse => {
            elem(&args[0])?;
            Ok(args[0].clone())
        }
        Intrinsic::Rotate => {
            i64_arg(&args[0], "the rotation")?;
            elem(&args[1])?;
            Ok(args[1].clone())
        }
        Intrinsic::Scatter => {
            let t = elem(&args[0])?;
            if elem(&args[1])? != Type::i64() {
                return Err("scatter: the indices must be []i64".into());
            }
            if elem(&args[2])? != t {
                return Err("scatter: the values must have the destination's element type".into());
            }
            Ok(args[0].clone())
        }
        Intrinsic::Range(_) => match &args[0] {
            Type::Prim(t) if t.is_integer() && args.iter().all(|a| *a == args[0]) => {
                Ok(Type::array(args[0].clone()))
            }
            _ => Err("a range needs integers of one type".into()),
        },
        Intrinsic::Dim(_) => {
            elem(&args[0])?;
            Ok(Type::i64())
        }
        Intrinsic::Convert(to) => match &args[0] {
            Type::Prim(_) => Ok(Type::Prim(*to)),
            other => Err(format!("conversion of {}", type_name(other))),
        },
        Intrinsic::Reinterpret(to) => match &args[0] {
            Type::Prim(from) if super::primitive::reinterpretable(*from, *to) => {
                Ok(Type::Prim(*to))
            }
            other => Err(format!(
                "the bits of {} cannot be read as {to}",
                type_name(other)
            )),
        },
        Intrinsic::Math(f) => {
            let in_domain = |t: PrimType| match f.domain() {
                super::syntax::MathDomain::Floats => t.is_float(),
                super::syntax::MathDomain::Integers => t.is_integer(),
                super::syntax::MathDomain::Numbers => t != PrimType::Bool,
            };
            let t = match &args[0] {
                Type::Prim(t) if in_domain(*t) => *t,
                other => {
                    return Err(format!(
                        "{} is not defined on {}",
                        f.name(),
                        type_name(other)
                    ))
                }
            };
            if args.iter().any(|a| *a != Type::Prim(t)) {
                return Err(format!("{}: arguments of different types", f.name()));
            }
            Ok(Type::Prim(f.result_type(t)))
        }
    }
}

/// `⊢ program`: every declaration has its declared type in the context of
/// the earlier ones (Γ extended in order), and every entry point is
/// first-order. Returns Γ of all declarations.
pub fn check_program(program: &Program, or_conditionals: bool) -> Result<TypeEnv, TypeError> {
    check_program_recording(program, or_conditionals).map(|(env, _)| env)
}

/// [`check_program`], also returning the context of every λ.
pub fn check_program_recording(
    program: &Program,
    or_conditionals: bool,
) -> Result<(TypeEnv, LambdaContexts), TypeError> {
    let typing = Typing {
        or_conditionals,
        lambda_contexts: Some(Default::default()),
        ..Typing::new()
    };
    let mut env = TypeEnv::new();
    for dec in &program.decs {
        crate::derivation::judgment(Some(dec.span), || {
            // Extension: TFP18 T-Dec
            crate::derivation::fire("TFP18 T-Dec", || format!("Γ ⊢ def {} : τ", dec.name));
            let t = typing.type_of(&env, &dec.value)?;
            expect_equal(
                &TFP18_T_DEC_TYPE,
                dec.span,
                &dec.ty,
                &t,
                &format!("the declaration {}", dec.name),
            )
        })?;
        env.insert(
            dec.name.clone(),
            Scheme {
                params: dec.type_params.clone(),
                ty: dec.ty.clone(),
            },
        );
    }
    for entry in &program.entries {
        check_entry(&env, entry)?;
    }
    let contexts = typing
        .lambda_contexts
        .map(|c| c.into_inner())
        .unwrap_or_default();
    Ok((env, contexts))
}

/// An entry point is monomorphic and first-order.
pub fn check_entry(env: &TypeEnv, entry: &super::syntax::EntryPoint) -> Result<(), TypeError> {
    // Extension: TFP18 T-Entry
    fire_rule("TFP18 T-Entry");
    let rule = "TFP18 T-Entry";
    let Some(scheme) = env.get(&entry.name) else {
        return fail(rule, entry.span, format!("no declaration {}", entry.name));
    };
    if !scheme.params.is_empty() {
        return fail(rule, entry.span, "an entry point cannot be polymorphic");
    }
    let mut t = scheme.ty.clone();
    for p in &entry.param_types {
        expect_order_zero(
            &TFP18_T_ENTRY_PARAMETERS_ORDER_ZERO,
            entry.span,
            p,
            "an entry point's parameter (entry points must be first-order)",
        )?;
        match t {
            Type::Arrow(from, to) if *from == *p => t = *to,
            _ => {
                return fail(
                    rule,
                    entry.span,
                    "the entry point's parameters do not match its type",
                )
            }
        }
    }
    expect_equal(
        &TFP18_T_ENTRY_RESULT,
        entry.span,
        &entry.result_type,
        &t,
        "the entry point's result",
    )?;
    expect_order_zero(
        &TFP18_T_ENTRY_RESULT_ORDER_ZERO,
        entry.span,
        &t,
        "an entry point's result (entry points must be first-order)",
    )
}
