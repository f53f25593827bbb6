//! TFP'18 §2.1: the syntax of types and expressions, extended (each extension
//! marked below) to the module-free core that static interpretation produces.
//!
//! The paper's grammar is
//!
//! ```text
//! τ ::= int | bool | τ1 → τ2 | {(ℓi: τi)} | []τ
//! e ::= x | n | true | false | e1 + e2 | e1 ≤ e2 | if e1 then e2 else e3
//!     | λx:τ. e0 | e1 e2 | let x = e1 in e2 | {(ℓi = ei)} | e0.ℓ
//!     | [e1, …, en] | e1[e2] | e0 with [e1] ← e2 | length e0
//!     | map (λx. e1) e2 | loop x = e1 for y in e2 do e3
//! ```
//!
//! and every form keeps its name here ([`ExprKind::Var`] … [`ExprKind::Loop`]).
//! Extensions: all primitive types of Futhark instead of `int`/`bool`, every
//! binary and unary operator, tuples as records labelled `0`, `1`, …, empty
//! array literals (carrying their element type), sum types and `match`, the
//! SOACs `reduce`, `scan`, `filter`, `reduce_by_index` (with syntactic
//! lambdas, like the paper's `map`), `loop … while`, slicing, the array
//! intrinsics of [`Intrinsic`], run-time assertions (size checks, TFP'18
//! §5.2), let-polymorphism (type parameters on top-level declarations and
//! explicit instantiation at variables, TFP'18 §5.1), and — in target
//! programs only — calls of lambda-lifted first-order functions (TFP'18 §5.3).
//!
//! Names are already resolved: a [`Name`] is the paper's variable `x ∈ Var`
//! and, through the injective `Lab` of §2.1 (the identity here), a record
//! label. Shadowing is allowed; environments are persistent maps, so the
//! paper's "variables in a context are distinct" holds of the innermost
//! binding of each name.

use spec::source::Span;
use spec::syntax::ast::Liftedness;
use spec::syntax::uniqueness::DeclaredUniqueness;
pub use spec::value::{PrimType, PrimValue};
use std::collections::BTreeMap;
use std::rc::Rc;

/// `x ∈ Var` and `ℓ ∈ Lab` (with `Lab` the identity).
pub type Name = String;

/// τ: a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `int`, `bool`; extension: every primitive type of Futhark.
    Prim(PrimType),
    /// τ1 → τ2.
    Arrow(Box<Type>, Box<Type>),
    /// {(ℓi: τi)}: records, identical up to permutation (kept sorted).
    /// Tuples are records labelled `0`, `1`, …
    Record(BTreeMap<Name, Type>),
    /// []τ.
    Array(Box<Type>),
    /// Extension: sum types `#c τ… | …` (constructors sorted by name).
    Sum(BTreeMap<Name, Vec<Type>>),
    /// Extension (TFP'18 §5.1): a type parameter of a polymorphic top-level
    /// declaration; `'a` (unlifted: only order-zero instances) or `'^a`.
    Param(Name, Liftedness),
    /// A unification variable of the front end's surface elaborator; never
    /// part of a finished core program (the typing judgment rejects it).
    Meta(u32),
}

impl Type {
    pub fn int(t: PrimType) -> Type {
        Type::Prim(t)
    }
    pub fn bool() -> Type {
        Type::Prim(PrimType::Bool)
    }
    pub fn i64() -> Type {
        Type::Prim(PrimType::I64)
    }
    pub fn array(elem: Type) -> Type {
        Type::Array(Box::new(elem))
    }
    pub fn arrow(from: Type, to: Type) -> Type {
        Type::Arrow(Box::new(from), Box::new(to))
    }
    pub fn tuple(elems: Vec<Type>) -> Type {
        Type::Record(
            elems
                .into_iter()
                .enumerate()
                .map(|(i, t)| (i.to_string(), t))
                .collect(),
        )
    }
    pub fn unit() -> Type {
        Type::Record(BTreeMap::new())
    }

    /// The labels of a tuple type in order (`0`, `1`, …), when it is one.
    pub fn tuple_arity(fields: &BTreeMap<Name, Type>) -> Option<usize> {
        let n = fields.len();
        (n != 1 && (0..n).all(|i| fields.contains_key(&i.to_string()))).then_some(n)
    }

    /// Substitutes types for type parameters.
    pub fn substitute(&self, subst: &BTreeMap<Name, Type>) -> Type {
        match self {
            Type::Param(name, _) => subst.get(name).cloned().unwrap_or_else(|| self.clone()),
            Type::Prim(_) | Type::Meta(_) => self.clone(),
            Type::Arrow(a, b) => Type::arrow(a.substitute(subst), b.substitute(subst)),
            Type::Record(fs) => Type::Record(
                fs.iter()
                    .map(|(l, t)| (l.clone(), t.substitute(subst)))
                    .collect(),
            ),
            Type::Array(t) => Type::array(t.substitute(subst)),
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(c, ts)| (c.clone(), ts.iter().map(|t| t.substitute(subst)).collect()))
                    .collect(),
            ),
        }
    }

    /// Applies `f` to every type inside (bottom-up).
    pub fn map_types(&self, f: &mut impl FnMut(&Type) -> Option<Type>) -> Type {
        if let Some(t) = f(self) {
            return t;
        }
        match self {
            Type::Prim(_) | Type::Param(..) | Type::Meta(_) => self.clone(),
            Type::Arrow(a, b) => Type::arrow(a.map_types(f), b.map_types(f)),
            Type::Record(fs) => Type::Record(
                fs.iter()
                    .map(|(l, t)| (l.clone(), t.map_types(f)))
                    .collect(),
            ),
            Type::Array(t) => Type::array(t.map_types(f)),
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(c, ts)| (c.clone(), ts.iter().map(|t| t.map_types(f)).collect()))
                    .collect(),
            ),
        }
    }
}

/// Binary operators. The paper has `+` (T-Plus) and `≤` (T-Leq) on `int`;
/// the rest are the extension to Futhark's operators on every primitive type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// `/`: floats divide; integers round towards negative infinity (Futhark).
    Div,
    /// `%`: the remainder of `/` (sign of the divisor, Futhark); floats: fmod
    /// with the sign of the divisor.
    Mod,
    /// `//`: integer division truncating towards zero.
    Quot,
    /// `%%`: the remainder of `//`.
    Rem,
    Pow,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    /// `>>>`: logical shift right.
    UShr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Quot => "//",
            BinOp::Rem => "%%",
            BinOp::Pow => "**",
            BinOp::Eq => "==",
            BinOp::Neq => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::UShr => ">>>",
        }
    }

    pub fn from_symbol(s: &str) -> Option<BinOp> {
        use BinOp::*;
        [
            Add, Sub, Mul, Div, Mod, Quot, Rem, Pow, Eq, Neq, Lt, Le, Gt, Ge, And, Or, BitAnd,
            BitOr, BitXor, Shl, Shr, UShr,
        ]
        .into_iter()
        .find(|op| op.symbol() == s)
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// Unary operators (extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-e` (wrapping on integers).
    Neg,
    /// `!e`: logical not on `bool`, bitwise complement on integers.
    Not,
}

/// Array and primitive functions without functional arguments (extension;
/// the documented list of intrinsics the module-free front end provides).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// `iota n : []t` for the integer type `t` of `n`.
    Iota,
    /// `replicate n v` (`n: i64`).
    Replicate,
    /// `zip a1 … ak` (k ≥ 2): an array of tuples; sizes must agree.
    Zip(usize),
    /// `unzip a`: a tuple of k arrays from an array of k-tuples.
    Unzip(usize),
    /// `concat a b`.
    Concat,
    /// `transpose a` (a two-dimensional array).
    Transpose,
    /// `flatten a`.
    Flatten,
    /// `unflatten n m a` (`n*m` must be the length of `a`).
    Unflatten,
    /// `reverse a`.
    Reverse,
    /// `rotate r a`: element `i` of the result is `a[(i + r) mod n]`.
    Rotate,
    /// `scatter dest is vs`: `dest` with `dest[is[j]] = vs[j]` for in-bounds
    /// `is[j]` (out-of-bounds writes are ignored, as in Futhark).
    Scatter,
    /// `start..next...end` etc.: a range with its step (`next - start`, or
    /// ±1) and end kind; invalid ranges are `err`, as in Futhark.
    Range(RangeKind),
    /// The size of dimension `k` of an array (0 if an outer dimension is
    /// empty); used to bind size parameters (TFP'18 §5.2).
    Dim(usize),
    /// Conversion to a primitive type (`i32.f64`, `f32.i64`, …).
    Convert(PrimType),
    /// A primitive function of `Math`.
    Math(MathFun),
    /// Extension: the bits of a float or unsigned integer read as the
    /// primitive type of the same width and the other kind (`f32.to_bits`,
    /// `f32.from_bits`: f32 ↔ u32, f64 ↔ u64).
    Reinterpret(PrimType),
}

/// How a range ends: `...` (inclusive), `..<`, `..>` (exclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangeKind {
    Inclusive,
    UpToExclusive,
    DownToExclusive,
}

/// Primitive functions of the numeric modules (`f32.sqrt`, `i32.max`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFun {
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
    Log1p,
    /// Γ.
    Gamma,
    /// log |Γ|.
    Lgamma,
    Erf,
    Erfc,
    Trunc,
    Atan2,
    Floor,
    Ceil,
    Round,
    Abs,
    Signum,
    Min,
    Max,
    IsNan,
    IsInf,
    /// The number of one bits (integers, to `i32`).
    Popc,
    /// Leading zero bits (integers, to `i32`; the width for 0).
    Clz,
    /// Trailing zero bits (integers, to `i32`; the width for 0).
    Ctz,
    /// The high half of the double-width product (integers; signed for
    /// signed types).
    MulHi,
    /// `a * b + c` rounded once (floats).
    Fma,
}

/// The primitive types a [`MathFun`] is defined on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathDomain {
    Floats,
    Integers,
    /// Integers and floats.
    Numbers,
}

impl MathFun {
    pub fn name(self) -> &'static str {
        match self {
            MathFun::Sqrt => "sqrt",
            MathFun::Exp => "exp",
            MathFun::Log => "log",
            MathFun::Log2 => "log2",
            MathFun::Log10 => "log10",
            MathFun::Asin => "asin",
            MathFun::Acos => "acos",
            MathFun::Atan => "atan",
            MathFun::Sinh => "sinh",
            MathFun::Cosh => "cosh",
            MathFun::Tanh => "tanh",
            MathFun::Asinh => "asinh",
            MathFun::Acosh => "acosh",
            MathFun::Atanh => "atanh",
            MathFun::Cbrt => "cbrt",
            MathFun::Log1p => "log1p",
            MathFun::Gamma => "gamma",
            MathFun::Lgamma => "lgamma",
            MathFun::Erf => "erf",
            MathFun::Erfc => "erfc",
            MathFun::Trunc => "trunc",
            MathFun::Sin => "sin",
            MathFun::Cos => "cos",
            MathFun::Tan => "tan",
            MathFun::Atan2 => "atan2",
            MathFun::Floor => "floor",
            MathFun::Ceil => "ceil",
            MathFun::Round => "round",
            MathFun::Abs => "abs",
            MathFun::Signum => "sgn",
            MathFun::Min => "min",
            MathFun::Max => "max",
            MathFun::IsNan => "isnan",
            MathFun::IsInf => "isinf",
            MathFun::Popc => "popc",
            MathFun::Clz => "clz",
            MathFun::Ctz => "ctz",
            MathFun::MulHi => "mul_hi",
            MathFun::Fma => "fma",
        }
    }
    pub fn from_name(name: &str) -> Option<MathFun> {
        use MathFun::*;
        [
            Sqrt, Exp, Log, Log2, Log10, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh,
            Acosh, Atanh, Cbrt, Log1p, Gamma, Lgamma, Erf, Erfc, Trunc, Atan2, Floor, Ceil, Round,
            Abs, Signum, Min, Max, IsNan, IsInf, Popc, Clz, Ctz, MulHi, Fma,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }
    /// How many arguments it takes.
    pub fn arity(self) -> usize {
        match self {
            MathFun::Atan2 | MathFun::Min | MathFun::Max | MathFun::MulHi => 2,
            MathFun::Fma => 3,
            _ => 1,
        }
    }
    /// The primitive types it is defined on.
    pub fn domain(self) -> MathDomain {
        match self {
            MathFun::Abs | MathFun::Signum | MathFun::Min | MathFun::Max => MathDomain::Numbers,
            MathFun::Popc | MathFun::Clz | MathFun::Ctz | MathFun::MulHi => MathDomain::Integers,
            _ => MathDomain::Floats,
        }
    }
    /// Its result type on arguments of type `operand`.
    pub fn result_type(self, operand: PrimType) -> PrimType {
        match self {
            MathFun::IsNan | MathFun::IsInf => PrimType::Bool,
            MathFun::Popc | MathFun::Clz | MathFun::Ctz => PrimType::I32,
            _ => operand,
        }
    }
}

impl Intrinsic {
    pub fn name(&self) -> String {
        match self {
            Intrinsic::Iota => "iota".into(),
            Intrinsic::Replicate => "replicate".into(),
            Intrinsic::Zip(_) => "zip".into(),
            Intrinsic::Unzip(_) => "unzip".into(),
            Intrinsic::Concat => "concat".into(),
            Intrinsic::Transpose => "transpose".into(),
            Intrinsic::Flatten => "flatten".into(),
            Intrinsic::Unflatten => "unflatten".into(),
            Intrinsic::Reverse => "reverse".into(),
            Intrinsic::Rotate => "rotate".into(),
            Intrinsic::Scatter => "scatter".into(),
            Intrinsic::Dim(k) => format!("dim{k}"),
            Intrinsic::Range(RangeKind::Inclusive) => "range_inclusive".into(),
            Intrinsic::Range(RangeKind::UpToExclusive) => "range_upto".into(),
            Intrinsic::Range(RangeKind::DownToExclusive) => "range_downto".into(),
            Intrinsic::Convert(t) => format!("{t}.convert"),
            Intrinsic::Reinterpret(t) => format!("{t}.reinterpret"),
            Intrinsic::Math(f) => f.name().into(),
        }
    }
}

/// λx:τ. e0, shared between the expression and the closures and static
/// values built from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lambda {
    pub param: Name,
    pub param_type: Type,
    pub body: Expr,
    /// Extension (proofs-notes/uniqueness.md): the parameter's declared
    /// uniqueness (`(xs: *[]t)`), per component of a tuple or record.
    pub param_uniqueness: Uniqueness,
    /// Extension (proofs-notes/uniqueness.md): the declared uniqueness of
    /// the function's result (`: *[]t`), on the last λ of a function with a
    /// return type; `·` elsewhere.
    pub result_uniqueness: Uniqueness,
}

/// Extension (proofs-notes/uniqueness.md §2): `u ∈ {∗, ·}` of a parameter or
/// result type, per component of a tuple or record type.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Uniqueness {
    /// `·`: observed (the default: no annotation).
    #[default]
    Nonunique,
    /// `∗`: consumable (every component).
    Unique,
    /// A tuple or record type whose components differ (labels as in
    /// [`Type::Record`]; a missing label is `·`).
    Components(BTreeMap<Name, Uniqueness>),
}

impl Uniqueness {
    /// Extension (proofs-notes/uniqueness.md): what a parameter pattern or
    /// a return type declares by its `*`s (read by `spec`).
    pub fn declared(declared: &DeclaredUniqueness) -> Uniqueness {
        match declared {
            DeclaredUniqueness::Nonunique => Uniqueness::Nonunique,
            DeclaredUniqueness::Unique => Uniqueness::Unique,
            DeclaredUniqueness::Components(components) => Uniqueness::Components(
                components
                    .iter()
                    .map(|(label, component)| (label.clone(), Uniqueness::declared(component)))
                    .collect(),
            ),
        }
    }

    /// The uniqueness of component `label`.
    pub fn component(&self, label: &str) -> Uniqueness {
        match self {
            Uniqueness::Nonunique => Uniqueness::Nonunique,
            Uniqueness::Unique => Uniqueness::Unique,
            Uniqueness::Components(cs) => cs.get(label).cloned().unwrap_or_default(),
        }
    }
    /// Whether some component is `∗`.
    pub fn any_unique(&self) -> bool {
        match self {
            Uniqueness::Nonunique => false,
            Uniqueness::Unique => true,
            Uniqueness::Components(cs) => cs.values().any(Uniqueness::any_unique),
        }
    }
}

/// How a `loop` iterates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopForm {
    /// `for y in e2` (the paper's form).
    ForIn { var: Name, array: Box<Expr> },
    /// Extension: `while e`.
    While { condition: Box<Expr> },
}

/// Whether a [`ExprKind::Reduce`] is a `reduce` or a `scan` (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceKind {
    Reduce,
    Scan,
}

/// A pattern of a `match` case (extension).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    Wildcard,
    Var(Name),
    Literal(PrimValue),
    Record(Vec<(Name, Pat)>),
    Constructor(Name, Vec<Pat>),
}

/// An expression with the source location it was elaborated from (run-time
/// errors and typing errors point there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// e.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// x; extension: a polymorphic top-level name carries its instantiation.
    Var { name: Name, type_args: Vec<Type> },
    /// n, true, false; extension: every primitive literal.
    Literal(PrimValue),
    /// e1 + e2, e1 ≤ e2; extension: every binary operator.
    BinOp {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// Extension: `-e`, `!e`.
    UnOp { op: UnOp, operand: Box<Expr> },
    If {
        condition: Box<Expr>,
        then_branch: Box<Expr>,
        else_branch: Box<Expr>,
    },
    /// λx:τ. e0.
    Lambda(Rc<Lambda>),
    /// e1 e2.
    Apply {
        function: Box<Expr>,
        argument: Box<Expr>,
    },
    /// let x = e1 in e2.
    Let {
        name: Name,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// {(ℓi = ei)} (fields in written order; evaluated left to right).
    Record(Vec<(Name, Expr)>),
    /// e0.ℓ.
    Project { record: Box<Expr>, label: Name },
    /// [e1, …, en]; extension: `n = 0` with the element type given.
    Array {
        elements: Vec<Expr>,
        elem_type: Type,
    },
    /// e1[e2].
    Index { array: Box<Expr>, index: Box<Expr> },
    /// e0 with [e1] ← e2.
    Update {
        array: Box<Expr>,
        index: Box<Expr>,
        value: Box<Expr>,
    },
    /// length e0.
    Length(Box<Expr>),
    /// map (λx. e1) e2.
    Map {
        param: Name,
        body: Box<Expr>,
        array: Box<Expr>,
    },
    /// loop x = e1 for y in e2 do e3; extension: `while`.
    Loop {
        param: Name,
        /// Extension (proofs-notes/uniqueness.md U-Loop): the `*`s of the
        /// loop's pattern, per component of `x`.
        param_uniqueness: Uniqueness,
        init: Box<Expr>,
        form: LoopForm,
        body: Box<Expr>,
    },
    /// Extension: `reduce (λx y. e) ne a` and `scan (λx y. e) ne a`.
    Reduce {
        kind: ReduceKind,
        x: Name,
        y: Name,
        operator: Box<Expr>,
        neutral: Box<Expr>,
        array: Box<Expr>,
    },
    /// Extension: `filter (λx. e) a`.
    Filter {
        param: Name,
        predicate: Box<Expr>,
        array: Box<Expr>,
    },
    /// Extension: `reduce_by_index dest (λx y. e) ne is vs`.
    ReduceByIndex {
        dest: Box<Expr>,
        x: Name,
        y: Name,
        operator: Box<Expr>,
        neutral: Box<Expr>,
        indices: Box<Expr>,
        values: Box<Expr>,
    },
    /// Extension: `a[i:j:s]` on the outer dimension; missing parts default as
    /// in Futhark.
    Slice {
        array: Box<Expr>,
        start: Option<Box<Expr>>,
        end: Option<Box<Expr>>,
        stride: Option<Box<Expr>>,
    },
    /// Extension: an intrinsic applied to all its arguments.
    Intrinsic { op: Intrinsic, args: Vec<Expr> },
    /// Extension: `err` with `message` at this expression's span unless
    /// `condition` holds, then `body` (size checks of TFP'18 §5.2).
    Assert {
        condition: Box<Expr>,
        message: String,
        body: Box<Expr>,
    },
    /// Extension: `#c e…` at the sum type `sum_type`.
    Constructor {
        name: Name,
        payload: Vec<Expr>,
        sum_type: Type,
    },
    /// Extension: `match e case p -> e …` (first matching case).
    Match {
        scrutinee: Box<Expr>,
        cases: Vec<(Pat, Expr)>,
    },
    /// Target programs only (TFP'18 §5.3, lambda lifting): a call of a
    /// lifted first-order function with all its arguments.
    Call { function: Name, args: Vec<Expr> },
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
    pub fn var(name: impl Into<Name>, span: Span) -> Expr {
        Expr::new(
            ExprKind::Var {
                name: name.into(),
                type_args: Vec::new(),
            },
            span,
        )
    }
    pub fn boxed(self) -> Box<Expr> {
        Box::new(self)
    }
}

/// A type parameter of a top-level declaration (extension, TFP'18 §5.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeParam {
    pub name: Name,
    pub liftedness: Liftedness,
}

/// A top-level declaration `def name 'a… = λx1:τ1. … λxn:τn. e` (the
/// paper's "top-level function definitions", §3 last paragraph).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueDec {
    pub name: Name,
    pub type_params: Vec<TypeParam>,
    /// The declared type of `value`.
    pub ty: Type,
    /// How many syntactic parameters (outer lambdas of `value`) it has.
    pub param_count: usize,
    pub value: Expr,
    pub span: Span,
}

/// An entry point: a monomorphic top-level declaration run on input values.
/// Its parameter and result types must be of order zero (TFP'18 §3: "the
/// designated main function is first-order").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    /// The declaration it runs (also the name users give with `-e`).
    pub name: Name,
    pub param_types: Vec<Type>,
    pub result_type: Type,
    pub span: Span,
}

/// A core program: declarations in order (each sees the earlier ones) and
/// its entry points.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Program {
    pub decs: Vec<ValueDec>,
    pub entries: Vec<EntryPoint>,
}

impl Program {
    pub fn entry(&self, name: &str) -> Option<&EntryPoint> {
        self.entries.iter().find(|e| e.name == name)
    }
    pub fn dec(&self, name: &str) -> Option<&ValueDec> {
        self.decs.iter().rev().find(|d| d.name == name)
    }
}

/// Peels `n` outer lambdas: the parameters and the remaining body.
pub fn peel_lambdas(expr: &Expr, n: usize) -> Option<(Vec<(Name, Type)>, &Expr)> {
    let mut params = Vec::new();
    let mut current = expr;
    for _ in 0..n {
        match &current.kind {
            ExprKind::Lambda(lambda) => {
                params.push((lambda.param.clone(), lambda.param_type.clone()));
                current = &lambda.body;
            }
            _ => return None,
        }
    }
    Some((params, current))
}

/// The free variables of an expression, in first-occurrence order.
pub fn free_vars(expr: &Expr) -> Vec<Name> {
    let mut out = Vec::new();
    let mut bound = Vec::new();
    collect_free(expr, &mut bound, &mut out);
    out
}

fn collect_free(expr: &Expr, bound: &mut Vec<Name>, out: &mut Vec<Name>) {
    spec::recursion::with_stack(|| collect_free_inner(expr, bound, out))
}

fn with_bound(names: &[&Name], bound: &mut Vec<Name>, out: &mut Vec<Name>, body: &Expr) {
    let depth = bound.len();
    bound.extend(names.iter().map(|n| (*n).clone()));
    collect_free(body, bound, out);
    bound.truncate(depth);
}

fn pat_vars<'a>(pat: &'a Pat, out: &mut Vec<&'a Name>) {
    match pat {
        Pat::Wildcard | Pat::Literal(_) => {}
        Pat::Var(x) => out.push(x),
        Pat::Record(fields) => fields.iter().for_each(|(_, p)| pat_vars(p, out)),
        Pat::Constructor(_, ps) => ps.iter().for_each(|p| pat_vars(p, out)),
    }
}

fn collect_free_inner(expr: &Expr, bound: &mut Vec<Name>, out: &mut Vec<Name>) {
    let go = |e: &Expr, bound: &mut Vec<Name>, out: &mut Vec<Name>| collect_free(e, bound, out);
    match &expr.kind {
        ExprKind::Var { name, .. } => {
            if !bound.contains(name) && !out.contains(name) {
                out.push(name.clone());
            }
        }
        ExprKind::Literal(_) => {}
        ExprKind::BinOp { lhs, rhs, .. } => {
            go(lhs, bound, out);
            go(rhs, bound, out);
        }
        ExprKind::UnOp { operand, .. } => go(operand, bound, out),
        ExprKind::If {
            condition,
            then_branch,
            else_branch,
        } => {
            go(condition, bound, out);
            go(then_branch, bound, out);
            go(else_branch, bound, out);
        }
        ExprKind::Lambda(lambda) => with_bound(&[&lambda.param], bound, out, &lambda.body),
        ExprKind::Apply { function, argument } => {
            go(function, bound, out);
            go(argument, bound, out);
        }
        ExprKind::Let { name, value, body } => {
            go(value, bound, out);
            with_bound(&[name], bound, out, body);
        }
        ExprKind::Record(fields) => fields.iter().for_each(|(_, e)| go(e, bound, out)),
        ExprKind::Project { record, .. } => go(record, bound, out),
        ExprKind::Array { elements, .. } => elements.iter().for_each(|e| go(e, bound, out)),
        ExprKind::Index { array, index } => {
            go(array, bound, out);
            go(index, bound, out);
        }
        ExprKind::Update {
            array,
            index,
            value,
        } => {
            go(array, bound, out);
            go(index, bound, out);
            go(value, bound, out);
        }
        ExprKind::Length(e) => go(e, bound, out),
        ExprKind::Map { param, body, array } => {
            go(array, bound, out);
            with_bound(&[param], bound, out, body);
        }
        ExprKind::Loop {
            param,
            init,
            form,
            body,
            ..
        } => {
            go(init, bound, out);
            match form {
                LoopForm::ForIn { var, array } => {
                    go(array, bound, out);
                    with_bound(&[param, var], bound, out, body);
                }
                LoopForm::While { condition } => {
                    with_bound(&[param], bound, out, condition);
                    with_bound(&[param], bound, out, body);
                }
            }
        }
        ExprKind::Reduce {
            x,
            y,
            operator,
            neutral,
            array,
            ..
        } => {
            go(neutral, bound, out);
            go(array, bound, out);
            with_bound(&[x, y], bound, out, operator);
        }
        ExprKind::Filter {
            param,
            predicate,
            array,
        } => {
            go(array, bound, out);
            with_bound(&[param], bound, out, predicate);
        }
        ExprKind::ReduceByIndex {
            dest,
            x,
            y,
            operator,
            neutral,
            indices,
            values,
        } => {
            go(dest, bound, out);
            go(neutral, bound, out);
            go(indices, bound, out);
            go(values, bound, out);
            with_bound(&[x, y], bound, out, operator);
        }
        ExprKind::Slice {
            array,
            start,
            end,
            stride,
        } => {
            go(array, bound, out);
            for part in [start, end, stride].into_iter().flatten() {
                go(part, bound, out);
            }
        }
        ExprKind::Intrinsic { args, .. } | ExprKind::Call { args, .. } => {
            args.iter().for_each(|e| go(e, bound, out))
        }
        ExprKind::Assert {
            condition, body, ..
        } => {
            go(condition, bound, out);
            go(body, bound, out);
        }
        ExprKind::Constructor { payload, .. } => payload.iter().for_each(|e| go(e, bound, out)),
        ExprKind::Match { scrutinee, cases } => {
            go(scrutinee, bound, out);
            for (pat, body) in cases {
                let mut names = Vec::new();
                pat_vars(pat, &mut names);
                with_bound(&names, bound, out, body);
            }
        }
    }
}

/// The variables a pattern binds.
pub fn pattern_vars(pat: &Pat) -> Vec<Name> {
    let mut names = Vec::new();
    pat_vars(pat, &mut names);
    names.into_iter().cloned().collect()
}

/// A lambda-lifted first-order function of a target program (TFP'18 §5.3):
/// `def name (env: τenv) (x: τx) : τ = body`, closed but for calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiftedFunction {
    pub name: Name,
    pub params: Vec<(Name, Type)>,
    pub result_type: Type,
    pub body: Expr,
}

/// Applies `f` to every type written in an expression (λ parameter types,
/// element types, sum types, type arguments), rebuilding it.
pub fn map_expr_types(expr: &Expr, f: &mut dyn FnMut(&Type) -> Type) -> Expr {
    struct TypeMap<'a>(&'a mut dyn FnMut(&Type) -> Type);
    impl Rebuilder for TypeMap<'_> {
        fn ty(&mut self, t: &Type) -> Type {
            (self.0)(t)
        }
        fn expr(&mut self, e: &Expr) -> Expr {
            rebuild(e, self)
        }
    }
    rebuild(expr, &mut TypeMap(f))
}

/// Replaces every immediate subexpression `c` of `expr` by `f(c)`.
pub fn map_children(expr: &Expr, f: &mut dyn FnMut(&Expr) -> Expr) -> Expr {
    struct ChildMap<'a>(&'a mut dyn FnMut(&Expr) -> Expr);
    impl Rebuilder for ChildMap<'_> {
        fn ty(&mut self, t: &Type) -> Type {
            t.clone()
        }
        fn expr(&mut self, e: &Expr) -> Expr {
            (self.0)(e)
        }
    }
    rebuild(expr, &mut ChildMap(f))
}

/// What [`rebuild`] does to types and to subexpressions.
pub trait Rebuilder {
    fn ty(&mut self, t: &Type) -> Type;
    fn expr(&mut self, e: &Expr) -> Expr;
}

/// Rebuilds one node, mapping its types and immediate subexpressions.
pub fn rebuild(expr: &Expr, r: &mut dyn Rebuilder) -> Expr {
    spec::recursion::with_stack(|| {
        let span = expr.span;
        let kind = match &expr.kind {
            ExprKind::Var { name, type_args } => ExprKind::Var {
                name: name.clone(),
                type_args: type_args.iter().map(|t| r.ty(t)).collect(),
            },
            ExprKind::Literal(p) => ExprKind::Literal(*p),
            ExprKind::BinOp { op, lhs, rhs } => ExprKind::BinOp {
                op: *op,
                lhs: r.expr(lhs).boxed(),
                rhs: r.expr(rhs).boxed(),
            },
            ExprKind::UnOp { op, operand } => ExprKind::UnOp {
                op: *op,
                operand: r.expr(operand).boxed(),
            },
            ExprKind::If {
                condition,
                then_branch,
                else_branch,
            } => ExprKind::If {
                condition: r.expr(condition).boxed(),
                then_branch: r.expr(then_branch).boxed(),
                else_branch: r.expr(else_branch).boxed(),
            },
            ExprKind::Lambda(l) => ExprKind::Lambda(Rc::new(Lambda {
                param: l.param.clone(),
                param_type: r.ty(&l.param_type),
                body: r.expr(&l.body),
                param_uniqueness: l.param_uniqueness.clone(),
                result_uniqueness: l.result_uniqueness.clone(),
            })),
            ExprKind::Apply { function, argument } => ExprKind::Apply {
                function: r.expr(function).boxed(),
                argument: r.expr(argument).boxed(),
            },
            ExprKind::Let { name, value, body } => ExprKind::Let {
                name: name.clone(),
                value: r.expr(value).boxed(),
                body: r.expr(body).boxed(),
            },
            ExprKind::Record(fields) => {
                ExprKind::Record(fields.iter().map(|(l, e)| (l.clone(), r.expr(e))).collect())
            }
            ExprKind::Project { record, label } => ExprKind::Project {
                record: r.expr(record).boxed(),
                label: label.clone(),
            },
            ExprKind::Array {
                elements,
                elem_type,
            } => ExprKind::Array {
                elements: elements.iter().map(|e| r.expr(e)).collect(),
                elem_type: r.ty(elem_type),
            },
            ExprKind::Index { array, index } => ExprKind::Index {
                array: r.expr(array).boxed(),
                index: r.expr(index).boxed(),
            },
            ExprKind::Update {
                array,
                index,
                value,
            } => ExprKind::Update {
                array: r.expr(array).boxed(),
                index: r.expr(index).boxed(),
                value: r.expr(value).boxed(),
            },
            ExprKind::Length(e) => ExprKind::Length(r.expr(e).boxed()),
            ExprKind::Map { param, body, array } => ExprKind::Map {
                param: param.clone(),
                body: r.expr(body).boxed(),
                array: r.expr(array).boxed(),
            },
            ExprKind::Loop {
                param,
                param_uniqueness,
                init,
                form,
                body,
            } => ExprKind::Loop {
                param: param.clone(),
                param_uniqueness: param_uniqueness.clone(),
                init: r.expr(init).boxed(),
                form: match form {
                    LoopForm::ForIn { var, array } => LoopForm::ForIn {
                        var: var.clone(),
                        array: r.expr(array).boxed(),
                    },
                    LoopForm::While { condition } => LoopForm::While {
                        condition: r.expr(condition).boxed(),
                    },
                },
                body: r.expr(body).boxed(),
            },
            ExprKind::Reduce {
                kind,
                x,
                y,
                operator,
                neutral,
                array,
            } => ExprKind::Reduce {
                kind: *kind,
                x: x.clone(),
                y: y.clone(),
                operator: r.expr(operator).boxed(),
                neutral: r.expr(neutral).boxed(),
                array: r.expr(array).boxed(),
            },
            ExprKind::Filter {
                param,
                predicate,
                array,
            } => ExprKind::Filter {
                param: param.clone(),
                predicate: r.expr(predicate).boxed(),
                array: r.expr(array).boxed(),
            },
            ExprKind::ReduceByIndex {
                dest,
                x,
                y,
                operator,
                neutral,
                indices,
                values,
            } => ExprKind::ReduceByIndex {
                dest: r.expr(dest).boxed(),
                x: x.clone(),
                y: y.clone(),
                operator: r.expr(operator).boxed(),
                neutral: r.expr(neutral).boxed(),
                indices: r.expr(indices).boxed(),
                values: r.expr(values).boxed(),
            },
            ExprKind::Slice {
                array,
                start,
                end,
                stride,
            } => ExprKind::Slice {
                array: r.expr(array).boxed(),
                start: start.as_ref().map(|e| r.expr(e).boxed()),
                end: end.as_ref().map(|e| r.expr(e).boxed()),
                stride: stride.as_ref().map(|e| r.expr(e).boxed()),
            },
            ExprKind::Intrinsic { op, args } => ExprKind::Intrinsic {
                op: op.clone(),
                args: args.iter().map(|e| r.expr(e)).collect(),
            },
            ExprKind::Call { function, args } => ExprKind::Call {
                function: function.clone(),
                args: args.iter().map(|e| r.expr(e)).collect(),
            },
            ExprKind::Assert {
                condition,
                message,
                body,
            } => ExprKind::Assert {
                condition: r.expr(condition).boxed(),
                message: message.clone(),
                body: r.expr(body).boxed(),
            },
            ExprKind::Constructor {
                name,
                payload,
                sum_type,
            } => ExprKind::Constructor {
                name: name.clone(),
                payload: payload.iter().map(|e| r.expr(e)).collect(),
                sum_type: r.ty(sum_type),
            },
            ExprKind::Match { scrutinee, cases } => ExprKind::Match {
                scrutinee: r.expr(scrutinee).boxed(),
                cases: cases.iter().map(|(p, e)| (p.clone(), r.expr(e))).collect(),
            },
        };
        Expr { kind, span }
    })
}
