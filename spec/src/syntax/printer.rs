//! Printing syntax trees as normalised Futhark source.
//!
//! The printer is the inverse of the parser: for every tree `t` the generators
//! produce, `parse(print(t)) == t`. It therefore inserts exactly the
//! parentheses the grammar needs, and a few more where two readings would
//! otherwise hinge on a subtle parser choice (correctness first):
//!
//! * Infix operators follow the fixity table of [`super::operators`]; the child
//!   on the non-associative side of an equal level is parenthesised.
//! * Prefix `-`/`!` bind tighter than every infix operator and looser than
//!   application; application is left-associative and its arguments are atoms.
//! * *Open-ended* forms (`if`, `let`, `\`, `loop`, `match`, `#[attr] e`) and
//!   ascriptions extend as far right as possible, so they are parenthesised
//!   wherever something could follow them inside the same expression.
//! * `x.f` always reads as a qualified name, so a projection from a variable
//!   prints `(x).f`; an index of a variable prints `a[i]`, with no space,
//!   because `f [i]` is an application to an array literal.
//!
//! Layout is normalised: declarations are separated by a blank line, structs
//! and signatures indent their contents by two spaces, each `let … in` of a
//! chain sits on its own line and each `case` of a `match` on its own line.
//! Layout never changes meaning: apart from `a[i]` versus `f [i]`, whitespace
//! is insignificant to the parser.

use super::ast::{
    Attr, BinOp, Dec, DimIndex, Expr, FloatType, IntType, Liftedness, Literal, LoopForm, MatchCase,
    ModExp, ModParam, ModTypeExp, Pat, Program, QualName, RangeEnd, SizeExp, Spec, TypeArg,
    TypeExp, TypeParam, TypeRefinement, ValueBind, ValueBindKind,
};
use super::operators::{fixity, is_operator_name, Assoc};

/// Spaces per nesting level inside `{ }` and broken lines.
const INDENT: usize = 2;
/// Preferred line width; longer constructs are broken over several lines.
const WIDTH: usize = 80;

/// A whole program: declarations separated by blank lines, ending in a newline
/// (the empty program prints as the empty string).
pub fn print_program(program: &Program) -> String {
    let mut out = decs(&program.decs, 0);
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// An expression, as it would appear as a declaration body.
pub fn print_expr(expr: &Expr) -> String {
    self::expr(expr, Ctx::Top, 0)
}

/// A type expression, as it would appear after `:`.
pub fn print_type(ty: &TypeExp) -> String {
    self::ty(ty, TyCtx::Top)
}

/// A pattern, as a whole pattern (ascriptions and constructors unparenthesised).
pub fn print_pat(pat: &Pat) -> String {
    self::pat(pat, PatCtx::Full)
}

/// A module expression, as it would appear as a module binding's body.
pub fn print_mod_exp(module: &ModExp) -> String {
    mod_exp(module, MCtx::Top, 0)
}

/// A module type expression, as it would appear after `module type m =`.
pub fn print_mod_type(mod_type: &ModTypeExp) -> String {
    self::mod_type(mod_type, MtCtx::Top, 0)
}

// ---------------------------------------------------------------------------
// Layout helpers

fn newline(indent: usize) -> String {
    format!("\n{}", " ".repeat(indent))
}

/// Whether `text` can stay on a line that starts at column `indent`.
fn fits(text: &str, indent: usize) -> bool {
    !text.contains('\n') && indent + text.len() <= WIDTH
}

/// `head body` on one line when it fits, otherwise `head` then `body` on the
/// next line, indented; `body` must have been printed at `indent + INDENT`.
fn hang(head: &str, body: &str, indent: usize) -> String {
    let flat = format!("{head} {body}");
    if fits(&flat, indent) {
        flat
    } else {
        format!("{head}{}{body}", newline(indent + INDENT))
    }
}

fn paren(text: String) -> String {
    format!("({text})")
}

fn comma_list<T>(items: &[T], mut item: impl FnMut(&T) -> String) -> String {
    items.iter().map(&mut item).collect::<Vec<_>>().join(", ")
}

// ---------------------------------------------------------------------------
// Names, literals, attributes, type parameters

fn qual_name(name: &QualName) -> String {
    let mut out = String::new();
    for qualifier in &name.qualifiers {
        out.push_str(qualifier);
        out.push('.');
    }
    out.push_str(&name.name);
    out
}

/// A binding occurrence of a value name: operators are written `(+^)`.
fn binder(name: &str) -> String {
    if is_operator_name(name) {
        format!("({name})")
    } else {
        name.to_string()
    }
}

fn bin_op(op: &BinOp) -> String {
    match op {
        BinOp::Symbol(name) => qual_name(name),
        BinOp::Backtick(name) => format!("`{}`", qual_name(name)),
    }
}

fn int_suffix(t: IntType) -> &'static str {
    match t {
        IntType::I8 => "i8",
        IntType::I16 => "i16",
        IntType::I32 => "i32",
        IntType::I64 => "i64",
        IntType::U8 => "u8",
        IntType::U16 => "u16",
        IntType::U32 => "u32",
        IntType::U64 => "u64",
    }
}

fn float_suffix(t: FloatType) -> &'static str {
    match t {
        FloatType::F32 => "f32",
        FloatType::F64 => "f64",
    }
}

/// Numbers print in decimal; a float prints as Rust's shortest round-tripping
/// `{:?}` form, which always contains `.` or `e` (`1.0`, `1e-7`).
fn literal(lit: &Literal) -> String {
    match *lit {
        Literal::Int { value, suffix } => {
            format!("{value}{}", suffix.map(int_suffix).unwrap_or(""))
        }
        Literal::Float { bits, suffix } => {
            format!(
                "{:?}{}",
                f64::from_bits(bits),
                suffix.map(float_suffix).unwrap_or("")
            )
        }
        Literal::Bool(b) => b.to_string(),
    }
}

fn attr_body(attr: &Attr) -> String {
    match attr {
        Attr::Name(name) => name.clone(),
        Attr::Int(n) => n.to_string(),
        Attr::Call(name, args) => format!("{name}({})", comma_list(args, attr_body)),
    }
}

fn attr(a: &Attr) -> String {
    format!("#[{}]", attr_body(a))
}

fn type_param(param: &TypeParam) -> String {
    match param {
        TypeParam::Size { name, .. } => format!("[{name}]"),
        TypeParam::Type {
            name, liftedness, ..
        } => {
            let mark = match liftedness {
                Liftedness::Unlifted => "",
                Liftedness::SizeLifted => "~",
                Liftedness::Lifted => "^",
            };
            format!("'{mark}{name}")
        }
    }
}

/// Type parameters, each preceded by a space.
fn type_params(params: &[TypeParam]) -> String {
    params
        .iter()
        .map(|p| format!(" {}", type_param(p)))
        .collect()
}

fn type_keyword(liftedness: Liftedness) -> &'static str {
    match liftedness {
        Liftedness::Unlifted => "type",
        Liftedness::SizeLifted => "type~",
        Liftedness::Lifted => "type^",
    }
}

// ---------------------------------------------------------------------------
// Types

/// Where a type appears, which decides what must be parenthesised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TyCtx {
    /// Anything goes: after `:`, `=`, inside brackets, last in an arrow.
    Top,
    /// The range of an arrow: everything but a sum type.
    ArrowTo,
    /// The domain of an unnamed arrow, and a lambda's return type (which a
    /// `->` follows): no arrows, sums or existentials.
    ArrowFrom,
    /// After `[n]` or `*`: atoms and arrays only.
    Prefixed,
    /// A type argument or a constructor payload: atoms only.
    Arg,
}

fn ty(t: &TypeExp, ctx: TyCtx) -> String {
    let ok = match t {
        TypeExp::Var(_) | TypeExp::Tuple { .. } | TypeExp::Record { .. } => true,
        TypeExp::Array { .. } => ctx != TyCtx::Arg,
        TypeExp::Apply { .. } | TypeExp::Unique { .. } => {
            matches!(ctx, TyCtx::Top | TyCtx::ArrowTo | TyCtx::ArrowFrom)
        }
        TypeExp::Arrow { .. } | TypeExp::Existential { .. } => {
            matches!(ctx, TyCtx::Top | TyCtx::ArrowTo)
        }
        TypeExp::Sum { .. } => ctx == TyCtx::Top,
    };
    let text = ty_bare(t, ctx);
    if ok {
        text
    } else {
        paren(text)
    }
}

fn size_exp(size: &SizeExp) -> String {
    match size {
        SizeExp::Anonymous => "[]".to_string(),
        SizeExp::Named(name) => format!("[{}]", qual_name(name)),
        SizeExp::Constant(n) => format!("[{n}]"),
        SizeExp::Expression(expression) => format!("[{}]", print_expr(expression)),
    }
}

/// `ctx` matters only to an existential, whose body extends to the right: a
/// sum there is parenthesised unless the existential stands at `Top`.
fn ty_bare(t: &TypeExp, ctx: TyCtx) -> String {
    match t {
        TypeExp::Var(name) => qual_name(name),
        TypeExp::Apply {
            constructor, args, ..
        } => {
            let mut out = qual_name(constructor);
            for arg in args {
                out.push(' ');
                match arg {
                    TypeArg::Size { size, .. } => out.push_str(&size_exp(size)),
                    TypeArg::Type(t) => out.push_str(&ty(t, TyCtx::Arg)),
                }
            }
            out
        }
        TypeExp::Array { size, element, .. } => {
            format!("{}{}", size_exp(size), ty(element, TyCtx::Prefixed))
        }
        TypeExp::Tuple { elements, .. } => paren(comma_list(elements, |t| ty(t, TyCtx::Top))),
        TypeExp::Record { fields, .. } => format!(
            "{{{}}}",
            comma_list(fields, |(name, t)| format!("{name}: {}", ty(t, TyCtx::Top)))
        ),
        TypeExp::Arrow {
            param, from, to, ..
        } => {
            let from = match param {
                Some(name) => format!("({name}: {})", ty(from, TyCtx::Top)),
                None => ty(from, TyCtx::ArrowFrom),
            };
            format!("{from} -> {}", ty(to, TyCtx::ArrowTo))
        }
        TypeExp::Sum { constructors, .. } => constructors
            .iter()
            .map(|c| {
                let mut out = format!("#{}", c.name);
                for t in &c.payload {
                    out.push(' ');
                    out.push_str(&ty(t, TyCtx::Arg));
                }
                out
            })
            .collect::<Vec<_>>()
            .join(" | "),
        TypeExp::Unique { ty: inner, .. } => format!("*{}", ty(inner, TyCtx::Prefixed)),
        TypeExp::Existential {
            sizes, ty: inner, ..
        } => {
            let sizes: String = sizes.iter().map(|n| format!("[{n}]")).collect();
            let body = if ctx == TyCtx::Top {
                TyCtx::Top
            } else {
                TyCtx::ArrowTo
            };
            format!("?{sizes}.{}", ty(inner, body))
        }
    }
}

// ---------------------------------------------------------------------------
// Patterns

/// Where a pattern appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PatCtx {
    /// A whole pattern on its own ([`print_pat`]).
    Full,
    /// A `case` pattern, which `->` follows: ascriptions are parenthesised.
    Case,
    /// A tuple or record element: constructors with payload and attributes
    /// are parenthesised, ascriptions are not.
    Element,
    /// Parameters, `let` and `loop` patterns, payload items, and the
    /// operands of `:` and `#[attr]`: atoms only.
    Atomic,
}

fn pat(p: &Pat, ctx: PatCtx) -> String {
    let ok = match p {
        Pat::Var { .. } | Pat::Wildcard { .. } | Pat::Tuple { .. } | Pat::Record { .. } => true,
        Pat::Literal { negative, .. } => !*negative || ctx != PatCtx::Atomic,
        Pat::Constructor { payload, .. } => match ctx {
            PatCtx::Full | PatCtx::Case => true,
            PatCtx::Element => payload.is_empty(),
            PatCtx::Atomic => false,
        },
        Pat::Ascribe { .. } => matches!(ctx, PatCtx::Full | PatCtx::Element),
        Pat::Attr { .. } => matches!(ctx, PatCtx::Full | PatCtx::Case),
    };
    let text = pat_bare(p);
    if ok {
        text
    } else {
        paren(text)
    }
}

fn pat_bare(p: &Pat) -> String {
    match p {
        Pat::Var { name, .. } => binder(name),
        Pat::Wildcard { .. } => "_".to_string(),
        Pat::Tuple { elements, .. } => paren(comma_list(elements, |p| pat(p, PatCtx::Element))),
        Pat::Record { fields, .. } => format!(
            "{{{}}}",
            comma_list(fields, |(name, p)| format!(
                "{name} = {}",
                pat(p, PatCtx::Element)
            ))
        ),
        Pat::Literal {
            negative,
            literal: l,
            ..
        } => format!("{}{}", if *negative { "-" } else { "" }, literal(l)),
        Pat::Constructor { name, payload, .. } => {
            let mut out = format!("#{name}");
            for p in payload {
                out.push(' ');
                out.push_str(&pat(p, PatCtx::Atomic));
            }
            out
        }
        Pat::Ascribe {
            pat: inner, ty: t, ..
        } => {
            format!("{} : {}", pat(inner, PatCtx::Atomic), ty(t, TyCtx::Top))
        }
        Pat::Attr {
            attr: a,
            pat: inner,
            ..
        } => {
            format!("{} {}", attr(a), pat(inner, PatCtx::Atomic))
        }
    }
}

/// Function or lambda parameters, each preceded by a space.
fn params(params: &[Pat]) -> String {
    params
        .iter()
        .map(|p| format!(" {}", pat(p, PatCtx::Atomic)))
        .collect()
}

// ---------------------------------------------------------------------------
// Expressions

/// Where an expression appears, which decides what must be parenthesised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// Anything goes: declaration bodies, `let` values and bodies, branches,
    /// lambda and loop bodies, loop initialisers, tuple/record/array
    /// elements and the last `case` body.
    Top,
    /// A single index `a[i]`: anything but an ascription.
    IndexComp,
    /// A `match` scrutinee, which `case` follows: anything but an open-ended
    /// form (a trailing `match` would take the cases).
    Scrutinee,
    /// An operand of an infix operator of at least this level (0 for the
    /// "binary-operator level" of conditions, slice and range parts, `with`
    /// targets and values, and the expression of an ascription): atoms,
    /// applications, prefix operators, and infix operators of that level or
    /// tighter.
    Operand(u8),
    /// The operand of prefix `-`/`!`, or the function of an application:
    /// atoms and applications.
    Prefix,
    /// An application argument, a constructor payload item, or the body of
    /// a `case` that is not the last: atoms only.
    Atom,
}

/// The syntactic class of an expression, from tightest to loosest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Atom,
    Constructor,
    Apply,
    Prefix,
    Infix(u8),
    Range,
    Update,
    OpenEnded,
    Ascription,
}

fn kind(e: &Expr) -> Kind {
    match e {
        Expr::Literal { .. }
        | Expr::Var(_)
        | Expr::Project { .. }
        | Expr::Tuple { .. }
        | Expr::Record { .. }
        | Expr::Array { .. }
        | Expr::Index { .. }
        | Expr::OpSection { .. }
        | Expr::LeftSection { .. }
        | Expr::RightSection { .. }
        | Expr::ProjectSection { .. }
        | Expr::IndexSection { .. }
        | Expr::OpenIn { .. } => Kind::Atom,
        Expr::Constructor { .. } => Kind::Constructor,
        Expr::Apply { .. } => Kind::Apply,
        Expr::Negate { .. } | Expr::Not { .. } => Kind::Prefix,
        Expr::BinOp { op, .. } => Kind::Infix(fixity(op).level),
        Expr::Range { .. } => Kind::Range,
        Expr::Update { .. } | Expr::RecordUpdate { .. } => Kind::Update,
        Expr::If { .. }
        | Expr::Let { .. }
        | Expr::LetFun { .. }
        | Expr::LetWith { .. }
        | Expr::Lambda { .. }
        | Expr::Loop { .. }
        | Expr::Match { .. }
        | Expr::Attr { .. } => Kind::OpenEnded,
        Expr::Ascribe { .. } | Expr::Coerce { .. } => Kind::Ascription,
    }
}

fn allowed(kind: Kind, ctx: Ctx) -> bool {
    match ctx {
        Ctx::Top => true,
        Ctx::IndexComp => kind != Kind::Ascription,
        Ctx::Scrutinee => kind != Kind::OpenEnded,
        Ctx::Operand(min) => match kind {
            Kind::Atom | Kind::Apply | Kind::Prefix => true,
            Kind::Infix(level) => level >= min,
            _ => false,
        },
        Ctx::Prefix => matches!(kind, Kind::Atom | Kind::Apply),
        Ctx::Atom => kind == Kind::Atom,
    }
}

/// The binary-operator level: no ranges, updates, open-ended forms,
/// ascriptions or constructors.
const CLOSED: Ctx = Ctx::Operand(0);

fn expr(e: &Expr, ctx: Ctx, indent: usize) -> String {
    let text = expr_bare(e, indent);
    if allowed(kind(e), ctx) {
        text
    } else {
        paren(text)
    }
}

fn is_numeral(field: &str) -> bool {
    field.starts_with(|c: char| c.is_ascii_digit())
}

/// The base of a projection or an index: postfix chains continue unbroken,
/// a non-empty tuple brings its own parentheses, anything else is
/// parenthesised (`(x).f`, since `x.f` is a qualified name).
fn chain_base(base: &Expr, indent: usize) -> String {
    match base {
        Expr::Project { .. } | Expr::Index { .. } => expr_bare(base, indent),
        Expr::Tuple { elements, .. } if elements.len() >= 2 => expr_bare(base, indent),
        _ => paren(expr_bare(base, indent)),
    }
}

fn dim_index(d: &DimIndex, indent: usize) -> String {
    match d {
        DimIndex::Index(e) => expr(e, Ctx::IndexComp, indent),
        DimIndex::Slice { start, end, stride } => {
            let part = |e: &Option<Expr>| {
                e.as_ref()
                    .map(|e| expr(e, CLOSED, indent))
                    .unwrap_or_default()
            };
            match stride {
                Some(_) => format!("{}:{}:{}", part(start), part(end), part(stride)),
                None => format!("{}:{}", part(start), part(end)),
            }
        }
    }
}

fn dim_indices(indices: &[DimIndex], indent: usize) -> String {
    format!("[{}]", comma_list(indices, |d| dim_index(d, indent)))
}

fn expr_bare(e: &Expr, indent: usize) -> String {
    let inner = indent + INDENT;
    match e {
        Expr::Literal { literal: l, .. } => literal(l),
        Expr::Var(name) => qual_name(name),
        Expr::Project {
            expr: base, field, ..
        } => {
            // `(x).0.1` would lex `0.1` as a float: parenthesise the base.
            let base = match &**base {
                Expr::Project { field: inner, .. } if is_numeral(field) && is_numeral(inner) => {
                    paren(expr_bare(base, indent))
                }
                _ => chain_base(base, indent),
            };
            format!("{base}.{field}")
        }
        Expr::Tuple { elements, .. } => paren(comma_list(elements, |e| expr(e, Ctx::Top, indent))),
        Expr::Record { fields, .. } => format!(
            "{{{}}}",
            comma_list(fields, |(name, e)| format!(
                "{name} = {}",
                expr(e, Ctx::Top, indent)
            ))
        ),
        Expr::Array { elements, .. } => {
            format!("[{}]", comma_list(elements, |e| expr(e, Ctx::Top, indent)))
        }
        Expr::Range {
            start,
            step,
            end,
            end_kind,
            ..
        } => {
            let mut out = expr(start, CLOSED, indent);
            if let Some(step) = step {
                out.push_str(" .. ");
                out.push_str(&expr(step, CLOSED, indent));
            }
            out.push_str(match end_kind {
                RangeEnd::Inclusive => " ... ",
                RangeEnd::UpToExclusive => " ..< ",
                RangeEnd::DownToExclusive => " ..> ",
            });
            out.push_str(&expr(end, CLOSED, indent));
            out
        }
        Expr::Index { array, indices, .. } => {
            let base = match &**array {
                Expr::Var(name) => qual_name(name),
                _ => chain_base(array, indent),
            };
            format!("{base}{}", dim_indices(indices, indent))
        }
        Expr::Apply {
            function, argument, ..
        } => format!(
            "{} {}",
            expr(function, Ctx::Prefix, indent),
            expr(argument, Ctx::Atom, indent)
        ),
        Expr::BinOp { op, lhs, rhs, .. } => {
            let f = fixity(op);
            let (lmin, rmin) = match f.assoc {
                Assoc::Left => (f.level, f.level + 1),
                Assoc::Right => (f.level + 1, f.level),
            };
            format!(
                "{} {} {}",
                expr(lhs, Ctx::Operand(lmin), indent),
                bin_op(op),
                expr(rhs, Ctx::Operand(rmin), indent)
            )
        }
        Expr::Negate { expr: operand, .. } => format!("-{}", expr(operand, Ctx::Prefix, indent)),
        Expr::Not { expr: operand, .. } => format!("!{}", expr(operand, Ctx::Prefix, indent)),
        Expr::OpSection { op, .. } => paren(bin_op(op)),
        Expr::LeftSection { op, left, .. } => {
            let operand = Ctx::Operand(fixity(op).level + 1);
            format!("({} {})", expr(left, operand, indent), bin_op(op))
        }
        Expr::RightSection { op, right, .. } => {
            let operand = Ctx::Operand(fixity(op).level + 1);
            format!("({} {})", bin_op(op), expr(right, operand, indent))
        }
        Expr::ProjectSection { fields, .. } => format!("(.{})", fields.join(".")),
        Expr::IndexSection { indices, .. } => {
            format!("(.{})", dim_indices(indices, indent))
        }
        Expr::If {
            condition,
            then_branch,
            else_branch,
            ..
        } => {
            let cond = expr(condition, CLOSED, inner);
            let then = expr(then_branch, Ctx::Top, inner);
            // `else if` chains stay at one indentation level.
            let else_if = matches!(**else_branch, Expr::If { .. });
            let els = expr(else_branch, Ctx::Top, if else_if { indent } else { inner });
            let flat = format!("if {cond} then {then} else {els}");
            if fits(&flat, indent) {
                return flat;
            }
            let els = if else_if {
                format!(" {els}")
            } else {
                format!("{}{els}", newline(inner))
            };
            format!(
                "if {cond} then{}{then}{}else{els}",
                newline(inner),
                newline(indent)
            )
        }
        Expr::Let {
            sizes,
            pat: p,
            value,
            body,
            ..
        } => {
            let sizes: String = sizes.iter().map(|n| format!("[{n}]")).collect();
            let sep = if sizes.is_empty() { "" } else { " " };
            let head = format!("let {sizes}{sep}{}", pat(p, PatCtx::Atomic));
            let_chain(&head, value, body, indent)
        }
        Expr::LetFun {
            name,
            type_params: tps,
            params: ps,
            return_type,
            value,
            body,
            ..
        } => {
            let mut head = format!("let {}{}{}", binder(name), type_params(tps), params(ps));
            if let Some(t) = return_type {
                head.push_str(" : ");
                head.push_str(&ty(t, TyCtx::Top));
            }
            let_chain(&head, value, body, indent)
        }
        Expr::LetWith {
            name,
            indices,
            value,
            body,
            ..
        } => {
            let head = format!("let {name}{}", dim_indices(indices, indent));
            let_chain(&head, value, body, indent)
        }
        Expr::Lambda {
            params: ps,
            return_type,
            body,
            ..
        } => {
            let mut head = format!("\\{}", params(ps).trim_start());
            if let Some(t) = return_type {
                head.push_str(" : ");
                head.push_str(&ty(t, TyCtx::ArrowFrom));
            }
            head.push_str(" ->");
            hang(&head, &expr(body, Ctx::Top, inner), indent)
        }
        Expr::Loop {
            pat: p,
            init,
            form,
            body,
            ..
        } => {
            let mut head = format!("loop {}", pat(p, PatCtx::Atomic));
            if let Some(init) = init {
                head.push_str(" = ");
                head.push_str(&expr(init, Ctx::Top, inner));
            }
            match form {
                LoopForm::For { var, bound, .. } => {
                    head.push_str(&format!(" for {var} < {}", expr(bound, CLOSED, inner)));
                }
                LoopForm::ForIn { pat: p, array } => {
                    head.push_str(&format!(
                        " for {} in {}",
                        pat(p, PatCtx::Atomic),
                        expr(array, CLOSED, inner)
                    ));
                }
                LoopForm::While { condition } => {
                    head.push_str(&format!(" while {}", expr(condition, CLOSED, inner)));
                }
            }
            head.push_str(" do");
            hang(&head, &expr(body, Ctx::Top, inner), indent)
        }
        Expr::Update {
            target,
            indices,
            value,
            ..
        } => format!(
            "{} with {} = {}",
            expr(target, CLOSED, indent),
            dim_indices(indices, indent),
            expr(value, CLOSED, indent)
        ),
        Expr::RecordUpdate {
            target,
            fields,
            value,
            ..
        } => format!(
            "{} with {} = {}",
            expr(target, CLOSED, indent),
            fields.join("."),
            expr(value, CLOSED, indent)
        ),
        Expr::Ascribe {
            expr: inner_e,
            ty: t,
            ..
        } => {
            format!("{} : {}", expr(inner_e, CLOSED, indent), ty(t, TyCtx::Top))
        }
        Expr::Coerce {
            expr: inner_e,
            ty: t,
            ..
        } => {
            format!("{} :> {}", expr(inner_e, CLOSED, indent), ty(t, TyCtx::Top))
        }
        Expr::Match {
            scrutinee, cases, ..
        } => {
            let mut out = format!("match {}", expr(scrutinee, Ctx::Scrutinee, inner));
            for (i, case) in cases.iter().enumerate() {
                let last = i + 1 == cases.len();
                out.push_str(&newline(indent));
                out.push_str(&match_case(case, last, indent));
            }
            out
        }
        Expr::Constructor { name, payload, .. } => {
            let mut out = format!("#{name}");
            for e in payload {
                out.push(' ');
                out.push_str(&expr(e, Ctx::Atom, indent));
            }
            out
        }
        Expr::OpenIn { module, body, .. } => {
            format!("{}.({})", qual_name(module), expr(body, Ctx::Top, indent))
        }
        Expr::Attr {
            attr: a,
            expr: inner_e,
            ..
        } => format!("{} {}", attr(a), expr(inner_e, Ctx::Top, indent)),
    }
}

/// `head = value in` on one line (or `head =`, the value indented, and `in`
/// on lines of their own), then the body on the next line.
fn let_chain(head: &str, value: &Expr, body: &Expr, indent: usize) -> String {
    let value = expr(value, Ctx::Top, indent + INDENT);
    let body = expr(body, Ctx::Top, indent);
    let flat = format!("{head} = {value} in");
    if fits(&flat, indent) {
        format!("{flat}{}{body}", newline(indent))
    } else {
        format!(
            "{head} ={}{value}{}in{}{body}",
            newline(indent + INDENT),
            newline(indent),
            newline(indent)
        )
    }
}

fn match_case(case: &MatchCase, last: bool, indent: usize) -> String {
    let ctx = if last { Ctx::Top } else { Ctx::Atom };
    let head = format!("case {} ->", pat(&case.pat, PatCtx::Case));
    hang(&head, &expr(&case.body, ctx, indent + INDENT), indent)
}

// ---------------------------------------------------------------------------
// Module types

/// Where a module type appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MtCtx {
    /// Anything goes.
    Top,
    /// The domain of an unnamed arrow, or a functor lambda's result type
    /// (followed by `->`): names and signatures only, since the type of a
    /// trailing `with` refinement would swallow the arrow.
    ArrowFrom,
    /// The module type refined by `with`: anything but an arrow.
    WithBase,
}

fn mod_type(mt: &ModTypeExp, ctx: MtCtx, indent: usize) -> String {
    let ok = match mt {
        ModTypeExp::Var(_) | ModTypeExp::Signature { .. } => true,
        ModTypeExp::With { .. } => ctx != MtCtx::ArrowFrom,
        ModTypeExp::Arrow { .. } => ctx == MtCtx::Top,
    };
    let text = mod_type_bare(mt, indent);
    if ok {
        text
    } else {
        paren(text)
    }
}

fn mod_type_bare(mt: &ModTypeExp, indent: usize) -> String {
    match mt {
        ModTypeExp::Var(name) => qual_name(name),
        ModTypeExp::Signature { specs, .. } => {
            if specs.is_empty() {
                return "{}".to_string();
            }
            let mut out = "{".to_string();
            for s in specs {
                out.push_str(&newline(indent + INDENT));
                out.push_str(&spec(s, indent + INDENT));
            }
            out.push_str(&newline(indent));
            out.push('}');
            out
        }
        ModTypeExp::With {
            mod_type: base,
            refinement,
            ..
        } => format!(
            "{} with {}",
            mod_type(base, MtCtx::WithBase, indent),
            type_refinement(refinement)
        ),
        ModTypeExp::Arrow {
            param, from, to, ..
        } => {
            let from = match param {
                Some(name) => format!("({name}: {})", mod_type(from, MtCtx::Top, indent)),
                None => mod_type(from, MtCtx::ArrowFrom, indent),
            };
            format!("{from} -> {}", mod_type(to, MtCtx::Top, indent))
        }
    }
}

fn type_refinement(r: &TypeRefinement) -> String {
    format!(
        "{}{} = {}",
        qual_name(&r.name),
        type_params(&r.params),
        ty(&r.definition, TyCtx::Top)
    )
}

fn spec(s: &Spec, indent: usize) -> String {
    match s {
        Spec::Val {
            name,
            type_params: tps,
            ty: t,
            ..
        // Futhark's grammar names an operator in a value spec bare: `val + : t`.
        } => format!("val {}{} : {}", name, type_params(tps), ty(t, TyCtx::Top)),
        Spec::Type {
            liftedness,
            name,
            params,
            definition,
            ..
        } => {
            let mut out = format!(
                "{} {name}{}",
                type_keyword(*liftedness),
                type_params(params)
            );
            if let Some(t) = definition {
                out.push_str(" = ");
                out.push_str(&ty(t, TyCtx::Top));
            }
            out
        }
        Spec::Module {
            name, mod_type: mt, ..
        } => format!("module {name} : {}", mod_type(mt, MtCtx::Top, indent)),
        Spec::Include { mod_type: mt, .. } => {
            format!("include {}", mod_type(mt, MtCtx::Top, indent))
        }
    }
}

// ---------------------------------------------------------------------------
// Module expressions

/// Where a module expression appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MCtx {
    /// Anything goes.
    Top,
    /// The module of an ascription `me : mt`: no ascriptions or lambdas.
    Ascribed,
    /// The functor of an application: names, structs and applications.
    Functor,
    /// The argument of an application: names and structs. `import "p"` is
    /// parenthesised too, so that a bare `import` is always a declaration.
    Argument,
}

fn mod_exp(m: &ModExp, ctx: MCtx, indent: usize) -> String {
    let ok = match m {
        ModExp::Var(_) | ModExp::Struct { .. } => true,
        ModExp::Apply { .. } => ctx != MCtx::Argument,
        ModExp::Import { .. } => matches!(ctx, MCtx::Top | MCtx::Ascribed),
        ModExp::Ascribe { .. } | ModExp::Lambda { .. } => ctx == MCtx::Top,
    };
    let text = mod_exp_bare(m, indent);
    if ok {
        text
    } else {
        paren(text)
    }
}

fn mod_param(p: &ModParam, indent: usize) -> String {
    format!(
        "({}: {})",
        p.name,
        mod_type(&p.mod_type, MtCtx::Top, indent)
    )
}

fn mod_exp_bare(m: &ModExp, indent: usize) -> String {
    match m {
        ModExp::Var(name) => qual_name(name),
        ModExp::Struct { decs: ds, .. } => {
            if ds.is_empty() {
                return "{}".to_string();
            }
            format!(
                "{{{}{}{}}}",
                newline(indent + INDENT),
                decs(ds, indent + INDENT),
                newline(indent)
            )
        }
        ModExp::Ascribe {
            module,
            mod_type: mt,
            ..
        } => format!(
            "{} : {}",
            mod_exp(module, MCtx::Ascribed, indent),
            mod_type(mt, MtCtx::Top, indent)
        ),
        ModExp::Lambda {
            param,
            result,
            body,
            ..
        } => {
            let mut head = format!("\\{}", mod_param(param, indent));
            if let Some(mt) = result {
                head.push_str(" : ");
                head.push_str(&mod_type(mt, MtCtx::ArrowFrom, indent));
            }
            head.push_str(" ->");
            hang(&head, &mod_exp(body, MCtx::Top, indent + INDENT), indent)
        }
        ModExp::Apply {
            functor, argument, ..
        } => format!(
            "{} {}",
            mod_exp(functor, MCtx::Functor, indent),
            mod_exp(argument, MCtx::Argument, indent)
        ),
        ModExp::Import { path, .. } => format!("import \"{path}\""),
    }
}

// ---------------------------------------------------------------------------
// Declarations

/// Declarations at `indent`, separated by blank lines.
fn decs(ds: &[Dec], indent: usize) -> String {
    let blank = format!("\n{}", newline(indent));
    ds.iter()
        .map(|d| dec(d, indent))
        .collect::<Vec<_>>()
        .join(&blank)
}

fn value_bind(b: &ValueBind, indent: usize) -> String {
    let keyword = match b.kind {
        ValueBindKind::Def => "def",
        ValueBindKind::Entry => "entry",
    };
    let mut head = format!(
        "{keyword} {}{}{}",
        binder(&b.name),
        type_params(&b.type_params),
        params(&b.params)
    );
    if let Some(t) = &b.return_type {
        head.push_str(" : ");
        head.push_str(&ty(t, TyCtx::Top));
    }
    head.push_str(" =");
    hang(&head, &expr(&b.body, Ctx::Top, indent + INDENT), indent)
}

fn dec(d: &Dec, indent: usize) -> String {
    match d {
        Dec::Value(b) => value_bind(b, indent),
        Dec::Type(b) => format!(
            "{} {}{} = {}",
            type_keyword(b.liftedness),
            b.name,
            type_params(&b.params),
            ty(&b.definition, TyCtx::Top)
        ),
        Dec::Module(b) => {
            let mut out = format!("module {}", b.name);
            for p in &b.params {
                out.push(' ');
                out.push_str(&mod_param(p, indent));
            }
            if let Some(mt) = &b.signature {
                out.push_str(" : ");
                out.push_str(&mod_type(mt, MtCtx::Top, indent));
            }
            out.push_str(" = ");
            out.push_str(&mod_exp(&b.body, MCtx::Top, indent));
            out
        }
        Dec::ModuleType(b) => format!(
            "module type {} = {}",
            b.name,
            mod_type(&b.definition, MtCtx::Top, indent)
        ),
        Dec::Open { module, .. } => format!("open {}", mod_exp(module, MCtx::Top, indent)),
        Dec::Import { path, .. } => format!("import \"{path}\""),
        Dec::Local { dec: inner, .. } => format!("local {}", dec(inner, indent)),
        Dec::Attr {
            attr: a,
            dec: inner,
            ..
        } => format!("{} {}", attr(a), dec(inner, indent)),
    }
}
