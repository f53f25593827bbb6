//! Type expressions (Futhark language reference: "Compound Types and Values",
//! "Type Abbreviations").
//!
//! Levels, loosest first: `?[n].t` (extends right); `a -> b` and `(x: a) -> b`
//! (right-associative); sum types `#c t | #d`; prefix `*t` and `[n]t` (whose
//! operand is an application, so `[n]t a` is `[n](t a)`); application `t a [n]`;
//! atoms.

use super::{PResult, Parser};
use crate::syntax::ast::{Expr, Literal, QualName, SizeExp, SumConstructor, TypeArg, TypeExp};
use crate::syntax::lexer::TokenKind;

impl Parser {
    pub(super) fn type_exp(&mut self) -> PResult<TypeExp> {
        self.nested(|p| p.type_inner())
    }

    fn type_inner(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        if self.eat(&TokenKind::Question) {
            let mut sizes = Vec::new();
            while self.eat(&TokenKind::LBracket) {
                sizes.push(self.ident("an existential size name")?.0);
                self.expect(&TokenKind::RBracket, "`]` after the size name")?;
            }
            if sizes.is_empty() {
                return Err(self.expected("`[name]` after `?`"));
            }
            self.expect(&TokenKind::Dot, "`.` and the quantified type")?;
            let ty = self.type_exp()?;
            return Ok(TypeExp::Existential {
                sizes,
                ty: Box::new(ty),
                span: self.span_from(start),
            });
        }
        if self.at(&TokenKind::LParen)
            && matches!(self.peek_at(1), TokenKind::Ident(_))
            && *self.peek_at(2) == TokenKind::Colon
        {
            self.advance();
            let (param, _) = self.ident("a parameter name")?;
            self.advance();
            let from = self.type_exp()?;
            self.expect(&TokenKind::RParen, "`)` after the parameter's type")?;
            self.expect(&TokenKind::Arrow, "`->` after a named parameter type")?;
            let to = self.type_exp()?;
            return Ok(TypeExp::Arrow {
                param: Some(param),
                from: Box::new(from),
                to: Box::new(to),
                span: self.span_from(start),
            });
        }
        let from = self.type_no_arrow()?;
        if self.eat(&TokenKind::Arrow) {
            let to = self.type_exp()?;
            return Ok(TypeExp::Arrow {
                param: None,
                from: Box::new(from),
                to: Box::new(to),
                span: self.span_from(start),
            });
        }
        Ok(from)
    }

    /// A type without a top-level arrow or existential: a sum type or an
    /// application-level type. Used where `->` must end the type (the return
    /// type of a lambda).
    pub(super) fn type_no_arrow(&mut self) -> PResult<TypeExp> {
        if !matches!(self.peek(), TokenKind::Constructor(_)) {
            return self.type_prefix();
        }
        let start = self.span();
        let mut constructors = Vec::new();
        loop {
            let constructor_start = self.span();
            let TokenKind::Constructor(name) = self.peek().clone() else {
                return Err(self.expected("a constructor `#name`"));
            };
            self.advance();
            let mut payload = Vec::new();
            while self.starts_type_atom() {
                payload.push(self.type_atom()?);
            }
            constructors.push(SumConstructor {
                name,
                payload,
                span: self.span_from(constructor_start),
            });
            if !self.at_symbol("|") {
                break;
            }
            self.advance();
        }
        Ok(TypeExp::Sum {
            constructors,
            span: self.span_from(start),
        })
    }

    /// `*t`, `[n]t`, or an application.
    fn type_prefix(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        if self.at_symbol("*") {
            self.advance();
            let ty = self.nested(|p| p.type_prefix())?;
            return Ok(TypeExp::Unique {
                ty: Box::new(ty),
                span: self.span_from(start),
            });
        }
        if self.at(&TokenKind::LBracket) {
            let open = self.advance().span;
            let size = self.size_exp()?;
            self.expect_closing(&TokenKind::RBracket, open, "`]` after the array size")?;
            let element = self.nested(|p| p.type_prefix())?;
            return Ok(TypeExp::Array {
                size,
                element: Box::new(element),
                span: self.span_from(start),
            });
        }
        if matches!(self.peek(), TokenKind::Ident(_)) {
            let constructor = self.qual_name("a type name")?;
            let mut args = Vec::new();
            while self.starts_type_atom() || self.at(&TokenKind::LBracket) {
                args.push(self.type_arg()?);
            }
            if args.is_empty() {
                return Ok(TypeExp::Var(constructor));
            }
            return Ok(TypeExp::Apply {
                constructor,
                args,
                span: self.span_from(start),
            });
        }
        self.type_atom()
    }

    /// The contents of `[…]` in a type: a name, a constant, or nothing.
    /// What stands between the brackets of an array type or a size
    /// argument: nothing, a name, an unsuffixed integer, or any other
    /// expression (Futhark's size expressions, `[n+1]`, `[n*m]`).
    fn size_exp(&mut self) -> PResult<SizeExp> {
        if self.at(&TokenKind::RBracket) {
            return Ok(SizeExp::Anonymous);
        }
        let expression = self.nested(|p| p.expr())?;
        Ok(match expression {
            Expr::Var(name) => SizeExp::Named(name),
            Expr::Literal {
                literal:
                    Literal::Int {
                        value,
                        suffix: None,
                    },
                ..
            } => SizeExp::Constant(value),
            other => SizeExp::Expression(Box::new(other)),
        })
    }

    fn type_arg(&mut self) -> PResult<TypeArg> {
        let start = self.span();
        if self.at(&TokenKind::LBracket) {
            let open = self.advance().span;
            let size = self.size_exp()?;
            self.expect_closing(&TokenKind::RBracket, open, "`]` after the size argument")?;
            return Ok(TypeArg::Size {
                size,
                span: self.span_from(start),
            });
        }
        Ok(TypeArg::Type(self.type_atom()?))
    }

    fn starts_type_atom(&self) -> bool {
        matches!(
            self.peek(),
            TokenKind::Ident(_) | TokenKind::LParen | TokenKind::LBrace
        )
    }

    /// A name, `()`, `(t)`, `(t1, t2, …)`, or `{f: t, …}`.
    fn type_atom(&mut self) -> PResult<TypeExp> {
        let start = self.span();
        match self.peek() {
            TokenKind::Ident(_) => Ok(TypeExp::Var(self.qual_name("a type name")?)),
            TokenKind::LParen => {
                self.advance();
                let mut elements = Vec::new();
                let mut trailing_comma = false;
                while !self.at(&TokenKind::RParen) {
                    elements.push(self.type_exp()?);
                    trailing_comma = self.eat(&TokenKind::Comma);
                    if !trailing_comma {
                        break;
                    }
                }
                self.expect(&TokenKind::RParen, "`,` or `)` in the tuple type")?;
                if elements.len() == 1 && !trailing_comma {
                    return Ok(elements.pop().unwrap_or(TypeExp::Tuple {
                        elements: Vec::new(),
                        span: start,
                    }));
                }
                if elements.len() == 1 {
                    return Err(self.one_element_tuple(start));
                }
                Ok(TypeExp::Tuple {
                    elements,
                    span: self.span_from(start),
                })
            }
            TokenKind::LBrace => {
                self.advance();
                let mut fields = Vec::new();
                while !self.at(&TokenKind::RBrace) {
                    let (name, _) = self.field_name("a field name")?;
                    self.expect(&TokenKind::Colon, "`:` and the field's type")?;
                    fields.push((name, self.type_exp()?));
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(&TokenKind::RBrace, "`,` or `}` in the record type")?;
                Ok(TypeExp::Record {
                    fields,
                    span: self.span_from(start),
                })
            }
            _ => Err(self.expected("a type")),
        }
    }

    pub(super) fn one_element_tuple(
        &self,
        start: crate::source::Span,
    ) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::error("a tuple cannot have exactly one element")
            .with_code("syntax")
            .with_primary(self.span_from(start), "one-element tuple")
            .with_note("remove the trailing comma")
    }
}

impl QualName {
    /// Whether this is the plain name `name`, unqualified.
    pub fn is(&self, name: &str) -> bool {
        self.qualifiers.is_empty() && self.name == name
    }
}
