-- A functor of two parameters applied to its first argument only: `half`
-- is a functor closure, which ICFP'18 rule 70 relates to its signature by
-- sampling arguments. Each sampled application's result is again a
-- closure, whose `make` has the first parameter's abstract type `X.t` as
-- its result. The reference's verdict on this program once depended on
-- the allocator (SPEC_NOTES ICFP18-24): a closure checked while sampling
-- and then dropped freed its address, and the inner closure, allocated
-- there, was skipped as already checked (accepted) or checked (rejected:
-- "Proposition 6.1 fails ... rule 42 ... i32 -> i32 vs i32 -> t", before
-- ICFP18-23 gave `X.t` rule 39's guess). Static interpretation's generated
-- module program 50 (fuzz/tests/static_interp_agrees.rs) flipped so.
-- ==
-- input { 3 } output { 11 }
-- input { -8 } output { 0 }

module type counter = {
  type t
  val mk : u16 -> t
  val get : t -> i32
}

module M : counter = {
  type t = i32
  def mk (x: u16) : t = i32.u16 x
  def get (x: t) : i32 = x
}

module pair (X: counter) (Y: counter) = {
  def make (n: i32) : X.t =
    let _ = Y.mk 13
    in X.mk 8
}

module half = pair M

module full = half M

entry main (x: i32) : i32 = x + M.get (full.make x)
