-- The rows proven through a lambda applied to the rows of `xss` (size 2)
-- meet an array of the same constant size: accepted, as by Futhark, and
-- run (SPEC_NOTES TFP18-19, Extension: TFP18 T-ConstantSizes).
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] 10 } output { [21, 22] }
def main (xss: [3][2]i32) (x: i32) : [2]i32 =
  let sums = map2 (\row y -> map (+ y) row) xss [x, x, x]
  in map2 (+) sums[0] (replicate 2 x)
