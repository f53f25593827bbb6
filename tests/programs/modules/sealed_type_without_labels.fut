-- A declaration that mentions an opaque module's abstract type but none of
-- its values (`apply` below, and the functor's `swap`, applied to M) gets
-- the type the sealing found for it (SPEC_NOTES ICFP18-17). Generated module
-- programs once failed Proposition 6.1 there ("expected []t#588, found
-- [][]i32": the oracle's "Proposition 6.1 fails" discards).
-- ==
-- input { 4i32 } output { 2i32 4i32 }
-- input { -3i32 } output { 2i32 -3i32 }

module type S = { type t  val mk : i32 -> t  val get : t -> i32 }

module M : S = {
  type t = [2]i32
  def mk (x: i32) : t = [x, x]
  def get (x: t) : i32 = x[0]
}

def apply (g: M.t -> i32) (xs: []M.t) : i32 = g xs[0]

module G (Y: S) : { val swap : (Y.t, Y.t) -> (Y.t, Y.t) } = {
  def swap (p: (Y.t, Y.t)) : (Y.t, Y.t) = (p.1, p.0)
}

module K = G M

def main (x: i32) : (i32, i32) =
  let p = K.swap (M.mk x, M.mk 2)
  in (M.get p.0, apply M.get [M.mk x])
