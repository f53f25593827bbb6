//! The parser: tokens to the surface syntax tree ([`super::ast`]).
//!
//! Hand-written recursive descent, with precedence climbing for infix operators
//! (fixities in [`super::operators`]). The grammar is the Futhark language
//! reference's, with its ambiguities resolved as Futhark's own parser does
//! (see the reference's "Resolving Ambiguities"): `a[i]` without a space
//! indexes, `a [i]` applies; `(-x)` is negation, not a section; the bodies of
//! `let`, `if`, `loop`, lambdas and `match` cases extend as far right as
//! possible; a `let` followed directly by another `let` may omit `in`.
//!
//! The parser stops at the first error (no cascades) and reports what it
//! expected there. Nesting is bounded by [`MAX_NESTING`] so that no input can
//! overflow the stack of the parser or of any later pass walking the tree.

mod decs;
mod exprs;
mod pats;
mod types;

use super::ast::{Expr, ModExp, ModTypeExp, Name, Pat, Program, QualName, TypeExp};
use super::lexer::{lex, Keyword, Token, TokenKind};
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

/// How deeply the parser may recurse (each parenthesis, `let` in a chain,
/// operator or application in a chain costs one to three levels) before it
/// gives up with a diagnostic. Every tree the parser returns is therefore at
/// most this deep, which bounds the recursion of every pass over it; passes
/// recurse through [`crate::recursion::with_stack`], so the bound is about
/// memory, not about any thread's stack size.
pub const MAX_NESTING: usize = 4096;

/// Parses a whole file.
pub fn parse_program(file: FileId, text: &str) -> Result<Program, Diagnostic> {
    let mut parser = Parser::new(file, text)?;
    let decs = parser.decs_until_eof()?;
    Ok(Program { decs })
}

/// Parses a single expression (the whole input).
pub fn parse_expr(file: FileId, text: &str) -> Result<Expr, Diagnostic> {
    let mut parser = Parser::new(file, text)?;
    let expr = parser.expr()?;
    parser.expect_eof("the end of the expression")?;
    Ok(expr)
}

/// Parses a single type expression (the whole input).
pub fn parse_type(file: FileId, text: &str) -> Result<TypeExp, Diagnostic> {
    let mut parser = Parser::new(file, text)?;
    let ty = parser.type_exp()?;
    parser.expect_eof("the end of the type")?;
    Ok(ty)
}

/// Parses a single pattern (the whole input).
pub fn parse_pat(file: FileId, text: &str) -> Result<Pat, Diagnostic> {
    let mut parser = Parser::new(file, text)?;
    let pat = parser.pat()?;
    parser.expect_eof("the end of the pattern")?;
    Ok(pat)
}

/// Parses a single module expression (the whole input).
pub fn parse_mod_exp(file: FileId, text: &str) -> Result<ModExp, Diagnostic> {
    let mut parser = Parser::new(file, text)?;
    let module = parser.mod_exp()?;
    parser.expect_eof("the end of the module expression")?;
    Ok(module)
}

/// Parses a single module type expression (the whole input).
pub fn parse_mod_type(file: FileId, text: &str) -> Result<ModTypeExp, Diagnostic> {
    let mut parser = Parser::new(file, text)?;
    let mod_type = parser.mod_type()?;
    parser.expect_eof("the end of the module type")?;
    Ok(mod_type)
}

type PResult<T> = Result<T, Diagnostic>;

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    /// Current nesting depth (see [`MAX_NESTING`]).
    depth: usize,
}

impl Parser {
    fn new(file: FileId, text: &str) -> PResult<Parser> {
        Ok(Parser {
            tokens: lex(file, text)?,
            pos: 0,
            depth: 0,
        })
    }

    // -- The token cursor ---------------------------------------------------

    fn peek(&self) -> &TokenKind {
        &self.tokens[self.pos].kind
    }

    fn peek_at(&self, offset: usize) -> &TokenKind {
        let index = (self.pos + offset).min(self.tokens.len() - 1);
        &self.tokens[index].kind
    }

    fn token_at(&self, offset: usize) -> &Token {
        let index = (self.pos + offset).min(self.tokens.len() - 1);
        &self.tokens[index]
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].span
    }

    /// The span from `start` to the end of the last consumed token.
    fn span_from(&self, start: Span) -> Span {
        let end = if self.pos == 0 {
            start
        } else {
            self.tokens[self.pos - 1].span
        };
        start.to(end)
    }

    /// Whether the token at `offset` directly follows the previous one.
    fn adjacent_at(&self, offset: usize) -> bool {
        !self.token_at(offset).space_before
    }

    fn advance(&mut self) -> Token {
        let token = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        token
    }

    fn at(&self, kind: &TokenKind) -> bool {
        self.peek() == kind
    }

    fn at_keyword(&self, keyword: Keyword) -> bool {
        *self.peek() == TokenKind::Keyword(keyword)
    }

    fn at_symbol(&self, symbol: &str) -> bool {
        matches!(self.peek(), TokenKind::Symbol(s) if s == symbol)
    }

    fn eat(&mut self, kind: &TokenKind) -> bool {
        if self.at(kind) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn eat_keyword(&mut self, keyword: Keyword) -> bool {
        self.eat(&TokenKind::Keyword(keyword))
    }

    // -- Errors ---------------------------------------------------------------

    /// "expected `what`, found …" at the current token.
    fn expected(&self, what: &str) -> Diagnostic {
        let found = self.peek().describe();
        Diagnostic::error(format!("expected {what}, found {found}"))
            .with_code("syntax")
            .with_primary(self.span(), format!("expected {what}"))
    }

    fn expect(&mut self, kind: &TokenKind, what: &str) -> PResult<Token> {
        if self.at(kind) {
            Ok(self.advance())
        } else {
            Err(self.expected(what))
        }
    }

    fn expect_keyword(&mut self, keyword: Keyword) -> PResult<Token> {
        self.expect(
            &TokenKind::Keyword(keyword),
            &format!("`{}`", keyword.spelling()),
        )
    }

    /// Expects the bracket closing one opened at `open`; the error also points
    /// at the opening bracket.
    fn expect_closing(&mut self, kind: &TokenKind, open: Span, what: &str) -> PResult<Token> {
        if self.at(kind) {
            Ok(self.advance())
        } else {
            let opened = self.tokens.iter().find(|t| t.span.same_location(&open));
            let bracket = opened.map_or("bracket".to_string(), |t| t.kind.describe());
            Err(self
                .expected(what)
                .with_secondary(open, format!("unclosed {bracket} opened here")))
        }
    }

    fn expect_eof(&mut self, what: &str) -> PResult<()> {
        if self.at(&TokenKind::Eof) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// An unqualified identifier.
    fn ident(&mut self, what: &str) -> PResult<(Name, Span)> {
        match self.peek().clone() {
            TokenKind::Ident(name) => {
                let span = self.advance().span;
                Ok((name, span))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A record field name: an identifier or a decimal numeral.
    fn field_name(&mut self, what: &str) -> PResult<(Name, Span)> {
        match self.peek().clone() {
            TokenKind::Ident(name) => {
                let span = self.advance().span;
                Ok((name, span))
            }
            TokenKind::Int {
                value,
                suffix: None,
            } => {
                let span = self.advance().span;
                Ok((value.to_string(), span))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A possibly qualified name `a.b.c` (components adjacent to their dots).
    /// Components after the first may be numerals (`t.0`: field `0` of `t`,
    /// resolved later).
    fn qual_name(&mut self, what: &str) -> PResult<QualName> {
        let (first, start) = self.ident(what)?;
        let mut parts = vec![first];
        while self.at(&TokenKind::Dot)
            && self.adjacent_at(0)
            && self.adjacent_at(1)
            && matches!(
                self.peek_at(1),
                TokenKind::Ident(_) | TokenKind::Int { suffix: None, .. }
            )
        {
            self.advance();
            let (part, _) = self.field_name("a name")?;
            parts.push(part);
        }
        let name = parts.pop().unwrap_or_default();
        Ok(QualName {
            qualifiers: parts,
            name,
            span: self.span_from(start),
        })
    }

    // -- Nesting --------------------------------------------------------------

    /// Runs `parse` one nesting level deeper, refusing to go past
    /// [`MAX_NESTING`].
    fn nested<T>(&mut self, parse: impl FnOnce(&mut Parser) -> PResult<T>) -> PResult<T> {
        self.check_depth(1)?;
        self.depth += 1;
        let result = crate::recursion::with_stack(|| parse(self));
        self.depth -= 1;
        result
    }

    /// Goes one level deeper for the next link of a chain built by a loop
    /// (operators, applications, postfix indexing); the loop restores the depth
    /// it started with when the chain ends.
    fn deepen(&mut self) -> PResult<()> {
        self.check_depth(1)?;
        self.depth += 1;
        Ok(())
    }

    /// Fails if nesting `extra` levels deeper would pass [`MAX_NESTING`]; used
    /// by loops that build left-nested chains (operators, applications).
    fn check_depth(&self, extra: usize) -> PResult<()> {
        if self.depth + extra > MAX_NESTING {
            Err(Diagnostic::error(format!(
                "the program nests more than {MAX_NESTING} levels deep"
            ))
            .with_code("syntax")
            .with_primary(self.span(), "nesting limit reached here")
            .with_note(
                "runestone bounds the nesting of programs so that every pass over them \
                 stays within bounded resources",
            ))
        } else {
            Ok(())
        }
    }
}
