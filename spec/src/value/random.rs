//! Deterministic pseudo-random values of a given type: the values of a
//! `random input { [1000]f32 i64 }` test case (`futhark test`/`futhark bench`,
//! whose generator is `futhark dataset`).
//!
//! Ranges follow `futhark dataset`'s defaults: integers uniform over their
//! type's full range, floats uniform in `[0, 1)`, booleans fair. Tuples and
//! records get a random value per component; a sum value picks one of its
//! constructors uniformly (a runestone extension: Futhark's format has no sums).
//!
//! The generator is SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): one `u64`
//! of state, so a seed fixes every value, on every platform, forever. Changing
//! this generator changes the inputs of every `random input` case; do not.

use super::array::shape_product;
use super::array::ArrayData;
use super::{Array, InvalidValue, PrimType, PrimValue, Value, ValueType};

/// The most scalars one call may generate (2^28, 1 GiB of `f32`): a guard
/// against a typo such as `[100000000000]f32` exhausting memory.
pub const MAX_RANDOM_SCALARS: usize = 1 << 28;

/// SplitMix64: a seeded stream of uniformly distributed `u64`s.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, 24 random bits.
    pub fn next_f32(&mut self) -> f32 {
        unit_f32(self.next_u64())
    }

    /// Uniform in `[0, 1)`, 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        unit_f64(self.next_u64())
    }

    /// Uniform in `0..n` (`n > 0`), by rejection so there is no modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// One random value per type, in order, from the stream seeded with `seed`.
pub fn random_values(types: &[ValueType], seed: u64) -> Result<Vec<Value>, InvalidValue> {
    let total = types.iter().try_fold(0usize, |sum, t| {
        scalar_count(t).and_then(|n| sum.checked_add(n))
    });
    match total {
        Some(n) if n <= MAX_RANDOM_SCALARS => {}
        _ => {
            return Err(InvalidValue::new(format!(
                "random input too large: at most {MAX_RANDOM_SCALARS} scalars can be generated"
            )))
        }
    }
    let mut rng = SplitMix64::new(seed);
    types.iter().map(|t| random_value(t, &mut rng)).collect()
}

/// How many primitive scalars a value of type `t` holds; `None` on overflow.
fn scalar_count(t: &ValueType) -> Option<usize> {
    match t {
        ValueType::Prim(_) => Some(1),
        ValueType::Array { shape, elem } => shape_product(shape)?.checked_mul(scalar_count(elem)?),
        ValueType::Tuple(ts) => ts
            .iter()
            .try_fold(0usize, |sum, t| sum.checked_add(scalar_count(t)?)),
        ValueType::Record(fields) => fields
            .iter()
            .try_fold(0usize, |sum, (_, t)| sum.checked_add(scalar_count(t)?)),
        ValueType::Sum(constructors) => constructors.iter().try_fold(1usize, |most, (_, ts)| {
            let here = ts
                .iter()
                .try_fold(0usize, |sum, t| sum.checked_add(scalar_count(t)?))?;
            Some(most.max(here))
        }),
    }
}

/// A random value of type `t`.
fn random_value(t: &ValueType, rng: &mut SplitMix64) -> Result<Value, InvalidValue> {
    match t {
        ValueType::Prim(p) => Ok(Value::Prim(random_prim(*p, rng))),
        ValueType::Array { shape, elem } => {
            let count = shape_product(shape)
                .ok_or_else(|| InvalidValue::new("random input: array too large"))?;
            let data = match &**elem {
                ValueType::Prim(p) => random_prim_data(*p, count, rng),
                boxed => ArrayData::Boxed {
                    elem: boxed.clone(),
                    elems: (0..count)
                        .map(|_| random_value(boxed, rng))
                        .collect::<Result<_, _>>()?,
                },
            };
            Ok(Value::Array(Array::new(shape.clone(), data)?))
        }
        ValueType::Tuple(ts) => Ok(Value::Tuple(
            ts.iter()
                .map(|t| random_value(t, rng))
                .collect::<Result<_, _>>()?,
        )),
        ValueType::Record(fields) => Value::record(
            fields
                .iter()
                .map(|(name, t)| Ok((name.clone(), random_value(t, rng)?)))
                .collect::<Result<_, InvalidValue>>()?,
        ),
        ValueType::Sum(constructors) => {
            let (name, payload) = &constructors[rng.below(constructors.len() as u64) as usize];
            let payload = payload
                .iter()
                .map(|t| random_value(t, rng))
                .collect::<Result<_, _>>()?;
            Value::sum(name.clone(), payload)
        }
    }
}

/// A random primitive: integers over the full range, floats in `[0, 1)`.
fn random_prim(t: PrimType, rng: &mut SplitMix64) -> PrimValue {
    let bits = rng.next_u64();
    match t {
        PrimType::I8 => PrimValue::from(bits as i8),
        PrimType::I16 => PrimValue::from(bits as i16),
        PrimType::I32 => PrimValue::from(bits as i32),
        PrimType::I64 => PrimValue::from(bits as i64),
        PrimType::U8 => PrimValue::from(bits as u8),
        PrimType::U16 => PrimValue::from(bits as u16),
        PrimType::U32 => PrimValue::from(bits as u32),
        PrimType::U64 => PrimValue::from(bits),
        PrimType::F32 => PrimValue::from(unit_f32(bits)),
        PrimType::F64 => PrimValue::from(unit_f64(bits)),
        PrimType::Bool => PrimValue::from(bits >> 63 == 1),
    }
}

/// `count` random primitives of type `t`, unboxed; the same values, in the
/// same order, as `count` calls of [`random_prim`].
fn random_prim_data(t: PrimType, count: usize, rng: &mut SplitMix64) -> ArrayData {
    fn fill<T>(count: usize, rng: &mut SplitMix64, f: impl Fn(u64) -> T) -> Vec<T> {
        (0..count).map(|_| f(rng.next_u64())).collect()
    }
    match t {
        PrimType::I8 => ArrayData::I8(fill(count, rng, |b| b as i8)),
        PrimType::I16 => ArrayData::I16(fill(count, rng, |b| b as i16)),
        PrimType::I32 => ArrayData::I32(fill(count, rng, |b| b as i32)),
        PrimType::I64 => ArrayData::I64(fill(count, rng, |b| b as i64)),
        PrimType::U8 => ArrayData::U8(fill(count, rng, |b| b as u8)),
        PrimType::U16 => ArrayData::U16(fill(count, rng, |b| b as u16)),
        PrimType::U32 => ArrayData::U32(fill(count, rng, |b| b as u32)),
        PrimType::U64 => ArrayData::U64(fill(count, rng, |b| b)),
        PrimType::F32 => ArrayData::F32(fill(count, rng, unit_f32)),
        PrimType::F64 => ArrayData::F64(fill(count, rng, unit_f64)),
        PrimType::Bool => ArrayData::Bool(fill(count, rng, |b| b >> 63 == 1)),
    }
}

/// The top 24 bits of `bits` as an `f32` in `[0, 1)` (exact: 24 bits fit).
pub fn unit_f32(bits: u64) -> f32 {
    (bits >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
}

/// The top 53 bits of `bits` as an `f64` in `[0, 1)` (exact: 53 bits fit).
pub fn unit_f64(bits: u64) -> f64 {
    (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}
