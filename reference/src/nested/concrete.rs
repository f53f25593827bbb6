//! The concrete syntax of λP programs (`.lp` files), a small text format:
//!
//! ```text
//! -- a comment (to the end of the line)
//! e ::= \(x : t) -> e          λx:t. e
//!     | \x -> e                λx. e, only where it is applied (its type is the argument's)
//!     | mu (f : t) -> e        μf:t. e
//!     | let x (: t)? = e in e  (\x -> e') e   (the type is taken from e)
//!     | letrec f : t = e in e  let f = mu (f : t) -> e in e'
//!     | if e then e else e     case((\(_ : ()) -> e_else, \(_ : ()) -> e_then), boolToSum e)
//!     | match e with Left (x : t) -> e | Right (y : t) -> e
//!                              case((\(x : t) -> e1, \(y : t) -> e2), e)
//!     | e == e | e < e | e <= e | e > e | e >= e      eq, lt, le (> and >= swap)
//!     | e ++ e                 concatP (right-associative)
//!     | e + e | e - e | e * e | e / e | e % e          add sub mul div mod
//!     | e ! e                  indexP (xs ! i)
//!     | e e                    application
//!     | e.1 | e.2              projections
//!     | 42 | -3 | true | false | () | x | (e) | (e, e, …)   (tuples nest to the right)
//!     | c | c<t, …>            a constant (`constants.rs` names); type arguments
//!                              may be left out when the constant is applied and
//!                              they can be read off the argument's type
//!     | [e, …]                 repP(1, e1) ++ … ; the empty array is `nilP<t> ()`
//! t ::= Int | Bool | () | t * t | t + t | t -> t | [t] | mu a. t | a | (t)
//!       (`->` right-associative and loosest, then `+`, then `*`, both right-assoc.)
//! ```
//!
//! A file may state the expected observation in a comment line
//! `-- expect: [81, 74, 0, 181]` (see `Observation`'s printed form), read by
//! the test harness and by `runestone nested`.

use super::constants::{Const, Prim};
use super::lambda_c::{ExprC, TermC};
use super::lambda_p::{ExprP, TermP};
use super::types::Type;
use spec::diagnostic::Diagnostic;
use spec::source::{FileId, Span};
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Int(i64),
    Ident(String),
    Symbol(&'static str),
    End,
}

#[derive(Clone, Debug)]
struct Lexeme {
    token: Token,
    start: usize,
    end: usize,
    /// Whether whitespace or a comment precedes the token.
    spaced: bool,
}

const SYMBOLS: [&str; 29] = [
    "->", "=>", "<<", ">>", "<=", ">=", "==", "++", "\\", ":", "=", "(", ")", ",", "[", "]", "<",
    ">", "+", "-", "*", "/", "%", "!", "|", ".", "_", "#", "$",
];

fn lex(file: FileId, text: &str) -> Result<Vec<Lexeme>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut spaced = true;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            spaced = true;
            continue;
        }
        if text[i..].starts_with("--") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            spaced = true;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let value: i64 = text[start..i].parse().map_err(|_| {
                Diagnostic::error("integer literal out of range")
                    .with_code("syntax")
                    .with_primary(Span::new(file, start, i), "does not fit in 64 bits")
            })?;
            out.push(Lexeme {
                token: Token::Int(value),
                start,
                end: i,
                spaced,
            });
        } else if c.is_ascii_alphabetic()
            || (c == b'_' && i + 1 < bytes.len() && bytes[i + 1].is_ascii_alphanumeric())
        {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'\'')
            {
                i += 1;
            }
            out.push(Lexeme {
                token: Token::Ident(text[start..i].to_string()),
                start,
                end: i,
                spaced,
            });
        } else {
            let Some(symbol) = SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) else {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(Diagnostic::error(format!("unexpected character `{ch}`"))
                    .with_code("syntax")
                    .with_primary(
                        Span::new(file, i, i + ch.len_utf8()),
                        "not part of the λP syntax",
                    ));
            };
            i += symbol.len();
            out.push(Lexeme {
                token: Token::Symbol(symbol),
                start,
                end: i,
                spaced,
            });
        }
        spaced = false;
    }
    out.push(Lexeme {
        token: Token::End,
        start: text.len(),
        end: text.len(),
        spaced: true,
    });
    Ok(out)
}

struct Parser {
    file: FileId,
    tokens: Vec<Lexeme>,
    position: usize,
    depth: usize,
}

const KEYWORDS: [&str; 12] = [
    "let", "letrec", "in", "if", "then", "else", "mu", "true", "false", "match", "with", "Int",
];

/// Parses a λP program.
pub fn parse_program(file: FileId, text: &str) -> Result<ExprP, Diagnostic> {
    let mut parser = Parser {
        file,
        tokens: lex(file, text)?,
        position: 0,
        depth: 0,
    };
    let e = parser.expr()?;
    if parser.peek() != &Token::End {
        return Err(parser.error_here("expected the end of the program"));
    }
    Ok(e)
}

/// Parses a λC program (`.lc` files): the syntax of λC terms as printed by
/// `ExprC`'s `Display`:
///
/// ```text
/// e ::= \(# : t) -> e | mu (# : t) -> e      λ•:t. e, μ•:t. e
///     | e $ e                                e † e (left-associative, looser than application)
///     | e == e | e < e | … | e + e | …        as in λP (constants without type arguments)
///     | e e | e.1 | e.2 | # | 42 | true | false | () | (e) | (e, e, …)
///     | c | c<t, …>                           constants; type arguments are required
///     | <<e, t1, t2, t3, e>>                  the closure ⟨⟨e1, τ1, τ2, τ3, e2⟩⟩
/// ```
pub fn parse_lambda_c(file: FileId, text: &str) -> Result<ExprC, Diagnostic> {
    let mut parser = Parser {
        file,
        tokens: lex(file, text)?,
        position: 0,
        depth: 0,
    };
    let e = parser.c_expr()?;
    if parser.peek() != &Token::End {
        return Err(parser.error_here("expected the end of the program"));
    }
    Ok(e)
}

/// Parses a type (used by tests and the CLI).
pub fn parse_type(file: FileId, text: &str) -> Result<Type, Diagnostic> {
    let mut parser = Parser {
        file,
        tokens: lex(file, text)?,
        position: 0,
        depth: 0,
    };
    let ty = parser.ty()?;
    if parser.peek() != &Token::End {
        return Err(parser.error_here("expected the end of the type"));
    }
    Ok(ty)
}

/// The `-- expect: …` line of a program, if any.
pub fn expected_observation(text: &str) -> Option<String> {
    text.lines()
        .find_map(|line| line.trim().strip_prefix("-- expect:"))
        .map(|rest| rest.trim().to_string())
}

const MAX_NESTING: usize = 500;

impl Parser {
    fn peek(&self) -> &Token {
        &self.tokens[self.position].token
    }
    fn lexeme(&self) -> &Lexeme {
        &self.tokens[self.position]
    }
    fn advance(&mut self) -> Lexeme {
        let lexeme = self.tokens[self.position].clone();
        if self.position + 1 < self.tokens.len() {
            self.position += 1;
        }
        lexeme
    }
    fn span_from(&self, start: usize) -> Span {
        let end = if self.position == 0 {
            start
        } else {
            self.tokens[self.position - 1].end
        };
        Span::new(self.file, start, end.max(start))
    }
    fn error_here(&self, message: &str) -> Diagnostic {
        let lexeme = self.lexeme();
        let found = match &lexeme.token {
            Token::Int(i) => format!("`{i}`"),
            Token::Ident(name) => format!("`{name}`"),
            Token::Symbol(s) => format!("`{s}`"),
            Token::End => "the end of the file".to_string(),
        };
        Diagnostic::error(format!("{message}, found {found}"))
            .with_code("syntax")
            .with_primary(
                Span::new(self.file, lexeme.start, lexeme.end),
                message.to_string(),
            )
    }
    fn is_symbol(&self, symbol: &str) -> bool {
        matches!(self.peek(), Token::Symbol(s) if *s == symbol)
    }
    fn is_keyword(&self, keyword: &str) -> bool {
        matches!(self.peek(), Token::Ident(name) if name == keyword)
    }
    fn expect_symbol(&mut self, symbol: &'static str) -> Result<(), Diagnostic> {
        if self.is_symbol(symbol) {
            self.advance();
            Ok(())
        } else {
            Err(self.error_here(&format!("expected `{symbol}`")))
        }
    }
    fn expect_keyword(&mut self, keyword: &str) -> Result<(), Diagnostic> {
        if self.is_keyword(keyword) {
            self.advance();
            Ok(())
        } else {
            Err(self.error_here(&format!("expected `{keyword}`")))
        }
    }
    fn variable(&mut self) -> Result<Rc<str>, Diagnostic> {
        match self.peek().clone() {
            Token::Ident(name)
                if !KEYWORDS.contains(&name.as_str()) && Prim::from_name(&name).is_none() =>
            {
                self.advance();
                Ok(name.into())
            }
            Token::Symbol("_") => {
                self.advance();
                Ok("_".into())
            }
            _ => Err(self.error_here("expected a variable name")),
        }
    }
    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.error_here("the program nests too deeply"));
        }
        Ok(())
    }

    // ---- types ----

    fn ty(&mut self) -> Result<Type, Diagnostic> {
        self.enter()?;
        let result = self.ty_function();
        self.depth -= 1;
        result
    }
    fn ty_function(&mut self) -> Result<Type, Diagnostic> {
        if self.is_keyword("mu") {
            self.advance();
            let name = self.variable()?;
            self.expect_symbol(".")?;
            let body = self.ty()?;
            return Ok(Type::Mu(name, Rc::new(body)));
        }
        let left = self.ty_sum()?;
        if self.is_symbol("->") {
            self.advance();
            return Ok(Type::fun(left, self.ty()?));
        }
        if self.is_symbol("=>") {
            self.advance();
            return Ok(Type::clo(left, self.ty()?));
        }
        Ok(left)
    }
    fn ty_sum(&mut self) -> Result<Type, Diagnostic> {
        let left = self.ty_product()?;
        if self.is_symbol("+") {
            self.advance();
            return Ok(Type::sum(left, self.ty_sum()?));
        }
        Ok(left)
    }
    fn ty_product(&mut self) -> Result<Type, Diagnostic> {
        let left = self.ty_atom()?;
        if self.is_symbol("*") {
            self.advance();
            return Ok(Type::prod(left, self.ty_product()?));
        }
        Ok(left)
    }
    fn ty_atom(&mut self) -> Result<Type, Diagnostic> {
        match self.peek().clone() {
            Token::Ident(name) if name == "Int" => {
                self.advance();
                Ok(Type::Int)
            }
            Token::Ident(name) if name == "Bool" => {
                self.advance();
                Ok(Type::Bool)
            }
            Token::Ident(name) if !KEYWORDS.contains(&name.as_str()) => {
                self.advance();
                Ok(Type::Var(name.into()))
            }
            Token::Symbol("(") => {
                self.advance();
                if self.is_symbol(")") {
                    self.advance();
                    return Ok(Type::Unit);
                }
                let inner = self.ty()?;
                self.expect_symbol(")")?;
                Ok(inner)
            }
            Token::Symbol("[") => {
                self.advance();
                let inner = self.ty()?;
                self.expect_symbol("]")?;
                Ok(Type::array(inner))
            }
            Token::Ident(name) if name == "mu" => self.ty(),
            _ => Err(self.error_here("expected a type")),
        }
    }

    // ---- expressions ----

    fn expr(&mut self) -> Result<ExprP, Diagnostic> {
        self.enter()?;
        let result = self.expr_inner();
        self.depth -= 1;
        result
    }

    fn expr_inner(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        if self.is_symbol("\\") {
            self.advance();
            let (name, ty) = if self.is_symbol("(") {
                let (name, ty) = self.typed_binder()?;
                (name, Some(ty))
            } else {
                (self.variable()?, None)
            };
            self.expect_symbol("->")?;
            let body = self.expr()?;
            return Ok(ExprP::new(
                TermP::Lam(name, ty, Box::new(body)),
                self.span_from(start),
            ));
        }
        if self.is_keyword("mu") {
            self.advance();
            let (name, ty) = self.typed_binder()?;
            self.expect_symbol("->")?;
            let body = self.expr()?;
            return Ok(ExprP::new(
                TermP::Mu(name, ty, Box::new(body)),
                self.span_from(start),
            ));
        }
        if self.is_keyword("let") || self.is_keyword("letrec") {
            let recursive = self.is_keyword("letrec");
            self.advance();
            let name = self.variable()?;
            let ty = if self.is_symbol(":") {
                self.advance();
                Some(self.ty()?)
            } else {
                None
            };
            self.expect_symbol("=")?;
            let mut bound = self.expr()?;
            self.expect_keyword("in")?;
            let body = self.expr()?;
            let span = self.span_from(start);
            if recursive {
                let Some(ty) = ty.clone() else {
                    return Err(Diagnostic::error("`letrec` needs a type")
                        .with_code("syntax")
                        .with_primary(span, "write `letrec f : t = ...`"));
                };
                let bound_span = bound.span;
                bound = ExprP::new(TermP::Mu(name.clone(), ty, Box::new(bound)), bound_span);
            }
            let function = ExprP::new(TermP::Lam(name, ty, Box::new(body)), span);
            return Ok(ExprP::new(
                TermP::App(Box::new(function), Box::new(bound)),
                span,
            ));
        }
        if self.is_keyword("if") {
            self.advance();
            let condition = self.expr()?;
            self.expect_keyword("then")?;
            let then_branch = self.expr()?;
            self.expect_keyword("else")?;
            let else_branch = self.expr()?;
            let span = self.span_from(start);
            let branch = |body: ExprP| {
                ExprP::new(
                    TermP::Lam("_".into(), Some(Type::Unit), Box::new(body)),
                    span,
                )
            };
            let scrutinee = ExprP::new(
                TermP::App(
                    Box::new(ExprP::new(
                        TermP::Const(Prim::BoolToSum, Some(Vec::new())),
                        span,
                    )),
                    Box::new(condition),
                ),
                span,
            );
            return Ok(case_expression(
                branch(else_branch),
                branch(then_branch),
                scrutinee,
                span,
            ));
        }
        if self.is_keyword("match") {
            self.advance();
            let scrutinee = self.expr()?;
            self.expect_keyword("with")?;
            if self.is_symbol("|") {
                self.advance();
            }
            let left = self.match_arm("Left")?;
            self.expect_symbol("|")?;
            let right = self.match_arm("Right")?;
            let span = self.span_from(start);
            return Ok(case_expression(left, right, scrutinee, span));
        }
        self.comparison()
    }

    /// `(x : t)`.
    fn typed_binder(&mut self) -> Result<(Rc<str>, Type), Diagnostic> {
        self.expect_symbol("(")?;
        let name = self.variable()?;
        self.expect_symbol(":")?;
        let ty = self.ty()?;
        self.expect_symbol(")")?;
        Ok((name, ty))
    }

    fn match_arm(&mut self, constructor: &str) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        self.expect_keyword(constructor)?;
        let (name, ty) = self.typed_binder()?;
        self.expect_symbol("->")?;
        let body = self.expr()?;
        Ok(ExprP::new(
            TermP::Lam(name, Some(ty), Box::new(body)),
            self.span_from(start),
        ))
    }

    fn binary(&self, prim: Prim, left: ExprP, right: ExprP, start: usize) -> ExprP {
        let span = self.span_from(start);
        let argument = ExprP::new(TermP::Tuple(Box::new(left), Box::new(right)), span);
        ExprP::new(
            TermP::App(
                Box::new(ExprP::new(TermP::Const(prim, None), span)),
                Box::new(argument),
            ),
            span,
        )
    }

    fn comparison(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        let left = self.concatenation()?;
        let (prim, swap) = match self.peek() {
            Token::Symbol("==") => (Prim::Eq, false),
            Token::Symbol("<") => (Prim::Lt, false),
            Token::Symbol("<=") => (Prim::Le, false),
            Token::Symbol(">") => (Prim::Lt, true),
            Token::Symbol(">=") => (Prim::Le, true),
            _ => return Ok(left),
        };
        self.advance();
        let right = self.concatenation()?;
        Ok(if swap {
            self.binary(prim, right, left, start)
        } else {
            self.binary(prim, left, right, start)
        })
    }

    fn concatenation(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        let left = self.additive()?;
        if self.is_symbol("++") {
            self.advance();
            self.enter()?;
            let right = self.concatenation();
            self.depth -= 1;
            return Ok(self.binary(Prim::ConcatP, left, right?, start));
        }
        Ok(left)
    }

    fn additive(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        let mut left = self.multiplicative()?;
        loop {
            let prim = match self.peek() {
                Token::Symbol("+") => Prim::Add,
                Token::Symbol("-") => Prim::Sub,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.multiplicative()?;
            left = self.binary(prim, left, right, start);
        }
    }

    fn multiplicative(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        let mut left = self.indexing()?;
        loop {
            let prim = match self.peek() {
                Token::Symbol("*") => Prim::Mul,
                Token::Symbol("/") => Prim::Div,
                Token::Symbol("%") => Prim::Mod,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.indexing()?;
            left = self.binary(prim, left, right, start);
        }
    }

    fn indexing(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        let mut left = self.application()?;
        while self.is_symbol("!") {
            self.advance();
            let right = self.application()?;
            left = self.binary(Prim::IndexP, left, right, start);
        }
        Ok(left)
    }

    fn starts_atom(&self) -> bool {
        match self.peek() {
            Token::Int(_) => true,
            Token::Ident(name) => !matches!(
                name.as_str(),
                "in" | "then" | "else" | "with" | "let" | "letrec" | "if" | "match" | "mu"
            ),
            Token::Symbol(s) => matches!(*s, "(" | "["),
            Token::End => false,
        }
    }

    fn application(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        let mut function = self.postfix()?;
        while self.starts_atom() {
            let argument = self.postfix()?;
            function = ExprP::new(
                TermP::App(Box::new(function), Box::new(argument)),
                self.span_from(start),
            );
        }
        Ok(function)
    }

    fn postfix(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        let mut e = self.atom()?;
        while self.is_symbol(".") && !self.lexeme().spaced {
            self.advance();
            match self.peek() {
                Token::Int(i @ (1 | 2)) => {
                    let i = *i as u8;
                    self.advance();
                    e = ExprP::new(TermP::Proj(Box::new(e), i), self.span_from(start));
                }
                _ => return Err(self.error_here("expected `1` or `2` after `.`")),
            }
        }
        Ok(e)
    }

    fn atom(&mut self) -> Result<ExprP, Diagnostic> {
        let start = self.lexeme().start;
        match self.peek().clone() {
            Token::Int(i) => {
                self.advance();
                Ok(ExprP::new(TermP::Int(i), self.span_from(start)))
            }
            Token::Symbol("-") => {
                self.advance();
                match self.peek().clone() {
                    Token::Int(i) => {
                        self.advance();
                        Ok(ExprP::new(
                            TermP::Int(i.wrapping_neg()),
                            self.span_from(start),
                        ))
                    }
                    _ => Err(self.error_here("expected an integer after `-`")),
                }
            }
            Token::Ident(name) if name == "true" || name == "false" => {
                self.advance();
                Ok(ExprP::new(
                    TermP::Bool(name == "true"),
                    self.span_from(start),
                ))
            }
            Token::Ident(name) => {
                if let Some(prim) = Prim::from_name(&name) {
                    self.advance();
                    let type_args = if self.is_symbol("<") && !self.lexeme().spaced {
                        self.advance();
                        let mut args = Vec::new();
                        if !self.is_symbol(">") {
                            loop {
                                args.push(self.ty()?);
                                if self.is_symbol(",") {
                                    self.advance();
                                } else {
                                    break;
                                }
                            }
                        }
                        self.expect_symbol(">")?;
                        Some(args)
                    } else if prim.type_arity() == 0 {
                        Some(Vec::new())
                    } else {
                        None
                    };
                    return Ok(ExprP::new(
                        TermP::Const(prim, type_args),
                        self.span_from(start),
                    ));
                }
                let name = self.variable()?;
                Ok(ExprP::new(TermP::Var(name), self.span_from(start)))
            }
            Token::Symbol("(") => {
                self.advance();
                if self.is_symbol(")") {
                    self.advance();
                    return Ok(ExprP::new(TermP::Unit, self.span_from(start)));
                }
                let mut items = vec![self.expr()?];
                while self.is_symbol(",") {
                    self.advance();
                    items.push(self.expr()?);
                }
                self.expect_symbol(")")?;
                let span = self.span_from(start);
                let mut result = items.pop().unwrap_or_else(|| ExprP::new(TermP::Unit, span));
                while let Some(item) = items.pop() {
                    result = ExprP::new(TermP::Tuple(Box::new(item), Box::new(result)), span);
                }
                Ok(result)
            }
            Token::Symbol("[") => {
                self.advance();
                if self.is_symbol("]") {
                    return Err(self
                        .error_here("an empty array needs its element type: write `nilP<t> ()`"));
                }
                let mut items = vec![self.expr()?];
                while self.is_symbol(",") {
                    self.advance();
                    items.push(self.expr()?);
                }
                self.expect_symbol("]")?;
                let span = self.span_from(start);
                let singleton = |item: ExprP| {
                    let item_span = item.span;
                    ExprP::new(
                        TermP::App(
                            Box::new(ExprP::new(TermP::Const(Prim::RepP, None), item_span)),
                            Box::new(ExprP::new(
                                TermP::Tuple(
                                    Box::new(ExprP::new(TermP::Int(1), item_span)),
                                    Box::new(item),
                                ),
                                item_span,
                            )),
                        ),
                        item_span,
                    )
                };
                let mut result =
                    singleton(items.pop().unwrap_or_else(|| ExprP::new(TermP::Unit, span)));
                while let Some(item) = items.pop() {
                    let argument = ExprP::new(
                        TermP::Tuple(Box::new(singleton(item)), Box::new(result)),
                        span,
                    );
                    result = ExprP::new(
                        TermP::App(
                            Box::new(ExprP::new(TermP::Const(Prim::ConcatP, None), span)),
                            Box::new(argument),
                        ),
                        span,
                    );
                }
                Ok(result)
            }
            _ => Err(self.error_here("expected an expression")),
        }
    }
}

// ---- λC ----------------------------------------------------------------------

impl Parser {
    fn c_expr(&mut self) -> Result<ExprC, Diagnostic> {
        self.enter()?;
        let result = self.c_expr_inner();
        self.depth -= 1;
        result
    }

    fn c_binder(&mut self) -> Result<Type, Diagnostic> {
        self.expect_symbol("(")?;
        self.expect_symbol("#")?;
        self.expect_symbol(":")?;
        let ty = self.ty()?;
        self.expect_symbol(")")?;
        self.expect_symbol("->")?;
        Ok(ty)
    }

    fn c_expr_inner(&mut self) -> Result<ExprC, Diagnostic> {
        if self.is_symbol("\\") {
            self.advance();
            let ty = self.c_binder()?;
            return Ok(ExprC::lam(ty, self.c_expr()?));
        }
        if self.is_keyword("mu") {
            self.advance();
            let ty = self.c_binder()?;
            return Ok(ExprC::new(TermC::Mu(ty, self.c_expr()?)));
        }
        let left = self.c_additive()?;
        let (prim, swap) = match self.peek() {
            Token::Symbol("==") => (Prim::Eq, false),
            Token::Symbol("<") => (Prim::Lt, false),
            Token::Symbol("<=") => (Prim::Le, false),
            Token::Symbol(">") => (Prim::Lt, true),
            Token::Symbol(">=") => (Prim::Le, true),
            _ => return Ok(left),
        };
        self.advance();
        let right = self.c_additive()?;
        Ok(if swap {
            c_binary(prim, right, left)
        } else {
            c_binary(prim, left, right)
        })
    }

    fn c_additive(&mut self) -> Result<ExprC, Diagnostic> {
        let mut left = self.c_multiplicative()?;
        loop {
            let prim = match self.peek() {
                Token::Symbol("+") => Prim::Add,
                Token::Symbol("-") => Prim::Sub,
                _ => return Ok(left),
            };
            self.advance();
            left = c_binary(prim, left, self.c_multiplicative()?);
        }
    }

    fn c_multiplicative(&mut self) -> Result<ExprC, Diagnostic> {
        let mut left = self.c_closure_application()?;
        loop {
            let prim = match self.peek() {
                Token::Symbol("*") => Prim::Mul,
                Token::Symbol("/") => Prim::Div,
                Token::Symbol("%") => Prim::Mod,
                _ => return Ok(left),
            };
            self.advance();
            left = c_binary(prim, left, self.c_closure_application()?);
        }
    }

    fn c_closure_application(&mut self) -> Result<ExprC, Diagnostic> {
        let mut left = self.c_application()?;
        while self.is_symbol("$") {
            self.advance();
            left = ExprC::clo_app(left, self.c_application()?);
        }
        Ok(left)
    }

    fn c_starts_atom(&self) -> bool {
        match self.peek() {
            Token::Int(_) => true,
            Token::Ident(name) => {
                !KEYWORDS.contains(&name.as_str()) || name == "true" || name == "false"
            }
            Token::Symbol(s) => matches!(*s, "(" | "#" | "<<"),
            Token::End => false,
        }
    }

    fn c_application(&mut self) -> Result<ExprC, Diagnostic> {
        let mut function = self.c_postfix()?;
        while self.c_starts_atom() {
            function = ExprC::app(function, self.c_postfix()?);
        }
        Ok(function)
    }

    fn c_postfix(&mut self) -> Result<ExprC, Diagnostic> {
        let mut e = self.c_atom()?;
        while self.is_symbol(".") && !self.lexeme().spaced {
            self.advance();
            match self.peek() {
                Token::Int(i @ (1 | 2)) => {
                    let i = *i as u8;
                    self.advance();
                    e = ExprC::proj(e, i);
                }
                _ => return Err(self.error_here("expected `1` or `2` after `.`")),
            }
        }
        Ok(e)
    }

    fn c_atom(&mut self) -> Result<ExprC, Diagnostic> {
        match self.peek().clone() {
            Token::Int(i) => {
                self.advance();
                Ok(ExprC::int(i))
            }
            Token::Symbol("-") => {
                self.advance();
                match self.peek().clone() {
                    Token::Int(i) => {
                        self.advance();
                        Ok(ExprC::int(i.wrapping_neg()))
                    }
                    _ => Err(self.error_here("expected an integer after `-`")),
                }
            }
            Token::Symbol("#") => {
                self.advance();
                Ok(ExprC::bullet())
            }
            Token::Ident(name) if name == "true" || name == "false" => {
                self.advance();
                Ok(ExprC::boolean(name == "true"))
            }
            Token::Ident(name) => {
                let Some(prim) = Prim::from_name(&name) else {
                    return Err(self.error_here(
                        "λC has no named variables (use `#`) or this constant is unknown",
                    ));
                };
                self.advance();
                let mut type_args = Vec::new();
                if self.is_symbol("<") && !self.lexeme().spaced {
                    self.advance();
                    if !self.is_symbol(">") {
                        loop {
                            type_args.push(self.ty()?);
                            if self.is_symbol(",") {
                                self.advance();
                            } else {
                                break;
                            }
                        }
                    }
                    self.expect_symbol(">")?;
                }
                Ok(ExprC::constant(Const { prim, type_args }))
            }
            Token::Symbol("(") => {
                self.advance();
                if self.is_symbol(")") {
                    self.advance();
                    return Ok(ExprC::unit());
                }
                let mut items = vec![self.c_expr()?];
                while self.is_symbol(",") {
                    self.advance();
                    items.push(self.c_expr()?);
                }
                self.expect_symbol(")")?;
                let mut result = items.pop().unwrap_or_else(ExprC::unit);
                while let Some(item) = items.pop() {
                    result = ExprC::tuple(item, result);
                }
                Ok(result)
            }
            Token::Symbol("<<") => {
                self.advance();
                let code = self.c_expr()?;
                self.expect_symbol(",")?;
                let t1 = self.ty()?;
                self.expect_symbol(",")?;
                let t2 = self.ty()?;
                self.expect_symbol(",")?;
                let t3 = self.ty()?;
                self.expect_symbol(",")?;
                let environment = self.c_expr()?;
                self.expect_symbol(">>")?;
                Ok(ExprC::new(TermC::Closure(code, t1, t2, t3, environment)))
            }
            _ => Err(self.error_here("expected a λC expression")),
        }
    }
}

fn c_binary(prim: Prim, left: ExprC, right: ExprC) -> ExprC {
    ExprC::app(
        ExprC::constant(Const {
            prim,
            type_args: Vec::new(),
        }),
        ExprC::tuple(left, right),
    )
}

/// `case⟨⟨left, right⟩, scrutinee⟩` with the instance left to the checker.
fn case_expression(left: ExprP, right: ExprP, scrutinee: ExprP, span: Span) -> ExprP {
    let functions = ExprP::new(TermP::Tuple(Box::new(left), Box::new(right)), span);
    let argument = ExprP::new(TermP::Tuple(Box::new(functions), Box::new(scrutinee)), span);
    ExprP::new(
        TermP::App(
            Box::new(ExprP::new(TermP::Const(Prim::Case, None), span)),
            Box::new(argument),
        ),
        span,
    )
}
