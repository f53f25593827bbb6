-- `random input { TYPES }`: values generated from the types (Futhark's
-- ranges: floats in [0, 1), integers over their whole range), the same on
-- every run. The entry points check properties that any such input has, and
-- `pinned` checks the generated values themselves, so a change of generator
-- (which would change every benchmark's input) fails here.
-- ==
-- entry: in_unit_interval
-- random input { [1000]f32 } output { true true }

-- ==
-- entry: rows_in_unit_interval
-- random input { [10][20]f32 } output { true }

-- ==
-- entry: spread_over_range
-- random input { [1000]i32 [1000]u8 } output { true true true }

-- ==
-- entry: pinned
-- random input { [4]i32 bool } output { 1842206666i32 true }

-- Every element in [0, 1), and not all in one half.
entry in_unit_interval [n] (xs: [n]f32) : (bool, bool) =
  (all (\x -> x >= 0f32 && x < 1f32) xs, any (\x -> x < 0.5f32) xs && any (\x -> x >= 0.5f32) xs)

entry rows_in_unit_interval [n][m] (xss: [n][m]f32) : bool =
  all (all (\x -> x >= 0f32 && x < 1f32)) xss

entry spread_over_range [n] (xs: [n]i32) (ys: [n]u8) : (bool, bool, bool) =
  (any (\x -> x < -1000000) xs, any (\x -> x > 1000000) xs, any (\y -> y > 200u8) ys)

entry pinned (xs: [4]i32) (b: bool) : (i32, bool) = (reduce (+) 0 xs, b)
