-- A lambda over `[n][3]` rows given rows built with n = 0: each row is
-- `replicate 0 (replicate 3 x)`, of shape `[0][3]`, which the parameter's
-- size check accepts (SPEC_NOTES TFP18-6). Found by `runestone fuzz --oracle
-- value --seed 1517358021` (program 612).
-- ==
-- input { empty([0]i32) } output { empty([3][0]i32) }
-- input { [5i32] } output { [[14i32], [14i32], [14i32]] }
def main [n] (xs: [n]i32) : [][n]i32 =
  map (\(p: [n][3]i32) -> replicate n 14i32)
      (map (\(x: i32) : [n][3]i32 -> replicate n (replicate 3i64 x)) [15i32, 2i32, 6i32])
