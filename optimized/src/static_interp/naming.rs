//! The last step of static interpretation: keep what the entry points
//! reach, then give every kept declaration its final name and write it in.
//!
//! Entry points keep their names. Every other declaration keeps its base
//! name unless that name is taken by an earlier kept declaration, by a local
//! binder in scope at one of its uses (which would capture it) or by a name
//! the program uses unbound (a built-in); then it gets `base_N` (an
//! operator: `op_WORDS_N`). A renamed operator is no longer an operator: its infix
//! uses become applications, its sections a variable, an application or a
//! lambda.

use spec::source::Span;
use spec::syntax::ast::{
    BinOp, Dec, DimIndex, Expr, LoopForm, Name, Pat, Program, QualName, SizeExp, TypeArg, TypeExp,
};
use spec::syntax::operators::is_operator_name;
use std::collections::HashSet;

use super::env::SymbolId;
use super::{provisional_symbol, Interpreter, Namespace};

/// The output program: the reachable declarations, in emission order, with
/// their final names.
pub(crate) fn finish(interpreter: &Interpreter<'_>) -> Program {
    write_out(interpreter, &reachable_symbols(interpreter))
}

/// Every declaration of the program's own files and what they reach, with
/// final names (for judgments that, as Futhark, look at unused definitions
/// too: the uniqueness judgment).
pub(crate) fn finish_everything(interpreter: &Interpreter<'_>) -> Program {
    let roots = interpreter
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, symbol)| symbol.from_program || symbol.entry_point)
        .map(|(index, _)| SymbolId(index as u32))
        .collect();
    write_out(interpreter, &reach(interpreter, roots))
}

/// The `reachable` declarations, in emission order, with their final names.
fn write_out(interpreter: &Interpreter<'_>, reachable: &[bool]) -> Program {
    let names = final_names(interpreter, reachable);
    let mut renamer = Renamer {
        names,
        local_values: &interpreter.local_values,
        free_values: &interpreter.free_values,
        section_variables: 0,
    };
    let mut decs = Vec::new();
    for (index, symbol) in interpreter.symbols.iter().enumerate() {
        if let (true, Some(dec)) = (reachable[index], &symbol.dec) {
            let mut dec = dec.clone();
            renamer.dec(&mut dec);
            decs.push(dec);
        }
    }
    Program { decs }
}

/// The symbols `roots` reach through their uses.
fn reach(interpreter: &Interpreter<'_>, mut pending: Vec<SymbolId>) -> Vec<bool> {
    let mut reachable = vec![false; interpreter.symbols.len()];
    while let Some(symbol) = pending.pop() {
        let index = symbol.0 as usize;
        if !reachable[index] {
            reachable[index] = true;
            pending.extend(interpreter.symbols[index].uses.iter().copied());
        }
    }
    reachable
}

/// Which symbols the roots reach: the entry points and the program's
/// monomorphic constants that may fail (every entry point evaluates them
/// first, as the reference does, so an unused one's run-time error is
/// reported; a total one, [`super::totality`], has none to report), or, in
/// a program without entry points, every declaration of the program's own
/// files.
fn reachable_symbols(interpreter: &Interpreter<'_>) -> Vec<bool> {
    let symbols = &interpreter.symbols;
    let has_entry_points = symbols.iter().any(|symbol| symbol.entry_point);
    let total = super::totality::total_symbols(symbols, &interpreter.free_values);
    let roots = symbols
        .iter()
        .enumerate()
        .filter(|&(index, symbol)| {
            if has_entry_points {
                symbol.entry_point || (symbol.from_program && is_constant(symbol) && !total[index])
            } else {
                symbol.from_program
            }
        })
        .map(|(index, _)| SymbolId(index as u32))
        .collect();
    reach(interpreter, roots)
}

/// A `def` of no parameters and no type parameters.
fn is_constant(symbol: &super::Symbol) -> bool {
    matches!(
        &symbol.dec,
        Some(spec::syntax::ast::Dec::Value(bind))
            if bind.params.is_empty() && bind.type_params.is_empty()
    )
}

/// The final name of every reachable symbol (`None` for the others).
fn final_names(interpreter: &Interpreter<'_>, reachable: &[bool]) -> Vec<Option<Name>> {
    let mut names: Vec<Option<Name>> = vec![None; interpreter.symbols.len()];
    let mut taken_values: HashSet<Name> = HashSet::new();
    let mut taken_types: HashSet<Name> = HashSet::new();
    // The next number to try for each stem, by namespace, so that the
    // k-th `add` is named in O(1), not after trying `add_1` … `add_k`.
    let mut next_number: std::collections::HashMap<(Name, bool), usize> =
        std::collections::HashMap::new();
    // Entry points first: they keep their names.
    for (index, symbol) in interpreter.symbols.iter().enumerate() {
        if reachable[index] && symbol.entry_point && taken_values.insert(symbol.base.clone()) {
            names[index] = Some(symbol.base.clone());
        }
    }
    for (index, symbol) in interpreter.symbols.iter().enumerate() {
        if !reachable[index] || names[index].is_some() {
            continue;
        }
        let (taken, free) = match symbol.namespace {
            Namespace::Value => (&mut taken_values, &interpreter.free_values),
            Namespace::Type => (&mut taken_types, &interpreter.free_types),
        };
        let locals = &symbol.captured_by;
        let available =
            |name: &str| !taken.contains(name) && !locals.contains(name) && !free.contains(name);
        let name = if available(&symbol.base) && !is_primitive_type_name(&symbol.base) {
            symbol.base.clone()
        } else {
            let stem = if is_operator_name(&symbol.base) {
                operator_stem(&symbol.base)
            } else {
                symbol.base.clone()
            };
            let next = next_number
                .entry((stem.clone(), symbol.namespace == Namespace::Value))
                .or_insert(1);
            let (number, candidate) = (*next..)
                .map(|n| (n, format!("{stem}_{n}")))
                .find(|(_, candidate)| available(candidate))
                .expect("some numbered name is free");
            *next = number + 1;
            candidate
        };
        taken.insert(name.clone());
        names[index] = Some(name);
    }
    names
}

/// Primitive type names: never given to a declared type (even when the
/// program does not mention them, the checker of the output knows them),
/// nor to a value: they are also the names of the prelude's numeric modules
/// (`f32.sqrt`), and Futhark's values and modules share one name space, so
/// a value `f64` (the numeric modules' conversion functions are called so)
/// would hide the module `f64` from a reader of the output.
fn is_primitive_type_name(name: &str) -> bool {
    matches!(
        name,
        "i8" | "i16"
            | "i32"
            | "i64"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "f16"
            | "f32"
            | "f64"
            | "bool"
    )
}

/// An identifier for a renamed operator: `+^` becomes `op_plus_hat`.
fn operator_stem(symbol: &str) -> String {
    let mut stem = String::from("op");
    for c in symbol.chars() {
        stem.push('_');
        stem.push_str(match c {
            '+' => "plus",
            '-' => "minus",
            '*' => "times",
            '/' => "slash",
            '%' => "percent",
            '=' => "eq",
            '!' => "bang",
            '>' => "gt",
            '<' => "lt",
            '&' => "amp",
            '^' => "hat",
            '|' => "bar",
            '.' => "dot",
            _ => "sym",
        });
    }
    stem
}

/// Writes the final names into the declarations.
struct Renamer<'a> {
    names: Vec<Option<Name>>,
    local_values: &'a HashSet<Name>,
    free_values: &'a HashSet<Name>,
    section_variables: usize,
}

impl Renamer<'_> {
    fn final_name(&self, name: &str) -> Option<Name> {
        let symbol = provisional_symbol(name)?;
        Some(
            self.names[symbol.0 as usize]
                .clone()
                .unwrap_or_else(|| name.to_string()),
        )
    }

    fn rename(&self, name: &mut Name) {
        if let Some(renamed) = self.final_name(name) {
            *name = renamed;
        }
    }

    /// The first part of a qualified name is the one that can be a global
    /// (`x`, or `r` in a projection `r.f`).
    fn qual_name(&self, name: &mut QualName) {
        match name.qualifiers.first_mut() {
            Some(first) => self.rename(first),
            None => self.rename(&mut name.name),
        }
    }

    fn dec(&mut self, dec: &mut Dec) {
        match dec {
            Dec::Value(bind) => {
                self.rename(&mut bind.name);
                for param in &mut bind.params {
                    self.pat(param);
                }
                if let Some(ty) = &mut bind.return_type {
                    self.type_exp(ty);
                }
                self.expr(&mut bind.body);
            }
            Dec::Type(bind) => {
                self.rename(&mut bind.name);
                self.type_exp(&mut bind.definition);
            }
            // Static interpretation emits nothing else.
            _ => {}
        }
    }

    fn type_exp(&mut self, ty: &mut TypeExp) {
        spec::recursion::with_stack(|| match ty {
            TypeExp::Var(name) => self.qual_name(name),
            TypeExp::Apply {
                constructor, args, ..
            } => {
                self.qual_name(constructor);
                for arg in args {
                    match arg {
                        TypeArg::Size { size, .. } => self.size(size),
                        TypeArg::Type(ty) => self.type_exp(ty),
                    }
                }
            }
            TypeExp::Array { size, element, .. } => {
                self.size(size);
                self.type_exp(element);
            }
            TypeExp::Tuple { elements, .. } => elements.iter_mut().for_each(|ty| self.type_exp(ty)),
            TypeExp::Record { fields, .. } => {
                fields.iter_mut().for_each(|(_, ty)| self.type_exp(ty))
            }
            TypeExp::Arrow { from, to, .. } => {
                self.type_exp(from);
                self.type_exp(to);
            }
            TypeExp::Sum { constructors, .. } => {
                for constructor in constructors {
                    constructor
                        .payload
                        .iter_mut()
                        .for_each(|ty| self.type_exp(ty));
                }
            }
            TypeExp::Unique { ty, .. } | TypeExp::Existential { ty, .. } => self.type_exp(ty),
        })
    }

    fn size(&mut self, size: &mut SizeExp) {
        match size {
            SizeExp::Named(name) => self.qual_name(name),
            SizeExp::Expression(expression) => self.expr(expression),
            SizeExp::Anonymous | SizeExp::Constant(_) => {}
        }
    }

    fn pat(&mut self, pat: &mut Pat) {
        spec::recursion::with_stack(|| match pat {
            Pat::Var { .. } | Pat::Wildcard { .. } | Pat::Literal { .. } => {}
            Pat::Tuple { elements, .. }
            | Pat::Constructor {
                payload: elements, ..
            } => elements.iter_mut().for_each(|pat| self.pat(pat)),
            Pat::Record { fields, .. } => fields.iter_mut().for_each(|(_, pat)| self.pat(pat)),
            Pat::Ascribe { pat, ty, .. } => {
                self.pat(pat);
                self.type_exp(ty);
            }
            Pat::Attr { pat, .. } => self.pat(pat),
        })
    }

    fn indices(&mut self, indices: &mut [DimIndex]) {
        for index in indices {
            match index {
                DimIndex::Index(expr) => self.expr(expr),
                DimIndex::Slice { start, end, stride } => {
                    for expr in [start, end, stride].into_iter().flatten() {
                        self.expr(expr);
                    }
                }
            }
        }
    }

    /// The operator's final name, when it was renamed to an identifier.
    fn renamed_to_identifier(&self, op: &BinOp) -> Option<QualName> {
        let BinOp::Symbol(name) = op else { return None };
        if !name.qualifiers.is_empty() {
            return None;
        }
        let renamed = self.final_name(&name.name)?;
        (!is_operator_name(&renamed)).then(|| QualName::unqualified(renamed, name.span))
    }

    /// A variable name for a right section's lambda that nothing captures.
    fn section_variable(&mut self) -> Name {
        loop {
            self.section_variables += 1;
            let candidate = format!("section_operand_{}", self.section_variables);
            if !self.local_values.contains(&candidate)
                && !self.free_values.contains(&candidate)
                && !self.names.iter().flatten().any(|name| *name == candidate)
            {
                return candidate;
            }
        }
    }

    fn expr(&mut self, expr: &mut Expr) {
        spec::recursion::with_stack(|| self.expr_inner(expr))
    }

    fn expr_inner(&mut self, expr: &mut Expr) {
        let span = expr.span();
        match expr {
            Expr::Literal { .. } | Expr::ProjectSection { .. } => {}
            Expr::Var(name) => {
                let was_global =
                    name.qualifiers.is_empty() && provisional_symbol(&name.name).is_some();
                self.qual_name(name);
                if was_global && is_operator_name(&name.name) {
                    let op = BinOp::Symbol(name.clone());
                    *expr = Expr::OpSection { op, span };
                }
            }
            Expr::Project { expr, .. }
            | Expr::Negate { expr, .. }
            | Expr::Not { expr, .. }
            | Expr::Attr { expr, .. } => self.expr(expr),
            Expr::Tuple { elements, .. } | Expr::Array { elements, .. } => {
                elements.iter_mut().for_each(|expr| self.expr(expr))
            }
            Expr::Constructor { payload, .. } => {
                payload.iter_mut().for_each(|expr| self.expr(expr))
            }
            Expr::Record { fields, .. } => fields.iter_mut().for_each(|(_, expr)| self.expr(expr)),
            Expr::Range {
                start, step, end, ..
            } => {
                self.expr(start);
                if let Some(step) = step {
                    self.expr(step);
                }
                self.expr(end);
            }
            Expr::Index { array, indices, .. } => {
                self.expr(array);
                self.indices(indices);
            }
            Expr::IndexSection { indices, .. } => self.indices(indices),
            Expr::Apply {
                function, argument, ..
            } => {
                self.expr(function);
                self.expr(argument);
            }
            Expr::BinOp { op, lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
                match self.renamed_to_identifier(op) {
                    Some(function) => {
                        let lhs = std::mem::replace(lhs.as_mut(), placeholder(span));
                        let rhs = std::mem::replace(rhs.as_mut(), placeholder(span));
                        *expr = apply(apply(Expr::Var(function), lhs, span), rhs, span);
                    }
                    None => self.op(op),
                }
            }
            Expr::OpSection { op, .. } => match self.renamed_to_identifier(op) {
                Some(function) => *expr = Expr::Var(function),
                None => self.op(op),
            },
            Expr::LeftSection { op, left, .. } => {
                self.expr(left);
                match self.renamed_to_identifier(op) {
                    Some(function) => {
                        let left = std::mem::replace(left.as_mut(), placeholder(span));
                        *expr = apply(Expr::Var(function), left, span);
                    }
                    None => self.op(op),
                }
            }
            Expr::RightSection { op, right, .. } => {
                self.expr(right);
                match self.renamed_to_identifier(op) {
                    Some(function) => {
                        let right = std::mem::replace(right.as_mut(), placeholder(span));
                        let variable = self.section_variable();
                        let operand = Expr::Var(QualName::unqualified(variable.clone(), span));
                        *expr = Expr::Lambda {
                            params: vec![Pat::Var {
                                name: variable,
                                span,
                            }],
                            return_type: None,
                            body: Box::new(apply(
                                apply(Expr::Var(function), operand, span),
                                right,
                                span,
                            )),
                            span,
                        };
                    }
                    None => self.op(op),
                }
            }
            Expr::If {
                condition,
                then_branch,
                else_branch,
                ..
            } => {
                self.expr(condition);
                self.expr(then_branch);
                self.expr(else_branch);
            }
            Expr::Let {
                pat, value, body, ..
            } => {
                self.pat(pat);
                self.expr(value);
                self.expr(body);
            }
            Expr::LetFun {
                params,
                return_type,
                value,
                body,
                ..
            } => {
                params.iter_mut().for_each(|pat| self.pat(pat));
                if let Some(ty) = return_type {
                    self.type_exp(ty);
                }
                self.expr(value);
                self.expr(body);
            }
            Expr::LetWith {
                indices,
                value,
                body,
                ..
            } => {
                self.indices(indices);
                self.expr(value);
                self.expr(body);
            }
            Expr::Lambda {
                params,
                return_type,
                body,
                ..
            } => {
                params.iter_mut().for_each(|pat| self.pat(pat));
                if let Some(ty) = return_type {
                    self.type_exp(ty);
                }
                self.expr(body);
            }
            Expr::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => {
                self.pat(pat);
                if let Some(init) = init {
                    self.expr(init);
                }
                match form {
                    LoopForm::For { bound, .. } => self.expr(bound),
                    LoopForm::ForIn { pat, array } => {
                        self.pat(pat);
                        self.expr(array);
                    }
                    LoopForm::While { condition } => self.expr(condition),
                }
                self.expr(body);
            }
            Expr::Update {
                target,
                indices,
                value,
                ..
            } => {
                self.expr(target);
                self.indices(indices);
                self.expr(value);
            }
            Expr::RecordUpdate { target, value, .. } => {
                self.expr(target);
                self.expr(value);
            }
            Expr::Ascribe { expr, ty, .. } | Expr::Coerce { expr, ty, .. } => {
                self.expr(expr);
                self.type_exp(ty);
            }
            Expr::Match {
                scrutinee, cases, ..
            } => {
                self.expr(scrutinee);
                for case in cases {
                    self.pat(&mut case.pat);
                    self.expr(&mut case.body);
                }
            }
            Expr::OpenIn { body, .. } => self.expr(body),
        }
    }

    fn op(&self, op: &mut BinOp) {
        match op {
            BinOp::Symbol(name) | BinOp::Backtick(name) => self.qual_name(name),
        }
    }
}

fn placeholder(span: Span) -> Expr {
    Expr::Tuple {
        elements: Vec::new(),
        span,
    }
}

fn apply(function: Expr, argument: Expr, span: Span) -> Expr {
    Expr::Apply {
        function: Box::new(function),
        argument: Box::new(argument),
        span,
    }
}
