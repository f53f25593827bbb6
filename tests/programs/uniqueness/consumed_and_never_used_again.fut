-- A unique entry parameter consumed by a local function and never used
-- again, and an in-place update of a fresh `map` result with no copy: both
-- are well typed (a mutant of `fuzz::gen` claimed "used after the update
-- that consumes it" of the first and "not copied first" of the second, and
-- both checkers rightly accepted it; `runestone ablate --paper tfp18
-- --count 100`, baseline item 17).
-- ==
-- input { [1.0f32, 2.0f32] [3i32, 4i32] } output { 7.5f32 }

entry main [n] (xs: *[n]f32) (ys: [n]i32) : f32 =
  let set (a: *[n]f32) (v: f32) : *[n]f32 = a with [0] = v
  let consumed = set xs 2.0f32
  let fresh = map (\y -> f32.i32 y) ys with [0] = 5.5f32
  in fresh[0] + consumed[0]
