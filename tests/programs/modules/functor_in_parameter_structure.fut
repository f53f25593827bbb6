-- The paper's form of a higher-order functor (ICFP'18 rule 28): the functor
-- argument travels inside a structure, `{ module F : (M: monoid) -> … }`.
-- twice_sum.op n 1 = (n + 1) + 1.
-- ==
-- input { 3 } output { 5 }
-- input { -2 } output { 0 }
module type monoid = { type t  val ne : t  val op : t -> t -> t }
module i32_sum : monoid with t = i32 = { type t = i32  def ne = 0i32  def op (x: i32) (y: i32) = x + y }
module twice (M: monoid) : monoid with t = M.t = {
  type t = M.t
  def ne = M.ne
  def op (x: t) (y: t) = M.op (M.op x y) y
}
module apply_to_sum = \(P: { module F : (M: monoid) -> monoid with t = M.t }) -> P.F i32_sum
module twice_sum = apply_to_sum { module F = twice }
def main (n: i32) : i32 = twice_sum.op n 1
