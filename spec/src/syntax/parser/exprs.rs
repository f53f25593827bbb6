//! Expressions (Futhark language reference: "Expressions", "Resolving
//! Ambiguities").
//!
//! Levels, loosest first: ascription `e : t` / `e :> t`; ranges
//! `a..b...c`, `a..<b`, `a..>b`; updates `e with [i] = v`, `e with f = v`;
//! infix operators by precedence climbing ([`crate::syntax::operators`]);
//! prefix `-` and `!`; the open-ended forms (`if`, `let`, `loop`, `match`,
//! lambdas, attributes), which may stand wherever a prefix operand may and
//! extend as far right as possible; application; atoms with their postfix
//! indexing `a[i]` and projections `(e).f`.

use super::{PResult, Parser};
use crate::source::Span;
use crate::syntax::ast::{
    BinOp, DimIndex, Expr, IntType, Literal, LoopForm, MatchCase, Name, QualName, RangeEnd,
    SizeExp, TypeExp,
};
use crate::syntax::lexer::{Keyword, TokenKind};
use crate::syntax::operators::fixity;

impl Parser {
    /// A full expression.
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        self.nested(|p| p.expr_ascribe())
    }

    /// An expression without a top-level type ascription (inside slices,
    /// where `:` separates the slice's parts).
    fn expr_in_slice(&mut self) -> PResult<Expr> {
        self.nested(|p| p.expr_range())
    }

    fn expr_ascribe(&mut self) -> PResult<Expr> {
        let start = self.span();
        let mut expr = self.expr_range()?;
        let depth = self.depth;
        loop {
            let coerce = match self.peek() {
                TokenKind::Colon => false,
                TokenKind::ColonGt => true,
                _ => break,
            };
            self.advance();
            self.deepen()?;
            let ty = self.type_exp()?;
            let span = self.span_from(start);
            let expr_box = Box::new(expr);
            expr = if coerce {
                Expr::Coerce {
                    expr: expr_box,
                    ty,
                    span,
                }
            } else {
                Expr::Ascribe {
                    expr: expr_box,
                    ty,
                    span,
                }
            };
        }
        self.depth = depth;
        Ok(expr)
    }

    fn expr_range(&mut self) -> PResult<Expr> {
        let start = self.span();
        let first = self.expr_with()?;
        let step = if self.eat(&TokenKind::DotDot) {
            Some(Box::new(self.nested(|p| p.expr_with())?))
        } else {
            None
        };
        let end_kind = match self.peek() {
            TokenKind::DotDotDot => RangeEnd::Inclusive,
            TokenKind::DotDotLt => RangeEnd::UpToExclusive,
            TokenKind::DotDotGt => RangeEnd::DownToExclusive,
            _ if step.is_some() => {
                return Err(self.expected("`...`, `..<` or `..>` to end the range"))
            }
            _ => return Ok(first),
        };
        self.advance();
        let end = self.nested(|p| p.expr_with())?;
        Ok(Expr::Range {
            start: Box::new(first),
            step,
            end: Box::new(end),
            end_kind,
            span: self.span_from(start),
        })
    }

    fn expr_with(&mut self) -> PResult<Expr> {
        let start = self.span();
        let mut expr = self.expr_binop(1)?;
        let depth = self.depth;
        while self.eat_keyword(Keyword::With) {
            self.deepen()?;
            if self.at(&TokenKind::LBracket) {
                let indices = self.slice_brackets()?;
                self.expect(&TokenKind::Equals, "`=` and the new element")?;
                let value = self.nested(|p| p.expr_binop(1))?;
                expr = Expr::Update {
                    target: Box::new(expr),
                    indices,
                    value: Box::new(value),
                    span: self.span_from(start),
                };
            } else {
                let mut fields = vec![self.field_name("`[` or a field name after `with`")?.0];
                while self.eat(&TokenKind::Dot) {
                    fields.push(self.field_name("a field name")?.0);
                }
                self.expect(&TokenKind::Equals, "`=` and the new field value")?;
                let value = self.nested(|p| p.expr_binop(1))?;
                expr = Expr::RecordUpdate {
                    target: Box::new(expr),
                    fields,
                    value: Box::new(value),
                    span: self.span_from(start),
                };
            }
        }
        self.depth = depth;
        Ok(expr)
    }

    /// Precedence climbing over infix operators of level ≥ `min_level`.
    fn expr_binop(&mut self, min_level: u8) -> PResult<Expr> {
        let start = self.span();
        let mut lhs = self.expr_unary()?;
        let depth = self.depth;
        loop {
            let before_operator = self.pos;
            let Some(op) = self.binop_token()? else {
                break;
            };
            let op_fixity = fixity(&op);
            // `(e op)` is a section: leave the operator to the parenthesis.
            if op_fixity.level < min_level || self.at(&TokenKind::RParen) {
                self.pos = before_operator;
                break;
            }
            self.deepen()?;
            let next_level = match op_fixity.assoc {
                crate::syntax::operators::Assoc::Left => op_fixity.level + 1,
                crate::syntax::operators::Assoc::Right => op_fixity.level,
            };
            let rhs = self.expr_binop(next_level)?;
            lhs = Expr::BinOp {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                span: self.span_from(start),
            };
        }
        self.depth = depth;
        Ok(lhs)
    }

    /// Whether the tokens at the cursor are `m.n.op` (a qualified operator).
    fn at_qualified_operator(&self) -> bool {
        let mut offset = 0;
        if !matches!(self.peek_at(offset), TokenKind::Ident(_)) {
            return false;
        }
        loop {
            offset += 1;
            if !(*self.peek_at(offset) == TokenKind::Dot
                && self.adjacent_at(offset)
                && self.adjacent_at(offset + 1))
            {
                return false;
            }
            offset += 1;
            match self.peek_at(offset) {
                TokenKind::Symbol(_) => return true,
                TokenKind::Ident(_) => continue,
                _ => return false,
            }
        }
    }

    /// An infix operator at the cursor, consumed: `op`, `m.op` or `` `f` ``.
    fn binop_token(&mut self) -> PResult<Option<BinOp>> {
        let start = self.span();
        match self.peek().clone() {
            TokenKind::Symbol(symbol) => {
                self.advance();
                Ok(Some(BinOp::Symbol(QualName::unqualified(symbol, start))))
            }
            TokenKind::Backtick => {
                self.advance();
                let name = self.qual_name("a function name between backticks")?;
                self.expect(&TokenKind::Backtick, "a closing backtick")?;
                Ok(Some(BinOp::Backtick(name)))
            }
            TokenKind::Ident(_) if self.at_qualified_operator() => {
                let mut qualifiers = Vec::new();
                while let TokenKind::Ident(name) = self.peek().clone() {
                    self.advance();
                    self.advance(); // the dot
                    qualifiers.push(name);
                }
                let TokenKind::Symbol(symbol) = self.peek().clone() else {
                    return Err(self.expected("an operator"));
                };
                self.advance();
                Ok(Some(BinOp::Symbol(QualName {
                    qualifiers,
                    name: symbol,
                    span: self.span_from(start),
                })))
            }
            _ => Ok(None),
        }
    }

    fn expr_unary(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek() {
            TokenKind::Symbol(s) if s == "-" || s == "!" => {
                let negate = s == "-";
                self.advance();
                let expr = Box::new(self.nested(|p| p.expr_unary())?);
                let span = self.span_from(start);
                Ok(if negate {
                    Expr::Negate { expr, span }
                } else {
                    Expr::Not { expr, span }
                })
            }
            TokenKind::Keyword(Keyword::If | Keyword::Let | Keyword::Loop | Keyword::Match)
            | TokenKind::Backslash
            | TokenKind::HashBracket => self.nested(|p| p.open_ended()),
            _ => self.expr_apply(),
        }
    }

    fn starts_argument(&self) -> bool {
        match self.peek() {
            TokenKind::Ident(_) => !self.at_qualified_operator(),
            TokenKind::Int { .. }
            | TokenKind::Float { .. }
            | TokenKind::String(_)
            | TokenKind::Keyword(Keyword::True | Keyword::False)
            | TokenKind::LParen
            | TokenKind::LBracket
            | TokenKind::LBrace
            | TokenKind::Constructor(_) => true,
            _ => false,
        }
    }

    /// An argument: an atom, or a constructor without payload.
    fn argument(&mut self) -> PResult<Expr> {
        if let TokenKind::Constructor(name) = self.peek().clone() {
            let span = self.advance().span;
            return Ok(Expr::Constructor {
                name,
                payload: Vec::new(),
                span,
            });
        }
        self.atom()
    }

    /// Application by juxtaposition, or a constructor with its payload.
    fn expr_apply(&mut self) -> PResult<Expr> {
        let start = self.span();
        let depth = self.depth;
        if let TokenKind::Constructor(name) = self.peek().clone() {
            self.advance();
            let mut payload = Vec::new();
            while self.starts_argument() {
                payload.push(self.nested(|p| p.argument())?);
            }
            return Ok(Expr::Constructor {
                name,
                payload,
                span: self.span_from(start),
            });
        }
        let mut function = self.atom()?;
        while self.starts_argument() {
            self.deepen()?;
            let argument = self.argument()?;
            function = Expr::Apply {
                function: Box::new(function),
                argument: Box::new(argument),
                span: self.span_from(start),
            };
        }
        self.depth = depth;
        Ok(function)
    }

    /// An atom and its postfix chain of `[indices]` (no space before `[`) and
    /// `.field` projections.
    fn atom(&mut self) -> PResult<Expr> {
        self.nested(|p| p.atom_inner())
    }

    fn atom_inner(&mut self) -> PResult<Expr> {
        let start = self.span();
        let mut expr = match self.peek().clone() {
            TokenKind::Int { value, suffix } => {
                self.advance();
                Expr::Literal {
                    literal: Literal::Int { value, suffix },
                    span: start,
                }
            }
            TokenKind::Float { value, suffix } => {
                self.advance();
                Expr::Literal {
                    literal: Literal::float(value, suffix),
                    span: start,
                }
            }
            TokenKind::Keyword(keyword @ (Keyword::True | Keyword::False)) => {
                self.advance();
                Expr::Literal {
                    literal: Literal::Bool(keyword == Keyword::True),
                    span: start,
                }
            }
            TokenKind::String(text) => {
                self.advance();
                string_literal(&text, start)
            }
            TokenKind::Ident(_) => {
                let name = self.qual_name("a name")?;
                if self.at(&TokenKind::Dot)
                    && self.adjacent_at(0)
                    && *self.peek_at(1) == TokenKind::LParen
                    && self.adjacent_at(1)
                {
                    self.advance();
                    self.advance();
                    let body = self.expr()?;
                    self.expect(&TokenKind::RParen, "`)` to close `m.(…)`")?;
                    Expr::OpenIn {
                        module: name,
                        body: Box::new(body),
                        span: self.span_from(start),
                    }
                } else {
                    Expr::Var(name)
                }
            }
            TokenKind::LParen => self.parenthesised()?,
            TokenKind::LBracket => {
                self.advance();
                let elements = self.comma_separated(&TokenKind::RBracket, |p| p.expr())?;
                self.expect_closing(&TokenKind::RBracket, start, "`,` or `]` in the array")?;
                Expr::Array {
                    elements,
                    span: self.span_from(start),
                }
            }
            TokenKind::LBrace => {
                self.advance();
                let fields = self.comma_separated(&TokenKind::RBrace, |p| p.record_field())?;
                self.expect_closing(&TokenKind::RBrace, start, "`,` or `}` in the record")?;
                Expr::Record {
                    fields,
                    span: self.span_from(start),
                }
            }
            // `assert c e` is the application of the intrinsic named by the
            // keyword (`spec::syntax::ast::ASSERT`): no program can bind or
            // shadow that name.
            TokenKind::Keyword(Keyword::Assert) => {
                self.advance();
                Expr::Var(QualName::unqualified(
                    crate::syntax::ast::ASSERT.to_string(),
                    self.span_from(start),
                ))
            }
            _ => return Err(self.expected("an expression")),
        };
        let depth = self.depth;
        loop {
            if self.at(&TokenKind::LBracket) && self.adjacent_at(0) {
                self.deepen()?;
                let indices = self.slice_brackets()?;
                expr = Expr::Index {
                    array: Box::new(expr),
                    indices,
                    span: self.span_from(start),
                };
            } else if self.at(&TokenKind::Dot)
                && self.adjacent_at(0)
                && self.adjacent_at(1)
                && matches!(
                    self.peek_at(1),
                    TokenKind::Ident(_) | TokenKind::Int { suffix: None, .. }
                )
            {
                self.deepen()?;
                self.advance();
                let (field, _) = self.field_name("a field name")?;
                expr = Expr::Project {
                    expr: Box::new(expr),
                    field,
                    span: self.span_from(start),
                };
            } else {
                break;
            }
        }
        self.depth = depth;
        Ok(expr)
    }

    fn record_field(&mut self) -> PResult<(Name, Expr)> {
        let numeral = matches!(self.peek(), TokenKind::Int { .. });
        let (name, name_span) = self.field_name("a field name")?;
        if self.eat(&TokenKind::Equals) {
            Ok((name, self.expr()?))
        } else if numeral {
            // Only a name may stand alone (`{x}` is `{x = x}`).
            Err(self.expected("`=` after a numeric field name"))
        } else {
            let var = Expr::Var(QualName::unqualified(name.clone(), name_span));
            Ok((name, var))
        }
    }

    /// Items separated by commas (a trailing comma allowed) up to `close`,
    /// which is left for the caller.
    fn comma_separated<T>(
        &mut self,
        close: &TokenKind,
        mut item: impl FnMut(&mut Parser) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut items = Vec::new();
        while !self.at(close) {
            items.push(item(self)?);
            if !self.eat(&TokenKind::Comma) {
                break;
            }
        }
        Ok(items)
    }

    /// After `(`: unit, a parenthesised expression, a tuple, or a section.
    fn parenthesised(&mut self) -> PResult<Expr> {
        let start = self.span();
        self.advance();
        if self.eat(&TokenKind::RParen) {
            return Ok(Expr::Tuple {
                elements: Vec::new(),
                span: self.span_from(start),
            });
        }
        // `(op)` and `(op e)`; but `(-e)` and `(!e)` are prefix operators.
        let before_operator = self.pos;
        if let Some(op) = self.binop_token()? {
            if self.eat(&TokenKind::RParen) {
                return Ok(Expr::OpSection {
                    op,
                    span: self.span_from(start),
                });
            }
            let prefix = matches!(&op, BinOp::Symbol(name) if name.is("-") || name.is("!"));
            if !prefix {
                let right = self.expr()?;
                self.expect(&TokenKind::RParen, "`)` to close the operator section")?;
                return Ok(Expr::RightSection {
                    op,
                    right: Box::new(right),
                    span: self.span_from(start),
                });
            }
            self.pos = before_operator;
        }
        // `(.a.b)` and `(.[i])`.
        if self.eat(&TokenKind::Dot) {
            if self.at(&TokenKind::LBracket) {
                let indices = self.slice_brackets()?;
                self.expect(&TokenKind::RParen, "`)` to close the index section")?;
                return Ok(Expr::IndexSection {
                    indices,
                    span: self.span_from(start),
                });
            }
            let mut fields = vec![self.field_name("a field name or `[` after `(.`")?.0];
            while self.eat(&TokenKind::Dot) {
                fields.push(self.field_name("a field name")?.0);
            }
            self.expect(&TokenKind::RParen, "`)` to close the projection section")?;
            return Ok(Expr::ProjectSection {
                fields,
                span: self.span_from(start),
            });
        }
        let first = self.expr()?;
        if self.eat(&TokenKind::RParen) {
            return Ok(first);
        }
        if self.eat(&TokenKind::Comma) {
            let mut elements = vec![first];
            elements.extend(self.comma_separated(&TokenKind::RParen, |p| p.expr())?);
            self.expect_closing(&TokenKind::RParen, start, "`,` or `)` in the tuple")?;
            if elements.len() == 1 {
                return Err(self.one_element_tuple(start));
            }
            return Ok(Expr::Tuple {
                elements,
                span: self.span_from(start),
            });
        }
        if let Some(op) = self.binop_token()? {
            self.expect(&TokenKind::RParen, "`)` to close the operator section")?;
            return Ok(Expr::LeftSection {
                op,
                left: Box::new(first),
                span: self.span_from(start),
            });
        }
        let open = start;
        Err(self
            .expected("`)`, `,` or an operator")
            .with_secondary(open, "unclosed `(` opened here"))
    }

    /// `[i, j:k, ::s]`.
    fn slice_brackets(&mut self) -> PResult<Vec<DimIndex>> {
        self.expect(&TokenKind::LBracket, "`[`")?;
        let indices = self.comma_separated(&TokenKind::RBracket, |p| p.dim_index())?;
        if indices.is_empty() {
            return Err(self.expected("an index or slice"));
        }
        self.expect(&TokenKind::RBracket, "`,` or `]` after the index")?;
        Ok(indices)
    }

    fn dim_index(&mut self) -> PResult<DimIndex> {
        let ends_part = |p: &Parser| {
            matches!(
                p.peek(),
                TokenKind::Colon | TokenKind::Comma | TokenKind::RBracket
            )
        };
        let start = if self.at(&TokenKind::Colon) {
            None
        } else {
            Some(self.expr_in_slice()?)
        };
        if !self.eat(&TokenKind::Colon) {
            return match start {
                Some(index) => Ok(DimIndex::Index(index)),
                None => Err(self.expected("an index")),
            };
        }
        let end = if ends_part(self) {
            None
        } else {
            Some(self.expr_in_slice()?)
        };
        let stride = if self.eat(&TokenKind::Colon) {
            if ends_part(self) {
                None
            } else {
                Some(self.expr_in_slice()?)
            }
        } else {
            None
        };
        Ok(DimIndex::Slice { start, end, stride })
    }

    /// `if`, `let`, `loop`, `match`, `\` lambdas and `#[attr] e`.
    fn open_ended(&mut self) -> PResult<Expr> {
        let start = self.span();
        match self.peek() {
            TokenKind::Keyword(Keyword::If) => {
                self.advance();
                let condition = self.expr()?;
                self.expect_keyword(Keyword::Then)?;
                let then_branch = self.expr()?;
                self.expect_keyword(Keyword::Else)?;
                let else_branch = self.expr()?;
                Ok(Expr::If {
                    condition: Box::new(condition),
                    then_branch: Box::new(then_branch),
                    else_branch: Box::new(else_branch),
                    span: self.span_from(start),
                })
            }
            TokenKind::Keyword(Keyword::Let) => self.let_expr(),
            TokenKind::Keyword(Keyword::Loop) => self.loop_expr(),
            TokenKind::Keyword(Keyword::Match) => {
                self.advance();
                let scrutinee = self.expr()?;
                let mut cases = Vec::new();
                while self.at_keyword(Keyword::Case) {
                    let case_start = self.span();
                    self.advance();
                    let pat = self.case_pat()?;
                    self.expect(&TokenKind::Arrow, "`->` and the case's body")?;
                    let body = self.expr()?;
                    cases.push(MatchCase {
                        pat,
                        body,
                        span: self.span_from(case_start),
                    });
                }
                if cases.is_empty() {
                    return Err(self.expected("`case`"));
                }
                Ok(Expr::Match {
                    scrutinee: Box::new(scrutinee),
                    cases,
                    span: self.span_from(start),
                })
            }
            TokenKind::Backslash => {
                self.advance();
                let mut params = vec![self.pat_atom("a lambda parameter")?];
                while self.starts_pat_atom() {
                    params.push(self.pat_atom("a lambda parameter")?);
                }
                let return_type = if self.eat(&TokenKind::Colon) {
                    Some(self.type_no_arrow()?)
                } else {
                    None
                };
                self.expect(&TokenKind::Arrow, "`->` and the lambda's body")?;
                let body = self.expr()?;
                Ok(Expr::Lambda {
                    params,
                    return_type,
                    body: Box::new(body),
                    span: self.span_from(start),
                })
            }
            _ => {
                let attr = self.attr_brackets()?;
                let expr = self.expr()?;
                Ok(Expr::Attr {
                    attr,
                    expr: Box::new(expr),
                    span: self.span_from(start),
                })
            }
        }
    }

    /// The body after a `let … = value`: `in e`, or directly another `let`.
    fn let_body(&mut self) -> PResult<Expr> {
        if self.eat_keyword(Keyword::In) || self.at_keyword(Keyword::Let) {
            self.expr()
        } else {
            Err(self.expected("`in` (or another `let`)"))
        }
    }

    fn let_expr(&mut self) -> PResult<Expr> {
        let start = self.span();
        self.advance();
        // `let a[i] = v in e`
        if matches!(self.peek(), TokenKind::Ident(_))
            && *self.peek_at(1) == TokenKind::LBracket
            && self.adjacent_at(1)
        {
            let (name, name_span) = self.ident("a name")?;
            let indices = self.slice_brackets()?;
            self.expect(&TokenKind::Equals, "`=` and the new element")?;
            let value = self.expr()?;
            let body = self.let_body()?;
            return Ok(Expr::LetWith {
                name,
                name_span,
                indices,
                value: Box::new(value),
                body: Box::new(body),
                span: self.span_from(start),
            });
        }
        // `let f params = v in e`
        if matches!(self.peek(), TokenKind::Ident(_))
            && !matches!(self.peek_at(1), TokenKind::Equals | TokenKind::Colon)
        {
            let (name, _) = self.ident("a function name")?;
            let type_params = self.type_params()?;
            let params = self.params()?;
            if params.is_empty() {
                return Err(self.expected("a parameter, `:` or `=`"));
            }
            let return_type = if self.eat(&TokenKind::Colon) {
                Some(self.type_exp()?)
            } else {
                None
            };
            self.expect(&TokenKind::Equals, "`=` and the function's body")?;
            let value = self.expr()?;
            let body = self.let_body()?;
            return Ok(Expr::LetFun {
                name,
                type_params,
                params,
                return_type,
                value: Box::new(value),
                body: Box::new(body),
                span: self.span_from(start),
            });
        }
        // `let [n] p = v in e`
        let mut sizes = Vec::new();
        while self.eat(&TokenKind::LBracket) {
            sizes.push(self.ident("a size name")?.0);
            self.expect(&TokenKind::RBracket, "`]` after the size name")?;
        }
        let pat = self.pat()?;
        self.expect(&TokenKind::Equals, "`=` and the bound expression")?;
        let value = self.expr()?;
        let body = self.let_body()?;
        Ok(Expr::Let {
            sizes,
            pat,
            value: Box::new(value),
            body: Box::new(body),
            span: self.span_from(start),
        })
    }

    fn loop_expr(&mut self) -> PResult<Expr> {
        let start = self.span();
        self.advance();
        let pat = self.pat()?;
        let init = if self.eat(&TokenKind::Equals) {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        let form = if self.eat_keyword(Keyword::For) {
            if matches!(self.peek(), TokenKind::Ident(_))
                && matches!(self.peek_at(1), TokenKind::Symbol(s) if s == "<")
            {
                let (var, var_span) = self.ident("a loop variable")?;
                self.advance();
                let bound = self.expr()?;
                LoopForm::For {
                    var,
                    var_span,
                    bound: Box::new(bound),
                }
            } else {
                let pat = self.pat()?;
                self.expect_keyword(Keyword::In)?;
                let array = self.expr()?;
                LoopForm::ForIn {
                    pat,
                    array: Box::new(array),
                }
            }
        } else if self.eat_keyword(Keyword::While) {
            LoopForm::While {
                condition: Box::new(self.expr()?),
            }
        } else {
            return Err(self.expected("`for` or `while`"));
        };
        self.expect_keyword(Keyword::Do)?;
        let body = self.expr()?;
        Ok(Expr::Loop {
            pat,
            init,
            form,
            body: Box::new(body),
            span: self.span_from(start),
        })
    }
}

/// A string literal: the array of its UTF-8 bytes, `[n]u8` (Futhark's
/// language reference, "Literals"; SPEC_NOTES TFP18-33). The empty string is
/// `[] : [0]u8`, as an empty array literal has no element to give its type.
fn string_literal(text: &str, span: Span) -> Expr {
    let bytes: Vec<Expr> = text
        .bytes()
        .map(|byte| Expr::Literal {
            literal: Literal::Int {
                value: u64::from(byte),
                suffix: Some(IntType::U8),
            },
            span,
        })
        .collect();
    let empty = bytes.is_empty();
    let array = Expr::Array {
        elements: bytes,
        span,
    };
    if !empty {
        return array;
    }
    Expr::Ascribe {
        expr: Box::new(array),
        ty: TypeExp::Array {
            size: SizeExp::Constant(0),
            element: Box::new(TypeExp::Var(QualName::unqualified("u8", span))),
            span,
        },
        span,
    }
}
