//! Types of λP and λC (Figs. 5.1 and 5.3): `τ ::= α | Int | Bool | ⟨⟩ | τ1 × τ2 |
//! τ1 + τ2 | τ1 → τ2 | τ1 ⇒ τ2 | [:τ:] | μα.τ`. The closure type `⇒` belongs to λC
//! only; the λP checker rejects it. The same type is also the *index* of every
//! λA constant: a λA type argument is always an association `A[τ]` of a λC type
//! (L1947), so the λA side keeps `τ` and computes `A[τ]` on demand
//! (`flat_types.rs`, SPEC_NOTES L05-7).

use std::fmt;
use std::rc::Rc;

/// `τ`: a type of λP (without `⇒`) or λC.
#[derive(Clone, Debug)]
pub enum Type {
    Var(Rc<str>),
    Int,
    Bool,
    Unit,
    Prod(Rc<Type>, Rc<Type>),
    Sum(Rc<Type>, Rc<Type>),
    Fun(Rc<Type>, Rc<Type>),
    Clo(Rc<Type>, Rc<Type>),
    Array(Rc<Type>),
    Mu(Rc<str>, Rc<Type>),
}

impl Type {
    pub fn prod(a: Type, b: Type) -> Type {
        Type::Prod(Rc::new(a), Rc::new(b))
    }
    pub fn sum(a: Type, b: Type) -> Type {
        Type::Sum(Rc::new(a), Rc::new(b))
    }
    pub fn fun(a: Type, b: Type) -> Type {
        Type::Fun(Rc::new(a), Rc::new(b))
    }
    pub fn clo(a: Type, b: Type) -> Type {
        Type::Clo(Rc::new(a), Rc::new(b))
    }
    pub fn array(a: Type) -> Type {
        Type::Array(Rc::new(a))
    }
    pub fn mu(name: &str, body: Type) -> Type {
        Type::Mu(Rc::from(name), Rc::new(body))
    }

    /// `τ[v/α]`. The substituted types in this crate are closed (μ-unfolding of
    /// closed types), so no capture can happen; a binder of the same name stops
    /// the substitution.
    pub fn substitute(&self, alpha: &str, replacement: &Type) -> Type {
        match self {
            Type::Var(name) if &**name == alpha => replacement.clone(),
            Type::Var(_) | Type::Int | Type::Bool | Type::Unit => self.clone(),
            Type::Prod(a, b) => Type::prod(
                a.substitute(alpha, replacement),
                b.substitute(alpha, replacement),
            ),
            Type::Sum(a, b) => Type::sum(
                a.substitute(alpha, replacement),
                b.substitute(alpha, replacement),
            ),
            Type::Fun(a, b) => Type::fun(
                a.substitute(alpha, replacement),
                b.substitute(alpha, replacement),
            ),
            Type::Clo(a, b) => Type::clo(
                a.substitute(alpha, replacement),
                b.substitute(alpha, replacement),
            ),
            Type::Array(a) => Type::array(a.substitute(alpha, replacement)),
            Type::Mu(name, _) if &**name == alpha => self.clone(),
            Type::Mu(name, body) => {
                Type::Mu(name.clone(), Rc::new(body.substitute(alpha, replacement)))
            }
        }
    }

    /// `τ[μα.τ/α]` for `self = μα.τ`; `None` for other types.
    pub fn unfold(&self) -> Option<Type> {
        match self {
            Type::Mu(name, body) => Some(body.substitute(name, self)),
            _ => None,
        }
    }

    /// Whether `→` occurs in the type (Def. 6.26 uses the absence of functions).
    pub fn mentions_function(&self) -> bool {
        match self {
            Type::Fun(..) => true,
            Type::Var(_) | Type::Int | Type::Bool | Type::Unit => false,
            Type::Prod(a, b) | Type::Sum(a, b) | Type::Clo(a, b) => {
                a.mentions_function() || b.mentions_function()
            }
            Type::Array(a) | Type::Mu(_, a) => a.mentions_function(),
        }
    }

    /// Whether `→` or `⇒` occurs in the type: values of such types are read back
    /// as opaque.
    pub fn is_first_order(&self) -> bool {
        match self {
            Type::Fun(..) | Type::Clo(..) => false,
            Type::Var(_) | Type::Int | Type::Bool | Type::Unit => true,
            Type::Prod(a, b) | Type::Sum(a, b) => a.is_first_order() && b.is_first_order(),
            Type::Array(a) | Type::Mu(_, a) => a.is_first_order(),
        }
    }

    /// Structural size, used to bound generators.
    pub fn size(&self) -> usize {
        match self {
            Type::Var(_) | Type::Int | Type::Bool | Type::Unit => 1,
            Type::Prod(a, b) | Type::Sum(a, b) | Type::Fun(a, b) | Type::Clo(a, b) => {
                1 + a.size() + b.size()
            }
            Type::Array(a) | Type::Mu(_, a) => 1 + a.size(),
        }
    }
}

/// α-equivalence: μ-bound names do not matter.
impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        alpha_equal(self, other, &mut Vec::new())
    }
}
impl Eq for Type {}

fn alpha_equal(a: &Type, b: &Type, bound: &mut Vec<(Rc<str>, Rc<str>)>) -> bool {
    match (a, b) {
        (Type::Var(x), Type::Var(y)) => {
            for (left, right) in bound.iter().rev() {
                if left == x || right == y {
                    return left == x && right == y;
                }
            }
            x == y
        }
        (Type::Int, Type::Int) | (Type::Bool, Type::Bool) | (Type::Unit, Type::Unit) => true,
        (Type::Prod(a1, a2), Type::Prod(b1, b2))
        | (Type::Sum(a1, a2), Type::Sum(b1, b2))
        | (Type::Fun(a1, a2), Type::Fun(b1, b2))
        | (Type::Clo(a1, a2), Type::Clo(b1, b2)) => {
            alpha_equal(a1, b1, bound) && alpha_equal(a2, b2, bound)
        }
        (Type::Array(x), Type::Array(y)) => alpha_equal(x, y, bound),
        (Type::Mu(x, body_x), Type::Mu(y, body_y)) => {
            bound.push((x.clone(), y.clone()));
            let equal = alpha_equal(body_x, body_y, bound);
            bound.pop();
            equal
        }
        _ => false,
    }
}

/// Printed in the concrete syntax of `concrete.rs`: `Int`, `Bool`, `()`, `a * b`,
/// `a + b`, `a -> b`, `a => b`, `[a]`, `mu a. t`. Precedence: `->`/`=>` (right)
/// < `+` < `*` < atoms.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, self, 0)
    }
}

fn write_type(f: &mut fmt::Formatter<'_>, ty: &Type, context: u8) -> fmt::Result {
    let own = match ty {
        Type::Fun(..) | Type::Clo(..) | Type::Mu(..) => 1,
        Type::Sum(..) => 2,
        Type::Prod(..) => 3,
        _ => 4,
    };
    if own < context {
        write!(f, "(")?;
    }
    match ty {
        Type::Var(name) => write!(f, "{name}")?,
        Type::Int => write!(f, "Int")?,
        Type::Bool => write!(f, "Bool")?,
        Type::Unit => write!(f, "()")?,
        Type::Prod(a, b) => {
            write_type(f, a, 4)?;
            write!(f, " * ")?;
            write_type(f, b, 3)?;
        }
        Type::Sum(a, b) => {
            write_type(f, a, 3)?;
            write!(f, " + ")?;
            write_type(f, b, 2)?;
        }
        Type::Fun(a, b) => {
            write_type(f, a, 2)?;
            write!(f, " -> ")?;
            write_type(f, b, 1)?;
        }
        Type::Clo(a, b) => {
            write_type(f, a, 2)?;
            write!(f, " => ")?;
            write_type(f, b, 1)?;
        }
        Type::Array(a) => {
            write!(f, "[")?;
            write_type(f, a, 0)?;
            write!(f, "]")?;
        }
        Type::Mu(name, body) => {
            write!(f, "mu {name}. ")?;
            write_type(f, body, 1)?;
        }
    }
    if own < context {
        write!(f, ")")?;
    }
    Ok(())
}
