//! Regular arrays: a shape and the elements in row-major order.
//!
//! Arrays of primitives are stored unboxed, one typed `Vec` per primitive type
//! ([`ArrayData`]), because results may hold 2^26 elements. Arrays whose elements
//! are tuples, records or sums are stored boxed: the element type and a `Vec` of
//! element values. Either way the elements are the array's *scalars* (never
//! arrays), so an array of rank `r` is its `r` dimensions and `product(shape)`
//! elements.
//!
//! Invariants, established by [`Array::new`] (the one checked constructor every
//! other constructor goes through) and kept by the fields being private:
//! - the rank is at least 1 and the element count is the product of the shape;
//! - primitives are always unboxed; a boxed element type is a tuple, record or
//!   sum type, and every boxed element has that type (a sum element may use only
//!   some of the type's constructors).

use super::{InvalidValue, PrimType, PrimValue, Value, ValueType};

/// The elements of an array, row-major.
#[derive(Clone, Debug)]
pub enum ArrayData {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
    /// Tuples, records or sums, each of type `elem`.
    Boxed {
        elem: ValueType,
        elems: Vec<Value>,
    },
}

/// Applies `$body` to the typed vector of every unboxed variant, binding it to
/// `$v`; `$boxed` handles the boxed variant (binding `$elem`, `$elems`).
macro_rules! dispatch {
    ($data:expr, $v:ident => $body:expr, $elem:ident, $elems:ident => $boxed:expr) => {
        match $data {
            ArrayData::I8($v) => $body,
            ArrayData::I16($v) => $body,
            ArrayData::I32($v) => $body,
            ArrayData::I64($v) => $body,
            ArrayData::U8($v) => $body,
            ArrayData::U16($v) => $body,
            ArrayData::U32($v) => $body,
            ArrayData::U64($v) => $body,
            ArrayData::F32($v) => $body,
            ArrayData::F64($v) => $body,
            ArrayData::Bool($v) => $body,
            ArrayData::Boxed {
                elem: $elem,
                elems: $elems,
            } => $boxed,
        }
    };
}
pub(crate) use dispatch;

/// Rebuilds the same variant around a new vector produced by `$body`.
macro_rules! map_same {
    ($data:expr, $v:ident => $body:expr, $elem:ident, $elems:ident => $boxed:expr) => {
        match $data {
            ArrayData::I8($v) => ArrayData::I8($body),
            ArrayData::I16($v) => ArrayData::I16($body),
            ArrayData::I32($v) => ArrayData::I32($body),
            ArrayData::I64($v) => ArrayData::I64($body),
            ArrayData::U8($v) => ArrayData::U8($body),
            ArrayData::U16($v) => ArrayData::U16($body),
            ArrayData::U32($v) => ArrayData::U32($body),
            ArrayData::U64($v) => ArrayData::U64($body),
            ArrayData::F32($v) => ArrayData::F32($body),
            ArrayData::F64($v) => ArrayData::F64($body),
            ArrayData::Bool($v) => ArrayData::Bool($body),
            ArrayData::Boxed {
                elem: $elem,
                elems: $elems,
            } => $boxed,
        }
    };
}

impl ArrayData {
    /// No elements, of element type `elem` (a non-array type).
    pub fn empty(elem: &ValueType) -> ArrayData {
        match elem {
            ValueType::Prim(t) => ArrayData::empty_prim(*t),
            _ => ArrayData::Boxed {
                elem: elem.clone(),
                elems: Vec::new(),
            },
        }
    }

    /// No elements of primitive type `t`.
    pub fn empty_prim(t: PrimType) -> ArrayData {
        match t {
            PrimType::I8 => ArrayData::I8(Vec::new()),
            PrimType::I16 => ArrayData::I16(Vec::new()),
            PrimType::I32 => ArrayData::I32(Vec::new()),
            PrimType::I64 => ArrayData::I64(Vec::new()),
            PrimType::U8 => ArrayData::U8(Vec::new()),
            PrimType::U16 => ArrayData::U16(Vec::new()),
            PrimType::U32 => ArrayData::U32(Vec::new()),
            PrimType::U64 => ArrayData::U64(Vec::new()),
            PrimType::F32 => ArrayData::F32(Vec::new()),
            PrimType::F64 => ArrayData::F64(Vec::new()),
            PrimType::Bool => ArrayData::Bool(Vec::new()),
        }
    }

    /// Data of primitive type `t` holding `values`; fails if one is of another
    /// type.
    pub fn from_prims(
        t: PrimType,
        values: impl IntoIterator<Item = PrimValue>,
    ) -> Result<ArrayData, InvalidValue> {
        let mut data = ArrayData::empty_prim(t);
        for v in values {
            data.push_prim(v).map_err(|(expected, found)| {
                InvalidValue::new(format!("a {found} among elements of type {expected}"))
            })?;
        }
        Ok(data)
    }

    pub fn len(&self) -> usize {
        dispatch!(self, v => v.len(), _e, elems => elems.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The type of one element (never an array type).
    pub fn elem_type(&self) -> ValueType {
        match self {
            ArrayData::Boxed { elem, .. } => elem.clone(),
            _ => ValueType::Prim(self.prim_type().expect("unboxed")),
        }
    }

    /// The element type of unboxed data; `None` for boxed data.
    pub fn prim_type(&self) -> Option<PrimType> {
        Some(match self {
            ArrayData::I8(_) => PrimType::I8,
            ArrayData::I16(_) => PrimType::I16,
            ArrayData::I32(_) => PrimType::I32,
            ArrayData::I64(_) => PrimType::I64,
            ArrayData::U8(_) => PrimType::U8,
            ArrayData::U16(_) => PrimType::U16,
            ArrayData::U32(_) => PrimType::U32,
            ArrayData::U64(_) => PrimType::U64,
            ArrayData::F32(_) => PrimType::F32,
            ArrayData::F64(_) => PrimType::F64,
            ArrayData::Bool(_) => PrimType::Bool,
            ArrayData::Boxed { .. } => return None,
        })
    }

    /// Element `i` (row-major) as a value.
    pub fn get(&self, i: usize) -> Option<Value> {
        dispatch!(self, v => v.get(i).map(|x| Value::Prim(PrimValue::from(*x))),
                  _e, elems => elems.get(i).cloned())
    }

    /// The typed elements, if this data holds `T`s: `data.as_slice::<f32>()`.
    pub fn as_slice<T: Element>(&self) -> Option<&[T]> {
        T::slice(self)
    }

    /// Elements `range`, as data of the same type.
    fn slice(&self, range: std::ops::Range<usize>) -> ArrayData {
        map_same!(self, v => v[range].to_vec(), elem, elems => ArrayData::Boxed {
            elem: elem.clone(),
            elems: elems[range].to_vec(),
        })
    }

    /// Appends `other`'s elements. Fails, changing nothing, when the element
    /// types differ (boxed element types are joined: see [`ValueType::join`]).
    fn append(&mut self, other: ArrayData) -> Result<(), (ValueType, ValueType)> {
        macro_rules! same {
            ($($variant:ident),*) => {
                match (self, other) {
                    $((ArrayData::$variant(a), ArrayData::$variant(b)) => {
                        a.extend(b);
                        Ok(())
                    })*
                    (
                        ArrayData::Boxed { elem, elems },
                        ArrayData::Boxed { elem: elem2, elems: elems2 },
                    ) => match elem.join(&elem2) {
                        Some(joined) => {
                            *elem = joined;
                            elems.extend(elems2);
                            Ok(())
                        }
                        None => Err((elem.clone(), elem2)),
                    },
                    (this, other) => Err((this.elem_type(), other.elem_type())),
                }
            };
        }
        same!(I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, Bool)
    }

    /// Appends one primitive; fails when its type is not the element type.
    fn push_prim(&mut self, p: PrimValue) -> Result<(), (ValueType, ValueType)> {
        match (self, p) {
            (ArrayData::I8(v), PrimValue::I8(x)) => v.push(x),
            (ArrayData::I16(v), PrimValue::I16(x)) => v.push(x),
            (ArrayData::I32(v), PrimValue::I32(x)) => v.push(x),
            (ArrayData::I64(v), PrimValue::I64(x)) => v.push(x),
            (ArrayData::U8(v), PrimValue::U8(x)) => v.push(x),
            (ArrayData::U16(v), PrimValue::U16(x)) => v.push(x),
            (ArrayData::U32(v), PrimValue::U32(x)) => v.push(x),
            (ArrayData::U64(v), PrimValue::U64(x)) => v.push(x),
            (ArrayData::F32(v), PrimValue::F32(x)) => v.push(x),
            (ArrayData::F64(v), PrimValue::F64(x)) => v.push(x),
            (ArrayData::Bool(v), PrimValue::Bool(x)) => v.push(x),
            (this, p) => return Err((this.elem_type(), ValueType::Prim(p.prim_type()))),
        }
        Ok(())
    }
}

/// Identity, as for [`PrimValue`]: floats compare by bits.
impl PartialEq for ArrayData {
    fn eq(&self, other: &Self) -> bool {
        fn bits_eq<T: Copy, B: PartialEq>(a: &[T], b: &[T], bits: impl Fn(T) -> B) -> bool {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bits(*x) == bits(*y))
        }
        use ArrayData::*;
        match (self, other) {
            (F32(a), F32(b)) => bits_eq(a, b, f32::to_bits),
            (F64(a), F64(b)) => bits_eq(a, b, f64::to_bits),
            (I8(a), I8(b)) => a == b,
            (I16(a), I16(b)) => a == b,
            (I32(a), I32(b)) => a == b,
            (I64(a), I64(b)) => a == b,
            (U8(a), U8(b)) => a == b,
            (U16(a), U16(b)) => a == b,
            (U32(a), U32(b)) => a == b,
            (U64(a), U64(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (
                Boxed { elem, elems },
                Boxed {
                    elem: elem2,
                    elems: elems2,
                },
            ) => elem == elem2 && elems == elems2,
            _ => false,
        }
    }
}
impl Eq for ArrayData {}

/// A primitive Rust type that arrays store unboxed.
pub trait Element: Copy + Into<PrimValue> {
    /// Wraps a vector as array data.
    fn wrap(v: Vec<Self>) -> ArrayData;
    /// The typed elements, if `data` holds this type.
    fn slice(data: &ArrayData) -> Option<&[Self]>;
}

macro_rules! element {
    ($($variant:ident($ty:ty)),*) => {$(
        impl Element for $ty {
            fn wrap(v: Vec<$ty>) -> ArrayData {
                ArrayData::$variant(v)
            }
            fn slice(data: &ArrayData) -> Option<&[$ty]> {
                match data {
                    ArrayData::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    )*};
}
element!(
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Bool(bool)
);

/// A regular array of rank ≥ 1: see the module documentation for its invariants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    shape: Vec<usize>,
    data: ArrayData,
}

/// The number of elements of `shape`, or `None` if it overflows `usize`
/// (a shape with a zero dimension has zero elements, whatever the others).
pub fn shape_product(shape: &[usize]) -> Option<usize> {
    if shape.contains(&0) {
        return Some(0);
    }
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// `[2][0]`: a shape as Futhark writes it in types.
pub fn shape_to_string(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

impl Array {
    /// The checked constructor: `shape` (rank ≥ 1) must hold exactly
    /// `data.len()` elements, and boxed data must be well-typed.
    pub fn new(shape: Vec<usize>, data: ArrayData) -> Result<Array, InvalidValue> {
        if shape.is_empty() {
            return Err(InvalidValue::new("an array has at least one dimension"));
        }
        let count = shape_product(&shape).ok_or_else(|| {
            InvalidValue::new(format!(
                "the shape {} has too many elements",
                shape_to_string(&shape)
            ))
        })?;
        if count != data.len() {
            return Err(InvalidValue::new(format!(
                "the shape {} has {count} elements but {} were given",
                shape_to_string(&shape),
                data.len()
            )));
        }
        if let ArrayData::Boxed { elem, elems } = &data {
            match elem {
                ValueType::Prim(_) => {
                    return Err(InvalidValue::new(
                        "arrays of primitives are stored unboxed, not as boxed values",
                    ))
                }
                ValueType::Array { .. } => {
                    return Err(InvalidValue::new(
                        "a boxed element type is never an array: put its dimensions in the shape",
                    ))
                }
                _ => {}
            }
            if let Some(bad) = elems.iter().find(|v| !v.value_type().fits(elem)) {
                return Err(InvalidValue::new(format!(
                    "an element of type {} is not of the element type {elem}",
                    bad.value_type()
                )));
            }
        }
        Ok(Array { shape, data })
    }

    /// A one-dimensional array of primitives.
    pub fn from_vec<T: Element>(v: Vec<T>) -> Array {
        Array {
            shape: vec![v.len()],
            data: T::wrap(v),
        }
    }

    /// An array of primitives of the given shape, elements row-major.
    pub fn from_shape_vec<T: Element>(shape: Vec<usize>, v: Vec<T>) -> Result<Array, InvalidValue> {
        Array::new(shape, T::wrap(v))
    }

    /// An array with no elements: some dimension of `shape` must be zero.
    /// An array element type contributes its dimensions to the shape.
    pub fn empty(mut shape: Vec<usize>, elem: ValueType) -> Result<Array, InvalidValue> {
        let elem = match elem {
            ValueType::Array { shape: inner, elem } => {
                shape.extend(inner);
                *elem
            }
            elem => elem,
        };
        if !shape.contains(&0) {
            return Err(InvalidValue::new(format!(
                "an empty array needs a zero dimension, but {} has {} elements",
                shape_to_string(&shape),
                shape_product(&shape).map_or("too many".to_string(), |n| n.to_string()),
            )));
        }
        Array::new(shape, ArrayData::empty(&elem))
    }

    /// The array whose rows are `rows` (all of the same type and shape; at least
    /// one, since an empty list has no element type: use [`Array::empty`]).
    pub fn from_rows(rows: impl IntoIterator<Item = Value>) -> Result<Array, InvalidValue> {
        let mut builder = ArrayBuilder::new();
        for row in rows {
            builder.push_row(row)?;
        }
        builder.finish()
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The outer dimension: the number of rows.
    pub fn len(&self) -> usize {
        self.shape[0]
    }

    /// Whether the array has no elements (some dimension is zero).
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn data(&self) -> &ArrayData {
        &self.data
    }

    pub fn into_parts(self) -> (Vec<usize>, ArrayData) {
        (self.shape, self.data)
    }

    /// The type of the array's scalars (never an array type).
    pub fn elem_type(&self) -> ValueType {
        self.data.elem_type()
    }

    /// Row `i`: an element for rank 1, a sub-array otherwise.
    pub fn row(&self, i: usize) -> Option<Value> {
        if i >= self.shape[0] {
            return None;
        }
        if self.rank() == 1 {
            return self.data.get(i);
        }
        let inner = self.shape[1..].to_vec();
        let size = self.data.len() / self.shape[0];
        let data = self.data.slice(i * size..(i + 1) * size);
        Some(Value::Array(Array { shape: inner, data }))
    }

    /// The rows, in order.
    pub fn rows(&self) -> impl Iterator<Item = Value> + '_ {
        (0..self.len()).filter_map(move |i| self.row(i))
    }
}

/// Builds an array row by row, checking that rows agree in type and shape.
/// Primitive rows are appended unboxed.
#[derive(Debug, Default)]
pub struct ArrayBuilder {
    rows: usize,
    row_shape: Vec<usize>,
    data: Option<ArrayData>,
}

impl ArrayBuilder {
    pub fn new() -> ArrayBuilder {
        ArrayBuilder::default()
    }

    /// Appends one row; on error the builder is unchanged.
    pub fn push_row(&mut self, row: Value) -> Result<(), InvalidValue> {
        let row_type = |shape: &[usize], elem: ValueType| {
            if shape.is_empty() {
                elem
            } else {
                ValueType::Array {
                    shape: shape.to_vec(),
                    elem: Box::new(elem),
                }
            }
        };
        let mismatch = |this: &ArrayBuilder, (expected, found): (ValueType, ValueType)| {
            InvalidValue::new(format!(
                "array elements differ in type: earlier elements are {}, this one is {}",
                row_type(&this.row_shape, expected),
                row_type(&this.row_shape, found)
            ))
        };
        let (shape, new_data) = match row {
            Value::Prim(p) => {
                if let (Some(data), true) = (&mut self.data, self.row_shape.is_empty()) {
                    let result = data.push_prim(p);
                    result.map_err(|e| mismatch(self, e))?;
                    self.rows += 1;
                    return Ok(());
                }
                let mut data = ArrayData::empty_prim(p.prim_type());
                data.push_prim(p).expect("same type");
                (Vec::new(), data)
            }
            Value::Array(a) => (a.shape, a.data),
            other => {
                let elem = other.value_type();
                (
                    Vec::new(),
                    ArrayData::Boxed {
                        elem,
                        elems: vec![other],
                    },
                )
            }
        };
        match &mut self.data {
            None => {
                self.row_shape = shape;
                self.data = Some(new_data);
            }
            Some(data) => {
                if shape.len() != self.row_shape.len() {
                    return Err(InvalidValue::new(format!(
                        "array elements differ in type: earlier elements are {}, this one is {}",
                        row_type(&self.row_shape, data.elem_type()),
                        row_type(&shape, new_data.elem_type())
                    )));
                }
                if shape != self.row_shape {
                    return Err(InvalidValue::new(format!(
                        "irregular array: earlier elements have shape {}, this one has shape {}",
                        shape_to_string(&self.row_shape),
                        shape_to_string(&shape)
                    )));
                }
                let result = data.append(new_data);
                result.map_err(|e| mismatch(self, e))?;
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// The array of the rows pushed so far; an error if there were none.
    pub fn finish(self) -> Result<Array, InvalidValue> {
        let data = self.data.ok_or_else(|| {
            InvalidValue::new("an array literal needs at least one element; write an empty array as `empty([0]i32)`")
        })?;
        let mut shape = vec![self.rows];
        shape.extend(self.row_shape);
        Array::new(shape, data)
    }
}
