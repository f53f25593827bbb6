//! The reader of Futhark's textual value format, with binary values mixed in.
//!
//! The input is a sequence of values separated by whitespace and `--` comments
//! (a program's arguments are "tuples as multiple values"). Syntax:
//!
//! - integers: `1i32`, `-3i8`, `255u8`, `0xffu8`, `0b101`, `1_000`; without a
//!   suffix an integer is `i32`. An integer literal with a float suffix is a
//!   float (`1f32`). A literal outside its type's range is an error (`300u8`,
//!   `-1u32`, `0xffi8`: no wrapping).
//! - floats: `2.5f32`, `1e3`, `1.5e-3f64`; without a suffix `f64`; digits are
//!   required on both sides of a `.`. Non-finite: `f32.nan`, `f64.inf`,
//!   `-f32.inf`. A finite literal that rounds to infinity is out of range.
//! - `true`, `false`.
//! - arrays `[1, 2]`, `[[1, 2], [3, 4]]`, regular and of one element type, a
//!   trailing comma allowed; arrays without elements `empty([0]i32)`,
//!   `empty([2][0]i32)` (every dimension given, one of them zero).
//! - runestone extension (see [`super`]): tuples `(1i32, true)`, `()`, `(x,)`;
//!   records `{a = 1i32, b = 2.0f32}`; sums `#some 1i32`; parentheses; and their
//!   types in `empty(...)`: `(i32, bool)`, `{a: i32}`, `#none | #some i32`.
//! - a binary value (Futhark's binary data format, [`super::binary`]) where a
//!   value may start: a `b` byte followed by the version byte 2. No textual value
//!   starts with `b`.
//!
//! `f16` is not supported and is reported as such. Bad input is an error, never a
//! panic; nesting deeper than [`MAX_NESTING`] is an error, not a stack overflow.

use super::array::ArrayBuilder;
use super::binary::read_binary_value;
use super::{is_identifier, Array, PrimType, PrimValue, Value, ValueError, ValueType};

/// The deepest nesting of brackets, parentheses, braces and sum payloads the
/// reader accepts.
pub const MAX_NESTING: usize = 256;

/// Reads every value of `input` (text, binary, or both mixed).
pub fn read_values(input: impl AsRef<[u8]>) -> Result<Vec<Value>, ValueError> {
    let mut parser = Parser::new(input.as_ref());
    let mut values = Vec::new();
    loop {
        parser.skip_space();
        if parser.at_end() {
            return Ok(values);
        }
        values.push(parser.top_value()?);
    }
}

/// Reads a sequence of value types separated by whitespace and `--` comments,
/// as `random input { [100]i32 (f32, bool) }` writes them: every array
/// dimension must be given (`[100][3]f32`). The syntax is that of the element
/// types of `empty(...)`.
pub fn read_types(input: impl AsRef<[u8]>) -> Result<Vec<ValueType>, ValueError> {
    let mut parser = Parser::new(input.as_ref());
    let mut types = Vec::new();
    loop {
        parser.skip_space();
        if parser.at_end() {
            return Ok(types);
        }
        types.push(parser.nested_type()?);
    }
}

/// Reads exactly one value.
pub fn read_value(input: impl AsRef<[u8]>) -> Result<Value, ValueError> {
    let input = input.as_ref();
    let mut parser = Parser::new(input);
    parser.skip_space();
    if parser.at_end() {
        return Err(parser.error_here("no value", "expected a value"));
    }
    let value = parser.top_value()?;
    parser.skip_space();
    if !parser.at_end() {
        return Err(parser.error_here(
            "more than one value",
            "expected the end of the input after one value",
        ));
    }
    Ok(value)
}

const SUFFIXES: &str = "i8, i16, i32, i64, u8, u16, u32, u64, f32 or f64";

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    depth: usize,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'\''
}

/// Whether `b` can start a value that is a sum payload.
fn starts_atom(b: u8) -> bool {
    matches!(
        b,
        b'[' | b'(' | b'{' | b'#' | b'-' | b'0'..=b'9' | b't' | b'f' | b'e'
    )
}

/// How a byte is shown in a message: `` `x` `` or its hex code.
fn show_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("`{}`", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

impl<'a> Parser<'a> {
    fn new(input: &'a [u8]) -> Parser<'a> {
        Parser {
            input,
            pos: 0,
            depth: 0,
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.input.len()
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.input.get(self.pos + k).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() {
                self.pos += 1;
            } else if b == b'-' && self.peek_at(1) == Some(b'-') {
                while let Some(b) = self.peek() {
                    self.pos += 1;
                    if b == b'\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// An error at the current position, underlining the next byte if it is
    /// ASCII (an empty span otherwise, which stays on a character boundary).
    fn error_here(&self, message: impl Into<String>, expected: impl Into<String>) -> ValueError {
        let len = match self.peek() {
            Some(b) if b.is_ascii() && !b.is_ascii_control() => 1,
            _ => 0,
        };
        ValueError::new(self.pos..self.pos + len, message, expected)
    }

    /// "unexpected X" (or end of input) at the current position.
    fn unexpected(&self, expected: impl Into<String>) -> ValueError {
        let message = match self.peek() {
            None => "unexpected end of input".to_string(),
            Some(b) => format!("unexpected {}", show_byte(b)),
        };
        self.error_here(message, expected)
    }

    fn expect(&mut self, byte: u8, expected: &str) -> Result<(), ValueError> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn enter(&mut self) -> Result<(), ValueError> {
        if self.depth >= MAX_NESTING {
            return Err(self.error_here(
                format!("values nested more than {MAX_NESTING} deep"),
                "nesting limit reached here",
            ));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A value at top level: binary, or textual with sums taking a payload.
    fn top_value(&mut self) -> Result<Value, ValueError> {
        if self.peek() == Some(b'b') {
            let (value, next) = read_binary_value(self.input, self.pos)?;
            self.pos = next;
            return Ok(value);
        }
        self.value(true)
    }

    /// A textual value; `payload`: whether a sum constructor takes a payload
    /// here (not when this value is itself a payload).
    fn value(&mut self, payload: bool) -> Result<Value, ValueError> {
        self.skip_space();
        match self.peek() {
            Some(b'[') => self.nested(Parser::array),
            Some(b'(') => self.nested(Parser::tuple),
            Some(b'{') => self.nested(Parser::record),
            Some(b'#') => self.nested(|p| p.sum(payload)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'b') if self.peek_at(1) == Some(super::binary::VERSION) => Err(self.error_here(
                "a binary value inside a textual value",
                "binary values may only appear at top level",
            )),
            Some(b) if b.is_ascii_alphabetic() => self.word(),
            _ => Err(self.unexpected("expected a value")),
        }
    }

    fn nested(
        &mut self,
        parse: impl FnOnce(&mut Parser<'a>) -> Result<Value, ValueError>,
    ) -> Result<Value, ValueError> {
        self.enter()?;
        let result = parse(self);
        self.leave();
        result
    }

    fn array(&mut self) -> Result<Value, ValueError> {
        let open = self.pos;
        self.pos += 1;
        self.skip_space();
        if self.peek() == Some(b']') {
            return Err(ValueError::new(
                open..self.pos + 1,
                "`[]` has no element type",
                "write an array without elements as `empty([0]i32)`",
            ));
        }
        let mut builder = ArrayBuilder::new();
        loop {
            self.skip_space();
            let start = self.pos;
            let row = self.value(true)?;
            builder.push_row(row).map_err(|e| {
                ValueError::new(
                    start..self.pos,
                    e.message,
                    "expected a regular array of one element type",
                )
            })?;
            self.skip_space();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_space();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        break;
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.unexpected("expected `,` or `]`")),
            }
        }
        let array = builder
            .finish()
            .map_err(|e| ValueError::new(open..self.pos, e.message, "this array"))?;
        Ok(Value::Array(array))
    }

    fn tuple(&mut self) -> Result<Value, ValueError> {
        self.pos += 1;
        self.skip_space();
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(Value::unit());
        }
        let mut elems = Vec::new();
        loop {
            elems.push(self.value(true)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_space();
                    if elems.len() == 1 && self.peek() == Some(b')') {
                        self.pos += 1;
                        return Ok(Value::Tuple(elems));
                    }
                }
                Some(b')') => {
                    self.pos += 1;
                    if elems.len() == 1 {
                        return Ok(elems.pop().expect("one element"));
                    }
                    return Ok(Value::Tuple(elems));
                }
                _ => return Err(self.unexpected("expected `,` or `)`")),
            }
        }
    }

    /// A field name (identifier or numeral) and its span.
    fn field_name(&mut self) -> Result<(String, std::ops::Range<usize>), ValueError> {
        self.skip_space();
        let start = self.pos;
        while self.peek().is_some_and(is_word_byte) {
            self.pos += 1;
        }
        let name = String::from_utf8_lossy(&self.input[start..self.pos]).into_owned();
        if !super::is_field_name(&name) {
            self.pos = start;
            return Err(self.unexpected("expected a field name (an identifier or a numeral)"));
        }
        Ok((name, start..self.pos))
    }

    fn record(&mut self) -> Result<Value, ValueError> {
        let open = self.pos;
        self.pos += 1;
        self.skip_space();
        let mut fields: Vec<(String, Value)> = Vec::new();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::unit());
        }
        loop {
            let (name, span) = self.field_name()?;
            if fields.iter().any(|(n, _)| *n == name) {
                return Err(ValueError::new(
                    span,
                    format!("duplicate field `{name}`"),
                    "each field appears once",
                ));
            }
            self.expect(b'=', "expected `=` after the field name")?;
            let value = self.value(true)?;
            fields.push((name, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.unexpected("expected `,` or `}`")),
            }
        }
        Value::record(fields).map_err(|e| ValueError::new(open..self.pos, e.message, "this record"))
    }

    /// `#name`, the constructor's name and its span.
    fn constructor(&mut self) -> Result<(String, std::ops::Range<usize>), ValueError> {
        let start = self.pos;
        self.pos += 1;
        while self.peek().is_some_and(is_word_byte) {
            self.pos += 1;
        }
        let name = String::from_utf8_lossy(&self.input[start + 1..self.pos]).into_owned();
        if !is_identifier(&name) {
            self.pos = start + 1;
            return Err(self.unexpected("expected a constructor name after `#`"));
        }
        Ok((name, start..self.pos))
    }

    fn sum(&mut self, takes_payload: bool) -> Result<Value, ValueError> {
        let (name, span) = self.constructor()?;
        let mut payload = Vec::new();
        if takes_payload {
            loop {
                self.skip_space();
                match self.peek() {
                    Some(b) if starts_atom(b) => payload.push(self.value(false)?),
                    _ => break,
                }
            }
        }
        Value::sum(name, payload).map_err(|e| ValueError::new(span, e.message, "this constructor"))
    }

    /// A word: `true`, `false`, `empty(...)`, `f32.nan`, `f64.inf`, ...
    #[inline(never)] // keeps its frame off the recursive path
    fn word(&mut self) -> Result<Value, ValueError> {
        let start = self.pos;
        while self.peek().is_some_and(|b| is_word_byte(b) || b == b'.') {
            self.pos += 1;
        }
        let word = String::from_utf8_lossy(&self.input[start..self.pos]).into_owned();
        let span = start..self.pos;
        Ok(match word.as_str() {
            "true" => Value::from(true),
            "false" => Value::from(false),
            "empty" => return self.empty(start),
            _ => match special_float(&word, false) {
                Some(Ok(v)) => v,
                Some(Err((message, expected))) => {
                    return Err(ValueError::new(span, message, expected))
                }
                None => {
                    return Err(ValueError::new(
                        span,
                        format!("unknown word `{word}`"),
                        "expected a value",
                    ))
                }
            },
        })
    }

    /// `empty([d1]...[dn]t)`, the word `empty` already read from `start`.
    #[inline(never)] // keeps its frame off the recursive path
    fn empty(&mut self, start: usize) -> Result<Value, ValueError> {
        self.expect(b'(', "expected `(` after `empty`")?;
        let mut shape = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some(b'[') {
                break;
            }
            self.pos += 1;
            shape.push(self.dimension()?);
            self.expect(b']', "expected `]` after the dimension")?;
        }
        if shape.is_empty() {
            return Err(
                self.unexpected("expected the array's shape, like `[0]` in `empty([0]i32)`")
            );
        }
        let elem = self.nested_type()?;
        self.expect(b')', "expected `)` closing `empty(`")?;
        let array = Array::empty(shape, elem)
            .map_err(|e| ValueError::new(start..self.pos, e.message, "this empty array"))?;
        Ok(Value::Array(array))
    }

    fn dimension(&mut self) -> Result<usize, ValueError> {
        self.skip_space();
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit() || b == b'_') {
            self.pos += 1;
        }
        if start == self.pos || !self.input[start].is_ascii_digit() {
            self.pos = start;
            return Err(self.unexpected("expected a dimension size (a decimal number)"));
        }
        let text: String = self.input[start..self.pos]
            .iter()
            .filter(|&&b| b != b'_')
            .map(|&b| b as char)
            .collect();
        text.parse::<u64>()
            .ok()
            .filter(|&d| d <= i64::MAX as u64)
            .map(|d| d as usize)
            .ok_or_else(|| {
                ValueError::new(
                    start..self.pos,
                    "dimension too large",
                    "expected a size up to 2^63 - 1",
                )
            })
    }

    fn nested_type(&mut self) -> Result<ValueType, ValueError> {
        self.enter()?;
        let result = self.value_type();
        self.leave();
        result
    }

    /// A type, sums included: `#a i32 | #b`.
    fn value_type(&mut self) -> Result<ValueType, ValueError> {
        self.skip_space();
        if self.peek() != Some(b'#') {
            return self.atom_type();
        }
        let start = self.pos;
        let mut constructors = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some(b'#') {
                return Err(self.unexpected("expected a constructor `#name`"));
            }
            let (name, _) = self.constructor()?;
            let mut payload = Vec::new();
            loop {
                self.skip_space();
                match self.peek() {
                    Some(b'[' | b'(' | b'{') => payload.push(self.nested_atom_type()?),
                    Some(b) if b.is_ascii_alphabetic() => payload.push(self.nested_atom_type()?),
                    _ => break,
                }
            }
            constructors.push((name, payload));
            self.skip_space();
            if self.peek() == Some(b'|') {
                self.pos += 1;
            } else {
                break;
            }
        }
        ValueType::sum(constructors)
            .map_err(|e| ValueError::new(start..self.pos, e.message, "this sum type"))
    }

    fn nested_atom_type(&mut self) -> Result<ValueType, ValueError> {
        self.enter()?;
        let result = self.atom_type();
        self.leave();
        result
    }

    /// A type other than a sum: a primitive, `[n]t`, `(t, ...)`, `{f: t, ...}`.
    fn atom_type(&mut self) -> Result<ValueType, ValueError> {
        self.skip_space();
        let start = self.pos;
        match self.peek() {
            Some(b'[') => {
                self.pos += 1;
                let d = self.dimension()?;
                self.expect(b']', "expected `]` after the dimension")?;
                let elem = self.nested_atom_type()?;
                Ok(ValueType::array(vec![d], elem))
            }
            Some(b'(') => {
                self.pos += 1;
                self.skip_space();
                let mut elems = Vec::new();
                if self.peek() == Some(b')') {
                    self.pos += 1;
                    return Ok(ValueType::Tuple(elems));
                }
                loop {
                    elems.push(self.nested_type()?);
                    self.skip_space();
                    match self.peek() {
                        Some(b',') => {
                            self.pos += 1;
                            self.skip_space();
                            if elems.len() == 1 && self.peek() == Some(b')') {
                                self.pos += 1;
                                return Ok(ValueType::Tuple(elems));
                            }
                        }
                        Some(b')') => {
                            self.pos += 1;
                            if elems.len() == 1 {
                                return Ok(elems.pop().expect("one element"));
                            }
                            return Ok(ValueType::Tuple(elems));
                        }
                        _ => return Err(self.unexpected("expected `,` or `)`")),
                    }
                }
            }
            Some(b'{') => {
                self.pos += 1;
                self.skip_space();
                let mut fields: Vec<(String, ValueType)> = Vec::new();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                    return Ok(ValueType::Tuple(Vec::new()));
                }
                loop {
                    let (name, span) = self.field_name()?;
                    if fields.iter().any(|(n, _)| *n == name) {
                        return Err(ValueError::new(
                            span,
                            format!("duplicate field `{name}`"),
                            "each field appears once",
                        ));
                    }
                    self.expect(b':', "expected `:` after the field name")?;
                    fields.push((name, self.nested_type()?));
                    self.skip_space();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        _ => return Err(self.unexpected("expected `,` or `}`")),
                    }
                }
                ValueType::record(fields)
                    .map_err(|e| ValueError::new(start..self.pos, e.message, "this record type"))
            }
            Some(b) if b.is_ascii_alphabetic() => {
                while self.peek().is_some_and(is_word_byte) {
                    self.pos += 1;
                }
                let word = String::from_utf8_lossy(&self.input[start..self.pos]).into_owned();
                match PrimType::from_name(&word) {
                    Some(t) => Ok(ValueType::Prim(t)),
                    None if word == "f16" => Err(ValueError::new(
                        start..self.pos,
                        "f16 is not supported",
                        "runestone has no 16-bit floats; use f32",
                    )),
                    None => Err(ValueError::new(
                        start..self.pos,
                        format!("unknown type `{word}`"),
                        "expected a type such as i32, [2]f64, (i32, bool)",
                    )),
                }
            }
            _ => Err(self.unexpected("expected a type such as i32, [2]f64, (i32, bool)")),
        }
    }

    /// A numeric literal, or `-f32.inf`.
    #[inline(never)] // keeps its frame off the recursive path
    fn number(&mut self) -> Result<Value, ValueError> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
            if self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
                let word_start = self.pos;
                while self.peek().is_some_and(|b| is_word_byte(b) || b == b'.') {
                    self.pos += 1;
                }
                let word = String::from_utf8_lossy(&self.input[word_start..self.pos]).into_owned();
                return match special_float(&word, true) {
                    Some(Ok(v)) => Ok(v),
                    Some(Err((message, expected))) => {
                        Err(ValueError::new(start..self.pos, message, expected))
                    }
                    None => Err(ValueError::new(
                        start..self.pos,
                        format!("unexpected `-{word}`"),
                        "expected a number or `-f32.inf`/`-f64.inf` after `-`",
                    )),
                };
            }
            if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
                return Err(self.unexpected("expected a number after `-`"));
            }
        }
        let digits_start;
        let radix = match (self.peek(), self.peek_at(1)) {
            (Some(b'0'), Some(b'x' | b'X')) => 16,
            (Some(b'0'), Some(b'b' | b'B')) => 2,
            _ => 10,
        };
        let mut is_float = false;
        if radix != 10 {
            self.pos += 2;
            digits_start = self.pos;
            while self
                .peek()
                .is_some_and(|b| b.is_ascii_hexdigit() && (radix == 16 || b <= b'1') || b == b'_')
            {
                self.pos += 1;
            }
            if !self.input[digits_start..self.pos]
                .iter()
                .any(|&b| b != b'_')
            {
                return Err(self.unexpected(if radix == 16 {
                    "expected hexadecimal digits after `0x`"
                } else {
                    "expected binary digits after `0b`"
                }));
            }
        } else {
            digits_start = self.pos;
            self.skip_digits();
            if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
                is_float = true;
                self.pos += 1;
                self.skip_digits();
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                let sign = usize::from(matches!(self.peek_at(1), Some(b'+' | b'-')));
                if self.peek_at(1 + sign).is_some_and(|b| b.is_ascii_digit()) {
                    is_float = true;
                    self.pos += 1 + sign;
                    self.skip_digits();
                }
            }
        }
        let body_end = self.pos;
        // The suffix: a word right after the digits.
        let suffix_start = self.pos;
        while self.peek().is_some_and(is_word_byte) {
            self.pos += 1;
        }
        let suffix = String::from_utf8_lossy(&self.input[suffix_start..self.pos]);
        let literal = String::from_utf8_lossy(&self.input[start..self.pos]);
        let ty = if suffix.is_empty() {
            if is_float {
                PrimType::F64
            } else {
                PrimType::I32
            }
        } else {
            match PrimType::from_name(&suffix) {
                Some(PrimType::Bool) | None => {
                    let message = if suffix == "f16" {
                        "f16 is not supported".to_string()
                    } else {
                        format!("invalid literal suffix `{suffix}`")
                    };
                    let expected = if suffix == "f16" {
                        "runestone has no 16-bit floats; use f32".to_string()
                    } else {
                        format!("expected one of {SUFFIXES}")
                    };
                    return Err(ValueError::new(suffix_start..self.pos, message, expected));
                }
                Some(t) => t,
            }
        };
        if self.peek() == Some(b'.') {
            return Err(self.unexpected("expected the end of the number"));
        }
        let span = start..self.pos;
        let digits: String = self.input[digits_start..body_end]
            .iter()
            .filter(|&&b| b != b'_')
            .map(|&b| b as char)
            .collect();
        let out_of_range = |detail: String| {
            ValueError::new(
                span.clone(),
                format!("`{literal}` is out of range for {ty}"),
                detail,
            )
        };
        if ty.is_float() {
            let value = if radix == 10 {
                let text = if negative {
                    format!("-{digits}")
                } else {
                    digits
                };
                let parsed = match ty {
                    PrimType::F32 => text.parse::<f32>().ok().map(PrimValue::F32),
                    _ => text.parse::<f64>().ok().map(PrimValue::F64),
                };
                parsed.ok_or_else(|| out_of_range("not a decimal number".into()))?
            } else {
                let magnitude = u128::from_str_radix(&digits, radix)
                    .map_err(|_| out_of_range("the literal is too large".into()))?;
                let sign = if negative { -1.0 } else { 1.0 };
                match ty {
                    PrimType::F32 => PrimValue::F32(sign as f32 * magnitude as f32),
                    _ => PrimValue::F64(sign * magnitude as f64),
                }
            };
            let infinite = match value {
                PrimValue::F32(x) => x.is_infinite(),
                PrimValue::F64(x) => x.is_infinite(),
                _ => false,
            };
            if infinite {
                return Err(out_of_range(format!(
                    "it rounds to infinity; write `{}{ty}.inf` for infinity",
                    if negative { "-" } else { "" }
                )));
            }
            return Ok(Value::Prim(value));
        }
        if is_float {
            return Err(ValueError::new(
                span,
                format!("`{literal}` is a decimal literal, which cannot have integer type {ty}"),
                "expected an integer literal, or a float suffix (f32, f64)",
            ));
        }
        let (min, max) = ty.integer_range().unwrap_or((0, u64::MAX.into()));
        let range_note = || format!("{ty} holds {min} to {max}");
        let magnitude =
            u128::from_str_radix(&digits, radix).map_err(|_| out_of_range(range_note()))?;
        let magnitude = i128::try_from(magnitude).map_err(|_| out_of_range(range_note()))?;
        let n = if negative { -magnitude } else { magnitude };
        if n < min || n > max {
            return Err(out_of_range(range_note()));
        }
        // In range, so the casts below are exact.
        Ok(Value::Prim(match ty {
            PrimType::I8 => PrimValue::I8(n as i8),
            PrimType::I16 => PrimValue::I16(n as i16),
            PrimType::I32 => PrimValue::I32(n as i32),
            PrimType::I64 => PrimValue::I64(n as i64),
            PrimType::U8 => PrimValue::U8(n as u8),
            PrimType::U16 => PrimValue::U16(n as u16),
            PrimType::U32 => PrimValue::U32(n as u32),
            _ => PrimValue::U64(n as u64),
        }))
    }

    fn skip_digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit() || b == b'_') {
            self.pos += 1;
        }
    }
}

type WordError = (String, String);

/// `f32.nan`, `f64.inf` and friends (negated when `negative`); `None` if `word`
/// is not of the form `fNN.xxx`.
fn special_float(word: &str, negative: bool) -> Option<Result<Value, WordError>> {
    let (ty, name) = word.split_once('.')?;
    let sign = if negative { -1.0 } else { 1.0 };
    let value = match (ty, name) {
        ("f32", "nan") => PrimValue::F32(sign as f32 * f32::NAN),
        ("f32", "inf") => PrimValue::F32(sign as f32 * f32::INFINITY),
        ("f64", "nan") => PrimValue::F64(sign * f64::NAN),
        ("f64", "inf") => PrimValue::F64(sign * f64::INFINITY),
        ("f16", _) => {
            return Some(Err((
                "f16 is not supported".into(),
                "runestone has no 16-bit floats; use f32".into(),
            )))
        }
        ("f32" | "f64", _) => {
            return Some(Err((
                format!("unknown constant `{word}`"),
                format!("expected `{ty}.nan` or `{ty}.inf`"),
            )))
        }
        _ => return None,
    };
    Some(Ok(Value::Prim(value)))
}
