//! Unit tests of the native compiler: every operation on edge values
//! against [`crate::cpu::prim`] (bitwise), through one `check` helper that
//! compiles a one-statement lambda as a `map` kernel and runs it on each
//! operand tuple (its free variable `t`, if read, is the array
//! `[10, 20, 30]`); failures (division by zero, a negative exponent, an
//! index out of bounds) must make the kernel fail, as `prim` does. Nested
//! `if`s run as selects and gathers in selected branches go through the
//! same helper.

use super::*;
use crate::cpu::prim;
use crate::ir::{BinOp, Body, CmpOp, ConvOp, Exp, Param, Span, Statement, SubExp, UnOp};

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
    let frame: Frame = vec![free_table()];
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

/// `let name = expression` as a statement binding a `t`.
fn bind(name: VName, t: PrimType, expression: Exp) -> Statement {
    Statement {
        pattern: vec![Param {
            name,
            ty: Type::Prim(t),
        }],
        expression,
        span: Span::default(),
    }
}

/// `if condition then {statements; result} else {...}` returning a `t`.
fn if_then_else(condition: SubExp, then_body: Body, else_body: Body, t: PrimType) -> Exp {
    Exp::If {
        condition,
        then_body,
        else_body,
        types: vec![crate::ir::ExtType::Prim(t)],
    }
}

fn returning(statements: Vec<Statement>, result: SubExp) -> Body {
    Body {
        statements,
        result: vec![result],
    }
}

fn constant_bool(b: bool) -> SubExp {
    SubExp::Constant(PrimValue::Bool(b))
}

/// `if x0 then (if x1 then true else (if x2 then x3 < limit else false))
/// else false`: Life's rule `sum >= 2 && (sum == 3 || (alive && sum < 4))`
/// as lowering nests it, plus `extra` infallible statements in the
/// innermost branch (up to 3: nested selects; 4: over the budget,
/// real branches).
fn nested_rule(extra: usize) -> Exp {
    let mut innermost = Vec::new();
    let mut last = var(3);
    for k in 0..extra {
        let next = name("e", k as u32);
        innermost.push(bind(
            next.clone(),
            PrimType::I32,
            Exp::BinOp {
                op: BinOp::Add,
                ty: PrimType::I32,
                left: last,
                right: SubExp::Constant(PrimValue::I32(0)),
            },
        ));
        last = SubExp::Var(next);
    }
    let below = name("c", 0);
    innermost.push(bind(
        below.clone(),
        PrimType::Bool,
        Exp::CmpOp {
            op: CmpOp::Lt,
            ty: PrimType::I32,
            left: last,
            right: SubExp::Constant(PrimValue::I32(4)),
        },
    ));
    let alive = name("v", 0);
    let alive_rule = bind(
        alive.clone(),
        PrimType::Bool,
        if_then_else(
            var(2),
            returning(innermost, SubExp::Var(below)),
            returning(Vec::new(), constant_bool(false)),
            PrimType::Bool,
        ),
    );
    let three = name("v", 1);
    let three_rule = bind(
        three.clone(),
        PrimType::Bool,
        if_then_else(
            var(1),
            returning(Vec::new(), constant_bool(true)),
            returning(vec![alive_rule], SubExp::Var(alive)),
            PrimType::Bool,
        ),
    );
    if_then_else(
        var(0),
        returning(vec![three_rule], SubExp::Var(three)),
        returning(Vec::new(), constant_bool(false)),
        PrimType::Bool,
    )
}

/// Nested `if`s of short infallible code run as nested selects (within the
/// budget) or as branches (over it), with the same results as `prim`.
#[test]
fn nested_ifs_match_the_element_wise_rule() {
    let sums = edges(PrimType::I32);
    let mut operands = Vec::new();
    for x0 in [false, true] {
        for x1 in [false, true] {
            for x2 in [false, true] {
                for s in &sums {
                    operands.push(vec![
                        PrimValue::Bool(x0),
                        PrimValue::Bool(x1),
                        PrimValue::Bool(x2),
                        *s,
                    ]);
                }
            }
        }
    }
    for (extra, selected) in [(0, true), (3, true), (4, false)] {
        let rule = nested_rule(extra);
        let Exp::If { then_body, .. } = &rule else {
            unreachable!("nested_rule builds an if")
        };
        assert_eq!(
            translate::straight_and_infallible(then_body),
            selected,
            "{extra} extra statements"
        );
        check(
            &format!("nested ifs with {extra} extra statements"),
            rule,
            &[
                PrimType::Bool,
                PrimType::Bool,
                PrimType::Bool,
                PrimType::I32,
            ],
            PrimType::Bool,
            &operands,
            &|v| {
                let (PrimValue::Bool(a), PrimValue::Bool(b), PrimValue::Bool(c), PrimValue::I32(s)) =
                    (v[0], v[1], v[2], v[3])
                else {
                    return None;
                };
                Some(PrimValue::Bool(a && (b || (c && s < 4))))
            },
        );
    }
}

/// The free array every `check` kernel may read as `t` (slot 0).
fn free_table() -> Val {
    Val::Array(ArrayVal {
        shape: vec![3],
        data: Data::I32(std::sync::Arc::new(vec![10, 20, 30])),
    })
}

/// A gather from the free array `t` in one branch of a selected `if`
/// (`then_gathers`: `if x0 then t[x1] else 7`, else `if x0 then 7 else
/// t[x1]`) is read speculatively: out of bounds, it fails only when its
/// branch is taken.
#[test]
fn gathers_in_selected_branches_fail_only_when_taken() {
    let table = name("t", 0);
    for then_gathers in [true, false] {
        let gather = returning(
            vec![bind(
                name("g", 0),
                PrimType::I32,
                Exp::Index {
                    array: table.clone(),
                    indices: vec![var(1)],
                },
            )],
            SubExp::Var(name("g", 0)),
        );
        let seven = returning(Vec::new(), SubExp::Constant(PrimValue::I32(7)));
        let (then_body, else_body) = if then_gathers {
            (gather, seven)
        } else {
            (seven, gather)
        };
        assert!(translate::straight_and_infallible(&then_body));
        assert!(translate::straight_and_infallible(&else_body));
        let mut operands = Vec::new();
        for x0 in [false, true] {
            for x1 in [-1i64, 0, 2, 3, i64::MIN, 1 << 40] {
                operands.push(vec![PrimValue::Bool(x0), PrimValue::I64(x1)]);
            }
        }
        check(
            &format!(
                "a gather in the {} branch",
                if then_gathers { "then" } else { "else" }
            ),
            if_then_else(var(0), then_body, else_body, PrimType::I32),
            &[PrimType::Bool, PrimType::I64],
            PrimType::I32,
            &operands,
            &|v| {
                let (PrimValue::Bool(x0), PrimValue::I64(x1)) = (v[0], v[1]) else {
                    return None;
                };
                if x0 != then_gathers {
                    return Some(PrimValue::I32(7));
                }
                let t = [10, 20, 30];
                usize::try_from(x1)
                    .ok()
                    .and_then(|i| t.get(i))
                    .map(|x| PrimValue::I32(*x))
            },
        );
    }
}
