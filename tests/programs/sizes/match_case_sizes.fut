-- Match cases of different sizes: the `match` has an existential size.
-- The `match` twin of if_branch_sizes.fut (verdict oracle, seed 1).
-- ==
-- input { 0i32 } output { [[0.0f64, 0.0f64]] }
-- input { 1i32 } output { [[0.0f64, 0.0f64], [0.25f64, 0.25f64]] }

entry main (k: i32) : [][2]f64 =
  match k
  case 0i32 -> replicate 1i64 (replicate 2i64 0.0f64)
  case _ -> [replicate 2i64 0.0f64, replicate 2i64 0.25f64]
