//! The typed first-order SOAC IR: its syntax.
//!
//! In the spirit of Futhark's SOACS representation (Henriksen et al., PLDI'17,
//! §3; the TFP'18 paper's target language after defunctionalisation): a
//! program is a set of first-order, monomorphic functions in A-normal form.
//! The invariants every producer must establish and every pass must keep
//! (checked by [`super::check`]):
//!
//! - **Values are primitives or regular arrays of primitives.** Tuples and
//!   records are flattened into several values, so an array of tuples is
//!   several arrays (structure of arrays). A sum type is a tag (`u8`, the
//!   index of the constructor in [`Layout::Sum`]'s order) followed by the
//!   flattened payloads of *all* constructors (the payloads of the inactive
//!   constructors hold arbitrary values of the right type; zeros by convention).
//! - **A-normal form.** Every operand is a [`SubExp`]: a variable or a
//!   constant. Every intermediate result is bound by a [`Statement`].
//! - **Unique names.** Every [`VName`] is bound exactly once in the whole
//!   program (parameters, pattern elements, lambda and loop parameters, loop
//!   indices). A `VName` is a printable base plus a number; the number alone
//!   is unique ([`NameSource`] hands them out).
//! - **Explicit shapes.** An array type lists its dimensions, each an `i64`
//!   constant or an `i64` variable in scope. Sizes that are only known after
//!   an expression has run (the length of a `filter`'s result, a branch that
//!   returns arrays of different lengths, a function result) are *existential*:
//!   they are returned as extra `i64` values and the types refer to them by
//!   position ([`ExtDim::Existential`]); the pattern that binds such results
//!   names them, and its element types refer to those names.
//! - **Updates are values.** `Update`, `Scatter` and `Hist` return a new array
//!   and leave their operand unchanged as far as the program can observe; a
//!   backend updates in place when the operand is not shared (the CPU backend
//!   is copy-on-write). A producer that does not use the operand afterwards
//!   (Futhark's uniqueness) gets in-place updates; the checker does not
//!   require it.
//! - **Assertions are effects.** `Assert` binds no value; passes must keep it
//!   (and keep it before the statements it guards).

use std::fmt;
use std::sync::Arc;

pub use super::segmented::{SegDim, SegOp, SegSpace};

pub use spec::source::Span;
pub use spec::value::{PrimType, PrimValue};

/// A variable name, unique in its program: a base for readers and a number
/// for uniqueness. Printed `base_number` (e.g. `xs_12`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VName {
    pub base: Arc<str>,
    pub number: u32,
}

impl VName {
    pub fn new(base: &str, number: u32) -> VName {
        VName {
            base: Arc::from(base),
            number,
        }
    }
}

impl fmt::Display for VName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.base, self.number)
    }
}

/// Hands out fresh [`VName`]s: every number it returns is larger than every
/// number seen so far.
#[derive(Clone, Debug, Default)]
pub struct NameSource {
    next: u32,
}

impl NameSource {
    /// A source whose names start at `next`.
    pub fn starting_at(next: u32) -> NameSource {
        NameSource { next }
    }

    /// A source whose names are fresh for `program` (above every number it
    /// uses).
    pub fn fresh_for(program: &Program) -> NameSource {
        NameSource {
            next: program.largest_name_number().map_or(0, |n| n + 1),
        }
    }

    pub fn fresh(&mut self, base: &str) -> VName {
        let name = VName::new(base, self.next);
        self.next += 1;
        name
    }
}

/// The name of a function of the program (unique among its functions).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunName(pub String);

impl fmt::Display for FunName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An operand: a variable in scope or a primitive constant. Equality and
/// hashing of constants are by identity (floats by bits), so CSE never merges
/// `0.0` with `-0.0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubExp {
    Var(VName),
    Constant(PrimValue),
}

impl std::hash::Hash for SubExp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            SubExp::Var(v) => {
                0u8.hash(state);
                v.hash(state);
            }
            SubExp::Constant(c) => {
                1u8.hash(state);
                c.prim_type().hash(state);
                c.to_bits().hash(state);
            }
        }
    }
}

impl SubExp {
    /// The `i64` constant `n` (sizes and indices are `i64`).
    pub fn i64(n: i64) -> SubExp {
        SubExp::Constant(PrimValue::I64(n))
    }

    pub fn as_var(&self) -> Option<&VName> {
        match self {
            SubExp::Var(v) => Some(v),
            SubExp::Constant(_) => None,
        }
    }
}

impl From<VName> for SubExp {
    fn from(v: VName) -> SubExp {
        SubExp::Var(v)
    }
}

/// A type whose array dimensions are `D`s: [`Type`] (dimensions in scope) or
/// [`ExtType`] (dimensions may be existential).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeBase<D> {
    Prim(PrimType),
    /// A regular array of rank `shape.len() ≥ 1` of primitives.
    Array {
        element: PrimType,
        shape: Vec<D>,
    },
}

/// The type of a value in scope: every dimension is an `i64` constant or an
/// `i64` variable in scope.
pub type Type = TypeBase<SubExp>;

/// A dimension of a result type: known in the enclosing scope, or the `k`th
/// value of the same result list (which has type `i64`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExtDim {
    Free(SubExp),
    Existential(usize),
}

/// The type of a result whose sizes may only be known once it is computed
/// (function results, branches, `filter`).
pub type ExtType = TypeBase<ExtDim>;

impl<D> TypeBase<D> {
    /// The primitive type of the value or of the array's elements.
    pub fn element(&self) -> PrimType {
        match self {
            TypeBase::Prim(t) => *t,
            TypeBase::Array { element, .. } => *element,
        }
    }

    pub fn rank(&self) -> usize {
        match self {
            TypeBase::Prim(_) => 0,
            TypeBase::Array { shape, .. } => shape.len(),
        }
    }

    pub fn shape(&self) -> &[D] {
        match self {
            TypeBase::Prim(_) => &[],
            TypeBase::Array { shape, .. } => shape,
        }
    }

    /// The array type `[outer]self`.
    pub fn array_of(self, outer: D) -> TypeBase<D> {
        match self {
            TypeBase::Prim(element) => TypeBase::Array {
                element,
                shape: vec![outer],
            },
            TypeBase::Array { element, mut shape } => {
                shape.insert(0, outer);
                TypeBase::Array { element, shape }
            }
        }
    }
}

impl<D: Clone> TypeBase<D> {
    /// The type of one row (the outer dimension dropped); `None` for a
    /// primitive.
    pub fn row_type(&self) -> Option<TypeBase<D>> {
        match self {
            TypeBase::Prim(_) => None,
            TypeBase::Array { element, shape } if shape.len() == 1 => {
                Some(TypeBase::Prim(*element))
            }
            TypeBase::Array { element, shape } => Some(TypeBase::Array {
                element: *element,
                shape: shape[1..].to_vec(),
            }),
        }
    }

    /// The outer dimension of an array.
    pub fn outer_dim(&self) -> Option<&D> {
        self.shape().first()
    }
}

impl Type {
    /// This type as a result type with no existential dimension.
    pub fn to_ext(&self) -> ExtType {
        match self {
            TypeBase::Prim(t) => TypeBase::Prim(*t),
            TypeBase::Array { element, shape } => TypeBase::Array {
                element: *element,
                shape: shape.iter().cloned().map(ExtDim::Free).collect(),
            },
        }
    }
}

/// A variable with its type: a function, lambda or loop parameter, or one
/// element of a pattern.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    pub name: VName,
    pub ty: Type,
}

/// One element of a statement's pattern: a name and its type.
pub type PatElem = Param;

/// A whole program: first-order monomorphic functions and the entry points
/// that expose some of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub functions: Vec<Function>,
    pub entry_points: Vec<EntryPoint>,
}

/// A first-order function. `return_types` may refer to `params` (as
/// [`ExtDim::Free`]) and to earlier results ([`ExtDim::Existential`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: FunName,
    pub params: Vec<Param>,
    pub return_types: Vec<ExtType>,
    pub body: Body,
    pub span: Span,
}

/// Statements in order, then the values the body returns.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Body {
    pub statements: Vec<Statement>,
    pub result: Vec<SubExp>,
}

/// `let {pattern} = expression`. The pattern has one element per value the
/// expression returns (none for `Assert`). Its types are the expression's
/// types with existential sizes replaced by the pattern's own names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub pattern: Vec<PatElem>,
    pub expression: Exp,
    /// Where the source construct that this statement computes is; run-time
    /// errors of the statement (bounds, sizes, division by zero) carry it.
    pub span: Span,
}

/// A first-order anonymous function, the argument of a SOAC. Its body may
/// refer to variables in scope where the SOAC is (no closures: the IR has no
/// function values). Its return types are in the scope of the SOAC (they may
/// not mention the lambda's own parameters or locals): results are regular.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lambda {
    pub params: Vec<Param>,
    pub body: Body,
    pub return_types: Vec<Type>,
}

/// Binary arithmetic, bitwise and logical operators, each at one primitive
/// type; both operands have that type, and so has the result. Futhark's
/// semantics: integers wrap; `Div`/`Mod` round towards negative infinity (the
/// remainder has the divisor's sign), `Quot`/`Rem` towards zero, and integer
/// division by zero is a run-time error (`division by zero`); a shift by at
/// least the bit width gives 0 (-1 for `Shr` of a negative number); floats
/// are IEEE (`Mod` is the remainder with the divisor's sign, `Quot` truncates
/// the quotient, `Rem` is `fmod`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Quot,
    Rem,
    /// `**`: integers raise to a non-negative power (a negative exponent is a
    /// run-time error), floats `powf`.
    Pow,
    Min,
    Max,
    /// `f.atan2 y x` (floats only).
    Atan2,
    /// `t.mul_hi x y` (integers only): the high half of the double-width
    /// product, signed for signed types.
    MulHi,
    /// Bitwise on integers (`&`, `|`, `^`), logical on `bool`.
    And,
    Or,
    Xor,
    Shl,
    /// `>>`: arithmetic for signed, logical for unsigned integers.
    Shr,
    /// `>>>`: logical shift right.
    UShr,
    /// `&&`, `||` (bool only; both operands are already evaluated in ANF).
    LogAnd,
    LogOr,
}

/// Unary operators and math functions at one primitive type, the
/// operand's; the result has it too, except as [`UnOp::result_type`] says
/// (`IsNan`/`IsInf` return `bool`, `Popc`/`Clz`/`Ctz` return `i32`,
/// `ToBits`/`FromBits` the type of the other kind of the same width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation (wrapping on integers).
    Neg,
    /// `!` on `bool`, bitwise complement on integers.
    Not,
    Abs,
    /// `-1`, `0` or `1` (floats: NaN stays NaN).
    Signum,
    Sqrt,
    Exp,
    Log,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Cbrt,
    /// `log (1 + x)`, accurate for small `x`.
    Log1p,
    /// Γ.
    Gamma,
    /// log |Γ|.
    Lgamma,
    Erf,
    Erfc,
    Floor,
    Ceil,
    /// Round half to even (Futhark's `round`).
    Round,
    Trunc,
    IsNan,
    IsInf,
    Popc,
    Clz,
    Ctz,
    /// A float's bits as the unsigned integer of its width (`f32.to_bits`).
    ToBits,
    /// An unsigned integer's bits as the float of its width
    /// (`f32.from_bits`); the operand type is the integer's.
    FromBits,
}

impl UnOp {
    /// The type of `op x` for `x: operand`, or `None` where `op` is not
    /// defined on `operand`.
    pub fn result_type(self, operand: PrimType) -> Option<PrimType> {
        let (defined, result) = match self {
            UnOp::Neg | UnOp::Abs | UnOp::Signum => (operand != PrimType::Bool, operand),
            UnOp::Not => (!operand.is_float(), operand),
            UnOp::IsNan | UnOp::IsInf => (operand.is_float(), PrimType::Bool),
            UnOp::Popc | UnOp::Clz | UnOp::Ctz => (operand.is_integer(), PrimType::I32),
            UnOp::ToBits => match operand {
                PrimType::F32 => (true, PrimType::U32),
                PrimType::F64 => (true, PrimType::U64),
                _ => (false, operand),
            },
            UnOp::FromBits => match operand {
                PrimType::U32 => (true, PrimType::F32),
                PrimType::U64 => (true, PrimType::F64),
                _ => (false, operand),
            },
            _ => (operand.is_float(), operand),
        };
        defined.then_some(result)
    }
}

/// Comparisons at one primitive type; the result is `bool`. Floats compare
/// as IEEE (NaN is unordered: every comparison but `Ne` is false).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A conversion between primitive types (Futhark's `t.u` functions):
/// integer→integer wraps (sign- or zero-extending by the source's
/// signedness), float→integer truncates towards zero and saturates (NaN gives
/// 0), integer→float rounds to nearest, `bool` converts to and from 0/1
/// (nonzero is `true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConvOp {
    pub from: PrimType,
    pub to: PrimType,
}

/// How a loop repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopForm {
    /// `for index < bound`: `index` (bound by the loop, of the integer type of
    /// `bound`) runs from 0 to `bound - 1`.
    For { index: VName, bound: SubExp },
    /// `while condition_param`: the loop parameter (of type `bool`) that is
    /// tested before each iteration.
    While { condition_param: VName },
}

/// One dimension of a slice.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DimIndex {
    /// One index: the dimension disappears.
    Fix(SubExp),
    /// `length` elements `start, start + stride, …` (all `i64`); the
    /// dimension becomes `length` long. Out of bounds is a run-time error.
    Range {
        start: SubExp,
        length: SubExp,
        stride: SubExp,
    },
}

/// Expressions: each returns a fixed number of values (its pattern's length).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exp {
    /// A copy of an operand's value (arrays are shared, not copied).
    SubExp(SubExp),
    BinOp {
        op: BinOp,
        ty: PrimType,
        left: SubExp,
        right: SubExp,
    },
    UnOp {
        op: UnOp,
        ty: PrimType,
        operand: SubExp,
    },
    /// `T.fma a b c` (floats only, all three of type `ty`): the exact
    /// `a * b + c` rounded once (IEEE 754 fusedMultiplyAdd).
    Fma {
        ty: PrimType,
        a: SubExp,
        b: SubExp,
        c: SubExp,
    },
    CmpOp {
        op: CmpOp,
        ty: PrimType,
        left: SubExp,
        right: SubExp,
    },
    ConvOp {
        op: ConvOp,
        operand: SubExp,
    },
    /// A call of a function of the program; returns its results.
    Apply {
        function: FunName,
        args: Vec<SubExp>,
    },
    If {
        condition: SubExp,
        then_body: Body,
        else_body: Body,
        /// The branch results' types; existential dimensions refer to earlier
        /// results of the same list.
        types: Vec<ExtType>,
    },
    /// `loop (p1 = v1, …) for i < n do body` / `while c do body`. Parameter
    /// types may refer to earlier loop parameters (loop-variant sizes); the
    /// body returns one value per parameter; the loop returns the last ones.
    Loop {
        params: Vec<(Param, SubExp)>,
        form: LoopForm,
        body: Body,
    },
    /// `array[i1, …, ik]`, `k ≤ rank`: an element (`k = rank`) or a sub-array.
    /// Bounds-checked.
    Index {
        array: VName,
        indices: Vec<SubExp>,
    },
    /// `array[s1, …, sk]`, `k ≤ rank`, with ranges and fixed indices.
    /// Bounds-checked.
    Slice {
        array: VName,
        slice: Vec<DimIndex>,
    },
    /// `array with [i1, …, ik] = value`: returns `array` with
    /// the element/sub-array replaced. Bounds-checked; `value`'s shape must
    /// equal the replaced part's.
    Update {
        array: VName,
        indices: Vec<SubExp>,
        value: SubExp,
    },
    /// `[start, start + step, …]`, `length` elements of integer type
    /// `element` (`length: i64`; `start`, `step` of type `element`).
    Iota {
        length: SubExp,
        start: SubExp,
        step: SubExp,
        element: PrimType,
    },
    /// An array of shape `shape ++ shape(value)` filled with `value`. A
    /// negative dimension is a run-time error.
    Replicate {
        shape: Vec<SubExp>,
        value: SubExp,
    },
    /// `[e1, …, en]` where every element has `row_type` (`n ≥ 0`; the
    /// shapes of array elements must equal `row_type`'s, checked at run time).
    ArrayLiteral {
        elements: Vec<SubExp>,
        row_type: Type,
    },
    /// The arrays concatenated along the outer dimension; `length` is the
    /// result's outer size (the sum). Inner dimensions must agree.
    Concat {
        arrays: Vec<VName>,
        length: SubExp,
    },
    /// Permutes the dimensions: dimension `i` of the result is dimension
    /// `permutation[i]` of `array` (transpose is `[1, 0]`).
    Rearrange {
        permutation: Vec<usize>,
        array: VName,
    },
    /// The same elements (row-major) under another shape; the element counts
    /// must agree (run-time error otherwise).
    Reshape {
        shape: Vec<SubExp>,
        array: VName,
    },
    /// The rows in reverse order.
    Reverse {
        array: VName,
    },
    /// Element `i` of the result is `array[(i + amount) mod n]` (`amount: i64`).
    Rotate {
        amount: SubExp,
        array: VName,
    },
    /// A fresh copy of an array (not shared with `array`).
    Copy {
        array: VName,
    },
    /// Fails with `message` at `span` unless `condition` (a `bool`) holds;
    /// binds nothing. Size checks of the source program become these.
    /// `message` is a template: the values of `operands` fill its
    /// placeholders, in order ([`super::message::fill`]).
    Assert {
        condition: SubExp,
        message: String,
        operands: Vec<SubExp>,
        span: Span,
    },
    /// A second-order array combinator.
    Soac(Soac),
    /// A segmented operation of the flattened IR ([`super::segmented`]);
    /// only the flattening pass produces it.
    Seg(SegOp),
}

/// Second-order array combinators. `width` is the outer size of every input
/// array; lambdas receive one row of each array (in order). The results are
/// listed per combinator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Soac {
    /// `lambda` applied to each row; one `[width]r` array per lambda result
    /// type `r`.
    Map {
        width: SubExp,
        lambda: Lambda,
        arrays: Vec<VName>,
    },
    /// `k` values: the arrays' rows (`k` arrays) combined with `lambda`
    /// (`(a1…ak, b1…bk) -> c1…ck`, associative, not necessarily commutative),
    /// starting from `neutral` (`k` values, a neutral element of `lambda`).
    Reduce {
        width: SubExp,
        lambda: Lambda,
        neutral: Vec<SubExp>,
        arrays: Vec<VName>,
    },
    /// `k` arrays `[width]`: inclusive prefix combination with `lambda`
    /// (associative) and `neutral`.
    Scan {
        width: SubExp,
        lambda: Lambda,
        neutral: Vec<SubExp>,
        arrays: Vec<VName>,
    },
    /// The rows for which `predicate` (one `bool` result) holds, in order.
    /// Returns the count (an `i64`) and then one array per input array,
    /// each of type `[count]row` (its pattern refers to the count's name).
    Filter {
        width: SubExp,
        predicate: Lambda,
        arrays: Vec<VName>,
    },
    /// Returns `destinations` (`k` arrays of the same outer size) with `destinations[j][indices[i]] = values[j][i]` for
    /// every `i < width` whose index is in bounds (others are ignored, as in
    /// Futhark). With duplicate in-bounds indices, the result is one of the
    /// written values (unspecified which).
    Scatter {
        width: SubExp,
        destinations: Vec<VName>,
        indices: VName,
        values: Vec<VName>,
    },
    /// `reduce_by_index`: returns `destinations` (`k` arrays) with `dest[indices[i]] = operator(dest[indices[i]], values[i])`
    /// for every in-bounds index; `operator` is associative and commutative
    /// with neutral element `neutral`.
    Hist {
        width: SubExp,
        destinations: Vec<VName>,
        operator: Lambda,
        neutral: Vec<SubExp>,
        indices: VName,
        values: Vec<VName>,
    },
    /// Fused `reduce ∘ map`: `map_lambda` takes one row of each array and
    /// returns `k` values to reduce followed by `m` mapped values;
    /// `reduce_lambda` is as in `Reduce`. Returns the `k` reduced values then
    /// `m` arrays `[width]`.
    Redomap {
        width: SubExp,
        map_lambda: Lambda,
        reduce_lambda: Lambda,
        neutral: Vec<SubExp>,
        arrays: Vec<VName>,
    },
    /// Fused `scan ∘ map`: like `Redomap` with a scan; returns `k` scanned
    /// arrays then `m` mapped arrays, all `[width]`.
    Scanomap {
        width: SubExp,
        map_lambda: Lambda,
        scan_lambda: Lambda,
        neutral: Vec<SubExp>,
        arrays: Vec<VName>,
    },
}

/// An entry point: a function of the program that can be run from outside,
/// with how its flattened parameters and results map back to surface values
/// (`spec::value::Value`).
///
/// The function's parameters are `size_parameters` leading `i64` parameters
/// (each a dimension of some later parameter's type; the backend binds them
/// from the argument shapes) followed by the flattened values of
/// `parameters`, in order. Its results are `size_results` leading `i64`
/// values (existential sizes, dropped) followed by the flattened values of
/// `result`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    /// The surface name (`main`).
    pub name: String,
    pub function: FunName,
    pub size_parameters: usize,
    pub parameters: Vec<EntryParam>,
    pub size_results: usize,
    /// One surface value (several results are a [`Layout::Tuple`]).
    pub result: Layout,
}

/// A surface parameter of an entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryParam {
    pub name: String,
    pub layout: Layout,
}

/// How one surface value is flattened into IR values: the flattened values
/// are the layout's leaves ([`Layout::Prim`]) in depth-first order, each an
/// IR value of that primitive type with the ranks of the enclosing
/// [`Layout::Array`]s added as outer dimensions (outermost first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One IR value.
    Prim(PrimType),
    /// The components in order (`()` is the empty tuple: no IR value).
    Tuple(Vec<Layout>),
    /// The fields in `spec::value::field_order`.
    Record(Vec<(String, Layout)>),
    /// A `u8` tag (the constructor's index in this list) followed by every
    /// constructor's payload components, constructor by constructor.
    Sum {
        constructors: Vec<(String, Vec<Layout>)>,
    },
    /// An array of `rank` dimensions whose elements are `element` (never
    /// itself an `Array`).
    Array { rank: usize, element: Box<Layout> },
}

impl Layout {
    /// How many IR values this layout flattens to.
    pub fn value_count(&self) -> usize {
        match self {
            Layout::Prim(_) => 1,
            Layout::Tuple(components) => components.iter().map(Layout::value_count).sum(),
            Layout::Record(fields) => fields.iter().map(|(_, l)| l.value_count()).sum(),
            Layout::Sum { constructors } => {
                1 + constructors
                    .iter()
                    .flat_map(|(_, payload)| payload)
                    .map(Layout::value_count)
                    .sum::<usize>()
            }
            Layout::Array { element, .. } => element.value_count(),
        }
    }
}

/// The type of the tag of a flattened sum type.
pub const SUM_TAG_TYPE: PrimType = PrimType::U8;

impl Program {
    pub fn function(&self, name: &FunName) -> Option<&Function> {
        self.functions.iter().find(|f| &f.name == name)
    }

    pub fn entry_point(&self, name: &str) -> Option<&EntryPoint> {
        self.entry_points.iter().find(|e| e.name == name)
    }

    /// The largest number of any name bound in the program.
    pub fn largest_name_number(&self) -> Option<u32> {
        let mut largest = None;
        for function in &self.functions {
            for p in &function.params {
                note_number(&mut largest, &p.name);
            }
            largest_in_body(&function.body, &mut largest);
        }
        largest
    }
}

fn note_number(largest: &mut Option<u32>, name: &VName) {
    *largest = Some(largest.map_or(name.number, |l: u32| l.max(name.number)));
}

fn largest_in_lambda(lambda: &Lambda, largest: &mut Option<u32>) {
    for p in &lambda.params {
        note_number(largest, &p.name);
    }
    largest_in_body(&lambda.body, largest);
}

fn largest_in_body(body: &Body, largest: &mut Option<u32>) {
    for statement in &body.statements {
        for p in &statement.pattern {
            note_number(largest, &p.name);
        }
        for lambda in statement.expression.lambdas() {
            largest_in_lambda(lambda, largest);
        }
        for b in statement.expression.bodies() {
            largest_in_body(b, largest);
        }
        if let Exp::Seg(op) = &statement.expression {
            for dim in &op.space().dims {
                note_number(largest, &dim.index);
            }
        }
        if let Exp::Loop { params, form, .. } = &statement.expression {
            for (p, _) in params {
                note_number(largest, &p.name);
            }
            if let LoopForm::For { index, .. } = form {
                note_number(largest, index);
            }
        }
    }
}

impl Exp {
    /// The lambdas directly inside this expression (SOAC arguments).
    pub fn lambdas(&self) -> Vec<&Lambda> {
        match self {
            Exp::Soac(soac) => soac.lambdas(),
            Exp::Seg(op) => op.operator().into_iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The bodies directly inside this expression (branches, loop body,
    /// a segmented operation's body).
    pub fn bodies(&self) -> Vec<&Body> {
        match self {
            Exp::Seg(op) => vec![op.body()],
            Exp::If {
                then_body,
                else_body,
                ..
            } => vec![then_body, else_body],
            Exp::Loop { body, .. } => vec![body],
            _ => Vec::new(),
        }
    }
}

/// A SOAC that combines its elements with an associative operator, seen
/// one way: `reduce`/`scan` (no map lambda) and `redomap`/`scanomap`
/// ([`Soac::combination`]).
#[derive(Clone, Copy, Debug)]
pub struct Combination<'a> {
    pub width: &'a SubExp,
    pub map_lambda: Option<&'a Lambda>,
    pub operator: &'a Lambda,
    pub neutral: &'a [SubExp],
    pub arrays: &'a [VName],
    /// A scan (every prefix's combination), not a reduction.
    pub scan: bool,
}

impl Soac {
    /// The SOAC as a [`Combination`], when it is a `reduce`, `scan`,
    /// `redomap` or `scanomap`.
    pub fn combination(&self) -> Option<Combination<'_>> {
        let (width, map_lambda, operator, neutral, arrays, scan) = match self {
            Soac::Reduce {
                width,
                lambda,
                neutral,
                arrays,
            } => (width, None, lambda, neutral, arrays, false),
            Soac::Scan {
                width,
                lambda,
                neutral,
                arrays,
            } => (width, None, lambda, neutral, arrays, true),
            Soac::Redomap {
                width,
                map_lambda,
                reduce_lambda,
                neutral,
                arrays,
            } => (
                width,
                Some(map_lambda),
                reduce_lambda,
                neutral,
                arrays,
                false,
            ),
            Soac::Scanomap {
                width,
                map_lambda,
                scan_lambda,
                neutral,
                arrays,
            } => (width, Some(map_lambda), scan_lambda, neutral, arrays, true),
            Soac::Map { .. } | Soac::Filter { .. } | Soac::Scatter { .. } | Soac::Hist { .. } => {
                return None
            }
        };
        Some(Combination {
            width,
            map_lambda,
            operator,
            neutral,
            arrays,
            scan,
        })
    }

    pub fn width(&self) -> &SubExp {
        match self {
            Soac::Map { width, .. }
            | Soac::Reduce { width, .. }
            | Soac::Scan { width, .. }
            | Soac::Filter { width, .. }
            | Soac::Scatter { width, .. }
            | Soac::Hist { width, .. }
            | Soac::Redomap { width, .. }
            | Soac::Scanomap { width, .. } => width,
        }
    }

    pub fn lambdas(&self) -> Vec<&Lambda> {
        match self {
            Soac::Map { lambda, .. } | Soac::Reduce { lambda, .. } | Soac::Scan { lambda, .. } => {
                vec![lambda]
            }
            Soac::Filter { predicate, .. } => vec![predicate],
            Soac::Scatter { .. } => Vec::new(),
            Soac::Hist { operator, .. } => vec![operator],
            Soac::Redomap {
                map_lambda,
                reduce_lambda,
                ..
            } => vec![map_lambda, reduce_lambda],
            Soac::Scanomap {
                map_lambda,
                scan_lambda,
                ..
            } => vec![map_lambda, scan_lambda],
        }
    }
}
