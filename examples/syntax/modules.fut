-- Every construct of the module language: module types with abstract and
-- manifest types, `with` refinements, parametric and higher-order modules,
-- anonymous functors, partial application of curried functors, opaque
-- ascription, `open`, `local`, `include`, and shadowing.
-- ==
-- input { 3 } output { 9 }
-- input { 0 } output { 6 }

module type has_t = {
  type t
}

module type monoid = {
  include has_t
  val ne : t
  val op : t -> t -> t
}

module type pair_of = (A: has_t) -> (B: has_t) -> {
  type t = (A.t, B.t)
}

module i32_sum : monoid with t = i32 = {
  type t = i32
  def ne = 0i32
  def op (x: i32) (y: i32) = x + y
}

module opaque : monoid = i32_sum

module pair (A: has_t) (B: has_t) = {
  type t = (A.t, B.t)
}

module pair_with_i32 = pair { type t = i32 }

module twice (M: monoid) : monoid with t = M.t = {
  type t = M.t
  def ne = M.ne
  def op (x: t) (y: t) = M.op (M.op x y) y
}

-- A functor passed to a functor travels inside a structure (ICFP'18 rule 28:
-- a functor's parameter has a non-parameterised module type).
module apply_to_sum = \(P: { module F : (M: monoid) -> monoid with t = M.t }) -> P.F i32_sum

module twice_sum = apply_to_sum { module F = twice }

module with_locals = {
  local def helper (x: i32) = x + 1
  def exported (x: i32) = helper x
}

open with_locals

module shadow = {
  def x = 1i32
  def x = x + 1
}

def main (n: i32) : i32 = twice_sum.op n (exported 2) + shadow.x - 2
