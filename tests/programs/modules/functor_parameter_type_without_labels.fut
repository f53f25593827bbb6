-- A functor's declaration that mentions its parameter's abstract type but
-- none of the parameter's values (`dup`, and the curried functor's `pick`
-- with its array of Y.t) is typed, in rule 70's samples, at the sample's
-- S∘S'(t) (ICFP'18 rule 39's guess; SPEC_NOTES ICFP18-23), so
-- `replicate 4 x` is an array of an order-zero type. Generated module
-- programs failed Proposition 6.1 here ("replicate: arrays of functions are
-- not allowed": the module type variable was a lifted type parameter).
-- ==
-- input { 3i32 } output { 8i32 8i32 }
-- input { 0i32 } output { 2i32 2i32 }

module type S = { type t  val mk : i32 -> t  val get : t -> i32 }

module F (X: S) : { val dup : X.t -> [4]X.t } = {
  def dup (x: X.t) : [4]X.t = replicate 4 x
}

module G (X: S) (Y: S) = {
  def pick (a: X.t) (b: Y.t) : X.t =
    let bs = replicate 3 b
    in if length bs > 2 then a else a
}

module M : S = {
  type t = i32
  def mk (x: i32) : t = x + 1
  def get (x: t) : i32 = x * 2
}

module N = F M
module K = G M M

def main (x: i32) : (i32, i32) =
  ((N.dup (M.mk x))[2] |> M.get, M.get (K.pick (M.mk x) (M.mk 0)))
