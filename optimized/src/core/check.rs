//! The core type checker: re-checks every invariant of the core (module
//! documentation of [`super`]) after a pass — elaboration, monomorphisation —
//! and names the pass in its diagnostic. It infers nothing: each node's
//! type is compared with what its parts say, modulo sizes (sizes are run-time
//! values, checked where the module documentation says).

use std::collections::{HashMap, HashSet};

use spec::diagnostic::Diagnostic;
use spec::source::Span;

use super::{
    prim_type_of, DimIndex, Expr, ExprKind, FieldName, Function, Instance, Intrinsic, LoopForm,
    Pat, PatKind, PrimType, Program, Size, Type, TypeSubstitution, TypeVar, UnOp, VarName,
};
use crate::types;

/// What the checked program must satisfy beyond the core's invariants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Right after elaboration: polymorphism allowed.
    Elaborated,
    /// After monomorphisation: no type parameter, no instance anywhere.
    Monomorphic,
}

/// Checks `program`; `pass` names the pass that produced it in diagnostics.
pub fn check_program(program: &Program, pass: &str, stage: Stage) -> Result<(), Diagnostic> {
    let mut checker = CoreChecker {
        pass,
        stage,
        bound: HashSet::new(),
        type_params_in_scope: HashSet::new(),
        functions: HashMap::new(),
        builtin_schemes: HashMap::new(),
    };
    let mut scope = Scope::new();
    for definition in &program.definitions {
        let function = &definition.function;
        if definition.entry {
            if !function.type_params.is_empty() {
                return Err(checker.error(function.span, "an entry point is polymorphic"));
            }
            for param in &function.params {
                if param.ty.contains_function() {
                    return Err(checker.error(param.span, "an entry point takes a function"));
                }
            }
            if function.result.contains_function() {
                return Err(checker.error(function.span, "an entry point returns a function"));
            }
        }
        checker.check_function(&scope, function)?;
        scope.insert(function.name.id, function.ty());
    }
    Ok(())
}

struct CoreChecker<'p> {
    pass: &'p str,
    stage: Stage,
    /// Every binder seen so far (uniqueness).
    bound: HashSet<u32>,
    type_params_in_scope: HashSet<u32>,
    /// Polymorphic functions by name id: their type and size parameters.
    functions: HashMap<u32, (Vec<TypeVar>, Vec<VarName>)>,
    builtin_schemes: HashMap<String, Option<types::Scheme>>,
}

/// The variables in scope and their types (persistent: extending it for a
/// body is O(log n), so long `let` chains check in near-linear time).
type Scope = imbl::HashMap<u32, Type>;
type CheckResult = Result<(), Diagnostic>;

/// Whether two types are equal modulo sizes.
pub fn same_type(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Prim(x), Type::Prim(y)) => x == y,
        (Type::Param(x), Type::Param(y)) => x.id == y.id,
        (Type::Array { element: x, .. }, Type::Array { element: y, .. }) => same_type(x, y),
        (Type::Record(x), Type::Record(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((fx, tx), (fy, ty))| fx == fy && same_type(tx, ty))
        }
        (Type::Sum(x), Type::Sum(y)) => {
            x.len() == y.len()
                && x.iter().zip(y.iter()).all(|((cx, px), (cy, py))| {
                    cx == cy
                        && px.len() == py.len()
                        && px.iter().zip(py).all(|(a, b)| same_type(a, b))
                })
        }
        (
            Type::Arrow {
                from: fx, to: tx, ..
            },
            Type::Arrow {
                from: fy, to: ty, ..
            },
        ) => same_type(fx, fy) && same_type(tx, ty),
        _ => false,
    }
}

impl CoreChecker<'_> {
    fn error(&self, span: Span, what: &str) -> Diagnostic {
        Diagnostic::error(format!(
            "the core after {} is ill-formed: {what}",
            self.pass
        ))
        .with_code("core-check")
        .with_primary(span, "here")
    }

    fn expect(&self, span: Span, what: &str, expected: &Type, found: &Type) -> CheckResult {
        if same_type(expected, found) {
            Ok(())
        } else {
            Err(self.error(
                span,
                &format!(
                    "{what}: expected `{}`, found `{}`",
                    super::printer::print_type(expected),
                    super::printer::print_type(found)
                ),
            ))
        }
    }

    fn bind(&mut self, name: &VarName, span: Span) -> CheckResult {
        if self.bound.insert(name.id) {
            Ok(())
        } else {
            Err(self.error(
                span,
                &format!("`{}` is bound twice", super::printer::var(name)),
            ))
        }
    }

    /// Checks a type at a node where `scope` is in scope: its type
    /// parameters are bound by an enclosing function (none after mono), its
    /// sizes name `i64` variables in scope (or an enclosing arrow's
    /// parameter), no array holds functions.
    fn check_type(&self, scope: &Scope, ty: &Type, span: Span) -> CheckResult {
        self.check_type_under(scope, ty, span, &mut Vec::new())
    }

    fn check_size(&self, scope: &Scope, size: &Size, span: Span, arrows: &[u32]) -> CheckResult {
        let Size::Var(name) = size else {
            return Ok(());
        };
        if arrows.contains(&name.id) {
            return Ok(());
        }
        match scope.get(&name.id) {
            Some(Type::Prim(PrimType::I64)) => Ok(()),
            Some(_) => Err(self.error(
                span,
                &format!(
                    "the size `{}` is not an `i64` variable",
                    super::printer::var(name)
                ),
            )),
            None => Err(self.error(
                span,
                &format!("the size `{}` is not in scope", super::printer::var(name)),
            )),
        }
    }

    fn check_type_under(
        &self,
        scope: &Scope,
        ty: &Type,
        span: Span,
        arrows: &mut Vec<u32>,
    ) -> CheckResult {
        match ty {
            Type::Prim(_) => Ok(()),
            Type::Param(param) => {
                if self.stage == Stage::Monomorphic {
                    return Err(self.error(
                        span,
                        &format!(
                            "type parameter `{}_{}` after monomorphisation",
                            param.base, param.id
                        ),
                    ));
                }
                if self.type_params_in_scope.contains(&param.id) {
                    Ok(())
                } else {
                    Err(self.error(
                        span,
                        &format!(
                            "type parameter `{}_{}` is not in scope",
                            param.base, param.id
                        ),
                    ))
                }
            }
            Type::Array { size, element } => {
                if element.contains_function() {
                    return Err(self.error(span, "an array of functions"));
                }
                self.check_size(scope, size, span, arrows)?;
                self.check_type_under(scope, element, span, arrows)
            }
            Type::Record(fields) => fields
                .values()
                .try_for_each(|ty| self.check_type_under(scope, ty, span, arrows)),
            Type::Sum(constructors) => constructors
                .values()
                .flatten()
                .try_for_each(|ty| self.check_type_under(scope, ty, span, arrows)),
            Type::Arrow { param, from, to } => {
                self.check_type_under(scope, from, span, arrows)?;
                if let Some(param) = param {
                    arrows.push(param.id);
                }
                let result = self.check_type_under(scope, to, span, arrows);
                if param.is_some() {
                    arrows.pop();
                }
                result
            }
        }
    }

    fn check_function(&mut self, scope: &Scope, function: &Function) -> CheckResult {
        self.bind(&function.name, function.span)?;
        if self.stage == Stage::Monomorphic && !function.type_params.is_empty() {
            return Err(self.error(
                function.span,
                "a polymorphic function after monomorphisation",
            ));
        }
        let mut added_params = Vec::new();
        for param in &function.type_params {
            if !self.bound.insert(param.id) {
                return Err(self.error(function.span, "a type parameter is bound twice"));
            }
            if self.type_params_in_scope.insert(param.id) {
                added_params.push(param.id);
            }
        }
        let mut inner = scope.clone();
        for size in &function.size_params {
            self.bind(size, function.span)?;
            inner.insert(size.id, Type::I64);
        }
        for param in &function.params {
            self.check_pat(&mut inner, param)?;
        }
        self.check_type(&inner, &function.result, function.span)?;
        self.check_expr(&inner, &function.body)?;
        self.expect(
            function.body.span,
            &format!("the body of `{}`", super::printer::var(&function.name)),
            &function.result,
            &function.body.ty,
        )?;
        for id in added_params {
            self.type_params_in_scope.remove(&id);
        }
        if !function.type_params.is_empty() || !function.size_params.is_empty() {
            self.functions.insert(
                function.name.id,
                (function.type_params.clone(), function.size_params.clone()),
            );
        }
        Ok(())
    }

    fn check_pat(&mut self, scope: &mut Scope, pat: &Pat) -> CheckResult {
        self.check_type(scope, &pat.ty, pat.span)?;
        match &pat.kind {
            PatKind::Var(name) => {
                self.bind(name, pat.span)?;
                scope.insert(name.id, pat.ty.clone());
                Ok(())
            }
            PatKind::Wildcard => Ok(()),
            PatKind::Record(fields) => {
                let Type::Record(types) = &pat.ty else {
                    return Err(self.error(pat.span, "a record pattern of a non-record type"));
                };
                if types.len() != fields.len() {
                    return Err(self.error(pat.span, "a record pattern without every field"));
                }
                for (field, inner) in fields {
                    let Some(ty) = types.get(field) else {
                        return Err(self.error(pat.span, &format!("no field `{}`", field.0)));
                    };
                    self.expect(inner.span, "a field pattern", ty, &inner.ty)?;
                    self.check_pat(scope, inner)?;
                }
                Ok(())
            }
            PatKind::Literal(value) => self.expect(
                pat.span,
                "a literal pattern",
                &Type::Prim(prim_type_of(*value)),
                &pat.ty,
            ),
            PatKind::Constructor { name, payload } => {
                let Type::Sum(constructors) = &pat.ty else {
                    return Err(self.error(pat.span, "a constructor pattern of a non-sum type"));
                };
                let Some(types) = constructors.get(name) else {
                    return Err(self.error(pat.span, &format!("no constructor `#{name}`")));
                };
                if types.len() != payload.len() {
                    return Err(self.error(pat.span, "a constructor pattern of the wrong arity"));
                }
                for (ty, inner) in types.iter().zip(payload) {
                    self.expect(inner.span, "a constructor payload pattern", ty, &inner.ty)?;
                    self.check_pat(scope, inner)?;
                }
                Ok(())
            }
        }
    }

    fn check_exprs(&mut self, scope: &Scope, exprs: &[Expr]) -> CheckResult {
        exprs
            .iter()
            .try_for_each(|expr| self.check_expr(scope, expr))
    }

    fn check_expr(&mut self, scope: &Scope, expr: &Expr) -> CheckResult {
        spec::recursion::with_stack(|| self.check_expr_inner(scope, expr))
    }

    fn check_expr_inner(&mut self, scope: &Scope, expr: &Expr) -> CheckResult {
        let span = expr.span;
        let ty = &expr.ty;
        self.check_type(scope, ty, span)?;
        match &expr.kind {
            ExprKind::Literal(value) => {
                self.expect(span, "a literal", &Type::Prim(prim_type_of(*value)), ty)
            }
            ExprKind::Var { name, instance } => self.check_var(scope, name, instance, ty, span),
            ExprKind::Intrinsic {
                intrinsic,
                type_args,
                args,
            } => {
                self.check_exprs(scope, args)?;
                for arg in type_args {
                    self.check_type(scope, arg, span)?;
                }
                self.check_intrinsic(intrinsic, type_args, args, ty, span)
            }
            ExprKind::BinOp { op, lhs, rhs } => {
                self.check_expr(scope, lhs)?;
                self.check_expr(scope, rhs)?;
                if !op.is_well_typed() {
                    return Err(self.error(
                        span,
                        &format!("`{}` on `{}`", op.symbol(), op.operand().name()),
                    ));
                }
                let operand = Type::Prim(op.operand());
                self.expect(lhs.span, "the left operand", &operand, &lhs.ty)?;
                self.expect(rhs.span, "the right operand", &operand, &rhs.ty)?;
                self.expect(span, "the operator's result", &Type::Prim(op.result()), ty)
            }
            ExprKind::UnOp { op, operand } => {
                self.check_expr(scope, operand)?;
                let prim = op.operand();
                let allowed = match op {
                    UnOp::Neg(_) => prim != PrimType::Bool,
                    UnOp::Not(_) => !prim.is_float(),
                };
                if !allowed {
                    return Err(self.error(span, "a unary operator on a wrong type"));
                }
                self.expect(operand.span, "the operand", &Type::Prim(prim), &operand.ty)?;
                self.expect(span, "the result", &Type::Prim(prim), ty)
            }
            ExprKind::Equal { lhs, rhs, .. } => {
                self.check_expr(scope, lhs)?;
                self.check_expr(scope, rhs)?;
                if lhs.ty.contains_function() {
                    return Err(self.error(span, "`==` on functions"));
                }
                self.expect(rhs.span, "the right operand of `==`", &lhs.ty, &rhs.ty)?;
                self.expect(span, "the result of `==`", &Type::BOOL, ty)
            }
            ExprKind::Record(fields) => {
                let mut types = std::collections::BTreeMap::new();
                for (field, value) in fields {
                    self.check_expr(scope, value)?;
                    if types.insert(field.clone(), value.ty.clone()).is_some() {
                        return Err(self.error(span, "a field twice in a record"));
                    }
                }
                self.expect(span, "a record", &Type::Record(types.into()), ty)
            }
            ExprKind::Project { record, field } => {
                self.check_expr(scope, record)?;
                let field_type = self.field_type(&record.ty, field, span)?;
                self.expect(span, "a projection", &field_type, ty)
            }
            ExprKind::RecordUpdate {
                target,
                path,
                value,
            } => {
                self.check_expr(scope, target)?;
                self.check_expr(scope, value)?;
                let updated = self.replace_field(&target.ty, path, &value.ty, span)?;
                self.expect(span, "a record update", &updated, ty)
            }
            ExprKind::Constructor { name, payload } => {
                self.check_exprs(scope, payload)?;
                let Type::Sum(constructors) = ty else {
                    return Err(self.error(span, "a constructor of a non-sum type"));
                };
                let Some(types) = constructors.get(name) else {
                    return Err(self.error(span, &format!("no constructor `#{name}`")));
                };
                if types.len() != payload.len() {
                    return Err(self.error(span, "a constructor of the wrong arity"));
                }
                for (ty, value) in types.iter().zip(payload) {
                    self.expect(value.span, "a constructor payload", ty, &value.ty)?;
                }
                Ok(())
            }
            ExprKind::ArrayLit(elements) => {
                self.check_exprs(scope, elements)?;
                let Some((_, element)) = ty.as_array() else {
                    return Err(self.error(span, "an array literal of a non-array type"));
                };
                for value in elements {
                    self.expect(value.span, "an array element", element, &value.ty)?;
                }
                Ok(())
            }
            ExprKind::Range {
                start, step, end, ..
            } => {
                self.check_expr(scope, start)?;
                self.check_expr(scope, end)?;
                if !matches!(start.ty, Type::Prim(prim) if prim.is_integer()) {
                    return Err(self.error(span, "a range of non-integers"));
                }
                if let Some(step) = step {
                    self.check_expr(scope, step)?;
                    self.expect(step.span, "a range's step", &start.ty, &step.ty)?;
                }
                self.expect(end.span, "a range's end", &start.ty, &end.ty)?;
                self.expect(
                    span,
                    "a range",
                    &Type::array(Size::Unknown, start.ty.clone()),
                    ty,
                )
            }
            ExprKind::Index { array, indices } => {
                self.check_expr(scope, array)?;
                let result = self.check_indices(scope, &array.ty, indices, span)?;
                self.expect(span, "an indexing", &result, ty)
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                self.check_expr(scope, target)?;
                self.check_expr(scope, value)?;
                let element = self.check_indices(scope, &target.ty, indices, span)?;
                self.expect(
                    value.span,
                    "the new value of an update",
                    &element,
                    &value.ty,
                )?;
                self.expect(span, "an update", &target.ty, ty)
            }
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                self.check_expr(scope, value)?;
                let mut inner = scope.clone();
                for size in sizes {
                    self.bind(size, span)?;
                    inner.insert(size.id, Type::I64);
                }
                self.check_pat(&mut inner, pat)?;
                self.expect(pat.span, "a `let` pattern", &value.ty, &pat.ty)?;
                self.check_expr(&inner, body)?;
                self.expect(span, "a `let` body", &body.ty, ty)
            }
            ExprKind::LetFun { function, body } => {
                self.check_function(scope, function)?;
                let mut inner = scope.clone();
                inner.insert(function.name.id, function.ty());
                self.check_expr(&inner, body)?;
                self.expect(span, "a `let` body", &body.ty, ty)
            }
            ExprKind::Lambda { params, body } => {
                let mut inner = scope.clone();
                for param in params {
                    self.check_pat(&mut inner, param)?;
                }
                self.check_expr(&inner, body)?;
                let function = params.iter().rev().fold(body.ty.clone(), |to, param| {
                    Type::arrow(param.ty.clone(), to)
                });
                self.expect(span, "a lambda", &function, ty)
            }
            ExprKind::Apply { function, args } => {
                self.check_expr(scope, function)?;
                self.check_exprs(scope, args)?;
                if args.is_empty() {
                    return Err(self.error(span, "an application to no argument"));
                }
                let mut current = &function.ty;
                for arg in args {
                    let Some((from, to)) = current.as_arrow() else {
                        return Err(self.error(arg.span, "an argument too many"));
                    };
                    self.expect(arg.span, "an argument", from, &arg.ty)?;
                    current = to;
                }
                self.expect(span, "an application's result", current, ty)
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                self.check_expr(scope, condition)?;
                self.check_expr(scope, then_branch)?;
                self.check_expr(scope, else_branch)?;
                self.expect(condition.span, "a condition", &Type::BOOL, &condition.ty)?;
                self.expect(then_branch.span, "the `then` branch", ty, &then_branch.ty)?;
                self.expect(else_branch.span, "the `else` branch", ty, &else_branch.ty)
            }
            ExprKind::Match { scrutinee, cases } => {
                self.check_expr(scope, scrutinee)?;
                if cases.is_empty() {
                    return Err(self.error(span, "a `match` without cases"));
                }
                for case in cases {
                    let mut inner = scope.clone();
                    self.check_pat(&mut inner, &case.pat)?;
                    self.expect(case.pat.span, "a case pattern", &scrutinee.ty, &case.pat.ty)?;
                    self.check_expr(&inner, &case.body)?;
                    self.expect(case.body.span, "a case body", ty, &case.body.ty)?;
                }
                Ok(())
            }
            ExprKind::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => {
                self.check_expr(scope, init)?;
                let mut inner = scope.clone();
                self.check_pat(&mut inner, pat)?;
                self.expect(init.span, "a loop's initial value", &pat.ty, &init.ty)?;
                if pat.ty.contains_function() {
                    return Err(self.error(pat.span, "a loop parameter holding a function"));
                }
                match form {
                    LoopForm::For { var, bound } => {
                        self.check_expr(scope, bound)?;
                        if !matches!(bound.ty, Type::Prim(prim) if prim.is_integer()) {
                            return Err(self.error(bound.span, "a `for` bound that is no integer"));
                        }
                        self.bind(var, bound.span)?;
                        inner.insert(var.id, bound.ty.clone());
                    }
                    LoopForm::ForIn {
                        pat: element,
                        array,
                    } => {
                        self.check_expr(scope, array)?;
                        let Some((_, element_type)) = array.ty.as_array() else {
                            return Err(self.error(array.span, "`for … in` a non-array"));
                        };
                        self.expect(
                            element.span,
                            "a `for … in` pattern",
                            element_type,
                            &element.ty,
                        )?;
                        self.check_pat(&mut inner, element)?;
                    }
                    LoopForm::While { condition } => {
                        self.check_expr(&inner, condition)?;
                        self.expect(
                            condition.span,
                            "a `while` condition",
                            &Type::BOOL,
                            &condition.ty,
                        )?;
                    }
                }
                self.check_expr(&inner, body)?;
                self.expect(body.span, "a loop body", &pat.ty, &body.ty)?;
                self.expect(span, "a loop", &pat.ty, ty)
            }
            ExprKind::Coerce(inner) => {
                self.check_expr(scope, inner)?;
                self.expect(span, "a coercion", ty, &inner.ty)
            }
        }
    }

    fn check_var(
        &mut self,
        scope: &Scope,
        name: &VarName,
        instance: &Instance,
        ty: &Type,
        span: Span,
    ) -> CheckResult {
        let Some(declared) = scope.get(&name.id) else {
            return Err(self.error(
                span,
                &format!("`{}` is not in scope", super::printer::var(name)),
            ));
        };
        if self.stage == Stage::Monomorphic && !instance.types.is_empty() {
            return Err(self.error(span, "an instantiation after monomorphisation"));
        }
        for arg in &instance.types {
            self.check_type(scope, arg, span)?;
        }
        let (type_params, size_params) = self.functions.get(&name.id).cloned().unwrap_or_default();
        if instance.types.len() != type_params.len()
            || (!instance.sizes.is_empty() && instance.sizes.len() != size_params.len())
        {
            return Err(self.error(
                span,
                &format!(
                    "`{}` is instantiated with {} type argument(s), it has {} type parameter(s)",
                    super::printer::var(name),
                    instance.types.len(),
                    type_params.len()
                ),
            ));
        }
        let mut substitution = TypeSubstitution::default();
        for (param, arg) in type_params.iter().zip(&instance.types) {
            substitution.types.insert(param.id, arg.clone());
        }
        let expected = declared.substitute(&substitution);
        self.expect(
            span,
            &format!("the occurrence of `{}`", super::printer::var(name)),
            &expected,
            ty,
        )
    }

    /// The type of an intrinsic's declaration, instantiated.
    fn intrinsic_type(
        &mut self,
        intrinsic: &Intrinsic,
        type_args: &[Type],
        span: Span,
    ) -> Result<Type, Diagnostic> {
        let key = intrinsic.name();
        let scheme = self
            .builtin_schemes
            .entry(key.clone())
            .or_insert_with(|| match intrinsic {
                Intrinsic::Numeric {
                    module, function, ..
                } => crate::typecheck::numeric_module_scheme(module.name(), function),
                _ => crate::typecheck::builtin_scheme(&key),
            })
            .clone();
        let Some(scheme) = scheme else {
            return Err(self.error(span, &format!("unknown intrinsic `{key}`")));
        };
        if scheme.type_params.len() != type_args.len() {
            return Err(self.error(
                span,
                &format!(
                    "`{key}` takes {} type argument(s), given {}",
                    scheme.type_params.len(),
                    type_args.len()
                ),
            ));
        }
        let mut mapping = HashMap::new();
        for ((param, _), arg) in scheme.type_params.iter().zip(type_args) {
            mapping.insert(param.id, arg.clone());
        }
        Ok(scheme_type(&scheme.ty, &mapping))
    }

    fn check_intrinsic(
        &mut self,
        intrinsic: &Intrinsic,
        type_args: &[Type],
        args: &[Expr],
        ty: &Type,
        span: Span,
    ) -> CheckResult {
        if args.len() != intrinsic.arity() {
            return Err(self.error(
                span,
                &format!(
                    "`{}` applied to {} argument(s), it takes {}",
                    intrinsic.name(),
                    args.len(),
                    intrinsic.arity()
                ),
            ));
        }
        let declared = self.intrinsic_type(intrinsic, type_args, span)?;
        let mut current = &declared;
        for arg in args {
            let Some((from, to)) = current.as_arrow() else {
                return Err(self.error(arg.span, "an intrinsic's argument too many"));
            };
            self.expect(
                arg.span,
                &format!("an argument of `{}`", intrinsic.name()),
                from,
                &arg.ty,
            )?;
            current = to;
        }
        self.expect(
            span,
            &format!("the result of `{}`", intrinsic.name()),
            current,
            ty,
        )
    }

    fn field_type(&self, record: &Type, field: &FieldName, span: Span) -> Result<Type, Diagnostic> {
        match record {
            Type::Record(fields) => match fields.get(field) {
                Some(ty) => Ok(ty.clone()),
                None => Err(self.error(span, &format!("no field `{}`", field.0))),
            },
            _ => Err(self.error(span, "a projection from a non-record")),
        }
    }

    fn replace_field(
        &self,
        record: &Type,
        path: &[FieldName],
        value: &Type,
        span: Span,
    ) -> Result<Type, Diagnostic> {
        let Some((first, rest)) = path.split_first() else {
            return Ok(value.clone());
        };
        let Type::Record(fields) = record else {
            return Err(self.error(span, "a record update of a non-record"));
        };
        let Some(current) = fields.get(first) else {
            return Err(self.error(span, &format!("no field `{}`", first.0)));
        };
        let replaced = self.replace_field(current, rest, value, span)?;
        let mut updated = (**fields).clone();
        updated.insert(first.clone(), replaced);
        Ok(Type::Record(updated.into()))
    }

    /// Checks indices into a value of type `array`; the result's type.
    fn check_indices(
        &mut self,
        scope: &Scope,
        array: &Type,
        indices: &[DimIndex],
        span: Span,
    ) -> Result<Type, Diagnostic> {
        let Some((first, rest)) = indices.split_first() else {
            return Ok(array.clone());
        };
        let Some((_, element)) = array.as_array() else {
            return Err(self.error(span, "indexing a non-array"));
        };
        let element = element.clone();
        match first {
            DimIndex::Index(index) => {
                self.check_expr(scope, index)?;
                self.expect(index.span, "an index", &Type::I64, &index.ty)?;
                self.check_indices(scope, &element, rest, span)
            }
            DimIndex::Slice { start, end, stride } => {
                for bound in [start, end, stride].into_iter().flatten() {
                    self.check_expr(scope, bound)?;
                    self.expect(bound.span, "a slice bound", &Type::I64, &bound.ty)?;
                }
                let inner = self.check_indices(scope, &element, rest, span)?;
                Ok(Type::array(Size::Unknown, inner))
            }
        }
    }
}

/// A built-in scheme's type as a core type, its parameters replaced by
/// `mapping` and its sizes forgotten (they are not compared).
fn scheme_type(ty: &types::Type, mapping: &HashMap<u32, Type>) -> Type {
    match ty {
        types::Type::Prim(prim) => Type::Prim(*prim),
        types::Type::Param { name, .. } => {
            mapping.get(&name.id).cloned().unwrap_or_else(Type::unit)
        }
        types::Type::Array { element, .. } => {
            Type::array(Size::Unknown, scheme_type(element, mapping))
        }
        types::Type::Record(fields) => Type::Record(
            fields
                .iter()
                .map(|(field, ty)| (field.clone(), scheme_type(ty, mapping)))
                .collect::<std::collections::BTreeMap<_, _>>()
                .into(),
        ),
        types::Type::Sum(constructors) => Type::Sum(
            constructors
                .iter()
                .map(|(name, payload)| {
                    (
                        name.clone(),
                        payload.iter().map(|ty| scheme_type(ty, mapping)).collect(),
                    )
                })
                .collect::<std::collections::BTreeMap<_, _>>()
                .into(),
        ),
        types::Type::Arrow { from, to, .. } => {
            Type::arrow(scheme_type(from, mapping), scheme_type(to, mapping))
        }
        types::Type::Var(_) | types::Type::Abstract { .. } | types::Type::Error => Type::unit(),
    }
}
