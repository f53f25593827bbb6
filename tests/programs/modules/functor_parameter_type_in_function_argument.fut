-- A functor's `f` takes a function returning the parameter's abstract type
-- but uses none of the parameter's values, so no label determines X.t in
-- its code; `g` applies `f` to a function built from X.mk. In rule 70's
-- samples f's type in Γ is now (i32 -> S∘S'(t)) -> i32 -> bool, the type g
-- sees (ICFP'18 rule 39's guess; SPEC_NOTES ICFP18-23). Generated module
-- programs failed Proposition 6.1 here ("the argument: expected
-- i32 -> t#604, found i32 -> bool").
-- ==
-- input { 3i32 } output { 1i32 }
-- input { -2i32 } output { 0i32 }

module type S = { type t  val mk : bool -> t  val get : t -> i32 }

module F (X: S) : {
  val f : (i32 -> X.t) -> i32 -> bool
  val g : i32 -> i32
} = {
  def f (h: i32 -> X.t) (x: i32) : bool = x > 0
  def g (x: i32) : i32 =
    let (a, _) = (X.mk true, 1i32)
    in if f (\(p: i32) -> a) x then 1 else 0
}

module M : S = {
  type t = i32
  def mk (b: bool) : t = if b then 1 else 0
  def get (x: t) : i32 = x
}

module Z = F M

def main (x: i32) : i32 = Z.g x
