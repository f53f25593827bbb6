//! Comparing a test's expected values with a backend's actual ones.
//!
//! Integers and bools compare exactly. Floats compare bitwise after NaN
//! canonicalisation: every NaN equals every NaN, and otherwise the bits must be
//! equal, so `-0.0` and `0.0` differ under [`Tolerance::Exact`] (the sign of zero
//! is observable, `1/x`, and the backends must agree on it). Under
//! [`Tolerance::Ulps`] two finite floats match when at most `n` representable
//! values lie between them on the real line, so `-0.0` and `0.0` (distance 0)
//! match; infinities match only themselves. The harness uses `Ulps` only where a
//! backend may reassociate (reductions and scans of floats). A test block's
//! expected output is compared as `futhark test` compares it, under
//! [`Tolerance::FutharkTest`] (a relative difference of 0.2 %), on every
//! backend.

use super::array::shape_to_string;
use super::{Array, ArrayData, PrimValue, Value, ValueType};
use std::fmt;

/// How close floats must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tolerance {
    /// Bitwise equal, all NaNs equal.
    #[default]
    Exact,
    /// At most this many units in the last place apart (NaNs equal each other).
    Ulps(u64),
    /// As `futhark test` compares a result with a test block's expected
    /// output: a relative difference of at most
    /// [`FUTHARK_TEST_RELATIVE_TOLERANCE`] (`|x − y| ≤ 0.002 · max(|x|,
    /// |y|)`), NaNs equal each other, infinities only themselves.
    FutharkTest,
}

/// The relative tolerance of [`Tolerance::FutharkTest`]: the default of
/// futhark-data's comparison ("0.002 (0.2%) is a fine default"), which
/// `futhark test` applies to expected outputs on every backend.
pub const FUTHARK_TEST_RELATIVE_TOLERANCE: f64 = 0.002;

/// The float tolerance of compiled backends, in units in the last place:
/// they may reassociate `reduce`/`scan` on floats (DESIGN.md, "The
/// pipelines"). Shared by the CLI's backends and the fuzz value oracle.
pub const COMPILED_FLOAT_ULPS: u64 = 64;

/// The first difference between expected and actual values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Which value (0-based), or `None` when the number of values differs.
    pub value: Option<usize>,
    /// Where in the value: `[3][2]`, `.a`, `.0`, `#some.0`, or empty.
    pub path: String,
    pub kind: MismatchKind,
}

/// What differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MismatchKind {
    Count {
        expected: usize,
        actual: usize,
    },
    Type {
        expected: ValueType,
        actual: ValueType,
    },
    Shape {
        expected: Vec<usize>,
        actual: Vec<usize>,
    },
    /// Different values, printed in the textual format. `others` counts the
    /// further mismatching elements of the same array of primitives.
    Value {
        expected: String,
        actual: String,
        others: usize,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(i) = self.value {
            write!(f, "value #{i}")?;
            if !self.path.is_empty() {
                write!(f, " at {}", self.path)?;
            }
            f.write_str(": ")?;
        }
        match &self.kind {
            MismatchKind::Count { expected, actual } => {
                write!(f, "expected {expected} values, got {actual}")
            }
            MismatchKind::Type { expected, actual } => {
                write!(
                    f,
                    "expected a value of type {expected}, got one of type {actual}"
                )
            }
            MismatchKind::Shape { expected, actual } => write!(
                f,
                "expected shape {}, got shape {}",
                shape_to_string(expected),
                shape_to_string(actual)
            ),
            MismatchKind::Value {
                expected,
                actual,
                others,
            } => {
                write!(f, "expected {expected}, got {actual}")?;
                match others {
                    0 => Ok(()),
                    1 => write!(f, " (and 1 more mismatching element)"),
                    n => write!(f, " (and {n} more mismatching elements)"),
                }
            }
        }
    }
}

impl std::error::Error for Mismatch {}

/// Compares `expected` with `actual`, value by value; the first difference.
pub fn compare(expected: &[Value], actual: &[Value], tolerance: Tolerance) -> Result<(), Mismatch> {
    if expected.len() != actual.len() {
        return Err(Mismatch {
            value: None,
            path: String::new(),
            kind: MismatchKind::Count {
                expected: expected.len(),
                actual: actual.len(),
            },
        });
    }
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        let mut path = String::new();
        compare_value(e, a, tolerance, &mut path).map_err(|(path, kind)| Mismatch {
            value: Some(i),
            path,
            kind,
        })?;
    }
    Ok(())
}

type Failure = (String, MismatchKind);

fn type_mismatch(e: &Value, a: &Value, path: &str) -> Failure {
    (
        path.to_string(),
        MismatchKind::Type {
            expected: e.value_type(),
            actual: a.value_type(),
        },
    )
}

fn value_mismatch(e: &Value, a: &Value, path: &str) -> Failure {
    (
        path.to_string(),
        MismatchKind::Value {
            expected: e.to_string(),
            actual: a.to_string(),
            others: 0,
        },
    )
}

/// Compares one value; `path` is where it sits (restored on success).
fn compare_value(e: &Value, a: &Value, tol: Tolerance, path: &mut String) -> Result<(), Failure> {
    let len = path.len();
    match (e, a) {
        (Value::Prim(x), Value::Prim(y)) => {
            if x.prim_type() != y.prim_type() {
                return Err(type_mismatch(e, a, path));
            }
            if !prims_match(*x, *y, tol) {
                return Err(value_mismatch(e, a, path));
            }
        }
        (Value::Array(x), Value::Array(y)) => compare_arrays(e, a, x, y, tol, path)?,
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            if xs.len() != ys.len() {
                return Err(type_mismatch(e, a, path));
            }
            for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
                path.push_str(&format!(".{i}"));
                compare_value(x, y, tol, path)?;
                path.truncate(len);
            }
        }
        (Value::Record(xs), Value::Record(ys)) => {
            let (xs, ys) = (xs.fields(), ys.fields());
            if xs.len() != ys.len() || xs.iter().zip(ys).any(|((n, _), (m, _))| n != m) {
                return Err(type_mismatch(e, a, path));
            }
            for ((name, x), (_, y)) in xs.iter().zip(ys) {
                path.push_str(&format!(".{name}"));
                compare_value(x, y, tol, path)?;
                path.truncate(len);
            }
        }
        (Value::Sum(x), Value::Sum(y)) => {
            if x.constructor() != y.constructor() || x.payload().len() != y.payload().len() {
                return Err(value_mismatch(e, a, path));
            }
            for (i, (p, q)) in x.payload().iter().zip(y.payload()).enumerate() {
                path.push_str(&format!("#{}.{i}", x.constructor()));
                compare_value(p, q, tol, path)?;
                path.truncate(len);
            }
        }
        _ => return Err(type_mismatch(e, a, path)),
    }
    Ok(())
}

fn compare_arrays(
    e: &Value,
    a: &Value,
    x: &Array,
    y: &Array,
    tol: Tolerance,
    path: &mut String,
) -> Result<(), Failure> {
    let (xt, yt) = (x.elem_type(), y.elem_type());
    let comparable = match (&xt, &yt) {
        (ValueType::Prim(p), ValueType::Prim(q)) => p == q,
        // Boxed elements are compared one by one; their types must agree up to
        // the constructors of sums (which an array lists only as far as used).
        _ => xt.join(&yt).is_some(),
    };
    if !comparable || x.rank() != y.rank() {
        return Err(type_mismatch(e, a, path));
    }
    if x.shape() != y.shape() {
        return Err((
            path.clone(),
            MismatchKind::Shape {
                expected: x.shape().to_vec(),
                actual: y.shape().to_vec(),
            },
        ));
    }
    let index_path = |i: usize| {
        let mut rest = i;
        let mut idx = vec![0; x.rank()];
        for (k, &d) in x.shape().iter().enumerate().rev() {
            idx[k] = rest % d;
            rest /= d;
        }
        idx.iter().map(|j| format!("[{j}]")).collect::<String>()
    };
    if let (ArrayData::Boxed { elems: xs, .. }, ArrayData::Boxed { elems: ys, .. }) =
        (x.data(), y.data())
    {
        let len = path.len();
        for (i, (p, q)) in xs.iter().zip(ys).enumerate() {
            path.push_str(&index_path(i));
            compare_value(p, q, tol, path)?;
            path.truncate(len);
        }
        return Ok(());
    }
    // Unboxed, same type and shape: find the first mismatch and count the rest.
    let n = x.data().len();
    let bad = |i: usize| {
        let p = x.data().get(i).and_then(|v| v.as_prim());
        let q = y.data().get(i).and_then(|v| v.as_prim());
        match (p, q) {
            (Some(p), Some(q)) => !prims_match(p, q, tol),
            _ => true,
        }
    };
    if let Some(first) = (0..n).find(|&i| bad(i)) {
        let others = (first + 1..n).filter(|&i| bad(i)).count();
        let show = |arr: &Array| {
            arr.data()
                .get(first)
                .map(|v| v.to_string())
                .unwrap_or_default()
        };
        return Err((
            format!("{path}{}", index_path(first)),
            MismatchKind::Value {
                expected: show(x),
                actual: show(y),
                others,
            },
        ));
    }
    Ok(())
}

/// Whether two primitives of the same type match under `tol`.
fn prims_match(x: PrimValue, y: PrimValue, tol: Tolerance) -> bool {
    match (x, y) {
        (PrimValue::F32(p), PrimValue::F32(q)) => floats_match(
            (p.is_nan(), q.is_nan()),
            p.to_bits() == q.to_bits(),
            p.is_finite() && q.is_finite(),
            || ulp_distance(ordered32(p), ordered32(q)),
            || within_relative_tolerance(f64::from(p), f64::from(q)),
            tol,
        ),
        (PrimValue::F64(p), PrimValue::F64(q)) => floats_match(
            (p.is_nan(), q.is_nan()),
            p.to_bits() == q.to_bits(),
            p.is_finite() && q.is_finite(),
            || ulp_distance(ordered64(p), ordered64(q)),
            || within_relative_tolerance(p, q),
            tol,
        ),
        _ => x == y,
    }
}

fn floats_match(
    nans: (bool, bool),
    same_bits: bool,
    finite: bool,
    distance: impl FnOnce() -> u128,
    relative_difference_fits: impl FnOnce() -> bool,
    tol: Tolerance,
) -> bool {
    match nans {
        (true, true) => true,
        (true, false) | (false, true) => false,
        (false, false) => {
            same_bits
                || match tol {
                    Tolerance::Exact => false,
                    Tolerance::Ulps(n) => finite && distance() <= u128::from(n),
                    Tolerance::FutharkTest => finite && relative_difference_fits(),
                }
        }
    }
}

/// `|x − y| ≤ FUTHARK_TEST_RELATIVE_TOLERANCE · max(|x|, |y|)` (in `f64`,
/// which holds every `f32` exactly).
fn within_relative_tolerance(x: f64, y: f64) -> bool {
    (x - y).abs() <= FUTHARK_TEST_RELATIVE_TOLERANCE * x.abs().max(y.abs())
}

/// Maps a float to an integer whose order is the real line's, with `-0.0` and
/// `0.0` both 0, so that the difference counts representable values between.
fn ordered32(x: f32) -> i128 {
    let bits = x.to_bits();
    let magnitude = i128::from(bits & 0x7fff_ffff);
    if bits >> 31 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

fn ordered64(x: f64) -> i128 {
    let bits = x.to_bits();
    let magnitude = i128::from(bits & 0x7fff_ffff_ffff_ffff);
    if bits >> 63 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

fn ulp_distance(a: i128, b: i128) -> u128 {
    (a - b).unsigned_abs()
}
