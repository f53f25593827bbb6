//! The lexer: source text to tokens, following the lexical structure of the
//! Futhark language reference ("Identifiers and Keywords", "Primitive Types and
//! Values").
//!
//! Each token records whether whitespace or a comment precedes it, because
//! Futhark's grammar depends on it: `a[i]` indexes while `a [i]` applies `a` to
//! an array, and `m.x`, `m.(e)` and `x.0` are single names only when written
//! without spaces.

use super::ast::{FloatType, IntType};
use super::operators::{is_symbol_char, SYMBOL_START_CHARS};
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

/// Reserved words (Futhark language reference, "Reserved names and symbols").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    True,
    False,
    If,
    Then,
    Else,
    Def,
    Let,
    Loop,
    In,
    Val,
    For,
    Do,
    With,
    Local,
    Open,
    Include,
    Import,
    Type,
    Entry,
    Module,
    While,
    Assert,
    Match,
    Case,
}

/// Every keyword with its spelling.
pub const KEYWORDS: &[(&str, Keyword)] = &[
    ("true", Keyword::True),
    ("false", Keyword::False),
    ("if", Keyword::If),
    ("then", Keyword::Then),
    ("else", Keyword::Else),
    ("def", Keyword::Def),
    ("let", Keyword::Let),
    ("loop", Keyword::Loop),
    ("in", Keyword::In),
    ("val", Keyword::Val),
    ("for", Keyword::For),
    ("do", Keyword::Do),
    ("with", Keyword::With),
    ("local", Keyword::Local),
    ("open", Keyword::Open),
    ("include", Keyword::Include),
    ("import", Keyword::Import),
    ("type", Keyword::Type),
    ("entry", Keyword::Entry),
    ("module", Keyword::Module),
    ("while", Keyword::While),
    ("assert", Keyword::Assert),
    ("match", Keyword::Match),
    ("case", Keyword::Case),
];

/// Whether `name` is reserved.
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.iter().any(|(spelling, _)| *spelling == name)
}

impl Keyword {
    pub fn spelling(self) -> &'static str {
        KEYWORDS
            .iter()
            .find(|(_, keyword)| *keyword == self)
            .map(|(spelling, _)| *spelling)
            .unwrap_or("?")
    }
}

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An identifier (`x`, `x'`, `_x`); never a keyword.
    Ident(String),
    Keyword(Keyword),
    /// An integer literal (magnitude; `-` is an operator).
    Int {
        value: u64,
        suffix: Option<IntType>,
    },
    /// A float literal.
    Float {
        value: f64,
        suffix: Option<FloatType>,
    },
    /// A string literal (only used by `import`).
    String(String),
    /// An operator symbol other than the reserved `=` and `->`.
    Symbol(String),
    /// `#name`.
    Constructor(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Colon,
    /// `:>`
    ColonGt,
    Dot,
    /// `..`
    DotDot,
    /// `...`
    DotDotDot,
    /// `..<`
    DotDotLt,
    /// `..>`
    DotDotGt,
    Equals,
    /// `->`
    Arrow,
    Backslash,
    Backtick,
    Underscore,
    /// `'`
    Tick,
    /// `'^`
    TickHat,
    /// `'~`
    TickTilde,
    /// `~` (only in `type~`)
    Tilde,
    Question,
    /// `#[`
    HashBracket,
    Eof,
}

impl TokenKind {
    /// How the token is named in "expected …, found …" messages.
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Ident(name) => format!("identifier `{name}`"),
            TokenKind::Keyword(k) => format!("keyword `{}`", k.spelling()),
            TokenKind::Int { .. } => "integer literal".to_string(),
            TokenKind::Float { .. } => "float literal".to_string(),
            TokenKind::String(_) => "string literal".to_string(),
            TokenKind::Symbol(s) => format!("operator `{s}`"),
            TokenKind::Constructor(name) => format!("constructor `#{name}`"),
            TokenKind::LParen => "`(`".to_string(),
            TokenKind::RParen => "`)`".to_string(),
            TokenKind::LBracket => "`[`".to_string(),
            TokenKind::RBracket => "`]`".to_string(),
            TokenKind::LBrace => "`{`".to_string(),
            TokenKind::RBrace => "`}`".to_string(),
            TokenKind::Comma => "`,`".to_string(),
            TokenKind::Colon => "`:`".to_string(),
            TokenKind::ColonGt => "`:>`".to_string(),
            TokenKind::Dot => "`.`".to_string(),
            TokenKind::DotDot => "`..`".to_string(),
            TokenKind::DotDotDot => "`...`".to_string(),
            TokenKind::DotDotLt => "`..<`".to_string(),
            TokenKind::DotDotGt => "`..>`".to_string(),
            TokenKind::Equals => "`=`".to_string(),
            TokenKind::Arrow => "`->`".to_string(),
            TokenKind::Backslash => "`\\`".to_string(),
            TokenKind::Backtick => "`` ` ``".to_string(),
            TokenKind::Underscore => "`_`".to_string(),
            TokenKind::Tick => "`'`".to_string(),
            TokenKind::TickHat => "`'^`".to_string(),
            TokenKind::TickTilde => "`'~`".to_string(),
            TokenKind::Tilde => "`~`".to_string(),
            TokenKind::Question => "`?`".to_string(),
            TokenKind::HashBracket => "`#[`".to_string(),
            TokenKind::Eof => "end of input".to_string(),
        }
    }
}

/// A token with its location and whether whitespace (or a comment) precedes it.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    pub space_before: bool,
}

/// Splits `text` into tokens, ending with [`TokenKind::Eof`]. Stops at the first
/// lexical error.
pub fn lex(file: FileId, text: &str) -> Result<Vec<Token>, Diagnostic> {
    Lexer {
        file,
        text,
        pos: 0,
        tokens: Vec::new(),
    }
    .run()
}

struct Lexer<'a> {
    file: FileId,
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
}

const INT_SUFFIXES: &[(&str, IntType)] = &[
    ("i8", IntType::I8),
    ("i16", IntType::I16),
    ("i32", IntType::I32),
    ("i64", IntType::I64),
    ("u8", IntType::U8),
    ("u16", IntType::U16),
    ("u32", IntType::U32),
    ("u64", IntType::U64),
];

const FLOAT_SUFFIXES: &[(&str, FloatType)] = &[("f32", FloatType::F32), ("f64", FloatType::F64)];

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\''
}

impl<'a> Lexer<'a> {
    fn run(mut self) -> Result<Vec<Token>, Diagnostic> {
        loop {
            let space_before = self.skip_whitespace_and_comments();
            let start = self.pos;
            let Some(c) = self.peek() else {
                self.push(TokenKind::Eof, start, true);
                return Ok(self.tokens);
            };
            let kind = self.token(c, space_before)?;
            self.push(kind, start, space_before);
        }
    }

    fn push(&mut self, kind: TokenKind, start: usize, space_before: bool) {
        self.tokens.push(Token {
            kind,
            span: Span::new(self.file, start, self.pos),
            space_before,
        });
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.text[self.pos..].chars().nth(offset)
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn error(
        &self,
        start: usize,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Diagnostic {
        let end = if self.pos > start {
            self.pos
        } else {
            start + self.text[start..].chars().next().map_or(0, char::len_utf8)
        };
        Diagnostic::error(message)
            .with_code("syntax")
            .with_primary(Span::new(self.file, start, end), label)
    }

    /// Skips blanks and `--` comments; says whether anything was skipped.
    fn skip_whitespace_and_comments(&mut self) -> bool {
        let start = self.pos;
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some('-') if self.rest().starts_with("--") => {
                    while let Some(c) = self.peek() {
                        if c == '\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                _ => break,
            }
        }
        self.pos > start || start == 0
    }

    /// Whether the previous token ends an atom, so that a following `.` is a
    /// projection or qualification rather than the start of a float like `.5`.
    /// (Directly after `(`, a `.` starts a projection section `(.0)`.)
    fn after_atom(&self) -> bool {
        matches!(
            self.tokens.last().map(|t| &t.kind),
            Some(
                TokenKind::Ident(_)
                    | TokenKind::RParen
                    | TokenKind::RBracket
                    | TokenKind::RBrace
                    | TokenKind::Int { .. }
                    | TokenKind::Float { .. }
            )
        )
    }

    fn token(&mut self, c: char, space_before: bool) -> Result<TokenKind, Diagnostic> {
        let start = self.pos;
        // A field name after `x.` is a plain decimal: `t.0.1` is t, 0, 1.
        if c.is_ascii_digit()
            && !space_before
            && matches!(self.tokens.last().map(|t| &t.kind), Some(TokenKind::Dot))
        {
            return self.field_number(start);
        }
        if c.is_ascii_digit()
            || (c == '.'
                && self.peek_at(1).is_some_and(|d| d.is_ascii_digit())
                && (space_before || !self.after_atom())
                && !matches!(self.tokens.last().map(|t| &t.kind), Some(TokenKind::LParen)))
        {
            return self.number(start);
        }
        if is_ident_start(c) {
            while self.peek().is_some_and(is_ident_char) {
                self.bump();
            }
            let word = &self.text[start..self.pos];
            if word == "_" {
                return Ok(TokenKind::Underscore);
            }
            if let Some((_, keyword)) = KEYWORDS.iter().find(|(s, _)| *s == word) {
                return Ok(TokenKind::Keyword(*keyword));
            }
            return Ok(TokenKind::Ident(word.to_string()));
        }
        if SYMBOL_START_CHARS.contains(c) {
            return Ok(self.symbol());
        }
        self.bump();
        let kind = match c {
            '(' => TokenKind::LParen,
            ')' => TokenKind::RParen,
            '[' => TokenKind::LBracket,
            ']' => TokenKind::RBracket,
            '{' => TokenKind::LBrace,
            '}' => TokenKind::RBrace,
            ',' => TokenKind::Comma,
            '\\' => TokenKind::Backslash,
            '`' => TokenKind::Backtick,
            '~' => TokenKind::Tilde,
            '?' => {
                if self.rest().starts_with("??") {
                    return Err(self.error(
                        start,
                        "typed holes `???` are not supported by runestone",
                        "typed hole",
                    ));
                }
                TokenKind::Question
            }
            ':' => {
                if self.peek() == Some('>') {
                    self.bump();
                    TokenKind::ColonGt
                } else {
                    TokenKind::Colon
                }
            }
            '.' => {
                if self.rest().starts_with("..") {
                    self.bump();
                    self.bump();
                    TokenKind::DotDotDot
                } else if self.rest().starts_with(".<") {
                    self.bump();
                    self.bump();
                    TokenKind::DotDotLt
                } else if self.rest().starts_with(".>") {
                    self.bump();
                    self.bump();
                    TokenKind::DotDotGt
                } else if self.rest().starts_with('.') {
                    self.bump();
                    TokenKind::DotDot
                } else {
                    TokenKind::Dot
                }
            }
            '\'' => match self.peek() {
                Some('^') => {
                    self.bump();
                    TokenKind::TickHat
                }
                Some('~') => {
                    self.bump();
                    TokenKind::TickTilde
                }
                _ => TokenKind::Tick,
            },
            '#' => {
                if self.peek() == Some('[') {
                    self.bump();
                    TokenKind::HashBracket
                } else if self.peek().is_some_and(is_ident_start) {
                    let name_start = self.pos;
                    while self.peek().is_some_and(is_ident_char) {
                        self.bump();
                    }
                    TokenKind::Constructor(self.text[name_start..self.pos].to_string())
                } else {
                    return Err(self.error(
                        start,
                        "a `#` must be followed by a constructor name or `[`",
                        "expected `#name` or `#[`",
                    ));
                }
            }
            '"' => return self.string(start),
            _ => {
                return Err(self.error(
                    start,
                    format!("unexpected character {c:?}"),
                    "not part of any token",
                ))
            }
        };
        Ok(kind)
    }

    /// An operator symbol, or one of the reserved `=` and `->`.
    fn symbol(&mut self) -> TokenKind {
        let start = self.pos;
        while let Some(c) = self.peek() {
            // `--` starts a comment even inside a run of operator characters.
            if !is_symbol_char(c) || (self.pos > start && self.rest().starts_with("--")) {
                break;
            }
            // `..` after an operator is a range, not part of the symbol.
            if c == '.' && self.rest().starts_with("..") {
                break;
            }
            self.bump();
        }
        match &self.text[start..self.pos] {
            "=" => TokenKind::Equals,
            "->" => TokenKind::Arrow,
            symbol => TokenKind::Symbol(symbol.to_string()),
        }
    }

    fn field_number(&mut self, start: usize) -> Result<TokenKind, Diagnostic> {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        let digits = &self.text[start..self.pos];
        match digits.parse::<u64>() {
            Ok(value) => Ok(TokenKind::Int {
                value,
                suffix: None,
            }),
            Err(_) => Err(self.error(start, "field number is too large", "field number")),
        }
    }

    /// Consumes digits of the given radix (and `_` separators), returns them
    /// without separators.
    fn digits(&mut self, radix: u32) -> String {
        let mut digits = String::new();
        while let Some(c) = self.peek() {
            if c.is_digit(radix) {
                digits.push(c);
            } else if c != '_' {
                break;
            }
            self.bump();
        }
        digits
    }

    fn number(&mut self, start: usize) -> Result<TokenKind, Diagnostic> {
        let radix = if self.rest().starts_with("0x") || self.rest().starts_with("0X") {
            16
        } else if (self.rest().starts_with("0b") || self.rest().starts_with("0B"))
            && self.peek_at(2).is_some_and(|c| c == '0' || c == '1')
        {
            2
        } else {
            10
        };
        if radix != 10 {
            self.bump();
            self.bump();
            let digits = self.digits(radix);
            if digits.is_empty() {
                return Err(self.error(start, "numeric literal has no digits", "expected digits"));
            }
            if radix == 16 && self.peek() == Some('.') {
                return Err(self.error(
                    start,
                    "hexadecimal float literals are not supported by runestone",
                    "hexadecimal float",
                ));
            }
            let value = u64::from_str_radix(&digits, radix).map_err(|_| {
                self.error(
                    start,
                    "integer literal does not fit in 64 bits",
                    "too large",
                )
            })?;
            return self.int_suffix(start, value);
        }
        let int_part = self.digits(10);
        let mut is_float = false;
        let mut text = int_part.clone();
        if self.peek() == Some('.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            is_float = true;
            text.push('.');
            text.push_str(&self.digits(10));
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            let exponent_digits = match self.peek_at(1) {
                Some('+' | '-') => self.peek_at(2),
                other => other,
            };
            if exponent_digits.is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
                text.push('e');
                if let Some(sign @ ('+' | '-')) = self.peek() {
                    self.bump();
                    text.push(sign);
                }
                text.push_str(&self.digits(10));
                is_float = true;
            }
        }
        if text.starts_with('.') {
            text.insert(0, '0');
        }
        let suffix_start = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.bump();
        }
        let suffix = &self.text[suffix_start..self.pos];
        if suffix == "f16" {
            return Err(self.error(
                start,
                "the type f16 is not supported by runestone",
                "f16 literal",
            ));
        }
        if let Some((_, float_type)) = FLOAT_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
            return self.float(start, &text, Some(*float_type));
        }
        if is_float {
            if !suffix.is_empty() {
                return Err(self.error(
                    start,
                    format!("invalid suffix `{suffix}` on a float literal"),
                    "expected `f32` or `f64`",
                ));
            }
            return self.float(start, &text, None);
        }
        self.pos = suffix_start;
        let value = int_part.parse::<u64>().map_err(|_| {
            self.error(
                start,
                "integer literal does not fit in 64 bits",
                "too large",
            )
        })?;
        self.int_suffix(start, value)
    }

    fn float(
        &mut self,
        start: usize,
        text: &str,
        suffix: Option<FloatType>,
    ) -> Result<TokenKind, Diagnostic> {
        let value: f64 = text
            .parse()
            .map_err(|_| self.error(start, "malformed float literal", "float literal"))?;
        if !value.is_finite() {
            return Err(self.error(
                start,
                "float literal is too large to represent",
                "out of range",
            ));
        }
        Ok(TokenKind::Float { value, suffix })
    }

    fn int_suffix(&mut self, start: usize, value: u64) -> Result<TokenKind, Diagnostic> {
        let suffix_start = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.bump();
        }
        let suffix = &self.text[suffix_start..self.pos];
        if suffix.is_empty() {
            return Ok(TokenKind::Int {
                value,
                suffix: None,
            });
        }
        if let Some((_, int_type)) = INT_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
            return Ok(TokenKind::Int {
                value,
                suffix: Some(*int_type),
            });
        }
        if let Some((_, float_type)) = FLOAT_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
            return Ok(TokenKind::Float {
                value: value as f64,
                suffix: Some(*float_type),
            });
        }
        Err(self.error(
            start,
            format!("invalid suffix `{suffix}` on a numeric literal"),
            "expected one of i8 i16 i32 i64 u8 u16 u32 u64 f32 f64",
        ))
    }

    fn string(&mut self, start: usize) -> Result<TokenKind, Diagnostic> {
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return Err(self.error(
                        start,
                        "unterminated string literal",
                        "string starts here",
                    ))
                }
                Some('"') => return Ok(TokenKind::String(value)),
                Some('\\') => match self.bump() {
                    Some('"') => value.push('"'),
                    Some('\\') => value.push('\\'),
                    Some('n') => value.push('\n'),
                    Some('t') => value.push('\t'),
                    _ => {
                        return Err(self.error(
                            start,
                            "unknown escape in string literal",
                            "expected one of \\\" \\\\ \\n \\t",
                        ))
                    }
                },
                Some(c) => value.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        lex(FileId(0), text)
            .expect("lexes")
            .into_iter()
            .map(|t| t.kind)
            .filter(|k| *k != TokenKind::Eof)
            .collect()
    }

    fn check(text: &str, expected: &[TokenKind]) {
        assert_eq!(kinds(text), expected, "lexing {text:?}");
    }

    fn int(value: u64, suffix: Option<IntType>) -> TokenKind {
        TokenKind::Int { value, suffix }
    }

    fn ident(name: &str) -> TokenKind {
        TokenKind::Ident(name.to_string())
    }

    fn symbol(s: &str) -> TokenKind {
        TokenKind::Symbol(s.to_string())
    }

    #[test]
    fn numbers() {
        check("42", &[int(42, None)]);
        check(
            "42i8 0xffu8 0b101 1_000",
            &[
                int(42, Some(IntType::I8)),
                int(255, Some(IntType::U8)),
                int(5, None),
                int(1000, None),
            ],
        );
        check(
            "2.5f32 1e3 1f64",
            &[
                TokenKind::Float {
                    value: 2.5,
                    suffix: Some(FloatType::F32),
                },
                TokenKind::Float {
                    value: 1000.0,
                    suffix: None,
                },
                TokenKind::Float {
                    value: 1.0,
                    suffix: Some(FloatType::F64),
                },
            ],
        );
        check("1..5", &[int(1, None), TokenKind::DotDot, int(5, None)]);
        check("0..<n", &[int(0, None), TokenKind::DotDotLt, ident("n")]);
        check(
            "x .5",
            &[
                ident("x"),
                TokenKind::Float {
                    value: 0.5,
                    suffix: None,
                },
            ],
        );
    }

    #[test]
    fn fields_and_qualified_names() {
        check(
            "t.0.1",
            &[
                ident("t"),
                TokenKind::Dot,
                int(0, None),
                TokenKind::Dot,
                int(1, None),
            ],
        );
        check("i32.+", &[ident("i32"), TokenKind::Dot, symbol("+")]);
    }

    #[test]
    fn symbols_and_reserved() {
        check(
            "a |> f <| x",
            &[
                ident("a"),
                symbol("|>"),
                ident("f"),
                symbol("<|"),
                ident("x"),
            ],
        );
        check(
            "= -> == :> :",
            &[
                TokenKind::Equals,
                TokenKind::Arrow,
                symbol("=="),
                TokenKind::ColonGt,
                TokenKind::Colon,
            ],
        );
        check("x--comment\ny", &[ident("x"), ident("y")]);
        check(
            "'a '^b '~c",
            &[
                TokenKind::Tick,
                ident("a"),
                TokenKind::TickHat,
                ident("b"),
                TokenKind::TickTilde,
                ident("c"),
            ],
        );
        check(
            "#foo #[",
            &[TokenKind::Constructor("foo".into()), TokenKind::HashBracket],
        );
    }

    #[test]
    fn errors_are_located() {
        let err = lex(FileId(0), "x = 300000000000000000000").unwrap_err();
        assert!(err.message.contains("64 bits"), "{err:?}");
        let err = lex(FileId(0), "1q32").unwrap_err();
        assert!(err.message.contains("suffix"), "{err:?}");
        let err = lex(FileId(0), "\"abc").unwrap_err();
        assert!(err.message.contains("unterminated"), "{err:?}");
        assert!(lex(FileId(0), "a $ b").is_err());
    }
}
