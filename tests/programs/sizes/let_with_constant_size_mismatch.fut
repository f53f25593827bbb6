-- `let xs[i] = v` needs `v` of the shape of `xs[i]`: a `[2]f32` row in
-- an array of `[1]f32` rows is a compile-time error, as in Futhark
-- (SPEC_NOTES TFP18-19; the verdict campaign's seed-7 class "reference
-- accepts, optimized rejects").
-- ==
-- error: sizes do not match
def main (x: f32) : f32 =
  let xs = [[x], [1.0f32]]
  let xs[1i64] = [x, x]
  in xs[0i64, 0i64]
