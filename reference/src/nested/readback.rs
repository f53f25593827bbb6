//! Readback of λC and λA values into [`Observation`] (guide §6.2), forcing
//! subterms with an [`Evaluator`] (either driver of `machine.rs`).
//!
//! λC arrays are read through `▷`-aware indexing `xs !: i` (L2374), so a λC
//! array is observed with the induced undefinedness of §6.1.2. λA values are
//! read type-directed by `A[τ]` in the with-length representation: `⟨n, d⟩`
//! with `d` diverging reads as `n` times `⊥`. A flat value that is not a valid
//! representation (a data array whose length differs from its stored length,
//! a missing constructor) is reported as malformed — a violation, not ⊥.

use super::constants::{Const, Prim};
use super::lambda_a::{ConstA, ExprA, TermA};
use super::lambda_c::{ExprC, TermC};
use super::machine::{Evaluator, Stop};
use super::observation::Observation;
use super::primitives_c::array_length;
use super::types::Type;

/// Why a readback produced no observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadbackError {
    /// Fuel or depth exhausted: unknown.
    Unknown(Stop),
    /// The value does not represent a value of its type.
    Malformed(String),
}

pub type Readback<T> = Result<T, ReadbackError>;

/// Maximum number of observation nodes read (infinite data is unknown).
pub const MAX_OBSERVATION: usize = 200_000;

fn whnf<T, E: Evaluator<T>>(evaluator: &mut E, term: &T) -> Readback<Option<T>> {
    match evaluator.whnf(term) {
        Ok(value) => Ok(Some(value)),
        Err(Stop::Bottom(_)) => Ok(None),
        Err(unknown) => Err(ReadbackError::Unknown(unknown)),
    }
}

/// An array of `n` elements is `n` observation nodes: past the budget the
/// observation is unknown, before anything of that size is allocated.
fn within_budget(n: i64, budget: &usize) -> Readback<()> {
    if u64::try_from(n).is_ok_and(|n| n > *budget as u64) {
        return Err(ReadbackError::Unknown(Stop::OutOfFuel));
    }
    Ok(())
}

fn malformed<T>(what: impl Into<String>) -> Readback<T> {
    Err(ReadbackError::Malformed(what.into()))
}

/// Reads back the λC term `e : τ`.
pub fn readback_c<E: Evaluator<ExprC>>(
    evaluator: &mut E,
    e: &ExprC,
    ty: &Type,
) -> Readback<Observation> {
    let mut budget = MAX_OBSERVATION;
    read_c(evaluator, e, ty, &mut budget)
}

fn spend(budget: &mut usize) -> Readback<()> {
    if *budget == 0 {
        return Err(ReadbackError::Unknown(Stop::OutOfFuel));
    }
    *budget -= 1;
    Ok(())
}

fn read_c<E: Evaluator<ExprC>>(
    evaluator: &mut E,
    e: &ExprC,
    ty: &Type,
    budget: &mut usize,
) -> Readback<Observation> {
    spend(budget)?;
    if matches!(ty, Type::Fun(..) | Type::Clo(..)) {
        return Ok(Observation::Opaque);
    }
    let Some(value) = whnf(evaluator, e)? else {
        return Ok(Observation::Bottom);
    };
    match (ty, value.term()) {
        (Type::Int, TermC::Int(i)) => Ok(Observation::Int(*i)),
        (Type::Bool, TermC::Bool(b)) => Ok(Observation::Bool(*b)),
        (Type::Unit, TermC::Unit) => Ok(Observation::Unit),
        (Type::Prod(a, b), TermC::Tuple(x, y)) => Ok(Observation::Pair(
            Box::new(read_c(evaluator, x, a, budget)?),
            Box::new(read_c(evaluator, y, b, budget)?),
        )),
        (Type::Sum(a, b), TermC::App(function, payload)) => match function.term() {
            TermC::Const(c) if c.prim == Prim::Left => Ok(Observation::Left(Box::new(read_c(
                evaluator, payload, a, budget,
            )?))),
            TermC::Const(c) if c.prim == Prim::Right => Ok(Observation::Right(Box::new(read_c(
                evaluator, payload, b, budget,
            )?))),
            _ => malformed(format!("λC value `{value}` at a sum type")),
        },
        (Type::Array(element), _) => {
            // On total first-order data `▷` is the identity, so the spine can
            // be read directly; only when some element is ⊥ is the (quadratic)
            // `▷`-aware indexing needed.
            if element.is_first_order() {
                if let Some(items) = read_c_spine(evaluator, &value, element, budget)? {
                    return Ok(Observation::Array(items));
                }
            }
            let n = array_length(&value);
            let mut items = Vec::new();
            for i in 0..n {
                let indexed = ExprC::app(
                    ExprC::constant(Const {
                        prim: Prim::IndexP,
                        type_args: vec![(**element).clone()],
                    }),
                    ExprC::tuple(value.clone(), ExprC::int(i)),
                );
                items.push(read_c(evaluator, &indexed, element, budget)?);
            }
            Ok(Observation::Array(items))
        }
        (Type::Mu(..), TermC::App(_, payload)) => {
            let unfolded = ty.unfold().unwrap_or(Type::Unit);
            Ok(Observation::In(Box::new(read_c(
                evaluator, payload, &unfolded, budget,
            )?)))
        }
        _ => malformed(format!("λC value `{value}` at type `{ty}`")),
    }
}

/// The elements of a λC array value read along its spine, or `None` when one
/// of them contains `⊥` (then induced undefinedness must be computed).
fn read_c_spine<E: Evaluator<ExprC>>(
    evaluator: &mut E,
    array: &ExprC,
    element: &Type,
    budget: &mut usize,
) -> Readback<Option<Vec<Observation>>> {
    use super::primitives_c::{array_value, ArrayValue};
    let mut items = Vec::new();
    let mut pending = vec![array.clone()];
    while let Some(node) = pending.pop() {
        match array_value(&node) {
            Some(ArrayValue::Nil) => {}
            Some(ArrayValue::Rep(n, x)) => {
                let item = read_c(evaluator, &x, element, budget)?;
                if item.has_bottom() {
                    return Ok(None);
                }
                for _ in 0..n.max(0) {
                    spend(budget)?;
                    items.push(item.clone());
                }
            }
            Some(ArrayValue::Concat(left, right)) => {
                pending.push(right);
                pending.push(left);
            }
            None => return malformed(format!("λC array value `{node}`")),
        }
    }
    Ok(Some(items))
}

/// Reads back the λA term `e : F[τ]` as a value of the λC type `τ`.
pub fn readback_a<E: Evaluator<ExprA>>(
    evaluator: &mut E,
    e: &ExprA,
    ty: &Type,
) -> Readback<Observation> {
    let mut budget = MAX_OBSERVATION;
    read_a(evaluator, e, ty, &mut budget)
}

fn constant_payload(value: &ExprA, wanted: Prim, lifted: bool) -> Option<ExprA> {
    match value.term() {
        TermA::App(function, payload) => match function.term() {
            TermA::Const(ConstA::Vectorised(c)) if !lifted && c.prim == wanted => {
                Some(payload.clone())
            }
            TermA::Const(ConstA::Lifted(c)) if lifted && c.prim == wanted => Some(payload.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn read_a<E: Evaluator<ExprA>>(
    evaluator: &mut E,
    e: &ExprA,
    ty: &Type,
    budget: &mut usize,
) -> Readback<Observation> {
    spend(budget)?;
    if matches!(ty, Type::Fun(..) | Type::Clo(..)) {
        return Ok(Observation::Opaque);
    }
    if let Type::Array(element) = ty {
        return Ok(match read_array(evaluator, e, element, budget)? {
            Some(items) => Observation::Array(items),
            None => Observation::Bottom,
        });
    }
    let Some(value) = whnf(evaluator, e)? else {
        return Ok(Observation::Bottom);
    };
    match (ty, value.term()) {
        (Type::Int, TermA::Int(i)) => Ok(Observation::Int(*i)),
        (Type::Bool, TermA::Bool(b)) => Ok(Observation::Bool(*b)),
        (Type::Unit, TermA::Unit) => Ok(Observation::Unit),
        (Type::Prod(a, b), TermA::Tuple(x, y)) => Ok(Observation::Pair(
            Box::new(read_a(evaluator, x, a, budget)?),
            Box::new(read_a(evaluator, y, b, budget)?),
        )),
        (Type::Sum(a, b), _) => {
            if let Some(payload) = constant_payload(&value, Prim::Left, false) {
                Ok(Observation::Left(Box::new(read_a(
                    evaluator, &payload, a, budget,
                )?)))
            } else if let Some(payload) = constant_payload(&value, Prim::Right, false) {
                Ok(Observation::Right(Box::new(read_a(
                    evaluator, &payload, b, budget,
                )?)))
            } else {
                malformed(format!("λA value `{value}` at a sum type"))
            }
        }
        (Type::Mu(..), _) => match constant_payload(&value, Prim::In, false) {
            Some(payload) => {
                let unfolded = ty.unfold().unwrap_or(Type::Unit);
                Ok(Observation::In(Box::new(read_a(
                    evaluator, &payload, &unfolded, budget,
                )?)))
            }
            None => malformed(format!("λA value `{value}` at a recursive type")),
        },
        _ => malformed(format!("λA value `{value}` at type `{ty}`")),
    }
}

/// Reads a flat array `x : A[σ].2` as its elements; `None` when the array
/// itself diverges (no length).
fn read_array<E: Evaluator<ExprA>>(
    evaluator: &mut E,
    x: &ExprA,
    element: &Type,
    budget: &mut usize,
) -> Readback<Option<Vec<Observation>>> {
    spend(budget)?;
    let Some(value) = whnf(evaluator, x)? else {
        return Ok(None);
    };
    // `⟨n, payload⟩` with a forced length.
    let length_and_payload = |evaluator: &mut E, value: &ExprA| -> Readback<Option<(i64, ExprA)>> {
        match value.term() {
            TermA::Tuple(n, payload) => match whnf(evaluator, n)? {
                None => Ok(None),
                Some(n) => match n.term() {
                    TermA::Int(n) if *n >= 0 => Ok(Some((*n, payload.clone()))),
                    _ => malformed(format!("array length `{n}`")),
                },
            },
            _ => malformed(format!("flat array `{value}` is not a pair")),
        }
    };
    let undefined = |n: i64| Ok(Some(vec![Observation::Bottom; n as usize]));
    match element {
        Type::Unit | Type::Int | Type::Bool => {
            let Some((n, payload)) = length_and_payload(evaluator, &value)? else {
                return Ok(None);
            };
            within_budget(n, budget)?;
            if n == 0 {
                // Law attach/nil: the data of an empty array is not observed.
                return Ok(Some(Vec::new()));
            }
            let Some(data) = whnf(evaluator, &payload)? else {
                return undefined(n);
            };
            let items: Vec<Observation> = match data.term() {
                TermA::Unit if *element == Type::Unit => vec![Observation::Unit; n as usize],
                TermA::ArrInt(values) if *element == Type::Int => {
                    values.iter().map(|v| Observation::Int(*v)).collect()
                }
                TermA::ArrBool(values) if *element == Type::Bool => {
                    values.iter().map(|v| Observation::Bool(*v)).collect()
                }
                _ => return malformed(format!("flat data `{data}` at element type `{element}`")),
            };
            if items.len() as i64 != n {
                return malformed(format!(
                    "flat array of length {n} holds {} elements",
                    items.len()
                ));
            }
            Ok(Some(items))
        }
        Type::Prod(a, b) => {
            let Some((n, payload)) = length_and_payload(evaluator, &value)? else {
                return Ok(None);
            };
            within_budget(n, budget)?;
            if n == 0 {
                // The components of an empty array are not observed (they may
                // be infinite for recursive element types, §3.3.4).
                return Ok(Some(Vec::new()));
            }
            let Some(parts) = whnf(evaluator, &payload)? else {
                return undefined(n);
            };
            let TermA::Tuple(xs, ys) = parts.term() else {
                return malformed("flat array of pairs without a pair of arrays");
            };
            let xs = read_array(evaluator, xs, a, budget)?
                .unwrap_or_else(|| vec![Observation::Bottom; n as usize]);
            let ys = read_array(evaluator, ys, b, budget)?
                .unwrap_or_else(|| vec![Observation::Bottom; n as usize]);
            if xs.len() as i64 != n || ys.len() as i64 != n {
                return malformed(format!(
                    "flat array of pairs of length {n} with components of lengths {} and {}",
                    xs.len(),
                    ys.len()
                ));
            }
            Ok(Some(
                xs.into_iter()
                    .zip(ys)
                    .map(|(x, y)| Observation::Pair(Box::new(x), Box::new(y)))
                    .collect(),
            ))
        }
        Type::Sum(a, b) => {
            let TermA::Tuple(selector, parts) = value.term() else {
                return malformed("flat array of sums is not a pair");
            };
            let Some(flags) = read_array(evaluator, selector, &Type::Bool, budget)? else {
                return Ok(None);
            };
            let n = flags.len();
            if n == 0 {
                return Ok(Some(Vec::new()));
            }
            let Some(parts) = whnf(evaluator, parts)? else {
                return undefined(n as i64);
            };
            let TermA::Tuple(lefts, rights) = parts.term() else {
                return malformed("flat array of sums without a pair of arrays");
            };
            let lefts = read_array(evaluator, lefts, a, budget)?;
            let rights = read_array(evaluator, rights, b, budget)?;
            let (mut next_left, mut next_right) = (0, 0);
            let mut items = Vec::with_capacity(n);
            for flag in flags {
                let item = match flag {
                    Observation::Bool(false) => {
                        let item = match &lefts {
                            Some(lefts) => match lefts.get(next_left) {
                                Some(item) => Observation::Left(Box::new(item.clone())),
                                None => return malformed("selector has more Lefts than the data"),
                            },
                            None => Observation::Left(Box::new(Observation::Bottom)),
                        };
                        next_left += 1;
                        item
                    }
                    Observation::Bool(true) => {
                        let item = match &rights {
                            Some(rights) => match rights.get(next_right) {
                                Some(item) => Observation::Right(Box::new(item.clone())),
                                None => return malformed("selector has more Rights than the data"),
                            },
                            None => Observation::Right(Box::new(Observation::Bottom)),
                        };
                        next_right += 1;
                        item
                    }
                    _ => Observation::Bottom,
                };
                items.push(item);
            }
            Ok(Some(items))
        }
        Type::Fun(..) => {
            let Some((n, _)) = length_and_payload(evaluator, &value)? else {
                return Ok(None);
            };
            within_budget(n, budget)?;
            Ok(Some(vec![Observation::Opaque; n as usize]))
        }
        Type::Clo(..) => {
            let length = ExprA::prim(Prim::LenP, std::slice::from_ref(element), value.clone());
            match whnf(evaluator, &length)? {
                None => Ok(None),
                Some(n) => match n.term() {
                    TermA::Int(n) if *n >= 0 => {
                        within_budget(*n, budget)?;
                        Ok(Some(vec![Observation::Opaque; *n as usize]))
                    }
                    _ => malformed("closure array length"),
                },
            }
        }
        Type::Array(inner) => {
            let TermA::Tuple(segments, data) = value.term() else {
                return malformed("nested flat array is not a pair");
            };
            let Some(segments) = read_array(evaluator, segments, &Type::Int, budget)? else {
                return Ok(None);
            };
            let total: i64 = segments
                .iter()
                .map(|s| match s {
                    Observation::Int(n) => *n,
                    _ => 1,
                })
                .sum();
            let data = if total == 0 {
                Some(Vec::new())
            } else {
                read_array(evaluator, data, inner, budget)?
            };
            let mut items = Vec::with_capacity(segments.len());
            let mut offset = 0usize;
            let mut undefined_from_here = false;
            for segment in segments {
                match (segment, &data) {
                    (Observation::Int(length), Some(data))
                        if !undefined_from_here && length >= 0 =>
                    {
                        let end = offset + length as usize;
                        match data.get(offset..end) {
                            Some(chunk) => items.push(Observation::Array(chunk.to_vec())),
                            None => return malformed("segment descriptor longer than the data"),
                        }
                        offset = end;
                    }
                    (Observation::Int(_), None) => items.push(Observation::Bottom),
                    _ => {
                        undefined_from_here = true;
                        items.push(Observation::Bottom);
                    }
                }
            }
            if let Some(data) = &data {
                if !undefined_from_here && offset != data.len() {
                    return malformed("segment descriptor shorter than the data");
                }
            }
            Ok(Some(items))
        }
        Type::Mu(..) => {
            let Some(inner) = constant_payload(&value, Prim::In, true) else {
                return malformed(format!(
                    "flat array `{value}` at a recursive type is not `in↑ v`"
                ));
            };
            let unfolded = element.unfold().unwrap_or(Type::Unit);
            Ok(
                read_array(evaluator, &inner, &unfolded, budget)?.map(|items| {
                    items
                        .into_iter()
                        .map(|item| match item {
                            Observation::Bottom => Observation::Bottom,
                            other => Observation::In(Box::new(other)),
                        })
                        .collect()
                }),
            )
        }
        Type::Var(_) => malformed("array of a type variable"),
    }
}
