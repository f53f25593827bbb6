//! Unit tests of the value formats: one data-driven `check` helper per feature,
//! each run over a table of inputs and expected outputs.

use super::*;
use crate::source::SourceMap;

/// Reads `input` and checks the values print as `expected` (one per line).
fn check_print(cases: &[(&str, &str)]) {
    for (input, expected) in cases {
        let values = read_values(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let printed = print_values(&values);
        assert_eq!(printed.trim_end(), *expected, "input {input:?}");
        // Printing is a fixpoint, and reading the printed text gives the same values.
        let again = read_values(&printed).unwrap_or_else(|e| panic!("{printed:?}: {e}"));
        assert_eq!(again, values, "re-reading {printed:?}");
    }
}

/// Reads `input`, which must fail at byte `offset` with a message (headline or
/// expectation) containing `message`.
fn check_error(cases: &[(&str, usize, &str)]) {
    for (full_input, offset, message) in cases {
        let input = &Shown(full_input);
        match read_values(full_input) {
            Ok(values) => panic!("{input:?} was accepted as {}", print_values(&values)),
            Err(e) => {
                let text = format!("{} / {}", e.message, e.expected);
                assert!(
                    text.contains(message),
                    "{input:?}: got `{text}`, expected `{message}`"
                );
                assert_eq!(e.start, *offset, "{input:?}: offset of `{text}`");
                assert!(
                    e.start <= e.end && e.end <= full_input.len(),
                    "{input:?}: span {e:?}"
                );
            }
        }
    }
}

/// An input shown in assertion messages, shortened when long.
struct Shown<'a>(&'a str);

impl std::fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.get(..60) {
            Some(start) if self.0.len() > 60 => write!(f, "{start:?}... ({} bytes)", self.0.len()),
            _ => write!(f, "{:?}", self.0),
        }
    }
}

#[test]
fn integers() {
    check_print(&[
        ("1", "1i32"),
        ("1i32", "1i32"),
        ("-3i8", "-3i8"),
        ("255u8", "255u8"),
        ("0xffu8", "255u8"),
        ("0XFF", "255i32"),
        ("0b101", "5i32"),
        ("-0b101i64", "-5i64"),
        ("1_000", "1000i32"),
        ("0x_ff_ff", "65535i32"),
        ("-128i8 127i8", "-128i8\n127i8"),
        (
            "-32768i16 32767i16 65535u16",
            "-32768i16\n32767i16\n65535u16",
        ),
        ("-2147483648 2147483647", "-2147483648i32\n2147483647i32"),
        ("-9223372036854775808i64", "-9223372036854775808i64"),
        ("18446744073709551615u64", "18446744073709551615u64"),
        ("-0u8 00012", "0u8\n12i32"),
        ("-0x80i8", "-128i8"),
    ]);
}

#[test]
fn floats_and_bools() {
    check_print(&[
        ("2.5f32", "2.5f32"),
        ("2.5", "2.5f64"),
        ("1e3", "1000.0f64"),
        ("1E3f32", "1000.0f32"),
        ("1.5e-3f64", "0.0015f64"),
        ("1e+2", "100.0f64"),
        ("1f32 -7f64", "1.0f32\n-7.0f64"),
        ("0x10f64 0b10000f64", "69476i32\n16.0f64"),
        ("0.1f32", "0.1f32"),
        ("0.1", "0.1f64"),
        ("1e20", "1e20f64"),
        ("1e-7f32", "1e-7f32"),
        ("-0.0 -0.0f32 0.0", "-0.0f64\n-0.0f32\n0.0f64"),
        ("f32.nan f64.nan", "f32.nan\nf64.nan"),
        (
            "f32.inf -f32.inf f64.inf -f64.inf",
            "f32.inf\n-f32.inf\nf64.inf\n-f64.inf",
        ),
        ("3.4028235e38f32", "3.4028235e38f32"),
        ("1.7976931348623157e308", "1.7976931348623157e308f64"),
        ("1e-45f32 5e-324", "1e-45f32\n5e-324f64"),
        ("1e-50f32", "0.0f32"),
        ("16777217f32", "16777216.0f32"),
        ("1_0.2_5", "10.25f64"),
        ("true false", "true\nfalse"),
    ]);
}

#[test]
fn arrays() {
    check_print(&[
        ("[1, 2]", "[1i32, 2i32]"),
        ("[1,2,]", "[1i32, 2i32]"),
        ("[[1,2],[3,4]]", "[[1i32, 2i32], [3i32, 4i32]]"),
        ("[ [ [1u8] ] ]", "[[[1u8]]]"),
        ("[true, false]", "[true, false]"),
        ("[f32.nan, -f32.inf, 1f32]", "[f32.nan, -f32.inf, 1.0f32]"),
        ("empty([0]i32)", "empty([0]i32)"),
        ("empty( [2] [0] f64 )", "empty([2][0]f64)"),
        ("empty([0][3]bool)", "empty([0][3]bool)"),
        ("[empty([0]i32), empty([0]i32)]", "empty([2][0]i32)"),
        ("[[empty([0]i8)]]", "empty([1][1][0]i8)"),
        ("empty([0][2]([3]i32))", "empty([0][2][3]i32)"),
        ("1 -- one\n[2, -- two\n 3]--end", "1i32\n[2i32, 3i32]"),
        ("\t[1]\r\n\n[2]", "[1i32]\n[2i32]"),
        ("[1][2]", "[1i32]\n[2i32]"),
    ]);
}

#[test]
fn compound_values() {
    check_print(&[
        ("(1, true)", "(1i32, true)"),
        ("()", "()"),
        ("{}", "()"),
        ("(1i8,)", "(1i8,)"),
        ("((1))", "1i32"),
        ("{b = 2f32, a = 1}", "{a = 1i32, b = 2.0f32}"),
        ("{1 = true, 0 = 2}", "(2i32, true)"),
        ("{0 = 1}", "{0 = 1i32}"),
        ("{10 = 1, 2 = 2, x = 3}", "{2 = 2i32, 10 = 1i32, x = 3i32}"),
        ("[(1, 2.0), (3, 4.0)]", "[(1i32, 2.0f64), (3i32, 4.0f64)]"),
        ("[{a = [1]}, {a = [2]}]", "[{a = [1i32]}, {a = [2i32]}]"),
        ("#none", "(#none)"),
        ("#some 1i32", "(#some 1i32)"),
        ("#pair 1 [2] #nil", "(#pair 1i32 [2i32] (#nil))"),
        ("#a (#b 1)", "(#a (#b 1i32))"),
        ("[#none, #some 1]", "[#none, #some 1i32]"),
        ("(#a 1, #b)", "(#a 1i32, #b)"),
        ("empty([0](i32, bool))", "empty([0](i32, bool))"),
        (
            "empty([0]{b: f32, a: [2]i8})",
            "empty([0]{a: [2]i8, b: f32})",
        ),
        ("empty([0]{0: i32, 1: i32})", "empty([0](i32, i32))"),
        (
            "empty([0]#some i32 | #none)",
            "empty([0](#none | #some i32))",
        ),
        (
            "empty([0](#a (i32, i32) [2]i8 | #b))",
            "empty([0](#a (i32, i32) [2]i8 | #b))",
        ),
        ("empty([0]())", "empty([0]())"),
        ("(empty([0]i32), 1)", "(empty([0]i32), 1i32)"),
    ]);
}

#[test]
fn malformed_input_is_an_error_at_the_right_place() {
    check_error(&[
        ("300u8", 0, "out of range for u8"),
        ("-1u32", 0, "out of range for u32"),
        ("128i8", 0, "i8 holds -128 to 127"),
        ("-129i8", 0, "out of range"),
        ("0xffi8", 0, "out of range"),
        ("2147483648", 0, "out of range for i32"),
        (
            "99999999999999999999999999999999999999999u64",
            0,
            "out of range",
        ),
        ("1e39f32", 0, "rounds to infinity"),
        ("-1e309", 0, "rounds to infinity"),
        ("1.5i32", 0, "cannot have integer type i32"),
        ("1e3u8", 0, "cannot have integer type u8"),
        ("1f16", 1, "f16 is not supported"),
        ("f16.nan", 0, "f16 is not supported"),
        ("empty([0]f16)", 9, "f16 is not supported"),
        ("1i33", 1, "invalid literal suffix `i33`"),
        ("1bool", 1, "invalid literal suffix"),
        ("1.", 1, "expected the end of the number"),
        ("1.2.3", 3, "expected the end of the number"),
        ("0x", 2, "hexadecimal digits"),
        ("0b2", 2, "binary digits"),
        ("- 1", 1, "expected a number after `-`"),
        ("-x", 0, "unexpected `-x`"),
        ("f32.pi", 0, "expected `f32.nan` or `f32.inf`"),
        ("nan", 0, "unknown word `nan`"),
        (
            "[1i32, 2i64]",
            7,
            "earlier elements are i32, this one is i64",
        ),
        ("[1, true]", 4, "differ in type"),
        ("[[1, 2], [3]]", 9, "irregular array"),
        ("[[1], 2]", 6, "differ in type"),
        ("[1, [2]]", 4, "differ in type"),
        ("[(1, 2), (1, true)]", 9, "differ in type"),
        ("[]", 0, "`[]` has no element type"),
        ("[1 2]", 3, "expected `,` or `]`"),
        ("[1,,2]", 3, "expected a value"),
        ("[1", 2, "unexpected end of input"),
        ("]", 0, "unexpected `]`"),
        ("empty([2][3]i32)", 0, "needs a zero dimension"),
        ("empty(i32)", 6, "expected the array's shape"),
        ("empty([]i32)", 7, "expected a dimension size"),
        ("empty([0]i32", 12, "expected `)`"),
        ("empty([0]int)", 9, "unknown type `int`"),
        ("empty([99999999999999999999]i32)", 7, "dimension too large"),
        ("empty", 5, "expected `(`"),
        ("truex", 0, "unknown word `truex`"),
        ("{a = 1, a = 2}", 8, "duplicate field `a`"),
        ("{a 1}", 3, "expected `=`"),
        ("{01 = 1}", 1, "expected a field name"),
        ("(1 2)", 3, "expected `,` or `)`"),
        ("#", 1, "expected a constructor name"),
        ("#1", 1, "expected a constructor name"),
        ("empty([0](#a | #a))", 10, "duplicate constructor `#a`"),
        ("1 ; 2", 2, "unexpected `;`"),
        ("1 \u{e9}", 2, "unexpected byte 0xc3"),
        ("b\x01", 1, "unsupported binary format version 1"),
        ("[b\x02]", 1, "binary values may only appear at top level"),
    ]);
}

#[test]
fn nesting_is_limited_not_a_stack_overflow() {
    let deep = "[".repeat(100_000);
    check_error(&[
        (&deep, MAX_NESTING, "nested more than 256 deep"),
        (
            &"(".repeat(100_000),
            MAX_NESTING,
            "nested more than 256 deep",
        ),
        (&"#a (".repeat(50_000), 4 * 128, "nested more than 256 deep"),
        (
            &format!("empty([0]{})", "(".repeat(100_000)),
            9 + MAX_NESTING,
            "nested more than 256 deep",
        ),
    ]);
    // Exactly at the limit is fine.
    let ok = format!("{}1{}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
    let value = read_value(&ok).expect("256 levels");
    assert_eq!(value.as_array().map(Array::rank), Some(MAX_NESTING));
}

#[test]
fn read_value_wants_exactly_one() {
    assert_eq!(read_value(" 1 ").map(|v| v.to_string()), Ok("1i32".into()));
    assert!(read_value("").unwrap_err().message.contains("no value"));
    assert!(read_value("1 2")
        .unwrap_err()
        .message
        .contains("more than one value"));
    assert_eq!(read_values("  -- nothing\n").map(|v| v.len()), Ok(0));
}

/// Checks each value's binary form (hex, spaces ignored) in both directions.
fn check_binary(cases: &[(&str, &str)]) {
    for (text, hex) in cases {
        let value = read_value(text).expect(text);
        let bytes = write_values_binary(std::slice::from_ref(&value)).expect(text);
        let expected: Vec<u8> = hex
            .split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).expect("hex"))
            .collect();
        assert_eq!(bytes, expected, "binary form of {text}");
        assert_eq!(read_values(&bytes), Ok(vec![value]), "reading back {text}");
    }
}

#[test]
fn binary_format() {
    check_binary(&[
        ("1i32", "62 02 00 20 69 33 32 01 00 00 00"),
        ("-2i8", "62 02 00 20 20 69 38 fe"),
        ("true", "62 02 00 62 6f 6f 6c 01"),
        ("258u16", "62 02 00 20 75 31 36 02 01"),
        ("1.0f32", "62 02 00 20 66 33 32 00 00 80 3f"),
        ("-0.0f64", "62 02 00 20 66 36 34 00 00 00 00 00 00 00 80"),
        (
            "[[1u8, 2u8, 3u8]]",
            "62 02 02 20 20 75 38 01 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 01 02 03",
        ),
        (
            "empty([0]i64)",
            "62 02 01 20 69 36 34 00 00 00 00 00 00 00 00",
        ),
        (
            "[false, true]",
            "62 02 01 62 6f 6f 6c 02 00 00 00 00 00 00 00 00 01",
        ),
    ]);
}

#[test]
fn binary_keeps_nan_payloads_and_mixes_with_text() {
    let nan = f32::from_bits(0x7fc0_1234);
    let value = Value::Array(Array::from_vec(vec![nan, -0.0, f32::INFINITY]));
    let mut input = b"1 -- text first\n".to_vec();
    write_binary(&value, &mut input).expect("primitive array");
    write_binary(&Value::from(7u64), &mut input).expect("scalar");
    input.extend_from_slice(b"\n[true]");
    let values = read_values(&input).expect("mixed stream");
    assert_eq!(values.len(), 4);
    assert_eq!(values[1], value, "bit-identical, NaN payload included");
    assert_eq!(
        print_values(&values),
        "1i32\n[f32.nan, -0.0f32, f32.inf]\n7u64\n[true]\n"
    );
}

#[test]
fn malformed_binary_is_an_error() {
    let header = |rank: u8, tag: &[u8]| {
        let mut v = vec![b'b', 2, rank];
        v.extend_from_slice(tag);
        v
    };
    let mut huge = header(2, b" i32");
    huge.extend_from_slice(&u64::MAX.to_le_bytes());
    let mut too_many = header(3, b" i32");
    for _ in 0..3 {
        too_many.extend_from_slice(&(1u64 << 40).to_le_bytes());
    }
    let mut short = header(1, b" f64");
    short.extend_from_slice(&3u64.to_le_bytes());
    short.extend_from_slice(&[0; 20]);
    let mut bad_bool = header(1, b"bool");
    bad_bool.extend_from_slice(&2u64.to_le_bytes());
    bad_bool.extend_from_slice(&[1, 7]);
    let cases: Vec<(Vec<u8>, usize, &str)> = vec![
        (b"b".to_vec(), 0, "binary value ends early"),
        (b"b\x03".to_vec(), 1, "unsupported binary format version 3"),
        (header(0, b" f16"), 3, "f16 is not supported"),
        (header(0, b" i17"), 3, "unknown type tag"),
        (header(0xff, b" i32"), 2, "negative rank"),
        (
            header(0, b" i32"),
            0,
            "expected the elements (4 bytes) at byte 7",
        ),
        (huge, 7, "dimension 0 is 18446744073709551615"),
        (too_many, 0, "binary array too large"),
        (short, 0, "expected the elements (24 bytes)"),
        (bad_bool, 16, "invalid bool byte 0x07"),
    ];
    for (input, offset, message) in cases {
        let e = read_values(&input).expect_err("malformed");
        let text = format!("{} / {}", e.message, e.expected);
        assert!(text.contains(message), "{input:?}: got `{text}`");
        assert_eq!(e.start, offset, "{input:?}: `{text}`");
    }
}

#[test]
fn compound_values_have_no_binary_form() {
    for text in [
        "(1, 2)",
        "[(1, 2)]",
        "{a = 1}",
        "#a",
        "empty([0](i32, i32))",
    ] {
        let value = read_value(text).expect(text);
        let mut out = Vec::new();
        let e = write_binary(&value, &mut out).expect_err(text);
        assert!(out.is_empty());
        assert!(
            e.to_string()
                .contains("cannot be written in Futhark's binary format"),
            "{e}"
        );
    }
}

/// Compares `expected` with `actual` (textual values); `Ok` or the mismatch text.
fn check_compare(cases: &[(&str, &str, Tolerance, Result<(), &str>)]) {
    for (expected, actual, tolerance, outcome) in cases {
        let e = read_values(expected).expect(expected);
        let a = read_values(actual).expect(actual);
        let got = compare(&e, &a, *tolerance).map_err(|m| m.to_string());
        assert_eq!(
            got.as_ref().map(|_| ()).map_err(String::as_str),
            *outcome,
            "{expected} vs {actual}"
        );
    }
}

#[test]
fn comparison() {
    use Tolerance::{Exact, Ulps};
    check_compare(&[
        ("1 [2, 3]", "1 [2, 3]", Exact, Ok(())),
        ("1", "2", Exact, Err("value #0: expected 1i32, got 2i32")),
        ("1 2", "1", Exact, Err("expected 2 values, got 1")),
        (
            "1",
            "1i64",
            Exact,
            Err("value #0: expected a value of type i32, got one of type i64"),
        ),
        ("f32.nan", "f32.nan", Exact, Ok(())),
        (
            "f64.nan",
            "1.0",
            Ulps(100),
            Err("value #0: expected f64.nan, got 1.0f64"),
        ),
        (
            "0.0",
            "-0.0",
            Exact,
            Err("value #0: expected 0.0f64, got -0.0f64"),
        ),
        ("0.0", "-0.0", Ulps(0), Ok(())),
        (
            "1.0f32",
            "1.0000001f32",
            Exact,
            Err("value #0: expected 1.0f32, got 1.0000001f32"),
        ),
        ("1.0f32", "1.0000001f32", Ulps(1), Ok(())),
        (
            "1.0f32",
            "1.0000002f32",
            Ulps(1),
            Err("value #0: expected 1.0f32, got 1.0000002f32"),
        ),
        ("1e-45f32", "-1e-45f32", Ulps(2), Ok(())),
        (
            "f32.inf",
            "3.4028235e38f32",
            Ulps(10),
            Err("value #0: expected f32.inf, got 3.4028235e38f32"),
        ),
        ("f64.inf", "f64.inf", Ulps(1), Ok(())),
        (
            "[[1, 2, 3], [4, 5, 6]]",
            "[[1, 2, 3], [4, 0, 0]]",
            Exact,
            Err("value #0 at [1][1]: expected 5i32, got 0i32 (and 1 more mismatching element)"),
        ),
        (
            "1 [1.0, 2.0]",
            "1 [1.0, 2.5]",
            Exact,
            Err("value #1 at [1]: expected 2.0f64, got 2.5f64"),
        ),
        (
            "[1, 2]",
            "[1, 2, 3]",
            Exact,
            Err("value #0: expected shape [2], got shape [3]"),
        ),
        (
            "empty([2][0]i32)",
            "empty([0][2]i32)",
            Exact,
            Err("value #0: expected shape [2][0], got shape [0][2]"),
        ),
        (
            "[1, 2]",
            "[[1, 2]]",
            Exact,
            Err("value #0: expected a value of type [2]i32, got one of type [1][2]i32"),
        ),
        (
            "[1, 2]",
            "[1u8, 2u8]",
            Exact,
            Err("value #0: expected a value of type [2]i32, got one of type [2]u8"),
        ),
        (
            "(1, {a = 2, b = [3, 4]})",
            "(1, {a = 2, b = [3, 5]})",
            Exact,
            Err("value #0 at .1.b[1]: expected 4i32, got 5i32"),
        ),
        (
            "[(1, 2), (3, 4)]",
            "[(1, 2), (3, 5)]",
            Exact,
            Err("value #0 at [1].1: expected 4i32, got 5i32"),
        ),
        (
            "(1, 2)",
            "(1, 2, 3)",
            Exact,
            Err("value #0: expected a value of type (i32, i32), got one of type (i32, i32, i32)"),
        ),
        (
            "{a = 1}",
            "{b = 1}",
            Exact,
            Err("value #0: expected a value of type {a: i32}, got one of type {b: i32}"),
        ),
        (
            "#some 1",
            "#some 2",
            Exact,
            Err("value #0 at #some.0: expected 1i32, got 2i32"),
        ),
        (
            "#some 1",
            "#none",
            Exact,
            Err("value #0: expected (#some 1i32), got (#none)"),
        ),
        ("[#some 1, #none]", "[#some 1, #none]", Exact, Ok(())),
        (
            "[#some 1]",
            "[#some 1, #none]",
            Exact,
            Err("value #0: expected shape [1], got shape [2]"),
        ),
        ("empty([0](#a | #b))", "empty([0](#a))", Exact, Ok(())),
        (
            "empty([0](i32, i32))",
            "empty([0](bool, bool))",
            Exact,
            Err(
                "value #0: expected a value of type [0](i32, i32), got one of type [0](bool, bool)",
            ),
        ),
        (
            "1",
            "[1]",
            Exact,
            Err("value #0: expected a value of type i32, got one of type [1]i32"),
        ),
    ]);
}

#[test]
fn constructors_keep_the_invariants() {
    let rows = |t: &str| Array::from_rows(read_values(t).expect(t));
    assert_eq!(rows("1 2").map(|a| a.shape().to_vec()), Ok(vec![2]));
    assert!(rows("")
        .unwrap_err()
        .message
        .contains("at least one element"));
    assert!(rows("[1] [1, 2]")
        .unwrap_err()
        .message
        .contains("irregular"));
    assert!(Array::new(vec![], ArrayData::I32(vec![1])).is_err());
    assert!(Array::new(vec![2, 2], ArrayData::I32(vec![1, 2, 3]))
        .unwrap_err()
        .message
        .contains("has 4 elements but 3"));
    assert!(Array::new(vec![usize::MAX, 3], ArrayData::I32(vec![]))
        .unwrap_err()
        .message
        .contains("too many"));
    assert!(Array::new(
        vec![1],
        ArrayData::Boxed {
            elem: ValueType::Prim(PrimType::I32),
            elems: vec![Value::from(1)]
        }
    )
    .is_err());
    assert!(Array::new(
        vec![1],
        ArrayData::Boxed {
            elem: ValueType::Tuple(vec![ValueType::Prim(PrimType::I32)]),
            elems: vec![Value::unit()]
        }
    )
    .unwrap_err()
    .message
    .contains("not of the element type"));
    assert!(Array::empty(vec![2, 1], ValueType::Prim(PrimType::Bool)).is_err());
    let a = Array::from_shape_vec(vec![2, 0], Vec::<f32>::new()).expect("empty");
    assert_eq!(Value::Array(a.clone()).to_string(), "empty([2][0]f32)");
    assert_eq!(a.len(), 2);
    assert_eq!(
        a.row(1).map(|r| r.to_string()),
        Some("empty([0]f32)".into())
    );
    let b = Array::from_shape_vec(vec![2, 2], vec![1i64, 2, 3, 4]).expect("2x2");
    assert_eq!(
        b.rows().map(|r| r.to_string()).collect::<Vec<_>>(),
        ["[1i64, 2i64]", "[3i64, 4i64]"]
    );
    assert_eq!(b.data().as_slice::<i64>(), Some(&[1i64, 2, 3, 4][..]));
    assert_eq!(b.data().as_slice::<i32>(), None);
    assert_eq!(Value::Array(b).value_type().to_string(), "[2][2]i64");
    assert!(Value::record(vec![
        ("a".into(), Value::unit()),
        ("a".into(), Value::unit())
    ])
    .is_err());
    assert!(Value::record(vec![("a b".into(), Value::unit())]).is_err());
    assert!(Value::sum("1x", vec![]).is_err());
    assert_eq!(
        Value::record(vec![
            ("1".into(), Value::from(true)),
            ("0".into(), Value::from(1u8))
        ]),
        Ok(Value::Tuple(vec![Value::from(1u8), Value::from(true)]))
    );
    // Arrays of sums take the union of the constructors as element type.
    let sums = read_value("[#a 1, #b, #a 2]").expect("sums");
    assert_eq!(sums.value_type().to_string(), "[3](#a i32 | #b)");
    assert!(read_values("[#a 1, #a true]").is_err());
}

#[test]
fn errors_become_located_diagnostics() {
    let input = "[1, 2]\n[3, 4u8]\n";
    let error = read_values(input).expect_err("mixed types");
    let mut sources = SourceMap::new();
    let file = sources.add("data.in", diagnostic_text(input.as_bytes()));
    let text = error.to_diagnostic(file).render(&sources);
    assert!(
        text.contains("error[value]: array elements differ in type"),
        "{text}"
    );
    assert!(text.contains("data.in:2:5"), "{text}");
    assert!(text.contains("[3, 4u8]"), "{text}");
    assert!(text.contains("^^^"), "{text}");
    // Binary input keeps its offsets.
    assert_eq!(diagnostic_text(b"b\x02\xff\n1"), "b??\n1");
    assert_eq!(diagnostic_text("\u{e9}\x00\t".as_bytes()), "\u{e9}?\t");
}

/// Reading, printing and comparing values nested to the limit fits in a 1 MiB
/// stack (other crates read values on worker threads with small stacks).
#[test]
fn nesting_at_the_limit_fits_a_small_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let levels = MAX_NESTING / 3;
            let text = format!("{}1{}", "[(#a ".repeat(levels), ")]".repeat(levels));
            let values = read_values(&text).expect("at the limit");
            let printed = print_values(&values);
            let again = read_values(&printed).expect("printed form");
            compare(&values, &again, Tolerance::Exact).is_ok()
                && read_values("{a=".repeat(2 * MAX_NESTING)).is_err()
                && read_values(format!("empty([0]{})", "[1]#a (".repeat(MAX_NESTING))).is_err()
        })
        .expect("spawn");
    assert_eq!(worker.join().ok(), Some(true));
}
