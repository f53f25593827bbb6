-- A generic sum over the prelude's `numeric` module type, at an integer
-- and a float type; the result is converted with the prelude's conversions.
-- ==
-- input { [1, 2, 3] [0.5f32, 0.25f32] } output { 6i64 0.75f32 3i64 }
-- input { empty([0]i32) empty([0]f32) } output { 0i64 0f32 0i64 }
module mk_sum (N: numeric) = {
  def sum [n] (xs: [n]N.t) : N.t = loop acc = N.i32 0 for x in xs do acc N.+ x
  def count [n] (xs: [n]N.t) : i64 = N.to_i64 (sum (map (\_ -> N.i32 1) xs))
}

module sum_i32 = mk_sum i32
module sum_f32 = mk_sum f32

def main (xs: []i32) (ys: []f32) : (i64, f32, i64) =
  (i32.to_i64 (sum_i32.sum xs), sum_f32.sum ys, sum_i32.count xs)
