//! Constant families `c^n_⟨τ1..τn⟩` of λP and λC and their types `T_P` and `T_C`
//! (§5.1.1, Defs. 5.1 and 5.2, App. B). A λP family and the λC family it is
//! closure-converted to (`C_C(c)`, Fig. 5.5) share a name here; their types differ
//! only in the functions they take as arguments (`→` in λP, `⇒` in λC), which is
//! exactly the requirement `T_C(C_C(c)⟨C_τ[τ̄]⟩) = C_τ[v1] → C_τ[v2]` that type
//! preservation of closure conversion needs (SPEC_NOTES L05-4).
//!
//! Every constant is a function with one (tupled) argument. The set follows the
//! guide's minimal constant set (arithmetic, `boolToSum`, sums, iso-recursion,
//! `nilP repP ++ lenP !: mapP zipP packP combineP sumP takeP dropP truesP
//! falsesP`) plus `seq`, `bottom` (an explicit ⊥) and, for λC only, the impose
//! operator `▷` of §6.1.3.

use super::types::Type;
use std::fmt;

/// The name of a constant family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Prim {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Lt,
    Le,
    Not,
    BoolToSum,
    Left,
    Right,
    Case,
    In,
    Out,
    Seq,
    Bottom,
    NilP,
    RepP,
    ConcatP,
    LenP,
    IndexP,
    MapP,
    ZipP,
    PackP,
    CombineP,
    SumP,
    TakeP,
    DropP,
    TruesP,
    FalsesP,
    /// `▷` (impose, §6.1.3): λC only, produced by the reduction of `!:` and `mapP`.
    Impose,
}

/// Every family, for generators and tables.
pub const ALL_PRIMS: [Prim; 32] = [
    Prim::Add,
    Prim::Sub,
    Prim::Mul,
    Prim::Div,
    Prim::Mod,
    Prim::Eq,
    Prim::Lt,
    Prim::Le,
    Prim::Not,
    Prim::BoolToSum,
    Prim::Left,
    Prim::Right,
    Prim::Case,
    Prim::In,
    Prim::Out,
    Prim::Seq,
    Prim::Bottom,
    Prim::NilP,
    Prim::RepP,
    Prim::ConcatP,
    Prim::LenP,
    Prim::IndexP,
    Prim::MapP,
    Prim::ZipP,
    Prim::PackP,
    Prim::CombineP,
    Prim::SumP,
    Prim::TakeP,
    Prim::DropP,
    Prim::TruesP,
    Prim::FalsesP,
    Prim::Impose,
];

impl Prim {
    /// The concrete-syntax name.
    pub fn name(self) -> &'static str {
        match self {
            Prim::Add => "add",
            Prim::Sub => "sub",
            Prim::Mul => "mul",
            Prim::Div => "div",
            Prim::Mod => "mod",
            Prim::Eq => "eq",
            Prim::Lt => "lt",
            Prim::Le => "le",
            Prim::Not => "not",
            Prim::BoolToSum => "boolToSum",
            Prim::Left => "Left",
            Prim::Right => "Right",
            Prim::Case => "case",
            Prim::In => "In",
            Prim::Out => "Out",
            Prim::Seq => "seq",
            Prim::Bottom => "bottom",
            Prim::NilP => "nilP",
            Prim::RepP => "repP",
            Prim::ConcatP => "concatP",
            Prim::LenP => "lenP",
            Prim::IndexP => "indexP",
            Prim::MapP => "mapP",
            Prim::ZipP => "zipP",
            Prim::PackP => "packP",
            Prim::CombineP => "combineP",
            Prim::SumP => "sumP",
            Prim::TakeP => "takeP",
            Prim::DropP => "dropP",
            Prim::TruesP => "truesP",
            Prim::FalsesP => "falsesP",
            Prim::Impose => "impose",
        }
    }

    pub fn from_name(name: &str) -> Option<Prim> {
        ALL_PRIMS.iter().copied().find(|p| p.name() == name)
    }

    /// `n` in `c^n`: how many type arguments the family takes.
    pub fn type_arity(self) -> usize {
        match self {
            Prim::Add
            | Prim::Sub
            | Prim::Mul
            | Prim::Div
            | Prim::Mod
            | Prim::Eq
            | Prim::Lt
            | Prim::Le
            | Prim::Not
            | Prim::BoolToSum
            | Prim::SumP
            | Prim::TruesP
            | Prim::FalsesP => 0,
            Prim::In
            | Prim::Out
            | Prim::Bottom
            | Prim::NilP
            | Prim::RepP
            | Prim::ConcatP
            | Prim::LenP
            | Prim::IndexP
            | Prim::PackP
            | Prim::CombineP
            | Prim::TakeP
            | Prim::DropP
            | Prim::Impose => 1,
            Prim::Left | Prim::Right | Prim::Seq | Prim::MapP | Prim::ZipP => 2,
            Prim::Case => 3,
        }
    }

    /// Whether the family exists in λP source programs (`▷` is λC-internal).
    pub fn in_lambda_p(self) -> bool {
        self != Prim::Impose
    }
}

/// Which calculus a constant's type is asked for: function arguments are `→` in
/// λP and closures `⇒` in λC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calculus {
    P,
    C,
}

/// Why a constant's type could not be formed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignatureError {
    Arity { expected: usize, found: usize },
    NotRecursive(Type),
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::Arity { expected, found } => {
                write!(f, "expects {expected} type argument(s), found {found}")
            }
            SignatureError::NotRecursive(ty) => {
                write!(f, "type argument `{ty}` must be a recursive type `mu a. t`")
            }
        }
    }
}

/// `T_P(c⟨τ̄⟩)` / `T_C(c⟨τ̄⟩)`: the function type `(v1, v2)` meaning `v1 → v2`.
pub fn signature(
    prim: Prim,
    type_args: &[Type],
    calculus: Calculus,
) -> Result<(Type, Type), SignatureError> {
    if type_args.len() != prim.type_arity() {
        return Err(SignatureError::Arity {
            expected: prim.type_arity(),
            found: type_args.len(),
        });
    }
    let function = |a: &Type, b: &Type| match calculus {
        Calculus::P => Type::fun(a.clone(), b.clone()),
        Calculus::C => Type::clo(a.clone(), b.clone()),
    };
    let int_pair = Type::prod(Type::Int, Type::Int);
    let t = |i: usize| type_args[i].clone();
    Ok(match prim {
        Prim::Add | Prim::Sub | Prim::Mul | Prim::Div | Prim::Mod => (int_pair, Type::Int),
        Prim::Eq | Prim::Lt | Prim::Le => (int_pair, Type::Bool),
        Prim::Not => (Type::Bool, Type::Bool),
        Prim::BoolToSum => (Type::Bool, Type::sum(Type::Unit, Type::Unit)),
        Prim::Left => (t(0), Type::sum(t(0), t(1))),
        Prim::Right => (t(1), Type::sum(t(0), t(1))),
        Prim::Case => (
            Type::prod(
                Type::prod(function(&t(0), &t(2)), function(&t(1), &t(2))),
                Type::sum(t(0), t(1)),
            ),
            t(2),
        ),
        Prim::In => {
            let unfolded = t(0).unfold().ok_or(SignatureError::NotRecursive(t(0)))?;
            (unfolded, t(0))
        }
        Prim::Out => {
            let unfolded = t(0).unfold().ok_or(SignatureError::NotRecursive(t(0)))?;
            (t(0), unfolded)
        }
        Prim::Seq => (Type::prod(t(0), t(1)), t(1)),
        Prim::Bottom => (Type::Unit, t(0)),
        Prim::NilP => (Type::Unit, Type::array(t(0))),
        Prim::RepP => (Type::prod(Type::Int, t(0)), Type::array(t(0))),
        Prim::ConcatP => (
            Type::prod(Type::array(t(0)), Type::array(t(0))),
            Type::array(t(0)),
        ),
        Prim::LenP => (Type::array(t(0)), Type::Int),
        Prim::IndexP => (Type::prod(Type::array(t(0)), Type::Int), t(0)),
        Prim::MapP => (
            Type::prod(function(&t(0), &t(1)), Type::array(t(0))),
            Type::array(t(1)),
        ),
        Prim::ZipP => (
            Type::prod(Type::array(t(0)), Type::array(t(1))),
            Type::array(Type::prod(t(0), t(1))),
        ),
        Prim::PackP => (
            Type::prod(Type::array(Type::Bool), Type::array(t(0))),
            Type::array(t(0)),
        ),
        Prim::CombineP => (
            Type::prod(
                Type::array(Type::Bool),
                Type::prod(Type::array(t(0)), Type::array(t(0))),
            ),
            Type::array(t(0)),
        ),
        Prim::SumP => (Type::array(Type::Int), Type::Int),
        Prim::TakeP | Prim::DropP => (Type::prod(Type::Int, Type::array(t(0))), Type::array(t(0))),
        Prim::TruesP | Prim::FalsesP => (Type::array(Type::Bool), Type::Int),
        Prim::Impose => (Type::prod(t(0), t(0)), t(0)),
    })
}

/// Computes omitted type arguments of `prim` from the type of the argument it is
/// applied to (the checker "guesses" the instance; this is the witness). Returns
/// `None` when some argument does not occur in the domain (`Left`, `nilP`,
/// `bottom`, ...) or the argument type does not have the domain's shape.
pub fn infer_type_args(prim: Prim, argument: &Type, calculus: Calculus) -> Option<Vec<Type>> {
    let arity = prim.type_arity();
    if arity == 0 {
        return Some(Vec::new());
    }
    if matches!(prim, Prim::In | Prim::Out) {
        return match (prim, argument) {
            (Prim::Out, Type::Mu(..)) => Some(vec![argument.clone()]),
            _ => None,
        };
    }
    let placeholders: Vec<Type> = (0..arity)
        .map(|i| Type::Var(format!("?{i}").into()))
        .collect();
    let (domain, _) = signature(prim, &placeholders, calculus).ok()?;
    let mut found: Vec<Option<Type>> = vec![None; arity];
    if !match_pattern(&domain, argument, &mut found) {
        return None;
    }
    found.into_iter().collect()
}

fn match_pattern(pattern: &Type, actual: &Type, found: &mut [Option<Type>]) -> bool {
    match (pattern, actual) {
        (Type::Var(name), _) if name.starts_with('?') => {
            let index: usize = name[1..].parse().unwrap_or(usize::MAX);
            match found.get_mut(index) {
                Some(slot @ None) => {
                    *slot = Some(actual.clone());
                    true
                }
                Some(Some(previous)) => previous == actual,
                None => false,
            }
        }
        (Type::Prod(a1, a2), Type::Prod(b1, b2))
        | (Type::Sum(a1, a2), Type::Sum(b1, b2))
        | (Type::Fun(a1, a2), Type::Fun(b1, b2))
        | (Type::Clo(a1, a2), Type::Clo(b1, b2)) => {
            match_pattern(a1, b1, found) && match_pattern(a2, b2, found)
        }
        (Type::Array(a), Type::Array(b)) => match_pattern(a, b, found),
        _ => pattern == actual,
    }
}

/// `c^n_⟨τ1..τn⟩`: a monomorphic instance of a constant family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Const {
    pub prim: Prim,
    pub type_args: Vec<Type>,
}

impl fmt::Display for Const {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.prim.name())?;
        write_type_args(f, &self.type_args)
    }
}

/// `<τ1, ..., τn>`, nothing when empty.
pub fn write_type_args(f: &mut fmt::Formatter<'_>, type_args: &[Type]) -> fmt::Result {
    if type_args.is_empty() {
        return Ok(());
    }
    write!(f, "<")?;
    for (i, ty) in type_args.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{ty}")?;
    }
    write!(f, ">")
}
