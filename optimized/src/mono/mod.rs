//! Monomorphisation of the typed core (issue 5, item 3; TFP'18 §3 assumes
//! its input monomorphic): every polymorphic function, top-level or local,
//! is copied once per distinct tuple of type arguments it is used at,
//! starting from the entry points; what is not reached is dropped.
//!
//! **The key** of an instance is the function's (unique) name and its type
//! arguments with every size erased ([`Type::without_sizes`]): instances that
//! differ only in sizes are one instance, since sizes are values at run time
//! (size arguments stay on the occurrence, [`Instance::sizes`], for the
//! function's size parameters).
//!
//! Every copy renames all its binders afresh (the core's unique-binder
//! invariant), so a function used at two types becomes two functions with
//! disjoint names. The output has no type parameter and no instantiation
//! left; [`crate::core::check`] verifies it (`Stage::Monomorphic`).
//!
//! Roots: the entry points (`entry`, `def main`); a program without any
//! keeps every monomorphic top-level definition.

use std::collections::HashMap;
use std::rc::Rc;

use crate::core::{
    Case, DimIndex, Expr, ExprKind, Function, Instance, LoopForm, NameSource, Pat, PatKind,
    Program, Size, Type, VarName,
};

/// [`monomorphise`], then the core checker (`Stage::Monomorphic`, pass
/// `monomorphisation`): what the next pass (defunctionalisation) takes.
pub fn monomorphise_checked(program: &Program) -> Result<Program, spec::diagnostic::Diagnostic> {
    let mono = monomorphise(program);
    crate::core::check::check_program(
        &mono,
        "monomorphisation",
        crate::core::check::Stage::Monomorphic,
    )?;
    Ok(mono)
}

/// The monomorphic program: one definition per reached instance, in the
/// order of the original definitions.
pub fn monomorphise(program: &Program) -> Program {
    let mut mono = Mono {
        names: NameSource::starting_at(program.next_id),
        types: HashMap::new(),
        rename: HashMap::new(),
        locals: HashMap::new(),
        toplevel: HashMap::new(),
        instances: HashMap::new(),
        worklist: Vec::new(),
    };
    for (index, definition) in program.definitions.iter().enumerate() {
        mono.toplevel
            .insert(definition.function.name.id, (index, &definition.function));
    }
    let has_entries = program.definitions.iter().any(|d| d.entry);
    for definition in &program.definitions {
        // Monomorphic constants are roots too: every entry point evaluates
        // them all first (`lower`), as the reference builds Σ from every
        // declaration, so an unused constant's run-time error is reported.
        let constant = definition.function.type_params.is_empty()
            && definition.function.params.is_empty()
            && definition.function.size_params.is_empty();
        let root = if has_entries {
            definition.entry || constant
        } else {
            definition.function.type_params.is_empty()
        };
        if root {
            mono.toplevel_instance(&definition.function.name, Vec::new());
        }
    }
    let mut generated: Vec<(usize, crate::core::Definition)> = Vec::new();
    while let Some((name, id, args)) = mono.worklist.pop() {
        let (index, function) = mono.toplevel[&id];
        mono.types.clear();
        mono.rename.clear();
        for (param, arg) in function.type_params.iter().zip(&args) {
            mono.types.insert(param.id, arg.clone());
        }
        let function = mono.function(function, name);
        generated.push((
            index,
            crate::core::Definition {
                entry: program.definitions[index].entry,
                function,
            },
        ));
    }
    generated.sort_by_key(|(index, definition)| (*index, definition.function.name.id));
    Program {
        definitions: generated
            .into_iter()
            .map(|(_, definition)| definition)
            .collect(),
        next_id: mono.names.next_id(),
    }
}

struct Mono<'p> {
    names: NameSource,
    /// Type parameters (of the copies being made) ↦ their arguments.
    types: HashMap<u32, Type>,
    /// Binders of the original ↦ their names in the copy being made.
    rename: HashMap<u32, VarName>,
    /// Local polymorphic functions in scope, by original name id: the
    /// instances their uses ask for (key ↦ name).
    locals: HashMap<u32, Vec<(Vec<Type>, VarName)>>,
    /// Top-level definitions by name id: index and function.
    toplevel: HashMap<u32, (usize, &'p Function)>,
    /// Top-level instances made or queued: key ↦ name.
    instances: HashMap<(u32, Vec<Type>), VarName>,
    /// Instances still to make: new name, original id, type arguments.
    worklist: Vec<(VarName, u32, Vec<Type>)>,
}

impl<'p> Mono<'p> {
    /// The name of the top-level instance `name @ args` (queued if new).
    fn toplevel_instance(&mut self, name: &VarName, args: Vec<Type>) -> VarName {
        let key = (name.id, args);
        if let Some(existing) = self.instances.get(&key) {
            return existing.clone();
        }
        let fresh = if key.1.is_empty() {
            name.clone()
        } else {
            self.names.var(&name.base)
        };
        self.instances.insert(key.clone(), fresh.clone());
        self.worklist.push((fresh.clone(), key.0, key.1));
        fresh
    }

    fn ty(&self, ty: &Type) -> Type {
        match ty {
            Type::Prim(_) => ty.clone(),
            Type::Param(param) => self
                .types
                .get(&param.id)
                .cloned()
                .unwrap_or_else(|| ty.clone()),
            Type::Array { size, element } => Type::array(self.size(size), self.ty(element)),
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(field, ty)| (field.clone(), self.ty(ty)))
                    .collect(),
            )),
            Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        (name.clone(), payload.iter().map(|ty| self.ty(ty)).collect())
                    })
                    .collect(),
            )),
            Type::Arrow { param, from, to } => Type::Arrow {
                param: param.as_ref().map(|param| self.var(param)),
                from: Rc::new(self.ty(from)),
                to: Rc::new(self.ty(to)),
            },
        }
    }

    fn size(&self, size: &Size) -> Size {
        match size {
            Size::Var(name) => Size::Var(self.var(name)),
            _ => size.clone(),
        }
    }

    /// A variable's name in the copy (unchanged if bound outside it).
    fn var(&self, name: &VarName) -> VarName {
        self.rename
            .get(&name.id)
            .cloned()
            .unwrap_or_else(|| name.clone())
    }

    /// A fresh name for the binder `name` in the copy being made.
    fn binder(&mut self, name: &VarName) -> VarName {
        let fresh = self.names.var(&name.base);
        self.rename.insert(name.id, fresh.clone());
        fresh
    }

    /// A copy of `function` (its type parameters already in `types`) named
    /// `name`, with no type parameters.
    fn function(&mut self, function: &'p Function, name: VarName) -> Function {
        let size_params = function
            .size_params
            .iter()
            .map(|size| self.binder(size))
            .collect();
        let params = function.params.iter().map(|pat| self.pat(pat)).collect();
        Function {
            name,
            type_params: Vec::new(),
            size_params,
            params,
            result: self.ty(&function.result),
            body: self.expr(&function.body),
            span: function.span,
            uniqueness: function.uniqueness.clone(),
        }
    }

    fn pat(&mut self, pat: &Pat) -> Pat {
        let kind = match &pat.kind {
            PatKind::Var(name) => PatKind::Var(self.binder(name)),
            PatKind::Wildcard => PatKind::Wildcard,
            PatKind::Record(fields) => PatKind::Record(
                fields
                    .iter()
                    .map(|(field, pat)| (field.clone(), self.pat(pat)))
                    .collect(),
            ),
            PatKind::Literal(value) => PatKind::Literal(*value),
            PatKind::Constructor { name, payload } => PatKind::Constructor {
                name: name.clone(),
                payload: payload.iter().map(|pat| self.pat(pat)).collect(),
            },
        };
        Pat {
            kind,
            ty: self.ty(&pat.ty),
            span: pat.span,
        }
    }

    fn boxed(&mut self, expr: &'p Expr) -> Box<Expr> {
        Box::new(self.expr(expr))
    }

    fn exprs(&mut self, exprs: &'p [Expr]) -> Vec<Expr> {
        exprs.iter().map(|expr| self.expr(expr)).collect()
    }

    fn indices(&mut self, indices: &'p [DimIndex]) -> Vec<DimIndex> {
        indices
            .iter()
            .map(|index| match index {
                DimIndex::Index(expr) => DimIndex::Index(self.expr(expr)),
                DimIndex::Slice { start, end, stride } => DimIndex::Slice {
                    start: start.as_ref().map(|expr| self.expr(expr)),
                    end: end.as_ref().map(|expr| self.expr(expr)),
                    stride: stride.as_ref().map(|expr| self.expr(expr)),
                },
            })
            .collect()
    }

    fn expr(&mut self, expr: &'p Expr) -> Expr {
        spec::recursion::with_stack(|| self.expr_inner(expr))
    }

    fn expr_inner(&mut self, expr: &'p Expr) -> Expr {
        let kind = match &expr.kind {
            ExprKind::Literal(value) => ExprKind::Literal(*value),
            ExprKind::Var { name, instance } => self.occurrence(name, instance),
            ExprKind::Intrinsic {
                intrinsic,
                type_args,
                args,
            } => ExprKind::Intrinsic {
                intrinsic: intrinsic.clone(),
                type_args: type_args.iter().map(|ty| self.ty(ty)).collect(),
                args: self.exprs(args),
            },
            ExprKind::BinOp { op, lhs, rhs } => ExprKind::BinOp {
                op: *op,
                lhs: self.boxed(lhs),
                rhs: self.boxed(rhs),
            },
            ExprKind::UnOp { op, operand } => ExprKind::UnOp {
                op: *op,
                operand: self.boxed(operand),
            },
            ExprKind::Equal { negated, lhs, rhs } => ExprKind::Equal {
                negated: *negated,
                lhs: self.boxed(lhs),
                rhs: self.boxed(rhs),
            },
            ExprKind::Record(fields) => ExprKind::Record(
                fields
                    .iter()
                    .map(|(field, value)| (field.clone(), self.expr(value)))
                    .collect(),
            ),
            ExprKind::Project { record, field } => ExprKind::Project {
                record: self.boxed(record),
                field: field.clone(),
            },
            ExprKind::RecordUpdate {
                target,
                path,
                value,
            } => ExprKind::RecordUpdate {
                target: self.boxed(target),
                path: path.clone(),
                value: self.boxed(value),
            },
            ExprKind::Constructor { name, payload } => ExprKind::Constructor {
                name: name.clone(),
                payload: self.exprs(payload),
            },
            ExprKind::ArrayLit(elements) => ExprKind::ArrayLit(self.exprs(elements)),
            ExprKind::Range {
                start,
                step,
                end,
                end_kind,
            } => ExprKind::Range {
                start: self.boxed(start),
                step: step.as_ref().map(|step| self.boxed(step)),
                end: self.boxed(end),
                end_kind: *end_kind,
            },
            ExprKind::Index { array, indices } => ExprKind::Index {
                array: self.boxed(array),
                indices: self.indices(indices),
            },
            ExprKind::Update {
                target,
                indices,
                value,
            } => ExprKind::Update {
                target: self.boxed(target),
                indices: self.indices(indices),
                value: self.boxed(value),
            },
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                let value = self.boxed(value);
                let sizes = sizes.iter().map(|size| self.binder(size)).collect();
                let pat = self.pat(pat);
                ExprKind::Let {
                    sizes,
                    pat,
                    value,
                    body: self.boxed(body),
                }
            }
            ExprKind::LetFun { function, body } if function.type_params.is_empty() => {
                let name = self.binder(&function.name);
                let function = self.function(function, name);
                ExprKind::LetFun {
                    function: Box::new(function),
                    body: self.boxed(body),
                }
            }
            ExprKind::LetFun { function, body } => return self.local_polymorphic(function, body),
            ExprKind::Lambda { params, body } => {
                let params = params.iter().map(|pat| self.pat(pat)).collect();
                ExprKind::Lambda {
                    params,
                    body: self.boxed(body),
                }
            }
            ExprKind::Apply { function, args } => ExprKind::Apply {
                function: self.boxed(function),
                args: self.exprs(args),
            },
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => ExprKind::If {
                condition: self.boxed(condition),
                then_branch: self.boxed(then_branch),
                else_branch: self.boxed(else_branch),
            },
            ExprKind::Match { scrutinee, cases } => ExprKind::Match {
                scrutinee: self.boxed(scrutinee),
                cases: cases
                    .iter()
                    .map(|case| {
                        let pat = self.pat(&case.pat);
                        Case {
                            pat,
                            body: self.expr(&case.body),
                        }
                    })
                    .collect(),
            },
            ExprKind::Loop {
                pat,
                declared,
                init,
                form,
                body,
            } => {
                let init = self.boxed(init);
                let pat = self.pat(pat);
                let form = match form {
                    LoopForm::For { var, bound } => {
                        let bound = self.boxed(bound);
                        LoopForm::For {
                            var: self.binder(var),
                            bound,
                        }
                    }
                    LoopForm::ForIn { pat, array } => {
                        let array = self.boxed(array);
                        LoopForm::ForIn {
                            pat: self.pat(pat),
                            array,
                        }
                    }
                    LoopForm::While { condition } => LoopForm::While {
                        condition: self.boxed(condition),
                    },
                };
                ExprKind::Loop {
                    pat,
                    declared: declared.clone(),
                    init,
                    form,
                    body: self.boxed(body),
                }
            }
            ExprKind::Coerce(inner) => ExprKind::Coerce(self.boxed(inner)),
        };
        Expr {
            kind,
            ty: self.ty(&expr.ty),
            span: expr.span,
        }
    }

    /// A variable occurrence: renamed, or the instance it asks for.
    fn occurrence(&mut self, name: &VarName, instance: &Instance) -> ExprKind {
        let sizes: Vec<Size> = instance.sizes.iter().map(|size| self.size(size)).collect();
        let args: Vec<Type> = instance
            .types
            .iter()
            .map(|ty| self.ty(ty).without_sizes())
            .collect();
        let instance = Instance {
            types: Vec::new(),
            sizes,
        };
        if let Some(local) = self.locals.get_mut(&name.id) {
            let existing = local
                .iter()
                .find(|(key, _)| *key == args)
                .map(|(_, name)| name.clone());
            let name = match existing {
                Some(existing) => existing,
                None => {
                    let fresh = self.names.var(&name.base);
                    local.push((args, fresh.clone()));
                    fresh
                }
            };
            return ExprKind::Var { name, instance };
        }
        if self.rename.contains_key(&name.id) || !self.toplevel.contains_key(&name.id) {
            return ExprKind::Var {
                name: self.var(name),
                instance,
            };
        }
        let name = self.toplevel_instance(name, args);
        ExprKind::Var { name, instance }
    }

    /// `let f 'a … in body` for a polymorphic `f`: the body first (collecting
    /// the instances of `f` it uses), then one `let` per instance around it.
    fn local_polymorphic(&mut self, function: &'p Function, body: &'p Expr) -> Expr {
        self.locals.insert(function.name.id, Vec::new());
        let mut result = self.expr(body);
        let local = self.locals.remove(&function.name.id).unwrap_or_default();
        for (args, name) in local.into_iter().rev() {
            for (param, arg) in function.type_params.iter().zip(&args) {
                self.types.insert(param.id, arg.clone());
            }
            let copy = self.function(function, name);
            let ty = result.ty.clone();
            let span = result.span;
            result = Expr {
                kind: ExprKind::LetFun {
                    function: Box::new(copy),
                    body: Box::new(result),
                },
                ty,
                span,
            };
        }
        result
    }
}
