//! Uniqueness types and alias analysis (proofs-notes/uniqueness.md, an
//! extension of the language beyond the papers, issue 23): the judgment
//! `Γ; C ⊢ e ⇒ ᾱ; C'` on the elaborated core, before monomorphisation and
//! defunctionalisation, so that lambdas still show what they capture.
//!
//! It decides accept or reject and changes nothing. `Γ` is [`Judge::env`]
//! (every variable's aliases and kind, and the depth of the lambda or loop
//! body that binds it: a variable of an enclosing body is free, never
//! consumable), `C` is [`Judge::consumed`], `ᾱ` an [`AliasTree`]. Rules are
//! named as in the specification (U-Var, U-Consume, …). The prelude's
//! definitions are trusted (§7a): their bodies are not judged, their
//! signatures are used at calls.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use spec::diagnostic::Diagnostic;
use spec::source::{FileId, Span};

use super::{
    Case, DimIndex, Expr, ExprKind, FieldName, Function, FunctionUniqueness, Intrinsic, LoopForm,
    Pat, PatKind, Program, Type, Uniqueness, VarName,
};

/// The codes of the judgment's rejections (§7).
use spec::diagnostic::codes::uniqueness as codes;

/// Judges every definition of `program` whose source file is not
/// `trusted` (the prelude's); returns the first rejection of each failing
/// definition.
pub fn check_program(
    program: &Program,
    trusted: &dyn Fn(FileId) -> bool,
) -> Result<(), Vec<Diagnostic>> {
    let mut judge = Judge::default();
    for definition in &program.definitions {
        judge.declare(&definition.function);
    }
    let mut diagnostics = Vec::new();
    for definition in &program.definitions {
        let function = &definition.function;
        if function.params.is_empty() {
            // A top-level constant: observable everywhere, consumable nowhere.
            judge.bind_variable(
                &function.name,
                &function.result,
                AliasTree::empty(),
                Kind::Local,
            );
        }
        if trusted(function.span.file) {
            continue;
        }
        if let Err(diagnostic) = judge.judge_function(function, Scope::TopLevel) {
            diagnostics.push(diagnostic);
        }
    }
    if diagnostics.is_empty() {
        Ok(())
    } else {
        Err(diagnostics)
    }
}

/// `ᾱ`: the variables whose storage a value may share, per record field.
#[derive(Clone, Debug, PartialEq, Eq)]
enum AliasTree {
    /// A primitive value (empty), an array, a sum or a function (a closure:
    /// the arrays it captures).
    Leaf(BTreeSet<VarName>),
    Record(BTreeMap<FieldName, AliasTree>),
}

impl AliasTree {
    fn empty() -> AliasTree {
        AliasTree::Leaf(BTreeSet::new())
    }

    /// `⌊ᾱ⌋`.
    fn all(&self) -> BTreeSet<VarName> {
        let mut out = BTreeSet::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut BTreeSet<VarName>) {
        match self {
            AliasTree::Leaf(names) => out.extend(names.iter().cloned()),
            AliasTree::Record(fields) => fields.values().for_each(|field| field.collect(out)),
        }
    }

    /// The tree of a value of type `ty` every part of which may alias
    /// `names` (a primitive part aliases nothing).
    fn of_type(ty: &Type, names: &BTreeSet<VarName>) -> AliasTree {
        match ty {
            Type::Prim(_) => AliasTree::empty(),
            Type::Record(fields) => AliasTree::Record(
                fields
                    .iter()
                    .map(|(field, ty)| (field.clone(), AliasTree::of_type(ty, names)))
                    .collect(),
            ),
            _ => AliasTree::Leaf(names.clone()),
        }
    }

    /// Component `field` of a value of this tree whose component has type
    /// `ty`.
    fn project(&self, field: &FieldName, ty: &Type) -> AliasTree {
        match self {
            AliasTree::Record(fields) => fields
                .get(field)
                .cloned()
                .unwrap_or_else(|| AliasTree::of_type(ty, &BTreeSet::new())),
            AliasTree::Leaf(names) => AliasTree::of_type(ty, names),
        }
    }

    fn union(self, other: AliasTree) -> AliasTree {
        match (self, other) {
            (AliasTree::Record(mut left), AliasTree::Record(right)) => {
                for (field, tree) in right {
                    let merged = match left.remove(&field) {
                        Some(existing) => existing.union(tree),
                        None => tree,
                    };
                    left.insert(field, merged);
                }
                AliasTree::Record(left)
            }
            (left, right) => {
                let mut names = left.all();
                names.extend(right.all());
                AliasTree::Leaf(names)
            }
        }
    }

    /// Every name mapped by `rename` (a name leaving scope replaced by what
    /// it aliases).
    fn substitute(self, rename: &dyn Fn(&VarName) -> Option<BTreeSet<VarName>>) -> AliasTree {
        match self {
            AliasTree::Leaf(names) => AliasTree::Leaf(
                names
                    .into_iter()
                    .flat_map(|name| rename(&name).unwrap_or_else(|| BTreeSet::from([name])))
                    .collect(),
            ),
            AliasTree::Record(fields) => AliasTree::Record(
                fields
                    .into_iter()
                    .map(|(field, tree)| (field, tree.substitute(rename)))
                    .collect(),
            ),
        }
    }

    /// The tree with `name` added to every part that may hold an array, for
    /// a variable `name` of type `ty` (a variable aliases its own storage;
    /// a function has none: its aliases are the arrays it captures).
    fn with_self(self, ty: &Type, name: &VarName) -> AliasTree {
        match ty {
            Type::Prim(_) => AliasTree::empty(),
            Type::Arrow { .. } => self,
            // A sum of scalars has no storage to share.
            Type::Sum(constructors) if !constructors.values().flatten().any(holds_arrays) => {
                AliasTree::empty()
            }
            Type::Record(fields) => AliasTree::Record(
                fields
                    .iter()
                    .map(|(field, field_ty)| {
                        (
                            field.clone(),
                            self.project(field, field_ty).with_self(field_ty, name),
                        )
                    })
                    .collect(),
            ),
            _ => {
                let mut names = self.all();
                names.insert(name.clone());
                AliasTree::Leaf(names)
            }
        }
    }

    /// The alias sets of the parts that `uniqueness` marks unique, one per
    /// leaf (for the checks that unique parts share no storage).
    fn unique_leaves(&self, uniqueness: &Uniqueness) -> Vec<BTreeSet<VarName>> {
        match (uniqueness, self) {
            (Uniqueness::Nonunique, _) => Vec::new(),
            (_, AliasTree::Leaf(names)) => vec![names.clone()],
            (Uniqueness::Unique, AliasTree::Record(fields)) => fields
                .values()
                .flat_map(|tree| tree.unique_leaves(&Uniqueness::Unique))
                .collect(),
            (Uniqueness::Record(marks), AliasTree::Record(fields)) => marks
                .iter()
                .filter_map(|(field, mark)| fields.get(field).map(|tree| tree.unique_leaves(mark)))
                .flatten()
                .collect(),
        }
    }

    /// The parts of the tree that `uniqueness` marks unique.
    fn unique_part(&self, uniqueness: &Uniqueness) -> BTreeSet<VarName> {
        match (uniqueness, self) {
            (Uniqueness::Nonunique, _) => BTreeSet::new(),
            (Uniqueness::Unique, tree) => tree.all(),
            (Uniqueness::Record(marks), AliasTree::Record(fields)) => marks
                .iter()
                .filter_map(|(field, mark)| fields.get(field).map(|tree| tree.unique_part(mark)))
                .flatten()
                .collect(),
            // A value whose components are not known separately: all of it.
            (Uniqueness::Record(_), tree) => tree.all(),
        }
    }
}

/// Where a function is defined: only a top-level function's result may not
/// alias a free variable (Futhark's error index, "Function result aliases
/// the free variable").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    TopLevel,
    Local,
}

/// Whether a value of type `ty` may hold an array (a type parameter may).
fn holds_arrays(ty: &Type) -> bool {
    match ty {
        Type::Prim(_) | Type::Arrow { .. } => false,
        Type::Array { .. } | Type::Param(_) => true,
        Type::Record(fields) => fields.values().any(holds_arrays),
        Type::Sum(constructors) => constructors.values().flatten().any(holds_arrays),
    }
}

/// Whether two of `leaves` share a variable.
fn has_shared_alias(leaves: &[BTreeSet<VarName>]) -> bool {
    leaves.iter().enumerate().any(|(index, leaf)| {
        leaves[index + 1..]
            .iter()
            .any(|other| !leaf.is_disjoint(other))
    })
}

/// What a variable is, for consumability (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A `*` parameter, or a loop parameter (Futhark infers which the body
    /// consumes).
    UniqueParam,
    NonuniqueParam,
    /// Bound by `let`, a pattern of a `match` or `for … in`, or at top level.
    Local,
}

#[derive(Clone, Debug)]
struct Binding {
    aliases: AliasTree,
    kind: Kind,
    /// The lambda or loop body that binds it (0: the top level).
    depth: usize,
}

#[derive(Default)]
struct Judge {
    env: HashMap<VarName, Binding>,
    /// `C`: each consumed variable with where.
    consumed: HashMap<VarName, Span>,
    /// The signatures of named functions (top-level and local).
    signatures: HashMap<VarName, FunctionUniqueness>,
    /// One entry per enclosing lambda or loop body: the variables of
    /// enclosing scopes it uses (a closure's aliases).
    captured: Vec<BTreeSet<VarName>>,
}

type Judgment<T> = Result<T, Diagnostic>;

impl Judge {
    fn depth(&self) -> usize {
        self.captured.len()
    }

    fn declare(&mut self, function: &Function) {
        self.signatures
            .insert(function.name.clone(), function.uniqueness.clone());
    }

    fn bind_variable(&mut self, name: &VarName, ty: &Type, aliases: AliasTree, kind: Kind) {
        let aliases = aliases.with_self(ty, name);
        let depth = self.depth();
        self.env.insert(
            name.clone(),
            Binding {
                aliases,
                kind,
                depth,
            },
        );
    }

    /// Binds the variables of `pat` to the parts of a value with aliases
    /// `tree`.
    fn bind_pattern(&mut self, pat: &Pat, tree: &AliasTree, kind: Kind) {
        match &pat.kind {
            PatKind::Var(name) => self.bind_variable(name, &pat.ty, tree.clone(), kind),
            PatKind::Wildcard | PatKind::Literal(_) => {}
            PatKind::Record(fields) => {
                for (field, field_pat) in fields {
                    let part = tree.project(field, &field_pat.ty);
                    self.bind_pattern(field_pat, &part, kind);
                }
            }
            PatKind::Constructor { payload, .. } => {
                let whole = tree.all();
                for field_pat in payload {
                    self.bind_pattern(field_pat, &AliasTree::of_type(&field_pat.ty, &whole), kind);
                }
            }
        }
    }

    /// The root of `name`'s aliases that may not be consumed here, if any
    /// (§2: consumable means a `*` parameter, or a local whose own aliases
    /// are consumable, of the innermost lambda or loop body).
    fn not_consumable_root(&self, name: &VarName) -> Option<VarName> {
        let Some(binding) = self.env.get(name) else {
            return Some(name.clone());
        };
        if binding.depth != self.depth() {
            return Some(name.clone());
        }
        match binding.kind {
            Kind::UniqueParam => None,
            Kind::NonuniqueParam => Some(name.clone()),
            Kind::Local => {
                let mut others: Vec<VarName> = binding
                    .aliases
                    .all()
                    .into_iter()
                    .filter(|other| other != name)
                    .collect();
                others.sort_by_key(|other| other.id);
                others
                    .iter()
                    .find_map(|other| self.not_consumable_root(other))
            }
        }
    }

    /// U-Consume: consuming a value with aliases `names` at `span`.
    fn consume(&mut self, names: &BTreeSet<VarName>, span: Span) -> Judgment<()> {
        // Extension: U-Consume
        let mut ordered: Vec<&VarName> = names.iter().collect();
        ordered.sort_by_key(|name| name.id);
        for name in &ordered {
            if let Some(root) = self.not_consumable_root(name) {
                return Err(Diagnostic::error(format!(
                    "Would consume `{}`, which is not consumable.",
                    root.base
                ))
                .with_code(codes::NOT_CONSUMABLE)
                .with_primary(span, "consumed here"));
            }
        }
        for name in ordered {
            self.consumed.entry(name.clone()).or_insert(span);
        }
        Ok(())
    }

    /// U-Def: a definition's body, with its parameters.
    fn judge_function(&mut self, function: &Function, scope: Scope) -> Judgment<AliasTree> {
        // Extension: U-Def
        self.captured.push(BTreeSet::new());
        let result = self.judge_function_body(function, scope);
        let captured = self.captured.pop().unwrap_or_default();
        result?;
        Ok(AliasTree::Leaf(captured))
    }

    fn judge_function_body(&mut self, function: &Function, scope: Scope) -> Judgment<()> {
        for (index, param) in function.params.iter().enumerate() {
            let uniqueness = function
                .uniqueness
                .params
                .get(index)
                .cloned()
                .unwrap_or_default();
            self.bind_parameter(param, &uniqueness);
        }
        let saved = self.consumed.clone();
        let body = self.judge(&function.body)?;
        self.consumed = saved;
        let name = &function.name.base;
        let unique = body.unique_part(&function.uniqueness.result);
        let mut ordered: Vec<&VarName> = unique.iter().collect();
        ordered.sort_by_key(|alias| alias.id);
        for alias in ordered {
            if let Some(root) = self.not_consumable_root(alias) {
                return Err(Diagnostic::error(format!(
                    "Unique-typed return value of `{name}` is aliased to `{}`, which is not consumable.",
                    root.base
                ))
                .with_code(codes::UNIQUE_RETURN_ALIASED)
                .with_primary(function.body.span, "the result"));
            }
        }
        if has_shared_alias(&body.unique_leaves(&function.uniqueness.result)) {
            return Err(Diagnostic::error(format!(
                "A fresh-declared component of the return value of `{name}` is aliased to some other component."
            ))
            .with_code(codes::FRESH_RETURN_ALIASED)
            .with_primary(function.body.span, "the result"));
        }
        if scope == Scope::TopLevel && !function.params.is_empty() {
            let mut free: Vec<VarName> = body
                .all()
                .into_iter()
                .filter(|alias| self.is_top_level(alias))
                .collect();
            free.sort_by_key(|alias| alias.id);
            if let Some(free) = free.first() {
                return Err(Diagnostic::error(format!(
                    "Function result aliases the free variable `{}`.",
                    free.base
                ))
                .with_code(codes::RETURN_ALIASES_FREE)
                .with_primary(function.body.span, "the result")
                .with_note("use `copy` to break the aliasing"));
            }
        }
        Ok(())
    }

    /// Whether `name` is a top-level constant.
    fn is_top_level(&self, name: &VarName) -> bool {
        self.env.get(name).is_some_and(|binding| binding.depth == 0)
    }

    fn bind_parameter(&mut self, pat: &Pat, uniqueness: &Uniqueness) {
        match (&pat.kind, uniqueness) {
            (PatKind::Var(name), _) => {
                let kind = if uniqueness.any_unique() {
                    Kind::UniqueParam
                } else {
                    Kind::NonuniqueParam
                };
                self.bind_variable(name, &pat.ty, AliasTree::empty(), kind);
            }
            (PatKind::Record(fields), _) => {
                for (field, field_pat) in fields {
                    self.bind_parameter(field_pat, &uniqueness.field(field));
                }
            }
            (PatKind::Constructor { payload, .. }, _) => {
                for field_pat in payload {
                    self.bind_parameter(field_pat, uniqueness);
                }
            }
            (PatKind::Wildcard | PatKind::Literal(_), _) => {}
        }
    }

    fn judge_all(&mut self, exprs: &[Expr]) -> Judgment<Vec<AliasTree>> {
        exprs.iter().map(|expr| self.judge(expr)).collect()
    }

    /// `Γ; C ⊢ e ⇒ ᾱ; C'`, one rule per arm.
    fn judge(&mut self, expr: &Expr) -> Judgment<AliasTree> {
        spec::recursion::with_stack(|| self.judge_inner(expr))
    }

    fn judge_inner(&mut self, expr: &Expr) -> Judgment<AliasTree> {
        match &expr.kind {
            ExprKind::Literal(_) => Ok(AliasTree::empty()),
            ExprKind::Var { name, .. } => self.judge_variable(name, expr.span),
            ExprKind::Intrinsic {
                intrinsic, args, ..
            } => self.judge_intrinsic(intrinsic, args, expr),
            ExprKind::BinOp { lhs, rhs, .. } | ExprKind::Equal { lhs, rhs, .. } => {
                self.judge(lhs)?;
                self.judge(rhs)?;
                Ok(AliasTree::empty())
            }
            ExprKind::UnOp { operand, .. } => {
                self.judge(operand)?;
                Ok(AliasTree::empty())
            }
            ExprKind::Record(fields) => {
                // Extension: U-Record
                let mut trees = BTreeMap::new();
                for (field, value) in fields {
                    trees.insert(field.clone(), self.judge(value)?);
                }
                Ok(AliasTree::Record(trees))
            }
            ExprKind::Project { record, field } => {
                let tree = self.judge(record)?;
                Ok(tree.project(field, &expr.ty))
            }
            ExprKind::RecordUpdate {
                target,
                path,
                value,
            } => {
                // Extension: U-RecordUpdate
                let target_tree = self.judge(target)?;
                let value_tree = self.judge(value)?;
                Ok(replace_path(target_tree, &target.ty, path, value_tree))
            }
            ExprKind::Constructor { payload, .. } => {
                let trees = self.judge_all(payload)?;
                let names = trees.iter().flat_map(AliasTree::all).collect();
                Ok(AliasTree::of_type(&expr.ty, &names))
            }
            ExprKind::ArrayLit(elements) => {
                // An array literal is fresh storage.
                self.judge_all(elements)?;
                Ok(AliasTree::empty())
            }
            ExprKind::Range {
                start, step, end, ..
            } => {
                self.judge(start)?;
                if let Some(step) = step {
                    self.judge(step)?;
                }
                self.judge(end)?;
                Ok(AliasTree::empty())
            }
            ExprKind::Index { array, indices } => {
                // Extension: U-Index
                let tree = self.judge(array)?;
                self.judge_indices(indices)?;
                Ok(AliasTree::of_type(&expr.ty, &tree.all()))
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => self.judge_update(target, indices, value),
            ExprKind::Let {
                pat, value, body, ..
            } => {
                // Extension: U-Let
                let value_tree = self.judge(value)?;
                self.bind_pattern(pat, &value_tree, Kind::Local);
                // The pattern's variables stay in the tree past their scope:
                // two components returning one local share its storage
                // (fresh-return-aliased, loop-aliases).
                self.judge(body)
            }
            ExprKind::LetFun { function, body } => {
                // Extension: U-LetFun
                self.declare(function);
                let captured = self.judge_function(function, Scope::Local)?;
                let ty = function.ty();
                self.bind_variable(&function.name, &ty, captured, Kind::Local);
                self.judge(body)
            }
            ExprKind::Lambda { params, body } => {
                // Extension: U-Lambda
                self.captured.push(BTreeSet::new());
                for param in params {
                    self.bind_parameter(param, &Uniqueness::Nonunique);
                }
                let result = self.judge(body);
                let captured = self.captured.pop().unwrap_or_default();
                result?;
                Ok(AliasTree::Leaf(captured))
            }
            ExprKind::Apply { function, args } => self.judge_application(function, args, expr),
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => {
                // Extension: U-If
                self.judge(condition)?;
                let before = self.consumed.clone();
                let then_tree = self.judge(then_branch)?;
                let after_then = std::mem::replace(&mut self.consumed, before.clone());
                let else_tree = self.judge(else_branch)?;
                for (name, span) in after_then {
                    self.consumed.entry(name).or_insert(span);
                }
                Ok(self.without_consumed_since(then_tree.union(else_tree), &before))
            }
            ExprKind::Match { scrutinee, cases } => self.judge_match(scrutinee, cases),
            ExprKind::Loop {
                pat,
                declared,
                init,
                form,
                body,
            } => self.judge_loop(pat, declared, init, form, body),
            ExprKind::Coerce(inner) => self.judge(inner),
        }
    }

    /// U-Var: observing `name` requires none of its aliases consumed.
    fn judge_variable(&mut self, name: &VarName, span: Span) -> Judgment<AliasTree> {
        // Extension: U-Var
        let Some(binding) = self.env.get(name) else {
            // A top-level or prelude function: it captures nothing.
            return Ok(AliasTree::empty());
        };
        let aliases = binding.aliases.clone();
        let mut ordered: Vec<VarName> = aliases.all().into_iter().collect();
        ordered.sort_by_key(|alias| alias.id);
        for alias in &ordered {
            if let Some(consumed_at) = self.consumed.get(alias) {
                return Err(Diagnostic::error(format!(
                    "Using `{}`, but this was consumed.",
                    name.base
                ))
                .with_code(codes::USE_AFTER_CONSUME)
                .with_primary(span, "used here")
                .with_secondary(*consumed_at, "consumed here"));
            }
        }
        for frame in self.captured.iter_mut().skip(binding.depth) {
            frame.extend(ordered.iter().cloned());
        }
        Ok(aliases)
    }

    fn judge_indices(&mut self, indices: &[DimIndex]) -> Judgment<()> {
        for index in indices {
            match index {
                DimIndex::Index(index) => {
                    self.judge(index)?;
                }
                DimIndex::Slice { start, end, stride } => {
                    for bound in [start, end, stride].into_iter().flatten() {
                        self.judge(bound)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// U-Update: `target with [indices] = value` consumes the target; the
    /// value may not alias it.
    fn judge_update(
        &mut self,
        target: &Expr,
        indices: &[DimIndex],
        value: &Expr,
    ) -> Judgment<AliasTree> {
        // Extension: U-Update
        let target_aliases = self.judge(target)?.all();
        self.judge_indices(indices)?;
        let value_aliases = self.judge(value)?.all();
        if let Some(shared) = value_aliases
            .iter()
            .filter(|name| target_aliases.contains(*name))
            .min_by_key(|name| name.id)
        {
            return Err(Diagnostic::error(format!(
                "The value written by the in-place update aliases the target `{}`.",
                shared.base
            ))
            .with_code(codes::UPDATE_ALIASES_TARGET)
            .with_primary(value.span, "aliases the target"));
        }
        self.consume(&target_aliases, target.span)?;
        Ok(AliasTree::empty())
    }

    /// U-Apply and U-SelfAlias: arguments left to right, then the
    /// consumption of those passed for `*` parameters.
    fn judge_application(
        &mut self,
        function: &Expr,
        args: &[Expr],
        expr: &Expr,
    ) -> Judgment<AliasTree> {
        // Extension: U-Apply
        let function_tree = self.judge(function)?;
        let signature = match &function.kind {
            ExprKind::Var { name, .. } => self.signatures.get(name).cloned(),
            _ => None,
        };
        let arg_trees = self.judge_all(args)?;
        let marks: Vec<Uniqueness> = (0..args.len())
            .map(|index| {
                signature
                    .as_ref()
                    .and_then(|signature| signature.params.get(index).cloned())
                    .unwrap_or_default()
            })
            .collect();
        let consumed_by_call = self.consume_arguments(args, &arg_trees, &marks)?;
        let full = signature
            .as_ref()
            .is_some_and(|signature| signature.params.len() == args.len());
        let result_uniqueness = match (&signature, full) {
            (Some(signature), true) => signature.result.clone(),
            _ => Uniqueness::Nonunique,
        };
        let mut shared: BTreeSet<VarName> = function_tree.all();
        for (arg, tree) in args.iter().zip(&arg_trees) {
            if !matches!(arg.ty, Type::Arrow { .. }) {
                shared.extend(tree.all());
            }
        }
        // Decision (uniqueness.md §7a): a call's result does not alias the
        // top-level constants passed to it.
        shared.retain(|name| !consumed_by_call.contains(name) && !self.is_top_level(name));
        Ok(result_tree(&expr.ty, &result_uniqueness, &shared))
    }

    /// The consumption of the arguments passed for `*` parameters (marked by
    /// `marks`), after U-SelfAlias; returns what they consume.
    fn consume_arguments(
        &mut self,
        args: &[Expr],
        trees: &[AliasTree],
        marks: &[Uniqueness],
    ) -> Judgment<BTreeSet<VarName>> {
        let mut consumed = BTreeSet::new();
        for (index, (arg, mark)) in args.iter().zip(marks).enumerate() {
            let part = trees[index].unique_part(mark);
            if part.is_empty() && !mark.any_unique() {
                continue;
            }
            // Extension: U-SelfAlias
            if has_shared_alias(&trees[index].unique_leaves(mark)) {
                return Err(Diagnostic::error(
                    "Argument passed for consuming parameter is self-aliased (its components share storage).",
                )
                .with_code(codes::SELF_ALIASING_ARG)
                .with_primary(arg.span, "consumed argument"));
            }
            for (other_index, other) in args.iter().enumerate() {
                if other_index == index {
                    continue;
                }
                if let Some(shared) = trees[other_index]
                    .all()
                    .into_iter()
                    .filter(|name| part.contains(name))
                    .min_by_key(|name| name.id)
                {
                    return Err(Diagnostic::error(format!(
                        "Argument passed for consuming parameter is self-aliased (it aliases `{}`, another argument of the call).",
                        shared.base
                    ))
                    .with_code(codes::SELF_ALIASING_ARG)
                    .with_primary(arg.span, "consumed argument")
                    .with_secondary(other.span, "another argument aliasing it"));
                }
            }
            self.consume(&part, arg.span)?;
            consumed.extend(part);
        }
        Ok(consumed)
    }

    /// U-SOAC and the intrinsics of §7a.
    fn judge_intrinsic(
        &mut self,
        intrinsic: &Intrinsic,
        args: &[Expr],
        expr: &Expr,
    ) -> Judgment<AliasTree> {
        // Extension: U-SOAC
        let trees = self.judge_all(args)?;
        match intrinsic {
            Intrinsic::Scatter | Intrinsic::ReduceByIndex => {
                let mut marks = vec![Uniqueness::Nonunique; args.len()];
                if let Some(first) = marks.first_mut() {
                    *first = Uniqueness::Unique;
                }
                self.consume_arguments(args, &trees, &marks)?;
                Ok(AliasTree::empty())
            }
            Intrinsic::Map { .. }
            | Intrinsic::Scan
            | Intrinsic::Filter
            | Intrinsic::Partition
            | Intrinsic::Iota
            | Intrinsic::Replicate
            | Intrinsic::Concat
            | Intrinsic::Copy => Ok(AliasTree::empty()),
            _ => {
                let shared: BTreeSet<VarName> = args
                    .iter()
                    .zip(&trees)
                    .filter(|(arg, _)| !matches!(arg.ty, Type::Arrow { .. }))
                    .flat_map(|(_, tree)| tree.all())
                    .filter(|name| !self.is_top_level(name))
                    .collect();
                Ok(AliasTree::of_type(&expr.ty, &shared))
            }
        }
    }

    /// U-Match: each case from what was consumed before it.
    fn judge_match(&mut self, scrutinee: &Expr, cases: &[Case]) -> Judgment<AliasTree> {
        // Extension: U-Match
        let tree = self.judge(scrutinee)?;
        let before = self.consumed.clone();
        let mut after_all: HashMap<VarName, Span> = HashMap::new();
        let mut result: Option<AliasTree> = None;
        for case in cases {
            self.consumed = before.clone();
            self.bind_pattern(&case.pat, &tree, Kind::Local);
            let body = self.judge(&case.body)?;
            for (name, span) in self.consumed.drain() {
                after_all.entry(name).or_insert(span);
            }
            result = Some(match result {
                Some(previous) => previous.union(body),
                None => body,
            });
        }
        self.consumed = after_all;
        for (name, span) in before.iter() {
            self.consumed.entry(name.clone()).or_insert(*span);
        }
        let result = result.unwrap_or_else(AliasTree::empty);
        Ok(self.without_consumed_since(result, &before))
    }

    /// U-If, U-Match: a branch's result does not alias what a branch
    /// consumed (consumed since `before`): `if c then xs with [i] = v else
    /// xs` is fresh storage, and `xs` is consumed.
    fn without_consumed_since(
        &self,
        tree: AliasTree,
        before: &HashMap<VarName, Span>,
    ) -> AliasTree {
        tree.substitute(&|name| {
            (self.consumed.contains_key(name) && !before.contains_key(name)).then(BTreeSet::new)
        })
    }

    /// U-Loop: the body may consume only its own parameters (and locals);
    /// the initial value of a parameter it consumes is consumed by the loop.
    fn judge_loop(
        &mut self,
        pat: &Pat,
        declared: &Uniqueness,
        init: &Expr,
        form: &LoopForm,
        body: &Expr,
    ) -> Judgment<AliasTree> {
        // Extension: U-Loop
        let init_tree = self.judge(init)?;
        let element_tree = match form {
            LoopForm::For { bound, .. } => {
                self.judge(bound)?;
                None
            }
            LoopForm::ForIn { array, .. } => Some(self.judge(array)?),
            LoopForm::While { .. } => None,
        };
        let before = self.consumed.clone();
        let mut declared_unique = BTreeSet::new();
        declared_variables(pat, declared, &mut declared_unique);
        self.captured.push(BTreeSet::new());
        let body_result =
            self.judge_loop_body(pat, &declared_unique, form, element_tree.clone(), body);
        let captured = self.captured.pop().unwrap_or_default();
        let (body_tree, consumed_in_body) = body_result?;
        self.consumed = before;
        let consumed_init = consumed_components(pat, &init_tree, &consumed_in_body);
        self.consume(&consumed_init, init.span)?;
        if !consumed_init.is_disjoint(&captured) {
            // The body reads what the loop consumes (in place, its updates
            // would change what it reads): judged again with the
            // consumption recorded, for the located use-after-consume.
            let after = self.consumed.clone();
            self.captured.push(BTreeSet::new());
            let again = self.judge_loop_body(pat, &declared_unique, form, element_tree, body);
            self.captured.pop();
            again?;
            self.consumed = after;
        }
        let depth = self.depth();
        let outer_body = body_tree.substitute(&|name| match self.env.get(name) {
            Some(binding) if binding.depth > depth => Some(BTreeSet::new()),
            _ => None,
        });
        let kept_init = clear_components(pat, init_tree, &consumed_in_body);
        Ok(kept_init.union(outer_body))
    }

    /// The loop body, in the scope of the loop variables: its alias tree,
    /// and the loop variables it consumes (Futhark infers them) or the
    /// pattern declares `*`.
    fn judge_loop_body(
        &mut self,
        pat: &Pat,
        declared_unique: &BTreeSet<VarName>,
        form: &LoopForm,
        element_tree: Option<AliasTree>,
        body: &Expr,
    ) -> Judgment<(AliasTree, BTreeSet<VarName>)> {
        self.bind_parameter(pat, &Uniqueness::Unique);
        match form {
            LoopForm::For { var, bound } => {
                self.bind_variable(var, &bound.ty, AliasTree::empty(), Kind::Local);
            }
            LoopForm::ForIn { pat: element, .. } => {
                let whole = element_tree.map(|tree| tree.all()).unwrap_or_default();
                self.bind_pattern(
                    element,
                    &AliasTree::of_type(&element.ty, &whole),
                    Kind::Local,
                );
            }
            LoopForm::While { condition } => {
                self.judge(condition)?;
            }
        }
        let tree = self.judge(body)?;
        let consumed: BTreeSet<VarName> = pat
            .bound_vars()
            .into_iter()
            .map(|(name, _)| name.clone())
            .filter(|name| self.consumed.contains_key(name) || declared_unique.contains(name))
            .collect();
        self.loop_results_fresh(pat, &consumed, &tree, body.span)?;
        Ok((tree, consumed))
    }

    /// `loop-aliases`: what the body returns (`tree`) for a loop variable
    /// it consumes (or that the pattern declares `*`) is updated in place
    /// by the next iteration, so it may alias nothing bound outside the
    /// loop (the next iteration would write into it), no loop variable
    /// that is only observed (whose storage the loop does not own), and
    /// share no storage with another returned component (whose value the
    /// update would change). Judged in the body's scope.
    fn loop_results_fresh(
        &self,
        pat: &Pat,
        consumed: &BTreeSet<VarName>,
        tree: &AliasTree,
        span: Span,
    ) -> Judgment<()> {
        let mut parts = Vec::new();
        pattern_parts(pat, tree, &mut parts);
        let loop_variables: BTreeSet<&VarName> =
            pat.bound_vars().into_iter().map(|(name, _)| name).collect();
        let depth = self.depth();
        for (index, (variable, aliases)) in parts.iter().enumerate() {
            let Some(variable) = variable.filter(|v| consumed.contains(*v)) else {
                continue;
            };
            let mut outer: Vec<&VarName> = aliases
                .iter()
                .filter(|alias| {
                    self.env
                        .get(alias)
                        .is_none_or(|binding| binding.depth < depth)
                        || loop_variables.contains(alias) && !consumed.contains(*alias)
                })
                .collect();
            outer.sort_by_key(|alias| alias.id);
            let loop_aliases = |what: String| {
                Diagnostic::error(format!(
                    "Return value for consuming loop parameter `{}` aliases {what}.",
                    variable.base
                ))
                .with_code(codes::LOOP_ALIASES)
                .with_primary(span, "the new values of the loop parameters")
            };
            if let Some(alias) = outer.first() {
                return Err(loop_aliases(format!("`{}`", alias.base)));
            }
            let shared = parts.iter().enumerate().any(|(other, (_, other_aliases))| {
                other != index && !aliases.is_disjoint(other_aliases)
            });
            if shared {
                return Err(loop_aliases("another returned value".into()));
            }
        }
        Ok(())
    }
}

/// The variables of `pat` in a component that `declared` marks unique.
fn declared_variables(pat: &Pat, declared: &Uniqueness, out: &mut BTreeSet<VarName>) {
    match &pat.kind {
        PatKind::Var(name) if declared.any_unique() => {
            out.insert(name.clone());
        }
        PatKind::Record(fields) => {
            for (field, field_pat) in fields {
                declared_variables(field_pat, &declared.field(field), out);
            }
        }
        _ => {}
    }
}

/// The parts of a value with aliases `tree` that the variables of `pat`
/// (and its wildcards, unnamed) match, in the pattern's order.
fn pattern_parts<'p>(
    pat: &'p Pat,
    tree: &AliasTree,
    out: &mut Vec<(Option<&'p VarName>, BTreeSet<VarName>)>,
) {
    match &pat.kind {
        PatKind::Var(name) => out.push((Some(name), tree.all())),
        PatKind::Record(fields) => {
            for (field, field_pat) in fields {
                pattern_parts(field_pat, &tree.project(field, &field_pat.ty), out);
            }
        }
        PatKind::Wildcard | PatKind::Literal(_) | PatKind::Constructor { .. } => {
            out.push((None, tree.all()))
        }
    }
}

/// The tree of a call's result of type `ty`: fresh where `uniqueness` marks
/// it unique, else sharing `shared`.
fn result_tree(ty: &Type, uniqueness: &Uniqueness, shared: &BTreeSet<VarName>) -> AliasTree {
    match (uniqueness, ty) {
        (Uniqueness::Unique, _) => AliasTree::empty(),
        (Uniqueness::Record(_), Type::Record(fields)) => AliasTree::Record(
            fields
                .iter()
                .map(|(field, field_ty)| {
                    (
                        field.clone(),
                        result_tree(field_ty, &uniqueness.field(field), shared),
                    )
                })
                .collect(),
        ),
        _ => AliasTree::of_type(ty, shared),
    }
}

/// `tree` with the component at `path` (of a record of type `ty`) replaced
/// by `value`.
fn replace_path(tree: AliasTree, ty: &Type, path: &[FieldName], value: AliasTree) -> AliasTree {
    let Some((field, rest)) = path.split_first() else {
        return value;
    };
    let Type::Record(fields) = ty else {
        return tree.union(value);
    };
    let mut parts: BTreeMap<FieldName, AliasTree> = fields
        .iter()
        .map(|(name, field_ty)| (name.clone(), tree.project(name, field_ty)))
        .collect();
    if let (Some(part), Some(field_ty)) = (parts.remove(field), fields.get(field)) {
        parts.insert(field.clone(), replace_path(part, field_ty, rest, value));
    }
    AliasTree::Record(parts)
}

/// The aliases of the components of `tree` (matched by `pat`) whose
/// variable is in `consumed`.
fn consumed_components(
    pat: &Pat,
    tree: &AliasTree,
    consumed: &BTreeSet<VarName>,
) -> BTreeSet<VarName> {
    match &pat.kind {
        PatKind::Var(name) if consumed.contains(name) => tree.all(),
        PatKind::Record(fields) => fields
            .iter()
            .flat_map(|(field, field_pat)| {
                consumed_components(field_pat, &tree.project(field, &field_pat.ty), consumed)
            })
            .collect(),
        _ => BTreeSet::new(),
    }
}

/// `tree` with the components whose variable is in `consumed` made fresh.
fn clear_components(pat: &Pat, tree: AliasTree, consumed: &BTreeSet<VarName>) -> AliasTree {
    match &pat.kind {
        PatKind::Var(name) if consumed.contains(name) => AliasTree::empty(),
        PatKind::Record(fields) => AliasTree::Record(
            fields
                .iter()
                .map(|(field, field_pat)| {
                    (
                        field.clone(),
                        clear_components(field_pat, tree.project(field, &field_pat.ty), consumed),
                    )
                })
                .collect(),
        ),
        _ => tree,
    }
}
