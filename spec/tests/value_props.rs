//! Properties of `spec::value`: printing then reading gives the value back,
//! binary writing then reading gives it back bit for bit, and the reader never
//! panics (nor hangs) on arbitrary bytes or strings. 10 000 cases each.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;
use spec::diagnostic::Diagnostic;
use spec::source::SourceMap;
use spec::value::*;

fn prim_type() -> impl Strategy<Value = PrimType> {
    select(PrimType::ALL.to_vec())
}

fn f32_value() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => any::<u32>().prop_map(f32::from_bits),
        1 => any::<i16>().prop_map(f32::from),
        1 => select(vec![
            0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, f32::MIN,
            f32::MIN_POSITIVE, f32::from_bits(1), -f32::from_bits(1), 0.1, 16777217.0, 1e-7,
        ]),
    ]
}

fn f64_value() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => any::<u64>().prop_map(f64::from_bits),
        1 => any::<i32>().prop_map(f64::from),
        1 => select(vec![
            0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, f64::MAX, f64::MIN,
            f64::MIN_POSITIVE, f64::from_bits(1), -f64::from_bits(1), 0.1, 1e300, 1e-300,
        ]),
    ]
}

/// Integers biased towards the extremes of their type.
fn int<T: Arbitrary + Copy + std::fmt::Debug + 'static>(
    min: T,
    max: T,
    zero: T,
) -> impl Strategy<Value = T> {
    prop_oneof![3 => any::<T>(), 1 => select(vec![min, max, zero])]
}

fn prim_value(t: PrimType) -> BoxedStrategy<PrimValue> {
    match t {
        PrimType::I8 => int(i8::MIN, i8::MAX, 0).prop_map(PrimValue::I8).boxed(),
        PrimType::I16 => int(i16::MIN, i16::MAX, 0).prop_map(PrimValue::I16).boxed(),
        PrimType::I32 => int(i32::MIN, i32::MAX, 0).prop_map(PrimValue::I32).boxed(),
        PrimType::I64 => int(i64::MIN, i64::MAX, 0).prop_map(PrimValue::I64).boxed(),
        PrimType::U8 => int(u8::MIN, u8::MAX, 1).prop_map(PrimValue::U8).boxed(),
        PrimType::U16 => int(u16::MIN, u16::MAX, 1).prop_map(PrimValue::U16).boxed(),
        PrimType::U32 => int(u32::MIN, u32::MAX, 1).prop_map(PrimValue::U32).boxed(),
        PrimType::U64 => int(u64::MIN, u64::MAX, 1).prop_map(PrimValue::U64).boxed(),
        PrimType::F32 => f32_value().prop_map(PrimValue::F32).boxed(),
        PrimType::F64 => f64_value().prop_map(PrimValue::F64).boxed(),
        PrimType::Bool => any::<bool>().prop_map(PrimValue::Bool).boxed(),
    }
}

/// A shape of rank 1 to 3 with small dimensions, zero included.
fn shape() -> impl Strategy<Value = Vec<usize>> {
    vec(prop_oneof![1 => Just(0usize), 4 => 1..4usize], 1..=3)
}

/// Primitive types and arrays of them (what the binary format holds).
fn primitive_type() -> impl Strategy<Value = ValueType> {
    prop_oneof![
        prim_type().prop_map(ValueType::Prim),
        (shape(), prim_type()).prop_map(|(s, t)| ValueType::array(s, ValueType::Prim(t))),
    ]
}

fn name() -> impl Strategy<Value = String> {
    select(vec!["a", "b", "x_1", "it's", "0", "1", "2", "10"]).prop_map(String::from)
}

fn dedup<T>(mut items: Vec<(String, T)>) -> Vec<(String, T)> {
    let mut seen = std::collections::HashSet::new();
    items.retain(|(n, _)| seen.insert(n.clone()));
    items
}

/// Any type: tuples, records and sums of arrays and primitives, arrays of them.
fn any_type() -> impl Strategy<Value = ValueType> {
    primitive_type().prop_recursive(3, 8, 3, |inner| {
        prop_oneof![
            (shape(), inner.clone()).prop_map(|(s, t)| match t {
                ValueType::Array { .. } => t,
                t => ValueType::array(s, t),
            }),
            vec(inner.clone(), 0..3).prop_map(ValueType::Tuple),
            vec((name(), inner.clone()), 0..3)
                .prop_map(|fs| ValueType::record(dedup(fs)).expect("deduplicated")),
            vec(
                (
                    name().prop_filter("identifier", |n| is_identifier(n)),
                    vec(inner, 0..2)
                ),
                1..3
            )
            .prop_map(|cs| ValueType::sum(dedup(cs)).expect("deduplicated")),
        ]
    })
}

/// A value of type `t`.
fn value_of(t: &ValueType) -> BoxedStrategy<Value> {
    match t {
        ValueType::Prim(p) => prim_value(*p).prop_map(Value::Prim).boxed(),
        ValueType::Array { shape, elem } => {
            let n: usize = shape.iter().product();
            let shape = shape.clone();
            match &**elem {
                ValueType::Prim(p) => {
                    let p = *p;
                    vec(prim_value(p), n)
                        .prop_map(move |xs| {
                            let data = ArrayData::from_prims(p, xs).expect("one type");
                            Value::Array(Array::new(shape.clone(), data).expect("regular"))
                        })
                        .boxed()
                }
                elem => {
                    let elem = elem.clone();
                    vec(value_of(&elem), n)
                        .prop_map(move |elems| {
                            let data = ArrayData::Boxed {
                                elem: elem.clone(),
                                elems,
                            };
                            Value::Array(Array::new(shape.clone(), data).expect("regular"))
                        })
                        .boxed()
                }
            }
        }
        ValueType::Tuple(ts) => ts
            .iter()
            .map(value_of)
            .collect::<Vec<_>>()
            .prop_map(Value::Tuple)
            .boxed(),
        ValueType::Record(fs) => {
            let names: Vec<String> = fs.iter().map(|(n, _)| n.clone()).collect();
            fs.iter()
                .map(|(_, t)| value_of(t))
                .collect::<Vec<_>>()
                .prop_map(move |vs| {
                    Value::record(names.iter().cloned().zip(vs).collect()).expect("valid")
                })
                .boxed()
        }
        ValueType::Sum(cs) => Union::new(cs.iter().map(|(name, payload)| {
            let name = name.clone();
            payload
                .iter()
                .map(value_of)
                .collect::<Vec<_>>()
                .prop_map(move |vs| Value::sum(name.clone(), vs).expect("identifier"))
                .boxed()
        }))
        .boxed(),
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(10_000)
    }
}

/// Prints, reads back, and checks the values match (NaNs canonicalised, every
/// other float bit for bit) and that printing is a fixpoint.
fn text_round_trip(values: &[Value]) -> Result<(), TestCaseError> {
    let printed = print_values(values);
    let read = read_values(&printed).map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
    compare(values, &read, Tolerance::Exact)
        .map_err(|m| TestCaseError::fail(format!("{printed}: {m}")))?;
    prop_assert_eq!(print_values(&read), printed);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn text_round_trip_of_primitives_and_arrays(
        values in vec(primitive_type().prop_flat_map(|t| value_of(&t)), 1..4)
    ) {
        text_round_trip(&values)?;
    }

    #[test]
    fn text_round_trip_of_compound_values(values in vec(any_type().prop_flat_map(|t| value_of(&t)), 1..3)) {
        text_round_trip(&values)?;
    }

    #[test]
    fn binary_round_trip_is_bit_identical(
        values in vec(primitive_type().prop_flat_map(|t| value_of(&t)), 1..4),
        text_between in any::<bool>(),
    ) {
        let mut bytes = Vec::new();
        for v in &values {
            write_binary(v, &mut bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if text_between {
                bytes.extend_from_slice(b"\n-- text between\n");
            }
        }
        let read = read_values(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Identity: floats bit for bit, NaN payloads included.
        prop_assert_eq!(read, values);
    }

    #[test]
    fn reader_never_panics_on_bytes(input in prop_oneof![
        vec(any::<u8>(), 0..48),
        vec(select(b"[](){},#-=.:|_ 0123456789abefinptrsuxy\n\x02".to_vec()), 0..48),
        vec(any::<u8>(), 0..40).prop_map(|mut v| { v.splice(0..0, *b"b\x02"); v }),
    ]) {
        check_reader(&input)?;
    }

    #[test]
    fn reader_never_panics_on_strings(input in prop_oneof![
        any::<String>(),
        vec(select(vec![
            "[", "]", "(", ")", "{", "}", ",", " ", "\n", "-- c\n", "-", "#a", "#b", "=", ":", "|",
            "1", "0", "255", "1.5", "e3", "e-", "_", "0x", "0b", "ff", "i8", "i32", "u8", "u64",
            "f16", "f32", "f64", "bool", "x", "empty(", "true", "false", "f32.nan", "f64.inf", ".",
        ]), 0..24).prop_map(|tokens| tokens.concat()),
    ]) {
        check_reader(input.as_bytes())?;
    }
}

/// The reader returns on `input`; an accepted input prints and re-reads to the
/// same text; an error has a span inside the input and renders.
fn check_reader(input: &[u8]) -> Result<(), TestCaseError> {
    match read_values(input) {
        Ok(values) => text_round_trip(&values),
        Err(e) => {
            prop_assert!(e.start <= e.end && e.end <= input.len(), "{:?}", e);
            let mut sources = SourceMap::new();
            let file = sources.add("input", diagnostic_text(input));
            let diagnostic: Diagnostic = e.to_diagnostic(file);
            let text = diagnostic.render(&sources);
            prop_assert!(text.contains("input:"), "{}", text);
            Ok(())
        }
    }
}

/// `futhark test`'s comparison of an expected output: a relative difference
/// of at most 0.2 %, both ways of the boundary, NaN and infinities.
#[test]
fn futhark_test_tolerance_is_relative() {
    use spec::value::PrimValue::{F32, F64};
    let matches = |e: PrimValue, a: PrimValue| {
        compare(&[Value::Prim(e)], &[Value::Prim(a)], Tolerance::FutharkTest).is_ok()
    };
    assert!(matches(F64(0.3), F64(0.1 + 0.2)));
    assert!(matches(F32(-1.4), F32(-1.400_000_1)));
    assert!(matches(F64(1000.0), F64(1001.9)));
    assert!(!matches(F64(1000.0), F64(1002.1)));
    assert!(matches(F64(-1.0e-30), F64(-1.001e-30)));
    assert!(!matches(F64(0.0), F64(1.0e-30)));
    assert!(!matches(F32(1.0), F32(-1.0)));
    assert!(matches(F32(f32::NAN), F32(f32::NAN)));
    assert!(!matches(F32(f32::NAN), F32(1.0)));
    assert!(matches(F64(f64::INFINITY), F64(f64::INFINITY)));
    assert!(!matches(F64(f64::INFINITY), F64(f64::MAX)));
    assert!(!matches(F64(f64::INFINITY), F64(f64::NEG_INFINITY)));
    // Integers stay exact.
    assert!(!matches(PrimValue::I32(1000), PrimValue::I32(1001)));
    // Exact and ulps comparisons do not take the relative tolerance.
    assert!(compare(
        &[Value::Prim(F64(0.3))],
        &[Value::Prim(F64(0.1 + 0.2))],
        Tolerance::Exact
    )
    .is_err());
}
