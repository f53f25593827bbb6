//! The λC primitives (App. B) as induced reduction rules (§6.3.2): each `!`
//! and each constructor pattern of a definition becomes a congruence that
//! reduces that position to WHNF, then the clause contracts.
//!
//! `nilP`, `repP` (strict in the length) and `++` (strict in both arrays) are
//! constructors: their applications are values (Fig. 6.2), so a λC array value
//! is a tree whose spine is fully evaluated. Following §6.1.3 (SPEC_NOTES L05-9),
//! `!:` and `mapP` on `++` nodes use the impose operator `▷`, so λC is no more
//! defined than λA. The primitives App. B defines only "analogously" (`zipP`,
//! `packP`, `combineP`, `takeP`, `dropP`, `sumP`, `truesP`, `falsesP`) are
//! defined extensionally: they force the spine (and the flags/numbers they
//! inspect) and build their result from `▷`-aware indexing `xs !: i`
//! (SPEC_NOTES L05-10). Indexing out of bounds, `zipP` of unequal lengths,
//! `combineP` count mismatches, `takeP`/`dropP` beyond the length, negative
//! `repP` lengths and division by zero are ⊥ (guide P10, P14); arithmetic wraps.

use super::constants::{Const, Prim};
use super::lambda_c::{ExprC, TermC};
use super::machine::{admit_elements, Decision, TERM_ELEMENT_BYTES};
use super::reduce_c::is_value;
use super::types::Type;
use crate::derivation::fire_rule;

type Forced<T> = Result<T, Decision<ExprC>>;

/// The value at `path` inside `argument`, or the congruence that reduces it.
fn force(argument: &ExprC, path: &[usize]) -> Forced<ExprC> {
    let sub = argument
        .at_path(path)
        .ok_or_else(|| Decision::Bottom("primitive argument of the wrong shape".into()))?;
    if is_value(&sub) {
        Ok(sub)
    } else {
        Err(Decision::Congruence(path.to_vec()))
    }
}

fn force_tuple(argument: &ExprC, path: &[usize]) -> Forced<(ExprC, ExprC)> {
    match force(argument, path)?.term() {
        TermC::Tuple(a, b) => Ok((a.clone(), b.clone())),
        _ => Err(Decision::Bottom("expected a tuple".into())),
    }
}

fn force_int(argument: &ExprC, path: &[usize]) -> Forced<i64> {
    match force(argument, path)?.term() {
        TermC::Int(i) => Ok(*i),
        _ => Err(Decision::Bottom("expected an integer".into())),
    }
}

fn force_bool(argument: &ExprC, path: &[usize]) -> Forced<bool> {
    match force(argument, path)?.term() {
        TermC::Bool(b) => Ok(*b),
        _ => Err(Decision::Bottom("expected a boolean".into())),
    }
}

fn bottom<T>(reason: impl Into<String>) -> Forced<T> {
    Err(Decision::Bottom(reason.into()))
}

/// The shape of a λC array value.
pub enum ArrayValue {
    Nil,
    Rep(i64, ExprC),
    Concat(ExprC, ExprC),
}

/// Reads an array value's head constructor.
pub fn array_value(value: &ExprC) -> Option<ArrayValue> {
    let TermC::App(function, argument) = value.term() else {
        return None;
    };
    let TermC::Const(c) = function.term() else {
        return None;
    };
    match (c.prim, argument.term()) {
        (Prim::NilP, _) => Some(ArrayValue::Nil),
        (Prim::RepP, TermC::Tuple(n, x)) => match n.term() {
            TermC::Int(n) => Some(ArrayValue::Rep(*n, x.clone())),
            _ => None,
        },
        (Prim::ConcatP, TermC::Tuple(a, b)) => Some(ArrayValue::Concat(a.clone(), b.clone())),
        _ => None,
    }
}

/// The length of an array value (its spine is evaluated).
pub fn array_length(value: &ExprC) -> i64 {
    match array_value(value) {
        Some(ArrayValue::Rep(n, _)) => n,
        Some(ArrayValue::Concat(a, b)) => array_length(&a).wrapping_add(array_length(&b)),
        _ => 0,
    }
}

/// Forces every element of the array value at `path` (used where a primitive
/// inspects flags or numbers) and returns the elements in order.
fn force_elements(argument: &ExprC, path: &[usize]) -> Forced<Vec<ExprC>> {
    let array = force(argument, path)?;
    let mut out = Vec::new();
    collect_elements(&array, path, argument, &mut out)?;
    Ok(out)
}

fn collect_elements(
    array: &ExprC,
    path: &[usize],
    root: &ExprC,
    out: &mut Vec<ExprC>,
) -> Forced<()> {
    match array_value(array) {
        Some(ArrayValue::Nil) => Ok(()),
        Some(ArrayValue::Rep(n, _)) => {
            admit_elements((out.len() as i64).saturating_add(n), TERM_ELEMENT_BYTES)?;
            let element_path: Vec<usize> = path.iter().copied().chain([1, 1]).collect();
            let element = force(root, &element_path)?;
            for _ in 0..n.max(0) {
                out.push(element.clone());
            }
            Ok(())
        }
        Some(ArrayValue::Concat(a, b)) => {
            let left: Vec<usize> = path.iter().copied().chain([1, 0]).collect();
            let right: Vec<usize> = path.iter().copied().chain([1, 1]).collect();
            collect_elements(&a, &left, root, out)?;
            collect_elements(&b, &right, root, out)
        }
        None => bottom("expected an array value"),
    }
}

fn ints(elements: &[ExprC]) -> Forced<Vec<i64>> {
    elements
        .iter()
        .map(|e| match e.term() {
            TermC::Int(i) => Ok(*i),
            _ => bottom("expected integers"),
        })
        .collect()
}

fn bools(elements: &[ExprC]) -> Forced<Vec<bool>> {
    elements
        .iter()
        .map(|e| match e.term() {
            TermC::Bool(b) => Ok(*b),
            _ => bottom("expected booleans"),
        })
        .collect()
}

// Term builders.
fn constant(prim: Prim, type_args: &[Type]) -> ExprC {
    ExprC::constant(Const {
        prim,
        type_args: type_args.to_vec(),
    })
}
fn apply(prim: Prim, type_args: &[Type], argument: ExprC) -> ExprC {
    ExprC::app(constant(prim, type_args), argument)
}
fn pair(a: ExprC, b: ExprC) -> ExprC {
    ExprC::tuple(a, b)
}
fn nil(ty: &Type) -> ExprC {
    apply(Prim::NilP, std::slice::from_ref(ty), ExprC::unit())
}
fn index(ty: &Type, xs: &ExprC, i: i64) -> ExprC {
    apply(
        Prim::IndexP,
        std::slice::from_ref(ty),
        pair(xs.clone(), ExprC::int(i)),
    )
}
fn impose(ty: &Type, x: ExprC, y: ExprC) -> ExprC {
    apply(Prim::Impose, std::slice::from_ref(ty), pair(x, y))
}

/// `repP⟨1,e0⟩ ++ (repP⟨1,e1⟩ ++ …)`, balanced, or `nilP⟨⟩`: the array of the
/// given elements.
pub fn tabulate(ty: &Type, elements: Vec<ExprC>) -> ExprC {
    fn build(ty: &Type, elements: &[ExprC]) -> ExprC {
        match elements.len() {
            0 => nil(ty),
            1 => apply(
                Prim::RepP,
                std::slice::from_ref(ty),
                pair(ExprC::int(1), elements[0].clone()),
            ),
            n => {
                let (left, right) = elements.split_at(n / 2);
                apply(
                    Prim::ConcatP,
                    std::slice::from_ref(ty),
                    pair(build(ty, left), build(ty, right)),
                )
            }
        }
    }
    build(ty, &elements)
}

/// The induced rule for `c e` (paths relative to the argument `e`).
pub fn decide(c: &Const, argument: &ExprC) -> Decision<ExprC> {
    match decide_forced(c, argument) {
        Ok(decision) | Err(decision) => decision,
    }
}

fn arithmetic(prim: Prim, a: i64, b: i64) -> Option<ExprC> {
    Some(match prim {
        Prim::Add => ExprC::int(a.wrapping_add(b)),
        Prim::Sub => ExprC::int(a.wrapping_sub(b)),
        Prim::Mul => ExprC::int(a.wrapping_mul(b)),
        Prim::Div if b != 0 => ExprC::int(a.wrapping_div(b)),
        Prim::Mod if b != 0 => ExprC::int(a.wrapping_rem(b)),
        Prim::Eq => ExprC::boolean(a == b),
        Prim::Lt => ExprC::boolean(a < b),
        Prim::Le => ExprC::boolean(a <= b),
        _ => return None,
    })
}

fn decide_forced(c: &Const, argument: &ExprC) -> Forced<Decision<ExprC>> {
    let t = |i: usize| c.type_args[i].clone();
    let contract = |e: ExprC| Ok(Decision::Contract(e));
    match c.prim {
        // L05 AppB arithmetic
        Prim::Add
        | Prim::Sub
        | Prim::Mul
        | Prim::Div
        | Prim::Mod
        | Prim::Eq
        | Prim::Lt
        | Prim::Le => {
            fire_rule("L05 AppB arithmetic");
            force_tuple(argument, &[])?;
            let a = force_int(argument, &[0])?;
            let b = force_int(argument, &[1])?;
            match arithmetic(c.prim, a, b) {
                Some(result) => contract(result),
                None => bottom("division by zero"),
            }
        }
        // L05 AppB not
        Prim::Not => {
            fire_rule("L05 AppB not");
            let b = force_bool(argument, &[])?;
            contract(ExprC::boolean(!b))
        }
        // Extension: L05 AppB boolToSum
        Prim::BoolToSum => {
            fire_rule("L05 AppB boolToSum");
            let b = force_bool(argument, &[])?;
            let units = [Type::Unit, Type::Unit];
            let constructor = if b { Prim::Right } else { Prim::Left };
            contract(apply(constructor, &units, ExprC::unit()))
        }
        // L05 AppB Left-Right
        Prim::Left | Prim::Right => {
            fire_rule("L05 AppB Left-Right");
            Ok(Decision::Value)
        }
        // L05 AppB case
        Prim::Case => {
            fire_rule("L05 AppB case");
            force_tuple(argument, &[])?;
            let scrutinee = force(argument, &[1])?;
            let (f, g) = force_tuple(argument, &[0])?;
            let (side, payload) = match scrutinee.term() {
                TermC::App(function, payload) => match function.term() {
                    TermC::Const(k) if k.prim == Prim::Left => (f, payload.clone()),
                    TermC::Const(k) if k.prim == Prim::Right => (g, payload.clone()),
                    _ => return bottom("case of a non-sum"),
                },
                _ => return bottom("case of a non-sum"),
            };
            contract(ExprC::clo_app(side, payload))
        }
        // L05 AppB in
        Prim::In => {
            fire_rule("L05 AppB in");
            force(argument, &[])?;
            Ok(Decision::Value)
        }
        // L05 AppB out
        Prim::Out => {
            fire_rule("L05 AppB out");
            let value = force(argument, &[])?;
            match value.term() {
                TermC::App(function, inner) if matches!(function.term(), TermC::Const(k) if k.prim == Prim::In) => {
                    contract(inner.clone())
                }
                _ => bottom("out of a value that is not `in v`"),
            }
        }
        // L05 AppB seq
        Prim::Seq => {
            fire_rule("L05 AppB seq");
            let (_, y) = force_tuple(argument, &[])?;
            force(argument, &[0])?;
            contract(y)
        }
        // Extension: L05 AppB bottom
        Prim::Bottom => {
            fire_rule("L05 AppB bottom");
            bottom("bottom")
        }
        // L05 AppB nilP
        Prim::NilP => {
            fire_rule("L05 AppB nilP");
            Ok(Decision::Value)
        }
        // L05 Fig6.3 C-Rep-Cong
        Prim::RepP => {
            fire_rule("L05 Fig6.3 C-Rep-Cong");
            force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            if n < 0 {
                return bottom("repP with a negative length");
            }
            Ok(Decision::Value)
        }
        // L05 Fig6.3 C-Concat-Cong
        Prim::ConcatP => {
            fire_rule("L05 Fig6.3 C-Concat-Cong");
            force_tuple(argument, &[])?;
            force(argument, &[0])?;
            force(argument, &[1])?;
            Ok(Decision::Value)
        }
        // L05 AppB lenP
        Prim::LenP => {
            fire_rule("L05 AppB lenP");
            let xs = force(argument, &[])?;
            match array_value(&xs) {
                Some(ArrayValue::Nil) => contract(ExprC::int(0)),
                Some(ArrayValue::Rep(n, _)) => contract(ExprC::int(n)),
                Some(ArrayValue::Concat(a, b)) => contract(apply(
                    Prim::Add,
                    &[],
                    pair(apply(Prim::LenP, &[t(0)], a), apply(Prim::LenP, &[t(0)], b)),
                )),
                None => bottom("lenP of a non-array"),
            }
        }
        // L05 AppB index
        Prim::IndexP => {
            fire_rule("L05 AppB index");
            force_tuple(argument, &[])?;
            let xs = force(argument, &[0])?;
            let i = force_int(argument, &[1])?;
            let array_type = Type::array(t(0));
            match array_value(&xs) {
                Some(ArrayValue::Nil) => bottom("index into an empty array"),
                Some(ArrayValue::Rep(n, x)) => {
                    if 0 <= i && i < n {
                        contract(x)
                    } else {
                        bottom(format!("index {i} out of bounds (length {n})"))
                    }
                }
                Some(ArrayValue::Concat(left, right)) => {
                    let left_length = array_length(&left);
                    if i < left_length {
                        contract(index(&t(0), &impose(&array_type, right, left), i))
                    } else {
                        contract(index(
                            &t(0),
                            &impose(&array_type, left, right),
                            i - left_length,
                        ))
                    }
                }
                None => bottom("index into a non-array"),
            }
        }
        // L05 AppB mapP
        Prim::MapP => {
            fire_rule("L05 AppB mapP");
            let (closure, _) = force_tuple(argument, &[])?;
            let xs = force(argument, &[1])?;
            let (from, to) = (t(0), t(1));
            match array_value(&xs) {
                Some(ArrayValue::Nil) => contract(nil(&to)),
                Some(ArrayValue::Rep(n, x)) => contract(apply(
                    Prim::RepP,
                    std::slice::from_ref(&to),
                    pair(ExprC::int(n), ExprC::clo_app(closure, x)),
                )),
                Some(ArrayValue::Concat(left, right)) => {
                    let array_type = Type::array(from.clone());
                    let map = |ys: ExprC| {
                        apply(
                            Prim::MapP,
                            &[from.clone(), to.clone()],
                            pair(closure.clone(), ys),
                        )
                    };
                    contract(apply(
                        Prim::ConcatP,
                        std::slice::from_ref(&to),
                        pair(
                            map(impose(&array_type, right.clone(), left.clone())),
                            map(impose(&array_type, left, right)),
                        ),
                    ))
                }
                None => bottom("mapP over a non-array"),
            }
        }
        // Extension: L05 AppB zipP
        Prim::ZipP => {
            fire_rule("L05 AppB zipP");
            force_tuple(argument, &[])?;
            let xs = force(argument, &[0])?;
            let ys = force(argument, &[1])?;
            let n = array_length(&xs);
            if n != array_length(&ys) {
                return bottom("zipP of arrays of different lengths");
            }
            admit_elements(n, TERM_ELEMENT_BYTES)?;
            let elements = (0..n)
                .map(|i| pair(index(&t(0), &xs, i), index(&t(1), &ys, i)))
                .collect();
            contract(tabulate(&Type::prod(t(0), t(1)), elements))
        }
        // Extension: L05 AppB packP
        Prim::PackP => {
            fire_rule("L05 AppB packP");
            force_tuple(argument, &[])?;
            let flags = bools(&force_elements(argument, &[0])?)?;
            let xs = force(argument, &[1])?;
            if flags.len() as i64 != array_length(&xs) {
                return bottom("packP with flags of a different length");
            }
            let elements = flags
                .iter()
                .enumerate()
                .filter(|(_, keep)| **keep)
                .map(|(i, _)| index(&t(0), &xs, i as i64))
                .collect();
            contract(tabulate(&t(0), elements))
        }
        // Extension: L05 AppB combineP
        Prim::CombineP => {
            fire_rule("L05 AppB combineP");
            force_tuple(argument, &[])?;
            let flags = bools(&force_elements(argument, &[0])?)?;
            force_tuple(argument, &[1])?;
            let xs = force(argument, &[1, 0])?;
            let ys = force(argument, &[1, 1])?;
            let falses = flags.iter().filter(|b| !**b).count() as i64;
            let trues = flags.len() as i64 - falses;
            if falses != array_length(&xs) || trues != array_length(&ys) {
                return bottom("combineP: the flags do not match the array lengths");
            }
            let (mut from_false, mut from_true) = (0, 0);
            let mut elements = Vec::new();
            for flag in flags {
                if flag {
                    elements.push(index(&t(0), &ys, from_true));
                    from_true += 1;
                } else {
                    elements.push(index(&t(0), &xs, from_false));
                    from_false += 1;
                }
            }
            contract(tabulate(&t(0), elements))
        }
        // Extension: L05 AppB sumP
        Prim::SumP => {
            fire_rule("L05 AppB sumP");
            let numbers = ints(&force_elements(argument, &[])?)?;
            contract(ExprC::int(
                numbers.iter().fold(0i64, |sum, n| sum.wrapping_add(*n)),
            ))
        }
        // Extension: L05 AppB truesP-falsesP
        Prim::TruesP | Prim::FalsesP => {
            fire_rule("L05 AppB truesP-falsesP");
            let flags = bools(&force_elements(argument, &[])?)?;
            let wanted = c.prim == Prim::TruesP;
            contract(ExprC::int(
                flags.iter().filter(|b| **b == wanted).count() as i64
            ))
        }
        // Extension: L05 AppB takeP-dropP
        Prim::TakeP | Prim::DropP => {
            fire_rule("L05 AppB takeP-dropP");
            force_tuple(argument, &[])?;
            let n = force_int(argument, &[0])?;
            let xs = force(argument, &[1])?;
            let length = array_length(&xs);
            if n < 0 || n > length {
                return bottom("takeP/dropP beyond the length");
            }
            admit_elements(
                if c.prim == Prim::TakeP { n } else { length - n },
                TERM_ELEMENT_BYTES,
            )?;
            let range = if c.prim == Prim::TakeP {
                0..n
            } else {
                n..length
            };
            contract(tabulate(
                &t(0),
                range.map(|i| index(&t(0), &xs, i)).collect(),
            ))
        }
        Prim::Impose => decide_impose(&t(0), argument),
    }
}

/// `x ▷ y` (App. B, §6.1.3).
fn decide_impose(ty: &Type, argument: &ExprC) -> Forced<Decision<ExprC>> {
    let contract = |e: ExprC| Ok(Decision::Contract(e));
    let (x, y) = force_tuple(argument, &[])?;
    match ty {
        // L05 AppB impose-Base
        Type::Unit | Type::Int | Type::Bool | Type::Var(_) => {
            fire_rule("L05 AppB impose-Base");
            contract(apply(Prim::Seq, &[ty.clone(), ty.clone()], pair(x, y)))
        }
        // Extension: L05 AppB impose-Function
        Type::Fun(..) | Type::Clo(..) => {
            fire_rule("L05 AppB impose-Function");
            contract(apply(Prim::Seq, &[ty.clone(), ty.clone()], pair(x, y)))
        }
        // L05 AppB impose-Prod
        Type::Prod(a, b) => {
            fire_rule("L05 AppB impose-Prod");
            let (x1, x2) = force_tuple(argument, &[0])?;
            let (y1, y2) = force_tuple(argument, &[1])?;
            contract(pair(impose(a, x1, y1), impose(b, x2, y2)))
        }
        // L05 AppB impose-Sum
        Type::Sum(a, b) => {
            fire_rule("L05 AppB impose-Sum");
            let xv = force(argument, &[0])?;
            let yv = force(argument, &[1])?;
            let side = |v: &ExprC| -> Forced<(bool, ExprC)> {
                match v.term() {
                    TermC::App(f, payload) => match f.term() {
                        TermC::Const(k) if k.prim == Prim::Left => Ok((false, payload.clone())),
                        TermC::Const(k) if k.prim == Prim::Right => Ok((true, payload.clone())),
                        _ => bottom("▷ on a non-sum"),
                    },
                    _ => bottom("▷ on a non-sum"),
                }
            };
            let (x_right, x_payload) = side(&xv)?;
            let (y_right, y_payload) = side(&yv)?;
            let sum_args = [(**a).clone(), (**b).clone()];
            let result = match (x_right, y_right) {
                (false, false) => apply(Prim::Left, &sum_args, impose(a, x_payload, y_payload)),
                (true, true) => apply(Prim::Right, &sum_args, impose(b, x_payload, y_payload)),
                _ => yv.clone(),
            };
            contract(result)
        }
        // L05 AppB impose-Array
        Type::Array(element) => {
            fire_rule("L05 AppB impose-Array");
            let xv = force(argument, &[0])?;
            match array_value(&xv) {
                Some(ArrayValue::Nil) => contract(y),
                Some(ArrayValue::Concat(left, right)) => {
                    contract(impose(ty, left, impose(ty, right, y)))
                }
                Some(ArrayValue::Rep(m, x_element)) => {
                    let yv = force(argument, &[1])?;
                    match array_value(&yv) {
                        Some(ArrayValue::Nil) => contract(yv.clone()),
                        Some(ArrayValue::Rep(n, y_element)) => contract(apply(
                            Prim::RepP,
                            std::slice::from_ref(element),
                            pair(
                                apply(
                                    Prim::Seq,
                                    &[Type::Int, Type::Int],
                                    pair(ExprC::int(m), ExprC::int(n)),
                                ),
                                impose(element, x_element, y_element),
                            ),
                        )),
                        Some(ArrayValue::Concat(left, right)) => contract(apply(
                            Prim::ConcatP,
                            std::slice::from_ref(element),
                            pair(impose(ty, xv.clone(), left), impose(ty, xv.clone(), right)),
                        )),
                        None => bottom("▷ on a non-array"),
                    }
                }
                None => bottom("▷ on a non-array"),
            }
        }
        // Extension: L05 AppB impose-Mu
        Type::Mu(..) => {
            fire_rule("L05 AppB impose-Mu");
            let xv = force(argument, &[0])?;
            let yv = force(argument, &[1])?;
            let unfolded = ty.unfold().unwrap_or(Type::Unit);
            let payload = |v: &ExprC| match v.term() {
                TermC::App(_, inner) => Ok(inner.clone()),
                _ => bottom("▷ on a non-recursive value"),
            };
            contract(apply(
                Prim::In,
                std::slice::from_ref(ty),
                impose(&unfolded, payload(&xv)?, payload(&yv)?),
            ))
        }
    }
}
