//! Which constructs a program uses: a walk over the surface tree that names
//! each construct it meets (for the coverage test and campaign reports).

use spec::syntax::ast::*;
use std::collections::{BTreeMap, BTreeSet};

/// Every construct the generator promises to produce, by the name
/// [`constructs`] reports.
pub const PROMISED: &[&str] = &[
    // module level
    "module type",
    "abstract type spec",
    "manifest type spec",
    "functor result signature",
    "val spec",
    "module spec",
    "include",
    "with refinement",
    "structure",
    "opaque ascription",
    "ascription expression",
    "functor",
    "curried functor",
    "module lambda",
    "functor application",
    "partial application",
    "higher-order functor",
    "open",
    "local",
    "nested module",
    "shadowing",
    // declarations
    "type abbreviation",
    "parametric type abbreviation",
    "sum type",
    "record type",
    "def",
    "entry",
    "size parameter",
    "type parameter",
    "lifted type parameter",
    "higher-order function",
    "function-returning function",
    "operator definition",
    "existential return type",
    // expressions
    "literal",
    "variable",
    "qualified variable",
    "projection",
    "tuple",
    "record",
    "record holding a function",
    "array literal",
    "range",
    "range with step",
    "downward range",
    "index",
    "slice",
    "application",
    "binary operator",
    "pipe",
    "backtick operator",
    "negation",
    "not",
    "operator section",
    "left section",
    "right section",
    "projection section",
    "index section",
    "if",
    "let",
    "let destructuring",
    "let sizes",
    "local function",
    "let with",
    "lambda",
    "loop for",
    "loop for-in",
    "loop while",
    "update",
    "slice update",
    "assert",
    "record update",
    "type ascription",
    "coercion",
    "match",
    "match sum",
    "constructor",
    "open in",
    "conversion",
    // library
    "map",
    "map2",
    "reduce",
    "scan",
    "filter",
    "iota",
    "replicate",
    "zip",
    "length",
    "reverse",
    "concat",
    "transpose",
];

#[derive(Default)]
struct Walker {
    found: BTreeSet<&'static str>,
    binders: BTreeMap<String, usize>,
    applied_results: BTreeSet<String>,
}

/// The constructs `program` uses (names from [`PROMISED`]).
pub fn constructs(program: &Program) -> BTreeSet<&'static str> {
    let mut walker = Walker::default();
    walker.decs(&program.decs, true);
    if walker.binders.values().any(|count| *count > 1) {
        walker.found.insert("shadowing");
    }
    walker.found
}

impl Walker {
    fn add(&mut self, name: &'static str) {
        self.found.insert(name);
    }

    fn bind(&mut self, name: &str) {
        *self.binders.entry(name.to_string()).or_insert(0) += 1;
    }

    fn decs(&mut self, decs: &[Dec], top: bool) {
        for dec in decs {
            self.dec(dec, top);
        }
    }

    fn dec(&mut self, dec: &Dec, top: bool) {
        match dec {
            Dec::Value(bind) => {
                self.add(match bind.kind {
                    ValueBindKind::Def => "def",
                    ValueBindKind::Entry => "entry",
                });
                if spec::syntax::operators::is_operator_name(&bind.name) {
                    self.add("operator definition");
                }
                self.bind(&bind.name);
                for param in &bind.type_params {
                    self.add(match param {
                        TypeParam::Size { .. } => "size parameter",
                        TypeParam::Type {
                            liftedness: Liftedness::Lifted,
                            ..
                        } => "lifted type parameter",
                        TypeParam::Type { .. } => "type parameter",
                    });
                }
                for param in &bind.params {
                    if let Pat::Ascribe {
                        ty: TypeExp::Arrow { .. },
                        ..
                    } = param
                    {
                        self.add("higher-order function");
                    }
                    self.pat(param);
                }
                if let Some(TypeExp::Existential { .. }) = &bind.return_type {
                    self.add("existential return type");
                }
                if let Some(TypeExp::Arrow { .. }) = &bind.return_type {
                    if !bind.params.is_empty() {
                        self.add("function-returning function");
                    }
                }
                self.expr(&bind.body);
            }
            Dec::Type(bind) => {
                if bind.name != "t" {
                    self.add("type abbreviation");
                }
                if !bind.params.is_empty() {
                    self.add("parametric type abbreviation");
                }
                match &bind.definition {
                    TypeExp::Sum { .. } => self.add("sum type"),
                    TypeExp::Record { .. } => self.add("record type"),
                    _ => {}
                }
            }
            Dec::Module(bind) => {
                if !top {
                    self.add("nested module");
                }
                if !bind.params.is_empty() {
                    self.add("functor");
                    if bind.params.len() > 1 {
                        self.add("curried functor");
                    }
                    for param in &bind.params {
                        self.mod_type(&param.mod_type);
                        if let ModTypeExp::Signature { specs, .. } = &param.mod_type {
                            if specs.iter().any(|spec| {
                                matches!(
                                    spec,
                                    Spec::Module {
                                        mod_type: ModTypeExp::Arrow { .. },
                                        ..
                                    }
                                )
                            }) {
                                self.add("higher-order functor");
                            }
                        }
                    }
                }
                if let Some(signature) = &bind.signature {
                    self.add(if bind.params.is_empty() {
                        "opaque ascription"
                    } else {
                        "functor result signature"
                    });
                    self.mod_type(signature);
                }
                if matches!(bind.body, ModExp::Apply { .. }) {
                    self.applied_results.insert(bind.name.clone());
                }
                self.mod_exp(&bind.body);
            }
            Dec::ModuleType(bind) => {
                self.add("module type");
                self.mod_type(&bind.definition);
            }
            Dec::Open { module, .. } => {
                self.add("open");
                self.mod_exp(module);
            }
            Dec::Import { .. } => {}
            Dec::Local { dec, .. } => {
                self.add("local");
                self.dec(dec, top);
            }
            Dec::Attr { dec, .. } => self.dec(dec, top),
        }
    }

    fn mod_exp(&mut self, module: &ModExp) {
        match module {
            ModExp::Var(_) | ModExp::Import { .. } => {}
            ModExp::Struct { decs, .. } => {
                self.add("structure");
                self.decs(decs, false);
            }
            ModExp::Ascribe {
                module, mod_type, ..
            } => {
                self.add("opaque ascription");
                self.add("ascription expression");
                self.mod_exp(module);
                self.mod_type(mod_type);
            }
            ModExp::Lambda {
                param,
                result,
                body,
                ..
            } => {
                self.add("functor");
                self.add("module lambda");
                if let Some(result) = result {
                    self.add("functor result signature");
                    self.mod_type(result);
                }
                self.mod_type(&param.mod_type);
                self.mod_exp(body);
            }
            ModExp::Apply {
                functor, argument, ..
            } => {
                self.add("functor application");
                if let ModExp::Var(name) = functor.as_ref() {
                    if self.applied_results.contains(&name.name) {
                        self.add("partial application");
                    }
                }
                self.mod_exp(functor);
                self.mod_exp(argument);
            }
        }
    }

    fn mod_type(&mut self, mod_type: &ModTypeExp) {
        match mod_type {
            ModTypeExp::Var(_) => {}
            ModTypeExp::Signature { specs, .. } => {
                for spec in specs {
                    match spec {
                        Spec::Val { .. } => self.add("val spec"),
                        Spec::Type {
                            definition: None, ..
                        } => self.add("abstract type spec"),
                        Spec::Type { .. } => self.add("manifest type spec"),
                        Spec::Module { mod_type, .. } => {
                            self.add("module spec");
                            self.mod_type(mod_type);
                        }
                        Spec::Include { mod_type, .. } => {
                            self.add("include");
                            self.mod_type(mod_type);
                        }
                    }
                }
            }
            ModTypeExp::With { mod_type, .. } => {
                self.add("with refinement");
                self.mod_type(mod_type);
            }
            ModTypeExp::Arrow { from, to, .. } => {
                self.mod_type(from);
                self.mod_type(to);
            }
        }
    }

    fn pat(&mut self, pat: &Pat) {
        match pat {
            Pat::Var { name, .. } => self.bind(name),
            Pat::Wildcard { .. } | Pat::Literal { .. } => {}
            Pat::Tuple { elements, .. } => elements.iter().for_each(|p| self.pat(p)),
            Pat::Record { fields, .. } => fields.iter().for_each(|(_, p)| self.pat(p)),
            Pat::Constructor { payload, .. } => payload.iter().for_each(|p| self.pat(p)),
            Pat::Ascribe { pat, .. } | Pat::Attr { pat, .. } => self.pat(pat),
        }
    }

    fn dim_indices(&mut self, indices: &[DimIndex]) {
        for index in indices {
            match index {
                DimIndex::Index(e) => self.expr(e),
                DimIndex::Slice { start, end, stride } => {
                    self.add("slice");
                    for e in [start, end, stride].into_iter().flatten() {
                        self.expr(e);
                    }
                }
            }
        }
    }

    fn expr(&mut self, expr: &Expr) {
        spec::recursion::with_stack(|| self.expr_inner(expr))
    }

    fn expr_inner(&mut self, expr: &Expr) {
        match expr {
            Expr::Literal { .. } => self.add("literal"),
            Expr::Var(name) => {
                if name.qualifiers.is_empty() {
                    self.add("variable");
                } else {
                    self.add("qualified variable");
                }
                let library = match name.name.as_str() {
                    spec::syntax::ast::ASSERT => Some("assert"),
                    "map" => Some("map"),
                    "map2" => Some("map2"),
                    "reduce" => Some("reduce"),
                    "scan" => Some("scan"),
                    "filter" => Some("filter"),
                    "iota" => Some("iota"),
                    "replicate" => Some("replicate"),
                    "zip" => Some("zip"),
                    "length" => Some("length"),
                    "reverse" => Some("reverse"),
                    "concat" => Some("concat"),
                    "transpose" => Some("transpose"),
                    _ => None,
                };
                if let Some(library) = library {
                    if name.qualifiers.is_empty() {
                        self.add(library);
                    }
                }
                if name.qualifiers.len() == 1
                    && spec::value::PrimType::from_name(&name.qualifiers[0]).is_some()
                {
                    self.add("conversion");
                }
            }
            Expr::Project { expr, .. } => {
                self.add("projection");
                self.expr(expr);
            }
            Expr::Tuple { elements, .. } => {
                self.add("tuple");
                elements.iter().for_each(|e| self.expr(e));
            }
            Expr::Record { fields, .. } => {
                self.add("record");
                if fields.iter().any(|(_, e)| {
                    matches!(
                        e,
                        Expr::Lambda { .. }
                            | Expr::OpSection { .. }
                            | Expr::LeftSection { .. }
                            | Expr::RightSection { .. }
                    )
                }) {
                    self.add("record holding a function");
                }
                fields.iter().for_each(|(_, e)| self.expr(e));
            }
            Expr::Array { elements, .. } => {
                self.add("array literal");
                elements.iter().for_each(|e| self.expr(e));
            }
            Expr::Range {
                start,
                step,
                end,
                end_kind,
                ..
            } => {
                self.add("range");
                if *end_kind == RangeEnd::DownToExclusive {
                    self.add("downward range");
                }
                self.expr(start);
                if let Some(step) = step {
                    self.add("range with step");
                    self.expr(step);
                }
                self.expr(end);
            }
            Expr::Index { array, indices, .. } => {
                self.add("index");
                self.expr(array);
                self.dim_indices(indices);
            }
            Expr::Apply {
                function, argument, ..
            } => {
                self.add("application");
                self.expr(function);
                self.expr(argument);
            }
            Expr::BinOp { op, lhs, rhs, .. } => {
                self.add("binary operator");
                match op {
                    BinOp::Backtick(_) => self.add("backtick operator"),
                    BinOp::Symbol(name) => match name.name.as_str() {
                        "|>" | "<|" => self.add("pipe"),
                        "++" => self.add("concat"),
                        _ => {}
                    },
                }
                self.expr(lhs);
                self.expr(rhs);
            }
            Expr::Negate { expr, .. } => {
                self.add("negation");
                self.expr(expr);
            }
            Expr::Not { expr, .. } => {
                self.add("not");
                self.expr(expr);
            }
            Expr::OpSection { .. } => self.add("operator section"),
            Expr::LeftSection { left, .. } => {
                self.add("left section");
                self.expr(left);
            }
            Expr::RightSection { right, .. } => {
                self.add("right section");
                self.expr(right);
            }
            Expr::ProjectSection { .. } => self.add("projection section"),
            Expr::IndexSection { indices, .. } => {
                self.add("index section");
                self.dim_indices(indices);
            }
            Expr::If {
                condition,
                then_branch,
                else_branch,
                ..
            } => {
                self.add("if");
                self.expr(condition);
                self.expr(then_branch);
                self.expr(else_branch);
            }
            Expr::Let {
                sizes,
                pat,
                value,
                body,
                ..
            } => {
                self.add("let");
                if !sizes.is_empty() {
                    self.add("let sizes");
                }
                if matches!(pat, Pat::Tuple { .. } | Pat::Record { .. }) {
                    self.add("let destructuring");
                }
                self.pat(pat);
                self.expr(value);
                self.expr(body);
            }
            Expr::LetFun {
                name,
                params,
                value,
                body,
                ..
            } => {
                self.add("local function");
                self.bind(name);
                params.iter().for_each(|p| self.pat(p));
                self.expr(value);
                self.expr(body);
            }
            Expr::LetWith {
                indices,
                value,
                body,
                ..
            } => {
                self.add("let with");
                self.dim_indices(indices);
                self.expr(value);
                self.expr(body);
            }
            Expr::Lambda { params, body, .. } => {
                self.add("lambda");
                params.iter().for_each(|p| self.pat(p));
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
                    LoopForm::For { bound, .. } => {
                        self.add("loop for");
                        self.expr(bound);
                    }
                    LoopForm::ForIn { pat, array } => {
                        self.add("loop for-in");
                        self.pat(pat);
                        self.expr(array);
                    }
                    LoopForm::While { condition } => {
                        self.add("loop while");
                        self.expr(condition);
                    }
                }
                self.expr(body);
            }
            Expr::Update {
                target,
                indices,
                value,
                ..
            } => {
                self.add("update");
                if indices
                    .iter()
                    .any(|index| matches!(index, DimIndex::Slice { .. }))
                {
                    self.add("slice update");
                }
                self.expr(target);
                self.dim_indices(indices);
                self.expr(value);
            }
            Expr::RecordUpdate { target, value, .. } => {
                self.add("record update");
                self.expr(target);
                self.expr(value);
            }
            Expr::Ascribe { expr, .. } => {
                if !matches!(expr.as_ref(), Expr::Constructor { .. }) {
                    self.add("type ascription");
                }
                self.expr(expr);
            }
            Expr::Coerce { expr, .. } => {
                self.add("coercion");
                self.expr(expr);
            }
            Expr::Match {
                scrutinee, cases, ..
            } => {
                self.add("match");
                if cases
                    .iter()
                    .any(|c| matches!(c.pat, Pat::Constructor { .. }))
                {
                    self.add("match sum");
                }
                self.expr(scrutinee);
                for case in cases {
                    self.pat(&case.pat);
                    self.expr(&case.body);
                }
            }
            Expr::Constructor { payload, .. } => {
                self.add("constructor");
                payload.iter().for_each(|e| self.expr(e));
            }
            Expr::OpenIn { body, .. } => {
                self.add("open in");
                self.expr(body);
            }
            Expr::Attr { expr, .. } => self.expr(expr),
        }
    }
}
