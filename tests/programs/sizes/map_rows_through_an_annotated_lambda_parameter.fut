-- A `map`'s rows have the shape of its function's body: here the lambda
-- states no result type, but its parameter's annotation `[1]i32` makes
-- every row of `rows` an array of size 1, so `map2` of a row and an array
-- of size 2 is a compile-time error, as in Futhark (SPEC_NOTES TFP18-19,
-- Extension: TFP18 T-ConstantSizes; verdict campaign, CI's random seed
-- 3169485987, program 745).
-- ==
-- error: sizes do not match
def main (xss: [3][1]i32) (x: i32) =
  let rows = map (\(row: [1]i32) -> row) xss
  in map2 (+) rows[0] (replicate 2 x)
