//! The typed output of the checker ([`super::check_program_typed`]): the
//! type of every expression node, every pattern node, every variable
//! occurrence's instantiation and every function's scheme, recorded during
//! the one inference run and resolved (zonked) at the end of each top-level
//! declaration, after defaulting and generalisation.
//!
//! Tables are keyed by node identity: the address of the AST node, stable
//! while the `&'ast Program` is borrowed ([`TypedProgram`] holds that
//! borrow, so a key can never outlive its node). Nothing is recorded unless a
//! table is installed in the checker, so [`super::check_program`] is
//! unchanged.

use std::collections::HashMap;

use spec::syntax::ast::{Expr, Pat, Program, QualName, ValueBind};

use super::unify::Substitution;
use super::CheckedProgram;
use crate::types::{RigidName, Scheme, Size, Type};

/// The type and size arguments of one occurrence of a polymorphic binding,
/// in the order of its scheme's `type_params` and `size_params`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instantiation {
    pub types: Vec<Type>,
    pub sizes: Vec<Size>,
    /// The instantiated type of the occurrence.
    pub ty: Type,
}

/// What the checker records while it infers (unresolved entries are pending
/// until the end of their top-level declaration).
#[derive(Default)]
pub(crate) struct TypeTable {
    exprs: HashMap<*const Expr, Type>,
    pats: HashMap<*const Pat, Type>,
    binders: HashMap<*const Pat, RigidName>,
    instances: HashMap<*const QualName, Instantiation>,
    let_fun_schemes: HashMap<*const Expr, Scheme>,
    def_schemes: HashMap<*const ValueBind, Scheme>,
    let_sizes: HashMap<*const Expr, Vec<RigidName>>,
    pending_exprs: Vec<*const Expr>,
    pending_pats: Vec<*const Pat>,
    pending_instances: Vec<*const QualName>,
    pending_let_funs: Vec<*const Expr>,
}

impl TypeTable {
    pub(crate) fn record_expr(&mut self, expr: &Expr, ty: &Type) {
        let key = expr as *const Expr;
        self.exprs.insert(key, ty.clone());
        self.pending_exprs.push(key);
    }

    pub(crate) fn record_pat(&mut self, pat: &Pat, ty: &Type) {
        let key = pat as *const Pat;
        self.pats.insert(key, ty.clone());
        self.pending_pats.push(key);
    }

    pub(crate) fn record_binder(&mut self, pat: &Pat, rigid: &RigidName) {
        self.binders.insert(pat as *const Pat, rigid.clone());
    }

    pub(crate) fn record_instance(&mut self, name: &QualName, instance: Instantiation) {
        let key = name as *const QualName;
        self.instances.insert(key, instance);
        self.pending_instances.push(key);
    }

    pub(crate) fn record_let_fun(&mut self, expr: &Expr, scheme: &Scheme) {
        let key = expr as *const Expr;
        self.let_fun_schemes.insert(key, scheme.clone());
        self.pending_let_funs.push(key);
    }

    pub(crate) fn record_let_sizes(&mut self, expr: &Expr, sizes: Vec<RigidName>) {
        self.let_sizes.insert(expr as *const Expr, sizes);
    }

    pub(crate) fn record_def(&mut self, bind: &ValueBind, scheme: &Scheme) {
        self.def_schemes
            .insert(bind as *const ValueBind, scheme.clone());
    }

    /// Resolves every entry recorded since the last call under `subst`
    /// (called at the end of each top-level declaration, once its variables
    /// are defaulted and generalised).
    pub(crate) fn resolve_pending(&mut self, subst: &Substitution) {
        for key in std::mem::take(&mut self.pending_exprs) {
            if let Some(ty) = self.exprs.get_mut(&key) {
                *ty = subst.resolve_deep(ty);
            }
        }
        for key in std::mem::take(&mut self.pending_pats) {
            if let Some(ty) = self.pats.get_mut(&key) {
                *ty = subst.resolve_deep(ty);
            }
        }
        for key in std::mem::take(&mut self.pending_instances) {
            if let Some(instance) = self.instances.get_mut(&key) {
                for ty in &mut instance.types {
                    *ty = subst.resolve_deep(ty);
                }
                for size in &mut instance.sizes {
                    *size = subst.resolve_size(size);
                }
                instance.ty = subst.resolve_deep(&instance.ty);
            }
        }
        for key in std::mem::take(&mut self.pending_let_funs) {
            if let Some(scheme) = self.let_fun_schemes.get_mut(&key) {
                scheme.ty = subst.resolve_deep(&scheme.ty);
            }
        }
    }
}

/// A module-free program with the types the checker inferred for it.
pub struct TypedProgram<'ast> {
    pub program: &'ast Program,
    pub checked: CheckedProgram,
    table: TypeTable,
}

impl<'ast> TypedProgram<'ast> {
    pub(crate) fn new(
        program: &'ast Program,
        checked: CheckedProgram,
        table: TypeTable,
    ) -> TypedProgram<'ast> {
        TypedProgram {
            program,
            checked,
            table,
        }
    }

    /// The type of an expression node (for an application `f a b`, of the
    /// outermost `Apply` node only; for `r.f` written as a qualified name,
    /// of the whole `Var`).
    pub fn expr_type(&self, expr: &'ast Expr) -> Option<&Type> {
        self.table.exprs.get(&(expr as *const Expr))
    }

    /// The type of the value a pattern node matches.
    pub fn pat_type(&self, pat: &'ast Pat) -> Option<&Type> {
        self.table.pats.get(&(pat as *const Pat))
    }

    /// The rigid name a variable pattern binds (sizes in types refer to it).
    pub fn binder(&self, pat: &'ast Pat) -> Option<&RigidName> {
        self.table.binders.get(&(pat as *const Pat))
    }

    /// The instantiation of the polymorphic binding a name refers to (a
    /// `Var`'s name, or a user-defined operator's name in `BinOp` and
    /// sections); `None` for monomorphic variables.
    pub fn instance(&self, name: &'ast QualName) -> Option<&Instantiation> {
        self.table.instances.get(&(name as *const QualName))
    }

    /// The instantiated type of an occurrence of a polymorphic binding
    /// (see [`Self::instance`]).
    pub fn expr_type_of_name(&self, name: &'ast QualName) -> Option<&Type> {
        self.instance(name).map(|instance| &instance.ty)
    }

    /// The generalised scheme of a local `let f … = … in` (the `LetFun`
    /// node).
    pub fn let_fun_scheme(&self, expr: &'ast Expr) -> Option<&Scheme> {
        self.table.let_fun_schemes.get(&(expr as *const Expr))
    }

    /// The rigid names of `let [n] p = …`'s sizes (the `Let` node).
    pub fn let_sizes(&self, expr: &'ast Expr) -> Option<&[RigidName]> {
        self.table
            .let_sizes
            .get(&(expr as *const Expr))
            .map(Vec::as_slice)
    }

    /// The scheme of a top-level `def`/`entry`.
    pub fn def_scheme(&self, bind: &'ast ValueBind) -> Option<&Scheme> {
        self.table.def_schemes.get(&(bind as *const ValueBind))
    }
}
