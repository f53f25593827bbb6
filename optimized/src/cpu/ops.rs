//! The sequential array operations of the CPU backend: indexing, slicing,
//! in-place update, `iota`, `replicate`, literals, `concat`, `rearrange`,
//! `reshape`, `reverse`, `rotate`, `copy`.
//!
//! Errors are messages (the caller adds the statement's span); their texts
//! are the reference interpreter's where it has the same error
//! (`Index [i] out of bounds for array of shape [n].`, ...), so that `-- ==`
//! `error:` regexes match both.

use std::sync::Arc;

use super::prim;
use super::value::{with_data, ArrayVal, Data, Elem, Val};
use crate::ir::{PrimType, PrimValue};

pub type OpResult<T> = Result<T, String>;

/// One dimension of a run-time slice.
#[derive(Clone, Copy, Debug)]
pub enum SliceDim {
    Fix(i64),
    Range {
        start: i64,
        length: i64,
        stride: i64,
    },
}

fn shape_text(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

fn check_index(i: i64, n: usize) -> OpResult<usize> {
    if 0 <= i && (i as u64) < n as u64 {
        Ok(i as usize)
    } else {
        Err(format!(
            "Index [{i}] out of bounds for array of shape [{n}]."
        ))
    }
}

/// The flat offset and inner shape of `array[indices]`.
fn locate(array: &ArrayVal, indices: &[i64]) -> OpResult<(usize, Vec<usize>)> {
    let mut offset = 0usize;
    for (k, &i) in indices.iter().enumerate() {
        let i = check_index(i, array.shape[k])?;
        offset = offset * array.shape[k] + i;
    }
    let inner = array.shape[indices.len()..].to_vec();
    let row_len: usize = inner.iter().product();
    Ok((offset * row_len, inner))
}

/// `array[i1, …, ik]`.
pub fn index(array: &ArrayVal, indices: &[i64]) -> OpResult<Val> {
    let (offset, inner) = locate(array, indices)?;
    if inner.is_empty() {
        Ok(Val::Prim(array.data.get(offset)))
    } else {
        let n: usize = inner.iter().product();
        Ok(Val::Array(ArrayVal {
            shape: inner,
            data: array.data.slice(offset..offset + n),
        }))
    }
}

/// `array with [i1, …, ik] = value`, in place when `array` is not shared.
pub fn update(mut array: ArrayVal, indices: &[i64], value: &Val) -> OpResult<ArrayVal> {
    let (offset, inner) = locate(&array, indices)?;
    write_at(&mut array.data, offset, &inner, value)?;
    Ok(array)
}

/// Writes `value` (of shape `shape`) at flat `offset`.
pub fn write_at(data: &mut Data, offset: usize, shape: &[usize], value: &Val) -> OpResult<()> {
    match value {
        Val::Prim(p) if shape.is_empty() => {
            data.set(offset, *p);
            Ok(())
        }
        Val::Array(v) if v.shape == shape => {
            data.copy_within_from(offset, &v.data, 0, v.data.len());
            Ok(())
        }
        _ => Err(format!(
            "The value of shape {} does not fit the place of shape {}.",
            shape_text(value.shape()),
            shape_text(shape)
        )),
    }
}

/// `array[s1, …, sk]`.
pub fn slice(array: &ArrayVal, dims: &[SliceDim]) -> OpResult<Val> {
    // For each sliced dimension, the list of indices it keeps.
    let mut kept: Vec<Vec<usize>> = Vec::with_capacity(dims.len());
    let mut shape = Vec::new();
    for (k, d) in dims.iter().enumerate() {
        let n = array.shape[k];
        match *d {
            SliceDim::Fix(i) => kept.push(vec![check_index(i, n)?]),
            SliceDim::Range {
                start,
                length,
                stride,
            } => {
                let last = start.wrapping_add(length.wrapping_sub(1).wrapping_mul(stride));
                let ok = length == 0 && (0..=n as i64).contains(&start)
                    || length > 0
                        && (0..n as i64).contains(&start)
                        && (0..n as i64).contains(&last);
                if !ok || length < 0 {
                    let end = start.wrapping_add(length.wrapping_mul(stride));
                    return Err(format!(
                        "Index [{start}:{end}:{stride}] out of bounds for array of shape [{n}]."
                    ));
                }
                kept.push((0..length).map(|j| (start + j * stride) as usize).collect());
                shape.push(length as usize);
            }
        }
    }
    let inner = &array.shape[dims.len()..];
    let row_len: usize = inner.iter().product();
    shape.extend_from_slice(inner);
    // Row-major enumeration of the kept index tuples.
    let mut offsets = vec![0usize];
    for (k, indices) in kept.iter().enumerate() {
        let n = array.shape[k];
        offsets = offsets
            .iter()
            .flat_map(|&o| indices.iter().map(move |&i| o * n + i))
            .collect();
    }
    let data = array.data.gather(
        offsets
            .iter()
            .flat_map(|&o| (o * row_len)..(o * row_len + row_len)),
    );
    if shape.is_empty() {
        Ok(Val::Prim(data.get(0)))
    } else {
        Ok(Val::Array(ArrayVal { shape, data }))
    }
}

/// `[start, start + step, …]` (`length` elements of type `ty`).
pub fn iota(length: i64, start: PrimValue, step: PrimValue, ty: PrimType) -> OpResult<ArrayVal> {
    if length < 0 {
        return Err(format!("Range 0..1..<{length} is invalid."));
    }
    let start = prim::as_i64(start).unwrap_or(0);
    let step = prim::as_i64(step).unwrap_or(1);
    let n = length as usize;
    let data = match ty {
        PrimType::I64 => Elem::into_data(
            (0..n as i64)
                .map(|i| start.wrapping_add(i.wrapping_mul(step)))
                .collect::<Vec<i64>>(),
        ),
        PrimType::I32 => Elem::into_data(
            (0..n as i64)
                .map(|i| start.wrapping_add(i.wrapping_mul(step)) as i32)
                .collect::<Vec<i32>>(),
        ),
        _ => {
            let mut data = Data::zeros(ty, n);
            for i in 0..n {
                let v = start.wrapping_add((i as i64).wrapping_mul(step));
                data.set(i, prim::from_i64(v, ty));
            }
            data
        }
    };
    Ok(ArrayVal {
        shape: vec![n],
        data,
    })
}

/// `shape` copies of `value`.
pub fn replicate(shape: &[i64], value: &Val) -> OpResult<ArrayVal> {
    let mut dims = Vec::with_capacity(shape.len());
    for &d in shape {
        if d < 0 {
            return Err(format!(
                "Cannot replicate a negative number ({d}) of times."
            ));
        }
        dims.push(d as usize);
    }
    let copies: usize = dims.iter().product();
    let data = match value {
        Val::Prim(p) => Data::filled(*p, copies),
        Val::Array(a) => {
            with_data!(&a.data, v => {
                let mut out = Vec::with_capacity(copies * v.len());
                for _ in 0..copies {
                    out.extend_from_slice(v);
                }
                Elem::into_data(out)
            })
        }
    };
    dims.extend_from_slice(value.shape());
    Ok(ArrayVal { shape: dims, data })
}

/// `[e1, …, en]` with rows of shape `row_shape`.
pub fn array_literal(elements: &[Val], row_shape: &[usize], ty: PrimType) -> OpResult<ArrayVal> {
    let row_len: usize = row_shape.iter().product();
    let mut data = Data::zeros(ty, elements.len() * row_len);
    for (i, e) in elements.iter().enumerate() {
        write_at(&mut data, i * row_len, row_shape, e)?;
    }
    let mut shape = vec![elements.len()];
    shape.extend_from_slice(row_shape);
    Ok(ArrayVal { shape, data })
}

/// The arrays one after the other; the result has `length` rows.
pub fn concat(arrays: &[&ArrayVal], length: i64) -> OpResult<ArrayVal> {
    let first = arrays[0];
    let total: usize = arrays.iter().map(|a| a.len()).sum();
    for a in arrays {
        if a.shape[1..] != first.shape[1..] {
            return Err(format!(
                "Cannot concatenate arrays of shapes {} and {}.",
                shape_text(&first.shape),
                shape_text(&a.shape)
            ));
        }
    }
    if total as i64 != length {
        return Err(format!(
            "The concatenation has {total} rows, not the expected {length}."
        ));
    }
    let data = Data::concat(arrays.iter().map(|a| &a.data), first.data.prim_type());
    let mut shape = first.shape.clone();
    shape[0] = total;
    Ok(ArrayVal { shape, data })
}

/// Dimension `i` of the result is dimension `permutation[i]` of `array`.
pub fn rearrange(array: &ArrayVal, permutation: &[usize]) -> ArrayVal {
    let rank = array.shape.len();
    let shape: Vec<usize> = permutation.iter().map(|&p| array.shape[p]).collect();
    // Strides of the source, per source dimension.
    let mut strides = vec![1usize; rank];
    for k in (0..rank.saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * array.shape[k + 1];
    }
    let permuted_strides: Vec<usize> = permutation.iter().map(|&p| strides[p]).collect();
    let total: usize = shape.iter().product();
    let mut counter = vec![0usize; rank];
    let mut sources = Vec::with_capacity(total);
    for _ in 0..total {
        sources.push(
            counter
                .iter()
                .zip(&permuted_strides)
                .map(|(c, s)| c * s)
                .sum(),
        );
        for k in (0..rank).rev() {
            counter[k] += 1;
            if counter[k] < shape[k] {
                break;
            }
            counter[k] = 0;
        }
    }
    ArrayVal {
        shape,
        data: array.data.gather(sources.into_iter()),
    }
}

/// The same elements under `shape`.
pub fn reshape(array: &ArrayVal, shape: &[i64]) -> OpResult<ArrayVal> {
    let dims: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
    if shape.iter().any(|&d| d < 0) || dims.iter().product::<usize>() != array.data.len() {
        return Err(format!(
            "Cannot reshape array of shape {} to array of shape {}.",
            shape_text(&array.shape),
            shape.iter().map(|d| format!("[{d}]")).collect::<String>()
        ));
    }
    Ok(ArrayVal {
        shape: dims,
        data: array.data.clone(),
    })
}

/// The rows in reverse order.
pub fn reverse(array: &ArrayVal) -> ArrayVal {
    let n = array.len();
    let row_len = array.row_len();
    let data = array.data.gather(
        (0..n)
            .rev()
            .flat_map(|i| (i * row_len)..(i * row_len + row_len)),
    );
    ArrayVal {
        shape: array.shape.clone(),
        data,
    }
}

/// Row `i` of the result is row `(i + amount) mod n`.
pub fn rotate(array: &ArrayVal, amount: i64) -> ArrayVal {
    let n = array.len();
    if n == 0 {
        return array.clone();
    }
    let shift = amount.rem_euclid(n as i64) as usize;
    let row_len = array.row_len();
    let data = array.data.gather(
        (0..n)
            .map(|i| (i + shift) % n)
            .flat_map(|i| (i * row_len)..(i * row_len + row_len)),
    );
    ArrayVal {
        shape: array.shape.clone(),
        data,
    }
}

/// A copy sharing nothing.
pub fn copy(array: &ArrayVal) -> ArrayVal {
    ArrayVal {
        shape: array.shape.clone(),
        data: array.data.deep_copy(),
    }
}

/// Makes the array's elements unshared (for an update in place).
pub fn make_unique(array: &mut ArrayVal) {
    with_data!(&mut array.data, v => {
        Arc::make_mut(v);
    })
}
