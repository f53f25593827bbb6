//! λA types (Fig. 5.6), their kinding and equivalence (Fig. 5.7), and type
//! flattening `A[·]`, `F[·]` (Defs. 5.5–5.8) in the *with-length* representation
//! of App. C, Ch. 3 and §6.1 (SPEC_NOTES L05-1):
//!
//! ```text
//! Unit_ = ⟨⟨⟩, Int × ⟨⟩⟩          Int_ = ⟨Int, Int × Arr_Int⟩    Bool_ = ⟨Bool, Int × Arr_Bool⟩
//! τ1 ×_ τ2 = ⟨τ1.1 × τ2.1, Int × (τ1.2 × τ2.2)⟩
//! τ1 +_ τ2 = ⟨τ1.1 + τ2.1, Bool_.2 × (τ1.2 × τ2.2)⟩
//! τ1 →_ τ2 = ⟨(τ1.1 → τ2.1) × (τ1.2 → τ2.2), Int × ((τ1.1 → τ2.1) × (τ1.2 → τ2.2))⟩
//! τ1 ⇒_ τ2 = ⟨τ1.1 ⇒ τ2.1, τ1.2 ⇛ τ2.2⟩        τ^↑ = ⟨τ.2, Int_.2 × τ.2⟩
//! ```
//!
//! Equivalence `≡` is decided by normalisation: β on type tuples
//! (`⟨τ1,τ2⟩.i ≡ τi`) and η for neutral types of kind `⋆×⋆` (`τ ≡ ⟨τ.1, τ.2⟩`),
//! then α-equivalence. There is no μ-unfolding (the thesis' λA is iso-recursive).

use super::types::Type;
use crate::derivation::fire_rule;
use std::fmt;
use std::rc::Rc;

/// `τ` of λA.
#[derive(Clone, Debug)]
pub enum TypeA {
    Var(Rc<str>),
    Int,
    Bool,
    ArrInt,
    ArrBool,
    Unit,
    Prod(Rc<TypeA>, Rc<TypeA>),
    Sum(Rc<TypeA>, Rc<TypeA>),
    Fun(Rc<TypeA>, Rc<TypeA>),
    Clo(Rc<TypeA>, Rc<TypeA>),
    /// `τ1 ⇛ τ2`, the array-closure type.
    ArrClo(Rc<TypeA>, Rc<TypeA>),
    Mu(Rc<str>, Rc<TypeA>),
    /// `⟨τ1, τ2⟩`, a type association.
    Tuple(Rc<TypeA>, Rc<TypeA>),
    /// `τ.i`.
    Proj(Rc<TypeA>, u8),
}

/// `κ ::= ⋆ | ⋆ × ⋆`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Star,
    StarStar,
}

fn rc(t: TypeA) -> Rc<TypeA> {
    Rc::new(t)
}

impl TypeA {
    pub fn prod(a: TypeA, b: TypeA) -> TypeA {
        TypeA::Prod(rc(a), rc(b))
    }
    pub fn sum(a: TypeA, b: TypeA) -> TypeA {
        TypeA::Sum(rc(a), rc(b))
    }
    pub fn fun(a: TypeA, b: TypeA) -> TypeA {
        TypeA::Fun(rc(a), rc(b))
    }
    pub fn clo(a: TypeA, b: TypeA) -> TypeA {
        TypeA::Clo(rc(a), rc(b))
    }
    pub fn arr_clo(a: TypeA, b: TypeA) -> TypeA {
        TypeA::ArrClo(rc(a), rc(b))
    }
    pub fn tuple(a: TypeA, b: TypeA) -> TypeA {
        TypeA::Tuple(rc(a), rc(b))
    }
    /// `τ.i`, β-reduced when `τ` is a tuple.
    pub fn proj(self, i: u8) -> TypeA {
        match self {
            TypeA::Tuple(a, b) => {
                if i == 1 {
                    (*a).clone()
                } else {
                    (*b).clone()
                }
            }
            other => TypeA::Proj(rc(other), i),
        }
    }
}

/// `A[τ]` (Def. 5.8): the association of a λC type; depends only on the
/// outermost constructor.
pub fn association(ty: &Type) -> TypeA {
    match ty {
        // L05 Def5.8 A-Var
        Type::Var(name) => {
            fire_rule("L05 Def5.8 A-Var");
            TypeA::Var(name.clone())
        }
        // L05 Def5.8 A-Unit
        Type::Unit => {
            fire_rule("L05 Def5.8 A-Unit");
            unit_association()
        }
        // L05 Def5.8 A-Int
        Type::Int => {
            fire_rule("L05 Def5.8 A-Int");
            int_association()
        }
        // L05 Def5.8 A-Bool
        Type::Bool => {
            fire_rule("L05 Def5.8 A-Bool");
            bool_association()
        }
        Type::Prod(a, b) => {
            // L05 Def5.8 A-Prod
            fire_rule("L05 Def5.8 A-Prod");
            let (a, b) = (association(a), association(b));
            TypeA::tuple(
                TypeA::prod(a.clone().proj(1), b.clone().proj(1)),
                TypeA::prod(TypeA::Int, TypeA::prod(a.proj(2), b.proj(2))),
            )
        }
        Type::Sum(a, b) => {
            // L05 Def5.8 A-Sum
            fire_rule("L05 Def5.8 A-Sum");
            let (a, b) = (association(a), association(b));
            TypeA::tuple(
                TypeA::sum(a.clone().proj(1), b.clone().proj(1)),
                TypeA::prod(
                    bool_association().proj(2),
                    TypeA::prod(a.proj(2), b.proj(2)),
                ),
            )
        }
        Type::Fun(a, b) => {
            // L05 Def5.8 A-Fun
            fire_rule("L05 Def5.8 A-Fun");
            let (a, b) = (association(a), association(b));
            let pair = TypeA::prod(
                TypeA::fun(a.clone().proj(1), b.clone().proj(1)),
                TypeA::fun(a.proj(2), b.proj(2)),
            );
            TypeA::tuple(pair.clone(), TypeA::prod(TypeA::Int, pair))
        }
        Type::Clo(a, b) => {
            // L05 Def5.8 A-Clo
            fire_rule("L05 Def5.8 A-Clo");
            let (a, b) = (association(a), association(b));
            TypeA::tuple(
                TypeA::clo(a.clone().proj(1), b.clone().proj(1)),
                TypeA::arr_clo(a.proj(2), b.proj(2)),
            )
        }
        Type::Array(a) => {
            // L05 Def5.8 A-Array
            fire_rule("L05 Def5.8 A-Array");
            let a = association(a);
            TypeA::tuple(
                a.clone().proj(2),
                TypeA::prod(int_association().proj(2), a.proj(2)),
            )
        }
        // L05 Def5.8 A-Mu
        Type::Mu(name, body) => {
            fire_rule("L05 Def5.8 A-Mu");
            TypeA::Mu(name.clone(), rc(association(body)))
        }
    }
}

fn unit_association() -> TypeA {
    TypeA::tuple(TypeA::Unit, TypeA::prod(TypeA::Int, TypeA::Unit))
}
fn int_association() -> TypeA {
    TypeA::tuple(TypeA::Int, TypeA::prod(TypeA::Int, TypeA::ArrInt))
}
fn bool_association() -> TypeA {
    TypeA::tuple(TypeA::Bool, TypeA::prod(TypeA::Int, TypeA::ArrBool))
}

/// `F[τ] = A[τ].1`, normalised.
pub fn flat(ty: &Type) -> TypeA {
    // L05 Def5.8 F
    fire_rule("L05 Def5.8 F");
    normalise(&association(ty).proj(1))
}

/// `F[[:τ:]] = A[τ].2`, normalised.
pub fn flat_array(ty: &Type) -> TypeA {
    normalise(&association(ty).proj(2))
}

/// β-normal form: every `⟨τ1,τ2⟩.i` reduced.
pub fn normalise(ty: &TypeA) -> TypeA {
    match ty {
        TypeA::Var(_) | TypeA::Int | TypeA::Bool | TypeA::ArrInt | TypeA::ArrBool | TypeA::Unit => {
            ty.clone()
        }
        TypeA::Prod(a, b) => TypeA::prod(normalise(a), normalise(b)),
        TypeA::Sum(a, b) => TypeA::sum(normalise(a), normalise(b)),
        TypeA::Fun(a, b) => TypeA::fun(normalise(a), normalise(b)),
        TypeA::Clo(a, b) => TypeA::clo(normalise(a), normalise(b)),
        TypeA::ArrClo(a, b) => TypeA::arr_clo(normalise(a), normalise(b)),
        TypeA::Tuple(a, b) => TypeA::tuple(normalise(a), normalise(b)),
        TypeA::Mu(name, body) => TypeA::Mu(name.clone(), rc(normalise(body))),
        TypeA::Proj(inner, i) => normalise(inner).proj(*i),
    }
}

/// Why a λA type is ill-kinded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindError(pub String);

/// `Δ ⊢_A τ : κ` (Fig. 5.7, type rules).
pub fn kind_of(delta: &mut Vec<Rc<str>>, ty: &TypeA) -> Result<Kind, KindError> {
    match ty {
        TypeA::Var(name) => {
            // L05 Fig5.7 VAR-TYPE
            fire_rule("L05 Fig5.7 VAR-TYPE");
            if delta.contains(name) {
                Ok(Kind::StarStar)
            } else {
                Err(KindError(format!(
                    "VAR-TYPE: type variable {name} is not in Δ"
                )))
            }
        }
        TypeA::Int | TypeA::Bool | TypeA::ArrInt | TypeA::ArrBool | TypeA::Unit => {
            // L05 Fig5.7 PRIM-TYPE
            fire_rule("L05 Fig5.7 PRIM-TYPE");
            Ok(Kind::Star)
        }
        TypeA::Prod(a, b)
        | TypeA::Sum(a, b)
        | TypeA::Fun(a, b)
        | TypeA::Clo(a, b)
        | TypeA::ArrClo(a, b) => {
            // L05 Fig5.7 BIN-TYPE
            fire_rule("L05 Fig5.7 BIN-TYPE");
            expect_kind(delta, a, Kind::Star, "BIN-TYPE")?;
            expect_kind(delta, b, Kind::Star, "BIN-TYPE")?;
            Ok(Kind::Star)
        }
        TypeA::Mu(name, body) => {
            // L05 Fig5.7 REC-TYPE
            fire_rule("L05 Fig5.7 REC-TYPE");
            delta.push(name.clone());
            let result = expect_kind(delta, body, Kind::StarStar, "REC-TYPE");
            delta.pop();
            result.map(|()| Kind::StarStar)
        }
        TypeA::Tuple(a, b) => {
            // L05 Fig5.7 TUP-TYPE
            fire_rule("L05 Fig5.7 TUP-TYPE");
            expect_kind(delta, a, Kind::Star, "TUP-TYPE")?;
            expect_kind(delta, b, Kind::Star, "TUP-TYPE")?;
            Ok(Kind::StarStar)
        }
        TypeA::Proj(inner, _) => {
            // L05 Fig5.7 PROJ-TYPE
            fire_rule("L05 Fig5.7 PROJ-TYPE");
            expect_kind(delta, inner, Kind::StarStar, "PROJ-TYPE")?;
            Ok(Kind::Star)
        }
    }
}

fn expect_kind(
    delta: &mut Vec<Rc<str>>,
    ty: &TypeA,
    expected: Kind,
    rule: &str,
) -> Result<(), KindError> {
    let found = kind_of(delta, ty)?;
    if found == expected {
        Ok(())
    } else {
        Err(KindError(format!(
            "{rule}: `{ty}` has kind {found:?}, expected {expected:?}"
        )))
    }
}

/// `⊢_A τ1 ≡ τ2` (Fig. 5.7): β for type tuples, η for neutrals of kind `⋆×⋆`,
/// reflexivity, symmetry, transitivity and congruence by comparing normal forms.
pub fn equivalent(a: &TypeA, b: &TypeA) -> bool {
    // L05 Fig5.7 EQUIV-BETA
    fire_rule("L05 Fig5.7 EQUIV-BETA");
    equal_normal(&normalise(a), &normalise(b), &mut Vec::new())
}

fn equal_normal(a: &TypeA, b: &TypeA, bound: &mut Vec<(Rc<str>, Rc<str>)>) -> bool {
    match (a, b) {
        (TypeA::Var(x), TypeA::Var(y)) => {
            for (left, right) in bound.iter().rev() {
                if left == x || right == y {
                    return left == x && right == y;
                }
            }
            x == y
        }
        (TypeA::Int, TypeA::Int)
        | (TypeA::Bool, TypeA::Bool)
        | (TypeA::ArrInt, TypeA::ArrInt)
        | (TypeA::ArrBool, TypeA::ArrBool)
        | (TypeA::Unit, TypeA::Unit) => true,
        (TypeA::Prod(a1, a2), TypeA::Prod(b1, b2))
        | (TypeA::Sum(a1, a2), TypeA::Sum(b1, b2))
        | (TypeA::Fun(a1, a2), TypeA::Fun(b1, b2))
        | (TypeA::Clo(a1, a2), TypeA::Clo(b1, b2))
        | (TypeA::ArrClo(a1, a2), TypeA::ArrClo(b1, b2))
        | (TypeA::Tuple(a1, a2), TypeA::Tuple(b1, b2)) => {
            equal_normal(a1, b1, bound) && equal_normal(a2, b2, bound)
        }
        (TypeA::Proj(x, i), TypeA::Proj(y, j)) => i == j && equal_normal(x, y, bound),
        (TypeA::Mu(x, body_x), TypeA::Mu(y, body_y)) => {
            bound.push((x.clone(), y.clone()));
            let equal = equal_normal(body_x, body_y, bound);
            bound.pop();
            equal
        }
        // η: a neutral association `n` is `⟨n.1, n.2⟩`.
        (TypeA::Tuple(a1, a2), neutral @ (TypeA::Var(_) | TypeA::Mu(..)))
        | (neutral @ (TypeA::Var(_) | TypeA::Mu(..)), TypeA::Tuple(a1, a2)) => {
            // L05 Fig5.7 EQUIV-ETA
            fire_rule("L05 Fig5.7 EQUIV-ETA");
            equal_normal(a1, &TypeA::Proj(rc(neutral.clone()), 1), bound)
                && equal_normal(a2, &TypeA::Proj(rc(neutral.clone()), 2), bound)
        }
        _ => false,
    }
}

impl fmt::Display for TypeA {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type_a(f, self, 0)
    }
}

fn write_type_a(f: &mut fmt::Formatter<'_>, ty: &TypeA, context: u8) -> fmt::Result {
    let own = match ty {
        TypeA::Fun(..) | TypeA::Clo(..) | TypeA::ArrClo(..) | TypeA::Mu(..) => 1,
        TypeA::Sum(..) => 2,
        TypeA::Prod(..) => 3,
        _ => 4,
    };
    if own < context {
        write!(f, "(")?;
    }
    match ty {
        TypeA::Var(name) => write!(f, "{name}")?,
        TypeA::Int => write!(f, "Int")?,
        TypeA::Bool => write!(f, "Bool")?,
        TypeA::ArrInt => write!(f, "Arr_Int")?,
        TypeA::ArrBool => write!(f, "Arr_Bool")?,
        TypeA::Unit => write!(f, "()")?,
        TypeA::Prod(a, b) => {
            write_type_a(f, a, 4)?;
            write!(f, " * ")?;
            write_type_a(f, b, 3)?;
        }
        TypeA::Sum(a, b) => {
            write_type_a(f, a, 3)?;
            write!(f, " + ")?;
            write_type_a(f, b, 2)?;
        }
        TypeA::Fun(a, b) | TypeA::Clo(a, b) | TypeA::ArrClo(a, b) => {
            let arrow = match ty {
                TypeA::Fun(..) => "->",
                TypeA::Clo(..) => "=>",
                _ => "=>>",
            };
            write_type_a(f, a, 2)?;
            write!(f, " {arrow} ")?;
            write_type_a(f, b, 1)?;
        }
        TypeA::Mu(name, body) => {
            write!(f, "mu {name}. ")?;
            write_type_a(f, body, 1)?;
        }
        TypeA::Tuple(a, b) => {
            write!(f, "<")?;
            write_type_a(f, a, 0)?;
            write!(f, ", ")?;
            write_type_a(f, b, 0)?;
            write!(f, ">")?;
        }
        TypeA::Proj(inner, i) => {
            write_type_a(f, inner, 4)?;
            write!(f, ".{i}")?;
        }
    }
    if own < context {
        write!(f, ")")?;
    }
    Ok(())
}
