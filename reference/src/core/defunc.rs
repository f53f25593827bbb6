//! TFP'18 §3, Figs. 5–6: defunctionalisation `E ⊢ e ⇝ ⟨e', sv⟩` with the
//! static values `sv ::= Dyn τ | Lam x e0 E | Rcd {(ℓi ↦ svi)} | Arr sv`,
//! and `⟦sv⟧tp` (the type of a residual expression, §4.2).
//!
//! One arm per rule, premises in the paper's order. Two refinements the
//! paper describes but does not formalise are followed (see
//! `proofs-notes/SPEC_NOTES.md`):
//!
//! * D-Lam captures only the free variables of the λ (the paper's remark
//!   after Fig. 5, "in the implementation"), so `Lam x e0 E0` has `E0 = E`
//!   restricted to `fv(λx.e0)`, and its residual record has those fields.
//! * D-App's residual binds the closure record and the argument to fresh
//!   names before the captured variables are re-bound, so no captured name
//!   can shadow a variable of the argument (the paper assumes all bound
//!   variables distinct). In [`Mode::Inline`] the residual is the paper's
//!   `let env = e1' in let arg = e2' in (let y = env.y in)* let x = arg in e0'`;
//!   in [`Mode::Lift`] (§5.3, lambda lifting) the same body becomes a
//!   first-order function `f(env, x)` memoised on `(λ, E0, sv2)`, and the
//!   residual is the call `f(e1', e2')`. The two are equal up to β.

use super::syntax::{
    free_vars, peel_lambdas, BinOp, Expr, ExprKind, Lambda, LiftedFunction, LoopForm, Name, Pat,
    PrimType, PrimValue, Program, ReduceKind, Type,
};
use super::typing::intrinsic_type;
use super::value::type_name;
use crate::derivation::fire_rule;
use spec::diagnostic::Diagnostic;
use spec::source::Span;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// sv: a static value.
#[derive(Clone, Debug, PartialEq)]
pub enum StaticVal {
    /// Dyn τ: a dynamic value of order-zero type τ (primitive or sum type;
    /// records and arrays are [`StaticVal::Rcd`] and [`StaticVal::Arr`]).
    Dyn(Type),
    /// Lam x e0 E0: a function; two `Lam`s are the same when their λ and
    /// environment are (the λ compared structurally, so up to nothing but
    /// spans; the paper's renaming of the parameter never arises here since
    /// every `Lam` comes from one λ of the program).
    Lam { lambda: Rc<Lambda>, env: StaticEnv },
    /// Rcd {(ℓi ↦ svi)}.
    Rcd(BTreeMap<Name, StaticVal>),
    /// Arr sv.
    Arr(Box<StaticVal>),
    /// Extension (§7): Or sv1 sv2, the result of a conditional whose branches
    /// have different static values; its residual is `#l e` or `#r e`.
    Or(Box<StaticVal>, Box<StaticVal>),
}

/// The static value of a conditional with branches `a` and `b` (§7): `Or`
/// only where they differ, record fields combined one by one ("the Or static
/// value should only be introduced for those record fields that produce Lam
/// static values").
pub fn combine(a: &StaticVal, b: &StaticVal) -> StaticVal {
    match (a, b) {
        _ if a == b => a.clone(),
        (StaticVal::Rcd(xs), StaticVal::Rcd(ys)) if xs.keys().eq(ys.keys()) => StaticVal::Rcd(
            xs.iter()
                .map(|(l, x)| (l.clone(), combine(x, &ys[l])))
                .collect(),
        ),
        _ => StaticVal::Or(Box::new(a.clone()), Box::new(b.clone())),
    }
}

/// The residual `e` (of static value `from`) as a residual of the combined
/// static value `to`, injecting with constructor `side` where `to` has an
/// `Or` that `from` does not.
pub fn inject(e: Expr, from: &StaticVal, to: &StaticVal, side: &str, span: Span) -> Expr {
    if from == to {
        return e;
    }
    match (from, to) {
        (StaticVal::Rcd(xs), StaticVal::Rcd(ys)) => {
            let tmp = format!("injected'{}", span.start);
            let fields = ys
                .iter()
                .map(|(l, y)| {
                    let field = Expr::new(
                        ExprKind::Project {
                            record: Expr::var(tmp.clone(), span).boxed(),
                            label: l.clone(),
                        },
                        span,
                    );
                    (l.clone(), inject(field, &xs[l], y, side, span))
                })
                .collect();
            Expr::new(
                ExprKind::Let {
                    name: tmp,
                    value: e.boxed(),
                    body: Expr::new(ExprKind::Record(fields), span).boxed(),
                },
                span,
            )
        }
        _ => Expr::new(
            ExprKind::Constructor {
                name: side.to_string(),
                payload: vec![e],
                sum_type: static_type(to),
            },
            span,
        ),
    }
}

/// E: a defunctionalisation environment.
pub type StaticEnv = imbl::OrdMap<Name, StaticVal>;

/// Where the residual of D-App goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The paper's Fig. 5: the λ's body is copied into the application.
    Inline,
    /// §5.3: the body becomes a lifted first-order function.
    Lift,
}

/// A premise of a D-rule that does not hold (only on ill-typed input, by
/// Theorem 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefuncError {
    pub rule: &'static str,
    pub message: String,
    pub span: Span,
}

impl DefuncError {
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(format!("{}: {}", self.rule, self.message))
            .with_code(self.rule)
            .with_primary(self.span, self.message.clone())
    }
}

fn fail<T>(rule: &'static str, span: Span, message: impl Into<String>) -> Result<T, DefuncError> {
    Err(DefuncError {
        rule,
        message: message.into(),
        span,
    })
}

/// ⟦sv⟧tp: the type of the residual of an expression with static value sv.
pub fn static_type(sv: &StaticVal) -> Type {
    match sv {
        StaticVal::Dyn(t) => t.clone(),
        StaticVal::Lam { env, .. } => Type::Record(
            env.iter()
                .map(|(y, sv)| (y.clone(), static_type(sv)))
                .collect(),
        ),
        StaticVal::Rcd(fields) => Type::Record(
            fields
                .iter()
                .map(|(l, sv)| (l.clone(), static_type(sv)))
                .collect(),
        ),
        StaticVal::Arr(sv) => Type::array(static_type(sv)),
        StaticVal::Or(a, b) => Type::Sum(
            [
                ("l".to_string(), vec![static_type(a)]),
                ("r".to_string(), vec![static_type(b)]),
            ]
            .into_iter()
            .collect(),
        ),
    }
}

/// ⟦E⟧tp, pointwise.
pub fn static_env_types(env: &StaticEnv) -> super::typing::TypeEnv {
    env.iter()
        .map(|(x, sv)| (x.clone(), super::typing::Scheme::mono(static_type(sv))))
        .collect()
}

/// The static value of an order-zero type (§3: record types to `Rcd`,
/// arrays to `Arr`, primitive and sum types to `Dyn`); by Lemma 2 the only
/// one related to it.
pub fn static_of_type(ty: &Type) -> StaticVal {
    match ty {
        Type::Record(fields) => StaticVal::Rcd(
            fields
                .iter()
                .map(|(l, t)| (l.clone(), static_of_type(t)))
                .collect(),
        ),
        Type::Array(elem) => StaticVal::Arr(Box::new(static_of_type(elem))),
        other => StaticVal::Dyn(other.clone()),
    }
}

/// A top-level declaration of a target program.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetDec {
    pub name: Name,
    pub ty: Type,
    pub value: Expr,
    pub span: Span,
}

/// An entry point of a target program: first-order parameters and body.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetEntry {
    pub name: Name,
    pub params: Vec<(Name, Type)>,
    pub result_type: Type,
    pub body: Expr,
}

/// A defunctionalised program: no λ, no application, no function type.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TargetProgram {
    pub decs: Vec<TargetDec>,
    pub functions: Vec<LiftedFunction>,
    pub entries: Vec<TargetEntry>,
}

/// What defunctionalising a program produced, with the environments the
/// theorem checks need.
pub struct Defunctionalised {
    pub target: TargetProgram,
    /// The static value of each top-level declaration, in order.
    pub dec_statics: Vec<(Name, StaticVal)>,
    /// E after all declarations.
    pub env: StaticEnv,
    /// The static value of each entry point's body.
    pub entry_statics: Vec<StaticVal>,
}

/// The translation: fresh names, and the lifted functions of [`Mode::Lift`].
pub struct Defunctionaliser {
    pub mode: Mode,
    /// TFP'18 §7: conditionals of function type give `Or` static values.
    pub or_conditionals: bool,
    used_names: BTreeSet<Name>,
    counter: usize,
    lifted: Vec<(Rc<Lambda>, StaticEnv, StaticVal, Name, StaticVal)>,
    functions: Vec<LiftedFunction>,
}

impl Defunctionaliser {
    pub fn new(mode: Mode, program: &Program) -> Defunctionaliser {
        let mut used_names = BTreeSet::new();
        for dec in &program.decs {
            used_names.insert(dec.name.clone());
            collect_names(&dec.value, &mut used_names);
        }
        Defunctionaliser {
            mode,
            or_conditionals: false,
            used_names,
            counter: 0,
            lifted: Vec::new(),
            functions: Vec::new(),
        }
    }

    fn fresh(&mut self, base: &str) -> Name {
        loop {
            self.counter += 1;
            let name = format!("{base}_{}", self.counter);
            if self.used_names.insert(name.clone()) {
                return name;
            }
        }
    }

    /// Defunctionalises a whole (monomorphic, well-typed) program.
    pub fn program(mut self, program: &Program) -> Result<Defunctionalised, DefuncError> {
        let mut env = StaticEnv::new();
        let mut target = TargetProgram::default();
        let mut dec_statics = Vec::new();
        for dec in &program.decs {
            if !dec.type_params.is_empty() {
                return fail(
                    "TFP18 D-Dec",
                    dec.span,
                    "defunctionalisation needs a monomorphic program",
                );
            }
            let (value, sv) = crate::derivation::judgment(Some(dec.span), || {
                // Extension: TFP18 D-Dec
                crate::derivation::fire("TFP18 D-Dec", || {
                    format!("E ⊢ def {} ⇝ ⟨e', sv⟩", dec.name)
                });
                self.defunc(&env, &dec.value)
            })?;
            target.decs.push(TargetDec {
                name: dec.name.clone(),
                ty: static_type(&sv),
                value,
                span: dec.span,
            });
            dec_statics.push((dec.name.clone(), sv.clone()));
            env.insert(dec.name.clone(), sv);
        }
        let mut entry_statics = Vec::new();
        for entry in &program.entries {
            // Extension: TFP18 D-Entry
            fire_rule("TFP18 D-Entry");
            let Some(dec) = program.dec(&entry.name) else {
                return fail("TFP18 D-Entry", entry.span, "no such declaration");
            };
            let Some((params, body)) = peel_lambdas(&dec.value, entry.param_types.len()) else {
                return fail(
                    "TFP18 D-Entry",
                    entry.span,
                    "the entry point has fewer parameters than its type says",
                );
            };
            let mut inner = env.clone();
            for (x, t) in &params {
                inner.insert(x.clone(), static_of_type(t));
            }
            let (body, sv) = self.defunc(&inner, body)?;
            target.entries.push(TargetEntry {
                name: entry.name.clone(),
                params,
                result_type: static_type(&sv),
                body,
            });
            entry_statics.push(sv);
        }
        target.functions = std::mem::take(&mut self.functions);
        Ok(Defunctionalised {
            target,
            dec_statics,
            env,
            entry_statics,
        })
    }

    /// E ⊢ e ⇝ ⟨e', sv⟩.
    pub fn defunc(
        &mut self,
        env: &StaticEnv,
        expr: &Expr,
    ) -> Result<(Expr, StaticVal), DefuncError> {
        crate::derivation::judgment(Some(expr.span), || {
            let translated = self.defunc_inner(env, expr);
            if let Ok((_, sv)) = &translated {
                crate::derivation::conclusion(|| format!("sv = {}", describe(sv)));
            }
            translated
        })
    }

    fn dyn_prim(
        &self,
        rule: &'static str,
        sv: &StaticVal,
        span: Span,
    ) -> Result<PrimType, DefuncError> {
        match sv {
            StaticVal::Dyn(Type::Prim(t)) => Ok(*t),
            other => fail(
                rule,
                span,
                format!(
                    "expected a Dyn primitive static value, found {}",
                    describe(other)
                ),
            ),
        }
    }

    fn arr(&self, rule: &'static str, sv: StaticVal, span: Span) -> Result<StaticVal, DefuncError> {
        match sv {
            StaticVal::Arr(sv) => Ok(*sv),
            other => fail(
                rule,
                span,
                format!("expected an Arr static value, found {}", describe(&other)),
            ),
        }
    }

    fn same(
        &self,
        rule: &'static str,
        a: &StaticVal,
        b: &StaticVal,
        span: Span,
    ) -> Result<(), DefuncError> {
        if a == b {
            Ok(())
        } else {
            fail(
                rule,
                span,
                format!("static values differ: {} and {}", describe(a), describe(b)),
            )
        }
    }

    fn defunc_inner(
        &mut self,
        env: &StaticEnv,
        expr: &Expr,
    ) -> Result<(Expr, StaticVal), DefuncError> {
        let span = expr.span;
        let mk = |kind: ExprKind| Expr::new(kind, span);
        match &expr.kind {
            ExprKind::Var { name, type_args } => {
                // TFP18 D-Var
                fire_rule("TFP18 D-Var");
                if !type_args.is_empty() {
                    return fail(
                        "TFP18 D-Var",
                        span,
                        "defunctionalisation needs a monomorphic program",
                    );
                }
                match env.get(name) {
                    Some(sv) => Ok((expr.clone(), sv.clone())),
                    None => fail("TFP18 D-Var", span, format!("unbound variable {name}")),
                }
            }
            ExprKind::Literal(PrimValue::Bool(b)) => {
                if *b {
                    // TFP18 D-True
                    fire_rule("TFP18 D-True");
                } else {
                    // TFP18 D-False
                    fire_rule("TFP18 D-False");
                }
                Ok((expr.clone(), StaticVal::Dyn(Type::bool())))
            }
            ExprKind::Literal(p @ (PrimValue::F32(_) | PrimValue::F64(_))) => {
                // Extension: TFP18 D-Float
                fire_rule("TFP18 D-Float");
                Ok((expr.clone(), StaticVal::Dyn(Type::Prim(p.prim_type()))))
            }
            ExprKind::Literal(p) => {
                // TFP18 D-Num
                fire_rule("TFP18 D-Num");
                Ok((expr.clone(), StaticVal::Dyn(Type::Prim(p.prim_type()))))
            }
            ExprKind::BinOp {
                op: BinOp::Add,
                lhs,
                rhs,
            } => {
                // TFP18 D-Plus
                fire_rule("TFP18 D-Plus");
                let (e1, sv1) = self.defunc(env, lhs)?;
                let (e2, sv2) = self.defunc(env, rhs)?;
                let t = self.dyn_prim("TFP18 D-Plus", &sv1, lhs.span)?;
                self.same("TFP18 D-Plus", &sv1, &sv2, rhs.span)?;
                Ok((
                    mk(ExprKind::BinOp {
                        op: BinOp::Add,
                        lhs: e1.boxed(),
                        rhs: e2.boxed(),
                    }),
                    StaticVal::Dyn(Type::Prim(t)),
                ))
            }
            ExprKind::BinOp {
                op: BinOp::Le,
                lhs,
                rhs,
            } => {
                // TFP18 D-Leq
                fire_rule("TFP18 D-Leq");
                let (e1, sv1) = self.defunc(env, lhs)?;
                let (e2, sv2) = self.defunc(env, rhs)?;
                self.dyn_prim("TFP18 D-Leq", &sv1, lhs.span)?;
                self.same("TFP18 D-Leq", &sv1, &sv2, rhs.span)?;
                Ok((
                    mk(ExprKind::BinOp {
                        op: BinOp::Le,
                        lhs: e1.boxed(),
                        rhs: e2.boxed(),
                    }),
                    StaticVal::Dyn(Type::bool()),
                ))
            }
            ExprKind::BinOp { op, lhs, rhs } => {
                // Extension: TFP18 D-BinOp
                fire_rule("TFP18 D-BinOp");
                let (e1, sv1) = self.defunc(env, lhs)?;
                let (e2, sv2) = self.defunc(env, rhs)?;
                self.same("TFP18 D-BinOp", &sv1, &sv2, rhs.span)?;
                let t = if op.is_comparison() {
                    PrimType::Bool
                } else {
                    self.dyn_prim("TFP18 D-BinOp", &sv1, lhs.span)?
                };
                let result = if op.is_comparison() {
                    PrimType::Bool
                } else {
                    t
                };
                Ok((
                    mk(ExprKind::BinOp {
                        op: *op,
                        lhs: e1.boxed(),
                        rhs: e2.boxed(),
                    }),
                    StaticVal::Dyn(Type::Prim(result)),
                ))
            }
            ExprKind::UnOp { op, operand } => {
                // Extension: TFP18 D-UnOp
                fire_rule("TFP18 D-UnOp");
                let (e, sv) = self.defunc(env, operand)?;
                self.dyn_prim("TFP18 D-UnOp", &sv, operand.span)?;
                Ok((
                    mk(ExprKind::UnOp {
                        op: *op,
                        operand: e.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } if self.or_conditionals => {
                // Extension: TFP18 D-IfOr
                fire_rule("TFP18 D-IfOr");
                let (e1, sv1) = self.defunc(env, condition)?;
                self.same(
                    "TFP18 D-IfOr",
                    &StaticVal::Dyn(Type::bool()),
                    &sv1,
                    condition.span,
                )?;
                let (e2, sv2) = self.defunc(env, then_branch)?;
                let (e3, sv3) = self.defunc(env, else_branch)?;
                let sv = combine(&sv2, &sv3);
                let e2 = inject(e2, &sv2, &sv, "l", span);
                let e3 = inject(e3, &sv3, &sv, "r", span);
                Ok((
                    mk(ExprKind::If {
                        condition: e1.boxed(),
                        then_branch: e2.boxed(),
                        else_branch: e3.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                // TFP18 D-If
                fire_rule("TFP18 D-If");
                let (e1, sv1) = self.defunc(env, condition)?;
                self.same(
                    "TFP18 D-If",
                    &StaticVal::Dyn(Type::bool()),
                    &sv1,
                    condition.span,
                )?;
                let (e2, sv) = self.defunc(env, then_branch)?;
                let (e3, sv3) = self.defunc(env, else_branch)?;
                self.same("TFP18 D-If", &sv, &sv3, else_branch.span)?;
                Ok((
                    mk(ExprKind::If {
                        condition: e1.boxed(),
                        then_branch: e2.boxed(),
                        else_branch: e3.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::Lambda(lambda) => {
                // TFP18 D-Lam
                fire_rule("TFP18 D-Lam");
                let mut captured = StaticEnv::new();
                let mut fields = Vec::new();
                for y in free_vars(expr) {
                    match env.get(&y) {
                        Some(sv) => {
                            captured.insert(y.clone(), sv.clone());
                            fields.push((y.clone(), Expr::var(y, span)));
                        }
                        None => return fail("TFP18 D-Lam", span, format!("unbound variable {y}")),
                    }
                }
                fields.sort_by(|a, b| a.0.cmp(&b.0));
                Ok((
                    mk(ExprKind::Record(fields)),
                    StaticVal::Lam {
                        lambda: lambda.clone(),
                        env: captured,
                    },
                ))
            }
            ExprKind::Apply { function, argument } => {
                let (e1, sv1) = self.defunc(env, function)?;
                let (e2, sv2) = self.defunc(env, argument)?;
                self.apply_static(e1, sv1, e2, sv2, span)
            }
            ExprKind::Let { name, value, body } => {
                // TFP18 D-Let
                fire_rule("TFP18 D-Let");
                let (e1, sv1) = self.defunc(env, value)?;
                let inner = env.update(name.clone(), sv1);
                let (e2, sv) = self.defunc(&inner, body)?;
                Ok((
                    mk(ExprKind::Let {
                        name: name.clone(),
                        value: e1.boxed(),
                        body: e2.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::Record(fields) => {
                // TFP18 D-Rcd
                fire_rule("TFP18 D-Rcd");
                let mut out = Vec::new();
                let mut svs = BTreeMap::new();
                for (l, e) in fields {
                    let (e, sv) = self.defunc(env, e)?;
                    out.push((l.clone(), e));
                    svs.insert(l.clone(), sv);
                }
                Ok((mk(ExprKind::Record(out)), StaticVal::Rcd(svs)))
            }
            ExprKind::Project { record, label } => {
                // TFP18 D-Proj
                fire_rule("TFP18 D-Proj");
                let (e0, sv0) = self.defunc(env, record)?;
                match sv0 {
                    StaticVal::Rcd(mut fields) => match fields.remove(label) {
                        Some(sv) => Ok((
                            mk(ExprKind::Project {
                                record: e0.boxed(),
                                label: label.clone(),
                            }),
                            sv,
                        )),
                        None => fail("TFP18 D-Proj", span, format!("no field {label}")),
                    },
                    other => fail(
                        "TFP18 D-Proj",
                        span,
                        format!("projecting from {}", describe(&other)),
                    ),
                }
            }
            ExprKind::Array {
                elements,
                elem_type,
            } => {
                // TFP18 D-Array
                fire_rule("TFP18 D-Array");
                let mut out = Vec::new();
                let mut sv: Option<StaticVal> = None;
                for e in elements {
                    let (e2, svi) = self.defunc(env, e)?;
                    if let Some(sv) = &sv {
                        self.same("TFP18 D-Array", sv, &svi, e.span)?;
                    }
                    sv = Some(svi);
                    out.push(e2);
                }
                let sv = sv.unwrap_or_else(|| static_of_type(elem_type));
                Ok((
                    mk(ExprKind::Array {
                        elements: out,
                        elem_type: static_type(&sv),
                    }),
                    StaticVal::Arr(Box::new(sv)),
                ))
            }
            ExprKind::Index { array, index } => {
                // TFP18 D-Index
                fire_rule("TFP18 D-Index");
                let (e1, sv1) = self.defunc(env, array)?;
                let sv = self.arr("TFP18 D-Index", sv1, array.span)?;
                let (e2, sv2) = self.defunc(env, index)?;
                self.dyn_prim("TFP18 D-Index", &sv2, index.span)?;
                Ok((
                    mk(ExprKind::Index {
                        array: e1.boxed(),
                        index: e2.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::Update {
                array,
                index,
                value,
            } => {
                // TFP18 D-Update
                fire_rule("TFP18 D-Update");
                let (e0, sv0) = self.defunc(env, array)?;
                let sv = self.arr("TFP18 D-Update", sv0, array.span)?;
                let (e1, sv1) = self.defunc(env, index)?;
                self.dyn_prim("TFP18 D-Update", &sv1, index.span)?;
                let (e2, sv2) = self.defunc(env, value)?;
                self.same("TFP18 D-Update", &sv, &sv2, value.span)?;
                Ok((
                    mk(ExprKind::Update {
                        array: e0.boxed(),
                        index: e1.boxed(),
                        value: e2.boxed(),
                    }),
                    StaticVal::Arr(Box::new(sv)),
                ))
            }
            ExprKind::Length(array) => {
                // TFP18 D-Length
                fire_rule("TFP18 D-Length");
                let (e0, sv0) = self.defunc(env, array)?;
                self.arr("TFP18 D-Length", sv0, array.span)?;
                Ok((
                    mk(ExprKind::Length(e0.boxed())),
                    StaticVal::Dyn(Type::i64()),
                ))
            }
            ExprKind::Map { param, body, array } => {
                // TFP18 D-Map
                fire_rule("TFP18 D-Map");
                let (e2, sv) = self.defunc(env, array)?;
                let sv2 = self.arr("TFP18 D-Map", sv, array.span)?;
                let inner = env.update(param.clone(), sv2);
                let (e1, sv1) = self.defunc(&inner, body)?;
                Ok((
                    mk(ExprKind::Map {
                        param: param.clone(),
                        body: e1.boxed(),
                        array: e2.boxed(),
                    }),
                    StaticVal::Arr(Box::new(sv1)),
                ))
            }
            ExprKind::Loop {
                param,
                param_uniqueness,
                init,
                form: LoopForm::ForIn { var, array },
                body,
            } => {
                // TFP18 D-Loop
                fire_rule("TFP18 D-Loop");
                let (e1, sv) = self.defunc(env, init)?;
                let (e2, sva) = self.defunc(env, array)?;
                let sv2 = self.arr("TFP18 D-Loop", sva, array.span)?;
                let inner = env
                    .update(param.clone(), sv.clone())
                    .update(var.clone(), sv2);
                let (e3, sv3) = self.defunc(&inner, body)?;
                self.same("TFP18 D-Loop", &sv, &sv3, body.span)?;
                Ok((
                    mk(ExprKind::Loop {
                        param: param.clone(),
                        param_uniqueness: param_uniqueness.clone(),
                        init: e1.boxed(),
                        form: LoopForm::ForIn {
                            var: var.clone(),
                            array: e2.boxed(),
                        },
                        body: e3.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::Loop {
                param,
                param_uniqueness,
                init,
                form: LoopForm::While { condition },
                body,
            } => {
                // Extension: TFP18 D-While
                fire_rule("TFP18 D-While");
                let (e1, sv) = self.defunc(env, init)?;
                let inner = env.update(param.clone(), sv.clone());
                let (ec, svc) = self.defunc(&inner, condition)?;
                self.same(
                    "TFP18 D-While",
                    &StaticVal::Dyn(Type::bool()),
                    &svc,
                    condition.span,
                )?;
                let (e3, sv3) = self.defunc(&inner, body)?;
                self.same("TFP18 D-While", &sv, &sv3, body.span)?;
                Ok((
                    mk(ExprKind::Loop {
                        param: param.clone(),
                        param_uniqueness: param_uniqueness.clone(),
                        init: e1.boxed(),
                        form: LoopForm::While {
                            condition: ec.boxed(),
                        },
                        body: e3.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::Reduce {
                kind,
                x,
                y,
                operator,
                neutral,
                array,
            } => {
                let rule = match kind {
                    ReduceKind::Reduce => {
                        // Extension: TFP18 D-Reduce
                        fire_rule("TFP18 D-Reduce");
                        "TFP18 D-Reduce"
                    }
                    ReduceKind::Scan => {
                        // Extension: TFP18 D-Scan
                        fire_rule("TFP18 D-Scan");
                        "TFP18 D-Scan"
                    }
                };
                let (ne, sv) = self.defunc(env, neutral)?;
                let (ea, sva) = self.defunc(env, array)?;
                let sve = self.arr(rule, sva, array.span)?;
                self.same(rule, &sv, &sve, array.span)?;
                let inner = env
                    .update(x.clone(), sv.clone())
                    .update(y.clone(), sv.clone());
                let (op, svo) = self.defunc(&inner, operator)?;
                self.same(rule, &sv, &svo, operator.span)?;
                let result = match kind {
                    ReduceKind::Reduce => sv,
                    ReduceKind::Scan => StaticVal::Arr(Box::new(sv)),
                };
                Ok((
                    mk(ExprKind::Reduce {
                        kind: *kind,
                        x: x.clone(),
                        y: y.clone(),
                        operator: op.boxed(),
                        neutral: ne.boxed(),
                        array: ea.boxed(),
                    }),
                    result,
                ))
            }
            ExprKind::Filter {
                param,
                predicate,
                array,
            } => {
                // Extension: TFP18 D-Filter
                fire_rule("TFP18 D-Filter");
                let (ea, sva) = self.defunc(env, array)?;
                let sve = self.arr("TFP18 D-Filter", sva.clone(), array.span)?;
                let inner = env.update(param.clone(), sve);
                let (ep, svp) = self.defunc(&inner, predicate)?;
                self.same(
                    "TFP18 D-Filter",
                    &StaticVal::Dyn(Type::bool()),
                    &svp,
                    predicate.span,
                )?;
                Ok((
                    mk(ExprKind::Filter {
                        param: param.clone(),
                        predicate: ep.boxed(),
                        array: ea.boxed(),
                    }),
                    sva,
                ))
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
                // Extension: TFP18 D-ReduceByIndex
                fire_rule("TFP18 D-ReduceByIndex");
                let rule = "TFP18 D-ReduceByIndex";
                let (ed, svd) = self.defunc(env, dest)?;
                let sv = self.arr(rule, svd.clone(), dest.span)?;
                let (ne, svn) = self.defunc(env, neutral)?;
                self.same(rule, &sv, &svn, neutral.span)?;
                let (ei, _) = self.defunc(env, indices)?;
                let (ev, svv) = self.defunc(env, values)?;
                let sve = self.arr(rule, svv, values.span)?;
                self.same(rule, &sv, &sve, values.span)?;
                let inner = env
                    .update(x.clone(), sv.clone())
                    .update(y.clone(), sv.clone());
                let (op, svo) = self.defunc(&inner, operator)?;
                self.same(rule, &sv, &svo, operator.span)?;
                Ok((
                    mk(ExprKind::ReduceByIndex {
                        dest: ed.boxed(),
                        x: x.clone(),
                        y: y.clone(),
                        operator: op.boxed(),
                        neutral: ne.boxed(),
                        indices: ei.boxed(),
                        values: ev.boxed(),
                    }),
                    svd,
                ))
            }
            ExprKind::Slice {
                array,
                start,
                end,
                stride,
            } => {
                // Extension: TFP18 D-Slice
                fire_rule("TFP18 D-Slice");
                let (ea, sva) = self.defunc(env, array)?;
                let part = |e: &Option<Box<Expr>>,
                            this: &mut Self|
                 -> Result<Option<Box<Expr>>, DefuncError> {
                    match e {
                        None => Ok(None),
                        Some(e) => Ok(Some(this.defunc(env, e)?.0.boxed())),
                    }
                };
                let (s, e, st) = (part(start, self)?, part(end, self)?, part(stride, self)?);
                Ok((
                    mk(ExprKind::Slice {
                        array: ea.boxed(),
                        start: s,
                        end: e,
                        stride: st,
                    }),
                    sva,
                ))
            }
            ExprKind::Intrinsic { op, args } => {
                // Extension: TFP18 D-Intrinsic
                fire_rule("TFP18 D-Intrinsic");
                let mut out = Vec::new();
                let mut types = Vec::new();
                for a in args {
                    let (e, sv) = self.defunc(env, a)?;
                    types.push(static_type(&sv));
                    out.push(e);
                }
                let t =
                    intrinsic_type(op, &types).or_else(|m| fail("TFP18 D-Intrinsic", span, m))?;
                Ok((
                    mk(ExprKind::Intrinsic {
                        op: op.clone(),
                        args: out,
                    }),
                    static_of_type(&t),
                ))
            }
            ExprKind::Assert {
                condition,
                message,
                body,
            } => {
                // Extension: TFP18 D-Assert
                fire_rule("TFP18 D-Assert");
                let (ec, _) = self.defunc(env, condition)?;
                let (eb, sv) = self.defunc(env, body)?;
                Ok((
                    mk(ExprKind::Assert {
                        condition: ec.boxed(),
                        message: message.clone(),
                        body: eb.boxed(),
                    }),
                    sv,
                ))
            }
            ExprKind::Constructor {
                name,
                payload,
                sum_type,
            } => {
                // Extension: TFP18 D-Constructor
                fire_rule("TFP18 D-Constructor");
                let mut out = Vec::new();
                for e in payload {
                    out.push(self.defunc(env, e)?.0);
                }
                Ok((
                    mk(ExprKind::Constructor {
                        name: name.clone(),
                        payload: out,
                        sum_type: sum_type.clone(),
                    }),
                    StaticVal::Dyn(sum_type.clone()),
                ))
            }
            ExprKind::Match { scrutinee, cases } => {
                // Extension: TFP18 D-Match
                fire_rule("TFP18 D-Match");
                let (es, svs) = self.defunc(env, scrutinee)?;
                let mut out = Vec::new();
                let mut result: Option<StaticVal> = None;
                for (pat, body) in cases {
                    let mut inner = env.clone();
                    bind_static_pattern(pat, &svs, &mut inner)
                        .or_else(|m| fail("TFP18 D-Match", body.span, m))?;
                    let (eb, sv) = self.defunc(&inner, body)?;
                    if let Some(r) = &result {
                        self.same("TFP18 D-Match", r, &sv, body.span)?;
                    }
                    result = Some(sv);
                    out.push((pat.clone(), eb));
                }
                let Some(sv) = result else {
                    return fail("TFP18 D-Match", span, "a match needs a case");
                };
                Ok((
                    mk(ExprKind::Match {
                        scrutinee: es.boxed(),
                        cases: out,
                    }),
                    sv,
                ))
            }
            ExprKind::Call { .. } => fail(
                "TFP18 D-App",
                span,
                "a call of a lifted function in a source program",
            ),
        }
    }

    /// The premises of D-App after its first two: `e1'` with static value
    /// `sv1` applied to `e2'` with `sv2` (with the §7 extension, `sv1` may
    /// be an `Or`).
    fn apply_static(
        &mut self,
        e1: Expr,
        sv1: StaticVal,
        e2: Expr,
        sv2: StaticVal,
        span: Span,
    ) -> Result<(Expr, StaticVal), DefuncError> {
        let mk = |kind: ExprKind| Expr::new(kind, span);
        match sv1 {
            StaticVal::Lam { lambda, env: env0 } => {
                // TFP18 D-App
                fire_rule("TFP18 D-App");
                match self.mode {
                    Mode::Inline => {
                        let inner = env0.update(lambda.param.clone(), sv2);
                        let (e0, sv) = self.defunc(&inner, &lambda.body)?;
                        let env_name = self.fresh("env");
                        let arg_name = self.fresh("arg");
                        let mut body = Expr::new(
                            ExprKind::Let {
                                name: lambda.param.clone(),
                                value: Expr::var(arg_name.clone(), span).boxed(),
                                body: e0.boxed(),
                            },
                            span,
                        );
                        for y in env0.keys().rev() {
                            body = Expr::new(
                                ExprKind::Let {
                                    name: y.clone(),
                                    value: Expr::new(
                                        ExprKind::Project {
                                            record: Expr::var(env_name.clone(), span).boxed(),
                                            label: y.clone(),
                                        },
                                        span,
                                    )
                                    .boxed(),
                                    body: body.boxed(),
                                },
                                span,
                            );
                        }
                        let body = Expr::new(
                            ExprKind::Let {
                                name: arg_name,
                                value: e2.boxed(),
                                body: body.boxed(),
                            },
                            span,
                        );
                        Ok((
                            mk(ExprKind::Let {
                                name: env_name,
                                value: e1.boxed(),
                                body: body.boxed(),
                            }),
                            sv,
                        ))
                    }
                    Mode::Lift => {
                        let (name, sv) = self.lift(&lambda, &env0, sv2, span)?;
                        // §5.3: "our implementation inlines lambdas with
                        // particularly simple bodies; in particular those
                        // that contain ... a record literal" (partial
                        // applications).
                        if let Some(inlined) = self.inline_record_body(&name, &e1, &e2, span) {
                            return Ok((inlined, sv));
                        }
                        Ok((
                            mk(ExprKind::Call {
                                function: name,
                                args: vec![e1, e2],
                            }),
                            sv,
                        ))
                    }
                }
            }
            StaticVal::Or(left, right) => {
                // Extension: TFP18 D-AppOr
                fire_rule("TFP18 D-AppOr");
                let f = self.fresh("fun");
                let a = self.fresh("arg");
                let g = self.fresh("closure");
                let (el, svl) = self.apply_static(
                    Expr::var(g.clone(), span),
                    *left,
                    Expr::var(a.clone(), span),
                    sv2.clone(),
                    span,
                )?;
                let (er, svr) = self.apply_static(
                    Expr::var(g.clone(), span),
                    *right,
                    Expr::var(a.clone(), span),
                    sv2,
                    span,
                )?;
                let sv = combine(&svl, &svr);
                let el = inject(el, &svl, &sv, "l", span);
                let er = inject(er, &svr, &sv, "r", span);
                let matched = mk(ExprKind::Match {
                    scrutinee: Expr::var(f.clone(), span).boxed(),
                    cases: vec![
                        (Pat::Constructor("l".into(), vec![Pat::Var(g.clone())]), el),
                        (Pat::Constructor("r".into(), vec![Pat::Var(g)]), er),
                    ],
                });
                let body = mk(ExprKind::Let {
                    name: a,
                    value: e2.boxed(),
                    body: matched.boxed(),
                });
                Ok((
                    mk(ExprKind::Let {
                        name: f,
                        value: e1.boxed(),
                        body: body.boxed(),
                    }),
                    sv,
                ))
            }
            other => fail(
                "TFP18 D-App",
                span,
                format!("applying {}, which is not a Lam", describe(&other)),
            ),
        }
    }

    /// The residual of a call of the lifted function `name` when its body is
    /// a record literal of its parameter and captured variables and the
    /// closure `e1` is a variable (so nothing is lost by not evaluating it
    /// separately): the record itself.
    fn inline_record_body(&self, name: &str, e1: &Expr, e2: &Expr, span: Span) -> Option<Expr> {
        let ExprKind::Var { .. } = e1.kind else {
            return None;
        };
        let f = self.functions.iter().find(|f| f.name == name)?;
        let (env_name, x) = (&f.params[0].0, &f.params[1].0);
        let mut captured: Vec<(Name, Expr)> = Vec::new();
        let mut body = &f.body;
        while let ExprKind::Let {
            name: y,
            value,
            body: rest,
        } = &body.kind
        {
            match &value.kind {
                ExprKind::Project { record, label } if matches!(&record.kind, ExprKind::Var { name, .. } if name == env_name) =>
                {
                    captured.push((
                        y.clone(),
                        Expr::new(
                            ExprKind::Project {
                                record: e1.clone().boxed(),
                                label: label.clone(),
                            },
                            span,
                        ),
                    ));
                    body = rest;
                }
                _ => return None,
            }
        }
        let ExprKind::Record(fields) = &body.kind else {
            return None;
        };
        let uses_of_x = fields
            .iter()
            .filter(|(_, e)| matches!(&e.kind, ExprKind::Var { name, .. } if name == x))
            .count();
        let mut out = Vec::new();
        for (label, e) in fields {
            let ExprKind::Var { name: v, .. } = &e.kind else {
                return None;
            };
            if v == x {
                out.push((
                    label.clone(),
                    if uses_of_x == 1 {
                        e2.clone()
                    } else {
                        e.clone()
                    },
                ));
            } else if let Some((_, p)) = captured.iter().find(|(y, _)| y == v) {
                out.push((label.clone(), p.clone()));
            } else {
                return None;
            }
        }
        let record = Expr::new(ExprKind::Record(out), span);
        Some(if uses_of_x == 1 {
            record
        } else {
            Expr::new(
                ExprKind::Let {
                    name: x.clone(),
                    value: e2.clone().boxed(),
                    body: record.boxed(),
                },
                span,
            )
        })
    }

    /// The lifted function `f(env, x) = (let y = env.y in)* e0'` for
    /// `Lam x e0 E0` applied to `sv2` (memoised), and the static value of its
    /// result.
    fn lift(
        &mut self,
        lambda: &Rc<Lambda>,
        env0: &StaticEnv,
        sv2: StaticVal,
        span: Span,
    ) -> Result<(Name, StaticVal), DefuncError> {
        if let Some((_, _, _, name, sv)) = self
            .lifted
            .iter()
            .find(|(l, e, a, _, _)| Rc::ptr_eq(l, lambda) && e == env0 && *a == sv2)
        {
            return Ok((name.clone(), sv.clone()));
        }
        let inner = env0.update(lambda.param.clone(), sv2.clone());
        let (e0, sv) = self.defunc(&inner, &lambda.body)?;
        let name = self.fresh(&format!("lifted_{}", lambda.param.trim_end_matches('\'')));
        let env_name = self.fresh("env");
        let mut body = e0;
        for y in env0.keys().rev() {
            body = Expr::new(
                ExprKind::Let {
                    name: y.clone(),
                    value: Expr::new(
                        ExprKind::Project {
                            record: Expr::var(env_name.clone(), span).boxed(),
                            label: y.clone(),
                        },
                        span,
                    )
                    .boxed(),
                    body: body.boxed(),
                },
                span,
            );
        }
        let env_type = static_type(&StaticVal::Lam {
            lambda: lambda.clone(),
            env: env0.clone(),
        });
        self.functions.push(LiftedFunction {
            name: name.clone(),
            params: vec![
                (env_name, env_type),
                (lambda.param.clone(), static_type(&sv2)),
            ],
            result_type: static_type(&sv),
            body,
        });
        self.lifted
            .push((lambda.clone(), env0.clone(), sv2, name.clone(), sv.clone()));
        Ok((name, sv))
    }
}

/// Binds a `match` pattern's variables to static values.
pub fn bind_static_pattern(pat: &Pat, sv: &StaticVal, env: &mut StaticEnv) -> Result<(), String> {
    match (pat, sv) {
        (Pat::Wildcard, _) | (Pat::Literal(_), _) => Ok(()),
        (Pat::Var(x), sv) => {
            env.insert(x.clone(), sv.clone());
            Ok(())
        }
        (Pat::Record(fields), StaticVal::Rcd(svs)) => {
            for (l, p) in fields {
                let sv = svs.get(l).ok_or_else(|| format!("no field {l}"))?;
                bind_static_pattern(p, sv, env)?;
            }
            Ok(())
        }
        (Pat::Constructor(c, ps), StaticVal::Dyn(Type::Sum(cs))) => {
            let ts = cs.get(c).ok_or_else(|| format!("no constructor #{c}"))?;
            for (p, t) in ps.iter().zip(ts) {
                bind_static_pattern(p, &static_of_type(t), env)?;
            }
            Ok(())
        }
        (p, sv) => Err(format!("the pattern {p:?} does not match {}", describe(sv))),
    }
}

/// A short description of a static value for messages.
pub fn describe(sv: &StaticVal) -> String {
    match sv {
        StaticVal::Dyn(t) => format!("Dyn {}", type_name(t)),
        StaticVal::Lam { lambda, .. } => format!("Lam {} …", lambda.param),
        StaticVal::Rcd(fields) => format!(
            "Rcd {{{}}}",
            fields
                .iter()
                .map(|(l, sv)| format!("{l} ↦ {}", describe(sv)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        StaticVal::Arr(sv) => format!("Arr ({})", describe(sv)),
        StaticVal::Or(a, b) => format!("Or ({}) ({})", describe(a), describe(b)),
    }
}

fn collect_names(expr: &Expr, out: &mut BTreeSet<Name>) {
    spec::recursion::with_stack(|| match &expr.kind {
        ExprKind::Var { name, .. } => {
            out.insert(name.clone());
        }
        ExprKind::Lambda(l) => {
            out.insert(l.param.clone());
            collect_names(&l.body, out);
        }
        ExprKind::Let { name, value, body } => {
            out.insert(name.clone());
            collect_names(value, out);
            collect_names(body, out);
        }
        _ => {
            for child in children(expr) {
                collect_names(child, out);
            }
        }
    })
}

/// The immediate subexpressions of an expression (binders not included).
pub fn children(expr: &Expr) -> Vec<&Expr> {
    match &expr.kind {
        ExprKind::Var { .. } | ExprKind::Literal(_) => vec![],
        ExprKind::BinOp { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::UnOp { operand, .. } => vec![operand],
        ExprKind::If {
            condition,
            then_branch,
            else_branch,
        } => vec![condition, then_branch, else_branch],
        ExprKind::Lambda(l) => vec![&l.body],
        ExprKind::Apply { function, argument } => vec![function, argument],
        ExprKind::Let { value, body, .. } => vec![value, body],
        ExprKind::Record(fields) => fields.iter().map(|(_, e)| e).collect(),
        ExprKind::Project { record, .. } => vec![record],
        ExprKind::Array { elements, .. } => elements.iter().collect(),
        ExprKind::Index { array, index } => vec![array, index],
        ExprKind::Update {
            array,
            index,
            value,
        } => vec![array, index, value],
        ExprKind::Length(e) => vec![e],
        ExprKind::Map { body, array, .. } => vec![array, body],
        ExprKind::Loop {
            init, form, body, ..
        } => match form {
            LoopForm::ForIn { array, .. } => vec![init, array, body],
            LoopForm::While { condition } => vec![init, condition, body],
        },
        ExprKind::Reduce {
            operator,
            neutral,
            array,
            ..
        } => vec![neutral, array, operator],
        ExprKind::Filter {
            predicate, array, ..
        } => vec![array, predicate],
        ExprKind::ReduceByIndex {
            dest,
            operator,
            neutral,
            indices,
            values,
            ..
        } => vec![dest, neutral, indices, values, operator],
        ExprKind::Slice {
            array,
            start,
            end,
            stride,
        } => {
            let mut v: Vec<&Expr> = vec![array];
            v.extend([start, end, stride].into_iter().flatten().map(|b| &**b));
            v
        }
        ExprKind::Intrinsic { args, .. } | ExprKind::Call { args, .. } => args.iter().collect(),
        ExprKind::Assert {
            condition, body, ..
        } => vec![condition, body],
        ExprKind::Constructor { payload, .. } => payload.iter().collect(),
        ExprKind::Match { scrutinee, cases } => {
            let mut v: Vec<&Expr> = vec![scrutinee];
            v.extend(cases.iter().map(|(_, e)| e));
            v
        }
    }
}
