//! Patterns (Futhark language reference: "Patterns").
//!
//! A full pattern may be a constructor with a payload and may carry a type
//! ascription (`p : t`); parameters of functions and lambdas are atomic
//! patterns (a name, `_`, a literal, or something in brackets).

use super::{PResult, Parser};
use crate::syntax::ast::{Literal, Pat};
use crate::syntax::lexer::{Keyword, TokenKind};

impl Parser {
    pub(super) fn pat(&mut self) -> PResult<Pat> {
        self.nested(|p| p.pat_inner(true))
    }

    /// The pattern of a `case`: an ascription's type there cannot contain a
    /// top-level `->`, which starts the case's body.
    pub(super) fn case_pat(&mut self) -> PResult<Pat> {
        self.nested(|p| p.pat_inner(false))
    }

    fn pat_inner(&mut self, arrow_types: bool) -> PResult<Pat> {
        let start = self.span();
        if self.at(&TokenKind::HashBracket) {
            let attr = self.attr_brackets()?;
            let pat = self.pat()?;
            return Ok(Pat::Attr {
                attr,
                pat: Box::new(pat),
                span: self.span_from(start),
            });
        }
        let mut pat = if let TokenKind::Constructor(name) = self.peek().clone() {
            self.advance();
            let mut payload = Vec::new();
            while self.starts_pat_atom() {
                payload.push(self.pat_atom("a constructor argument")?);
            }
            Pat::Constructor {
                name,
                payload,
                span: self.span_from(start),
            }
        } else {
            self.pat_atom("a pattern")?
        };
        let depth = self.depth;
        while self.eat(&TokenKind::Colon) {
            self.deepen()?;
            let ty = if arrow_types {
                self.type_exp()?
            } else {
                self.type_no_arrow()?
            };
            pat = Pat::Ascribe {
                pat: Box::new(pat),
                ty,
                span: self.span_from(start),
            };
        }
        self.depth = depth;
        Ok(pat)
    }

    pub(super) fn starts_pat_atom(&self) -> bool {
        match self.peek() {
            TokenKind::Ident(_)
            | TokenKind::Underscore
            | TokenKind::LParen
            | TokenKind::LBrace
            | TokenKind::Int { .. }
            | TokenKind::Float { .. }
            | TokenKind::HashBracket
            | TokenKind::Keyword(Keyword::True | Keyword::False) => true,
            TokenKind::Symbol(s) => {
                s == "-"
                    && matches!(
                        self.peek_at(1),
                        TokenKind::Int { .. } | TokenKind::Float { .. }
                    )
            }
            _ => false,
        }
    }

    /// An atomic pattern; `what` names it in the error if none is there.
    pub(super) fn pat_atom(&mut self, what: &str) -> PResult<Pat> {
        self.nested(|p| p.pat_atom_inner(what))
    }

    fn pat_atom_inner(&mut self, what: &str) -> PResult<Pat> {
        let start = self.span();
        match self.peek().clone() {
            TokenKind::Ident(name) => {
                self.advance();
                Ok(Pat::Var { name, span: start })
            }
            TokenKind::Underscore => {
                self.advance();
                Ok(Pat::Wildcard { span: start })
            }
            TokenKind::HashBracket => {
                let attr = self.attr_brackets()?;
                let pat = self.pat_atom(what)?;
                Ok(Pat::Attr {
                    attr,
                    pat: Box::new(pat),
                    span: self.span_from(start),
                })
            }
            TokenKind::Symbol(s) if s == "-" => {
                self.advance();
                if !matches!(self.peek(), TokenKind::Int { .. } | TokenKind::Float { .. }) {
                    return Err(self.expected("a numeric literal after `-`"));
                }
                let literal = self.pat_literal()?;
                Ok(Pat::Literal {
                    negative: true,
                    literal,
                    span: self.span_from(start),
                })
            }
            TokenKind::Int { .. }
            | TokenKind::Float { .. }
            | TokenKind::Keyword(Keyword::True | Keyword::False) => {
                let literal = self.pat_literal()?;
                Ok(Pat::Literal {
                    negative: false,
                    literal,
                    span: self.span_from(start),
                })
            }
            TokenKind::LParen => {
                self.advance();
                let mut elements = Vec::new();
                let mut trailing_comma = false;
                while !self.at(&TokenKind::RParen) {
                    elements.push(self.pat()?);
                    trailing_comma = self.eat(&TokenKind::Comma);
                    if !trailing_comma {
                        break;
                    }
                }
                self.expect(&TokenKind::RParen, "`,` or `)` in the pattern")?;
                match elements.len() {
                    1 if trailing_comma => Err(self.one_element_tuple(start)),
                    1 => Ok(elements.pop().unwrap_or(Pat::Wildcard { span: start })),
                    _ => Ok(Pat::Tuple {
                        elements,
                        span: self.span_from(start),
                    }),
                }
            }
            TokenKind::LBrace => {
                self.advance();
                let mut fields = Vec::new();
                while !self.at(&TokenKind::RBrace) {
                    let numeral = matches!(self.peek(), TokenKind::Int { .. });
                    let (name, name_span) = self.field_name("a field name")?;
                    let pat = if self.eat(&TokenKind::Equals) {
                        self.pat()?
                    } else if numeral {
                        return Err(self.expected("`=` after a numeric field name"));
                    } else {
                        Pat::Var {
                            name: name.clone(),
                            span: name_span,
                        }
                    };
                    fields.push((name, pat));
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(&TokenKind::RBrace, "`,` or `}` in the record pattern")?;
                Ok(Pat::Record {
                    fields,
                    span: self.span_from(start),
                })
            }
            _ => Err(self.expected(what)),
        }
    }

    fn pat_literal(&mut self) -> PResult<Literal> {
        let literal = match self.peek().clone() {
            TokenKind::Int { value, suffix } => Literal::Int { value, suffix },
            TokenKind::Float { value, suffix } => Literal::float(value, suffix),
            TokenKind::Keyword(Keyword::True) => Literal::Bool(true),
            TokenKind::Keyword(Keyword::False) => Literal::Bool(false),
            _ => return Err(self.expected("a numeric literal")),
        };
        self.advance();
        Ok(literal)
    }
}
