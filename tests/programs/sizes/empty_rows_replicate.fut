-- An empty array keeps the shape of its rows (SPEC_NOTES TFP18-6):
-- `replicate 0 [a, b, c]` is `[0][3]`, so the coercion to `[n][3]f32` holds
-- for n = 0 as for any n. Found by `runestone fuzz --oracle value --seed 77`
-- (program 485), where the reference failed with `Size mismatch: dimension 1
-- of the value is not 3.`
-- ==
-- input { 0i64 } output { empty([0][3]f32) }
-- input { 2i64 } output { [[7.0f32, 1.5f32, 2.0f32], [7.0f32, 1.5f32, 2.0f32]] }
def main (n: i64) : [n][3]f32 =
  replicate n [7.0f32, 1.5f32, 2.0f32] :> [n][3]f32
