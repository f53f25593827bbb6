//! Properties of the printer over generated trees (the round trip through the
//! parser lives with the parser), and a check that the generators of
//! `syntax_gen` reach every variant of every syntax enum and both sides of
//! every optional field and list.

mod syntax_gen;

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use spec::syntax::ast::*;
use spec::syntax::printer::{print_expr, print_program};

/// Brackets balance outside string literals, and nothing starts a comment.
fn check_lexically_sane(text: &str) -> Result<(), String> {
    let mut stack = Vec::new();
    let mut in_string = false;
    let mut prev = ' ';
    for c in text.chars() {
        if in_string {
            in_string = c != '"';
        } else {
            match c {
                '"' => in_string = true,
                '(' | '[' | '{' => stack.push(c),
                ')' | ']' | '}' => {
                    let open = stack.pop().ok_or("unbalanced closing bracket")?;
                    if !matches!((open, c), ('(', ')') | ('[', ']') | ('{', '}')) {
                        return Err(format!("{open} closed by {c}"));
                    }
                }
                '-' if prev == '-' => return Err("`--` starts a comment".into()),
                _ => {}
            }
        }
        prev = c;
    }
    if stack.is_empty() && !in_string {
        Ok(())
    } else {
        Err("unbalanced brackets".into())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn printed_programs_are_lexically_sane(program in syntax_gen::program()) {
        let text = print_program(&program);
        prop_assert_eq!(&text, &print_program(&program.clone()));
        if let Err(problem) = check_lexically_sane(&text) {
            return Err(TestCaseError::fail(format!("{problem}:\n{text}")));
        }
    }

    #[test]
    fn printed_expressions_are_lexically_sane(
        e in syntax_gen::expr(syntax_gen::GenConfig::default())
    ) {
        let text = print_expr(&e);
        if let Err(problem) = check_lexically_sane(&text) {
            return Err(TestCaseError::fail(format!("{problem}:\n{text}")));
        }
    }
}

// ---------------------------------------------------------------------------
// Coverage of the generators

#[derive(Default)]
struct Seen(BTreeSet<String>);

impl Seen {
    fn add(&mut self, label: impl Into<String>) {
        self.0.insert(label.into());
    }

    fn list<T>(&mut self, what: &str, items: &[T]) {
        self.add(format!(
            "{what}:{}",
            if items.is_empty() {
                "empty"
            } else {
                "nonempty"
            }
        ));
    }

    fn option<T>(&mut self, what: &str, item: &Option<T>) {
        self.add(format!(
            "{what}:{}",
            if item.is_some() { "some" } else { "none" }
        ));
    }

    fn qual(&mut self, what: &str, name: &QualName) {
        self.list(&format!("{what}.qualifiers"), &name.qualifiers);
    }

    fn attr(&mut self, a: &Attr) {
        match a {
            Attr::Name(_) => self.add("Attr::Name"),
            Attr::Int(_) => self.add("Attr::Int"),
            Attr::Call(_, args) => {
                self.add("Attr::Call");
                args.iter().for_each(|a| self.attr(a));
            }
        }
    }

    fn type_params(&mut self, what: &str, params: &[TypeParam]) {
        self.list(what, params);
        for p in params {
            match p {
                TypeParam::Size { .. } => self.add("TypeParam::Size"),
                TypeParam::Type { liftedness, .. } => {
                    self.add(format!("TypeParam::Type({liftedness:?})"))
                }
            }
        }
    }

    fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Int { suffix, .. } => {
                self.add("Literal::Int");
                self.option("Literal::Int.suffix", suffix);
            }
            Literal::Float { suffix, .. } => {
                self.add("Literal::Float");
                self.option("Literal::Float.suffix", suffix);
            }
            Literal::Bool(_) => self.add("Literal::Bool"),
        }
    }

    fn size(&mut self, s: &SizeExp) {
        match s {
            SizeExp::Anonymous => self.add("SizeExp::Anonymous"),
            SizeExp::Named(_) => self.add("SizeExp::Named"),
            SizeExp::Constant(_) => self.add("SizeExp::Constant"),
            SizeExp::Expression(expression) => {
                self.add("SizeExp::Expression");
                self.expr(expression);
            }
        }
    }

    fn ty(&mut self, t: &TypeExp) {
        match t {
            TypeExp::Var(name) => {
                self.add("TypeExp::Var");
                self.qual("TypeExp::Var", name);
            }
            TypeExp::Apply { args, .. } => {
                self.add("TypeExp::Apply");
                for arg in args {
                    match arg {
                        TypeArg::Size { size, .. } => {
                            self.add("TypeArg::Size");
                            self.size(size);
                        }
                        TypeArg::Type(t) => {
                            self.add("TypeArg::Type");
                            self.ty(t);
                        }
                    }
                }
            }
            TypeExp::Array { size, element, .. } => {
                self.add("TypeExp::Array");
                self.size(size);
                self.ty(element);
            }
            TypeExp::Tuple { elements, .. } => {
                self.add("TypeExp::Tuple");
                self.list("TypeExp::Tuple.elements", elements);
                elements.iter().for_each(|t| self.ty(t));
            }
            TypeExp::Record { fields, .. } => {
                self.add("TypeExp::Record");
                self.list("TypeExp::Record.fields", fields);
                fields.iter().for_each(|(_, t)| self.ty(t));
            }
            TypeExp::Arrow {
                param, from, to, ..
            } => {
                self.add("TypeExp::Arrow");
                self.option("TypeExp::Arrow.param", param);
                self.ty(from);
                self.ty(to);
            }
            TypeExp::Sum { constructors, .. } => {
                self.add("TypeExp::Sum");
                for c in constructors {
                    self.list("SumConstructor.payload", &c.payload);
                    c.payload.iter().for_each(|t| self.ty(t));
                }
            }
            TypeExp::Unique { ty, .. } => {
                self.add("TypeExp::Unique");
                self.ty(ty);
            }
            TypeExp::Existential { ty, .. } => {
                self.add("TypeExp::Existential");
                self.ty(ty);
            }
        }
    }

    fn pat(&mut self, p: &Pat) {
        match p {
            Pat::Var { .. } => self.add("Pat::Var"),
            Pat::Wildcard { .. } => self.add("Pat::Wildcard"),
            Pat::Tuple { elements, .. } => {
                self.add("Pat::Tuple");
                self.list("Pat::Tuple.elements", elements);
                elements.iter().for_each(|p| self.pat(p));
            }
            Pat::Record { fields, .. } => {
                self.add("Pat::Record");
                self.list("Pat::Record.fields", fields);
                fields.iter().for_each(|(_, p)| self.pat(p));
            }
            Pat::Literal {
                negative, literal, ..
            } => {
                self.add(format!("Pat::Literal(negative={negative})"));
                self.literal(literal);
            }
            Pat::Constructor { payload, .. } => {
                self.add("Pat::Constructor");
                self.list("Pat::Constructor.payload", payload);
                payload.iter().for_each(|p| self.pat(p));
            }
            Pat::Ascribe { pat, ty, .. } => {
                self.add("Pat::Ascribe");
                self.pat(pat);
                self.ty(ty);
            }
            Pat::Attr { attr, pat, .. } => {
                self.add("Pat::Attr");
                self.attr(attr);
                self.pat(pat);
            }
        }
    }

    fn op(&mut self, op: &BinOp) {
        match op {
            BinOp::Symbol(name) => {
                self.add("BinOp::Symbol");
                self.qual("BinOp::Symbol", name);
            }
            BinOp::Backtick(name) => {
                self.add("BinOp::Backtick");
                self.qual("BinOp::Backtick", name);
            }
        }
    }

    fn dims(&mut self, indices: &[DimIndex]) {
        for d in indices {
            match d {
                DimIndex::Index(e) => {
                    self.add("DimIndex::Index");
                    self.expr(e);
                }
                DimIndex::Slice { start, end, stride } => {
                    self.add("DimIndex::Slice");
                    self.option("DimIndex::Slice.start", start);
                    self.option("DimIndex::Slice.end", end);
                    self.option("DimIndex::Slice.stride", stride);
                    for e in [start, end, stride].into_iter().flatten() {
                        self.expr(e);
                    }
                }
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        let name = format!("{e:?}");
        let variant = name
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or_default();
        self.add(format!("Expr::{variant}"));
        match e {
            Expr::Literal { literal, .. } => self.literal(literal),
            Expr::Var(name) => self.qual("Expr::Var", name),
            Expr::Project { expr, .. } | Expr::Negate { expr, .. } | Expr::Not { expr, .. } => {
                self.expr(expr)
            }
            Expr::Tuple { elements, .. } => {
                self.list("Expr::Tuple.elements", elements);
                elements.iter().for_each(|e| self.expr(e));
            }
            Expr::Array { elements, .. } => {
                self.list("Expr::Array.elements", elements);
                elements.iter().for_each(|e| self.expr(e));
            }
            Expr::Record { fields, .. } => {
                self.list("Expr::Record.fields", fields);
                fields.iter().for_each(|(_, e)| self.expr(e));
            }
            Expr::Range {
                start,
                step,
                end,
                end_kind,
                ..
            } => {
                self.option("Expr::Range.step", step);
                self.add(format!("RangeEnd::{end_kind:?}"));
                self.expr(start);
                if let Some(step) = step {
                    self.expr(step);
                }
                self.expr(end);
            }
            Expr::Index { array, indices, .. } => {
                self.expr(array);
                self.dims(indices);
            }
            Expr::Apply {
                function, argument, ..
            } => {
                self.expr(function);
                self.expr(argument);
            }
            Expr::BinOp { op, lhs, rhs, .. } => {
                self.op(op);
                self.expr(lhs);
                self.expr(rhs);
            }
            Expr::OpSection { op, .. } => self.op(op),
            Expr::LeftSection { op, left: e, .. } | Expr::RightSection { op, right: e, .. } => {
                self.op(op);
                self.expr(e);
            }
            Expr::ProjectSection { .. } => {}
            Expr::IndexSection { indices, .. } => self.dims(indices),
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
                sizes,
                pat,
                value,
                body,
                ..
            } => {
                self.list("Expr::Let.sizes", sizes);
                self.pat(pat);
                self.expr(value);
                self.expr(body);
            }
            Expr::LetFun {
                type_params,
                params,
                return_type,
                value,
                body,
                ..
            } => {
                self.type_params("Expr::LetFun.type_params", type_params);
                self.option("Expr::LetFun.return_type", return_type);
                params.iter().for_each(|p| self.pat(p));
                if let Some(t) = return_type {
                    self.ty(t);
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
                self.dims(indices);
                self.expr(value);
                self.expr(body);
            }
            Expr::Lambda {
                params,
                return_type,
                body,
                ..
            } => {
                self.option("Expr::Lambda.return_type", return_type);
                params.iter().for_each(|p| self.pat(p));
                if let Some(t) = return_type {
                    self.ty(t);
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
                self.option("Expr::Loop.init", init);
                self.pat(pat);
                if let Some(init) = init {
                    self.expr(init);
                }
                match form {
                    LoopForm::For { bound, .. } => {
                        self.add("LoopForm::For");
                        self.expr(bound);
                    }
                    LoopForm::ForIn { pat, array } => {
                        self.add("LoopForm::ForIn");
                        self.pat(pat);
                        self.expr(array);
                    }
                    LoopForm::While { condition } => {
                        self.add("LoopForm::While");
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
                self.expr(target);
                self.dims(indices);
                self.expr(value);
            }
            Expr::RecordUpdate { target, value, .. } => {
                self.expr(target);
                self.expr(value);
            }
            Expr::Ascribe { expr, ty, .. } | Expr::Coerce { expr, ty, .. } => {
                self.expr(expr);
                self.ty(ty);
            }
            Expr::Match {
                scrutinee, cases, ..
            } => {
                self.expr(scrutinee);
                for case in cases {
                    self.pat(&case.pat);
                    self.expr(&case.body);
                }
            }
            Expr::Constructor { payload, .. } => {
                self.list("Expr::Constructor.payload", payload);
                payload.iter().for_each(|e| self.expr(e));
            }
            Expr::OpenIn { module, body, .. } => {
                self.qual("Expr::OpenIn", module);
                self.expr(body);
            }
            Expr::Attr { attr, expr, .. } => {
                self.attr(attr);
                self.expr(expr);
            }
        }
    }

    fn mod_type(&mut self, mt: &ModTypeExp) {
        match mt {
            ModTypeExp::Var(_) => self.add("ModTypeExp::Var"),
            ModTypeExp::Signature { specs, .. } => {
                self.add("ModTypeExp::Signature");
                self.list("ModTypeExp::Signature.specs", specs);
                for s in specs {
                    match s {
                        Spec::Val {
                            name,
                            type_params,
                            ty,
                            ..
                        } => {
                            self.add("Spec::Val");
                            if spec::syntax::operators::is_operator_name(name) {
                                self.add("Spec::Val.operator");
                            }
                            self.type_params("Spec::Val.type_params", type_params);
                            self.ty(ty);
                        }
                        Spec::Type {
                            liftedness,
                            params,
                            definition,
                            ..
                        } => {
                            self.add(format!("Spec::Type({liftedness:?})"));
                            self.type_params("Spec::Type.params", params);
                            self.option("Spec::Type.definition", definition);
                            if let Some(t) = definition {
                                self.ty(t);
                            }
                        }
                        Spec::Module { mod_type, .. } => {
                            self.add("Spec::Module");
                            self.mod_type(mod_type);
                        }
                        Spec::Include { mod_type, .. } => {
                            self.add("Spec::Include");
                            self.mod_type(mod_type);
                        }
                    }
                }
            }
            ModTypeExp::With {
                mod_type,
                refinement,
                ..
            } => {
                self.add("ModTypeExp::With");
                self.type_params("TypeRefinement.params", &refinement.params);
                self.mod_type(mod_type);
                self.ty(&refinement.definition);
            }
            ModTypeExp::Arrow {
                param, from, to, ..
            } => {
                self.add("ModTypeExp::Arrow");
                self.option("ModTypeExp::Arrow.param", param);
                self.mod_type(from);
                self.mod_type(to);
            }
        }
    }

    fn mod_exp(&mut self, m: &ModExp) {
        match m {
            ModExp::Var(_) => self.add("ModExp::Var"),
            ModExp::Struct { decs, .. } => {
                self.add("ModExp::Struct");
                self.list("ModExp::Struct.decs", decs);
                decs.iter().for_each(|d| self.dec(d));
            }
            ModExp::Ascribe {
                module, mod_type, ..
            } => {
                self.add("ModExp::Ascribe");
                self.mod_exp(module);
                self.mod_type(mod_type);
            }
            ModExp::Lambda {
                param,
                result,
                body,
                ..
            } => {
                self.add("ModExp::Lambda");
                self.option("ModExp::Lambda.result", result);
                self.mod_type(&param.mod_type);
                if let Some(mt) = result {
                    self.mod_type(mt);
                }
                self.mod_exp(body);
            }
            ModExp::Apply {
                functor, argument, ..
            } => {
                self.add("ModExp::Apply");
                self.mod_exp(functor);
                self.mod_exp(argument);
            }
            ModExp::Import { .. } => self.add("ModExp::Import"),
        }
    }

    fn dec(&mut self, d: &Dec) {
        match d {
            Dec::Value(b) => {
                self.add(format!("Dec::Value({:?})", b.kind));
                if spec::syntax::operators::is_operator_name(&b.name) {
                    self.add("ValueBind.operator");
                }
                self.type_params("ValueBind.type_params", &b.type_params);
                self.list("ValueBind.params", &b.params);
                self.option("ValueBind.return_type", &b.return_type);
                b.params.iter().for_each(|p| self.pat(p));
                if let Some(t) = &b.return_type {
                    self.ty(t);
                }
                self.expr(&b.body);
            }
            Dec::Type(b) => {
                self.add(format!("Dec::Type({:?})", b.liftedness));
                self.type_params("TypeBind.params", &b.params);
                self.ty(&b.definition);
            }
            Dec::Module(b) => {
                self.add("Dec::Module");
                self.list("ModuleBind.params", &b.params);
                self.option("ModuleBind.signature", &b.signature);
                b.params.iter().for_each(|p| self.mod_type(&p.mod_type));
                if let Some(mt) = &b.signature {
                    self.mod_type(mt);
                }
                self.mod_exp(&b.body);
            }
            Dec::ModuleType(b) => {
                self.add("Dec::ModuleType");
                self.mod_type(&b.definition);
            }
            Dec::Open { module, .. } => {
                self.add("Dec::Open");
                self.mod_exp(module);
            }
            Dec::Import { .. } => self.add("Dec::Import"),
            Dec::Local { dec, .. } => {
                self.add("Dec::Local");
                self.dec(dec);
            }
            Dec::Attr { attr, dec, .. } => {
                self.add("Dec::Attr");
                self.attr(attr);
                self.dec(dec);
            }
        }
    }
}

/// Every label the generators must reach.
const EXPECTED: &[&str] = &[
    "Attr::Call",
    "Attr::Int",
    "Attr::Name",
    "BinOp::Backtick",
    "BinOp::Backtick.qualifiers:empty",
    "BinOp::Backtick.qualifiers:nonempty",
    "BinOp::Symbol",
    "BinOp::Symbol.qualifiers:empty",
    "BinOp::Symbol.qualifiers:nonempty",
    "Dec::Attr",
    "Dec::Import",
    "Dec::Local",
    "Dec::Module",
    "Dec::ModuleType",
    "Dec::Open",
    "Dec::Type(Lifted)",
    "Dec::Type(SizeLifted)",
    "Dec::Type(Unlifted)",
    "Dec::Value(Def)",
    "Dec::Value(Entry)",
    "DimIndex::Index",
    "DimIndex::Slice",
    "DimIndex::Slice.end:none",
    "DimIndex::Slice.end:some",
    "DimIndex::Slice.start:none",
    "DimIndex::Slice.start:some",
    "DimIndex::Slice.stride:none",
    "DimIndex::Slice.stride:some",
    "Expr::Apply",
    "Expr::Array",
    "Expr::Array.elements:empty",
    "Expr::Array.elements:nonempty",
    "Expr::Ascribe",
    "Expr::Attr",
    "Expr::BinOp",
    "Expr::Coerce",
    "Expr::Constructor",
    "Expr::Constructor.payload:empty",
    "Expr::Constructor.payload:nonempty",
    "Expr::If",
    "Expr::Index",
    "Expr::IndexSection",
    "Expr::Lambda",
    "Expr::Lambda.return_type:none",
    "Expr::Lambda.return_type:some",
    "Expr::LeftSection",
    "Expr::Let",
    "Expr::Let.sizes:empty",
    "Expr::Let.sizes:nonempty",
    "Expr::LetFun",
    "Expr::LetFun.return_type:none",
    "Expr::LetFun.return_type:some",
    "Expr::LetFun.type_params:empty",
    "Expr::LetFun.type_params:nonempty",
    "Expr::LetWith",
    "Expr::Literal",
    "Expr::Loop",
    "Expr::Loop.init:none",
    "Expr::Loop.init:some",
    "Expr::Match",
    "Expr::Negate",
    "Expr::Not",
    "Expr::OpSection",
    "Expr::OpenIn",
    "Expr::OpenIn.qualifiers:empty",
    "Expr::OpenIn.qualifiers:nonempty",
    "Expr::Project",
    "Expr::ProjectSection",
    "Expr::Range",
    "Expr::Range.step:none",
    "Expr::Range.step:some",
    "Expr::Record",
    "Expr::Record.fields:empty",
    "Expr::Record.fields:nonempty",
    "Expr::RecordUpdate",
    "Expr::RightSection",
    "Expr::Tuple",
    "Expr::Tuple.elements:empty",
    "Expr::Tuple.elements:nonempty",
    "Expr::Update",
    "Expr::Var",
    "Expr::Var.qualifiers:empty",
    "Expr::Var.qualifiers:nonempty",
    "Literal::Bool",
    "Literal::Float",
    "Literal::Float.suffix:none",
    "Literal::Float.suffix:some",
    "Literal::Int",
    "Literal::Int.suffix:none",
    "Literal::Int.suffix:some",
    "LoopForm::For",
    "LoopForm::ForIn",
    "LoopForm::While",
    "ModExp::Apply",
    "ModExp::Ascribe",
    "ModExp::Import",
    "ModExp::Lambda",
    "ModExp::Lambda.result:none",
    "ModExp::Lambda.result:some",
    "ModExp::Struct",
    "ModExp::Struct.decs:empty",
    "ModExp::Struct.decs:nonempty",
    "ModExp::Var",
    "ModTypeExp::Arrow",
    "ModTypeExp::Arrow.param:none",
    "ModTypeExp::Arrow.param:some",
    "ModTypeExp::Signature",
    "ModTypeExp::Signature.specs:empty",
    "ModTypeExp::Signature.specs:nonempty",
    "ModTypeExp::Var",
    "ModTypeExp::With",
    "ModuleBind.params:empty",
    "ModuleBind.params:nonempty",
    "ModuleBind.signature:none",
    "ModuleBind.signature:some",
    "Pat::Ascribe",
    "Pat::Attr",
    "Pat::Constructor",
    "Pat::Constructor.payload:empty",
    "Pat::Constructor.payload:nonempty",
    "Pat::Literal(negative=false)",
    "Pat::Literal(negative=true)",
    "Pat::Record",
    "Pat::Record.fields:empty",
    "Pat::Record.fields:nonempty",
    "Pat::Tuple",
    "Pat::Tuple.elements:empty",
    "Pat::Tuple.elements:nonempty",
    "Pat::Var",
    "Pat::Wildcard",
    "RangeEnd::DownToExclusive",
    "RangeEnd::Inclusive",
    "RangeEnd::UpToExclusive",
    "SizeExp::Anonymous",
    "SizeExp::Constant",
    "SizeExp::Named",
    "Spec::Include",
    "Spec::Module",
    "Spec::Type(Lifted)",
    "Spec::Type(SizeLifted)",
    "Spec::Type(Unlifted)",
    "Spec::Type.definition:none",
    "Spec::Type.definition:some",
    "Spec::Type.params:empty",
    "Spec::Type.params:nonempty",
    "Spec::Val",
    "Spec::Val.operator",
    "Spec::Val.type_params:empty",
    "Spec::Val.type_params:nonempty",
    "SumConstructor.payload:empty",
    "SumConstructor.payload:nonempty",
    "TypeArg::Size",
    "TypeArg::Type",
    "TypeBind.params:empty",
    "TypeBind.params:nonempty",
    "TypeExp::Apply",
    "TypeExp::Array",
    "TypeExp::Arrow",
    "TypeExp::Arrow.param:none",
    "TypeExp::Arrow.param:some",
    "TypeExp::Existential",
    "TypeExp::Record",
    "TypeExp::Record.fields:empty",
    "TypeExp::Record.fields:nonempty",
    "TypeExp::Sum",
    "TypeExp::Tuple",
    "TypeExp::Tuple.elements:empty",
    "TypeExp::Tuple.elements:nonempty",
    "TypeExp::Unique",
    "TypeExp::Var",
    "TypeExp::Var.qualifiers:empty",
    "TypeExp::Var.qualifiers:nonempty",
    "TypeParam::Size",
    "TypeParam::Type(Lifted)",
    "TypeParam::Type(SizeLifted)",
    "TypeParam::Type(Unlifted)",
    "TypeRefinement.params:empty",
    "TypeRefinement.params:nonempty",
    "ValueBind.operator",
    "ValueBind.params:empty",
    "ValueBind.params:nonempty",
    "ValueBind.return_type:none",
    "ValueBind.return_type:some",
    "ValueBind.type_params:empty",
    "ValueBind.type_params:nonempty",
];

#[test]
fn generators_reach_every_variant_and_field_option() {
    let mut runner = TestRunner::new(Config::default());
    let strategy = syntax_gen::program();
    let mut seen = Seen::default();
    for _ in 0..400 {
        let program = strategy.new_tree(&mut runner).unwrap().current();
        program.decs.iter().for_each(|d| seen.dec(d));
    }
    let missing: Vec<&str> = EXPECTED
        .iter()
        .copied()
        .filter(|label| !seen.0.contains(*label))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
