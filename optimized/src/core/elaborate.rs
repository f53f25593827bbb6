//! Elaboration: a module-free surface program and the checker's typed
//! output ([`crate::typecheck::typed::TypedProgram`]) into the typed core.
//!
//! No inference happens here: every type comes from the checker's tables
//! (resolved at the end of each top-level declaration) and is translated
//! into a core [`Type`]: rigid type parameters become the [`TypeVar`]s of
//! the function that quantifies them, rigid sizes the [`VarName`]s of the
//! `i64` variables they name (sizes of variables out of reach become
//! [`Size::Unknown`]), flexible sizes unknown, and an unconstrained type
//! variable that survived (a value never inspected, such as the element of
//! an unused `[]`) the unit type. Overloaded operators are resolved from
//! their operands' types; intrinsics are saturated (eta-expanded, their
//! supplied arguments `let`-bound first so nothing is evaluated twice).

use std::collections::HashMap;
use std::rc::Rc;

use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{
    self, Dec, Literal, LoopForm as AstLoopForm, Name, TypeExp, ValueBindKind,
};
use spec::syntax::uniqueness::DeclaredUniqueness;

use super::{
    BinOp, Case, Definition, DimIndex, Expr, ExprKind, FieldName, Function, FunctionUniqueness,
    Instance, Intrinsic, LoopForm, NameSource, Pat, PatKind, PrimType, PrimValue, Program, Size,
    Type, TypeVar, UnOp, Uniqueness, VarName,
};
use crate::typecheck::typed::TypedProgram;
use crate::types::{self, Scheme};

type ElabResult<T> = Result<T, Diagnostic>;

/// Elaborates a type-checked module-free program into the core.
pub fn elaborate_program(typed: &TypedProgram<'_>) -> Result<Program, Vec<Diagnostic>> {
    let mut elaborator = Elaborator {
        typed,
        names: NameSource::default(),
        rigid_types: HashMap::new(),
        rigid_sizes: imbl::HashMap::new(),
    };
    let mut scope = Scope::default();
    let mut definitions = Vec::new();
    let mut diagnostics = Vec::new();
    for dec in &typed.program.decs {
        match elaborator.elaborate_dec(&mut scope, dec) {
            Ok(Some(definition)) => definitions.push(definition),
            Ok(None) => {}
            Err(diagnostic) => diagnostics.push(diagnostic),
        }
    }
    if diagnostics.is_empty() {
        Ok(Program {
            definitions,
            next_id: elaborator.names.next_id(),
        })
    } else {
        Err(diagnostics)
    }
}

/// What a source name stands for in the core.
#[derive(Clone)]
struct Binding {
    name: VarName,
    ty: Type,
}

/// The value names in scope (persistent: extending it for a body is O(log n)).
#[derive(Clone, Default)]
struct Scope {
    values: imbl::HashMap<Name, Binding>,
    /// The `i64` variables in scope that types may name as sizes, by the
    /// checker's rigid id: a size naming anything else is unknown in the
    /// core, so every [`Size::Var`] is a variable in scope.
    sizes: imbl::HashMap<u32, VarName>,
}

impl Scope {
    fn with(&self, source: &Name, binding: Binding) -> Scope {
        Scope {
            values: self.values.update(source.clone(), binding),
            sizes: self.sizes.clone(),
        }
    }

    fn with_size(&self, rigid: u32, var: &VarName) -> Scope {
        Scope {
            values: self.values.clone(),
            sizes: self.sizes.update(rigid, var.clone()),
        }
    }
}

struct Elaborator<'t, 'ast> {
    typed: &'t TypedProgram<'ast>,
    names: NameSource,
    /// Rigid type parameters (checker ids) ↦ core type variables.
    rigid_types: HashMap<u32, TypeVar>,
    /// Rigid sizes (checker ids) ↦ the `i64` variables they name, of the
    /// scope being elaborated (a copy of its [`Scope::sizes`]).
    rigid_sizes: imbl::HashMap<u32, VarName>,
}

/// The prefix of the numeric prelude's intrinsics (`__prim_sqrt`, …).
const PRELUDE_INTRINSIC_PREFIX: &str = "__prim_";

fn internal(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(format!("elaboration into the core failed: {what}"))
        .with_code("internal")
        .with_primary(span, "here")
}

fn module_construct(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(format!(
        "{what} is a module construct: the core takes module-free programs"
    ))
    .with_code(spec::diagnostic::codes::MODULE_CONSTRUCT)
    .with_primary(span, "module construct")
    .with_note("hint: static interpretation removes modules before elaboration")
}

impl<'ast> Elaborator<'_, 'ast> {
    // -- types ----------------------------------------------------------------

    fn core_type(&self, ty: &types::Type, span: Span) -> ElabResult<Type> {
        spec::recursion::with_stack(|| self.core_type_inner(ty, span))
    }

    fn core_type_inner(&self, ty: &types::Type, span: Span) -> ElabResult<Type> {
        Ok(match ty {
            types::Type::Prim(prim) => Type::Prim(*prim),
            types::Type::Var(_) => Type::unit(),
            types::Type::Param { name, .. } => match self.rigid_types.get(&name.id) {
                Some(var) => Type::Param(var.clone()),
                None => {
                    return Err(internal(
                        span,
                        &format!("type parameter `{}` is not in scope", name.name),
                    ))
                }
            },
            types::Type::Array { size, element } => {
                Type::array(self.core_size(size), self.core_type(element, span)?)
            }
            types::Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(field, ty)| Ok((field.clone(), self.core_type(ty, span)?)))
                    .collect::<ElabResult<_>>()?,
            )),
            types::Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        Ok((
                            name.clone(),
                            payload
                                .iter()
                                .map(|ty| self.core_type(ty, span))
                                .collect::<ElabResult<_>>()?,
                        ))
                    })
                    .collect::<ElabResult<_>>()?,
            )),
            types::Type::Arrow { param, from, to } => Type::Arrow {
                param: param
                    .as_ref()
                    .and_then(|param| self.rigid_sizes.get(&param.id).cloned()),
                from: Rc::new(self.core_type(from, span)?),
                to: Rc::new(self.core_type(to, span)?),
            },
            types::Type::Abstract { name, .. } => {
                return Err(module_construct(
                    span,
                    &format!("the abstract type `{}`", name.name),
                ))
            }
            types::Type::Error => return Err(internal(span, "an ill-typed expression")),
        })
    }

    fn core_size(&self, size: &types::Size) -> Size {
        match size {
            types::Size::Constant(n) => Size::Constant(*n),
            types::Size::Rigid(rigid) => match self.rigid_sizes.get(&rigid.id) {
                Some(var) => Size::Var(var.clone()),
                None => Size::Unknown,
            },
            types::Size::Flexible(_) | types::Size::Unknown => Size::Unknown,
        }
    }

    fn expr_type(&self, expr: &'ast ast::Expr) -> ElabResult<Type> {
        match self.typed.expr_type(expr) {
            Some(ty) => self.core_type(ty, expr.span()),
            None => Err(internal(
                expr.span(),
                "no type was recorded for this expression",
            )),
        }
    }

    fn pat_type(&self, pat: &'ast ast::Pat) -> ElabResult<Type> {
        match self.typed.pat_type(pat) {
            Some(ty) => self.core_type(ty, pat.span()),
            None => Err(internal(
                pat.span(),
                "no type was recorded for this pattern",
            )),
        }
    }

    fn instance(&self, name: &'ast ast::QualName) -> ElabResult<Instance> {
        let Some(instance) = self.typed.instance(name) else {
            return Ok(Instance::default());
        };
        Ok(Instance {
            types: instance
                .types
                .iter()
                .map(|ty| self.core_type(ty, name.span))
                .collect::<ElabResult<_>>()?,
            sizes: instance
                .sizes
                .iter()
                .map(|size| self.core_size(size))
                .collect(),
        })
    }

    // -- declarations -----------------------------------------------------------

    fn elaborate_dec(
        &mut self,
        scope: &mut Scope,
        dec: &'ast Dec,
    ) -> ElabResult<Option<Definition>> {
        match dec {
            Dec::Value(bind) => {
                let Some(scheme) = self.typed.def_scheme(bind) else {
                    return Err(internal(
                        bind.span,
                        "no scheme was recorded for this definition",
                    ));
                };
                let function = self.elaborate_function(
                    scope,
                    &bind.name,
                    &bind.type_params,
                    &bind.params,
                    bind.return_type.as_ref(),
                    scheme,
                    &bind.body,
                    bind.span,
                )?;
                *scope = scope.with(
                    &bind.name,
                    Binding {
                        name: function.name.clone(),
                        ty: function.ty(),
                    },
                );
                let entry = bind.kind == ValueBindKind::Entry || bind.name == "main";
                let function = if entry {
                    self.eta_expand_entry(function)
                } else {
                    function
                };
                Ok(Some(Definition { entry, function }))
            }
            Dec::Type(_) => Ok(None),
            Dec::Attr { dec, .. } => self.elaborate_dec(scope, dec),
            Dec::Module(bind) => Err(module_construct(bind.span, "a module")),
            Dec::ModuleType(bind) => Err(module_construct(bind.span, "a module type")),
            Dec::Open { span, .. } => Err(module_construct(*span, "`open`")),
            Dec::Import { span, .. } => Err(module_construct(*span, "`import`")),
            Dec::Local { span, .. } => Err(module_construct(*span, "`local`")),
        }
    }

    /// An entry point takes every argument of its type, as in Futhark:
    /// `entry add = map2 (u8.+)`, of type `[n]u8 -> [n]u8 -> [n]u8`, becomes
    /// `entry add (x: [n]u8) (y: [n]u8) = map2 (u8.+) x y` (the reference's
    /// extension `TFP18 T-EntryEtaExpansion`, SPEC_NOTES TFP18-24). A named
    /// arrow (`(n: i64) -> [n]i32`) keeps its name, which later types use.
    fn eta_expand_entry(&mut self, mut function: Function) -> Function {
        let span = function.span;
        let mut added: Vec<(VarName, Type)> = Vec::new();
        while let Type::Arrow { param, from, to } = function.result.clone() {
            added.push((
                param.unwrap_or_else(|| self.names.var("eta")),
                (*from).clone(),
            ));
            function.result = (*to).clone();
        }
        if added.is_empty() {
            return function;
        }
        let args = added
            .iter()
            .map(|(name, ty)| Expr {
                kind: ExprKind::Var {
                    name: name.clone(),
                    instance: Instance::default(),
                },
                ty: ty.clone(),
                span,
            })
            .collect();
        function.body = Expr {
            kind: ExprKind::Apply {
                function: Box::new(function.body),
                args,
            },
            ty: function.result.clone(),
            span,
        };
        function
            .params
            .extend(added.into_iter().map(|(name, ty)| Pat {
                kind: PatKind::Var(name),
                ty,
                span,
            }));
        function
    }

    /// A `def` or a local `let f`: its type and size parameters (from the
    /// scheme), parameters and body.
    #[allow(clippy::too_many_arguments)]
    fn elaborate_function(
        &mut self,
        scope: &Scope,
        name: &Name,
        type_params: &'ast [ast::TypeParam],
        params: &'ast [ast::Pat],
        return_type: Option<&'ast TypeExp>,
        scheme: &Scheme,
        body: &'ast ast::Expr,
        span: Span,
    ) -> ElabResult<Function> {
        let core_type_params: Vec<TypeVar> = scheme
            .type_params
            .iter()
            .map(|(rigid, _)| {
                let var = self.names.type_var(&rigid.name);
                self.rigid_types.insert(rigid.id, var.clone());
                var
            })
            .collect();
        let mut inner = scope.clone();
        let size_params: Vec<VarName> = scheme
            .size_params
            .iter()
            .map(|rigid| {
                let var = self.names.var(&rigid.name);
                inner = inner.with_size(rigid.id, &var);
                var
            })
            .collect();
        let declared_sizes = type_params.iter().filter_map(|param| match param {
            ast::TypeParam::Size { name, .. } => Some(name),
            ast::TypeParam::Type { .. } => None,
        });
        for (source, var) in declared_sizes.zip(&size_params) {
            inner = inner.with(
                source,
                Binding {
                    name: var.clone(),
                    ty: Type::I64,
                },
            );
        }
        let core_params = params
            .iter()
            .map(|param| self.elaborate_pat(&mut inner, param))
            .collect::<ElabResult<Vec<_>>>()?;
        let saved = std::mem::replace(&mut self.rigid_sizes, inner.sizes.clone());
        let result = self.core_type(&scheme.ty, span);
        self.rigid_sizes = saved;
        let mut result = result?;
        for _ in params {
            result = match result {
                Type::Arrow { to, .. } => (*to).clone(),
                _ => return Err(internal(span, "a function's type has too few arrows")),
            };
        }
        let body = self.elaborate_expr(&inner, body)?;
        Ok(Function {
            name: self.names.var(name),
            type_params: core_type_params,
            size_params,
            params: core_params,
            result,
            body,
            span,
            uniqueness: FunctionUniqueness {
                params: params
                    .iter()
                    .map(|param| Uniqueness::declared(&DeclaredUniqueness::of_pattern(param)))
                    .collect(),
                result: return_type
                    .map(|ty| Uniqueness::declared(&DeclaredUniqueness::of_type(ty)))
                    .unwrap_or_default(),
            },
        })
    }

    // -- patterns ---------------------------------------------------------------

    /// A pattern; the variables it binds are added to `scope`.
    fn elaborate_pat(&mut self, scope: &mut Scope, pat: &'ast ast::Pat) -> ElabResult<Pat> {
        let saved = std::mem::replace(&mut self.rigid_sizes, scope.sizes.clone());
        let result = spec::recursion::with_stack(|| self.elaborate_pat_inner(scope, pat));
        self.rigid_sizes = saved;
        result
    }

    fn elaborate_pat_inner(&mut self, scope: &mut Scope, pat: &'ast ast::Pat) -> ElabResult<Pat> {
        let span = pat.span();
        let kind = match pat {
            ast::Pat::Ascribe { pat: inner, .. } | ast::Pat::Attr { pat: inner, .. } => {
                return self.elaborate_pat(scope, inner);
            }
            ast::Pat::Var { name, .. } => {
                let var = self.names.var(name);
                let ty = self.pat_type(pat)?;
                *scope = scope.with(
                    name,
                    Binding {
                        name: var.clone(),
                        ty: ty.clone(),
                    },
                );
                if let (Some(rigid), Type::Prim(PrimType::I64)) = (self.typed.binder(pat), &ty) {
                    *scope = scope.with_size(rigid.id, &var);
                }
                PatKind::Var(var)
            }
            ast::Pat::Wildcard { .. } => PatKind::Wildcard,
            ast::Pat::Tuple { elements, .. } => PatKind::Record(
                elements
                    .iter()
                    .enumerate()
                    .map(|(index, element)| {
                        Ok((
                            FieldName::position(index),
                            self.elaborate_pat(scope, element)?,
                        ))
                    })
                    .collect::<ElabResult<_>>()?,
            ),
            ast::Pat::Record { fields, .. } => PatKind::Record(
                fields
                    .iter()
                    .map(|(name, field)| {
                        Ok((FieldName(name.clone()), self.elaborate_pat(scope, field)?))
                    })
                    .collect::<ElabResult<_>>()?,
            ),
            ast::Pat::Literal {
                negative, literal, ..
            } => {
                let ty = self.pat_type(pat)?;
                PatKind::Literal(literal_value(literal, *negative, &ty, span)?)
            }
            ast::Pat::Constructor { name, payload, .. } => PatKind::Constructor {
                name: name.clone(),
                payload: payload
                    .iter()
                    .map(|element| self.elaborate_pat(scope, element))
                    .collect::<ElabResult<_>>()?,
            },
        };
        Ok(Pat {
            kind,
            ty: self.pat_type(pat)?,
            span,
        })
    }

    // -- expressions --------------------------------------------------------------

    fn elaborate_expr(&mut self, scope: &Scope, expr: &'ast ast::Expr) -> ElabResult<Expr> {
        let saved = std::mem::replace(&mut self.rigid_sizes, scope.sizes.clone());
        let result = spec::recursion::with_stack(|| self.elaborate_expr_inner(scope, expr));
        self.rigid_sizes = saved;
        result
    }

    fn elaborate_exprs(
        &mut self,
        scope: &Scope,
        exprs: &'ast [ast::Expr],
    ) -> ElabResult<Vec<Expr>> {
        exprs
            .iter()
            .map(|expr| self.elaborate_expr(scope, expr))
            .collect()
    }

    fn elaborate_expr_inner(&mut self, scope: &Scope, expr: &'ast ast::Expr) -> ElabResult<Expr> {
        let span = expr.span();
        let ty = self.expr_type(expr)?;
        let kind = match expr {
            ast::Expr::Literal { literal, .. } => {
                ExprKind::Literal(literal_value(literal, false, &ty, span)?)
            }
            ast::Expr::Var(name) => return self.elaborate_var(scope, name, ty),
            ast::Expr::Project {
                expr: inner, field, ..
            } => ExprKind::Project {
                record: Box::new(self.elaborate_expr(scope, inner)?),
                field: FieldName(field.clone()),
            },
            ast::Expr::Tuple { elements, .. } => ExprKind::Record(
                self.elaborate_exprs(scope, elements)?
                    .into_iter()
                    .enumerate()
                    .map(|(index, element)| (FieldName::position(index), element))
                    .collect(),
            ),
            ast::Expr::Record { fields, .. } => ExprKind::Record(
                fields
                    .iter()
                    .map(|(name, value)| {
                        Ok((FieldName(name.clone()), self.elaborate_expr(scope, value)?))
                    })
                    .collect::<ElabResult<_>>()?,
            ),
            ast::Expr::Array { elements, .. } => {
                ExprKind::ArrayLit(self.elaborate_exprs(scope, elements)?)
            }
            ast::Expr::Range {
                start,
                step,
                end,
                end_kind,
                ..
            } => ExprKind::Range {
                start: Box::new(self.elaborate_expr(scope, start)?),
                step: match step {
                    Some(step) => Some(Box::new(self.elaborate_expr(scope, step)?)),
                    None => None,
                },
                end: Box::new(self.elaborate_expr(scope, end)?),
                end_kind: *end_kind,
            },
            ast::Expr::Index { array, indices, .. } => ExprKind::Index {
                array: Box::new(self.elaborate_expr(scope, array)?),
                indices: self.elaborate_indices(scope, indices)?,
            },
            ast::Expr::Apply { .. } => {
                let (function, arguments) = application_spine(expr);
                return self.elaborate_application(scope, function, arguments, ty, span);
            }
            ast::Expr::BinOp { op, lhs, rhs, .. } => {
                return self.elaborate_binop(scope, op, lhs, rhs, ty, span)
            }
            ast::Expr::Negate { expr: inner, .. } => {
                let operand = self.elaborate_expr(scope, inner)?;
                let prim = prim_of(&operand.ty, span)?;
                ExprKind::UnOp {
                    op: UnOp::Neg(prim),
                    operand: Box::new(operand),
                }
            }
            ast::Expr::Not { expr: inner, .. } => {
                let operand = self.elaborate_expr(scope, inner)?;
                let prim = prim_of(&operand.ty, span)?;
                ExprKind::UnOp {
                    op: UnOp::Not(prim),
                    operand: Box::new(operand),
                }
            }
            ast::Expr::OpSection { op, .. } => return self.operator_value(scope, op, ty, span),
            ast::Expr::LeftSection { op, left, .. } => {
                // `(e op)` = `let l = e in \y -> l op y`.
                let left = self.elaborate_expr(scope, left)?;
                let Some((from, to)) = ty.as_arrow() else {
                    return Err(internal(span, "a section that is not a function"));
                };
                let (from, to) = (from.clone(), to.clone());
                let bound = self.names.var("l");
                let param = self.names.var("y");
                let lhs = var_expr(&bound, &left.ty, span);
                let rhs = var_expr(&param, &from, span);
                let body = self.apply_operator(scope, op, lhs, rhs, to, span)?;
                let lambda = lambda_expr(vec![var_pat(&param, &from, span)], body, ty.clone());
                return Ok(let_expr(var_pat(&bound, &left.ty, span), left, lambda));
            }
            ast::Expr::RightSection { op, right, .. } => {
                // `(op e)` = `let r = e in \x -> x op r`.
                let right = self.elaborate_expr(scope, right)?;
                let Some((from, to)) = ty.as_arrow() else {
                    return Err(internal(span, "a section that is not a function"));
                };
                let (from, to) = (from.clone(), to.clone());
                let bound = self.names.var("r");
                let param = self.names.var("x");
                let lhs = var_expr(&param, &from, span);
                let rhs = var_expr(&bound, &right.ty, span);
                let body = self.apply_operator(scope, op, lhs, rhs, to, span)?;
                let lambda = lambda_expr(vec![var_pat(&param, &from, span)], body, ty.clone());
                return Ok(let_expr(var_pat(&bound, &right.ty, span), right, lambda));
            }
            ast::Expr::ProjectSection { fields, .. } => {
                let Some((from, _)) = ty.as_arrow() else {
                    return Err(internal(span, "a section that is not a function"));
                };
                let from = from.clone();
                let param = self.names.var("r");
                let mut body = var_expr(&param, &from, span);
                for field in fields {
                    body = project(body, FieldName(field.clone()), span)?;
                }
                return Ok(lambda_expr(vec![var_pat(&param, &from, span)], body, ty));
            }
            ast::Expr::IndexSection { indices, .. } => {
                let Some((from, to)) = ty.as_arrow() else {
                    return Err(internal(span, "a section that is not a function"));
                };
                let (from, to) = (from.clone(), to.clone());
                let param = self.names.var("a");
                let body = Expr {
                    kind: ExprKind::Index {
                        array: Box::new(var_expr(&param, &from, span)),
                        indices: self.elaborate_indices(scope, indices)?,
                    },
                    ty: to,
                    span,
                };
                return Ok(lambda_expr(vec![var_pat(&param, &from, span)], body, ty));
            }
            ast::Expr::If {
                condition,
                then_branch,
                else_branch,
                ..
            } => ExprKind::If {
                condition: Box::new(self.elaborate_expr(scope, condition)?),
                then_branch: Box::new(self.elaborate_expr(scope, then_branch)?),
                else_branch: Box::new(self.elaborate_expr(scope, else_branch)?),
            },
            ast::Expr::Let {
                sizes,
                pat,
                value,
                body,
                ..
            } => {
                let mut inner = scope.clone();
                let rigids = self.typed.let_sizes(expr).unwrap_or(&[]);
                let mut core_sizes = Vec::new();
                for (source, rigid) in sizes.iter().zip(rigids) {
                    let var = self.names.var(source);
                    inner = inner
                        .with(
                            source,
                            Binding {
                                name: var.clone(),
                                ty: Type::I64,
                            },
                        )
                        .with_size(rigid.id, &var);
                    core_sizes.push(var);
                }
                let value = self.elaborate_expr(scope, value)?;
                let pat = self.elaborate_pat(&mut inner, pat)?;
                ExprKind::Let {
                    sizes: core_sizes,
                    pat,
                    value: Box::new(value),
                    body: Box::new(self.elaborate_expr(&inner, body)?),
                }
            }
            ast::Expr::LetFun {
                name,
                type_params,
                params,
                return_type,
                value,
                body,
                ..
            } => {
                let Some(scheme) = self.typed.let_fun_scheme(expr) else {
                    return Err(internal(span, "no scheme was recorded for this function"));
                };
                let function = self.elaborate_function(
                    scope,
                    name,
                    type_params,
                    params,
                    return_type.as_ref(),
                    scheme,
                    value,
                    span,
                )?;
                let inner = scope.with(
                    name,
                    Binding {
                        name: function.name.clone(),
                        ty: function.ty(),
                    },
                );
                ExprKind::LetFun {
                    function: Box::new(function),
                    body: Box::new(self.elaborate_expr(&inner, body)?),
                }
            }
            ast::Expr::LetWith {
                name,
                name_span,
                indices,
                value,
                body,
                ..
            } => {
                // `let a[i] = v in body` = `let a' = a with [i] = v in body`.
                let Some(target) = scope.values.get(name).cloned() else {
                    return Err(internal(*name_span, "the updated variable is not in scope"));
                };
                let update = Expr {
                    kind: ExprKind::Update {
                        target: Box::new(var_expr(&target.name, &target.ty, *name_span)),
                        indices: self.elaborate_indices(scope, indices)?,
                        value: Box::new(self.elaborate_expr(scope, value)?),
                    },
                    ty: target.ty.clone(),
                    span,
                };
                let updated = self.names.var(name);
                let inner = scope.with(
                    name,
                    Binding {
                        name: updated.clone(),
                        ty: target.ty.clone(),
                    },
                );
                ExprKind::Let {
                    sizes: Vec::new(),
                    pat: var_pat(&updated, &target.ty, *name_span),
                    value: Box::new(update),
                    body: Box::new(self.elaborate_expr(&inner, body)?),
                }
            }
            ast::Expr::Lambda { params, body, .. } => {
                let mut inner = scope.clone();
                let params = params
                    .iter()
                    .map(|param| self.elaborate_pat(&mut inner, param))
                    .collect::<ElabResult<Vec<_>>>()?;
                ExprKind::Lambda {
                    params,
                    body: Box::new(self.elaborate_expr(&inner, body)?),
                }
            }
            ast::Expr::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => {
                let init = match init {
                    Some(init) => self.elaborate_expr(scope, init)?,
                    None => self.pattern_as_value(scope, pat)?,
                };
                let mut inner = scope.clone();
                let declared = Uniqueness::declared(&DeclaredUniqueness::of_pattern(pat));
                let pat = self.elaborate_pat(&mut inner, pat)?;
                let form = match form {
                    AstLoopForm::For { var, bound, .. } => {
                        let bound = self.elaborate_expr(scope, bound)?;
                        let index = self.names.var(var);
                        inner = inner.with(
                            var,
                            Binding {
                                name: index.clone(),
                                ty: bound.ty.clone(),
                            },
                        );
                        LoopForm::For {
                            var: index,
                            bound: Box::new(bound),
                        }
                    }
                    AstLoopForm::ForIn { pat, array } => {
                        let array = self.elaborate_expr(scope, array)?;
                        let pat = self.elaborate_pat(&mut inner, pat)?;
                        LoopForm::ForIn {
                            pat,
                            array: Box::new(array),
                        }
                    }
                    AstLoopForm::While { condition } => LoopForm::While {
                        condition: Box::new(self.elaborate_expr(&inner, condition)?),
                    },
                };
                ExprKind::Loop {
                    pat,
                    declared,
                    init: Box::new(init),
                    form,
                    body: Box::new(self.elaborate_expr(&inner, body)?),
                }
            }
            ast::Expr::Update {
                target,
                indices,
                value,
                ..
            } => ExprKind::Update {
                target: Box::new(self.elaborate_expr(scope, target)?),
                indices: self.elaborate_indices(scope, indices)?,
                value: Box::new(self.elaborate_expr(scope, value)?),
            },
            ast::Expr::RecordUpdate {
                target,
                fields,
                value,
                ..
            } => ExprKind::RecordUpdate {
                target: Box::new(self.elaborate_expr(scope, target)?),
                path: fields
                    .iter()
                    .map(|field| FieldName(field.clone()))
                    .collect(),
                value: Box::new(self.elaborate_expr(scope, value)?),
            },
            ast::Expr::Ascribe { expr: inner, .. } => {
                let mut inner = self.elaborate_expr(scope, inner)?;
                inner.ty = ty;
                return Ok(inner);
            }
            ast::Expr::Coerce { expr: inner, .. } => {
                ExprKind::Coerce(Box::new(self.elaborate_expr(scope, inner)?))
            }
            ast::Expr::Match {
                scrutinee, cases, ..
            } => ExprKind::Match {
                scrutinee: Box::new(self.elaborate_expr(scope, scrutinee)?),
                cases: cases
                    .iter()
                    .map(|case| {
                        let mut inner = scope.clone();
                        let pat = self.elaborate_pat(&mut inner, &case.pat)?;
                        Ok(Case {
                            pat,
                            body: self.elaborate_expr(&inner, &case.body)?,
                        })
                    })
                    .collect::<ElabResult<_>>()?,
            },
            ast::Expr::Constructor { name, payload, .. } => ExprKind::Constructor {
                name: name.clone(),
                payload: self.elaborate_exprs(scope, payload)?,
            },
            ast::Expr::OpenIn { span, .. } => return Err(module_construct(*span, "`m.(e)`")),
            ast::Expr::Attr { expr: inner, .. } => return self.elaborate_expr(scope, inner),
        };
        Ok(Expr { kind, ty, span })
    }

    fn elaborate_indices(
        &mut self,
        scope: &Scope,
        indices: &'ast [ast::DimIndex],
    ) -> ElabResult<Vec<DimIndex>> {
        indices
            .iter()
            .map(|index| {
                Ok(match index {
                    ast::DimIndex::Index(expr) => {
                        DimIndex::Index(index_as_i64(self.elaborate_expr(scope, expr)?))
                    }
                    ast::DimIndex::Slice { start, end, stride } => {
                        let mut bound = |expr: &'ast Option<ast::Expr>| match expr {
                            Some(expr) => self.elaborate_expr(scope, expr).map(Some),
                            None => Ok(None),
                        };
                        DimIndex::Slice {
                            start: bound(start)?,
                            end: bound(end)?,
                            stride: bound(stride)?,
                        }
                    }
                })
            })
            .collect()
    }

    /// `loop (x, y) for …` without `= init`: the pattern as an expression.
    fn pattern_as_value(&mut self, scope: &Scope, pat: &'ast ast::Pat) -> ElabResult<Expr> {
        let span = pat.span();
        match pat {
            ast::Pat::Var { name, .. } => match scope.values.get(name) {
                Some(binding) => Ok(var_expr(&binding.name, &binding.ty, span)),
                None => Err(internal(span, "a loop variable not in scope")),
            },
            ast::Pat::Tuple { elements, .. } => {
                let fields = elements
                    .iter()
                    .enumerate()
                    .map(|(index, element)| {
                        Ok((
                            FieldName::position(index),
                            self.pattern_as_value(scope, element)?,
                        ))
                    })
                    .collect::<ElabResult<Vec<_>>>()?;
                Ok(record_expr(fields, span))
            }
            ast::Pat::Record { fields, .. } => {
                let fields = fields
                    .iter()
                    .map(|(name, field)| {
                        Ok((
                            FieldName(name.clone()),
                            self.pattern_as_value(scope, field)?,
                        ))
                    })
                    .collect::<ElabResult<Vec<_>>>()?;
                Ok(record_expr(fields, span))
            }
            ast::Pat::Ascribe { pat, .. } | ast::Pat::Attr { pat, .. } => {
                self.pattern_as_value(scope, pat)
            }
            _ => Err(internal(
                span,
                "a loop pattern that is not made of variables",
            )),
        }
    }

    // -- variables, intrinsics, applications ----------------------------------------

    /// What a variable occurrence is: a bound variable, a record projection
    /// written as a qualified name, a built-in or a numeric module's function.
    fn elaborate_var(
        &mut self,
        scope: &Scope,
        name: &'ast ast::QualName,
        ty: Type,
    ) -> ElabResult<Expr> {
        let span = name.span;
        match self.resolve_head(scope, name)? {
            Head::Bound(binding) => {
                let instance = self.instance(name)?;
                Ok(Expr {
                    kind: ExprKind::Var {
                        name: binding.name,
                        instance,
                    },
                    ty,
                    span,
                })
            }
            Head::Projection(binding, fields) => {
                let mut current = var_expr(&binding.name, &binding.ty, span);
                for field in fields {
                    current = project(current, FieldName(field.clone()), span)?;
                }
                Ok(current)
            }
            Head::Intrinsic(intrinsic) => {
                let type_args = self.intrinsic_type_args(&intrinsic, name)?;
                self.saturate_intrinsic(intrinsic, type_args, Vec::new(), ty, span)
            }
            Head::PrimOperator(symbol, prim) => {
                let (lhs_type, rhs_type, result) = binary_parts(&ty, span)?;
                let lhs = self.names.var("x");
                let rhs = self.names.var("y");
                let body = prim_binary(
                    &symbol,
                    prim,
                    var_expr(&lhs, &lhs_type, span),
                    var_expr(&rhs, &rhs_type, span),
                    result,
                    span,
                )?;
                Ok(lambda_expr(
                    vec![
                        var_pat(&lhs, &lhs_type, span),
                        var_pat(&rhs, &rhs_type, span),
                    ],
                    body,
                    ty,
                ))
            }
        }
    }

    fn resolve_head(&self, scope: &Scope, name: &'ast ast::QualName) -> ElabResult<Head<'ast>> {
        let span = name.span;
        let Some(first) = name.qualifiers.first() else {
            if let Some(binding) = scope.values.get(&name.name) {
                return Ok(Head::Bound(binding.clone()));
            }
            if let Some(primitive) = name.name.strip_prefix(PRELUDE_INTRINSIC_PREFIX) {
                return self.prelude_intrinsic(primitive, name);
            }
            return match Intrinsic::from_builtin_name(&name.name) {
                Some(intrinsic) => Ok(Head::Intrinsic(intrinsic)),
                None => Err(Diagnostic::error(format!(
                    "`{}` has no definition in the program",
                    name.name
                ))
                .with_code("unknown-name")
                .with_primary(span, "not defined")
                .with_note(
                    "the prelude's functions (`spec/prelude/toplevel.fut`) must be declared in the program given to the core",
                )),
            };
        };
        if let Some(binding) = scope.values.get(first) {
            let fields: Vec<&'ast Name> = name.qualifiers[1..]
                .iter()
                .chain(std::iter::once(&name.name))
                .collect();
            return Ok(Head::Projection(binding.clone(), fields));
        }
        match PrimType::from_name(first) {
            Some(module) if name.qualifiers.len() == 1 => {
                if spec::syntax::operators::is_operator_name(&name.name) {
                    return Ok(Head::PrimOperator(name.name.clone(), module));
                }
                if crate::lower::intrinsics::numeric_primitive(module, &name.name).is_none() {
                    // Defined in the prelude's language (`f32.lerp`,
                    // `i32.get_bit`, …): static interpretation brings its
                    // definition.
                    return Err(module_construct(
                        span,
                        &format!("the prelude definition `{}.{}`", first, name.name),
                    ));
                }
                let arity = match self.typed.expr_type_of_name(name) {
                    Some(ty) => arrow_count(ty),
                    None => 0,
                };
                Ok(Head::Intrinsic(Intrinsic::Numeric {
                    module,
                    function: name.name.as_str().into(),
                    arity,
                }))
            }
            _ => Err(module_construct(
                span,
                &format!(
                    "the qualified name `{}.{}`",
                    name.qualifiers.join("."),
                    name.name
                ),
            )),
        }
    }

    /// The numeric prelude's intrinsic `__prim_<primitive>` (the list is in
    /// the header of `spec/prelude/numeric.fut`; the checker binds them only
    /// in static interpretation's output) at its instance: the numeric
    /// module primitive of the same meaning, the one `f32.sqrt` & co. denote
    /// in a module-free program, so both lower to the same IR operation.
    /// `__prim_to_T` on an `S` is the conversion `T.S`; `__prim_F` on a `T`
    /// (`sqrt`, `abs`, `max`, `isnan`, …) is `T.F`.
    fn prelude_intrinsic(
        &self,
        primitive: &str,
        name: &'ast ast::QualName,
    ) -> ElabResult<Head<'ast>> {
        let span = name.span;
        let instance = self.instance(name)?;
        let operand = match instance.types.as_slice() {
            [Type::Prim(operand)] => *operand,
            _ => {
                return Err(internal(
                    span,
                    &format!("`{}` used at a type that is not primitive", name.name),
                ))
            }
        };
        let reinterpret_target = primitive
            .strip_prefix("reinterpret_")
            .and_then(PrimType::from_name);
        let (module, function, arity) = match (
            primitive.strip_prefix("to_").and_then(PrimType::from_name),
            reinterpret_target,
        ) {
            (Some(target), _) => (target, operand.name(), 1),
            // `__prim_reinterpret_T` is `F.to_bits` or `F.from_bits` for
            // the float type F among the operand and T.
            (None, Some(target)) if target.is_float() => (target, "from_bits", 1),
            (None, Some(_)) => (operand, "to_bits", 1),
            (None, None) => {
                let arity = match primitive {
                    "min" | "max" | "atan2" | "mul_hi" => 2,
                    "fma" => 3,
                    _ => 1,
                };
                (operand, primitive, arity)
            }
        };
        if crate::typecheck::numeric_module_scheme(module.name(), function).is_none() {
            return Err(internal(
                span,
                &format!(
                    "`{}` at `{}` has no numeric module counterpart",
                    name.name,
                    operand.name()
                ),
            ));
        }
        Ok(Head::Intrinsic(Intrinsic::Numeric {
            module,
            function: function.into(),
            arity,
        }))
    }

    /// The type arguments of an intrinsic's occurrence `name`: those of its
    /// instance, except for a numeric module primitive, whose type is
    /// monomorphic (a `__prim_…` intrinsic's instance chose the primitive).
    fn intrinsic_type_args(
        &self,
        intrinsic: &Intrinsic,
        name: &'ast ast::QualName,
    ) -> ElabResult<Vec<Type>> {
        match intrinsic {
            Intrinsic::Numeric { .. } => Ok(Vec::new()),
            _ => Ok(self.instance(name)?.types),
        }
    }

    /// `intrinsic args…` with `ty` the type of the whole (applied to
    /// `args.len()` arguments): saturated, eta-expanded if too few.
    fn saturate_intrinsic(
        &mut self,
        intrinsic: Intrinsic,
        type_args: Vec<Type>,
        args: Vec<Expr>,
        ty: Type,
        span: Span,
    ) -> ElabResult<Expr> {
        let missing = intrinsic.arity().saturating_sub(args.len());
        if missing == 0 {
            return Ok(Expr {
                kind: ExprKind::Intrinsic {
                    intrinsic,
                    type_args,
                    args,
                },
                ty,
                span,
            });
        }
        // `let a1 = e1 … in \p1 … -> intrinsic a1 … p1 …`.
        let mut bindings = Vec::new();
        let mut full_args = Vec::new();
        for arg in args {
            let var = self.names.var("arg");
            full_args.push(var_expr(&var, &arg.ty, arg.span));
            bindings.push((var, arg));
        }
        let mut params = Vec::new();
        let mut result = ty.clone();
        for _ in 0..missing {
            let Type::Arrow { from, to, .. } = result else {
                return Err(internal(span, "an intrinsic with too few arrows"));
            };
            let var = self.names.var("p");
            full_args.push(var_expr(&var, &from, span));
            params.push(var_pat(&var, &from, span));
            result = (*to).clone();
        }
        let call = Expr {
            kind: ExprKind::Intrinsic {
                intrinsic,
                type_args,
                args: full_args,
            },
            ty: result,
            span,
        };
        let mut expr = lambda_expr(params, call, ty);
        for (var, value) in bindings.into_iter().rev() {
            let pat = var_pat(&var, &value.ty, value.span);
            expr = let_expr(pat, value, expr);
        }
        Ok(expr)
    }

    /// `function a1 … an` whose whole has type `ty`.
    fn elaborate_application(
        &mut self,
        scope: &Scope,
        function: &'ast ast::Expr,
        arguments: Vec<&'ast ast::Expr>,
        ty: Type,
        span: Span,
    ) -> ElabResult<Expr> {
        let args = arguments
            .iter()
            .map(|argument| self.elaborate_expr(scope, argument))
            .collect::<ElabResult<Vec<_>>>()?;
        let head = match function {
            ast::Expr::Var(name) => Some((name, self.resolve_head(scope, name)?)),
            _ => None,
        };
        if let Some((name, Head::Intrinsic(intrinsic))) = head {
            let function_type = self.expr_type(function)?;
            let type_args = self.intrinsic_type_args(&intrinsic, name)?;
            let arity = intrinsic.arity();
            if args.len() <= arity {
                return self.saturate_intrinsic(intrinsic, type_args, args, ty, span);
            }
            // More arguments than the intrinsic takes: it returns a function.
            let mut result = function_type;
            for _ in 0..arity {
                result = match result {
                    Type::Arrow { to, .. } => (*to).clone(),
                    _ => return Err(internal(span, "an intrinsic with too few arrows")),
                };
            }
            let mut args = args;
            let rest = args.split_off(arity);
            let call = Expr {
                kind: ExprKind::Intrinsic {
                    intrinsic,
                    type_args,
                    args,
                },
                ty: result,
                span,
            };
            return Ok(apply_expr(call, rest, ty, span));
        }
        let function = self.elaborate_expr(scope, function)?;
        Ok(apply_expr(function, args, ty, span))
    }

    // -- operators ------------------------------------------------------------------

    fn is_user_operator(&self, scope: &Scope, op: &ast::BinOp) -> bool {
        let name = op.name();
        matches!(op, ast::BinOp::Backtick(_))
            || (name.qualifiers.is_empty() && scope.values.contains_key(&name.name))
    }

    fn elaborate_binop(
        &mut self,
        scope: &Scope,
        op: &'ast ast::BinOp,
        lhs: &'ast ast::Expr,
        rhs: &'ast ast::Expr,
        ty: Type,
        span: Span,
    ) -> ElabResult<Expr> {
        let symbol = op.name().name.as_str();
        if !self.is_user_operator(scope, op) && op.name().qualifiers.is_empty() {
            // Pipes: the function operand's spine takes one more argument.
            let pipe = match symbol {
                "|>" => Some((rhs, lhs)),
                "<|" => Some((lhs, rhs)),
                _ => None,
            };
            if let Some((function, argument)) = pipe {
                let (head, mut arguments) = match function {
                    ast::Expr::Apply { .. } => application_spine(function),
                    _ => (function, Vec::new()),
                };
                arguments.push(argument);
                return self.elaborate_application(scope, head, arguments, ty, span);
            }
        }
        let lhs = self.elaborate_expr(scope, lhs)?;
        let rhs = self.elaborate_expr(scope, rhs)?;
        self.apply_operator(scope, op, lhs, rhs, ty, span)
    }

    /// `lhs op rhs` on elaborated operands.
    fn apply_operator(
        &mut self,
        scope: &Scope,
        op: &'ast ast::BinOp,
        lhs: Expr,
        rhs: Expr,
        ty: Type,
        span: Span,
    ) -> ElabResult<Expr> {
        let name = op.name();
        if self.is_user_operator(scope, op) || !name.qualifiers.is_empty() {
            let function =
                self.elaborate_var(scope, name, self.operator_type(name, &lhs, &rhs, &ty)?)?;
            return Ok(apply_expr(function, vec![lhs, rhs], ty, span));
        }
        match name.name.as_str() {
            "|>" => Ok(apply_expr(rhs, vec![lhs], ty, span)),
            "<|" => Ok(apply_expr(lhs, vec![rhs], ty, span)),
            "&&" => Ok(if_expr(lhs, rhs, bool_expr(false, span), span)),
            "||" => Ok(if_expr(lhs, bool_expr(true, span), rhs, span)),
            symbol @ ("==" | "!=") if !matches!(lhs.ty, Type::Prim(_)) => Ok(Expr {
                kind: ExprKind::Equal {
                    negated: symbol == "!=",
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                ty,
                span,
            }),
            symbol if BinOp::from_symbol(symbol, PrimType::Bool).is_none() => {
                Err(undefined_operator(symbol, span))
            }
            symbol => {
                let prim = prim_of(&lhs.ty, span)?;
                prim_binary(symbol, prim, lhs, rhs, ty, span)
            }
        }
    }

    /// The type of a user-defined (or qualified) operator at an occurrence.
    fn operator_type(
        &self,
        name: &'ast ast::QualName,
        lhs: &Expr,
        rhs: &Expr,
        ty: &Type,
    ) -> ElabResult<Type> {
        Ok(match self.typed.expr_type_of_name(name) {
            Some(recorded) => self.core_type(recorded, name.span)?,
            None => Type::arrow(lhs.ty.clone(), Type::arrow(rhs.ty.clone(), ty.clone())),
        })
    }

    /// An operator used as a value `(op)` of type `ty`.
    fn operator_value(
        &mut self,
        scope: &Scope,
        op: &'ast ast::BinOp,
        ty: Type,
        span: Span,
    ) -> ElabResult<Expr> {
        let name = op.name();
        if self.is_user_operator(scope, op) || !name.qualifiers.is_empty() {
            return self.elaborate_var(scope, name, ty);
        }
        let (lhs_type, rhs_type, result) = binary_parts(&ty, span)?;
        let lhs = self.names.var("x");
        let rhs = self.names.var("y");
        let body = self.apply_operator(
            scope,
            op,
            var_expr(&lhs, &lhs_type, span),
            var_expr(&rhs, &rhs_type, span),
            result,
            span,
        )?;
        Ok(lambda_expr(
            vec![
                var_pat(&lhs, &lhs_type, span),
                var_pat(&rhs, &rhs_type, span),
            ],
            body,
            ty,
        ))
    }
}

/// What the head of a variable occurrence is.
enum Head<'ast> {
    Bound(Binding),
    Projection(Binding, Vec<&'ast Name>),
    Intrinsic(Intrinsic),
    /// `i32.+`: a numeric module's operator.
    PrimOperator(Name, PrimType),
}

// -- helpers ------------------------------------------------------------------------

/// `f a b c` as `(f, [a, b, c])`.
fn application_spine(expr: &ast::Expr) -> (&ast::Expr, Vec<&ast::Expr>) {
    let mut arguments = Vec::new();
    let mut current = expr;
    while let ast::Expr::Apply {
        function, argument, ..
    } = current
    {
        arguments.push(&**argument);
        current = function;
    }
    arguments.reverse();
    (current, arguments)
}

fn arrow_count(ty: &types::Type) -> usize {
    match ty {
        types::Type::Arrow { to, .. } => 1 + arrow_count(to),
        _ => 0,
    }
}

fn prim_of(ty: &Type, span: Span) -> ElabResult<PrimType> {
    match ty {
        Type::Prim(prim) => Ok(*prim),
        _ => Err(internal(span, "an operator on a non-primitive type")),
    }
}

/// `a -> b -> c` as `(a, b, c)`.
fn binary_parts(ty: &Type, span: Span) -> ElabResult<(Type, Type, Type)> {
    if let Some((a, rest)) = ty.as_arrow() {
        if let Some((b, c)) = rest.as_arrow() {
            return Ok((a.clone(), b.clone(), c.clone()));
        }
    }
    Err(internal(span, "an operator that is not a binary function"))
}

fn prim_binary(
    symbol: &str,
    prim: PrimType,
    lhs: Expr,
    rhs: Expr,
    ty: Type,
    span: Span,
) -> ElabResult<Expr> {
    let Some(op) = BinOp::from_symbol(symbol, prim) else {
        return Err(undefined_operator(symbol, span));
    };
    Ok(Expr {
        kind: ExprKind::BinOp {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        ty,
        span,
    })
}

/// Not a built-in operator: a prelude operator (`>->`) whose declaration
/// the program given to the core lacks.
fn undefined_operator(symbol: &str, span: Span) -> Diagnostic {
    Diagnostic::error(format!(
        "the operator `{symbol}` has no definition in the program"
    ))
    .with_code("unknown-name")
    .with_primary(span, "not defined")
    .with_note(
        "the prelude's functions (`spec/prelude/toplevel.fut`) must be declared in the program given to the core",
    )
}

/// A literal (negated when `negative`) at the primitive type `ty`.
fn literal_value(
    literal: &Literal,
    negative: bool,
    ty: &Type,
    span: Span,
) -> ElabResult<PrimValue> {
    let Type::Prim(prim) = ty else {
        return Err(internal(span, "a literal of a non-primitive type"));
    };
    Ok(match *literal {
        Literal::Bool(value) => PrimValue::Bool(value),
        Literal::Int { value, .. } => {
            let value = if negative {
                -(value as i128)
            } else {
                value as i128
            };
            int_value(value, *prim, span)?
        }
        Literal::Float { bits, .. } => {
            let value = f64::from_bits(bits);
            let value = if negative { -value } else { value };
            match *prim {
                PrimType::F32 => PrimValue::F32(value as f32),
                PrimType::F64 => PrimValue::F64(value),
                _ => return Err(internal(span, "a decimal literal of a non-float type")),
            }
        }
    })
}

/// An integer literal at `prim` (wrapping, as the checker does not check
/// literal ranges).
fn int_value(value: i128, prim: PrimType, span: Span) -> ElabResult<PrimValue> {
    Ok(match prim {
        PrimType::I8 => PrimValue::I8(value as i8),
        PrimType::I16 => PrimValue::I16(value as i16),
        PrimType::I32 => PrimValue::I32(value as i32),
        PrimType::I64 => PrimValue::I64(value as i64),
        PrimType::U8 => PrimValue::U8(value as u8),
        PrimType::U16 => PrimValue::U16(value as u16),
        PrimType::U32 => PrimValue::U32(value as u32),
        PrimType::U64 => PrimValue::U64(value as u64),
        PrimType::F32 => PrimValue::F32(value as f32),
        PrimType::F64 => PrimValue::F64(value as f64),
        PrimType::Bool => return Err(internal(span, "an integer literal of type bool")),
    })
}

fn var_expr(name: &VarName, ty: &Type, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Var {
            name: name.clone(),
            instance: Instance::default(),
        },
        ty: ty.clone(),
        span,
    }
}

fn var_pat(name: &VarName, ty: &Type, span: Span) -> Pat {
    Pat {
        kind: PatKind::Var(name.clone()),
        ty: ty.clone(),
        span,
    }
}

fn lambda_expr(params: Vec<Pat>, body: Expr, ty: Type) -> Expr {
    let span = body.span;
    Expr {
        kind: ExprKind::Lambda {
            params,
            body: Box::new(body),
        },
        ty,
        span,
    }
}

fn let_expr(pat: Pat, value: Expr, body: Expr) -> Expr {
    let span = value.span;
    let ty = body.ty.clone();
    Expr {
        kind: ExprKind::Let {
            sizes: Vec::new(),
            pat,
            value: Box::new(value),
            body: Box::new(body),
        },
        ty,
        span,
    }
}

fn apply_expr(function: Expr, args: Vec<Expr>, ty: Type, span: Span) -> Expr {
    if args.is_empty() {
        return function;
    }
    Expr {
        kind: ExprKind::Apply {
            function: Box::new(function),
            args,
        },
        ty,
        span,
    }
}

fn if_expr(condition: Expr, then_branch: Expr, else_branch: Expr, span: Span) -> Expr {
    let ty = then_branch.ty.clone();
    Expr {
        kind: ExprKind::If {
            condition: Box::new(condition),
            then_branch: Box::new(then_branch),
            else_branch: Box::new(else_branch),
        },
        ty,
        span,
    }
}

fn bool_expr(value: bool, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Literal(PrimValue::Bool(value)),
        ty: Type::BOOL,
        span,
    }
}

fn record_expr(fields: Vec<(FieldName, Expr)>, span: Span) -> Expr {
    let ty = Type::Record(Rc::new(
        fields
            .iter()
            .map(|(field, value)| (field.clone(), value.ty.clone()))
            .collect(),
    ));
    Expr {
        kind: ExprKind::Record(fields),
        ty,
        span,
    }
}

/// `record.field`, typed from the record's type.
fn project(record: Expr, field: FieldName, span: Span) -> ElabResult<Expr> {
    let ty = match &record.ty {
        Type::Record(fields) => match fields.get(&field) {
            Some(ty) => ty.clone(),
            None => return Err(internal(span, &format!("no field `{}`", field.0))),
        },
        _ => return Err(internal(span, "a projection from a non-record")),
    };
    Ok(Expr {
        kind: ExprKind::Project {
            record: Box::new(record),
            field,
        },
        ty,
        span,
    })
}

/// An index of any integer type (Futhark accepts them all) as the `i64` the
/// core indexes with: `i64.i32 i`, `i64.u8 i` (zero-extended), or `i` itself.
fn index_as_i64(index: Expr) -> Expr {
    // A literal index (`xs[0]`, whose type defaults to `i32`) is the `i64`
    // literal of its value.
    let literal_value = match index.kind {
        ExprKind::Literal(value) => match value {
            PrimValue::I8(x) => Some(i64::from(x)),
            PrimValue::I16(x) => Some(i64::from(x)),
            PrimValue::I32(x) => Some(i64::from(x)),
            PrimValue::U8(x) => Some(i64::from(x)),
            PrimValue::U16(x) => Some(i64::from(x)),
            PrimValue::U32(x) => Some(i64::from(x)),
            _ => None,
        },
        _ => None,
    };
    if let Some(value) = literal_value {
        return Expr {
            kind: ExprKind::Literal(PrimValue::I64(value)),
            ty: Type::Prim(PrimType::I64),
            span: index.span,
        };
    }
    match index.ty {
        Type::Prim(t) if t != PrimType::I64 && t.is_integer() => {
            let span = index.span;
            Expr {
                kind: ExprKind::Intrinsic {
                    intrinsic: Intrinsic::Numeric {
                        module: PrimType::I64,
                        function: t.name().into(),
                        arity: 1,
                    },
                    type_args: Vec::new(),
                    args: vec![index],
                },
                ty: Type::Prim(PrimType::I64),
                span,
            }
        }
        _ => index,
    }
}
