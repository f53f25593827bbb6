//! The GPU oracle's own kind of program: a chain of top-level SOACs over the
//! entry point's arrays — `map2`, `reduce` (of a `map`), `scan`, `filter`, a
//! `map` iterated by a host `for` loop over its own result (a kernel per
//! iteration, the array kept on the device), `reduce_by_index`, `scatter` at
//! distinct positions, and a reduction per element of `iota n` over an inner
//! `iota` (a segmented reduction by index) — whose lambdas are scalar
//! expression trees over one element type (every integer width and sign,
//! `f32`, `f64`): arithmetic, bitwise operations, shifts, division and
//! remainder by non-zero constants, operations that may fail (integer
//! division by any expression, which may be zero; an assertion that two
//! expressions differ), indexing of the entry array `xs` (at an expression
//! modulo `n`), a short `for` loop, an inner reduction over an `iota`
//! (sequential in the kernel), `min`/`max`, `neg`/`abs`/`sgn`/`not`, `if`,
//! round trips through another numeric type, and a scalar of the enclosing
//! scope (`s`, which the kernel reads from its environment). The general
//! generator's programs rarely give a kernel more than a constant or a
//! projection (`fuzz/README.md`); these are what the GPU code generator
//! translates.
//!
//! Floats stay exact under reassociation: inputs are multiples of 1/4 of
//! magnitude at most 16, and float `+` reductions and scans read only the
//! entry arrays (their sums are exact, so the CPU's sequential order and
//! the device's tree give the same bits); float division is by 2 only.
//! Programs are proptest values, so a disagreement shrinks.

use proptest::prelude::*;
use spec::value::Value;

/// The element types of generated programs.
const ELEMENT_TYPES: [&str; 10] = [
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
];

/// Array lengths (shrinking goes towards the first).
const LENGTHS: [usize; 8] = [0, 1, 3, 8, 64, 257, 1000, 4099];

/// A scalar expression over the lambda's parameters `a`, `b` and the
/// enclosing scope's `s`; operator indices are taken modulo the element
/// type's table, so every tree prints at every type.
#[derive(Clone, Debug)]
pub enum Expression {
    A,
    B,
    S,
    Constant(u8),
    Binary(u8, Box<Expression>, Box<Expression>),
    Unary(u8, Box<Expression>),
    If(u8, Box<[Expression; 4]>),
    RoundTrip(u8, Box<Expression>),
}

/// One `let` of the entry point; input indices are taken modulo the
/// arrays available (`xs`, `ys`, then earlier `map2`/`scan` results).
#[derive(Clone, Debug)]
pub enum Statement {
    Map2(u8, u8, Expression),
    Reduce(u8, u8, Option<Expression>),
    Scan(u8, u8),
    Filter(u8, u8, Expression, Expression),
    /// `loop acc = input for i < rounds do map (\a -> e) acc`.
    Iterate(u8, u8, Expression),
    /// `reduce_by_index` into 8 bins of an input, the bins taken from
    /// `xs` (some out of bounds).
    Histogram(u8, u8),
    /// `scatter` of `map (\a -> e) input` into a copy of another array at
    /// distinct positions (some out of bounds).
    Scatter(u8, u8, Expression),
    /// A reduction per element `i` of `iota n` over three neighbours
    /// `xs[(3i + j) % n]` through `e` (a segmented reduction by index).
    RowReduce(u8, Option<Expression>),
}

/// A generated program: its element type, statements, the arrays' length
/// and the seed of the argument values.
#[derive(Clone, Debug)]
pub struct SoacProgram {
    pub element: usize,
    pub statements: Vec<Statement>,
    pub length: usize,
    pub values_seed: u64,
}

fn expressions() -> impl Strategy<Value = Expression> {
    let leaf = prop_oneof![
        3 => Just(Expression::A),
        2 => Just(Expression::B),
        1 => Just(Expression::S),
        2 => any::<u8>().prop_map(Expression::Constant),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            4 => (any::<u8>(), inner.clone(), inner.clone())
                .prop_map(|(op, l, r)| Expression::Binary(op, Box::new(l), Box::new(r))),
            1 => (any::<u8>(), inner.clone()).prop_map(|(op, e)| Expression::Unary(op, Box::new(e))),
            1 => (any::<u8>(), [inner.clone(), inner.clone(), inner.clone(), inner.clone()])
                .prop_map(|(op, es)| Expression::If(op, Box::new(es))),
            1 => (any::<u8>(), inner).prop_map(|(op, e)| Expression::RoundTrip(op, Box::new(e))),
        ]
    })
}

fn statements() -> impl Strategy<Value = Statement> {
    prop_oneof![
        3 => (any::<u8>(), any::<u8>(), expressions())
            .prop_map(|(a, b, e)| Statement::Map2(a, b, e)),
        2 => (any::<u8>(), any::<u8>(), proptest::option::of(expressions()))
            .prop_map(|(op, input, e)| Statement::Reduce(op, input, e)),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(op, input)| Statement::Scan(op, input)),
        1 => (any::<u8>(), any::<u8>(), expressions(), expressions())
            .prop_map(|(input, op, l, r)| Statement::Filter(input, op, l, r)),
        1 => (any::<u8>(), any::<u8>(), expressions())
            .prop_map(|(rounds, input, e)| Statement::Iterate(rounds, input, e)),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(op, input)| Statement::Histogram(op, input)),
        1 => (any::<u8>(), any::<u8>(), expressions())
            .prop_map(|(destination, input, e)| Statement::Scatter(destination, input, e)),
        1 => (any::<u8>(), proptest::option::of(expressions()))
            .prop_map(|(op, e)| Statement::RowReduce(op, e)),
    ]
}

/// The strategy of the GPU oracle's SOAC programs.
pub fn soac_programs() -> impl Strategy<Value = SoacProgram> {
    (
        0..ELEMENT_TYPES.len(),
        proptest::collection::vec(statements(), 1..=4),
        0..LENGTHS.len(),
        any::<u64>(),
    )
        .prop_map(|(element, statements, length, values_seed)| SoacProgram {
            element,
            statements,
            length: LENGTHS[length],
            values_seed,
        })
}

struct Printer {
    t: &'static str,
    float: bool,
    signed: bool,
}

impl Printer {
    fn constant(&self, value: i64) -> String {
        if self.float {
            format!("({}{})", value as f64 / 4.0, self.t)
        } else {
            format!("{value}{}", self.t)
        }
    }

    fn expression(&self, e: &Expression) -> String {
        let t = self.t;
        match e {
            Expression::A => "a".into(),
            Expression::B => "b".into(),
            Expression::S => "s".into(),
            Expression::Constant(c) => self.constant(i64::from(*c % 21)),
            Expression::Binary(op, l, r) => {
                let (l, r) = (self.expression(l), self.expression(r));
                // `xs` indexed in the lambda: an environment array on the
                // device.
                let gather = format!("(xs[i64.{t} {l} % n])");
                if self.float {
                    match op % 10 {
                        0 => format!("({l} + {r})"),
                        1 => format!("({l} - {r})"),
                        2 => format!("({l} * {r})"),
                        3 => format!("({t}.min {l} {r})"),
                        4 => format!("({t}.max {l} {r})"),
                        5 => format!("({l} / 2{t})"),
                        6 => format!("({l} * 0.5{t})"),
                        7 => gather,
                        8 => format!("(loop acc = {l} for _i < 2 do acc * 0.5{t} + {r})"),
                        // Summed in index order on both backends: exact.
                        _ => format!("({l} + {t}.sum (map (\\j -> {t}.i64 j * {r}) (iota 3)))"),
                    }
                } else {
                    match op % 21 {
                        0 => format!("({l} + {r})"),
                        1 => format!("({l} - {r})"),
                        2 => format!("({l} * {r})"),
                        3 => format!("({l} & {r})"),
                        4 => format!("({l} | {r})"),
                        5 => format!("({l} ^ {r})"),
                        6 => format!("({t}.min {l} {r})"),
                        7 => format!("({t}.max {l} {r})"),
                        8 => format!("({l} / 3{t})"),
                        9 => format!("({l} % 5{t})"),
                        10 => format!("({l} // 7{t})"),
                        11 => format!("({l} %% 4{t})"),
                        12 => format!("({l} << 3{t})"),
                        13 => format!("({l} >> 9{t})"),
                        14 => format!("({l} ** 3{t})"),
                        15 if self.signed => format!("({l} / (-2{t}))"),
                        15 => format!("({l} >> 1{t})"),
                        // Fallible: the kernel sets its status word and
                        // the host reports the error.
                        16 => format!("({l} / {r})"),
                        17 => format!("(assert ({l} != {r}) {l})"),
                        18 => gather,
                        19 => format!("(loop acc = {l} for i < 3 do (acc ^ {r}) + {t}.i64 i)"),
                        _ => format!(
                            "({l} + reduce (+) 0{t} (map (\\j -> {t}.i64 j * {r}) (iota 3)))"
                        ),
                    }
                }
            }
            Expression::Unary(op, e) => {
                let e = self.expression(e);
                match (op % 4, self.float) {
                    (0, _) => format!("({t}.neg {e})"),
                    (1, _) => format!("({t}.abs {e})"),
                    (2, false) => format!("({t}.not {e})"),
                    _ => format!("({t}.sgn {e})"),
                }
            }
            Expression::If(op, es) => {
                let [l, r, then, otherwise] = &**es;
                let cmp = ["<", "<=", "==", "!=", ">"][usize::from(op % 5)];
                format!(
                    "(if {} {cmp} {} then {} else {})",
                    self.expression(l),
                    self.expression(r),
                    self.expression(then),
                    self.expression(otherwise)
                )
            }
            Expression::RoundTrip(op, e) => {
                let others: &[&str] = if self.float {
                    &["i32", "f64", "i8", "u64", "f32", "i64"]
                } else {
                    &["i8", "u16", "i64", "f32", "f64", "u32"]
                };
                let u = others[usize::from(*op) % others.len()];
                format!("({t}.{u} ({u}.{t} {}))", self.expression(e))
            }
        }
    }

    /// The operator and neutral element of a reduction or scan; float `+`
    /// only where `exact_sums` (the input is an entry array).
    fn operator(&self, op: u8, exact_sums: bool) -> (String, String) {
        let t = self.t;
        let choices: Vec<(String, String)> = if self.float {
            let mut v = vec![
                (format!("{t}.min"), format!("{t}.highest")),
                (format!("{t}.max"), format!("{t}.lowest")),
            ];
            if exact_sums {
                v.push(("(+)".into(), format!("0{t}")));
            }
            v
        } else {
            vec![
                ("(+)".into(), format!("0{t}")),
                ("(*)".into(), format!("1{t}")),
                ("(&)".into(), format!("{t}.highest | {t}.lowest")),
                ("(|)".into(), format!("0{t}")),
                ("(^)".into(), format!("0{t}")),
                (format!("{t}.min"), format!("{t}.highest")),
                (format!("{t}.max"), format!("{t}.lowest")),
            ]
        };
        choices[usize::from(op) % choices.len()].clone()
    }
}

impl SoacProgram {
    fn printer(&self) -> Printer {
        let t = ELEMENT_TYPES[self.element];
        Printer {
            t,
            float: t.starts_with('f'),
            signed: t.starts_with('i'),
        }
    }

    /// The program's source.
    pub fn source(&self) -> String {
        let p = self.printer();
        let t = p.t;
        let mut arrays = vec!["xs".to_string(), "ys".to_string()];
        let mut lets = String::new();
        let mut results = Vec::new();
        let mut types = Vec::new();
        for (k, statement) in self.statements.iter().enumerate() {
            let name = format!("v{k}");
            let pick = |i: u8| arrays[usize::from(i) % arrays.len()].clone();
            let (expression, ty, array) = match statement {
                Statement::Map2(a, b, e) => (
                    format!(
                        "map2 (\\(a: {t}) (b: {t}) -> {}) {} {}",
                        p.expression(e),
                        pick(*a),
                        pick(*b)
                    ),
                    format!("[n]{t}"),
                    true,
                ),
                Statement::Reduce(op, input, body) => {
                    let input_name = pick(*input);
                    let entry = input_name == "xs" || input_name == "ys";
                    let (op, neutral) = p.operator(*op, entry && body.is_none());
                    let input = match body {
                        Some(e) => format!(
                            "(map (\\(a: {t}) -> let b = a in {}) {input_name})",
                            p.expression(e)
                        ),
                        None => input_name,
                    };
                    (
                        format!("reduce {op} ({neutral}) {input}"),
                        t.to_string(),
                        false,
                    )
                }
                Statement::Scan(op, input) => {
                    let input = pick(*input);
                    let entry = input == "xs" || input == "ys";
                    let (op, neutral) = p.operator(*op, entry);
                    (
                        format!("scan {op} ({neutral}) {input}"),
                        format!("[n]{t}"),
                        true,
                    )
                }
                Statement::Filter(input, op, l, r) => {
                    let cmp = ["<", "<=", "==", "!=", ">"][usize::from(op % 5)];
                    (
                        format!(
                            "filter (\\(a: {t}) -> let b = a in {} {cmp} {}) {}",
                            p.expression(l),
                            p.expression(r),
                            pick(*input)
                        ),
                        format!("[]{t}"),
                        false,
                    )
                }
                Statement::Iterate(rounds, input, e) => (
                    format!(
                        "loop (acc: [n]{t}) = {} for _i < {} do map (\\(a: {t}) -> let b = a in {}) acc",
                        pick(*input),
                        1 + rounds % 3,
                        p.expression(e)
                    ),
                    format!("[n]{t}"),
                    true,
                ),
                Statement::Histogram(op, input) => {
                    let input = pick(*input);
                    let entry = input == "xs" || input == "ys";
                    let (op, neutral) = p.operator(*op, entry);
                    (
                        format!(
                            "reduce_by_index (replicate 8 ({neutral})) {op} ({neutral}) \
                             (map (\\(a: {t}) -> i64.{t} a % 11 - 1) xs) {input}"
                        ),
                        format!("[8]{t}"),
                        false,
                    )
                }
                // Position `(7i + 3) % n` is distinct for every `i` (7 is
                // prime to every length); every fifth is moved past the end.
                Statement::Scatter(destination, input, e) => (
                    format!(
                        "scatter (copy {}) (map (\\i -> let j = (i * 7 + 3) % n in \
                         if i % 5 == 4 then j + n else j) (iota n)) \
                         (map (\\(a: {t}) -> let b = a in {}) {})",
                        pick(*destination),
                        p.expression(e),
                        pick(*input)
                    ),
                    format!("[n]{t}"),
                    true,
                ),
                Statement::RowReduce(op, body) => {
                    let (op, neutral) = p.operator(*op, body.is_none());
                    let element = match body {
                        Some(e) => format!("let b = a in {}", p.expression(e)),
                        None => "a".to_string(),
                    };
                    (
                        format!(
                            "map (\\i -> reduce {op} ({neutral}) (map (\\j -> \
                             let a = xs[(3 * i + j) % n] in {element}) (iota 3))) (iota n)"
                        ),
                        format!("[n]{t}"),
                        true,
                    )
                }
            };
            lets.push_str(&format!("  let {name} = {expression}\n"));
            if array {
                arrays.push(name.clone());
            }
            results.push(name);
            types.push(ty);
        }
        let (result_type, result) = if results.len() == 1 {
            (types.remove(0), results.remove(0))
        } else {
            (
                format!("({})", types.join(", ")),
                format!("({})", results.join(", ")),
            )
        };
        format!(
            "entry main [n] (xs: [n]{t}) (ys: [n]{t}) (s: {t}) : {result_type} =\n{lets}  in {result}\n"
        )
    }

    /// The entry point's arguments: two arrays of [`Self::length`] and a
    /// scalar, from [`Self::values_seed`].
    pub fn arguments(&self) -> Vec<Value> {
        let p = self.printer();
        let mut state = self.values_seed;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut literal = || {
            let r = next();
            if p.float {
                let quarter = (r % 129) as i64 - 64;
                format!("{}{}", quarter as f64 / 4.0, p.t)
            } else if r % 3 == 0 {
                // Small values, negative ones where the type is signed.
                let small = (r >> 8) % 17;
                if p.signed {
                    format!("{}{}", small as i64 - 8, p.t)
                } else {
                    format!("{small}{}", p.t)
                }
            } else {
                full_range_literal(p.t, r >> 2)
            }
        };
        let array = |literal: &mut dyn FnMut() -> String| {
            if self.length == 0 {
                format!("empty([0]{})", p.t)
            } else {
                let elements: Vec<String> = (0..self.length).map(|_| literal()).collect();
                format!("[{}]", elements.join(", "))
            }
        };
        let text = format!(
            "{} {} {}",
            array(&mut literal),
            array(&mut literal),
            literal()
        );
        spec::value::read_values(&text).expect("generated arguments read back")
    }
}

/// A literal of type `t` from random bits (wrapping to the type's range).
fn full_range_literal(t: &str, bits: u64) -> String {
    match t {
        "i8" => format!("{}i8", bits as i8),
        "i16" => format!("{}i16", bits as i16),
        "i32" => format!("{}i32", bits as i32),
        "i64" => format!("{}i64", bits as i64),
        "u8" => format!("{}u8", bits as u8),
        "u16" => format!("{}u16", bits as u16),
        "u32" => format!("{}u32", bits as u32),
        _ => format!("{bits}u64"),
    }
}
