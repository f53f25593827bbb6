//! Run-time values of the CPU backend, and their conversion from and to
//! observable values (`spec::value::Value`) through an entry point's
//! [`Layout`].
//!
//! A value is a primitive or a regular array of primitives ([`Val`]). Array
//! elements are stored unboxed in one typed vector per primitive type
//! ([`Data`]), row-major, behind an `Arc`: copying a value shares its
//! elements, and an in-place update (`Arc::make_mut`) copies them only when
//! they are shared (copy-on-write).

use std::sync::Arc;

use spec::value::{Array, ArrayData, Value, ValueType};

use super::prim;
use crate::ir::{Layout, PrimType, PrimValue, SUM_TAG_TYPE};

/// The elements of an array, row-major, one variant per primitive type.
#[derive(Clone, Debug)]
pub enum Data {
    I8(Arc<Vec<i8>>),
    I16(Arc<Vec<i16>>),
    I32(Arc<Vec<i32>>),
    I64(Arc<Vec<i64>>),
    U8(Arc<Vec<u8>>),
    U16(Arc<Vec<u16>>),
    U32(Arc<Vec<u32>>),
    U64(Arc<Vec<u64>>),
    F32(Arc<Vec<f32>>),
    F64(Arc<Vec<f64>>),
    Bool(Arc<Vec<bool>>),
}

/// Applies `$body` to the typed `Arc<Vec<T>>` of any variant, bound to `$v`.
macro_rules! with_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::I8($v) => $body,
            Data::I16($v) => $body,
            Data::I32($v) => $body,
            Data::I64($v) => $body,
            Data::U8($v) => $body,
            Data::U16($v) => $body,
            Data::U32($v) => $body,
            Data::U64($v) => $body,
            Data::F32($v) => $body,
            Data::F64($v) => $body,
            Data::Bool($v) => $body,
        }
    };
}
pub(crate) use with_data;

/// Applies `$body` to two data of the same variant (`$a`, `$b`); `$other`
/// when the variants differ.
macro_rules! with_data2 {
    ($x:expr, $y:expr, $a:ident, $b:ident => $body:expr, $other:expr) => {
        match ($x, $y) {
            (Data::I8($a), Data::I8($b)) => $body,
            (Data::I16($a), Data::I16($b)) => $body,
            (Data::I32($a), Data::I32($b)) => $body,
            (Data::I64($a), Data::I64($b)) => $body,
            (Data::U8($a), Data::U8($b)) => $body,
            (Data::U16($a), Data::U16($b)) => $body,
            (Data::U32($a), Data::U32($b)) => $body,
            (Data::U64($a), Data::U64($b)) => $body,
            (Data::F32($a), Data::F32($b)) => $body,
            (Data::F64($a), Data::F64($b)) => $body,
            (Data::Bool($a), Data::Bool($b)) => $body,
            _ => $other,
        }
    };
}

/// The side of the square tiles a block transpose moves at a time.
pub(crate) const TRANSPOSE_TILE: usize = 16;

/// A primitive element type of [`Data`].
pub trait Elem: Copy + Default + Send + Sync + 'static {
    fn to_prim(self) -> PrimValue;
    fn from_prim(p: PrimValue) -> Option<Self>;
    fn into_data(v: Vec<Self>) -> Data;
}

macro_rules! elem {
    ($($variant:ident($ty:ty)),*) => {$(
        impl Elem for $ty {
            fn to_prim(self) -> PrimValue {
                PrimValue::$variant(self)
            }
            fn from_prim(p: PrimValue) -> Option<$ty> {
                match p {
                    PrimValue::$variant(x) => Some(x),
                    _ => None,
                }
            }
            fn into_data(v: Vec<$ty>) -> Data {
                Data::$variant(Arc::new(v))
            }
        }
    )*};
}
elem!(
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

impl Data {
    pub fn len(&self) -> usize {
        with_data!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn prim_type(&self) -> PrimType {
        match self {
            Data::I8(_) => PrimType::I8,
            Data::I16(_) => PrimType::I16,
            Data::I32(_) => PrimType::I32,
            Data::I64(_) => PrimType::I64,
            Data::U8(_) => PrimType::U8,
            Data::U16(_) => PrimType::U16,
            Data::U32(_) => PrimType::U32,
            Data::U64(_) => PrimType::U64,
            Data::F32(_) => PrimType::F32,
            Data::F64(_) => PrimType::F64,
            Data::Bool(_) => PrimType::Bool,
        }
    }

    /// `n` copies of `value`.
    pub fn filled(value: PrimValue, n: usize) -> Data {
        match value {
            PrimValue::I8(x) => Elem::into_data(vec![x; n]),
            PrimValue::I16(x) => Elem::into_data(vec![x; n]),
            PrimValue::I32(x) => Elem::into_data(vec![x; n]),
            PrimValue::I64(x) => Elem::into_data(vec![x; n]),
            PrimValue::U8(x) => Elem::into_data(vec![x; n]),
            PrimValue::U16(x) => Elem::into_data(vec![x; n]),
            PrimValue::U32(x) => Elem::into_data(vec![x; n]),
            PrimValue::U64(x) => Elem::into_data(vec![x; n]),
            PrimValue::F32(x) => Elem::into_data(vec![x; n]),
            PrimValue::F64(x) => Elem::into_data(vec![x; n]),
            PrimValue::Bool(x) => Elem::into_data(vec![x; n]),
        }
    }

    /// `n` zeros of type `ty`.
    pub fn zeros(ty: PrimType, n: usize) -> Data {
        Data::filled(prim::zero(ty), n)
    }

    /// Element `i`.
    pub fn get(&self, i: usize) -> PrimValue {
        with_data!(self, v => v[i].to_prim())
    }

    /// Elements `range`, copied.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Data {
        with_data!(self, v => Elem::into_data(v[range].to_vec()))
    }

    /// The elements at `indices`, in order.
    pub fn gather(&self, indices: impl Iterator<Item = usize>) -> Data {
        with_data!(self, v => Elem::into_data(indices.map(|i| v[i]).collect()))
    }

    /// A copy that shares nothing with `self`.
    pub fn deep_copy(&self) -> Data {
        with_data!(self, v => Elem::into_data(v.as_ref().clone()))
    }

    /// `self` followed by every one of `others` (all of the same type).
    pub fn concat<'a>(parts: impl Iterator<Item = &'a Data>, ty: PrimType) -> Data {
        let mut result = Data::zeros(ty, 0);
        for part in parts {
            with_data2!(&mut result, part, r, p => Arc::make_mut(r).extend_from_slice(p), ())
        }
        result
    }

    /// Copies `source[from..from + n]` to `self[to..to + n]` (same types).
    pub fn copy_within_from(&mut self, to: usize, source: &Data, from: usize, n: usize) {
        with_data2!(self, source, d, s => {
            Arc::make_mut(d)[to..to + n].copy_from_slice(&s[from..from + n])
        }, panic!("copy between arrays of different element types"))
    }

    /// Lays `source[start .. start + lanes * steps]` out transposed in
    /// `self[.. lanes * steps]` (same types): lane `j` owns the `steps`
    /// elements from `start + j * steps`, and `self[t * lanes + j]` is its
    /// `t`th. `self` is updated in place when unshared.
    pub fn transpose_block_from(
        &mut self,
        source: &Data,
        start: usize,
        lanes: usize,
        steps: usize,
    ) {
        with_data2!(self, source, d, s => {
            let d = Arc::make_mut(d);
            let s = &s[start..start + lanes * steps];
            // In tiles, so that both sides stay in the first-level cache.
            for j0 in (0..lanes).step_by(TRANSPOSE_TILE) {
                for t0 in (0..steps).step_by(TRANSPOSE_TILE) {
                    // Rows outermost: a lane's next row is `lanes` elements
                    // away, a stride that maps every store to one cache set.
                    for t in t0..(t0 + TRANSPOSE_TILE).min(steps) {
                        for j in j0..(j0 + TRANSPOSE_TILE).min(lanes) {
                            d[t * lanes + j] = s[j * steps + t];
                        }
                    }
                }
            }
        }, panic!("transpose between arrays of different element types"))
    }

    /// Sets element `i` (of the same type).
    pub fn set(&mut self, i: usize, value: PrimValue) {
        match (self, value) {
            (Data::I8(v), PrimValue::I8(x)) => Arc::make_mut(v)[i] = x,
            (Data::I16(v), PrimValue::I16(x)) => Arc::make_mut(v)[i] = x,
            (Data::I32(v), PrimValue::I32(x)) => Arc::make_mut(v)[i] = x,
            (Data::I64(v), PrimValue::I64(x)) => Arc::make_mut(v)[i] = x,
            (Data::U8(v), PrimValue::U8(x)) => Arc::make_mut(v)[i] = x,
            (Data::U16(v), PrimValue::U16(x)) => Arc::make_mut(v)[i] = x,
            (Data::U32(v), PrimValue::U32(x)) => Arc::make_mut(v)[i] = x,
            (Data::U64(v), PrimValue::U64(x)) => Arc::make_mut(v)[i] = x,
            (Data::F32(v), PrimValue::F32(x)) => Arc::make_mut(v)[i] = x,
            (Data::F64(v), PrimValue::F64(x)) => Arc::make_mut(v)[i] = x,
            (Data::Bool(v), PrimValue::Bool(x)) => Arc::make_mut(v)[i] = x,
            _ => panic!("store of a value of another type"),
        }
    }
}

/// A regular array: its shape (rank ≥ 1) and `product(shape)` elements.
#[derive(Clone, Debug)]
pub struct ArrayVal {
    pub shape: Vec<usize>,
    pub data: Data,
}

impl ArrayVal {
    /// The outer dimension.
    pub fn len(&self) -> usize {
        self.shape[0]
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Elements per row (the product of the inner dimensions).
    pub fn row_len(&self) -> usize {
        self.shape[1..].iter().product()
    }

    /// Row `i` (an element for a one-dimensional array), copied.
    pub fn row(&self, i: usize) -> Val {
        if self.shape.len() == 1 {
            Val::Prim(self.data.get(i))
        } else {
            let n = self.row_len();
            Val::Array(ArrayVal {
                shape: self.shape[1..].to_vec(),
                data: self.data.slice(i * n..(i + 1) * n),
            })
        }
    }
}

/// A run-time value.
#[derive(Clone, Debug)]
pub enum Val {
    Prim(PrimValue),
    Array(ArrayVal),
}

impl Default for Val {
    /// The placeholder in slots that hold nothing yet.
    fn default() -> Val {
        Val::Prim(PrimValue::Bool(false))
    }
}

impl Val {
    /// The shape (empty for a primitive).
    pub fn shape(&self) -> &[usize] {
        match self {
            Val::Prim(_) => &[],
            Val::Array(a) => &a.shape,
        }
    }
}

/// An argument that does not fit an entry point's parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutMismatch(pub String);

/// Appends the IR values of `value` (described by `layout`) to `out`.
pub fn flatten_value(
    layout: &Layout,
    value: &Value,
    out: &mut Vec<Val>,
) -> Result<(), LayoutMismatch> {
    let mismatch = || {
        LayoutMismatch(format!(
            "the value {value} does not have the expected type {layout}"
        ))
    };
    match (layout, value) {
        (Layout::Prim(t), Value::Prim(p)) if p.prim_type() == *t => {
            out.push(Val::Prim(*p));
            Ok(())
        }
        (Layout::Tuple(components), Value::Tuple(values)) if components.len() == values.len() => {
            for (l, v) in components.iter().zip(values) {
                flatten_value(l, v, out)?;
            }
            Ok(())
        }
        (Layout::Tuple(components), Value::Tuple(values))
            if components.is_empty() && values.is_empty() =>
        {
            Ok(())
        }
        (Layout::Record(fields), Value::Record(record)) => {
            for (name, l) in fields {
                let v = record.get(name).ok_or_else(mismatch)?;
                flatten_value(l, v, out)?;
            }
            Ok(())
        }
        // A record layout whose fields are 0..n-1 is given a tuple value.
        (Layout::Record(fields), Value::Tuple(values)) if fields.len() == values.len() => {
            for ((_, l), v) in fields.iter().zip(values) {
                flatten_value(l, v, out)?;
            }
            Ok(())
        }
        (Layout::Sum { constructors }, Value::Sum(sum)) => {
            let tag = constructors
                .iter()
                .position(|(name, _)| name == sum.constructor())
                .ok_or_else(mismatch)?;
            out.push(Val::Prim(prim::from_i64(tag as i64, SUM_TAG_TYPE)));
            for (i, (_, payload)) in constructors.iter().enumerate() {
                if i == tag {
                    if payload.len() != sum.payload().len() {
                        return Err(mismatch());
                    }
                    for (l, v) in payload.iter().zip(sum.payload()) {
                        flatten_value(l, v, out)?;
                    }
                } else {
                    for l in payload {
                        blank_values(l, 0, out);
                    }
                }
            }
            Ok(())
        }
        (Layout::Array { rank, element }, Value::Array(array)) if array.rank() == *rank => {
            flatten_array(element, array, out).map_err(|_| mismatch())
        }
        _ => Err(mismatch()),
    }
}

/// Like [`flatten_value`], consuming the value: arrays of primitives are
/// moved, not copied.
pub fn flatten_value_owned(
    layout: &Layout,
    value: Value,
    out: &mut Vec<Val>,
) -> Result<(), LayoutMismatch> {
    match (layout, value) {
        (Layout::Array { rank, element }, Value::Array(array))
            if array.rank() == *rank
                && matches!(**element, Layout::Prim(t) if array.data().prim_type() == Some(t)) =>
        {
            let (shape, data) = array.into_parts();
            out.push(Val::Array(ArrayVal {
                shape,
                data: data_from_spec_owned(data),
            }));
            Ok(())
        }
        (Layout::Tuple(components), Value::Tuple(values)) if components.len() == values.len() => {
            for (l, v) in components.iter().zip(values) {
                flatten_value_owned(l, v, out)?;
            }
            Ok(())
        }
        (layout, value) => flatten_value(layout, &value, out),
    }
}

/// The unboxed data of a spec array of primitives, moved.
fn data_from_spec_owned(data: ArrayData) -> Data {
    match data {
        ArrayData::I8(v) => Elem::into_data(v),
        ArrayData::I16(v) => Elem::into_data(v),
        ArrayData::I32(v) => Elem::into_data(v),
        ArrayData::I64(v) => Elem::into_data(v),
        ArrayData::U8(v) => Elem::into_data(v),
        ArrayData::U16(v) => Elem::into_data(v),
        ArrayData::U32(v) => Elem::into_data(v),
        ArrayData::U64(v) => Elem::into_data(v),
        ArrayData::F32(v) => Elem::into_data(v),
        ArrayData::F64(v) => Elem::into_data(v),
        ArrayData::Bool(v) => Elem::into_data(v),
        boxed @ ArrayData::Boxed { .. } => data_from_spec(&boxed),
    }
}

/// Zero values for the payload of an inactive constructor (arrays empty).
fn blank_values(layout: &Layout, rank: usize, out: &mut Vec<Val>) {
    let mut leaves = Vec::new();
    crate::ir::check::flatten_layout(layout, rank, &mut leaves);
    for (t, r) in leaves {
        out.push(if r == 0 {
            Val::Prim(prim::zero(t))
        } else {
            Val::Array(ArrayVal {
                shape: vec![0; r],
                data: Data::zeros(t, 0),
            })
        });
    }
}

fn flatten_array(
    element: &Layout,
    array: &Array,
    out: &mut Vec<Val>,
) -> Result<(), LayoutMismatch> {
    let shape = array.shape().to_vec();
    if let (Layout::Prim(t), Some(p)) = (element, array.data().prim_type()) {
        if *t != p {
            return Err(LayoutMismatch(String::new()));
        }
        out.push(Val::Array(ArrayVal {
            shape,
            data: data_from_spec(array.data()),
        }));
        return Ok(());
    }
    let ArrayData::Boxed { elems, .. } = array.data() else {
        return Err(LayoutMismatch(String::new()));
    };
    // Flatten every element, then stack each leaf along the outer shape.
    let mut leaf_types = Vec::new();
    crate::ir::check::flatten_layout(element, 0, &mut leaf_types);
    let mut per_leaf: Vec<Vec<Val>> = vec![Vec::with_capacity(elems.len()); leaf_types.len()];
    for e in elems {
        let mut values = Vec::new();
        flatten_value(element, e, &mut values)?;
        for (leaf, v) in per_leaf.iter_mut().zip(values) {
            leaf.push(v);
        }
    }
    for ((t, _), values) in leaf_types.into_iter().zip(per_leaf) {
        out.push(Val::Array(stack(&shape, t, &values)?));
    }
    Ok(())
}

/// The array of outer shape `outer` whose elements are `values` (all of
/// one shape).
fn stack(outer: &[usize], t: PrimType, values: &[Val]) -> Result<ArrayVal, LayoutMismatch> {
    let inner: Vec<usize> = values
        .first()
        .map(|v| v.shape().to_vec())
        .unwrap_or_default();
    let mut parts = Vec::with_capacity(values.len());
    let mut prims = Vec::new();
    for v in values {
        if v.shape() != inner.as_slice() {
            return Err(LayoutMismatch("irregular array".to_string()));
        }
        match v {
            Val::Prim(p) => prims.push(*p),
            Val::Array(a) => parts.push(&a.data),
        }
    }
    let data = if inner.is_empty() {
        let mut data = Data::zeros(t, prims.len());
        for (i, p) in prims.into_iter().enumerate() {
            data.set(i, p);
        }
        data
    } else {
        Data::concat(parts.into_iter(), t)
    };
    let mut shape = outer.to_vec();
    shape.extend(inner);
    Ok(ArrayVal { shape, data })
}

/// The unboxed data of a spec array of primitives.
pub fn data_from_spec(data: &ArrayData) -> Data {
    match data {
        ArrayData::I8(v) => Elem::into_data(v.clone()),
        ArrayData::I16(v) => Elem::into_data(v.clone()),
        ArrayData::I32(v) => Elem::into_data(v.clone()),
        ArrayData::I64(v) => Elem::into_data(v.clone()),
        ArrayData::U8(v) => Elem::into_data(v.clone()),
        ArrayData::U16(v) => Elem::into_data(v.clone()),
        ArrayData::U32(v) => Elem::into_data(v.clone()),
        ArrayData::U64(v) => Elem::into_data(v.clone()),
        ArrayData::F32(v) => Elem::into_data(v.clone()),
        ArrayData::F64(v) => Elem::into_data(v.clone()),
        ArrayData::Bool(v) => Elem::into_data(v.clone()),
        ArrayData::Boxed { .. } => unreachable!("only called on unboxed data"),
    }
}

/// An observable array from a run-time one it consumes (no copy when the
/// elements are not shared).
pub fn array_into_spec(array: ArrayVal) -> Array {
    let shape = array.shape;
    let result = with_data!(array.data, v => {
        let v = Arc::try_unwrap(v).unwrap_or_else(|shared| shared.as_ref().clone());
        Array::from_shape_vec(shape, v)
    });
    result.expect("run-time arrays are regular")
}

/// An observable array from a run-time one.
pub fn array_to_spec(array: &ArrayVal) -> Array {
    let shape = array.shape.clone();
    let result = with_data!(&array.data, v => Array::from_shape_vec(shape, v.as_ref().clone()));
    result.expect("run-time arrays are regular")
}

/// The observable value described by `layout`, taking its IR values from
/// `values`.
pub fn unflatten_value(
    layout: &Layout,
    values: &mut dyn Iterator<Item = Val>,
) -> Result<Value, LayoutMismatch> {
    let missing = || LayoutMismatch("fewer results than the layout describes".to_string());
    match layout {
        Layout::Prim(_) => match values.next().ok_or_else(missing)? {
            Val::Prim(p) => Ok(Value::Prim(p)),
            Val::Array(_) => Err(LayoutMismatch(
                "an array where a primitive was expected".into(),
            )),
        },
        Layout::Tuple(components) => Ok(Value::Tuple(
            components
                .iter()
                .map(|c| unflatten_value(c, values))
                .collect::<Result<_, _>>()?,
        )),
        Layout::Record(fields) => {
            let fields = fields
                .iter()
                .map(|(n, l)| Ok((n.clone(), unflatten_value(l, values)?)))
                .collect::<Result<Vec<_>, LayoutMismatch>>()?;
            Value::record(fields).map_err(|e| LayoutMismatch(e.message))
        }
        Layout::Sum { constructors } => {
            let tag = match values.next().ok_or_else(missing)? {
                Val::Prim(p) => prim::as_i64(p).unwrap_or(-1),
                Val::Array(_) => -1,
            };
            let mut chosen = None;
            for (i, (name, payload)) in constructors.iter().enumerate() {
                let mut components = Vec::new();
                for l in payload {
                    components.push(unflatten_value(l, values)?);
                }
                if i as i64 == tag {
                    chosen = Some((name.clone(), components));
                }
            }
            let (name, payload) =
                chosen.ok_or_else(|| LayoutMismatch(format!("invalid sum tag {tag}")))?;
            Value::sum(name, payload).map_err(|e| LayoutMismatch(e.message))
        }
        Layout::Array { rank, element } => unflatten_array(*rank, element, values),
    }
}

fn unflatten_array(
    rank: usize,
    element: &Layout,
    values: &mut dyn Iterator<Item = Val>,
) -> Result<Value, LayoutMismatch> {
    if let Layout::Prim(_) = element {
        return match values.next() {
            Some(Val::Array(a)) if a.shape.len() == rank => Ok(Value::Array(array_into_spec(a))),
            _ => Err(LayoutMismatch("expected an array result".to_string())),
        };
    }
    let count = element.value_count();
    let leaves: Vec<Val> = values.take(count).collect();
    if leaves.len() != count {
        return Err(LayoutMismatch(
            "fewer results than the layout describes".to_string(),
        ));
    }
    let arrays: Vec<ArrayVal> = leaves
        .into_iter()
        .map(|v| match v {
            Val::Array(a) if a.shape.len() >= rank => Ok(a),
            _ => Err(LayoutMismatch("expected an array result".to_string())),
        })
        .collect::<Result<_, _>>()?;
    let outer: Vec<usize> = match arrays.first() {
        Some(a) => a.shape[..rank].to_vec(),
        None => vec![0; rank],
    };
    let n: usize = outer.iter().product();
    let mut elements = Vec::with_capacity(n);
    for e in 0..n {
        let parts: Vec<Val> = arrays
            .iter()
            .map(|a| {
                let inner = &a.shape[rank..];
                let len: usize = inner.iter().product();
                if inner.is_empty() {
                    Val::Prim(a.data.get(e))
                } else {
                    Val::Array(ArrayVal {
                        shape: inner.to_vec(),
                        data: a.data.slice(e * len..(e + 1) * len),
                    })
                }
            })
            .collect();
        elements.push(unflatten_value(element, &mut parts.into_iter())?);
    }
    // The element type: the join of the elements' types (sum values name
    // only their own constructor), or the layout's type when there is none.
    let mut elem_type: Option<ValueType> = None;
    for e in &elements {
        let t = e.value_type();
        elem_type = Some(match elem_type {
            None => t,
            Some(so_far) => so_far
                .join(&t)
                .ok_or_else(|| LayoutMismatch("irregular array result".to_string()))?,
        });
    }
    let elem_type = elem_type.unwrap_or_else(|| layout_value_type(element));
    let data = ArrayData::Boxed {
        elem: elem_type,
        elems: elements,
    };
    Array::new(outer, data)
        .map(Value::Array)
        .map_err(|e| LayoutMismatch(e.message))
}

/// The observable type of a layout's values (array dimensions 0).
pub fn layout_value_type(layout: &Layout) -> ValueType {
    match layout {
        Layout::Prim(t) => ValueType::Prim(*t),
        Layout::Tuple(components) => {
            ValueType::Tuple(components.iter().map(layout_value_type).collect())
        }
        Layout::Record(fields) => ValueType::record(
            fields
                .iter()
                .map(|(n, l)| (n.clone(), layout_value_type(l)))
                .collect(),
        )
        .unwrap_or(ValueType::Tuple(Vec::new())),
        Layout::Sum { constructors } => ValueType::sum(
            constructors
                .iter()
                .map(|(n, p)| (n.clone(), p.iter().map(layout_value_type).collect()))
                .collect(),
        )
        .unwrap_or(ValueType::Tuple(Vec::new())),
        Layout::Array { rank, element } => {
            ValueType::array(vec![0; *rank], layout_value_type(element))
        }
    }
}
