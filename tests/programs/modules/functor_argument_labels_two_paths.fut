-- A structure `M`, opaquely ascribed, passed to a functor: inside the
-- functor's body the parameter `X` and `M` share M's labels, each with its
-- own abstract type. The reference once matched only the first path's
-- types against Γ (rule 70's recorded argument, Proposition 6.1 failed with
-- "the target expression does not have its declared type").
-- ==
-- input { 3i32 } output { 3i32 }
module type S = {
  type t
  val mk : i32 -> t
  val get : t -> i32
}
module M : S = {
  type t = i32
  def mk (x: i32) : t = x
  def get (x: t) : i32 = x
}
module P (X: {type a}) = { type pair = (X.a, X.a) }
module F (X: S) = {

  def both (x: i32) : (X.t, X.t) = (X.mk x, X.mk (x + 1))
}
module N = F M
def main (x: i32) : i32 = M.get (N.both x).0
