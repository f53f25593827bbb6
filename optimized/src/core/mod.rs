//! The typed core language of the optimising compiler (issue 5, items 1 and
//! 3): a module-free, explicitly typed λ-calculus over Futhark's values, the
//! output of elaboration ([`elaborate`]) and of monomorphisation
//! ([`crate::mono`]), and the input of defunctionalisation (TFP'18 §3–§5).
//!
//! Invariants (checked by [`check`], after elaboration and after mono):
//!
//! * **Unique binders.** Every variable bound anywhere in a [`Program`]
//!   (definition, parameter, pattern variable, loop variable, size parameter)
//!   has a [`VarName`] whose `id` is unique in the program; `base` is the
//!   source name, for printing only. The same holds for [`TypeVar`]s.
//! * **Explicit types.** Every [`Expr`] and [`Pat`] carries its [`Type`];
//!   there are no unification variables. [`Type::Param`] occurs only inside a
//!   polymorphic [`Function`] (top-level or [`ExprKind::LetFun`]) that binds
//!   it; every occurrence of a polymorphic function is an [`ExprKind::Var`]
//!   with an explicit [`Instance`] (its type and size arguments, in the order
//!   of the function's `type_params` and `size_params`).
//! * **Resolved overloading.** Literals are typed [`PrimValue`]s; operators
//!   are [`BinOp`]/[`UnOp`] with their primitive type (`Add(i32)`, `Lt(f64)`);
//!   `==`/`!=` on non-primitive values is [`ExprKind::Equal`]; `&&`/`||`
//!   are `if` (short-circuit); `|>`/`<|` are applications; sections are
//!   lambdas.
//! * **Saturated intrinsics.** The built-ins (SOACs, array functions) and the
//!   numeric modules' functions (`f32.sqrt`, `i32.max`) are
//!   [`ExprKind::Intrinsic`] applied to exactly [`Intrinsic::arity`]
//!   arguments; an intrinsic used as a value is eta-expanded into a lambda.
//! * **Sizes are values.** A [`Size`] is a constant, a variable of type `i64`
//!   (a size parameter, a parameter or `let` variable named in a type), or
//!   unknown (existential: `filter`, ranges, slices, loop parameters, and
//!   any size whose variable is not in scope at the node — a type never
//!   names a variable out of scope, except an enclosing arrow's `param`).
//!   Sizes never distinguish types in the core checker or in mono (they are
//!   compared modulo sizes); they are checked at run time where Futhark does:
//!   * when a [`Function`] is applied (all its parameters supplied), its
//!     `size_params` are bound from the shapes of the arguments: the first
//!     dimension (parameters left to right, outer dimensions first) of a
//!     parameter type that is `Size::Var(p)` for a size parameter `p` binds
//!     `p`; every later dimension that is `Size::Var(p)` for the same `p` is
//!     checked equal to it, and a mismatch is a run-time size error located
//!     at the application. This is the check of an application whose
//!     parameter types share a size. Other sizes in parameter types
//!     (constants, variables of enclosing scopes, and every size of a
//!     lambda's parameters, which binds no size parameter) are static
//!     knowledge of the checker and are not checked again;
//!   * [`ExprKind::Coerce`] (`e :> t`) checks `e`'s shape against the known
//!     sizes of its type;
//!   * `let [n] p = e` ([`ExprKind::Let`] with `sizes`) binds `n` from `e`'s
//!     shape like a function's size parameter.
//! * **Tuples are records** whose fields are `0..n` ([`FieldName::position`]).
//!   Records keep their fields in source order in [`ExprKind::Record`]
//!   (evaluation order); their types are ordered maps.

pub mod check;
pub mod elaborate;
pub mod printer;
pub mod uniqueness;

use std::collections::BTreeMap;
use std::rc::Rc;

use spec::source::Span;
use spec::syntax::ast::{Name, RangeEnd};
use spec::syntax::uniqueness::DeclaredUniqueness;
pub use spec::value::PrimValue;

pub use crate::types::{FieldName, PrimType};

/// Type-checks a module-free program (with the checker's typed output),
/// elaborates it into the core and checks the result ([`check`], pass
/// `elaboration`).
pub fn elaborate_module_free(
    program: &spec::syntax::ast::Program,
    options: crate::typecheck::CheckOptions,
) -> Result<Program, Vec<spec::diagnostic::Diagnostic>> {
    let typed = crate::typecheck::check_program_typed(program, options)?;
    let core = elaborate::elaborate_program(&typed)?;
    check::check_program(&core, "elaboration", check::Stage::Elaborated)
        .map_err(|diagnostic| vec![diagnostic])?;
    Ok(core)
}

/// The declarations of `spec/prelude/toplevel.fut` (parsed as file `file`),
/// to prepend to a module-free program whose prelude functions static
/// interpretation has not supplied.
pub fn toplevel_prelude_declarations(
    file: spec::source::FileId,
) -> Result<Vec<spec::syntax::ast::Dec>, spec::diagnostic::Diagnostic> {
    let prelude = spec::syntax::parse_program(file, crate::typecheck::prelude::TOPLEVEL_PRELUDE)?;
    Ok(prelude.decs)
}

// ---------------------------------------------------------------------------
// Names

/// A value variable: `base` as written in the source (for printing), `id`
/// unique in the program.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarName {
    pub base: Rc<str>,
    pub id: u32,
}

/// A type parameter of a polymorphic function, unique in the program.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeVar {
    pub base: Rc<str>,
    pub id: u32,
}

/// Hands out fresh ids for [`VarName`]s and [`TypeVar`]s (one counter for
/// both; a program records the next free id so later passes continue it).
#[derive(Clone, Debug, Default)]
pub struct NameSource {
    next: u32,
}

impl NameSource {
    pub fn starting_at(next: u32) -> NameSource {
        NameSource { next }
    }

    pub fn next_id(&self) -> u32 {
        self.next
    }

    pub fn var(&mut self, base: &str) -> VarName {
        let id = self.next;
        self.next += 1;
        VarName {
            base: base.into(),
            id,
        }
    }

    pub fn type_var(&mut self, base: &str) -> TypeVar {
        let id = self.next;
        self.next += 1;
        TypeVar {
            base: base.into(),
            id,
        }
    }
}

// ---------------------------------------------------------------------------
// Types

/// An array dimension.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// `[3]`.
    Constant(u64),
    /// `[n]`: the value of the `i64` variable `n` in scope.
    Var(VarName),
    /// Existential: known only at run time.
    Unknown,
}

/// A core type: no unification variables, no abstract types, no errors.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Prim(PrimType),
    /// A type parameter of the enclosing polymorphic function.
    Param(TypeVar),
    /// `[size]element`.
    Array {
        size: Size,
        element: Rc<Type>,
    },
    /// A record; tuples are records with fields `0..n`; `()` is the empty
    /// record.
    Record(Rc<BTreeMap<FieldName, Type>>),
    /// A sum type `#a t | #b`, constructors ordered by name.
    Sum(Rc<BTreeMap<Name, Vec<Type>>>),
    /// `from -> to`, or `(param: from) -> to` when `to`'s sizes mention the
    /// argument `param` (of type `i64`).
    Arrow {
        param: Option<VarName>,
        from: Rc<Type>,
        to: Rc<Type>,
    },
}

impl Type {
    pub const BOOL: Type = Type::Prim(PrimType::Bool);
    pub const I64: Type = Type::Prim(PrimType::I64);

    pub fn unit() -> Type {
        Type::Record(Rc::new(BTreeMap::new()))
    }

    pub fn tuple(elements: Vec<Type>) -> Type {
        Type::Record(Rc::new(
            elements
                .into_iter()
                .enumerate()
                .map(|(index, ty)| (FieldName::position(index), ty))
                .collect(),
        ))
    }

    pub fn array(size: Size, element: Type) -> Type {
        Type::Array {
            size,
            element: Rc::new(element),
        }
    }

    pub fn arrow(from: Type, to: Type) -> Type {
        Type::Arrow {
            param: None,
            from: Rc::new(from),
            to: Rc::new(to),
        }
    }

    /// `from -> to` split off a function type.
    pub fn as_arrow(&self) -> Option<(&Type, &Type)> {
        match self {
            Type::Arrow { from, to, .. } => Some((from, to)),
            _ => None,
        }
    }

    /// The element type and size of an array type.
    pub fn as_array(&self) -> Option<(&Size, &Type)> {
        match self {
            Type::Array { size, element } => Some((size, element)),
            _ => None,
        }
    }

    /// Whether the type contains a function (TFP'18's non-orderZero types).
    pub fn contains_function(&self) -> bool {
        match self {
            Type::Prim(_) | Type::Param(_) => false,
            Type::Array { element, .. } => element.contains_function(),
            Type::Record(fields) => fields.values().any(Type::contains_function),
            Type::Sum(constructors) => constructors.values().flatten().any(Type::contains_function),
            Type::Arrow { .. } => true,
        }
    }

    /// Whether a [`Type::Param`] occurs in the type.
    pub fn has_type_params(&self) -> bool {
        match self {
            Type::Prim(_) => false,
            Type::Param(_) => true,
            Type::Array { element, .. } => element.has_type_params(),
            Type::Record(fields) => fields.values().any(Type::has_type_params),
            Type::Sum(constructors) => constructors.values().flatten().any(Type::has_type_params),
            Type::Arrow { from, to, .. } => from.has_type_params() || to.has_type_params(),
        }
    }

    /// The type with every size replaced by [`Size::Unknown`] (and arrow
    /// parameters forgotten): the equivalence the core checker and mono use.
    pub fn without_sizes(&self) -> Type {
        match self {
            Type::Prim(_) | Type::Param(_) => self.clone(),
            Type::Array { element, .. } => Type::array(Size::Unknown, element.without_sizes()),
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(field, ty)| (field.clone(), ty.without_sizes()))
                    .collect(),
            )),
            Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        (
                            name.clone(),
                            payload.iter().map(Type::without_sizes).collect(),
                        )
                    })
                    .collect(),
            )),
            Type::Arrow { from, to, .. } => Type::arrow(from.without_sizes(), to.without_sizes()),
        }
    }

    /// The type with type parameters replaced (`substitution` maps
    /// [`TypeVar`] ids) and sizes replaced (`sizes` maps [`VarName`] ids).
    pub fn substitute(&self, substitution: &TypeSubstitution) -> Type {
        if substitution.is_empty() {
            return self.clone();
        }
        match self {
            Type::Prim(_) => self.clone(),
            Type::Param(var) => substitution
                .types
                .get(&var.id)
                .cloned()
                .unwrap_or_else(|| self.clone()),
            Type::Array { size, element } => {
                Type::array(substitution.size(size), element.substitute(substitution))
            }
            Type::Record(fields) => Type::Record(Rc::new(
                fields
                    .iter()
                    .map(|(field, ty)| (field.clone(), ty.substitute(substitution)))
                    .collect(),
            )),
            Type::Sum(constructors) => Type::Sum(Rc::new(
                constructors
                    .iter()
                    .map(|(name, payload)| {
                        (
                            name.clone(),
                            payload
                                .iter()
                                .map(|ty| ty.substitute(substitution))
                                .collect(),
                        )
                    })
                    .collect(),
            )),
            Type::Arrow { param, from, to } => Type::Arrow {
                param: param.clone(),
                from: Rc::new(from.substitute(substitution)),
                to: Rc::new(to.substitute(substitution)),
            },
        }
    }
}

/// Type parameters ↦ types and size variables ↦ sizes, by id.
#[derive(Clone, Debug, Default)]
pub struct TypeSubstitution {
    pub types: std::collections::HashMap<u32, Type>,
    pub sizes: std::collections::HashMap<u32, Size>,
}

impl TypeSubstitution {
    pub fn is_empty(&self) -> bool {
        self.types.is_empty() && self.sizes.is_empty()
    }

    pub fn size(&self, size: &Size) -> Size {
        match size {
            Size::Var(var) => self
                .sizes
                .get(&var.id)
                .cloned()
                .unwrap_or_else(|| size.clone()),
            _ => size.clone(),
        }
    }
}

// ---------------------------------------------------------------------------
// Operators and intrinsics

/// A binary operator on a primitive type; the operands have that type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+ - * / % **` (numeric).
    Add(PrimType),
    Sub(PrimType),
    Mul(PrimType),
    Div(PrimType),
    Rem(PrimType),
    Pow(PrimType),
    /// `//` and `%%` (integers: truncating quotient and remainder).
    Quot(PrimType),
    Mod(PrimType),
    /// `& | ^ << >> >>>` (integers).
    BitAnd(PrimType),
    BitOr(PrimType),
    BitXor(PrimType),
    Shl(PrimType),
    Shr(PrimType),
    LogicalShr(PrimType),
    /// `== != < <= > >=` (result `bool`).
    Eq(PrimType),
    Ne(PrimType),
    Lt(PrimType),
    Le(PrimType),
    Gt(PrimType),
    Ge(PrimType),
}

impl BinOp {
    /// The operator for the source symbol `symbol` on `prim`, if any
    /// (`&&`, `||`, pipes are not [`BinOp`]s).
    pub fn from_symbol(symbol: &str, prim: PrimType) -> Option<BinOp> {
        Some(match symbol {
            "+" => BinOp::Add(prim),
            "-" => BinOp::Sub(prim),
            "*" => BinOp::Mul(prim),
            "/" => BinOp::Div(prim),
            "%" => BinOp::Rem(prim),
            "**" => BinOp::Pow(prim),
            "//" => BinOp::Quot(prim),
            "%%" => BinOp::Mod(prim),
            "&" => BinOp::BitAnd(prim),
            "|" => BinOp::BitOr(prim),
            "^" => BinOp::BitXor(prim),
            "<<" => BinOp::Shl(prim),
            ">>" => BinOp::Shr(prim),
            ">>>" => BinOp::LogicalShr(prim),
            "==" => BinOp::Eq(prim),
            "!=" => BinOp::Ne(prim),
            "<" => BinOp::Lt(prim),
            "<=" => BinOp::Le(prim),
            ">" => BinOp::Gt(prim),
            ">=" => BinOp::Ge(prim),
            _ => return None,
        })
    }

    /// The source symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add(_) => "+",
            BinOp::Sub(_) => "-",
            BinOp::Mul(_) => "*",
            BinOp::Div(_) => "/",
            BinOp::Rem(_) => "%",
            BinOp::Pow(_) => "**",
            BinOp::Quot(_) => "//",
            BinOp::Mod(_) => "%%",
            BinOp::BitAnd(_) => "&",
            BinOp::BitOr(_) => "|",
            BinOp::BitXor(_) => "^",
            BinOp::Shl(_) => "<<",
            BinOp::Shr(_) => ">>",
            BinOp::LogicalShr(_) => ">>>",
            BinOp::Eq(_) => "==",
            BinOp::Ne(_) => "!=",
            BinOp::Lt(_) => "<",
            BinOp::Le(_) => "<=",
            BinOp::Gt(_) => ">",
            BinOp::Ge(_) => ">=",
        }
    }

    /// The operands' type.
    pub fn operand(self) -> PrimType {
        match self {
            BinOp::Add(p)
            | BinOp::Sub(p)
            | BinOp::Mul(p)
            | BinOp::Div(p)
            | BinOp::Rem(p)
            | BinOp::Pow(p)
            | BinOp::Quot(p)
            | BinOp::Mod(p)
            | BinOp::BitAnd(p)
            | BinOp::BitOr(p)
            | BinOp::BitXor(p)
            | BinOp::Shl(p)
            | BinOp::Shr(p)
            | BinOp::LogicalShr(p)
            | BinOp::Eq(p)
            | BinOp::Ne(p)
            | BinOp::Lt(p)
            | BinOp::Le(p)
            | BinOp::Gt(p)
            | BinOp::Ge(p) => p,
        }
    }

    /// The result's type.
    pub fn result(self) -> PrimType {
        match self {
            BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_) => PrimType::Bool,
            other => other.operand(),
        }
    }

    /// Whether the operator is defined on its operand type.
    pub fn is_well_typed(self) -> bool {
        let prim = self.operand();
        let numeric = !matches!(prim, PrimType::Bool);
        let integer = prim.is_integer();
        match self {
            BinOp::Add(_)
            | BinOp::Sub(_)
            | BinOp::Mul(_)
            | BinOp::Div(_)
            | BinOp::Rem(_)
            | BinOp::Pow(_) => numeric,
            BinOp::Quot(_)
            | BinOp::Mod(_)
            | BinOp::BitAnd(_)
            | BinOp::BitOr(_)
            | BinOp::BitXor(_)
            | BinOp::Shl(_)
            | BinOp::Shr(_)
            | BinOp::LogicalShr(_) => integer,
            BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_) => true,
        }
    }
}

/// A unary operator on a primitive type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x` (numeric).
    Neg(PrimType),
    /// `!x`: logical not on `bool`, bitwise complement on integers.
    Not(PrimType),
}

impl UnOp {
    pub fn operand(self) -> PrimType {
        match self {
            UnOp::Neg(p) | UnOp::Not(p) => p,
        }
    }
}

/// A built-in function. Type arguments ([`ExprKind::Intrinsic`]'s
/// `type_args`) are in the order of the type parameters of its declaration
/// in `typecheck::builtins::BUILTIN_SIGNATURE` (`map 'a [n] 'x`: `[a, x]`);
/// the numeric modules' functions have none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    /// `map` (`arity` 1, also `map1`) … `map5`: `arity` arrays.
    Map {
        arity: usize,
    },
    Reduce,
    ReduceComm,
    Scan,
    Filter,
    Partition,
    Scatter,
    ReduceByIndex,
    Iota,
    Replicate,
    /// `zip` (2, also `zip2`) … `zip5`.
    Zip {
        arity: usize,
    },
    /// `unzip` (2, also `unzip2`) … `unzip5`.
    Unzip {
        arity: usize,
    },
    Length,
    /// `concat` (the built-in; the prelude's `++` is an ordinary function).
    Concat,
    Flatten,
    Unflatten,
    Transpose,
    Reverse,
    Rotate,
    Copy,
    /// `assert c e` (`spec::syntax::ast::ASSERT`): `e` once `c` holds,
    /// else the run-time error `spec::syntax::ast::ASSERTION_FAILED`.
    Assert,
    /// A function or constant of a numeric module: `f32.sqrt`, `i32.max`,
    /// `f64.pi`, `u8.i32` (conversion), `i32.sum`. Its type is the module's
    /// specification (`typecheck::prelude::numeric_module_signature`);
    /// `arity` is the number of arguments (0 for constants).
    Numeric {
        module: PrimType,
        function: Rc<str>,
        arity: usize,
    },
}

impl Intrinsic {
    /// The built-in called `name` in `BUILTIN_SIGNATURE`.
    pub fn from_builtin_name(name: &str) -> Option<Intrinsic> {
        Some(match name {
            "map" | "map1" => Intrinsic::Map { arity: 1 },
            "map2" => Intrinsic::Map { arity: 2 },
            "map3" => Intrinsic::Map { arity: 3 },
            "map4" => Intrinsic::Map { arity: 4 },
            "map5" => Intrinsic::Map { arity: 5 },
            "reduce" => Intrinsic::Reduce,
            "reduce_comm" => Intrinsic::ReduceComm,
            "scan" => Intrinsic::Scan,
            "filter" => Intrinsic::Filter,
            "partition" => Intrinsic::Partition,
            "scatter" => Intrinsic::Scatter,
            "reduce_by_index" => Intrinsic::ReduceByIndex,
            "iota" => Intrinsic::Iota,
            "replicate" => Intrinsic::Replicate,
            "zip" | "zip2" => Intrinsic::Zip { arity: 2 },
            "zip3" => Intrinsic::Zip { arity: 3 },
            "zip4" => Intrinsic::Zip { arity: 4 },
            "zip5" => Intrinsic::Zip { arity: 5 },
            "unzip" | "unzip2" => Intrinsic::Unzip { arity: 2 },
            "unzip3" => Intrinsic::Unzip { arity: 3 },
            "unzip4" => Intrinsic::Unzip { arity: 4 },
            "unzip5" => Intrinsic::Unzip { arity: 5 },
            "length" => Intrinsic::Length,
            "concat" | "++" => Intrinsic::Concat,
            "flatten" => Intrinsic::Flatten,
            "unflatten" => Intrinsic::Unflatten,
            "transpose" => Intrinsic::Transpose,
            "reverse" => Intrinsic::Reverse,
            "rotate" => Intrinsic::Rotate,
            "copy" => Intrinsic::Copy,
            spec::syntax::ast::ASSERT => Intrinsic::Assert,
            _ => return None,
        })
    }

    /// The name of its declaration in `BUILTIN_SIGNATURE` (or `t.f`).
    pub fn name(&self) -> String {
        match self {
            Intrinsic::Map { arity: 1 } => "map".to_string(),
            Intrinsic::Map { arity } => format!("map{arity}"),
            Intrinsic::Reduce => "reduce".to_string(),
            Intrinsic::ReduceComm => "reduce_comm".to_string(),
            Intrinsic::Scan => "scan".to_string(),
            Intrinsic::Filter => "filter".to_string(),
            Intrinsic::Partition => "partition".to_string(),
            Intrinsic::Scatter => "scatter".to_string(),
            Intrinsic::ReduceByIndex => "reduce_by_index".to_string(),
            Intrinsic::Iota => "iota".to_string(),
            Intrinsic::Replicate => "replicate".to_string(),
            Intrinsic::Zip { arity: 2 } => "zip".to_string(),
            Intrinsic::Zip { arity } => format!("zip{arity}"),
            Intrinsic::Unzip { arity: 2 } => "unzip".to_string(),
            Intrinsic::Unzip { arity } => format!("unzip{arity}"),
            Intrinsic::Length => "length".to_string(),
            Intrinsic::Concat => "concat".to_string(),
            Intrinsic::Flatten => "flatten".to_string(),
            Intrinsic::Unflatten => "unflatten".to_string(),
            Intrinsic::Transpose => "transpose".to_string(),
            Intrinsic::Reverse => "reverse".to_string(),
            Intrinsic::Rotate => "rotate".to_string(),
            Intrinsic::Copy => "copy".to_string(),
            Intrinsic::Assert => spec::syntax::ast::ASSERT.to_string(),
            Intrinsic::Numeric {
                module, function, ..
            } => format!("{}.{function}", module.name()),
        }
    }

    /// How many arguments a saturated use takes.
    pub fn arity(&self) -> usize {
        match self {
            Intrinsic::Map { arity } => arity + 1,
            Intrinsic::Reduce | Intrinsic::ReduceComm | Intrinsic::Scan => 3,
            Intrinsic::Filter | Intrinsic::Partition => 2,
            Intrinsic::Scatter => 3,
            Intrinsic::ReduceByIndex => 5,
            Intrinsic::Iota => 1,
            Intrinsic::Replicate => 2,
            Intrinsic::Zip { arity } => *arity,
            Intrinsic::Unzip { .. } => 1,
            Intrinsic::Length => 1,
            Intrinsic::Concat => 2,
            Intrinsic::Flatten => 1,
            Intrinsic::Unflatten => 3,
            Intrinsic::Transpose | Intrinsic::Reverse => 1,
            Intrinsic::Rotate => 2,
            Intrinsic::Copy => 1,
            Intrinsic::Assert => 2,
            Intrinsic::Numeric { arity, .. } => *arity,
        }
    }
}

// ---------------------------------------------------------------------------
// Programs, functions, expressions, patterns

/// A whole program: its definitions in dependency order (each refers only to
/// itself — no recursion in Futhark — and earlier ones).
#[derive(Clone, Debug)]
pub struct Program {
    pub definitions: Vec<Definition>,
    /// The first id no name of the program uses.
    pub next_id: u32,
}

/// A top-level definition.
#[derive(Clone, Debug)]
pub struct Definition {
    /// An entry point (`entry`, or `def main`): monomorphic, first-order.
    pub entry: bool,
    pub function: Function,
}

/// A (possibly polymorphic) function or constant: `def`, `entry`, or a local
/// `let f … = … in`. A constant has no `params`.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: VarName,
    /// Type parameters, in the order of an occurrence's [`Instance::types`].
    pub type_params: Vec<TypeVar>,
    /// Size parameters (`i64` variables in scope in `params`, `result` and
    /// `body`), in the order of [`Instance::sizes`]; bound on entry from the
    /// arguments' shapes (see the module documentation).
    pub size_params: Vec<VarName>,
    pub params: Vec<Pat>,
    /// The type of `body`.
    pub result: Type,
    pub body: Expr,
    pub span: Span,
    /// Extension (proofs-notes/uniqueness.md): the `*`s written on the
    /// parameters and the result, which only the uniqueness judgment reads.
    pub uniqueness: FunctionUniqueness,
}

/// Which parts of a value a type annotation marks unique (`*t`), following
/// the structure of its records and tuples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Uniqueness {
    #[default]
    Nonunique,
    Unique,
    /// A record or tuple type whose components are marked separately.
    Record(Vec<(FieldName, Uniqueness)>),
}

impl Uniqueness {
    /// What a parameter pattern or a return type declares by its `*`s
    /// (read by `spec`, shared with the reference).
    pub fn declared(declared: &DeclaredUniqueness) -> Uniqueness {
        match declared {
            DeclaredUniqueness::Nonunique => Uniqueness::Nonunique,
            DeclaredUniqueness::Unique => Uniqueness::Unique,
            DeclaredUniqueness::Components(components) => Uniqueness::Record(
                components
                    .iter()
                    .map(|(label, component)| {
                        (FieldName(label.clone()), Uniqueness::declared(component))
                    })
                    .collect(),
            ),
        }
    }

    /// Whether some part is marked unique.
    pub fn any_unique(&self) -> bool {
        match self {
            Uniqueness::Nonunique => false,
            Uniqueness::Unique => true,
            Uniqueness::Record(fields) => fields.iter().any(|(_, field)| field.any_unique()),
        }
    }

    /// The marking of component `field` (a whole-value marking covers every
    /// component).
    pub fn field(&self, field: &FieldName) -> Uniqueness {
        match self {
            Uniqueness::Record(fields) => fields
                .iter()
                .find(|(name, _)| name == field)
                .map(|(_, uniqueness)| uniqueness.clone())
                .unwrap_or_default(),
            whole => whole.clone(),
        }
    }
}

/// The uniqueness annotations of a function: one per parameter, and its
/// result's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionUniqueness {
    pub params: Vec<Uniqueness>,
    pub result: Uniqueness,
}

impl Function {
    /// `p1 -> p2 -> … -> result`; a parameter that is an `i64` variable
    /// names its arrow (`(n: i64) -> [n]i32`), since later types may use it
    /// as a size.
    pub fn ty(&self) -> Type {
        self.params
            .iter()
            .rev()
            .fold(self.result.clone(), |to, param| Type::Arrow {
                param: match (&param.kind, &param.ty) {
                    (PatKind::Var(name), Type::Prim(PrimType::I64)) => Some(name.clone()),
                    _ => None,
                },
                from: Rc::new(param.ty.clone()),
                to: Rc::new(to),
            })
    }
}

/// The type and size arguments of an occurrence of a polymorphic function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Instance {
    pub types: Vec<Type>,
    pub sizes: Vec<Size>,
}

impl Instance {
    pub fn is_empty(&self) -> bool {
        self.types.is_empty() && self.sizes.is_empty()
    }
}

/// An expression and its type.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

/// One dimension of an index: `i`, or a slice `start:end:stride`.
// Index lists are short; boxing the bounds would only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum DimIndex {
    Index(Expr),
    Slice {
        start: Option<Expr>,
        end: Option<Expr>,
        stride: Option<Expr>,
    },
}

/// The header of a loop.
#[derive(Clone, Debug)]
pub enum LoopForm {
    /// `for var < bound` (`var` has the bound's integer type).
    For { var: VarName, bound: Box<Expr> },
    /// `for pat in array`.
    ForIn { pat: Pat, array: Box<Expr> },
    /// `while condition` (the loop parameters are in scope).
    While { condition: Box<Expr> },
}

/// A `case pat -> body` of a `match`.
#[derive(Clone, Debug)]
pub struct Case {
    pub pat: Pat,
    pub body: Expr,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Literal(PrimValue),
    /// A variable; `instance` is empty unless it names a polymorphic
    /// function.
    Var {
        name: VarName,
        instance: Instance,
    },
    /// A saturated intrinsic: `args.len() == intrinsic.arity()`.
    Intrinsic {
        intrinsic: Intrinsic,
        type_args: Vec<Type>,
        args: Vec<Expr>,
    },
    BinOp {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    UnOp {
        op: UnOp,
        operand: Box<Expr>,
    },
    /// `lhs == rhs` (or `!=` when `negated`) on values of any order-zero
    /// type that is not primitive (records, arrays, sums): structural.
    Equal {
        negated: bool,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A record (tuples included), fields in evaluation order.
    Record(Vec<(FieldName, Expr)>),
    Project {
        record: Box<Expr>,
        field: FieldName,
    },
    /// `target with f.g = value`.
    RecordUpdate {
        target: Box<Expr>,
        path: Vec<FieldName>,
        value: Box<Expr>,
    },
    /// `#c payload…` (the expression's type is the whole sum type).
    Constructor {
        name: Name,
        payload: Vec<Expr>,
    },
    /// `[e1, e2, …]` (the type gives the element type when empty).
    ArrayLit(Vec<Expr>),
    /// `start..step...end` and friends (integer elements).
    Range {
        start: Box<Expr>,
        step: Option<Box<Expr>>,
        end: Box<Expr>,
        end_kind: RangeEnd,
    },
    /// `array[i, j:k]` (bounds checked at run time).
    Index {
        array: Box<Expr>,
        indices: Vec<DimIndex>,
    },
    /// `target with [i, j] = value` (also `let a[i] = v in …`).
    Update {
        target: Box<Expr>,
        indices: Vec<DimIndex>,
        value: Box<Expr>,
    },
    /// `let [sizes] pat = value in body`.
    Let {
        sizes: Vec<VarName>,
        pat: Pat,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// `let f … = … in body` (the function may be polymorphic).
    LetFun {
        function: Box<Function>,
        body: Box<Expr>,
    },
    /// `\p1 p2 … -> body`.
    Lambda {
        params: Vec<Pat>,
        body: Box<Expr>,
    },
    /// `function a1 a2 …` (curried: `args` may be fewer than the function's
    /// parameters — a partial application — but at least one).
    Apply {
        function: Box<Expr>,
        args: Vec<Expr>,
    },
    If {
        condition: Box<Expr>,
        then_branch: Box<Expr>,
        else_branch: Box<Expr>,
    },
    Match {
        scrutinee: Box<Expr>,
        cases: Vec<Case>,
    },
    /// `loop pat = init form do body` (the result has `pat`'s type).
    Loop {
        pat: Pat,
        /// The `*`s of the pattern (proofs-notes/uniqueness.md U-Loop: a
        /// component declared unique is consumed from the initial value
        /// whether the body consumes it or not).
        declared: Uniqueness,
        init: Box<Expr>,
        form: LoopForm,
        body: Box<Expr>,
    },
    /// `expr :> ty` (the expression's type): a run-time check of `expr`'s
    /// shape against the type's known sizes.
    Coerce(Box<Expr>),
}

/// A pattern and the type of the value it matches.
#[derive(Clone, Debug)]
pub struct Pat {
    pub kind: PatKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum PatKind {
    Var(VarName),
    Wildcard,
    /// Records and tuples (fields in source order).
    Record(Vec<(FieldName, Pat)>),
    Literal(PrimValue),
    Constructor {
        name: Name,
        payload: Vec<Pat>,
    },
}

impl Pat {
    /// The variables the pattern binds, left to right.
    pub fn bound_vars(&self) -> Vec<(&VarName, &Type)> {
        let mut out = Vec::new();
        self.collect_vars(&mut out);
        out
    }

    fn collect_vars<'a>(&'a self, out: &mut Vec<(&'a VarName, &'a Type)>) {
        match &self.kind {
            PatKind::Var(name) => out.push((name, &self.ty)),
            PatKind::Wildcard | PatKind::Literal(_) => {}
            PatKind::Record(fields) => fields.iter().for_each(|(_, pat)| pat.collect_vars(out)),
            PatKind::Constructor { payload, .. } => {
                payload.iter().for_each(|pat| pat.collect_vars(out))
            }
        }
    }
}

/// The primitive type of a literal value.
pub fn prim_type_of(value: PrimValue) -> PrimType {
    match value {
        PrimValue::I8(_) => PrimType::I8,
        PrimValue::I16(_) => PrimType::I16,
        PrimValue::I32(_) => PrimType::I32,
        PrimValue::I64(_) => PrimType::I64,
        PrimValue::U8(_) => PrimType::U8,
        PrimValue::U16(_) => PrimType::U16,
        PrimValue::U32(_) => PrimType::U32,
        PrimValue::U64(_) => PrimType::U64,
        PrimValue::F32(_) => PrimType::F32,
        PrimValue::F64(_) => PrimType::F64,
        PrimValue::Bool(_) => PrimType::Bool,
    }
}
