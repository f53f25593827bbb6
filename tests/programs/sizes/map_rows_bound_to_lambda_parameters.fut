-- A `map`'s function is checked as applied to the rows of its arrays: the
-- unannotated parameter `row` has the shape of a row of `xss` (size 2),
-- so the inner `map` and the rows of `sums` have size 2, and `zip` with an
-- array of size 3 is a compile-time error, as in Futhark (SPEC_NOTES
-- TFP18-19, Extension: TFP18 T-ConstantSizes).
-- ==
-- error: sizes do not match
def main (xss: [3][2]i32) (x: i32) =
  let sums = map2 (\row y -> map (+ y) row) xss [x, x, x]
  in zip sums[0] (replicate 3 x)
