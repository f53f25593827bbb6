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
    /// A string literal (an `import`'s path, or an array of bytes).
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

/// The binary format a hexadecimal float literal is rounded to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FloatFormat {
    F32,
    F64,
}

impl FloatFormat {
    /// The significand's bits (the hidden one included).
    fn precision(self) -> i64 {
        match self {
            FloatFormat::F32 => 24,
            FloatFormat::F64 => 53,
        }
    }
    /// The exponent of the least normal number.
    fn min_exponent(self) -> i64 {
        match self {
            FloatFormat::F32 => -126,
            FloatFormat::F64 => -1022,
        }
    }
    /// The exponent of the greatest finite number.
    fn max_exponent(self) -> i64 {
        match self {
            FloatFormat::F32 => 127,
            FloatFormat::F64 => 1023,
        }
    }
}

/// `2^e` for `-1074 ≤ e ≤ 1023`, from its bits.
fn power_of_two(e: i64) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// The value of the hexadecimal float `0x{int_digits}.{fraction}p{exponent}`
/// (hexadecimal digits without separators) rounded to nearest, ties to even,
/// once, to `format`, as an `f64` (every `f32` is one); `None` where it
/// rounds to infinity. No decimal text in between: the digits' bits and the
/// exponent are the value.
fn hex_float_value(
    int_digits: &str,
    fraction: &str,
    exponent: i64,
    format: FloatFormat,
) -> Option<f64> {
    // The first 30 significant hexadecimal digits (120 bits, more than any
    // format's precision and its rounding bit) exactly, the rest as a sticky
    // bit: whether anything non-zero follows.
    let mut significand: u128 = 0;
    let mut kept = 0;
    let mut sticky = false;
    // The value is `significand * 2^scale` (plus less than its last unit
    // where `sticky`).
    let mut scale = exponent - 4 * fraction.len() as i64;
    for c in int_digits.chars().chain(fraction.chars()) {
        let digit = c.to_digit(16).expect("hexadecimal digit") as u128;
        if significand == 0 && digit == 0 {
            continue;
        }
        if kept < 30 {
            significand = significand << 4 | digit;
            kept += 1;
        } else {
            sticky |= digit != 0;
            scale += 4;
        }
    }
    if significand == 0 {
        return Some(0.0);
    }
    let bits = 128 - i64::from(significand.leading_zeros());
    // The value is 1.x * 2^leading; its last representable unit is 2^unit.
    let leading = scale + bits - 1;
    let unit =
        (leading - (format.precision() - 1)).max(format.min_exponent() - (format.precision() - 1));
    let shift = unit - scale;
    let rounded: u128 = if shift <= 0 {
        // Exact: `bits - shift ≤ precision` bits.
        significand << (-shift)
    } else if shift > 127 {
        // Below half the least subnormal.
        0
    } else {
        let kept_part = significand >> shift;
        let rest = significand & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = rest > half || (rest == half && (sticky || kept_part & 1 == 1));
        kept_part + u128::from(up)
    };
    if rounded == 0 {
        return Some(0.0);
    }
    // `rounded < 2^(precision + 1)`; rounding up may have carried into a
    // new leading bit.
    let result_leading = unit + 128 - i64::from(rounded.leading_zeros()) - 1;
    if result_leading > format.max_exponent() {
        return None;
    }
    // Both factors and their product are representable: exact.
    Some(rounded as f64 * power_of_two(unit))
}

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
            '\'' if self.at_character_literal() => return self.character(start),
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
            // `0x1.8p3`: a hexadecimal float needs a fraction after the
            // point, so `0x0..<n` stays a range.
            if radix == 16
                && self.peek() == Some('.')
                && self.peek_at(1).is_some_and(|c| c.is_ascii_hexdigit())
            {
                return self.hex_float(start, &digits);
            }
            if radix == 16
                && matches!(self.peek(), Some('p' | 'P'))
                && match self.peek_at(1) {
                    Some('+' | '-') => self.peek_at(2),
                    other => other,
                }
                .is_some_and(|c| c.is_ascii_digit())
            {
                return Err(self.error(
                    start,
                    "a hexadecimal float literal needs a fraction, as in `0x1.0p3`",
                    "hexadecimal float without `.`",
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

    /// The rest of a hexadecimal float literal after `0x` and the digits
    /// `int_digits` before its point (the Futhark language reference's
    /// `hexadecimalfloat`: `0x hexintpart "." hexfraction (p|P) [+|-]
    /// decdigit+`, `_` separators allowed, and a float suffix). Its value is
    /// computed exactly from the digits and rounded once to the suffix's
    /// type (`f64` without one).
    fn hex_float(&mut self, start: usize, int_digits: &str) -> Result<TokenKind, Diagnostic> {
        self.bump(); // `.`
        let fraction = self.digits(16);
        if !matches!(self.peek(), Some('p' | 'P')) {
            return Err(self.error(
                start,
                "a hexadecimal float literal needs a binary exponent, as in `0x1.8p0`",
                "expected `p` and an exponent",
            ));
        }
        self.bump();
        let negative = match self.peek() {
            Some(sign @ ('+' | '-')) => {
                self.bump();
                sign == '-'
            }
            _ => false,
        };
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error(
                start,
                "the exponent of a hexadecimal float literal has no digits",
                "expected decimal digits after `p`",
            ));
        }
        // Saturated: beyond any float's range either way, and far from
        // overflowing the sums below.
        let exponent = self
            .digits(10)
            .bytes()
            .fold(0i64, |e, d| (e * 10 + i64::from(d - b'0')).min(1 << 40));
        let exponent = if negative { -exponent } else { exponent };
        let suffix_start = self.pos;
        while self.peek().is_some_and(is_ident_char) {
            self.bump();
        }
        let suffix = &self.text[suffix_start..self.pos];
        let float_type = if suffix.is_empty() {
            None
        } else if suffix == "f16" {
            return Err(self.error(
                start,
                "the type f16 is not supported by runestone",
                "f16 literal",
            ));
        } else if let Some((_, float_type)) = FLOAT_SUFFIXES.iter().find(|(s, _)| *s == suffix) {
            Some(*float_type)
        } else {
            return Err(self.error(
                start,
                format!("invalid suffix `{suffix}` on a float literal"),
                "expected `f32` or `f64`",
            ));
        };
        let precision = match float_type {
            Some(FloatType::F32) => FloatFormat::F32,
            _ => FloatFormat::F64,
        };
        match hex_float_value(int_digits, &fraction, exponent, precision) {
            Some(value) => Ok(TokenKind::Float {
                value,
                suffix: float_type,
            }),
            None => Err(self.error(
                start,
                "float literal is too large to represent",
                "out of range",
            )),
        }
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
                Some('\\') => value.push(self.escape(start, "string")?),
                Some(c) => value.push(c),
            }
        }
    }

    /// Whether the `'` just read opens a character literal (`'a'`, `'\n'`)
    /// rather than a type parameter (`'a`): a character and then `'`, or an
    /// escape.
    fn at_character_literal(&self) -> bool {
        let rest = self.rest();
        let mut chars = rest.chars();
        match chars.next() {
            // No type parameter's name starts with `\`.
            Some('\\') => true,
            Some('\'' | '\n') | None => false,
            Some(_) => chars.next() == Some('\''),
        }
    }

    /// A character literal after its opening `'`: an unsuffixed integer
    /// literal, the character's Unicode code point (Futhark's language
    /// reference, "Literals"; SPEC_NOTES TFP18-33).
    fn character(&mut self, start: usize) -> Result<TokenKind, Diagnostic> {
        let character = match self.bump() {
            Some('\\') => self.escape(start, "character")?,
            Some(c) => c,
            None => return Err(self.error(start, "unterminated character literal", "here")),
        };
        if self.bump() != Some('\'') {
            return Err(self.error(
                start,
                "a character literal holds one character",
                "character literal",
            ));
        }
        Ok(TokenKind::Int {
            value: u64::from(u32::from(character)),
            suffix: None,
        })
    }

    /// The character an escape after `\` stands for: `\n \t \r \0 \\ \'
    /// \"`, `\xHH` (two hexadecimal digits) or `\NNN` (a decimal code).
    fn escape(&mut self, start: usize, what: &str) -> Result<char, Diagnostic> {
        let unknown = |lexer: &Self| {
            lexer.error(
                start,
                format!("unknown escape in {what} literal"),
                "expected one of \\n \\t \\r \\0 \\\\ \\' \\\" \\xHH \\NNN",
            )
        };
        let escaped = match self.peek() {
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('\\') => '\\',
            Some('\'') => '\'',
            Some('"') => '"',
            Some('x') => {
                self.bump();
                let digits: String = self.rest().chars().take(2).collect();
                if digits.len() != 2 || !digits.chars().all(|d| d.is_ascii_hexdigit()) {
                    return Err(unknown(self));
                }
                self.bump();
                self.bump();
                let code = u32::from_str_radix(&digits, 16).map_err(|_| unknown(self))?;
                return char::from_u32(code).ok_or_else(|| unknown(self));
            }
            Some(d) if d.is_ascii_digit() => {
                let digits: String = self
                    .rest()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                for _ in 0..digits.len() {
                    self.bump();
                }
                return digits
                    .parse::<u32>()
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| {
                        self.error(
                            start,
                            format!("the escape \\{digits} is not a Unicode character"),
                            "escape",
                        )
                    });
            }
            _ => return Err(unknown(self)),
        };
        self.bump();
        Ok(escaped)
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

    fn float(value: f64, suffix: Option<FloatType>) -> TokenKind {
        TokenKind::Float { value, suffix }
    }

    #[test]
    fn hexadecimal_floats() {
        check(
            "0x1.8p3 0x1.0p-2f32 0xA.Bp+1f64 0x1_0.0_8p1_0 0X0.1P4",
            &[
                float(12.0, None),
                float(0.25, Some(FloatType::F32)),
                float(21.375, Some(FloatType::F64)),
                float(16.03125 * 1024.0, None),
                float(1.0, None),
            ],
        );
        // A range from a hexadecimal integer is not a float.
        check("0x0..<n", &[int(0, None), TokenKind::DotDotLt, ident("n")]);
        // The least subnormal and the greatest finite number of each type.
        check(
            "0x0.0000000000001p-1022 0x1.fffffffffffffp1023 0x1.0p-149f32 0x1.fffffep127f32",
            &[
                float(f64::from_bits(1), None),
                float(f64::MAX, None),
                float(f64::from(f32::from_bits(1)), Some(FloatType::F32)),
                float(f64::from(f32::MAX), Some(FloatType::F32)),
            ],
        );
        for bad in [
            "0x1.0",
            "0x1p3",
            "0x1.0p",
            "0x1.0pf32",
            "0x1.0p3q",
            "0x1.0p1024",
            "0x1.0p128f32",
            // Halfway between the greatest f32 and 2^128: rounds to even,
            // to infinity.
            "0x1.ffffffp127f32",
            "0x1.0p3f16",
        ] {
            assert!(lex(FileId(0), bad).is_err(), "{bad}");
        }
    }

    /// The value of a hexadecimal float literal, lexed.
    fn hex(text: &str) -> f64 {
        match lex(FileId(0), text).unwrap()[0].kind {
            TokenKind::Float { value, .. } => value,
            ref other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn hexadecimal_floats_round_once_to_nearest_even() {
        // 1 + 2^-53 is halfway between 1 and its successor: ties to even.
        assert_eq!(hex("0x1.00000000000008p0"), 1.0);
        // 1 + 3 * 2^-53 is halfway between the odd 1 + 2^-52 and 1 + 2^-51.
        assert_eq!(hex("0x1.00000000000018p0"), 1.0 + 2f64.powi(-51));
        // Just above halfway, by a digit far beyond the precision.
        assert_eq!(
            hex("0x1.000000000000080000000000000000000001p0"),
            1.0 + 2f64.powi(-52)
        );
        // At f32, rounded from the exact value, not from its f64 rounding:
        // 1 + 2^-24 + 2^-60 is above the f32 halfway point 1 + 2^-24, though
        // its nearest f64 is exactly that point (a second rounding would
        // give 1).
        assert_eq!(
            hex("0x1.000001000000001p0f32"),
            f64::from(1.0f32 + f32::EPSILON)
        );
        assert_eq!(hex("0x1.000001p0f32"), 1.0);
        // Subnormals round at their own unit: 3 * 2^-1076 is 0.75 units
        // of 2^-1074, so 2^-1074; 2^-1075 is half a unit, so 0 (even).
        assert_eq!(hex("0x3.0p-1076"), f64::from_bits(1));
        assert_eq!(hex("0x1.0p-1075"), 0.0);
        assert_eq!(hex("0x1.8p-1075"), f64::from_bits(1));
        // Rounding up to the next binade, and to the greatest f32.
        assert_eq!(hex("0x1.ffffffffffffffp0"), 2.0);
        assert_eq!(hex("0x1.fffffefp127f32"), f64::from(f32::MAX));
        assert_eq!(hex("0x0.0p0"), 0.0);
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
