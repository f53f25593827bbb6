//! Hand-built trees and the exact text the printer gives them: precedence and
//! associativity edge cases, postfix chains, sections, open-ended forms,
//! types, patterns, module-level layout. One table per syntactic class, all
//! through [`check`].

use spec::source::Span;
use spec::syntax::ast::*;
use spec::syntax::printer::{
    print_expr, print_mod_exp, print_mod_type, print_pat, print_program, print_type,
};

/// A tree of any printable class.
enum Tree {
    Expr(Expr),
    Type(TypeExp),
    Pat(Pat),
    ModExp(ModExp),
    ModType(ModTypeExp),
    Program(Vec<Dec>),
}

impl Tree {
    fn print(&self) -> String {
        match self {
            Tree::Expr(e) => print_expr(e),
            Tree::Type(t) => print_type(t),
            Tree::Pat(p) => print_pat(p),
            Tree::ModExp(m) => print_mod_exp(m),
            Tree::ModType(mt) => print_mod_type(mt),
            Tree::Program(decs) => print_program(&Program { decs: decs.clone() }),
        }
    }
}

/// Prints every tree of the table and reports every mismatch at once.
fn check(table: Vec<(Tree, &str)>) {
    let failures: Vec<String> = table
        .iter()
        .filter_map(|(tree, expected)| {
            let actual = tree.print();
            (actual != *expected).then(|| format!("expected:\n{expected}\nactual:\n{actual}\n"))
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// Builders

fn sp() -> Span {
    Span::default()
}

fn qn(path: &str) -> QualName {
    // `i32.+`: the last component may contain dots only if it is an operator.
    let parts: Vec<&str> = path.split('.').collect();
    let op_start = parts
        .iter()
        .position(|p| {
            p.is_empty() || !p.chars().next().unwrap().is_alphanumeric() && !p.starts_with('_')
        })
        .unwrap_or(parts.len() - 1);
    QualName {
        qualifiers: parts[..op_start].iter().map(|s| s.to_string()).collect(),
        name: parts[op_start..].join("."),
        span: sp(),
    }
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn var(name: &str) -> Expr {
    Expr::Var(qn(name))
}

fn int(value: u64) -> Expr {
    Expr::Literal {
        literal: Literal::Int {
            value,
            suffix: None,
        },
        span: sp(),
    }
}

fn lit(literal: Literal) -> Expr {
    Expr::Literal {
        literal,
        span: sp(),
    }
}

fn sym(op: &str) -> BinOp {
    BinOp::Symbol(qn(op))
}

fn tick(name: &str) -> BinOp {
    BinOp::Backtick(qn(name))
}

fn bin(op: &str, lhs: Expr, rhs: Expr) -> Expr {
    binop(sym(op), lhs, rhs)
}

fn binop(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::BinOp {
        op,
        lhs: b(lhs),
        rhs: b(rhs),
        span: sp(),
    }
}

fn app(function: Expr, argument: Expr) -> Expr {
    Expr::Apply {
        function: b(function),
        argument: b(argument),
        span: sp(),
    }
}

fn neg(e: Expr) -> Expr {
    Expr::Negate {
        expr: b(e),
        span: sp(),
    }
}

fn not(e: Expr) -> Expr {
    Expr::Not {
        expr: b(e),
        span: sp(),
    }
}

fn proj(e: Expr, field: &str) -> Expr {
    Expr::Project {
        expr: b(e),
        field: field.into(),
        span: sp(),
    }
}

fn ix(e: Expr) -> DimIndex {
    DimIndex::Index(e)
}

fn slice(start: Option<Expr>, end: Option<Expr>, stride: Option<Expr>) -> DimIndex {
    DimIndex::Slice { start, end, stride }
}

fn index(e: Expr, indices: Vec<DimIndex>) -> Expr {
    Expr::Index {
        array: b(e),
        indices,
        span: sp(),
    }
}

fn tuple(elements: Vec<Expr>) -> Expr {
    Expr::Tuple {
        elements,
        span: sp(),
    }
}

fn array(elements: Vec<Expr>) -> Expr {
    Expr::Array {
        elements,
        span: sp(),
    }
}

fn con(name: &str, payload: Vec<Expr>) -> Expr {
    Expr::Constructor {
        name: name.into(),
        payload,
        span: sp(),
    }
}

fn if_(c: Expr, t: Expr, f: Expr) -> Expr {
    Expr::If {
        condition: b(c),
        then_branch: b(t),
        else_branch: b(f),
        span: sp(),
    }
}

fn let_(p: Pat, value: Expr, body: Expr) -> Expr {
    Expr::Let {
        sizes: vec![],
        pat: p,
        value: b(value),
        body: b(body),
        span: sp(),
    }
}

fn lambda(params: Vec<Pat>, return_type: Option<TypeExp>, body: Expr) -> Expr {
    Expr::Lambda {
        params,
        return_type,
        body: b(body),
        span: sp(),
    }
}

fn ascribe(e: Expr, ty: TypeExp) -> Expr {
    Expr::Ascribe {
        expr: b(e),
        ty,
        span: sp(),
    }
}

fn range(start: Expr, step: Option<Expr>, end: Expr, end_kind: RangeEnd) -> Expr {
    Expr::Range {
        start: b(start),
        step: step.map(b),
        end: b(end),
        end_kind,
        span: sp(),
    }
}

fn update(target: Expr, indices: Vec<DimIndex>, value: Expr) -> Expr {
    Expr::Update {
        target: b(target),
        indices,
        value: b(value),
        span: sp(),
    }
}

fn case(pat: Pat, body: Expr) -> MatchCase {
    MatchCase {
        pat,
        body,
        span: sp(),
    }
}

fn pvar(name: &str) -> Pat {
    Pat::Var {
        name: name.into(),
        span: sp(),
    }
}

fn pcon(name: &str, payload: Vec<Pat>) -> Pat {
    Pat::Constructor {
        name: name.into(),
        payload,
        span: sp(),
    }
}

fn pasc(p: Pat, ty: TypeExp) -> Pat {
    Pat::Ascribe {
        pat: Box::new(p),
        ty,
        span: sp(),
    }
}

fn ptuple(elements: Vec<Pat>) -> Pat {
    Pat::Tuple {
        elements,
        span: sp(),
    }
}

fn tvar(name: &str) -> TypeExp {
    TypeExp::Var(qn(name))
}

fn size(name: &str) -> SizeExp {
    SizeExp::Named(qn(name))
}

fn tarr(size: SizeExp, element: TypeExp) -> TypeExp {
    TypeExp::Array {
        size,
        element: Box::new(element),
        span: sp(),
    }
}

fn tfun(from: TypeExp, to: TypeExp) -> TypeExp {
    TypeExp::Arrow {
        param: None,
        from: Box::new(from),
        to: Box::new(to),
        span: sp(),
    }
}

fn tapp(constructor: &str, args: Vec<TypeArg>) -> TypeExp {
    TypeExp::Apply {
        constructor: qn(constructor),
        args,
        span: sp(),
    }
}

fn tsum(constructors: Vec<(&str, Vec<TypeExp>)>) -> TypeExp {
    TypeExp::Sum {
        constructors: constructors
            .into_iter()
            .map(|(name, payload)| SumConstructor {
                name: name.into(),
                payload,
                span: sp(),
            })
            .collect(),
        span: sp(),
    }
}

fn tunique(ty: TypeExp) -> TypeExp {
    TypeExp::Unique {
        ty: Box::new(ty),
        span: sp(),
    }
}

fn texists(sizes: &[&str], ty: TypeExp) -> TypeExp {
    TypeExp::Existential {
        sizes: sizes.iter().map(|s| s.to_string()).collect(),
        ty: Box::new(ty),
        span: sp(),
    }
}

fn def(name: &str, params: Vec<Pat>, body: Expr) -> Dec {
    Dec::Value(ValueBind {
        kind: ValueBindKind::Def,
        name: name.into(),
        type_params: vec![],
        params,
        return_type: None,
        body,
        span: sp(),
    })
}

fn mvar(name: &str) -> ModExp {
    ModExp::Var(qn(name))
}

fn mtvar(name: &str) -> ModTypeExp {
    ModTypeExp::Var(qn(name))
}

fn with(mt: ModTypeExp, name: &str, definition: TypeExp) -> ModTypeExp {
    ModTypeExp::With {
        mod_type: Box::new(mt),
        refinement: TypeRefinement {
            name: qn(name),
            params: vec![],
            definition,
        },
        span: sp(),
    }
}

fn mtfun(from: ModTypeExp, to: ModTypeExp) -> ModTypeExp {
    ModTypeExp::Arrow {
        param: None,
        from: Box::new(from),
        to: Box::new(to),
        span: sp(),
    }
}

fn val_spec(name: &str, ty: TypeExp) -> Spec {
    Spec::Val {
        name: name.into(),
        type_params: vec![],
        ty,
        span: sp(),
    }
}

use Tree::Expr as E;

// ---------------------------------------------------------------------------
// Tables

#[test]
fn infix_precedence_and_associativity() {
    let (a, b_, c) = (var("a"), var("b"), var("c"));
    check(vec![
        (
            E(bin("+", bin("+", a.clone(), b_.clone()), c.clone())),
            "a + b + c",
        ),
        (
            E(bin("+", a.clone(), bin("+", b_.clone(), c.clone()))),
            "a + (b + c)",
        ),
        (
            E(bin("*", bin("+", a.clone(), b_.clone()), c.clone())),
            "(a + b) * c",
        ),
        (
            E(bin("+", a.clone(), bin("*", b_.clone(), c.clone()))),
            "a + b * c",
        ),
        (
            E(bin("-", a.clone(), bin("-", b_.clone(), c.clone()))),
            "a - (b - c)",
        ),
        (
            E(bin("**", bin("**", a.clone(), b_.clone()), c.clone())),
            "a ** b ** c",
        ),
        (
            E(bin("*", a.clone(), bin("**", b_.clone(), c.clone()))),
            "a * b ** c",
        ),
        // `<|` is right-associative, `|>` left-associative and looser.
        (
            E(bin("<|", var("f"), bin("<|", var("g"), var("x")))),
            "f <| g <| x",
        ),
        (
            E(bin("<|", bin("<|", var("f"), var("g")), var("x"))),
            "(f <| g) <| x",
        ),
        (
            E(bin("|>", bin("|>", var("x"), var("f")), var("g"))),
            "x |> f |> g",
        ),
        (
            E(bin("|>", var("x"), bin("|>", var("f"), var("g")))),
            "x |> (f |> g)",
        ),
        (
            E(bin("|>", var("x"), bin("<|", var("f"), var("y")))),
            "x |> f <| y",
        ),
        (
            E(bin("<|", bin("|>", var("x"), var("f")), var("y"))),
            "(x |> f) <| y",
        ),
        (
            E(bin("<|", var("f"), bin("|>", var("x"), var("g")))),
            "f <| (x |> g)",
        ),
        // Backticks bind loosest of all.
        (
            E(binop(tick("f"), a.clone(), bin("+", b_.clone(), c.clone()))),
            "a `f` b + c",
        ),
        (
            E(bin("+", a.clone(), binop(tick("f"), b_.clone(), c.clone()))),
            "a + (b `f` c)",
        ),
        (
            E(binop(
                tick("m.f"),
                binop(tick("f"), a.clone(), b_.clone()),
                c.clone(),
            )),
            "a `f` b `m.f` c",
        ),
        (
            E(binop(
                tick("f"),
                a.clone(),
                binop(tick("f"), b_.clone(), c.clone()),
            )),
            "a `f` (b `f` c)",
        ),
        (
            E(bin(
                "|>",
                binop(tick("f"), a.clone(), b_.clone()),
                c.clone(),
            )),
            "(a `f` b) |> c",
        ),
        // User-defined operators take the fixity of their longest built-in prefix.
        (
            E(bin("+^", bin("+", a.clone(), b_.clone()), c.clone())),
            "a + b +^ c",
        ),
        (
            E(bin("+", a.clone(), bin("+^", b_.clone(), c.clone()))),
            "a + (b +^ c)",
        ),
        (
            E(bin(">>=", a.clone(), bin("+", b_.clone(), c.clone()))),
            "a >>= b + c",
        ),
        (
            E(bin("<=<", bin("==", a.clone(), b_.clone()), c.clone())),
            "a == b <=< c",
        ),
        (
            E(bin("i32.+", a.clone(), bin("i32.*", b_.clone(), c.clone()))),
            "a i32.+ b i32.* c",
        ),
        (
            E(bin("||", a.clone(), bin("&&", b_.clone(), c.clone()))),
            "a || b && c",
        ),
        (
            E(bin("&&", bin("||", a.clone(), b_.clone()), c.clone())),
            "(a || b) && c",
        ),
        (
            E(bin("==", bin("<", a.clone(), b_.clone()), c.clone())),
            "a < b == c",
        ),
        (
            E(bin("&", a.clone(), bin("<<", b_.clone(), c.clone()))),
            "a & b << c",
        ),
    ]);
}

#[test]
fn prefix_operators_and_application() {
    let (f, x, y) = (var("f"), var("x"), var("y"));
    check(vec![
        (E(bin("-", var("a"), neg(var("b")))), "a - -b"),
        (E(bin("-", neg(var("a")), var("b"))), "-a - b"),
        (E(neg(bin("-", var("a"), var("b")))), "-(a - b)"),
        (E(bin("**", neg(x.clone()), int(2))), "-x ** 2"),
        (E(neg(bin("**", x.clone(), int(2)))), "-(x ** 2)"),
        (E(neg(int(1))), "-1"),
        (E(neg(app(f.clone(), x.clone()))), "-f x"),
        (E(app(neg(f.clone()), x.clone())), "(-f) x"),
        (E(app(f.clone(), neg(x.clone()))), "f (-x)"),
        (E(neg(neg(x.clone()))), "-(-x)"),
        (E(not(not(x.clone()))), "!(!x)"),
        (E(neg(not(x.clone()))), "-(!x)"),
        (E(not(app(f.clone(), x.clone()))), "!f x"),
        (E(app(app(f.clone(), x.clone()), y.clone())), "f x y"),
        (E(app(f.clone(), app(var("g"), x.clone()))), "f (g x)"),
        (E(app(f.clone(), int(1))), "f 1"),
        (E(app(f.clone(), lit(Literal::Bool(true)))), "f true"),
        (
            E(app(
                f.clone(),
                lit(Literal::float(0.5, Some(FloatType::F32))),
            )),
            "f 0.5f32",
        ),
        (
            E(app(
                f.clone(),
                lit(Literal::Int {
                    value: 7,
                    suffix: Some(IntType::U8),
                }),
            )),
            "f 7u8",
        ),
        (E(app(f.clone(), lit(Literal::float(1e-7, None)))), "f 1e-7"),
        (
            E(app(f.clone(), tuple(vec![x.clone(), y.clone()]))),
            "f (x, y)",
        ),
        (E(app(f.clone(), tuple(vec![]))), "f ()"),
        (E(app(f.clone(), array(vec![int(1)]))), "f [1]"),
        (E(app(f.clone(), var("m.x"))), "f m.x"),
        (
            E(app(f.clone(), bin("+", x.clone(), y.clone()))),
            "f (x + y)",
        ),
        (
            E(bin(
                "+",
                app(f.clone(), x.clone()),
                app(f.clone(), y.clone()),
            )),
            "f x + f y",
        ),
        (
            E(app(f.clone(), index(var("a"), vec![ix(int(0))]))),
            "f a[0]",
        ),
        (
            E(app(index(var("a"), vec![ix(int(0))]), array(vec![]))),
            "a[0] []",
        ),
        (E(app(f.clone(), proj(x.clone(), "a"))), "f (x).a"),
        (E(app(f.clone(), con("c", vec![]))), "f (#c)"),
        (E(app(con("c", vec![x.clone()]), y.clone())), "(#c x) y"),
    ]);
}

#[test]
fn postfix_chains() {
    let x = var("x");
    check(vec![
        (E(var("x.f")), "x.f"),
        (E(proj(x.clone(), "f")), "(x).f"),
        (E(proj(var("m.x"), "f")), "(m.x).f"),
        (E(proj(proj(x.clone(), "a"), "b")), "(x).a.b"),
        (E(proj(app(var("f"), x.clone()), "a")), "(f x).a"),
        (E(proj(tuple(vec![var("a"), var("b")]), "0")), "(a, b).0"),
        (E(proj(int(1), "a")), "(1).a"),
        (E(proj(index(var("a"), vec![ix(var("i"))]), "f")), "a[i].f"),
        (
            E(index(proj(x.clone(), "a"), vec![ix(var("i"))])),
            "(x).a[i]",
        ),
        (
            E(index(
                index(var("a"), vec![ix(var("i"))]),
                vec![ix(var("j"))],
            )),
            "a[i][j]",
        ),
        (
            E(index(app(var("f"), x.clone()), vec![ix(int(1))])),
            "(f x)[1]",
        ),
        (
            E(index(var("m.a"), vec![ix(int(1)), ix(int(2))])),
            "m.a[1, 2]",
        ),
        // `.0.1` would lex as a float.
        (E(proj(proj(x.clone(), "0"), "1")), "((x).0).1"),
        (E(proj(proj(x.clone(), "0"), "a")), "(x).0.a"),
        (E(proj(neg(x.clone()), "a")), "(-x).a"),
        (
            E(Expr::OpenIn {
                module: qn("m.n"),
                body: b(bin("+", x.clone(), int(1))),
                span: sp(),
            }),
            "m.n.(x + 1)",
        ),
    ]);
}

#[test]
fn slices_and_updates() {
    let (a, i, j, k) = (var("a"), var("i"), var("j"), var("k"));
    let s = |start: Option<&Expr>, end: Option<&Expr>, stride: Option<&Expr>| {
        E(index(
            a.clone(),
            vec![slice(start.cloned(), end.cloned(), stride.cloned())],
        ))
    };
    check(vec![
        (s(Some(&i), Some(&j), None), "a[i:j]"),
        (s(Some(&i), Some(&j), Some(&k)), "a[i:j:k]"),
        (s(None, None, None), "a[:]"),
        (s(None, None, Some(&k)), "a[::k]"),
        (s(Some(&i), None, None), "a[i:]"),
        (s(None, Some(&j), None), "a[:j]"),
        (s(Some(&i), None, Some(&k)), "a[i::k]"),
        (s(None, Some(&neg(int(1))), None), "a[:-1]"),
        (
            E(index(
                a.clone(),
                vec![ix(i.clone()), slice(None, None, None)],
            )),
            "a[i, :]",
        ),
        (
            E(index(a.clone(), vec![ix(ascribe(i.clone(), tvar("i64")))])),
            "a[(i : i64)]",
        ),
        (
            E(index(a.clone(), vec![ix(if_(var("c"), int(0), int(1)))])),
            "a[if c then 0 else 1]",
        ),
        (
            E(index(
                a.clone(),
                vec![slice(Some(if_(var("c"), int(0), int(1))), None, None)],
            )),
            "a[(if c then 0 else 1):]",
        ),
        (
            E(update(a.clone(), vec![ix(i.clone())], var("v"))),
            "a with [i] = v",
        ),
        (
            E(update(
                update(a.clone(), vec![ix(i.clone())], var("v")),
                vec![ix(j.clone())],
                var("w"),
            )),
            "(a with [i] = v) with [j] = w",
        ),
        (
            E(update(
                a.clone(),
                vec![ix(i.clone())],
                bin("+", var("v"), int(1)),
            )),
            "a with [i] = v + 1",
        ),
        (
            E(bin(
                "+",
                update(a.clone(), vec![ix(i.clone())], var("v")),
                int(1),
            )),
            "(a with [i] = v) + 1",
        ),
        (
            E(Expr::RecordUpdate {
                target: b(var("r")),
                fields: vec!["a".into(), "0".into()],
                value: b(app(var("f"), var("x"))),
                span: sp(),
            }),
            "r with a.0 = f x",
        ),
        (
            E(Expr::LetWith {
                name: "a".into(),
                name_span: sp(),
                indices: vec![ix(i.clone())],
                value: b(int(0)),
                body: b(a.clone()),
                span: sp(),
            }),
            "let a[i] = 0 in\na",
        ),
    ]);
}

#[test]
fn sections() {
    let x = var("x");
    let left = |op: BinOp, e: Expr| {
        E(Expr::LeftSection {
            op,
            left: b(e),
            span: sp(),
        })
    };
    let right = |op: BinOp, e: Expr| {
        E(Expr::RightSection {
            op,
            right: b(e),
            span: sp(),
        })
    };
    check(vec![
        (
            E(Expr::OpSection {
                op: sym("+"),
                span: sp(),
            }),
            "(+)",
        ),
        (
            E(Expr::OpSection {
                op: sym("-"),
                span: sp(),
            }),
            "(-)",
        ),
        (
            E(Expr::OpSection {
                op: sym("i32.+"),
                span: sp(),
            }),
            "(i32.+)",
        ),
        (
            E(Expr::OpSection {
                op: tick("f"),
                span: sp(),
            }),
            "(`f`)",
        ),
        (left(sym("-"), x.clone()), "(x -)"),
        (left(sym("+"), bin("+", var("a"), var("b"))), "((a + b) +)"),
        (left(sym("+"), bin("*", var("a"), var("b"))), "(a * b +)"),
        (left(sym("+"), neg(x.clone())), "(-x +)"),
        (left(tick("f"), bin("+", var("a"), var("b"))), "(a + b `f`)"),
        (right(sym("+"), x.clone()), "(+ x)"),
        (right(sym("i32.-"), x.clone()), "(i32.- x)"),
        (right(sym("*"), bin("+", var("a"), var("b"))), "(* (a + b))"),
        (right(sym("+"), neg(x.clone())), "(+ -x)"),
        (right(tick("f"), app(var("g"), x.clone())), "(`f` g x)"),
        (
            right(sym("<|"), bin("<|", var("f"), x.clone())),
            "(<| (f <| x))",
        ),
        (
            E(Expr::ProjectSection {
                fields: vec!["a".into(), "b".into()],
                span: sp(),
            }),
            "(.a.b)",
        ),
        (
            E(Expr::IndexSection {
                indices: vec![ix(var("i")), slice(None, None, None)],
                span: sp(),
            }),
            "(.[i, :])",
        ),
        (
            E(app(var("map"), right(sym("+"), int(1)).into_expr())),
            "map (+ 1)",
        ),
    ]);
}

impl Tree {
    fn into_expr(self) -> Expr {
        match self {
            Tree::Expr(e) => e,
            _ => unreachable!("not an expression"),
        }
    }
}

#[test]
fn constructors() {
    check(vec![
        (E(con("c", vec![])), "#c"),
        (E(con("c", vec![var("a"), int(1)])), "#c a 1"),
        (E(con("a", vec![con("b", vec![])])), "#a (#b)"),
        (E(con("c", vec![app(var("f"), var("x"))])), "#c (f x)"),
        (E(bin("+", con("c", vec![int(1)]), var("x"))), "(#c 1) + x"),
        (E(neg(con("c", vec![]))), "-(#c)"),
        (
            E(tuple(vec![con("c", vec![int(1)]), con("d", vec![])])),
            "(#c 1, #d)",
        ),
        (
            E(let_(pvar("x"), con("c", vec![]), var("x"))),
            "let x = #c in\nx",
        ),
    ]);
}

#[test]
fn open_ended_forms() {
    let (c, x, y) = (var("c"), var("x"), var("y"));
    check(vec![
        (
            E(if_(c.clone(), x.clone(), y.clone())),
            "if c then x else y",
        ),
        (
            E(bin("+", if_(c.clone(), x.clone(), y.clone()), int(1))),
            "(if c then x else y) + 1",
        ),
        (
            E(bin("+", int(1), if_(c.clone(), x.clone(), y.clone()))),
            "1 + (if c then x else y)",
        ),
        (
            E(if_(c.clone(), x.clone(), bin("+", y.clone(), int(1)))),
            "if c then x else y + 1",
        ),
        (
            E(if_(
                if_(c.clone(), x.clone(), y.clone()),
                x.clone(),
                y.clone(),
            )),
            "if (if c then x else y) then x else y",
        ),
        (
            E(if_(
                c.clone(),
                if_(c.clone(), x.clone(), y.clone()),
                y.clone(),
            )),
            "if c then if c then x else y else y",
        ),
        (
            E(app(var("f"), lambda(vec![pvar("x")], None, x.clone()))),
            "f (\\x -> x)",
        ),
        (
            E(lambda(
                vec![pvar("x"), pvar("y")],
                Some(tvar("i32")),
                x.clone(),
            )),
            "\\x y : i32 -> x",
        ),
        (
            E(lambda(
                vec![pvar("x")],
                Some(tfun(tvar("a"), tvar("b"))),
                x.clone(),
            )),
            "\\x : (a -> b) -> x",
        ),
        (
            E(lambda(
                vec![pasc(pvar("x"), tvar("i32"))],
                None,
                bin("+", x.clone(), int(1)),
            )),
            "\\(x : i32) -> x + 1",
        ),
        (
            E(ascribe(bin("+", x.clone(), y.clone()), tvar("i32"))),
            "x + y : i32",
        ),
        (
            E(ascribe(if_(c.clone(), x.clone(), y.clone()), tvar("t"))),
            "(if c then x else y) : t",
        ),
        (
            E(if_(c.clone(), ascribe(x.clone(), tvar("t")), y.clone())),
            "if c then x : t else y",
        ),
        (
            E(ascribe(ascribe(x.clone(), tvar("t")), tvar("u"))),
            "(x : t) : u",
        ),
        (
            E(Expr::Coerce {
                expr: b(x.clone()),
                ty: tarr(size("n"), tvar("i32")),
                span: sp(),
            }),
            "x :> [n]i32",
        ),
        (
            E(bin("+", ascribe(x.clone(), tvar("t")), y.clone())),
            "(x : t) + y",
        ),
        (
            E(Expr::Attr {
                attr: Attr::Name("inline".into()),
                expr: b(app(var("f"), x.clone())),
                span: sp(),
            }),
            "#[inline] f x",
        ),
        (
            E(app(
                var("f"),
                Expr::Attr {
                    attr: Attr::Call("a".into(), vec![Attr::Int(3), Attr::Name("b".into())]),
                    expr: b(x.clone()),
                    span: sp(),
                },
            )),
            "f (#[a(3, b)] x)",
        ),
        (
            E(tuple(vec![
                lambda(vec![pvar("x")], None, x.clone()),
                int(1),
            ])),
            "(\\x -> x, 1)",
        ),
    ]);
}

#[test]
fn ranges() {
    let (a, n) = (var("a"), var("n"));
    check(vec![
        (
            E(range(int(0), None, n.clone(), RangeEnd::UpToExclusive)),
            "0 ..< n",
        ),
        (
            E(range(n.clone(), None, int(0), RangeEnd::DownToExclusive)),
            "n ..> 0",
        ),
        (
            E(range(int(1), Some(int(3)), n.clone(), RangeEnd::Inclusive)),
            "1 .. 3 ... n",
        ),
        (
            E(range(
                int(1),
                Some(int(3)),
                n.clone(),
                RangeEnd::UpToExclusive,
            )),
            "1 .. 3 ..< n",
        ),
        (
            E(range(
                bin("+", a.clone(), int(1)),
                None,
                neg(n.clone()),
                RangeEnd::UpToExclusive,
            )),
            "a + 1 ..< -n",
        ),
        (
            E(app(
                var("f"),
                range(int(0), None, n.clone(), RangeEnd::UpToExclusive),
            )),
            "f (0 ..< n)",
        ),
        (
            E(range(
                range(int(0), None, n.clone(), RangeEnd::UpToExclusive),
                None,
                n.clone(),
                RangeEnd::Inclusive,
            )),
            "(0 ..< n) ... n",
        ),
        (
            E(range(
                int(0),
                None,
                if_(var("c"), a.clone(), n.clone()),
                RangeEnd::Inclusive,
            )),
            "0 ... (if c then a else n)",
        ),
    ]);
}

#[test]
fn let_chains_loops_and_matches() {
    let (x, y) = (var("x"), var("y"));
    let loop_ = |pat: Pat, init: Option<Expr>, form: LoopForm, body: Expr| Expr::Loop {
        pat,
        init: init.map(b),
        form,
        body: b(body),
        span: sp(),
    };
    let for_ = |var: &str, bound: Expr| LoopForm::For {
        var: var.into(),
        var_span: sp(),
        bound: b(bound),
    };
    let match_ = |scrutinee: Expr, cases: Vec<MatchCase>| Expr::Match {
        scrutinee: b(scrutinee),
        cases,
        span: sp(),
    };
    check(vec![
        (
            E(let_(
                pvar("x"),
                int(1),
                let_(pvar("y"), int(2), bin("+", x.clone(), y.clone())),
            )),
            "let x = 1 in\nlet y = 2 in\nx + y",
        ),
        (
            E(Expr::Let {
                sizes: vec!["n".into(), "m".into()],
                pat: pasc(pvar("xs"), tarr(size("n"), tarr(size("m"), tvar("i32")))),
                value: b(var("ys")),
                body: b(var("xs")),
                span: sp(),
            }),
            "let [n][m] (xs : [n][m]i32) = ys in\nxs",
        ),
        (
            E(let_(
                ptuple(vec![pvar("a"), Pat::Wildcard { span: sp() }]),
                var("p"),
                var("a"),
            )),
            "let (a, _) = p in\na",
        ),
        (
            E(Expr::LetFun {
                name: "f".into(),
                type_params: vec![
                    TypeParam::Type {
                        name: "a".into(),
                        liftedness: Liftedness::Unlifted,
                        span: sp(),
                    },
                    TypeParam::Size {
                        name: "n".into(),
                        span: sp(),
                    },
                ],
                params: vec![pasc(pvar("x"), tvar("a")), pvar("y")],
                return_type: Some(tvar("a")),
                value: b(x.clone()),
                body: b(app(var("f"), int(1))),
                span: sp(),
            }),
            "let f 'a [n] (x : a) y : a = x in\nf 1",
        ),
        (
            E(let_(
                pvar("x"),
                let_(pvar("y"), int(1), y.clone()),
                x.clone(),
            )),
            "let x =\n  let y = 1 in\n  y\nin\nx",
        ),
        (
            E(bin("+", let_(pvar("x"), int(1), x.clone()), int(2))),
            "(let x = 1 in\nx) + 2",
        ),
        (
            E(loop_(
                pvar("x"),
                Some(int(0)),
                for_("i", var("n")),
                bin("+", x.clone(), var("i")),
            )),
            "loop x = 0 for i < n do x + i",
        ),
        (
            E(loop_(
                ptuple(vec![pvar("x"), pvar("y")]),
                Some(tuple(vec![int(0), int(1)])),
                LoopForm::ForIn {
                    pat: pvar("z"),
                    array: b(var("zs")),
                },
                tuple(vec![y.clone(), x.clone()]),
            )),
            "loop (x, y) = (0, 1) for z in zs do (y, x)",
        ),
        (
            E(loop_(
                pvar("x"),
                None,
                LoopForm::While {
                    condition: b(bin("<", x.clone(), int(10))),
                },
                bin("*", x.clone(), int(2)),
            )),
            "loop x while x < 10 do x * 2",
        ),
        (
            E(match_(
                x.clone(),
                vec![
                    case(pcon("some", vec![pvar("y")]), bin("+", y.clone(), int(1))),
                    case(pasc(pvar("z"), tvar("i32")), var("z")),
                    case(Pat::Wildcard { span: sp() }, bin("+", x.clone(), int(1))),
                ],
            )),
            "match x\ncase #some y -> (y + 1)\ncase (z : i32) -> z\ncase _ -> x + 1",
        ),
        (
            E(match_(
                x.clone(),
                vec![
                    case(
                        Pat::Literal {
                            negative: true,
                            literal: Literal::Int {
                                value: 1,
                                suffix: None,
                            },
                            span: sp(),
                        },
                        int(0),
                    ),
                    case(
                        Pat::Wildcard { span: sp() },
                        match_(y.clone(), vec![case(pvar("z"), var("z"))]),
                    ),
                ],
            )),
            "match x\ncase -1 -> 0\ncase _ ->\n  match y\n  case z -> z",
        ),
        (
            E(match_(
                x.clone(),
                vec![
                    case(
                        pvar("a"),
                        match_(y.clone(), vec![case(pvar("z"), var("z"))]),
                    ),
                    case(pvar("b"), var("b")),
                ],
            )),
            "match x\ncase a ->\n  (match y\n  case z -> z)\ncase b -> b",
        ),
        // A trailing `match` in the scrutinee would take the outer cases.
        (
            E(match_(
                match_(x.clone(), vec![case(pvar("a"), var("a"))]),
                vec![case(pvar("b"), var("b"))],
            )),
            "match (match x\n  case a -> a)\ncase b -> b",
        ),
        (
            E(match_(
                bin("+", x.clone(), y.clone()),
                vec![case(pvar("b"), var("b"))],
            )),
            "match x + y\ncase b -> b",
        ),
    ]);
}

#[test]
fn types() {
    let (a, b_, c) = (tvar("a"), tvar("b"), tvar("c"));
    let tsize = |s: SizeExp| TypeArg::Size {
        size: s,
        span: sp(),
    };
    check(vec![
        (Tree::Type(tvar("m.t")), "m.t"),
        (
            Tree::Type(tarr(
                size("n"),
                tarr(SizeExp::Constant(3), tarr(SizeExp::Anonymous, tvar("i32"))),
            )),
            "[n][3][]i32",
        ),
        (
            Tree::Type(tarr(size("n"), tfun(a.clone(), b_.clone()))),
            "[n](a -> b)",
        ),
        (
            Tree::Type(tarr(size("n"), tapp("t", vec![TypeArg::Type(a.clone())]))),
            "[n](t a)",
        ),
        (Tree::Type(tarr(size("n"), tunique(a.clone()))), "[n](*a)"),
        (
            Tree::Type(tunique(tarr(SizeExp::Anonymous, a.clone()))),
            "*[]a",
        ),
        (Tree::Type(tunique(tunique(a.clone()))), "*(*a)"),
        (
            Tree::Type(tfun(a.clone(), tfun(b_.clone(), c.clone()))),
            "a -> b -> c",
        ),
        (
            Tree::Type(tfun(tfun(a.clone(), b_.clone()), c.clone())),
            "(a -> b) -> c",
        ),
        (
            Tree::Type(TypeExp::Arrow {
                param: Some("n".into()),
                from: Box::new(tvar("i64")),
                to: Box::new(tarr(size("n"), tvar("f32"))),
                span: sp(),
            }),
            "(n: i64) -> [n]f32",
        ),
        (
            Tree::Type(tapp(
                "t",
                vec![
                    TypeArg::Type(tarr(size("n"), tvar("i32"))),
                    tsize(size("n")),
                    tsize(SizeExp::Anonymous),
                    TypeArg::Type(tapp("u", vec![TypeArg::Type(a.clone())])),
                    TypeArg::Type(TypeExp::Tuple {
                        elements: vec![],
                        span: sp(),
                    }),
                ],
            )),
            "t ([n]i32) [n] [] (u a) ()",
        ),
        (
            Tree::Type(tsum(vec![
                ("a", vec![tvar("i32"), tarr(size("n"), b_.clone())]),
                ("b", vec![]),
            ])),
            "#a i32 ([n]b) | #b",
        ),
        (
            Tree::Type(tfun(tsum(vec![("a", vec![])]), tsum(vec![("b", vec![])]))),
            "(#a) -> (#b)",
        ),
        (
            Tree::Type(tarr(size("n"), tsum(vec![("a", vec![])]))),
            "[n](#a)",
        ),
        (
            Tree::Type(texists(
                &["n", "m"],
                tarr(size("n"), tarr(size("m"), a.clone())),
            )),
            "?[n][m].[n][m]a",
        ),
        (
            Tree::Type(tfun(texists(&["n"], a.clone()), b_.clone())),
            "(?[n].a) -> b",
        ),
        (
            Tree::Type(tfun(
                a.clone(),
                texists(&["n"], tfun(b_.clone(), c.clone())),
            )),
            "a -> ?[n].b -> c",
        ),
        (
            Tree::Type(tfun(a.clone(), texists(&["n"], tsum(vec![("x", vec![])])))),
            "a -> ?[n].(#x)",
        ),
        (
            Tree::Type(TypeExp::Record {
                fields: vec![
                    ("a".into(), tvar("i32")),
                    ("0".into(), tsum(vec![("x", vec![]), ("y", vec![])])),
                ],
                span: sp(),
            }),
            "{a: i32, 0: #x | #y}",
        ),
        (
            Tree::Type(TypeExp::Record {
                fields: vec![],
                span: sp(),
            }),
            "{}",
        ),
        (
            Tree::Type(TypeExp::Tuple {
                elements: vec![a.clone(), tfun(b_.clone(), c.clone())],
                span: sp(),
            }),
            "(a, b -> c)",
        ),
    ]);
}

#[test]
fn patterns() {
    let neg1 = Pat::Literal {
        negative: true,
        literal: Literal::Int {
            value: 1,
            suffix: Some(IntType::I64),
        },
        span: sp(),
    };
    let attr_pat = Pat::Attr {
        attr: Attr::Name("a".into()),
        pat: Box::new(pvar("x")),
        span: sp(),
    };
    check(vec![
        (Tree::Pat(pvar("x'")), "x'"),
        (Tree::Pat(neg1.clone()), "-1i64"),
        (
            Tree::Pat(pcon(
                "c",
                vec![neg1.clone(), pcon("d", vec![]), pcon("e", vec![pvar("x")])],
            )),
            "#c (-1i64) (#d) (#e x)",
        ),
        (
            Tree::Pat(ptuple(vec![
                pcon("c", vec![pvar("x")]),
                pcon("d", vec![]),
                pasc(pvar("y"), tvar("t")),
            ])),
            "((#c x), #d, y : t)",
        ),
        (
            Tree::Pat(Pat::Record {
                fields: vec![
                    ("a".into(), pvar("x")),
                    ("0".into(), pasc(pvar("y"), tvar("i32"))),
                ],
                span: sp(),
            }),
            "{a = x, 0 = y : i32}",
        ),
        (
            Tree::Pat(pasc(pcon("c", vec![pvar("x")]), tvar("t"))),
            "(#c x) : t",
        ),
        (
            Tree::Pat(ptuple(vec![attr_pat.clone(), pvar("y")])),
            "((#[a] x), y)",
        ),
        (Tree::Pat(attr_pat.clone()), "#[a] x"),
        (Tree::Pat(ptuple(vec![])), "()"),
        (
            Tree::Pat(Pat::Literal {
                negative: false,
                literal: Literal::float(2.5e300, Some(FloatType::F64)),
                span: sp(),
            }),
            "2.5e300f64",
        ),
    ]);
}

#[test]
fn module_types_and_module_expressions() {
    let sig = ModTypeExp::Signature {
        specs: vec![
            Spec::Type {
                liftedness: Liftedness::Unlifted,
                name: "t".into(),
                params: vec![],
                definition: None,
                span: sp(),
            },
            val_spec("+", tfun(tvar("t"), tfun(tvar("t"), tvar("t")))),
            Spec::Type {
                liftedness: Liftedness::Lifted,
                name: "f".into(),
                params: vec![TypeParam::Type {
                    name: "a".into(),
                    liftedness: Liftedness::SizeLifted,
                    span: sp(),
                }],
                definition: Some(tfun(tvar("a"), tvar("a"))),
                span: sp(),
            },
            Spec::Module {
                name: "m".into(),
                mod_type: ModTypeExp::Signature {
                    specs: vec![],
                    span: sp(),
                },
                span: sp(),
            },
            Spec::Include {
                mod_type: mtvar("s"),
                span: sp(),
            },
        ],
        span: sp(),
    };
    check(vec![
        (
            Tree::ModType(sig),
            "{\n  type t\n  val + : t -> t -> t\n  type^ f '~a = a -> a\n  module m : {}\n  include s\n}",
        ),
        (Tree::ModType(with(with(mtvar("s"), "t", tvar("i32")), "m.u", tvar("f32"))), "s with t = i32 with m.u = f32"),
        (Tree::ModType(mtfun(mtvar("a"), mtfun(mtvar("b"), mtvar("c")))), "a -> b -> c"),
        (Tree::ModType(mtfun(mtfun(mtvar("a"), mtvar("b")), mtvar("c"))), "(a -> b) -> c"),
        (Tree::ModType(mtfun(with(mtvar("s"), "t", tvar("i32")), mtvar("c"))), "(s with t = i32) -> c"),
        (Tree::ModType(mtfun(mtvar("c"), with(mtvar("s"), "t", tvar("i32")))), "c -> s with t = i32"),
        (Tree::ModType(with(mtfun(mtvar("a"), mtvar("b")), "t", tvar("i32"))), "(a -> b) with t = i32"),
        (
            Tree::ModType(ModTypeExp::Arrow {
                param: Some("p".into()),
                from: Box::new(with(mtvar("s"), "t", tvar("i32"))),
                to: Box::new(mtvar("c")),
                span: sp(),
            }),
            "(p: s with t = i32) -> c",
        ),
        (
            Tree::ModExp(ModExp::Apply {
                functor: Box::new(ModExp::Apply { functor: Box::new(mvar("f")), argument: Box::new(mvar("x")), span: sp() }),
                argument: Box::new(ModExp::Import { path: "lib/y".into(), span: sp() }),
                span: sp(),
            }),
            "f x (import \"lib/y\")",
        ),
        (
            Tree::ModExp(ModExp::Apply {
                functor: Box::new(mvar("f")),
                argument: Box::new(ModExp::Apply { functor: Box::new(mvar("g")), argument: Box::new(mvar("x")), span: sp() }),
                span: sp(),
            }),
            "f (g x)",
        ),
        (
            Tree::ModExp(ModExp::Ascribe {
                module: Box::new(ModExp::Lambda {
                    param: Box::new(ModParam { name: "p".into(), mod_type: mtvar("s"), span: sp() }),
                    result: Some(with(mtvar("s"), "t", tvar("i32"))),
                    body: Box::new(mvar("p")),
                    span: sp(),
                }),
                mod_type: mtfun(mtvar("s"), mtvar("s")),
                span: sp(),
            }),
            "(\\(p: s) : (s with t = i32) -> p) : s -> s",
        ),
    ]);
}

#[test]
fn programs() {
    let struct_ = ModExp::Struct {
        decs: vec![
            Dec::Type(TypeBind {
                liftedness: Liftedness::Unlifted,
                name: "t".into(),
                params: vec![],
                definition: tvar("i32"),
                span: sp(),
            }),
            def("x", vec![], int(1)),
        ],
        span: sp(),
    };
    check(vec![
        (Tree::Program(vec![]), ""),
        (
            Tree::Program(vec![
                def(
                    "+^",
                    vec![pvar("x"), pvar("y")],
                    bin("+", var("x"), var("y")),
                ),
                Dec::Value(ValueBind {
                    kind: ValueBindKind::Entry,
                    name: "main".into(),
                    type_params: vec![TypeParam::Size {
                        name: "n".into(),
                        span: sp(),
                    }],
                    params: vec![pasc(pvar("xs"), tarr(size("n"), tvar("i32")))],
                    return_type: Some(tvar("i32")),
                    body: let_(pvar("y"), int(1), var("y")),
                    span: sp(),
                }),
            ]),
            "def (+^) x y = x + y\n\nentry main [n] (xs : [n]i32) : i32 =\n  let y = 1 in\n  y\n",
        ),
        (
            Tree::Program(vec![
                Dec::Type(TypeBind {
                    liftedness: Liftedness::Lifted,
                    name: "f".into(),
                    params: vec![TypeParam::Type {
                        name: "a".into(),
                        liftedness: Liftedness::Lifted,
                        span: sp(),
                    }],
                    definition: tfun(tvar("a"), tvar("a")),
                    span: sp(),
                }),
                Dec::Type(TypeBind {
                    liftedness: Liftedness::SizeLifted,
                    name: "v".into(),
                    params: vec![],
                    definition: texists(&["n"], tarr(size("n"), tvar("i32"))),
                    span: sp(),
                }),
            ]),
            "type^ f '^a = a -> a\n\ntype~ v = ?[n].[n]i32\n",
        ),
        (
            Tree::Program(vec![
                Dec::ModuleType(ModuleTypeBind {
                    name: "s".into(),
                    definition: ModTypeExp::Signature {
                        specs: vec![],
                        span: sp(),
                    },
                    span: sp(),
                }),
                Dec::Module(ModuleBind {
                    name: "m".into(),
                    params: vec![
                        ModParam {
                            name: "p".into(),
                            mod_type: mtvar("s"),
                            span: sp(),
                        },
                        ModParam {
                            name: "q".into(),
                            mod_type: mtvar("s"),
                            span: sp(),
                        },
                    ],
                    signature: Some(mtvar("s")),
                    body: struct_.clone(),
                    span: sp(),
                }),
                Dec::Open {
                    module: ModExp::Apply {
                        functor: Box::new(mvar("m")),
                        argument: Box::new(struct_),
                        span: sp(),
                    },
                    span: sp(),
                },
                Dec::Local {
                    dec: Box::new(Dec::Import {
                        path: "a/b".into(),
                        span: sp(),
                    }),
                    span: sp(),
                },
                Dec::Attr {
                    attr: Attr::Name("noinline".into()),
                    dec: Box::new(def("y", vec![], int(2))),
                    span: sp(),
                },
            ]),
            "module type s = {}\n\n\
             module m (p: s) (q: s) : s = {\n  type t = i32\n\n  def x = 1\n}\n\n\
             open m {\n  type t = i32\n\n  def x = 1\n}\n\n\
             local import \"a/b\"\n\n\
             #[noinline] def y = 2\n",
        ),
    ]);
}
