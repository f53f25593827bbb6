//! Unit tests of the native compiler: every operation on edge values
//! against [`crate::cpu::prim`] (bitwise), through one `check` helper that
//! compiles a one-statement lambda as a `map` kernel and runs it on each
//! operand tuple; failures (division by zero, a negative exponent) must
//! make the kernel fail, as `prim` does.

use super::*;
use crate::cpu::prim;
use crate::ir::{BinOp, CmpOp, ConvOp, Param, Span, Statement, SubExp, UnOp};

/// The integer types, then the float types, of [`PrimType::ALL`].
fn integers() -> impl Iterator<Item = PrimType> {
    PrimType::ALL.into_iter().filter(|t| t.is_integer())
}
fn floats() -> impl Iterator<Item = PrimType> {
    PrimType::ALL.into_iter().filter(|t| t.is_float())
}

fn name(base: &str, number: u32) -> VName {
    VName::new(base, number)
}

/// Edge values of a type: zero, one, minus one, the extremes, the bit
/// width and around it (shift amounts), small odd numbers of both signs;
/// for floats signed zeros, NaN, infinities, the extremes and a tie.
fn edges(t: PrimType) -> Vec<PrimValue> {
    if t == PrimType::Bool {
        return vec![PrimValue::Bool(false), PrimValue::Bool(true)];
    }
    if t.is_float() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.5,
            -2.5,
            0.5,
            7.25,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            3.0e9,
            -3.0e9,
            1.0e20,
            f64::MAX,
            f64::MIN_POSITIVE,
        ];
        return values
            .iter()
            .map(|x| match t {
                PrimType::F32 => PrimValue::F32(*x as f32),
                _ => PrimValue::F64(*x),
            })
            .collect();
    }
    let bits = i64::from(translate::machine_type(t).bits());
    let mut values: Vec<i64> = vec![0, 1, -1, 2, -2, 3, 7, -7, bits - 1, bits, bits + 1, 100];
    let (min, max) = match t {
        PrimType::I8 => (i8::MIN as i64, i8::MAX as i64),
        PrimType::I16 => (i16::MIN as i64, i16::MAX as i64),
        PrimType::I32 => (i32::MIN as i64, i32::MAX as i64),
        PrimType::I64 => (i64::MIN, i64::MAX),
        _ => (0, -1),
    };
    values.extend([min, max, min + 1, max - 1]);
    values.into_iter().map(|n| prim::from_i64(n, t)).collect()
}

/// Bitwise equality of two values (floats by their bits).
fn same(a: PrimValue, b: PrimValue) -> bool {
    a.prim_type() == b.prim_type() && a.to_bits() == b.to_bits()
}

/// Compiles `expression` over parameters `x0..` of `operand_types` (the
/// expression names them `x_0`, `x_1`) into a `map` kernel returning
/// `result`, runs it on every tuple of `operands` and compares each result
/// (or failure) with `expected`.
fn check(
    what: &str,
    expression: Exp,
    operand_types: &[PrimType],
    result: PrimType,
    operands: &[Vec<PrimValue>],
    expected: &dyn Fn(&[PrimValue]) -> Option<PrimValue>,
) {
    let params: Vec<Param> = operand_types
        .iter()
        .enumerate()
        .map(|(k, t)| Param {
            name: name("x", k as u32),
            ty: Type::Prim(*t),
        })
        .collect();
    let out = name("r", 100);
    let lambda = Lambda {
        params,
        body: Body {
            statements: vec![Statement {
                pattern: vec![Param {
                    name: out.clone(),
                    ty: Type::Prim(result),
                }],
                expression,
                span: Span::default(),
            }],
            result: vec![SubExp::Var(out)],
        },
        return_types: vec![Type::Prim(result)],
    };
    let kernel = NativeKernel::build(Some(&lambda), None, Mode::Map, &mut |_| 0)
        .unwrap_or_else(|| panic!("{what}: no kernel"));
    let frame: Frame = vec![Val::Prim(PrimValue::Bool(false))];
    let compiled = kernel.compiled(&frame).is_some();
    assert!(compiled, "{what}: not compiled natively");
    for tuple in operands {
        let inputs: Vec<ArrayVal> = tuple
            .iter()
            .map(|v| ArrayVal {
                shape: vec![1],
                data: Data::filled(*v, 1),
            })
            .collect();
        let got = kernel
            .map(&frame, 1, &inputs)
            .ok()
            .map(|mut results| match results.remove(0) {
                Val::Array(a) => a.data.get(0),
                Val::Prim(p) => p,
            });
        let want = expected(tuple);
        let agree = match (got, want) {
            (Some(g), Some(w)) => same(g, w),
            (None, None) => true,
            _ => false,
        };
        assert!(agree, "{what} on {tuple:?}: native {got:?}, prim {want:?}");
    }
}

fn pairs(t: PrimType) -> Vec<Vec<PrimValue>> {
    let values = edges(t);
    let mut out = Vec::new();
    for a in &values {
        for b in &values {
            out.push(vec![*a, *b]);
        }
    }
    out
}

fn singles(t: PrimType) -> Vec<Vec<PrimValue>> {
    edges(t).into_iter().map(|v| vec![v]).collect()
}

fn var(k: u32) -> SubExp {
    SubExp::Var(name("x", k))
}

fn check_binop(op: BinOp, t: PrimType) {
    check(
        &format!("{op:?} at {t:?}"),
        Exp::BinOp {
            op,
            ty: t,
            left: var(0),
            right: var(1),
        },
        &[t, t],
        t,
        &pairs(t),
        &|v| prim::binop_dynamic(op, v[0], v[1]).ok(),
    );
}

#[test]
fn integer_binary_operations_match_prim() {
    use BinOp::*;
    for t in integers() {
        for op in [
            Add, Sub, Mul, Div, Mod, Quot, Rem, Pow, Min, Max, And, Or, Xor, Shl, Shr, UShr,
        ] {
            check_binop(op, t);
        }
    }
}

#[test]
fn float_binary_operations_match_prim() {
    use BinOp::*;
    for t in floats() {
        for op in [Add, Sub, Mul, Div, Mod, Quot, Rem, Pow, Min, Max, Atan2] {
            check_binop(op, t);
        }
    }
}

#[test]
fn boolean_binary_operations_match_prim() {
    use BinOp::*;
    for op in [And, Or, Xor, LogAnd, LogOr, Min, Max] {
        check_binop(op, PrimType::Bool);
    }
}

#[test]
fn unary_operations_match_prim() {
    use UnOp::*;
    let float_ops = [
        Neg, Abs, Signum, Sqrt, Exp, Log, Log2, Log10, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh,
        Tanh, Asinh, Acosh, Atanh, Floor, Ceil, Round, Trunc, IsNan, IsInf,
    ];
    let integer_ops = [Neg, Not, Abs, Signum, Popc, Clz, Ctz];
    let mut cases: Vec<(UnOp, PrimType)> = Vec::new();
    for t in floats() {
        cases.extend(float_ops.iter().map(|op| (*op, t)));
    }
    for t in integers() {
        cases.extend(integer_ops.iter().map(|op| (*op, t)));
    }
    cases.push((Not, PrimType::Bool));
    for (op, t) in cases {
        let result = match op {
            IsNan | IsInf => PrimType::Bool,
            Popc | Clz | Ctz => PrimType::I32,
            _ => t,
        };
        check(
            &format!("{op:?} at {t:?}"),
            crate::ir::Exp::UnOp {
                op,
                ty: t,
                operand: var(0),
            },
            &[t],
            result,
            &singles(t),
            &|v| prim::unop(op, v[0]).ok(),
        );
    }
}

#[test]
fn comparisons_match_prim() {
    use CmpOp::*;
    // Every type: the integers, the floats and `bool`.
    for t in PrimType::ALL {
        for op in [Eq, Ne, Lt, Le, Gt, Ge] {
            check(
                &format!("{op:?} at {t:?}"),
                Exp::CmpOp {
                    op,
                    ty: t,
                    left: var(0),
                    right: var(1),
                },
                &[t, t],
                PrimType::Bool,
                &pairs(t),
                &|v| prim::cmpop(op, v[0], v[1]).ok().map(PrimValue::Bool),
            );
        }
    }
}

#[test]
fn conversions_match_prim() {
    // Every type: the integers, the floats and `bool`.
    let all = PrimType::ALL;
    for from in &all {
        for to in &all {
            let op = ConvOp {
                from: *from,
                to: *to,
            };
            check(
                &format!("{from:?} to {to:?}"),
                Exp::ConvOp {
                    op,
                    operand: var(0),
                },
                &[*from],
                *to,
                &singles(*from),
                &|v| Some(prim::convert(op, v[0])),
            );
        }
    }
}
