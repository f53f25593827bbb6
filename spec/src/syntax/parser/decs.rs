//! Declarations, module expressions, module types and specifications
//! (Futhark language reference: "Declarations", "Module System"; ICFP'18 Fig. 1).

use super::{PResult, Parser};
use crate::source::Span;
use crate::syntax::ast::{
    Attr, Dec, Liftedness, ModExp, ModParam, ModTypeExp, ModuleBind, ModuleTypeBind, Name, Pat,
    Spec, TypeBind, TypeParam, TypeRefinement, ValueBind, ValueBindKind,
};
use crate::syntax::lexer::{Keyword, TokenKind};

impl Parser {
    pub(super) fn decs_until_eof(&mut self) -> PResult<Vec<Dec>> {
        let mut decs = Vec::new();
        while !self.at(&TokenKind::Eof) {
            decs.push(self.dec()?);
        }
        Ok(decs)
    }

    fn starts_dec(&self) -> bool {
        matches!(
            self.peek(),
            TokenKind::Keyword(
                Keyword::Def
                    | Keyword::Let
                    | Keyword::Entry
                    | Keyword::Type
                    | Keyword::Module
                    | Keyword::Open
                    | Keyword::Import
                    | Keyword::Local
            ) | TokenKind::HashBracket
        )
    }

    pub(super) fn dec(&mut self) -> PResult<Dec> {
        self.nested(|p| p.dec_inner())
    }

    fn dec_inner(&mut self) -> PResult<Dec> {
        let start = self.span();
        match self.peek() {
            TokenKind::Keyword(Keyword::Def | Keyword::Let) => {
                self.advance();
                Ok(Dec::Value(self.value_bind(ValueBindKind::Def, start)?))
            }
            TokenKind::Keyword(Keyword::Entry) => {
                self.advance();
                Ok(Dec::Value(self.value_bind(ValueBindKind::Entry, start)?))
            }
            TokenKind::Keyword(Keyword::Type) => {
                self.advance();
                let liftedness = self.liftedness_after_type();
                let (name, _) = self.ident("a type name")?;
                let params = self.type_params()?;
                self.expect(&TokenKind::Equals, "`=` and the type's definition")?;
                let definition = self.type_exp()?;
                Ok(Dec::Type(TypeBind {
                    liftedness,
                    name,
                    params,
                    definition,
                    span: self.span_from(start),
                }))
            }
            TokenKind::Keyword(Keyword::Module) => {
                self.advance();
                if self.eat_keyword(Keyword::Type) {
                    let (name, _) = self.ident("a module type name")?;
                    self.expect(&TokenKind::Equals, "`=` and a module type")?;
                    let definition = self.mod_type()?;
                    return Ok(Dec::ModuleType(ModuleTypeBind {
                        name,
                        definition,
                        span: self.span_from(start),
                    }));
                }
                let (name, _) = self.ident("a module name or `type`")?;
                let mut params = Vec::new();
                while self.at(&TokenKind::LParen) {
                    params.push(self.mod_param()?);
                }
                let signature = if self.eat(&TokenKind::Colon) {
                    Some(self.mod_type()?)
                } else {
                    None
                };
                self.expect(&TokenKind::Equals, "`=` and a module expression")?;
                let body = self.mod_exp()?;
                Ok(Dec::Module(ModuleBind {
                    name,
                    params,
                    signature,
                    body,
                    span: self.span_from(start),
                }))
            }
            TokenKind::Keyword(Keyword::Open) => {
                self.advance();
                let module = self.mod_exp()?;
                Ok(Dec::Open {
                    module,
                    span: self.span_from(start),
                })
            }
            TokenKind::Keyword(Keyword::Import) => {
                self.advance();
                let path = self.string_literal("a file name in quotes")?;
                Ok(Dec::Import {
                    path,
                    span: self.span_from(start),
                })
            }
            TokenKind::Keyword(Keyword::Local) => {
                self.advance();
                let dec = self.dec()?;
                Ok(Dec::Local {
                    dec: Box::new(dec),
                    span: self.span_from(start),
                })
            }
            TokenKind::HashBracket => {
                let attr = self.attr_brackets()?;
                let dec = self.dec()?;
                Ok(Dec::Attr {
                    attr,
                    dec: Box::new(dec),
                    span: self.span_from(start),
                })
            }
            _ => Err(self.expected(
                "a declaration (`def`, `entry`, `type`, `module`, `open`, `import`, `local`)",
            )),
        }
    }

    fn string_literal(&mut self, what: &str) -> PResult<String> {
        match self.peek().clone() {
            TokenKind::String(s) => {
                self.advance();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// After `type`: `^` or `~` written directly after it.
    fn liftedness_after_type(&mut self) -> Liftedness {
        if self.adjacent_at(0) && self.at_symbol("^") {
            self.advance();
            Liftedness::Lifted
        } else if self.adjacent_at(0) && self.at(&TokenKind::Tilde) {
            self.advance();
            Liftedness::SizeLifted
        } else {
            Liftedness::Unlifted
        }
    }

    /// `#[attr]`, with the `#[` current.
    pub(super) fn attr_brackets(&mut self) -> PResult<Attr> {
        self.expect(&TokenKind::HashBracket, "`#[`")?;
        let attr = self.attr()?;
        self.expect(&TokenKind::RBracket, "`]` to close the attribute")?;
        Ok(attr)
    }

    fn attr(&mut self) -> PResult<Attr> {
        self.nested(|p| match p.peek().clone() {
            TokenKind::Int {
                value,
                suffix: None,
            } => {
                p.advance();
                Ok(Attr::Int(value))
            }
            TokenKind::Ident(name) => {
                p.advance();
                if p.eat(&TokenKind::LParen) {
                    let mut args = Vec::new();
                    loop {
                        if p.at(&TokenKind::RParen) {
                            break;
                        }
                        args.push(p.attr()?);
                        if !p.eat(&TokenKind::Comma) {
                            break;
                        }
                    }
                    p.expect(&TokenKind::RParen, "`)` or `,` in the attribute")?;
                    Ok(Attr::Call(name, args))
                } else {
                    Ok(Attr::Name(name))
                }
            }
            _ => Err(p.expected("an attribute (a name, a number, or `name(...)`)")),
        })
    }

    /// `def`/`entry` after its keyword: `name tparams params : t = e`,
    /// `(op) tparams params : t = e`, or the infix form `p1 op p2 : t = e`.
    fn value_bind(&mut self, kind: ValueBindKind, start: Span) -> PResult<ValueBind> {
        let (name, type_params, params) = if self.at(&TokenKind::LParen)
            && matches!(self.peek_at(1), TokenKind::Symbol(_))
            && *self.peek_at(2) == TokenKind::RParen
        {
            self.advance();
            let name = self.operator_symbol()?;
            self.advance();
            let type_params = self.type_params()?;
            let params = self.params()?;
            (name, type_params, params)
        } else if matches!(self.peek(), TokenKind::Ident(_))
            && !matches!(self.peek_at(1), TokenKind::Symbol(_))
        {
            let (name, _) = self.ident("a name")?;
            let type_params = self.type_params()?;
            let params = self.params()?;
            (name, type_params, params)
        } else {
            // Infix definition `def p1 op p2 = …`.
            let left = self.pat_atom("a name, `(operator)`, or a parameter")?;
            let name = self.operator_symbol()?;
            let right = self.pat_atom("the right operand of the operator definition")?;
            (name, Vec::new(), vec![left, right])
        };
        let return_type = if self.eat(&TokenKind::Colon) {
            Some(self.type_exp()?)
        } else {
            None
        };
        self.expect(&TokenKind::Equals, "`=` and the definition's body")?;
        let body = self.expr()?;
        Ok(ValueBind {
            kind,
            name,
            type_params,
            params,
            return_type,
            body,
            span: self.span_from(start),
        })
    }

    fn operator_symbol(&mut self) -> PResult<Name> {
        match self.peek().clone() {
            TokenKind::Symbol(symbol) => {
                self.advance();
                Ok(symbol)
            }
            _ => Err(self.expected("an operator symbol")),
        }
    }

    /// Function parameters: atomic patterns up to `:` or `=`.
    pub(super) fn params(&mut self) -> PResult<Vec<Pat>> {
        let mut params = Vec::new();
        while self.starts_pat_atom() {
            params.push(self.pat_atom("a parameter")?);
        }
        Ok(params)
    }

    /// Type parameters `[n]`, `'a`, `'^a`, `'~a`.
    pub(super) fn type_params(&mut self) -> PResult<Vec<TypeParam>> {
        let mut params = Vec::new();
        loop {
            let start = self.span();
            let liftedness = match self.peek() {
                TokenKind::LBracket => {
                    self.advance();
                    let (name, _) = self.ident("a size parameter name")?;
                    self.expect(&TokenKind::RBracket, "`]` after the size parameter")?;
                    params.push(TypeParam::Size {
                        name,
                        span: self.span_from(start),
                    });
                    continue;
                }
                TokenKind::Tick => Liftedness::Unlifted,
                TokenKind::TickHat => Liftedness::Lifted,
                TokenKind::TickTilde => Liftedness::SizeLifted,
                _ => return Ok(params),
            };
            self.advance();
            let (name, _) = self.ident("a type parameter name after `'`")?;
            params.push(TypeParam::Type {
                name,
                liftedness,
                span: self.span_from(start),
            });
        }
    }

    /// `(name : mt)`.
    fn mod_param(&mut self) -> PResult<ModParam> {
        let start = self.span();
        self.expect(&TokenKind::LParen, "`(` and a module parameter")?;
        let (name, _) = self.ident("a module parameter name")?;
        self.expect(&TokenKind::Colon, "`:` and the parameter's module type")?;
        let mod_type = self.mod_type()?;
        self.expect(&TokenKind::RParen, "`)` after the module parameter")?;
        Ok(ModParam {
            name,
            mod_type,
            span: self.span_from(start),
        })
    }

    // -- Module expressions -------------------------------------------------

    /// `mod_exp`: lambdas extend right; ascription binds loosest.
    pub(super) fn mod_exp(&mut self) -> PResult<ModExp> {
        self.nested(|p| p.mod_exp_inner())
    }

    fn mod_exp_inner(&mut self) -> PResult<ModExp> {
        let start = self.span();
        if self.eat(&TokenKind::Backslash) {
            let param = self.mod_param()?;
            let result = if self.eat(&TokenKind::Colon) {
                Some(self.mod_type_no_arrow()?)
            } else {
                None
            };
            self.expect(&TokenKind::Arrow, "`->` and the functor's body")?;
            let body = self.mod_exp()?;
            return Ok(ModExp::Lambda {
                param: Box::new(param),
                result,
                body: Box::new(body),
                span: self.span_from(start),
            });
        }
        let mut module = self.mod_exp_apply()?;
        let depth = self.depth;
        while self.eat(&TokenKind::Colon) {
            self.deepen()?;
            let mod_type = self.mod_type()?;
            module = ModExp::Ascribe {
                module: Box::new(module),
                mod_type,
                span: self.span_from(start),
            };
        }
        self.depth = depth;
        Ok(module)
    }

    fn starts_mod_exp_atom(&self) -> bool {
        // Not `import`: Futhark's grammar takes a bare `import "p"` after a
        // module expression as the next declaration, never as an argument.
        matches!(
            self.peek(),
            TokenKind::Ident(_) | TokenKind::LBrace | TokenKind::LParen
        )
    }

    fn mod_exp_apply(&mut self) -> PResult<ModExp> {
        let start = self.span();
        let mut module = self.mod_exp_atom()?;
        let depth = self.depth;
        while self.starts_mod_exp_atom() {
            self.deepen()?;
            let argument = self.mod_exp_atom()?;
            module = ModExp::Apply {
                functor: Box::new(module),
                argument: Box::new(argument),
                span: self.span_from(start),
            };
        }
        self.depth = depth;
        Ok(module)
    }

    fn mod_exp_atom(&mut self) -> PResult<ModExp> {
        let start = self.span();
        match self.peek() {
            TokenKind::Ident(_) => Ok(ModExp::Var(self.qual_name("a module name")?)),
            TokenKind::LBrace => {
                self.advance();
                let decs = self.nested(|p| {
                    let mut decs = Vec::new();
                    while p.starts_dec() {
                        decs.push(p.dec()?);
                    }
                    Ok(decs)
                })?;
                self.expect_closing(&TokenKind::RBrace, start, "a declaration or `}`")?;
                Ok(ModExp::Struct {
                    decs,
                    span: self.span_from(start),
                })
            }
            TokenKind::LParen => {
                self.advance();
                let module = self.mod_exp()?;
                self.expect(&TokenKind::RParen, "`)` after the module expression")?;
                Ok(module)
            }
            TokenKind::Keyword(Keyword::Import) => {
                self.advance();
                let path = self.string_literal("a file name in quotes")?;
                Ok(ModExp::Import {
                    path,
                    span: self.span_from(start),
                })
            }
            _ => Err(self.expected("a module expression")),
        }
    }

    // -- Module types -------------------------------------------------------

    /// `mod_type_exp`: `(p: mt) -> mt`, `mt -> mt` (right-assoc), `with`
    /// refinements binding tighter than `->`.
    pub(super) fn mod_type(&mut self) -> PResult<ModTypeExp> {
        self.nested(|p| p.mod_type_inner())
    }

    fn mod_type_inner(&mut self) -> PResult<ModTypeExp> {
        let start = self.span();
        if self.at(&TokenKind::LParen)
            && matches!(self.peek_at(1), TokenKind::Ident(_))
            && *self.peek_at(2) == TokenKind::Colon
        {
            self.advance();
            let (param, _) = self.ident("a parameter name")?;
            self.advance();
            let from = self.mod_type()?;
            self.expect(&TokenKind::RParen, "`)` after the parameter's module type")?;
            self.expect(&TokenKind::Arrow, "`->` and the result module type")?;
            let to = self.mod_type()?;
            return Ok(ModTypeExp::Arrow {
                param: Some(param),
                from: Box::new(from),
                to: Box::new(to),
                span: self.span_from(start),
            });
        }
        let from = self.mod_type_no_arrow()?;
        if self.eat(&TokenKind::Arrow) {
            let to = self.mod_type()?;
            return Ok(ModTypeExp::Arrow {
                param: None,
                from: Box::new(from),
                to: Box::new(to),
                span: self.span_from(start),
            });
        }
        Ok(from)
    }

    /// A module type without a top-level arrow: an atom with `with` refinements.
    fn mod_type_no_arrow(&mut self) -> PResult<ModTypeExp> {
        let start = self.span();
        let mut mod_type = self.mod_type_atom()?;
        let depth = self.depth;
        while self.eat_keyword(Keyword::With) {
            self.deepen()?;
            let name = self.qual_name("the name of the type to refine")?;
            let params = self.type_params()?;
            self.expect(&TokenKind::Equals, "`=` and the refined type")?;
            let definition = self.type_exp()?;
            mod_type = ModTypeExp::With {
                mod_type: Box::new(mod_type),
                refinement: TypeRefinement {
                    name,
                    params,
                    definition,
                },
                span: self.span_from(start),
            };
        }
        self.depth = depth;
        Ok(mod_type)
    }

    fn mod_type_atom(&mut self) -> PResult<ModTypeExp> {
        let start = self.span();
        match self.peek() {
            TokenKind::Ident(_) => Ok(ModTypeExp::Var(self.qual_name("a module type name")?)),
            TokenKind::LBrace => {
                self.advance();
                let specs = self.nested(|p| {
                    let mut specs = Vec::new();
                    while !p.at(&TokenKind::RBrace) {
                        specs.push(p.spec()?);
                    }
                    Ok(specs)
                })?;
                self.expect_closing(&TokenKind::RBrace, start, "a specification or `}`")?;
                Ok(ModTypeExp::Signature {
                    specs,
                    span: self.span_from(start),
                })
            }
            TokenKind::LParen => {
                self.advance();
                let mod_type = self.mod_type()?;
                self.expect(&TokenKind::RParen, "`)` after the module type")?;
                Ok(mod_type)
            }
            _ => Err(self.expected("a module type")),
        }
    }

    fn spec(&mut self) -> PResult<Spec> {
        let start = self.span();
        match self.peek() {
            TokenKind::Keyword(Keyword::Val) => {
                self.advance();
                let name = if matches!(self.peek(), TokenKind::Symbol(_)) {
                    self.operator_symbol()?
                } else if self.at(&TokenKind::LParen)
                    && matches!(self.peek_at(1), TokenKind::Symbol(_))
                {
                    self.advance();
                    let name = self.operator_symbol()?;
                    self.expect(&TokenKind::RParen, "`)` after the operator")?;
                    name
                } else {
                    self.ident("a value name or an operator")?.0
                };
                let type_params = self.type_params()?;
                self.expect(&TokenKind::Colon, "`:` and the value's type")?;
                let ty = self.type_exp()?;
                Ok(Spec::Val {
                    name,
                    type_params,
                    ty,
                    span: self.span_from(start),
                })
            }
            TokenKind::Keyword(Keyword::Type) => {
                self.advance();
                let liftedness = self.liftedness_after_type();
                let (name, _) = self.ident("a type name")?;
                let params = self.type_params()?;
                let definition = if self.eat(&TokenKind::Equals) {
                    Some(self.type_exp()?)
                } else {
                    None
                };
                Ok(Spec::Type {
                    liftedness,
                    name,
                    params,
                    definition,
                    span: self.span_from(start),
                })
            }
            TokenKind::Keyword(Keyword::Module) => {
                self.advance();
                let (name, _) = self.ident("a module name")?;
                self.expect(&TokenKind::Colon, "`:` and the module's type")?;
                let mod_type = self.mod_type()?;
                Ok(Spec::Module {
                    name,
                    mod_type,
                    span: self.span_from(start),
                })
            }
            TokenKind::Keyword(Keyword::Include) => {
                self.advance();
                let mod_type = self.mod_type()?;
                Ok(Spec::Include {
                    mod_type,
                    span: self.span_from(start),
                })
            }
            _ => Err(self.expected("a specification (`val`, `type`, `module`, `include`) or `}`")),
        }
    }
}
