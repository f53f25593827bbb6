//! Extension (proofs-notes/uniqueness.md): Futhark's uniqueness types and
//! alias analysis, the judgment `Γ; C ⊢ e ⇒ ᾱ; C'` of §3 on a type-correct,
//! module-free core program, before monomorphisation and
//! defunctionalisation (so that closures are still λs).
//!
//! Rules (§3, §4, §7a): U-Var, U-Consume, U-Let, U-Copy, U-Index, U-Update,
//! U-RecordUpdate, U-Apply, U-SelfAlias (also between the components of one
//! tuple argument), U-Lambda, U-Def (`unique-return-aliased`, and, as the
//! test programs of `tests/programs/uniqueness/` ask, `fresh-return-aliased`
//! and `return-aliases-free`), U-If, U-Match, U-Loop, U-SOAC. Not judged
//! yet (§7): `loop-aliases`, U-Spec, and a `map` whose λ consumes its
//! parameter (a SOAC's λ parameters are observed).
//!
//! One function per judgment, one arm per rule. The semantic objects of §2:
//! a variable's storage is one *atom* per array-carrying component (so that
//! the components of a tuple alias separately, §4), with its kind
//! (`param∗`, `param·`, `local`, `free`) and the depth of λs and loop bodies
//! it was bound at (an atom bound outside the innermost λ or loop body is
//! `free`); `ᾱ` is an [`AliasTree`] whose sets are closed under aliasing
//! (a variable's tree holds its atoms and everything they alias), and `C`
//! maps each consumed atom to where it was consumed. The prelude is trusted:
//! its bodies are not judged, its declared `∗`s are used at calls.

use super::syntax::{
    Expr, ExprKind, Intrinsic, Lambda, LoopForm, Name, Pat, Program, ReduceKind, Type, Uniqueness,
};
use super::typing::{bind_pattern, Scheme, TypeEnv, Typing};
use crate::derivation::fire_rule;
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The codes of §7 (shared with the optimising compiler: `spec`).
pub use spec::diagnostic::codes::uniqueness::{
    FRESH_RETURN_ALIASED, LOOP_ALIASES, NOT_CONSUMABLE, RETURN_ALIASES_FREE, SELF_ALIASING_ARG,
    UNIQUE_RETURN_ALIASED, UPDATE_ALIASES_TARGET, USE_AFTER_CONSUME,
};

/// One piece of storage of a variable (an array-carrying component).
type AtomId = usize;
/// `al`: the atoms a value may share.
type Aliases = BTreeSet<AtomId>;
/// `C`: what has been consumed, each with where.
type Consumed = BTreeMap<AtomId, Span>;

/// `k ∈ {param·, param∗, local, free}` of §2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    UniqueParam,
    ObservedParam,
    Local,
    Free,
}

#[derive(Clone, Debug)]
struct Atom {
    /// The variable, as written (messages name it).
    name: Name,
    kind: Kind,
    /// How many λs and loop bodies enclose its binding.
    depth: usize,
    /// What its value aliased when it was bound (closed under aliasing).
    aliases: Aliases,
}

/// `ᾱ`: the aliases of a value, per component (§2, §4). Tuples are records.
#[derive(Clone, Debug, PartialEq, Eq)]
enum AliasTree {
    Prim,
    Array(Aliases),
    Record(BTreeMap<Name, AliasTree>),
    Sum(Aliases),
    Function(Aliases),
}

impl AliasTree {
    /// `⌊ᾱ⌋`.
    fn all(&self) -> Aliases {
        let mut out = Aliases::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Aliases) {
        match self {
            AliasTree::Prim => {}
            AliasTree::Array(al) | AliasTree::Sum(al) | AliasTree::Function(al) => {
                out.extend(al.iter().copied())
            }
            AliasTree::Record(fields) => fields.values().for_each(|t| t.collect(out)),
        }
    }

    /// The tree with every `al` changed by `f`.
    fn map_sets(&self, f: &mut dyn FnMut(&Aliases) -> Aliases) -> AliasTree {
        match self {
            AliasTree::Prim => AliasTree::Prim,
            AliasTree::Array(al) => AliasTree::Array(f(al)),
            AliasTree::Sum(al) => AliasTree::Sum(f(al)),
            AliasTree::Function(al) => AliasTree::Function(f(al)),
            AliasTree::Record(fields) => AliasTree::Record(
                fields
                    .iter()
                    .map(|(l, t)| (l.clone(), t.map_sets(f)))
                    .collect(),
            ),
        }
    }

    /// Every `al` emptied: fresh storage.
    fn fresh(&self) -> AliasTree {
        self.map_sets(&mut |_| Aliases::new())
    }

    /// Without the atoms in `gone` (variables going out of scope: their
    /// storage stays aliased through what they aliased).
    fn without(&self, gone: &Aliases) -> AliasTree {
        self.map_sets(&mut |al| al.difference(gone).copied().collect())
    }

    /// Projection `e.ℓ` (§4).
    fn project(&self, label: &str) -> AliasTree {
        match self {
            AliasTree::Record(fields) => fields.get(label).cloned().unwrap_or(AliasTree::Prim),
            AliasTree::Prim => AliasTree::Prim,
            other => AliasTree::Array(other.all()),
        }
    }

    /// `ᾱ₁ ∪ ᾱ₂`, component-wise where the shapes agree.
    fn union(&self, other: &AliasTree) -> AliasTree {
        match (self, other) {
            (AliasTree::Prim, t) | (t, AliasTree::Prim) => t.clone(),
            (AliasTree::Record(a), AliasTree::Record(b)) if a.len() == b.len() => {
                AliasTree::Record(
                    a.iter()
                        .map(|(l, t)| {
                            let u = b.get(l).map(|s| t.union(s)).unwrap_or_else(|| t.clone());
                            (l.clone(), u)
                        })
                        .collect(),
                )
            }
            (AliasTree::Array(a), AliasTree::Array(b)) => AliasTree::Array(a | b),
            (AliasTree::Sum(a), AliasTree::Sum(b)) => AliasTree::Sum(a | b),
            (AliasTree::Function(a), AliasTree::Function(b)) => AliasTree::Function(a | b),
            (a, b) => AliasTree::Array(&a.all() | &b.all()),
        }
    }

    /// The part of the tree a uniqueness marks `∗`.
    fn unique_part(&self, uniqueness: &Uniqueness) -> Aliases {
        match (uniqueness, self) {
            (Uniqueness::Nonunique, _) => Aliases::new(),
            (Uniqueness::Unique, t) => t.all(),
            (Uniqueness::Components(_), AliasTree::Record(fields)) => fields
                .iter()
                .flat_map(|(l, t)| t.unique_part(&uniqueness.component(l)))
                .collect(),
            (Uniqueness::Components(_), t) => t.all(),
        }
    }

    /// Every array-carrying component (not closures): its aliases, and
    /// whether `uniqueness` marks it `∗`.
    fn leaves(&self, uniqueness: &Uniqueness) -> Vec<(Aliases, bool)> {
        let mut with_paths = Vec::new();
        self.leaves_with_paths(&mut Vec::new(), &mut with_paths);
        with_paths
            .into_iter()
            .map(|(path, al)| (al, uniqueness_at(uniqueness, &path).any_unique()))
            .collect()
    }

    /// Every array-carrying component (not closures) with its path.
    fn leaves_with_paths(&self, path: &mut Vec<Name>, out: &mut Vec<(Vec<Name>, Aliases)>) {
        match self {
            AliasTree::Prim | AliasTree::Function(_) => {}
            AliasTree::Array(al) | AliasTree::Sum(al) => out.push((path.clone(), al.clone())),
            AliasTree::Record(fields) => {
                for (label, tree) in fields {
                    path.push(label.clone());
                    tree.leaves_with_paths(path, out);
                    path.pop();
                }
            }
        }
    }

    /// The first atom a `∗` component (by `uniqueness`) shares with another
    /// component of the same value.
    fn unique_component_shared(&self, uniqueness: &Uniqueness) -> Option<AtomId> {
        let leaves = self.leaves(uniqueness);
        let mut shared = Aliases::new();
        for (i, (al, unique)) in leaves.iter().enumerate() {
            if !unique {
                continue;
            }
            for (j, (other, _)) in leaves.iter().enumerate() {
                if i != j {
                    shared.extend(al.intersection(other).copied());
                }
            }
        }
        shared.first().copied()
    }

    /// The tree with its `∗` components (by `uniqueness`) fresh.
    fn fresh_where_unique(&self, uniqueness: &Uniqueness) -> AliasTree {
        match (uniqueness, self) {
            (Uniqueness::Nonunique, t) => t.clone(),
            (Uniqueness::Unique, t) => t.fresh(),
            (Uniqueness::Components(_), AliasTree::Record(fields)) => AliasTree::Record(
                fields
                    .iter()
                    .map(|(l, t)| (l.clone(), t.fresh_where_unique(&uniqueness.component(l))))
                    .collect(),
            ),
            (Uniqueness::Components(_), t) => t.fresh(),
        }
    }
}

/// Whether a value of type `t` may share storage: it has an array, a
/// function or a type parameter (which may stand for an array) inside.
fn has_storage(t: &Type) -> bool {
    match t {
        Type::Prim(_) => false,
        Type::Array(_) | Type::Arrow(..) | Type::Param(..) | Type::Meta(_) => true,
        Type::Record(fields) => fields.values().any(has_storage),
        Type::Sum(cs) => cs.values().flatten().any(has_storage),
    }
}

/// The tree of a value of type `t` whose every component has aliases `al`
/// (U-Apply's conservative placement; `prim` where there is no storage).
fn tree_of_type(t: &Type, al: &Aliases) -> AliasTree {
    match t {
        Type::Prim(_) => AliasTree::Prim,
        Type::Record(fields) => AliasTree::Record(
            fields
                .iter()
                .map(|(l, t)| (l.clone(), tree_of_type(t, al)))
                .collect(),
        ),
        Type::Sum(_) if !has_storage(t) => AliasTree::Prim,
        Type::Sum(_) => AliasTree::Sum(al.clone()),
        Type::Arrow(..) => AliasTree::Function(al.clone()),
        Type::Array(_) | Type::Param(..) | Type::Meta(_) => AliasTree::Array(al.clone()),
    }
}

/// What U-Apply knows of a named function: `(u₁ τ₁) → … → (uₙ τₙ) → u τ`.
#[derive(Clone, Debug, Default)]
struct Signature {
    params: Vec<Uniqueness>,
    result: Uniqueness,
}

impl Signature {
    /// The signature of directly nested λs (a function's parameters).
    fn of_lambdas(value: &Expr) -> Option<Signature> {
        let mut signature = Signature::default();
        let mut current = value;
        while let ExprKind::Lambda(lambda) = &current.kind {
            signature.params.push(lambda.param_uniqueness.clone());
            signature.result = lambda.result_uniqueness.clone();
            current = &lambda.body;
        }
        (!signature.params.is_empty()).then_some(signature)
    }
}

/// `Γ(x)`: a variable's aliases, and its signature when it names a function.
#[derive(Clone, Debug)]
struct Binding {
    tree: AliasTree,
    signature: Option<Rc<Signature>>,
    /// The prelude's `copy` (U-Copy).
    is_prelude_copy: bool,
}

/// `Γ`: the aliases and the types (for the shapes of results) in scope.
#[derive(Clone, Default)]
struct Scope {
    aliases: imbl::OrdMap<Name, Binding>,
    types: TypeEnv,
}

type Judged<T> = Result<T, Diagnostic>;

/// The judgment's state: the atoms made so far (in binding order) and the
/// current depth of λs and loop bodies.
struct Judge {
    atoms: Vec<Atom>,
    depth: usize,
    typing: Typing,
}

/// Judges every declaration of `program` outside the files in `trusted`
/// (the prelude's).
pub fn check_program(
    program: &Program,
    trusted: &[FileId],
    or_conditionals: bool,
) -> Result<(), Diagnostic> {
    let mut typing = Typing::new();
    typing.or_conditionals = or_conditionals;
    let mut judge = Judge {
        atoms: Vec::new(),
        depth: 0,
        typing,
    };
    let mut scope = Scope::default();
    for dec in &program.decs {
        let trusted_dec = trusted.contains(&dec.span.file);
        if !trusted_dec {
            judge.definition(&scope, dec)?;
        }
        judge.bind_declaration(&mut scope, dec, trusted_dec);
    }
    Ok(())
}

impl Judge {
    // -----------------------------------------------------------------
    // Atoms and bindings

    fn new_atom(&mut self, name: &str, kind: Kind, aliases: &Aliases) -> AtomId {
        self.atoms.push(Atom {
            name: name.to_string(),
            kind,
            depth: self.depth,
            aliases: aliases.clone(),
        });
        self.atoms.len() - 1
    }

    /// Consumable (§2): `param∗`, or `local` whose own aliases are
    /// consumable, bound inside the innermost λ or loop body (its aliases
    /// are closed under aliasing, so one level is the well-founded
    /// definition).
    fn consumable(&self, atom: AtomId) -> bool {
        let a = &self.atoms[atom];
        self.consumable_itself(atom) && a.aliases.iter().all(|b| self.consumable_itself(*b))
    }

    fn consumable_itself(&self, atom: AtomId) -> bool {
        let a = &self.atoms[atom];
        matches!(a.kind, Kind::UniqueParam | Kind::Local) && a.depth == self.depth
    }

    fn name_of(&self, atom: AtomId) -> &str {
        &self.atoms[atom].name
    }

    /// `x`'s tree when bound to a value with tree `value`: each component
    /// with storage gets an atom of `x` of kind `kind` (or, for a parameter,
    /// of the kind its declared uniqueness gives).
    fn bind_tree(
        &mut self,
        name: &str,
        value: &AliasTree,
        kind: &dyn Fn(&[Name]) -> Kind,
        path: &mut Vec<Name>,
    ) -> AliasTree {
        match value {
            AliasTree::Prim => AliasTree::Prim,
            AliasTree::Function(al) => AliasTree::Function(al.clone()),
            AliasTree::Array(al) | AliasTree::Sum(al) => {
                let atom = self.new_atom(name, kind(path), al);
                let mut al = al.clone();
                al.insert(atom);
                match value {
                    AliasTree::Sum(_) => AliasTree::Sum(al),
                    _ => AliasTree::Array(al),
                }
            }
            AliasTree::Record(fields) => AliasTree::Record(
                fields
                    .iter()
                    .map(|(l, t)| {
                        path.push(l.clone());
                        let bound = self.bind_tree(name, t, kind, path);
                        path.pop();
                        (l.clone(), bound)
                    })
                    .collect(),
            ),
        }
    }

    /// Binds `name` as `local` to a value with tree `value`, of type `ty`.
    fn bind_local(
        &mut self,
        scope: &mut Scope,
        name: &Name,
        value: &AliasTree,
        ty: Option<Type>,
        signature: Option<Rc<Signature>>,
    ) -> AliasTree {
        let tree = self.bind_tree(name, value, &|_| Kind::Local, &mut Vec::new());
        self.insert(scope, name, tree.clone(), ty, signature);
        tree
    }

    fn insert(
        &mut self,
        scope: &mut Scope,
        name: &Name,
        tree: AliasTree,
        ty: Option<Type>,
        signature: Option<Rc<Signature>>,
    ) {
        scope.aliases.insert(
            name.clone(),
            Binding {
                tree,
                signature,
                is_prelude_copy: false,
            },
        );
        match ty {
            Some(t) => {
                scope.types.insert(name.clone(), Scheme::mono(t));
            }
            None => {
                scope.types.remove(name);
            }
        }
    }

    /// Binds a parameter of type `ty` with its declared uniqueness.
    fn bind_param(&mut self, scope: &mut Scope, name: &Name, ty: &Type, uniqueness: &Uniqueness) {
        let shape = tree_of_type(ty, &Aliases::new());
        let kind = |path: &[Name]| {
            let mut u = uniqueness.clone();
            for l in path {
                u = u.component(l);
            }
            match u {
                Uniqueness::Nonunique => Kind::ObservedParam,
                _ => Kind::UniqueParam,
            }
        };
        let tree = self.bind_tree(name, &shape, &kind, &mut Vec::new());
        self.insert(scope, name, tree, Some(ty.clone()), None);
    }

    /// Γ extended with a top-level declaration: a function (its signature)
    /// or a constant (`free` storage).
    fn bind_declaration(
        &mut self,
        scope: &mut Scope,
        dec: &super::syntax::ValueDec,
        trusted: bool,
    ) {
        let signature = Signature::of_lambdas(&dec.value).map(Rc::new);
        let tree = match &signature {
            Some(_) => AliasTree::Function(Aliases::new()),
            None => {
                let shape = tree_of_type(&dec.ty, &Aliases::new());
                self.bind_tree(&dec.name, &shape, &|_| Kind::Free, &mut Vec::new())
            }
        };
        scope.aliases.insert(
            dec.name.clone(),
            Binding {
                tree,
                signature,
                is_prelude_copy: trusted && dec.name == "copy",
            },
        );
        scope.types.insert(
            dec.name.clone(),
            Scheme {
                params: dec.type_params.clone(),
                ty: dec.ty.clone(),
            },
        );
    }

    /// The type of `e` in `scope` (None if the typing judgment fails, which
    /// it does not on a program that typed).
    fn type_here(&self, scope: &Scope, e: &Expr) -> Option<Type> {
        self.typing.type_of(&scope.types, e).ok()
    }

    /// The tree of `e`'s value, every component aliasing `al`.
    fn tree_at_type(&self, scope: &Scope, e: &Expr, al: &Aliases) -> AliasTree {
        match self.type_here(scope, e) {
            Some(t) => tree_of_type(&t, al),
            None => AliasTree::Array(al.clone()),
        }
    }

    /// The first-bound atom of a set (§7), preferring a variable the
    /// program wrote to a temporary of the front end (`p'3`, `η1`).
    fn first(&self, atoms: impl IntoIterator<Item = AtomId>) -> Option<AtomId> {
        let atoms: Vec<AtomId> = atoms.into_iter().collect();
        let written = |a: &&AtomId| !is_temporary(&self.atoms[**a].name);
        atoms
            .iter()
            .filter(written)
            .min()
            .or_else(|| atoms.iter().min())
            .copied()
    }

    // -----------------------------------------------------------------
    // Diagnostics (§7)

    fn use_after_consume(&self, name: &str, use_span: Span, consumed_at: Span) -> Diagnostic {
        let message = format!("Using `{name}`, but this was consumed.");
        Diagnostic::error(message.clone())
            .with_code(USE_AFTER_CONSUME)
            .with_primary(use_span, message)
            .with_secondary(consumed_at, "consumed here")
    }

    fn not_consumable(&self, atom: AtomId, span: Span) -> Diagnostic {
        let message = format!(
            "Would consume `{}`, which is not consumable.",
            self.name_of(atom)
        );
        Diagnostic::error(message.clone())
            .with_code(NOT_CONSUMABLE)
            .with_primary(span, message)
    }

    // -----------------------------------------------------------------
    // U-Def

    /// `def f (p₁: u₁ τ₁) … : u τ = e` (and a constant): the parameters
    /// (the directly nested λs) bound by their declared uniqueness, the
    /// body judged, a `∗` result checked.
    fn definition(&mut self, global: &Scope, dec: &super::syntax::ValueDec) -> Judged<()> {
        // Extension: TFP18 U-Def
        fire_rule("TFP18 U-Def");
        let mut scope = global.clone();
        self.depth = 1;
        let mut body = &dec.value;
        let mut result_uniqueness = Uniqueness::Nonunique;
        let mut params = 0;
        while params < dec.param_count {
            let ExprKind::Lambda(lambda) = &body.kind else {
                break;
            };
            self.bind_param(
                &mut scope,
                &lambda.param,
                &lambda.param_type,
                &lambda.param_uniqueness,
            );
            result_uniqueness = lambda.result_uniqueness.clone();
            body = &lambda.body;
            params += 1;
        }
        let mut consumed = Consumed::new();
        let tree = self.expr(&scope, body, &mut consumed)?;
        let returned = tree.unique_part(&result_uniqueness);
        let offending = returned.iter().copied().filter(|a| {
            // A local's aliases are in the tree beside it (closed under
            // aliasing): the local itself is fresh storage.
            let atom = &self.atoms[*a];
            !(atom.kind == Kind::Local || atom.kind == Kind::UniqueParam && atom.depth == 1)
        });
        if let Some(atom) = self.first(offending) {
            let message = format!(
                "Unique-typed return value of `{}` is aliased to `{}`, which is not consumable.",
                dec.name,
                self.name_of(atom)
            );
            return Err(Diagnostic::error(message.clone())
                .with_code(UNIQUE_RETURN_ALIASED)
                .with_primary(body.span, message));
        }
        if tree.unique_component_shared(&result_uniqueness).is_some() {
            let message = format!(
                "A fresh-declared component of the return value of `{}` is aliased to some other component.",
                dec.name
            );
            return Err(Diagnostic::error(message.clone())
                .with_code(FRESH_RETURN_ALIASED)
                .with_primary(body.span, message));
        }
        if params > 0 {
            self.return_aliases_free(&tree, &result_uniqueness, body.span)?;
        }
        self.depth = 0;
        Ok(())
    }

    /// A function's `·` result components may alias its parameters but no
    /// free variable (a top-level array).
    fn return_aliases_free(
        &self,
        tree: &AliasTree,
        result_uniqueness: &Uniqueness,
        span: Span,
    ) -> Judged<()> {
        let leaves = tree.leaves(result_uniqueness);
        let free = leaves
            .iter()
            .filter(|(_, unique)| !unique)
            .flat_map(|(al, _)| al.iter().copied())
            .filter(|a| self.atoms[*a].kind == Kind::Free);
        if let Some(atom) = self.first(free) {
            let message = format!(
                "Function result aliases the free variable `{}`.",
                self.name_of(atom)
            );
            return Err(Diagnostic::error(message.clone())
                .with_code(RETURN_ALIASES_FREE)
                .with_primary(span, message));
        }
        Ok(())
    }

    // -----------------------------------------------------------------
    // The judgment Γ; C ⊢ e ⇒ ᾱ; C'

    fn expr(&mut self, scope: &Scope, e: &Expr, consumed: &mut Consumed) -> Judged<AliasTree> {
        crate::derivation::judgment(Some(e.span), || self.expr_inner(scope, e, consumed))
    }

    fn expr_inner(
        &mut self,
        scope: &Scope,
        e: &Expr,
        consumed: &mut Consumed,
    ) -> Judged<AliasTree> {
        match &e.kind {
            ExprKind::Var { name, .. } => {
                // Extension: TFP18 U-Var
                fire_rule("TFP18 U-Var");
                let Some(binding) = scope.aliases.get(name) else {
                    return Ok(self.tree_at_type(scope, e, &Aliases::new()));
                };
                let used_consumed = binding
                    .tree
                    .all()
                    .into_iter()
                    .filter(|a| consumed.contains_key(a));
                if let Some(atom) = self.first(used_consumed) {
                    // A temporary of the front end (`let'3` of a pattern
                    // `let`) is named by the consumed variable it aliases.
                    let shown = match is_temporary(name) {
                        true => self.name_of(atom),
                        false => name,
                    };
                    return Err(self.use_after_consume(shown, e.span, consumed[&atom]));
                }
                Ok(binding.tree.clone())
            }
            ExprKind::Literal(_) => Ok(AliasTree::Prim),
            ExprKind::BinOp { lhs, rhs, .. } => {
                self.expr(scope, lhs, consumed)?;
                self.expr(scope, rhs, consumed)?;
                Ok(AliasTree::Prim)
            }
            ExprKind::UnOp { operand, .. } | ExprKind::Length(operand) => {
                self.expr(scope, operand, consumed)?;
                Ok(AliasTree::Prim)
            }
            ExprKind::Let { name, value, body } => {
                // Extension: TFP18 U-Let
                fire_rule("TFP18 U-Let");
                let value_tree = self.expr(scope, value, consumed)?;
                let ty = self.type_here(scope, value);
                let signature = Signature::of_lambdas(value).map(Rc::new);
                let mut inner = scope.clone();
                self.bind_local(&mut inner, name, &value_tree, ty, signature);
                // `x`'s atoms stay in the tree past its scope: two
                // components returning one local share its storage
                // (fresh-return-aliased, loop-aliases).
                self.expr(&inner, body, consumed)
            }
            ExprKind::Apply { function, argument } if self.is_prelude_copy(scope, function) => {
                // Extension: TFP18 U-Copy
                fire_rule("TFP18 U-Copy");
                self.expr(scope, function, consumed)?;
                Ok(self.expr(scope, argument, consumed)?.fresh())
            }
            ExprKind::Map { .. }
            | ExprKind::Reduce { .. }
            | ExprKind::Filter { .. }
            | ExprKind::ReduceByIndex { .. }
            | ExprKind::Intrinsic {
                op: Intrinsic::Scatter,
                ..
            } => {
                // Extension: TFP18 U-SOAC
                fire_rule("TFP18 U-SOAC");
                self.soac(scope, e, consumed)
            }
            ExprKind::Apply { .. } | ExprKind::Intrinsic { .. } | ExprKind::Call { .. } => {
                // Extension: TFP18 U-Apply
                fire_rule("TFP18 U-Apply");
                match &e.kind {
                    ExprKind::Apply { .. } => self.application(scope, e, consumed),
                    ExprKind::Intrinsic { op, args } => {
                        self.intrinsic_application(scope, e, op, args, consumed)
                    }
                    ExprKind::Call { args, .. } => {
                        let al = self.arguments_aliases(scope, args, consumed)?;
                        Ok(self.tree_at_type(scope, e, &al))
                    }
                    _ => Ok(AliasTree::Prim),
                }
            }
            ExprKind::Lambda(_) => {
                // Extension: TFP18 U-Lambda
                fire_rule("TFP18 U-Lambda");
                self.lambda(scope, e, consumed)
            }
            ExprKind::Record(fields) => {
                // Extension: TFP18 U-RecordUpdate
                // `e₁ with f = e₂` is elaborated to a record of `e₁`'s
                // projections and `e₂`: building it consumes nothing.
                fire_rule("TFP18 U-RecordUpdate");
                let mut out = BTreeMap::new();
                for (l, field) in fields {
                    let t = self.expr(scope, field, consumed)?;
                    out.insert(l.clone(), t);
                }
                Ok(AliasTree::Record(out))
            }
            ExprKind::Project { record, label } => {
                Ok(self.expr(scope, record, consumed)?.project(label))
            }
            ExprKind::Array { elements, .. } => {
                // A literal array is fresh: its elements are copied in.
                for element in elements {
                    self.expr(scope, element, consumed)?;
                }
                Ok(AliasTree::Array(Aliases::new()))
            }
            ExprKind::Index { array, .. } | ExprKind::Slice { array, .. } => {
                // Extension: TFP18 U-Index
                fire_rule("TFP18 U-Index");
                let array_tree = self.expr(scope, array, consumed)?;
                match &e.kind {
                    ExprKind::Index { index, .. } => {
                        self.expr(scope, index, consumed)?;
                        Ok(self.tree_at_type(scope, e, &array_tree.all()))
                    }
                    ExprKind::Slice {
                        start, end, stride, ..
                    } => {
                        for part in [start, end, stride].into_iter().flatten() {
                            self.expr(scope, part, consumed)?;
                        }
                        Ok(array_tree)
                    }
                    _ => Ok(array_tree),
                }
            }
            ExprKind::Update {
                array,
                index,
                value,
            } => {
                // Extension: TFP18 U-Update
                fire_rule("TFP18 U-Update");
                let target = self.expr(scope, array, consumed)?;
                self.expr(scope, index, consumed)?;
                let written = self.expr(scope, value, consumed)?;
                let target_aliases = target.all();
                let shared = written
                    .all()
                    .into_iter()
                    .filter(|a| target_aliases.contains(a));
                if let Some(atom) = self.first(shared) {
                    let message = format!(
                        "The value written by the in-place update aliases the target `{}`.",
                        self.name_of(atom)
                    );
                    return Err(Diagnostic::error(message.clone())
                        .with_code(UPDATE_ALIASES_TARGET)
                        .with_primary(value.span, message));
                }
                self.consume(&target_aliases, e.span, consumed)?;
                Ok(AliasTree::Array(Aliases::new()))
            }
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                // Extension: TFP18 U-If
                fire_rule("TFP18 U-If");
                self.expr(scope, condition, consumed)?;
                let before = consumed.clone();
                let mut consumed_else = consumed.clone();
                let then_tree = self.expr(scope, then_branch, consumed)?;
                let else_tree = self.expr(scope, else_branch, &mut consumed_else)?;
                for (atom, span) in consumed_else {
                    consumed.entry(atom).or_insert(span);
                }
                let tree = then_tree.union(&else_tree);
                Ok(tree.without(&newly_consumed(&before, consumed)))
            }
            ExprKind::Match { scrutinee, cases } => {
                // Extension: TFP18 U-Match
                fire_rule("TFP18 U-Match");
                self.match_expr(scope, scrutinee, cases, consumed)
            }
            ExprKind::Loop {
                param,
                param_uniqueness,
                init,
                form,
                body,
            } => {
                // Extension: TFP18 U-Loop
                fire_rule("TFP18 U-Loop");
                self.loop_expr(scope, param, param_uniqueness, init, form, body, consumed)
            }
            ExprKind::Assert {
                condition, body, ..
            } => {
                self.expr(scope, condition, consumed)?;
                self.expr(scope, body, consumed)
            }
            ExprKind::Constructor {
                payload, sum_type, ..
            } => {
                let mut al = Aliases::new();
                for p in payload {
                    al.extend(self.expr(scope, p, consumed)?.all());
                }
                Ok(tree_of_type(sum_type, &al))
            }
        }
    }

    fn is_prelude_copy(&self, scope: &Scope, function: &Expr) -> bool {
        matches!(&function.kind, ExprKind::Var { name, .. }
            if scope.aliases.get(name).is_some_and(|b| b.is_prelude_copy))
    }

    // -----------------------------------------------------------------
    // U-Consume and U-SelfAlias

    /// Consuming a value with aliases `al` at `span`.
    fn consume(&mut self, al: &Aliases, span: Span, consumed: &mut Consumed) -> Judged<()> {
        // Extension: TFP18 U-Consume
        fire_rule("TFP18 U-Consume");
        let offending = al.iter().copied().filter(|a| !self.consumable(*a));
        if let Some(atom) = self.first(offending) {
            return Err(self.not_consumable(atom, span));
        }
        for atom in al {
            consumed.entry(*atom).or_insert(span);
        }
        Ok(())
    }

    /// In one application, an argument passed for a `∗` parameter (its
    /// consumed aliases `al`, at `span`) aliases no other argument, and its
    /// `∗` components share no storage with its other components (`within`:
    /// the first shared atom).
    fn self_alias(
        &self,
        al: &Aliases,
        span: Span,
        within: Option<AtomId>,
        others: &[(Aliases, Span)],
    ) -> Judged<()> {
        // Extension: TFP18 U-SelfAlias
        fire_rule("TFP18 U-SelfAlias");
        let within = within.map(|atom| (atom, span));
        let between = others.iter().find_map(|(other, other_span)| {
            self.first(al.intersection(other).copied())
                .map(|atom| (atom, *other_span))
        });
        let Some((atom, other_span)) = within.or(between) else {
            return Ok(());
        };
        let message = format!(
            "Argument passed for a consuming parameter is self-aliased (it aliases `{}`, another argument of the call).",
            self.name_of(atom)
        );
        Err(Diagnostic::error(message.clone())
            .with_code(SELF_ALIASING_ARG)
            .with_primary(span, message)
            .with_secondary(other_span, "the other argument"))
    }

    /// Consumes, after the U-SelfAlias checks, the `∗` parts of arguments:
    /// `(consumed part, span, atom shared within the argument)` for each,
    /// with every argument's aliases.
    fn consume_arguments(
        &mut self,
        parts: &[(Aliases, Span, Option<AtomId>)],
        arguments: &[(Aliases, Span)],
        consumed: &mut Consumed,
    ) -> Judged<()> {
        for (i, (part, span, within)) in parts.iter().enumerate() {
            if part.is_empty() {
                continue;
            }
            let others: Vec<(Aliases, Span)> = arguments
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, a)| a.clone())
                .collect();
            self.self_alias(part, *span, *within, &others)?;
        }
        for (part, span, _) in parts {
            self.consume(part, *span, consumed)?;
        }
        Ok(())
    }

    // -----------------------------------------------------------------
    // U-Apply

    /// `f e₁ … eₙ`: a named function (its declared `∗`s), else an unknown
    /// callee (`·` parameters, §7a).
    fn application(
        &mut self,
        scope: &Scope,
        e: &Expr,
        consumed: &mut Consumed,
    ) -> Judged<AliasTree> {
        let mut spine = Vec::new();
        let mut head = e;
        while let ExprKind::Apply { function, .. } = &head.kind {
            spine.push(head);
            head = function;
        }
        spine.reverse();
        let head_tree = self.expr(scope, head, consumed)?;
        let mut arguments = Vec::new();
        for node in &spine {
            let ExprKind::Apply { argument, .. } = &node.kind else {
                continue;
            };
            let t = self.expr(scope, argument, consumed)?;
            arguments.push((t, argument.span));
        }
        let signature = match &head.kind {
            ExprKind::Var { name, .. } => scope.aliases.get(name).and_then(|b| b.signature.clone()),
            _ => None,
        };
        let Some(signature) = signature else {
            return Ok(self.unknown_callee_result(scope, e, &head_tree, &arguments));
        };
        let given = arguments.len().min(signature.params.len());
        let parts: Vec<(Aliases, Span, Option<AtomId>)> = arguments[..given]
            .iter()
            .zip(&signature.params)
            .map(|((t, span), u)| (t.unique_part(u), *span, t.unique_component_shared(u)))
            .collect();
        let all_arguments: Vec<(Aliases, Span)> =
            arguments.iter().map(|(t, s)| (t.all(), *s)).collect();
        self.consume_arguments(&parts, &all_arguments, consumed)?;
        let mut observed = head_tree.all();
        for (i, (t, _)) in arguments[..given].iter().enumerate() {
            observed.extend(t.all().difference(&parts[i].0));
        }
        let observed = self.without_top_level(observed);
        if given < signature.params.len() {
            // A partial application: a closure of what it was given.
            return Ok(AliasTree::Function(observed));
        }
        let full = spine[given - 1];
        let result = self
            .tree_at_type(scope, full, &observed)
            .fresh_where_unique(&signature.result);
        if given == arguments.len() {
            return Ok(result);
        }
        // More arguments than parameters: the result is an unknown callee.
        Ok(self.unknown_callee_result(scope, e, &result, &arguments[given..]))
    }

    /// An unknown callee's result aliases its arguments and the callee.
    fn unknown_callee_result(
        &self,
        scope: &Scope,
        e: &Expr,
        callee: &AliasTree,
        arguments: &[(AliasTree, Span)],
    ) -> AliasTree {
        let mut al = callee.all();
        for (t, _) in arguments {
            al.extend(t.all());
        }
        self.tree_at_type(scope, e, &self.without_top_level(al))
    }

    /// Decision (proofs-notes/uniqueness.md §7a): the result of a call does
    /// not alias the top-level constants (`free` atoms) passed to it.
    fn without_top_level(&self, mut al: Aliases) -> Aliases {
        al.retain(|a| self.atoms[*a].kind != Kind::Free);
        al
    }

    fn arguments_aliases(
        &mut self,
        scope: &Scope,
        args: &[Expr],
        consumed: &mut Consumed,
    ) -> Judged<Aliases> {
        let mut al = Aliases::new();
        for a in args {
            al.extend(self.expr(scope, a, consumed)?.all());
        }
        Ok(al)
    }

    /// An intrinsic other than `scatter` (§7a's table): `iota`, `replicate`,
    /// `concat` and ranges are fresh; the others alias every argument.
    fn intrinsic_application(
        &mut self,
        scope: &Scope,
        e: &Expr,
        op: &Intrinsic,
        args: &[Expr],
        consumed: &mut Consumed,
    ) -> Judged<AliasTree> {
        let al = self.arguments_aliases(scope, args, consumed)?;
        let fresh = matches!(
            op,
            Intrinsic::Iota | Intrinsic::Replicate | Intrinsic::Concat | Intrinsic::Range(_)
        );
        let al = if fresh {
            Aliases::new()
        } else {
            self.without_top_level(al)
        };
        Ok(self.tree_at_type(scope, e, &al))
    }

    // -----------------------------------------------------------------
    // U-Lambda

    /// `\p₁ … pₙ -> e` (directly nested λs are one λ): everything bound
    /// outside is `free`; the value is `fun al`, `al` what it captures.
    fn lambda(&mut self, scope: &Scope, e: &Expr, consumed: &Consumed) -> Judged<AliasTree> {
        let mut inner = scope.clone();
        self.depth += 1;
        let mut body = e;
        while let ExprKind::Lambda(lambda) = &body.kind {
            let Lambda {
                param,
                param_type,
                param_uniqueness,
                ..
            } = &**lambda;
            self.bind_param(&mut inner, param, param_type, param_uniqueness);
            body = &lambda.body;
        }
        let mut inside = consumed.clone();
        let judged = self.expr(&inner, body, &mut inside);
        self.depth -= 1;
        judged?;
        Ok(AliasTree::Function(self.captured(scope, e)))
    }

    /// The aliases of the variables of `scope` free in `e`.
    fn captured(&self, scope: &Scope, e: &Expr) -> Aliases {
        super::syntax::free_vars(e)
            .iter()
            .filter_map(|x| scope.aliases.get(x))
            .flat_map(|b| b.tree.all())
            .collect()
    }

    /// A SOAC's syntactic λ (parameters observed, §7: a `map` whose λ
    /// consumes its parameter is not judged yet), with its parameters'
    /// types.
    fn soac_lambda(
        &mut self,
        scope: &Scope,
        params: &[(&Name, Option<Type>)],
        body: &Expr,
        consumed: &Consumed,
    ) -> Judged<()> {
        let mut inner = scope.clone();
        self.depth += 1;
        for (name, ty) in params {
            let ty = ty.clone().unwrap_or(Type::Param(
                String::new(),
                spec::syntax::ast::Liftedness::Lifted,
            ));
            self.bind_param(&mut inner, name, &ty, &Uniqueness::Nonunique);
        }
        let mut inside = consumed.clone();
        let judged = self.expr(&inner, body, &mut inside);
        self.depth -= 1;
        judged.map(|_| ())
    }

    // -----------------------------------------------------------------
    // U-SOAC

    fn element_type(&self, scope: &Scope, array: &Expr) -> Option<Type> {
        match self.type_here(scope, array)? {
            Type::Array(elem) => Some(*elem),
            _ => None,
        }
    }

    fn soac(&mut self, scope: &Scope, e: &Expr, consumed: &mut Consumed) -> Judged<AliasTree> {
        match &e.kind {
            ExprKind::Map { param, body, array } => {
                self.expr(scope, array, consumed)?;
                let elem = self.element_type(scope, array);
                self.soac_lambda(scope, &[(param, elem)], body, consumed)?;
                Ok(AliasTree::Array(Aliases::new()))
            }
            ExprKind::Filter {
                param,
                predicate,
                array,
            } => {
                self.expr(scope, array, consumed)?;
                let elem = self.element_type(scope, array);
                self.soac_lambda(scope, &[(param, elem)], predicate, consumed)?;
                Ok(AliasTree::Array(Aliases::new()))
            }
            ExprKind::Reduce {
                kind,
                x,
                y,
                operator,
                neutral,
                array,
            } => {
                let neutral_tree = self.expr(scope, neutral, consumed)?;
                let array_tree = self.expr(scope, array, consumed)?;
                let elem = self.type_here(scope, neutral);
                self.soac_lambda(scope, &[(x, elem.clone()), (y, elem)], operator, consumed)?;
                match kind {
                    ReduceKind::Scan => Ok(AliasTree::Array(Aliases::new())),
                    ReduceKind::Reduce => {
                        let al = &neutral_tree.all() | &array_tree.all();
                        Ok(self.tree_at_type(scope, e, &self.without_top_level(al)))
                    }
                }
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
                let dest_tree = self.expr(scope, dest, consumed)?;
                let mut others = Vec::new();
                for other in [neutral, indices, values] {
                    let t = self.expr(scope, other, consumed)?;
                    others.push((t.all(), other.span));
                }
                let elem = self.type_here(scope, neutral);
                self.soac_lambda(scope, &[(x, elem.clone()), (y, elem)], operator, consumed)?;
                let part = (dest_tree.all(), dest.span);
                let mut arguments = vec![part.clone()];
                arguments.extend(others);
                self.consume_arguments(&[(part.0, part.1, None)], &arguments, consumed)?;
                Ok(AliasTree::Array(Aliases::new()))
            }
            ExprKind::Intrinsic { args, .. } => {
                // `scatter dest is vs`: consumes its destination.
                let mut arguments = Vec::new();
                for a in args {
                    let t = self.expr(scope, a, consumed)?;
                    arguments.push((t.all(), a.span));
                }
                if let Some((al, span)) = arguments.first().cloned() {
                    self.consume_arguments(&[(al, span, None)], &arguments, consumed)?;
                }
                Ok(AliasTree::Array(Aliases::new()))
            }
            _ => Ok(AliasTree::Array(Aliases::new())),
        }
    }

    // -----------------------------------------------------------------
    // U-Match

    fn match_expr(
        &mut self,
        scope: &Scope,
        scrutinee: &Expr,
        cases: &[(Pat, Expr)],
        consumed: &mut Consumed,
    ) -> Judged<AliasTree> {
        let scrutinee_tree = self.expr(scope, scrutinee, consumed)?;
        let scrutinee_type = self.type_here(scope, scrutinee);
        let before = consumed.clone();
        let mut result = AliasTree::Prim;
        for (pat, body) in cases {
            let mut inner = scope.clone();
            self.bind_match_pattern(&mut inner, pat, &scrutinee_tree, scrutinee_type.as_ref());
            let mut case_consumed = before.clone();
            let tree = self.expr(&inner, body, &mut case_consumed)?;
            result = result.union(&tree);
            for (atom, span) in case_consumed {
                consumed.entry(atom).or_insert(span);
            }
        }
        Ok(result.without(&newly_consumed(&before, consumed)))
    }

    /// Binds a case's pattern variables: a record pattern projects, a
    /// constructor's payload variables alias the sum's `al` (§4).
    fn bind_match_pattern(
        &mut self,
        scope: &mut Scope,
        pat: &Pat,
        tree: &AliasTree,
        ty: Option<&Type>,
    ) {
        match pat {
            Pat::Wildcard | Pat::Literal(_) => {}
            Pat::Var(x) => {
                self.bind_local(scope, x, tree, ty.cloned(), None);
            }
            Pat::Record(fields) => {
                for (l, p) in fields {
                    let field_type = match ty {
                        Some(Type::Record(fs)) => fs.get(l),
                        _ => None,
                    };
                    self.bind_match_pattern(scope, p, &tree.project(l), field_type);
                }
            }
            Pat::Constructor(c, ps) => {
                let payload_types = match ty {
                    Some(Type::Sum(cs)) => cs.get(c).cloned(),
                    _ => None,
                };
                let al = tree.all();
                for (i, p) in ps.iter().enumerate() {
                    let pt = payload_types.as_ref().and_then(|ts| ts.get(i));
                    let payload_tree = match pt {
                        Some(t) => tree_of_type(t, &al),
                        None => AliasTree::Array(al.clone()),
                    };
                    self.bind_match_pattern(scope, p, &payload_tree, pt);
                }
            }
        }
        if let Some(t) = ty {
            let mut types = scope.types.clone();
            if bind_pattern(pat, t, &mut types).is_ok() {
                scope.types = types;
            }
        }
    }

    // -----------------------------------------------------------------
    // U-Loop

    /// `loop p = e₀ for … do e`: the body judged with everything outside
    /// `free` and the loop variable's components consumable (Futhark infers
    /// which are consumed); those the body consumes are consumed from `e₀`
    /// at `e₀`, and are fresh in the loop's value, which elsewhere aliases
    /// `e₀`.
    #[allow(clippy::too_many_arguments)]
    fn loop_expr(
        &mut self,
        scope: &Scope,
        param: &Name,
        declared: &Uniqueness,
        init: &Expr,
        form: &LoopForm,
        body: &Expr,
        consumed: &mut Consumed,
    ) -> Judged<AliasTree> {
        let init_tree = self.expr(scope, init, consumed)?;
        let init_type = self.type_here(scope, init);
        let iterated = match form {
            LoopForm::ForIn { var, array } => {
                let array_tree = self.expr(scope, array, consumed)?;
                let elem = self.element_type(scope, array);
                Some((var, array_tree, elem))
            }
            LoopForm::While { .. } => None,
        };
        let mut inner = scope.clone();
        self.depth += 1;
        let param_tree = self.bind_tree(
            param,
            &init_tree.fresh(),
            &|_| Kind::UniqueParam,
            &mut Vec::new(),
        );
        self.insert(&mut inner, param, param_tree.clone(), init_type, None);
        if let Some((var, array_tree, elem)) = &iterated {
            let al = array_tree.all();
            let elem_tree = match elem {
                Some(t) => tree_of_type(t, &al),
                None => AliasTree::Array(al),
            };
            let elem_tree = self.bind_tree(var, &elem_tree, &|_| Kind::Local, &mut Vec::new());
            self.insert(&mut inner, var, elem_tree, elem.clone(), None);
        }
        let mut inside = consumed.clone();
        let judged = match form {
            LoopForm::While { condition } => self
                .expr(&inner, condition, &mut inside)
                .and_then(|_| self.expr(&inner, body, &mut inside)),
            LoopForm::ForIn { .. } => self.expr(&inner, body, &mut inside),
        };
        self.depth -= 1;
        let body_tree = judged?;
        // Consumed: what the body consumes (Futhark infers it) and what the
        // pattern declares `∗`.
        let consumed_components =
            union_uniqueness(&loop_consumed_components(&param_tree, &inside), declared);
        self.loop_results_fresh(param, &param_tree, body, &body_tree, &consumed_components)?;
        let init_consumed = init_tree.unique_part(&consumed_components);
        self.consume(&init_consumed, init.span, consumed)?;
        self.loop_observes_consumed(scope, param, form, body, &init_consumed, init.span)?;
        Ok(init_tree.fresh_where_unique(&consumed_components))
    }

    /// `loop-aliases`: what the body returns for a component it consumes
    /// (or that the pattern declares `∗`) is updated in place by the next
    /// iteration, so it may alias nothing bound outside the loop (the next
    /// iteration would write into it), no component of the loop variable
    /// that is only observed (whose storage the loop does not own), and
    /// share no storage with another returned component (whose value the
    /// update would change). §3 U-Loop, §7.
    fn loop_results_fresh(
        &self,
        param: &Name,
        param_tree: &AliasTree,
        body: &Expr,
        body_tree: &AliasTree,
        consumed_components: &Uniqueness,
    ) -> Judged<()> {
        if !consumed_components.any_unique() {
            return Ok(());
        }
        let mut leaves = Vec::new();
        body_tree.leaves_with_paths(&mut Vec::new(), &mut leaves);
        let names = loop_component_names(param, body);
        let mut param_leaves = Vec::new();
        param_tree.leaves_with_paths(&mut Vec::new(), &mut param_leaves);
        let observed: Vec<(Vec<Name>, Aliases)> = param_leaves
            .into_iter()
            .filter(|(path, _)| !uniqueness_at(consumed_components, path).any_unique())
            .collect();
        for (index, (path, al)) in leaves.iter().enumerate() {
            if !uniqueness_at(consumed_components, path).any_unique() {
                continue;
            }
            let name = component_name(&names, path, param);
            let outer = al
                .iter()
                .copied()
                .filter(|a| self.atoms[*a].depth <= self.depth);
            if let Some(atom) = self.first(outer) {
                let message = format!(
                    "Return value for consuming loop parameter `{name}` aliases `{}`.",
                    self.name_of(atom)
                );
                return Err(loop_aliases(message, body.span));
            }
            if let Some((observed_path, _)) = observed
                .iter()
                .find(|(_, observed_al)| !al.is_disjoint(observed_al))
            {
                let message = format!(
                    "Return value for consuming loop parameter `{name}` aliases `{}`.",
                    component_name(&names, observed_path, param)
                );
                return Err(loop_aliases(message, body.span));
            }
            let shared = leaves
                .iter()
                .enumerate()
                .any(|(other, (_, other_al))| other != index && !al.is_disjoint(other_al));
            if shared {
                let message = format!(
                    "Return value for consuming loop parameter `{name}` aliases another returned value."
                );
                return Err(loop_aliases(message, body.span));
            }
        }
        Ok(())
    }

    /// The initial value is consumed at `e₀`, before the body runs: the
    /// body (and a `while` condition) may not use what it aliases.
    fn loop_observes_consumed(
        &self,
        scope: &Scope,
        param: &Name,
        form: &LoopForm,
        body: &Expr,
        init_consumed: &Aliases,
        init_span: Span,
    ) -> Judged<()> {
        if init_consumed.is_empty() {
            return Ok(());
        }
        let (var, condition) = match form {
            LoopForm::ForIn { var, .. } => (Some(var), None),
            LoopForm::While { condition } => (None, Some(&**condition)),
        };
        for part in condition.into_iter().chain([body]) {
            for x in super::syntax::free_vars(part) {
                if &x == param || Some(&x) == var {
                    continue;
                }
                let Some(binding) = scope.aliases.get(&x) else {
                    continue;
                };
                if binding.tree.all().is_disjoint(init_consumed) {
                    continue;
                }
                let use_span = first_use(part, &x).unwrap_or(part.span);
                return Err(self.use_after_consume(&x, use_span, init_span));
            }
        }
        Ok(())
    }
}

/// Where `e` first uses the variable `x` (a diagnostic's location).
fn first_use(e: &Expr, x: &Name) -> Option<Span> {
    spec::recursion::with_stack(|| first_use_inner(e, x))
}

fn first_use_inner(e: &Expr, x: &Name) -> Option<Span> {
    if let ExprKind::Var { name, .. } = &e.kind {
        return (name == x).then_some(e.span);
    }
    let mut found = None;
    super::syntax::map_children(e, &mut |child| {
        if found.is_none() {
            found = first_use(child, x);
        }
        child.clone()
    });
    found
}

/// `C' ∖ C₀`: what a branching consumed (its value does not alias it).
fn newly_consumed(before: &Consumed, after: &Consumed) -> Aliases {
    after
        .keys()
        .filter(|a| !before.contains_key(a))
        .copied()
        .collect()
}

/// `∗` where either marks a component `∗`.
fn union_uniqueness(a: &Uniqueness, b: &Uniqueness) -> Uniqueness {
    match (a, b) {
        (Uniqueness::Unique, _) | (_, Uniqueness::Unique) => Uniqueness::Unique,
        (Uniqueness::Nonunique, other) | (other, Uniqueness::Nonunique) => other.clone(),
        (Uniqueness::Components(left), Uniqueness::Components(right)) => {
            let mut components = left.clone();
            for (label, component) in right {
                let merged = union_uniqueness(&a.component(label), component);
                components.insert(label.clone(), merged);
            }
            Uniqueness::Components(components)
        }
    }
}

/// The uniqueness of the component at `path`.
/// The `loop-aliases` diagnostic, at the loop body.
fn loop_aliases(message: String, body: Span) -> Diagnostic {
    Diagnostic::error(message)
        .with_code(LOOP_ALIASES)
        .with_primary(body, "the new values of the loop parameters")
}

fn uniqueness_at(uniqueness: &Uniqueness, path: &[Name]) -> Uniqueness {
    path.iter()
        .fold(uniqueness.clone(), |u, label| u.component(label))
}

/// The names the loop's pattern gives the components of its parameter
/// `param`, by component path: the surface pattern is lowered to `let`s at
/// the head of the body (`let t = param`, `let a = t.0`, …); names the
/// lowering made up (with a `'`) are not kept.
fn loop_component_names(param: &Name, body: &Expr) -> BTreeMap<Vec<Name>, Name> {
    let mut paths: BTreeMap<&Name, Vec<Name>> = BTreeMap::from([(param, Vec::new())]);
    let mut names = BTreeMap::new();
    let mut e = body;
    while let ExprKind::Let { name, value, body } = &e.kind {
        let path = match &value.kind {
            ExprKind::Var { name: v, .. } => paths.get(v).cloned(),
            ExprKind::Project { record, label } => match &record.kind {
                ExprKind::Var { name: v, .. } => paths.get(v).map(|p| {
                    let mut p = p.clone();
                    p.push(label.clone());
                    p
                }),
                _ => None,
            },
            _ => None,
        };
        let Some(path) = path else { break };
        if !name.contains('\'') {
            names.insert(path.clone(), name.clone());
        }
        paths.insert(name, path);
        e = body;
    }
    names
}

/// The pattern's name for the component at `path` (or for the component
/// holding it; the loop parameter's own name when the pattern names none).
fn component_name<'a>(
    names: &'a BTreeMap<Vec<Name>, Name>,
    path: &[Name],
    param: &'a Name,
) -> &'a str {
    (0..=path.len())
        .rev()
        .find_map(|length| names.get(&path[..length]))
        .unwrap_or(param)
}

/// The loop variable's components (by tree path) the body consumed, as a
/// uniqueness: `∗` where consumed.
fn loop_consumed_components(param_tree: &AliasTree, inside: &Consumed) -> Uniqueness {
    match param_tree {
        AliasTree::Prim | AliasTree::Function(_) => Uniqueness::Nonunique,
        AliasTree::Array(al) | AliasTree::Sum(al) => {
            if al.iter().any(|a| inside.contains_key(a)) {
                Uniqueness::Unique
            } else {
                Uniqueness::Nonunique
            }
        }
        AliasTree::Record(fields) => {
            let cs: BTreeMap<Name, Uniqueness> = fields
                .iter()
                .map(|(l, t)| (l.clone(), loop_consumed_components(t, inside)))
                .filter(|(_, u)| *u != Uniqueness::Nonunique)
                .collect();
            if cs.is_empty() {
                Uniqueness::Nonunique
            } else {
                Uniqueness::Components(cs)
            }
        }
    }
}

/// A name the front end made up (`let'3`, `p'3`, `η1`), not one the
/// program wrote.
fn is_temporary(name: &str) -> bool {
    name.contains('\'') || name.starts_with('η')
}
