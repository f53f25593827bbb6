//! Names in core declarations resolved (ICFP'18 rules 44–48 on the
//! surface syntax): each reference to a global becomes the global's output
//! declaration, qualified names included (`m.x`, `m.n.t`, `m.+`, `m.(e)`);
//! local binders (patterns, parameters, loop variables, lambdas, type and
//! size parameters) are tracked in the scope, so that `r.f` with `r` a value
//! stays a record projection and a local shadows a global; names bound
//! nowhere (built-ins) are left unchanged.

use spec::diagnostic::Diagnostic;
use spec::syntax::ast::{
    BinOp, DimIndex, Expr, LoopForm, MatchCase, Name, Pat, QualName, SizeExp, TypeBind, TypeExp,
    TypeParam, ValueBind,
};

use super::env::{Entity, Env, SymbolId};
use super::{not_checked, Interpreter};

type Result<T> = std::result::Result<T, Diagnostic>;

impl Interpreter<'_> {
    /// The output `def`/`entry` of `bind` in `scope`, named provisionally.
    pub(crate) fn translate_value_bind(
        &mut self,
        bind: &ValueBind,
        scope: &Env,
        symbol: SymbolId,
    ) -> Result<ValueBind> {
        self.current_uses.clear();
        let mut inner = self.bind_type_params(&bind.type_params, scope);
        let mut params = Vec::with_capacity(bind.params.len());
        for param in &bind.params {
            let (param, extended) = self.pat(param, &inner)?;
            params.push(param);
            inner = extended;
        }
        let return_type = match &bind.return_type {
            Some(ty) => Some(self.type_exp(ty, &inner)?),
            None => None,
        };
        let body = self.expr(&bind.body, &inner)?;
        Ok(ValueBind {
            kind: bind.kind,
            name: super::provisional_name(symbol),
            type_params: bind.type_params.clone(),
            params,
            return_type,
            body,
            span: bind.span,
        })
    }

    /// The output `type` of `bind` in `scope`, named provisionally.
    pub(crate) fn translate_type_bind(
        &mut self,
        bind: &TypeBind,
        scope: &Env,
        symbol: SymbolId,
    ) -> Result<TypeBind> {
        self.current_uses.clear();
        let inner = self.bind_type_params(&bind.params, scope);
        let definition = self.type_exp(&bind.definition, &inner)?;
        Ok(TypeBind {
            liftedness: bind.liftedness,
            name: super::provisional_name(symbol),
            params: bind.params.clone(),
            definition,
            span: bind.span,
        })
    }

    /// `scope` with type parameters (`'a`: types) and size parameters
    /// (`[n]`: values) bound locally.
    fn bind_type_params(&mut self, params: &[TypeParam], scope: &Env) -> Env {
        let mut inner = scope.clone();
        for param in params {
            match param {
                TypeParam::Size { name, .. } => self.bind_local_value(&mut inner, name),
                TypeParam::Type { name, .. } => {
                    self.local_types.insert(name.clone());
                    inner.types.insert(name.clone(), Entity::Local);
                    inner.local_types.insert(name.clone());
                }
            }
        }
        inner
    }

    fn bind_local_value(&mut self, scope: &mut Env, name: &Name) {
        if !self.local_values.contains(name) {
            self.local_values.insert(name.clone());
        }
        scope.values.insert(name.clone(), Entity::Local);
        scope.local_values.insert(name.clone());
    }

    /// A value name: its entity's output name, or the name unchanged when it
    /// is bound nowhere (a built-in).
    fn value_name(&mut self, scope: &Env, name: &QualName) -> Result<QualName> {
        let Some(first) = name.qualifiers.first() else {
            return Ok(match scope.values.get(&name.name) {
                Some(entity) => {
                    QualName::unqualified(self.use_value(*entity, &name.name, scope), name.span)
                }
                None => {
                    self.free_values.insert(name.name.clone());
                    name.clone()
                }
            });
        };
        // `r.f.g` with `r` a value: record projections.
        if let Some(entity) = scope.values.get(first) {
            let mut qualifiers = name.qualifiers.clone();
            qualifiers[0] = self.use_value(*entity, first, scope);
            return Ok(QualName {
                qualifiers,
                name: name.name.clone(),
                span: name.span,
            });
        }
        match self.module_path(scope, &name.qualifiers, name.span)? {
            Some(contents) => match contents.values.get(&name.name) {
                Some(entity) => Ok(QualName::unqualified(
                    self.use_value(*entity, &name.name, scope),
                    name.span,
                )),
                None => Err(not_checked(
                    name.span,
                    format!("unknown name `{}`", name.name),
                )),
            },
            None => {
                // A module bound nowhere, which a checked program never
                // names (the numeric modules are the prelude's): unchanged,
                // and no global may be called like its head, or the name
                // would become a projection.
                self.free_values.insert(first.clone());
                Ok(name.clone())
            }
        }
    }

    /// A type name: its entity's output name, or unchanged when built in.
    fn type_name(&mut self, scope: &Env, name: &QualName) -> Result<QualName> {
        let contents = match self.module_path(scope, &name.qualifiers, name.span)? {
            Some(contents) => contents,
            None => return Ok(name.clone()),
        };
        Ok(match contents.types.get(&name.name) {
            Some(Entity::Global(symbol)) => {
                QualName::unqualified(self.use_type(*symbol, scope), name.span)
            }
            Some(Entity::Local) => name.clone(),
            None if name.qualifiers.is_empty() => {
                self.free_types.insert(name.name.clone());
                name.clone()
            }
            None => {
                return Err(not_checked(
                    name.span,
                    format!("unknown type `{}`", name.name),
                ))
            }
        })
    }

    fn size_exp(&mut self, size: &SizeExp, scope: &Env) -> Result<SizeExp> {
        Ok(match size {
            SizeExp::Named(name) => SizeExp::Named(self.value_name(scope, name)?),
            SizeExp::Expression(expression) => {
                SizeExp::Expression(Box::new(self.expr(expression, scope)?))
            }
            other => other.clone(),
        })
    }

    /// A type expression with its names resolved.
    pub(crate) fn type_exp(&mut self, ty: &TypeExp, scope: &Env) -> Result<TypeExp> {
        spec::recursion::with_stack(|| {
            Ok(match ty {
                TypeExp::Var(name) => TypeExp::Var(self.type_name(scope, name)?),
                TypeExp::Apply { constructor, .. } => {
                    let constructor = self.type_name(scope, constructor)?;
                    let mut resolved = self.type_exp_parts(ty, scope)?;
                    if let TypeExp::Apply {
                        constructor: resolved_constructor,
                        ..
                    } = &mut resolved
                    {
                        *resolved_constructor = constructor;
                    }
                    resolved
                }
                _ => self.type_exp_parts(ty, scope)?,
            })
        })
    }

    /// `ty` with its sizes and child types resolved (a child in `scope` with
    /// the names `ty` binds around it: an arrow's parameter, an existential's
    /// sizes).
    fn type_exp_parts(&mut self, ty: &TypeExp, scope: &Env) -> Result<TypeExp> {
        ty.try_map_sizes_and_children(
            self,
            |this, size| this.size_exp(size, scope),
            |this, child, bound| {
                if bound.is_empty() {
                    return this.type_exp(child, scope);
                }
                let mut inner = scope.clone();
                for name in bound {
                    this.bind_local_value(&mut inner, name);
                }
                this.type_exp(child, &inner)
            },
        )
    }

    /// A binding pattern: the pattern with its types resolved (in `scope`)
    /// and the scope extended with its variables.
    pub(crate) fn pat(&mut self, pat: &Pat, scope: &Env) -> Result<(Pat, Env)> {
        let mut extended = scope.clone();
        let pat = self.pat_into(pat, scope, &mut extended)?;
        Ok((pat, extended))
    }

    fn pat_into(&mut self, pat: &Pat, scope: &Env, extended: &mut Env) -> Result<Pat> {
        spec::recursion::with_stack(|| {
            Ok(match pat {
                Pat::Var { name, .. } => {
                    self.bind_local_value(extended, name);
                    pat.clone()
                }
                Pat::Wildcard { .. } | Pat::Literal { .. } => pat.clone(),
                Pat::Tuple { elements, span } => Pat::Tuple {
                    elements: elements
                        .iter()
                        .map(|element| self.pat_into(element, scope, extended))
                        .collect::<Result<_>>()?,
                    span: *span,
                },
                Pat::Record { fields, span } => {
                    let mut resolved = Vec::with_capacity(fields.len());
                    for (field, pat) in fields {
                        resolved.push((field.clone(), self.pat_into(pat, scope, extended)?));
                    }
                    Pat::Record {
                        fields: resolved,
                        span: *span,
                    }
                }
                Pat::Constructor {
                    name,
                    payload,
                    span,
                } => Pat::Constructor {
                    name: name.clone(),
                    payload: payload
                        .iter()
                        .map(|element| self.pat_into(element, scope, extended))
                        .collect::<Result<_>>()?,
                    span: *span,
                },
                Pat::Ascribe { pat, ty, span } => {
                    let ty = self.type_exp(ty, scope)?;
                    Pat::Ascribe {
                        pat: Box::new(self.pat_into(pat, scope, extended)?),
                        ty,
                        span: *span,
                    }
                }
                Pat::Attr { attr, pat, span } => Pat::Attr {
                    attr: attr.clone(),
                    pat: Box::new(self.pat_into(pat, scope, extended)?),
                    span: *span,
                },
            })
        })
    }

    fn op(&mut self, op: &BinOp, scope: &Env) -> Result<BinOp> {
        Ok(match op {
            BinOp::Symbol(name) => BinOp::Symbol(self.value_name(scope, name)?),
            BinOp::Backtick(name) => BinOp::Backtick(self.value_name(scope, name)?),
        })
    }

    fn boxed(&mut self, expr: &Expr, scope: &Env) -> Result<Box<Expr>> {
        Ok(Box::new(self.expr(expr, scope)?))
    }

    fn exprs(&mut self, exprs: &[Expr], scope: &Env) -> Result<Vec<Expr>> {
        exprs.iter().map(|expr| self.expr(expr, scope)).collect()
    }

    fn indices(&mut self, indices: &[DimIndex], scope: &Env) -> Result<Vec<DimIndex>> {
        let mut resolved = Vec::with_capacity(indices.len());
        for index in indices {
            resolved.push(match index {
                DimIndex::Index(expr) => DimIndex::Index(self.expr(expr, scope)?),
                DimIndex::Slice { start, end, stride } => DimIndex::Slice {
                    start: self.optional(start.as_ref(), scope)?,
                    end: self.optional(end.as_ref(), scope)?,
                    stride: self.optional(stride.as_ref(), scope)?,
                },
            });
        }
        Ok(resolved)
    }

    fn optional(&mut self, expr: Option<&Expr>, scope: &Env) -> Result<Option<Expr>> {
        expr.map(|expr| self.expr(expr, scope)).transpose()
    }

    /// An expression with its names resolved.
    pub(crate) fn expr(&mut self, expr: &Expr, scope: &Env) -> Result<Expr> {
        spec::recursion::with_stack(|| self.expr_inner(expr, scope))
    }

    fn expr_inner(&mut self, expr: &Expr, scope: &Env) -> Result<Expr> {
        Ok(match expr {
            Expr::Literal { .. } | Expr::ProjectSection { .. } => expr.clone(),
            Expr::Var(name) => Expr::Var(self.value_name(scope, name)?),
            Expr::Project { expr, field, span } => Expr::Project {
                expr: self.boxed(expr, scope)?,
                field: field.clone(),
                span: *span,
            },
            Expr::Tuple { elements, span } => Expr::Tuple {
                elements: self.exprs(elements, scope)?,
                span: *span,
            },
            Expr::Record { fields, span } => {
                let mut resolved = Vec::with_capacity(fields.len());
                for (field, value) in fields {
                    resolved.push((field.clone(), self.expr(value, scope)?));
                }
                Expr::Record {
                    fields: resolved,
                    span: *span,
                }
            }
            Expr::Array { elements, span } => Expr::Array {
                elements: self.exprs(elements, scope)?,
                span: *span,
            },
            Expr::Range {
                start,
                step,
                end,
                end_kind,
                span,
            } => Expr::Range {
                start: self.boxed(start, scope)?,
                step: match step {
                    Some(step) => Some(self.boxed(step, scope)?),
                    None => None,
                },
                end: self.boxed(end, scope)?,
                end_kind: *end_kind,
                span: *span,
            },
            Expr::Index {
                array,
                indices,
                span,
            } => Expr::Index {
                array: self.boxed(array, scope)?,
                indices: self.indices(indices, scope)?,
                span: *span,
            },
            Expr::Apply {
                function,
                argument,
                span,
            } => Expr::Apply {
                function: self.boxed(function, scope)?,
                argument: self.boxed(argument, scope)?,
                span: *span,
            },
            Expr::BinOp { op, lhs, rhs, span } => Expr::BinOp {
                op: self.op(op, scope)?,
                lhs: self.boxed(lhs, scope)?,
                rhs: self.boxed(rhs, scope)?,
                span: *span,
            },
            Expr::Negate { expr, span } => Expr::Negate {
                expr: self.boxed(expr, scope)?,
                span: *span,
            },
            Expr::Not { expr, span } => Expr::Not {
                expr: self.boxed(expr, scope)?,
                span: *span,
            },
            Expr::OpSection { op, span } => Expr::OpSection {
                op: self.op(op, scope)?,
                span: *span,
            },
            Expr::LeftSection { op, left, span } => Expr::LeftSection {
                op: self.op(op, scope)?,
                left: self.boxed(left, scope)?,
                span: *span,
            },
            Expr::RightSection { op, right, span } => Expr::RightSection {
                op: self.op(op, scope)?,
                right: self.boxed(right, scope)?,
                span: *span,
            },
            Expr::IndexSection { indices, span } => Expr::IndexSection {
                indices: self.indices(indices, scope)?,
                span: *span,
            },
            Expr::If {
                condition,
                then_branch,
                else_branch,
                span,
            } => Expr::If {
                condition: self.boxed(condition, scope)?,
                then_branch: self.boxed(then_branch, scope)?,
                else_branch: self.boxed(else_branch, scope)?,
                span: *span,
            },
            Expr::Let {
                sizes,
                pat,
                value,
                body,
                span,
            } => {
                let value = self.boxed(value, scope)?;
                let mut inner = scope.clone();
                for size in sizes {
                    self.bind_local_value(&mut inner, size);
                }
                let (pat, inner) = self.pat(pat, &inner)?;
                Expr::Let {
                    sizes: sizes.clone(),
                    pat,
                    value,
                    body: self.boxed(body, &inner)?,
                    span: *span,
                }
            }
            Expr::LetFun {
                name,
                type_params,
                params,
                return_type,
                value,
                body,
                span,
            } => {
                let mut inner = self.bind_type_params(type_params, scope);
                let mut resolved_params = Vec::with_capacity(params.len());
                for param in params {
                    let (param, extended) = self.pat(param, &inner)?;
                    resolved_params.push(param);
                    inner = extended;
                }
                let return_type = match return_type {
                    Some(ty) => Some(self.type_exp(ty, &inner)?),
                    None => None,
                };
                let value = self.boxed(value, &inner)?;
                let mut after = scope.clone();
                self.bind_local_value(&mut after, name);
                Expr::LetFun {
                    name: name.clone(),
                    type_params: type_params.clone(),
                    params: resolved_params,
                    return_type,
                    value,
                    body: self.boxed(body, &after)?,
                    span: *span,
                }
            }
            Expr::LetWith {
                name,
                name_span,
                indices,
                value,
                body,
                span,
            } => {
                let indices = self.indices(indices, scope)?;
                let value = self.boxed(value, scope)?;
                let mut after = scope.clone();
                self.bind_local_value(&mut after, name);
                let body = self.boxed(body, &after)?;
                match scope.values.get(name) {
                    // `let a[i] = v in e` of a global `a`: `let a = a' with
                    // [i] = v in e`, where `a'` is the global's output name.
                    Some(Entity::Global(_)) => {
                        let target =
                            Expr::Var(self.value_name(
                                scope,
                                &QualName::unqualified(name.clone(), *name_span),
                            )?);
                        Expr::Let {
                            sizes: Vec::new(),
                            pat: Pat::Var {
                                name: name.clone(),
                                span: *name_span,
                            },
                            value: Box::new(Expr::Update {
                                target: Box::new(target),
                                indices,
                                value,
                                span: *span,
                            }),
                            body,
                            span: *span,
                        }
                    }
                    _ => Expr::LetWith {
                        name: name.clone(),
                        name_span: *name_span,
                        indices,
                        value,
                        body,
                        span: *span,
                    },
                }
            }
            Expr::Lambda {
                params,
                return_type,
                body,
                span,
            } => {
                let mut inner = scope.clone();
                let mut resolved_params = Vec::with_capacity(params.len());
                for param in params {
                    let (param, extended) = self.pat(param, &inner)?;
                    resolved_params.push(param);
                    inner = extended;
                }
                let return_type = match return_type {
                    Some(ty) => Some(self.type_exp(ty, &inner)?),
                    None => None,
                };
                Expr::Lambda {
                    params: resolved_params,
                    return_type,
                    body: self.boxed(body, &inner)?,
                    span: *span,
                }
            }
            Expr::Loop {
                pat,
                init,
                form,
                body,
                span,
            } => {
                let init = match init {
                    Some(init) => Some(self.boxed(init, scope)?),
                    // `loop x …` starts from the `x` in scope: made explicit
                    // when that is a global (renamed in the output).
                    None if pattern_mentions_global(pat, scope) => match pat_as_expr(pat) {
                        Some(start) => Some(self.boxed(&start, scope)?),
                        None => None,
                    },
                    None => None,
                };
                let (pat, mut inner) = self.pat(pat, scope)?;
                let form = match form {
                    LoopForm::For {
                        var,
                        var_span,
                        bound,
                    } => {
                        let bound = self.boxed(bound, scope)?;
                        self.bind_local_value(&mut inner, var);
                        LoopForm::For {
                            var: var.clone(),
                            var_span: *var_span,
                            bound,
                        }
                    }
                    LoopForm::ForIn { pat, array } => {
                        let array = self.boxed(array, scope)?;
                        let (pat, extended) = self.pat(pat, &inner)?;
                        inner = extended;
                        LoopForm::ForIn { pat, array }
                    }
                    LoopForm::While { condition } => LoopForm::While {
                        condition: self.boxed(condition, &inner)?,
                    },
                };
                Expr::Loop {
                    pat,
                    init,
                    form,
                    body: self.boxed(body, &inner)?,
                    span: *span,
                }
            }
            Expr::Update {
                target,
                indices,
                value,
                span,
            } => Expr::Update {
                target: self.boxed(target, scope)?,
                indices: self.indices(indices, scope)?,
                value: self.boxed(value, scope)?,
                span: *span,
            },
            Expr::RecordUpdate {
                target,
                fields,
                value,
                span,
            } => Expr::RecordUpdate {
                target: self.boxed(target, scope)?,
                fields: fields.clone(),
                value: self.boxed(value, scope)?,
                span: *span,
            },
            Expr::Ascribe { expr, ty, span } => Expr::Ascribe {
                expr: self.boxed(expr, scope)?,
                ty: self.type_exp(ty, scope)?,
                span: *span,
            },
            Expr::Coerce { expr, ty, span } => Expr::Coerce {
                expr: self.boxed(expr, scope)?,
                ty: self.type_exp(ty, scope)?,
                span: *span,
            },
            Expr::Match {
                scrutinee,
                cases,
                span,
            } => {
                let scrutinee = self.boxed(scrutinee, scope)?;
                let mut resolved = Vec::with_capacity(cases.len());
                for case in cases {
                    let (pat, inner) = self.pat(&case.pat, scope)?;
                    resolved.push(MatchCase {
                        pat,
                        body: self.expr(&case.body, &inner)?,
                        span: case.span,
                    });
                }
                Expr::Match {
                    scrutinee,
                    cases: resolved,
                    span: *span,
                }
            }
            Expr::Constructor {
                name,
                payload,
                span,
            } => Expr::Constructor {
                name: name.clone(),
                payload: self.exprs(payload, scope)?,
                span: *span,
            },
            // `m.(e)`: `e` in the scope opened by `m`'s bindings.
            Expr::OpenIn { module, body, span } => {
                let mut path = module.qualifiers.clone();
                path.push(module.name.clone());
                match self.module_path(scope, &path, module.span)? {
                    Some(contents) => {
                        let inner = scope.opened(&contents);
                        self.expr(body, &inner)?
                    }
                    // A module bound nowhere (see `value_name`): the
                    // construct stays.
                    None => {
                        self.free_values.insert(path[0].clone());
                        Expr::OpenIn {
                            module: module.clone(),
                            body: self.boxed(body, scope)?,
                            span: *span,
                        }
                    }
                }
            }
            Expr::Attr { attr, expr, span } => Expr::Attr {
                attr: attr.clone(),
                expr: self.boxed(expr, scope)?,
                span: *span,
            },
        })
    }
}

/// Whether a variable of `pat` is a global in `scope`.
fn pattern_mentions_global(pat: &Pat, scope: &Env) -> bool {
    match pat {
        Pat::Var { name, .. } => matches!(scope.values.get(name), Some(Entity::Global(_))),
        Pat::Wildcard { .. } | Pat::Literal { .. } => false,
        Pat::Tuple { elements, .. }
        | Pat::Constructor {
            payload: elements, ..
        } => elements
            .iter()
            .any(|element| pattern_mentions_global(element, scope)),
        Pat::Record { fields, .. } => fields
            .iter()
            .any(|(_, pat)| pattern_mentions_global(pat, scope)),
        Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => pattern_mentions_global(pat, scope),
    }
}

/// The expression a loop pattern without initial value starts from (its
/// variables as they are in scope), when the pattern is made of variables,
/// tuples, records and ascriptions.
fn pat_as_expr(pat: &Pat) -> Option<Expr> {
    Some(match pat {
        Pat::Var { name, span } => Expr::Var(QualName::unqualified(name.clone(), *span)),
        Pat::Tuple { elements, span } => Expr::Tuple {
            elements: elements.iter().map(pat_as_expr).collect::<Option<_>>()?,
            span: *span,
        },
        Pat::Record { fields, span } => Expr::Record {
            fields: fields
                .iter()
                .map(|(field, pat)| Some((field.clone(), pat_as_expr(pat)?)))
                .collect::<Option<_>>()?,
            span: *span,
        },
        Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => pat_as_expr(pat)?,
        _ => return None,
    })
}
