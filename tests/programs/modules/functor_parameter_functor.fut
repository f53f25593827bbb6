-- A functor whose parameter is itself a functor. Futhark accepts it; ICFP'18
-- rule 28 requires the parameter's module type to be an environment, so both
-- the reference and the optimised checker reject it with a located diagnostic
-- naming the rule (SPEC_NOTES ICFP18-19); the paper's form passes the functor
-- inside a structure (functor_in_parameter_structure.fut).
-- ==
-- error: non-parameterised parameter module type
module type monoid = { type t  val ne : t  val op : t -> t -> t }
module i32_sum : monoid with t = i32 = { type t = i32  def ne = 0i32  def op (x: i32) (y: i32) = x + y }
module twice (M: monoid) : monoid with t = M.t = {
  type t = M.t
  def ne = M.ne
  def op (x: t) (y: t) = M.op (M.op x y) y
}
module apply_to_sum = \(F: (M: monoid) -> monoid with t = M.t) -> F i32_sum
module twice_sum = apply_to_sum twice
def main (n: i32) : i32 = twice_sum.op n 1
