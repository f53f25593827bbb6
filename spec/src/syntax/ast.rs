//! The surface syntax tree of runestone's Futhark subset.
//!
//! One type per syntactic class of the Futhark language reference (declarations,
//! module expressions, module type expressions, type expressions, patterns,
//! expressions), covering DESIGN.md's surface-language steps 1–4. The tree is
//! *abstract*: parentheses, `let`-chains without `in`, `def`/`let` at top level,
//! `{x}` record shorthand and the infix form of operator definitions are
//! normalised away by the parser, so [`super::printer`] can print every tree and
//! re-parsing the output gives the same tree.
//!
//! Every node carries the [`Span`] it was parsed from. Spans compare equal
//! whatever they hold (see [`crate::source`]), so `==` on trees is structural.
//!
//! Names are not resolved here: `a.b.c` in an expression is a [`QualName`] even
//! when `a` turns out to be a record rather than a module (the elaborators decide,
//! as Futhark does); primitive types such as `i32` are type names.

use crate::source::Span;

/// The name `assert c e` applies: the keyword itself, which no program can
/// bind, shadow or qualify. Both implementations give it the type
/// `bool -> t -> t` (for `t` of order zero): `e`'s value when `c` holds,
/// else the run-time error [`ASSERTION_FAILED`] at the `assert`'s location.
pub const ASSERT: &str = "assert";

/// The message of a failed `assert`, on every implementation (Futhark's
/// begins the same way).
pub const ASSERTION_FAILED: &str = "Assertion is false";

/// An identifier, an operator symbol (`+`, `+^`, `>>=`), or a record field
/// (`x`, `0`).
pub type Name = String;

/// A possibly qualified name: `x`, `m.x`, `m.n.+`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QualName {
    pub qualifiers: Vec<Name>,
    pub name: Name,
    pub span: Span,
}

impl QualName {
    pub fn unqualified(name: impl Into<Name>, span: Span) -> QualName {
        QualName {
            qualifiers: Vec::new(),
            name: name.into(),
            span,
        }
    }
}

/// A whole file: a sequence of declarations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub decs: Vec<Dec>,
}

/// An attribute `#[name]`, `#[3]`, `#[name(a, b)]`; parsed and kept, never
/// interpreted (DESIGN.md: attributes are out of scope beyond parsing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attr {
    Name(Name),
    Int(u64),
    Call(Name, Vec<Attr>),
}

// ---------------------------------------------------------------------------
// Declarations

/// A declaration (`dec` in the Futhark grammar).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dec {
    /// `def`/`entry` (top-level `let` is read as `def`).
    Value(ValueBind),
    /// `type`, `type^`, `type~`.
    Type(TypeBind),
    /// `module m params : mt = me`.
    Module(ModuleBind),
    /// `module type mt = mte`.
    ModuleType(ModuleTypeBind),
    /// `open me`.
    Open { module: ModExp, span: Span },
    /// `import "path"`.
    Import { path: String, span: Span },
    /// `local dec`.
    Local { dec: Box<Dec>, span: Span },
    /// `#[attr] dec`.
    Attr {
        attr: Attr,
        dec: Box<Dec>,
        span: Span,
    },
}

/// Whether a value binding is an entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueBindKind {
    Def,
    Entry,
}

/// `def name type_params params : return_type = body`. An operator definition
/// (`def (+^) a b = …` or `def a +^ b = …`) has the operator symbol as `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueBind {
    pub kind: ValueBindKind,
    pub name: Name,
    pub type_params: Vec<TypeParam>,
    pub params: Vec<Pat>,
    pub return_type: Option<TypeExp>,
    pub body: Expr,
    pub span: Span,
}

/// Liftedness of a type binding or type parameter: `type`/`'a` (unlifted),
/// `type~`/`'~a` (may hide existential sizes), `type^`/`'^a` (may hold functions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Liftedness {
    Unlifted,
    SizeLifted,
    Lifted,
}

/// A type parameter: `[n]` (size) or `'a`, `'~a`, `'^a` (type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeParam {
    Size {
        name: Name,
        span: Span,
    },
    Type {
        name: Name,
        liftedness: Liftedness,
        span: Span,
    },
}

/// `type name params = definition` (with `^`/`~` as `liftedness`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeBind {
    pub liftedness: Liftedness,
    pub name: Name,
    pub params: Vec<TypeParam>,
    pub definition: TypeExp,
    pub span: Span,
}

/// A functor parameter `(name: mt)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModParam {
    pub name: Name,
    pub mod_type: ModTypeExp,
    pub span: Span,
}

/// `module name (p1: mt1) … : signature = body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleBind {
    pub name: Name,
    pub params: Vec<ModParam>,
    pub signature: Option<ModTypeExp>,
    pub body: ModExp,
    pub span: Span,
}

/// `module type name = definition`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleTypeBind {
    pub name: Name,
    pub definition: ModTypeExp,
    pub span: Span,
}

// ---------------------------------------------------------------------------
// Module expressions and module types

/// A module expression (`mod_exp`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModExp {
    /// `m`, `m.n`.
    Var(QualName),
    /// `{ decs }`.
    Struct { decs: Vec<Dec>, span: Span },
    /// `me : mt` (opaque ascription).
    Ascribe {
        module: Box<ModExp>,
        mod_type: ModTypeExp,
        span: Span,
    },
    /// `\(p: mt) : result -> body`.
    Lambda {
        param: Box<ModParam>,
        result: Option<ModTypeExp>,
        body: Box<ModExp>,
        span: Span,
    },
    /// `functor argument` (juxtaposition, left-associative).
    Apply {
        functor: Box<ModExp>,
        argument: Box<ModExp>,
        span: Span,
    },
    /// `import "path"` as a module expression.
    Import { path: String, span: Span },
}

/// A module type expression (`mod_type_exp`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModTypeExp {
    /// `mt`, `m.mt`.
    Var(QualName),
    /// `{ specs }`.
    Signature { specs: Vec<Spec>, span: Span },
    /// `mt with name params = type`.
    With {
        mod_type: Box<ModTypeExp>,
        refinement: TypeRefinement,
        span: Span,
    },
    /// `(param: from) -> to`, or `from -> to` when `param` is `None`.
    Arrow {
        param: Option<Name>,
        from: Box<ModTypeExp>,
        to: Box<ModTypeExp>,
        span: Span,
    },
}

/// The `name params = definition` of `mt with name params = definition`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeRefinement {
    pub name: QualName,
    pub params: Vec<TypeParam>,
    pub definition: TypeExp,
}

/// A specification inside a module type `{ … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `val name type_params : ty` (operators as `val (+) : …`).
    Val {
        name: Name,
        type_params: Vec<TypeParam>,
        ty: TypeExp,
        span: Span,
    },
    /// `type name params` (abstract) or `type name params = definition`.
    Type {
        liftedness: Liftedness,
        name: Name,
        params: Vec<TypeParam>,
        definition: Option<TypeExp>,
        span: Span,
    },
    /// `module name : mt`.
    Module {
        name: Name,
        mod_type: ModTypeExp,
        span: Span,
    },
    /// `include mt`.
    Include { mod_type: ModTypeExp, span: Span },
}

// ---------------------------------------------------------------------------
// Types

/// An array dimension in a type: `[n]`, `[3]`, anonymous `[]`, or a size
/// expression `[n+1]`, `[i64.max n m]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeExp {
    Anonymous,
    Named(QualName),
    Constant(u64),
    /// Any other `i64` expression over the names in scope (never a bare
    /// name or an unsuffixed integer: those are [`SizeExp::Named`] and
    /// [`SizeExp::Constant`]).
    Expression(Box<Expr>),
}

/// An argument of a type application: `[n]` or a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeArg {
    Size { size: SizeExp, span: Span },
    Type(TypeExp),
}

/// A constructor of a sum type: `#name payload…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumConstructor {
    pub name: Name,
    pub payload: Vec<TypeExp>,
    pub span: Span,
}

/// A type expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeExp {
    /// `t`, `m.t`, `i32`.
    Var(QualName),
    /// `t a [n] b` (at least one argument).
    Apply {
        constructor: QualName,
        args: Vec<TypeArg>,
        span: Span,
    },
    /// `[size]element`.
    Array {
        size: SizeExp,
        element: Box<TypeExp>,
        span: Span,
    },
    /// `()` (no elements) or `(t1, t2, …)` (two or more).
    Tuple { elements: Vec<TypeExp>, span: Span },
    /// `{f1: t1, f2: t2}`.
    Record {
        fields: Vec<(Name, TypeExp)>,
        span: Span,
    },
    /// `(param: from) -> to`, or `from -> to` when `param` is `None`.
    Arrow {
        param: Option<Name>,
        from: Box<TypeExp>,
        to: Box<TypeExp>,
        span: Span,
    },
    /// `#a t | #b` (at least one constructor).
    Sum {
        constructors: Vec<SumConstructor>,
        span: Span,
    },
    /// `*t` (uniqueness; parsed and kept, never checked).
    Unique { ty: Box<TypeExp>, span: Span },
    /// `?[n][m].t`.
    Existential {
        sizes: Vec<Name>,
        ty: Box<TypeExp>,
        span: Span,
    },
}

// ---------------------------------------------------------------------------
// Literals and patterns

/// The integer types, used as literal suffixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

/// The floating-point types, used as literal suffixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatType {
    F32,
    F64,
}

/// A literal. Numeric literals are non-negative (`-1` is negation of `1`, except
/// in patterns, see [`Pat::Literal`]). A float literal keeps the bits of the
/// nearest `f64`, as Futhark does before the suffix or inference picks its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Literal {
    Int {
        value: u64,
        suffix: Option<IntType>,
    },
    Float {
        bits: u64,
        suffix: Option<FloatType>,
    },
    Bool(bool),
}

impl Literal {
    pub fn float(value: f64, suffix: Option<FloatType>) -> Literal {
        Literal::Float {
            bits: value.to_bits(),
            suffix,
        }
    }
}

/// A pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    /// `x` (an identifier; operator patterns are `(+)` in Futhark, written
    /// with the symbol as the name).
    Var { name: Name, span: Span },
    /// `_`.
    Wildcard { span: Span },
    /// `()` (no elements) or `(p1, p2, …)` (two or more).
    Tuple { elements: Vec<Pat>, span: Span },
    /// `{f1 = p1, f2 = p2}`; the shorthand `{f}` is read as `{f = f}`.
    Record {
        fields: Vec<(Name, Pat)>,
        span: Span,
    },
    /// A literal, possibly negated: `-1`, `2.0f32`, `true`.
    Literal {
        negative: bool,
        literal: Literal,
        span: Span,
    },
    /// `#c p1 p2`.
    Constructor {
        name: Name,
        payload: Vec<Pat>,
        span: Span,
    },
    /// `p : t`.
    Ascribe {
        pat: Box<Pat>,
        ty: TypeExp,
        span: Span,
    },
    /// `#[attr] p`.
    Attr {
        attr: Attr,
        pat: Box<Pat>,
        span: Span,
    },
}

// ---------------------------------------------------------------------------
// Expressions

/// An infix operator in an expression: a symbol (`+`, `i32.+`, `|>`, `&&`) or
/// a backticked name (`` `f` ``).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Symbol(QualName),
    Backtick(QualName),
}

impl BinOp {
    pub fn name(&self) -> &QualName {
        match self {
            BinOp::Symbol(name) | BinOp::Backtick(name) => name,
        }
    }
}

/// One dimension of an index or slice: `i`, or `start:end:stride` with any part
/// optional (`:`, `i:`, `:j`, `::-1`).
// Index lists are short and built once per indexing; boxing the slice bounds
// would only add indirection to every consumer.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DimIndex {
    Index(Expr),
    Slice {
        start: Option<Expr>,
        end: Option<Expr>,
        stride: Option<Expr>,
    },
}

/// How a range ends: `...` (inclusive), `..<` (exclusive, upwards), `..>`
/// (exclusive, downwards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeEnd {
    Inclusive,
    UpToExclusive,
    DownToExclusive,
}

/// The header of a `loop`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopForm {
    /// `for i < bound`.
    For {
        var: Name,
        var_span: Span,
        bound: Box<Expr>,
    },
    /// `for p in array`.
    ForIn { pat: Pat, array: Box<Expr> },
    /// `while condition`.
    While { condition: Box<Expr> },
}

/// A `case p -> e` arm of a `match`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchCase {
    pub pat: Pat,
    pub body: Expr,
    pub span: Span,
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Literal {
        literal: Literal,
        span: Span,
    },
    /// `x`, `m.x`, and also `r.f` before the elaborator tells modules from
    /// records.
    Var(QualName),
    /// `(e).f`: projection from an expression that is not a name.
    Project {
        expr: Box<Expr>,
        field: Name,
        span: Span,
    },
    /// `()` (no elements) or `(e1, e2, …)` (two or more).
    Tuple {
        elements: Vec<Expr>,
        span: Span,
    },
    /// `{f1 = e1, f2 = e2}`; the shorthand `{f}` is read as `{f = f}`.
    Record {
        fields: Vec<(Name, Expr)>,
        span: Span,
    },
    /// `[e1, e2, …]`.
    Array {
        elements: Vec<Expr>,
        span: Span,
    },
    /// `start..step...end`, `start..<end`, `start..>end`.
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        end: Box<Expr>,
        end_kind: RangeEnd,
        span: Span,
    },
    /// `a[i, j:k]` (no space before `[`).
    Index {
        array: Box<Expr>,
        indices: Vec<DimIndex>,
        span: Span,
    },
    /// `f x`.
    Apply {
        function: Box<Expr>,
        argument: Box<Expr>,
        span: Span,
    },
    /// `x op y`.
    BinOp {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        span: Span,
    },
    /// `-e`.
    Negate {
        expr: Box<Expr>,
        span: Span,
    },
    /// `!e`.
    Not {
        expr: Box<Expr>,
        span: Span,
    },
    /// `(op)`.
    OpSection {
        op: BinOp,
        span: Span,
    },
    /// `(e op)`.
    LeftSection {
        op: BinOp,
        left: Box<Expr>,
        span: Span,
    },
    /// `(op e)`.
    RightSection {
        op: BinOp,
        right: Box<Expr>,
        span: Span,
    },
    /// `(.f.g)`.
    ProjectSection {
        fields: Vec<Name>,
        span: Span,
    },
    /// `(.[i, j])`.
    IndexSection {
        indices: Vec<DimIndex>,
        span: Span,
    },
    /// `if c then t else e`.
    If {
        condition: Box<Expr>,
        then_branch: Box<Expr>,
        else_branch: Box<Expr>,
        span: Span,
    },
    /// `let [n] p = value in body`.
    Let {
        sizes: Vec<Name>,
        pat: Pat,
        value: Box<Expr>,
        body: Box<Expr>,
        span: Span,
    },
    /// `let f type_params params : return_type = value in body`.
    LetFun {
        name: Name,
        type_params: Vec<TypeParam>,
        params: Vec<Pat>,
        return_type: Option<TypeExp>,
        value: Box<Expr>,
        body: Box<Expr>,
        span: Span,
    },
    /// `let a[i] = value in body` (in-place update sugar).
    LetWith {
        name: Name,
        name_span: Span,
        indices: Vec<DimIndex>,
        value: Box<Expr>,
        body: Box<Expr>,
        span: Span,
    },
    /// `\p1 p2 : t -> body`.
    Lambda {
        params: Vec<Pat>,
        return_type: Option<TypeExp>,
        body: Box<Expr>,
        span: Span,
    },
    /// `loop pat = init form do body` (`init` omitted: `loop pat form do body`).
    Loop {
        pat: Pat,
        init: Option<Box<Expr>>,
        form: LoopForm,
        body: Box<Expr>,
        span: Span,
    },
    /// `target with [i] = value`.
    Update {
        target: Box<Expr>,
        indices: Vec<DimIndex>,
        value: Box<Expr>,
        span: Span,
    },
    /// `target with f.g = value`.
    RecordUpdate {
        target: Box<Expr>,
        fields: Vec<Name>,
        value: Box<Expr>,
        span: Span,
    },
    /// `e : t`.
    Ascribe {
        expr: Box<Expr>,
        ty: TypeExp,
        span: Span,
    },
    /// `e :> t`.
    Coerce {
        expr: Box<Expr>,
        ty: TypeExp,
        span: Span,
    },
    /// `match e case p1 -> e1 case p2 -> e2`.
    Match {
        scrutinee: Box<Expr>,
        cases: Vec<MatchCase>,
        span: Span,
    },
    /// `#c e1 e2`.
    Constructor {
        name: Name,
        payload: Vec<Expr>,
        span: Span,
    },
    /// `m.(e)`.
    OpenIn {
        module: QualName,
        body: Box<Expr>,
        span: Span,
    },
    /// `#[attr] e`.
    Attr {
        attr: Attr,
        expr: Box<Expr>,
        span: Span,
    },
}

// ---------------------------------------------------------------------------
// Spans

impl Expr {
    /// The expressions directly inside this one, in source order (index
    /// expressions of slices and loop headers included).
    pub fn children(&self) -> Vec<&Expr> {
        fn indices(indices: &[DimIndex]) -> impl Iterator<Item = &Expr> {
            indices.iter().flat_map(|index| match index {
                DimIndex::Index(e) => vec![e],
                DimIndex::Slice { start, end, stride } => {
                    [start, end, stride].into_iter().flatten().collect()
                }
            })
        }
        match self {
            Expr::Literal { .. }
            | Expr::Var(_)
            | Expr::OpSection { .. }
            | Expr::ProjectSection { .. } => Vec::new(),
            Expr::Project { expr, .. }
            | Expr::Negate { expr, .. }
            | Expr::Not { expr, .. }
            | Expr::Ascribe { expr, .. }
            | Expr::Coerce { expr, .. }
            | Expr::Attr { expr, .. } => vec![expr],
            Expr::LeftSection { left, .. } => vec![left],
            Expr::RightSection { right, .. } => vec![right],
            Expr::Tuple { elements, .. } | Expr::Array { elements, .. } => {
                elements.iter().collect()
            }
            Expr::Record { fields, .. } => fields.iter().map(|(_, e)| e).collect(),
            Expr::Range {
                start, step, end, ..
            } => std::iter::once(&**start)
                .chain(step.as_deref())
                .chain(std::iter::once(&**end))
                .collect(),
            Expr::Index {
                array, indices: i, ..
            } => std::iter::once(&**array).chain(indices(i)).collect(),
            Expr::IndexSection { indices: i, .. } => indices(i).collect(),
            Expr::Apply {
                function, argument, ..
            } => vec![function, argument],
            Expr::BinOp { lhs, rhs, .. } => vec![lhs, rhs],
            Expr::If {
                condition,
                then_branch,
                else_branch,
                ..
            } => vec![condition, then_branch, else_branch],
            Expr::Let { value, body, .. } | Expr::LetFun { value, body, .. } => {
                vec![value, body]
            }
            Expr::LetWith {
                indices: i,
                value,
                body,
                ..
            } => indices(i).chain([&**value, &**body]).collect(),
            Expr::Lambda { body, .. } | Expr::OpenIn { body, .. } => vec![body],
            Expr::Loop {
                init, form, body, ..
            } => {
                let header = match form {
                    LoopForm::For { bound, .. } => &**bound,
                    LoopForm::ForIn { array, .. } => &**array,
                    LoopForm::While { condition } => &**condition,
                };
                init.as_deref()
                    .into_iter()
                    .chain([header, &**body])
                    .collect()
            }
            Expr::Update {
                target,
                indices: i,
                value,
                ..
            } => std::iter::once(&**target)
                .chain(indices(i))
                .chain(std::iter::once(&**value))
                .collect(),
            Expr::RecordUpdate { target, value, .. } => vec![target, value],
            Expr::Match {
                scrutinee, cases, ..
            } => std::iter::once(&**scrutinee)
                .chain(cases.iter().map(|c| &c.body))
                .collect(),
            Expr::Constructor { payload, .. } => payload.iter().collect(),
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Expr::Var(name) => name.span,
            Expr::Literal { span, .. }
            | Expr::Project { span, .. }
            | Expr::Tuple { span, .. }
            | Expr::Record { span, .. }
            | Expr::Array { span, .. }
            | Expr::Range { span, .. }
            | Expr::Index { span, .. }
            | Expr::Apply { span, .. }
            | Expr::BinOp { span, .. }
            | Expr::Negate { span, .. }
            | Expr::Not { span, .. }
            | Expr::OpSection { span, .. }
            | Expr::LeftSection { span, .. }
            | Expr::RightSection { span, .. }
            | Expr::ProjectSection { span, .. }
            | Expr::IndexSection { span, .. }
            | Expr::If { span, .. }
            | Expr::Let { span, .. }
            | Expr::LetFun { span, .. }
            | Expr::LetWith { span, .. }
            | Expr::Lambda { span, .. }
            | Expr::Loop { span, .. }
            | Expr::Update { span, .. }
            | Expr::RecordUpdate { span, .. }
            | Expr::Ascribe { span, .. }
            | Expr::Coerce { span, .. }
            | Expr::Match { span, .. }
            | Expr::Constructor { span, .. }
            | Expr::OpenIn { span, .. }
            | Expr::Attr { span, .. } => *span,
        }
    }
}

impl Pat {
    pub fn span(&self) -> Span {
        match self {
            Pat::Var { span, .. }
            | Pat::Wildcard { span }
            | Pat::Tuple { span, .. }
            | Pat::Record { span, .. }
            | Pat::Literal { span, .. }
            | Pat::Constructor { span, .. }
            | Pat::Ascribe { span, .. }
            | Pat::Attr { span, .. } => *span,
        }
    }
}

impl TypeExp {
    pub fn span(&self) -> Span {
        match self {
            TypeExp::Var(name) => name.span,
            TypeExp::Apply { span, .. }
            | TypeExp::Array { span, .. }
            | TypeExp::Tuple { span, .. }
            | TypeExp::Record { span, .. }
            | TypeExp::Arrow { span, .. }
            | TypeExp::Sum { span, .. }
            | TypeExp::Unique { span, .. }
            | TypeExp::Existential { span, .. } => *span,
        }
    }
}

impl ModExp {
    pub fn span(&self) -> Span {
        match self {
            ModExp::Var(name) => name.span,
            ModExp::Struct { span, .. }
            | ModExp::Ascribe { span, .. }
            | ModExp::Lambda { span, .. }
            | ModExp::Apply { span, .. }
            | ModExp::Import { span, .. } => *span,
        }
    }
}

impl ModTypeExp {
    pub fn span(&self) -> Span {
        match self {
            ModTypeExp::Var(name) => name.span,
            ModTypeExp::Signature { span, .. }
            | ModTypeExp::With { span, .. }
            | ModTypeExp::Arrow { span, .. } => *span,
        }
    }
}

impl Spec {
    pub fn span(&self) -> Span {
        match self {
            Spec::Val { span, .. }
            | Spec::Type { span, .. }
            | Spec::Module { span, .. }
            | Spec::Include { span, .. } => *span,
        }
    }
}

impl Dec {
    pub fn span(&self) -> Span {
        match self {
            Dec::Value(bind) => bind.span,
            Dec::Type(bind) => bind.span,
            Dec::Module(bind) => bind.span,
            Dec::ModuleType(bind) => bind.span,
            Dec::Open { span, .. }
            | Dec::Import { span, .. }
            | Dec::Local { span, .. }
            | Dec::Attr { span, .. } => *span,
        }
    }
}
