//! Typed slices of unboxed array data, shared by the SOAC runners: a
//! read-only column of one element type ([`Slice`]: a register column of
//! the block interpreter, or an input array itself) and a mutable piece of
//! an output array ([`OutSlice`]) that chunks write their rows into.

use super::value::{ArrayVal, Data, Val};
use crate::ir::PrimValue;

macro_rules! col_cases {
    ($m:ident) => {
        $m!(I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, Bool)
    };
}

/// A typed view of a block's values: a register column or, for a
/// parameter, the input array itself (parameters are never copied).
#[derive(Clone, Copy, Debug)]
pub enum Slice<'a> {
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    U8(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
    F32(&'a [f32]),
    F64(&'a [f64]),
    Bool(&'a [bool]),
}

impl<'a> Slice<'a> {
    /// `data[from..from + len]`.
    pub(crate) fn of_data(data: &'a Data, from: usize, len: usize) -> Slice<'a> {
        macro_rules! of_data {
            ($($v:ident),*) => {
                match data {
                    $(Data::$v(d) => Slice::$v(&d[from..from + len]),)*
                }
            };
        }
        col_cases!(of_data)
    }

    /// `data[at..at + self.len()] = self` (same types; `data` updated in
    /// place when unshared).
    pub(crate) fn store_into(self, data: &mut Data, at: usize) {
        macro_rules! store_into {
            ($($v:ident),*) => {
                match (self, data) {
                    $((Slice::$v(c), Data::$v(d)) => {
                        std::sync::Arc::make_mut(d)[at..at + c.len()].copy_from_slice(c)
                    })*
                    _ => unreachable!("a store between arrays of different element types"),
                }
            };
        }
        col_cases!(store_into)
    }

    /// The first `len` values, copied.
    pub(crate) fn to_data(self, len: usize) -> Data {
        macro_rules! to_data {
            ($($v:ident),*) => {
                match self {
                    $(Slice::$v(c) => Data::$v(std::sync::Arc::new(c[..len].to_vec())),)*
                }
            };
        }
        col_cases!(to_data)
    }

    #[inline]
    pub(crate) fn get(&self, j: usize) -> PrimValue {
        macro_rules! get {
            ($($v:ident),*) => {
                match self {
                    $(Slice::$v(c) => PrimValue::$v(c[j]),)*
                }
            };
        }
        col_cases!(get)
    }
}

/// A mutable piece of an output array.
pub(crate) enum OutSlice<'a> {
    I8(&'a mut [i8]),
    I16(&'a mut [i16]),
    I32(&'a mut [i32]),
    I64(&'a mut [i64]),
    U8(&'a mut [u8]),
    U16(&'a mut [u16]),
    U32(&'a mut [u32]),
    U64(&'a mut [u64]),
    F32(&'a mut [f32]),
    F64(&'a mut [f64]),
    Bool(&'a mut [bool]),
}

macro_rules! out_slice_cases {
    ($m:ident) => {
        $m!(I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, Bool)
    };
}

impl<'a> OutSlice<'a> {
    /// Splits fresh output data into consecutive pieces of `lengths`.
    pub(crate) fn split(data: &'a mut Data, lengths: &[usize]) -> Vec<OutSlice<'a>> {
        macro_rules! split {
            ($($v:ident),*) => {
                match data {
                    $(Data::$v(arc) => {
                        let mut rest: &'a mut [_] = std::sync::Arc::get_mut(arc)
                            .expect("fresh output data is unshared")
                            .as_mut_slice();
                        let mut pieces = Vec::with_capacity(lengths.len());
                        for &n in lengths {
                            let (piece, tail) = rest.split_at_mut(n);
                            pieces.push(OutSlice::$v(piece));
                            rest = tail;
                        }
                        pieces
                    })*
                }
            };
        }
        out_slice_cases!(split)
    }

    /// Writes a row of `row_len` elements at row `j` of this piece.
    #[inline]
    pub(crate) fn write(&mut self, j: usize, row_len: usize, value: &Val) -> bool {
        macro_rules! write {
            ($($v:ident),*) => {
                match (self, value) {
                    $((OutSlice::$v(s), Val::Prim(PrimValue::$v(x))) if row_len == 1 => {
                        s[j] = *x;
                        true
                    })*
                    $((OutSlice::$v(s), Val::Array(ArrayVal { data: Data::$v(d), .. })) => {
                        s[j * row_len..(j + 1) * row_len].copy_from_slice(d);
                        true
                    })*
                    _ => false,
                }
            };
        }
        out_slice_cases!(write)
    }

    /// Stores the first `len` values of a column at `at..`.
    pub(crate) fn store_col(&mut self, col: Slice<'_>, at: usize, len: usize) {
        macro_rules! store {
            ($($v:ident),*) => {
                match (self, col) {
                    $((OutSlice::$v(s), Slice::$v(c)) => s[at..at + len].copy_from_slice(&c[..len]),)*
                    _ => unreachable!("a column of another type"),
                }
            };
        }
        out_slice_cases!(store)
    }

    /// The inverse of [`Data::transpose_block_from`] for rows
    /// `first_row ..` of `source`: `self[at + j * steps + t] =
    /// source[(first_row + t) * lanes + j]`.
    pub(crate) fn store_transposed(
        &mut self,
        at: usize,
        source: &Data,
        first_row: usize,
        lanes: usize,
        steps: usize,
    ) {
        macro_rules! store {
            ($($v:ident),*) => {
                match (self, source) {
                    $((OutSlice::$v(s), Data::$v(d)) => {
                        use super::value::TRANSPOSE_TILE;
                        let rows = &d[first_row * lanes..(first_row + steps) * lanes];
                        let s = &mut s[at..at + lanes * steps];
                        for j0 in (0..lanes).step_by(TRANSPOSE_TILE) {
                            for t0 in (0..steps).step_by(TRANSPOSE_TILE) {
                                for t in t0..(t0 + TRANSPOSE_TILE).min(steps) {
                                    for j in j0..(j0 + TRANSPOSE_TILE).min(lanes) {
                                        s[j * steps + t] = rows[t * lanes + j];
                                    }
                                }
                            }
                        }
                    })*
                    _ => unreachable!("a store between arrays of different element types"),
                }
            };
        }
        out_slice_cases!(store)
    }

    /// Copies row `i` of `source` (rows of `row_len`) to row `j` here.
    #[inline]
    pub(crate) fn copy_row(&mut self, j: usize, source: &Data, i: usize, row_len: usize) {
        macro_rules! copy {
            ($($v:ident),*) => {
                match (self, source) {
                    $((OutSlice::$v(s), Data::$v(d)) => s[j * row_len..(j + 1) * row_len]
                        .copy_from_slice(&d[i * row_len..(i + 1) * row_len]),)*
                    _ => unreachable!("copy between arrays of different element types"),
                }
            };
        }
        out_slice_cases!(copy)
    }
}
