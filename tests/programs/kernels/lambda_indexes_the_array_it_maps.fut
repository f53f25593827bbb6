-- A lambda indexing the very array its SOAC maps or reduces (gpu oracle,
-- seed 2026, programs 9 and 231): the array is an input of the SOAC and an
-- array of the lambda's environment at once, so the host's call lists it
-- among the inputs, not among the free variables; the GPU backend must
-- bind it from there.
-- ==
-- entry: rotate
-- input { [10i32, 20i32, 30i32, 40i32] } output { [20i32, 30i32, 40i32, 10i32] }
-- ==
-- entry: weighted
-- input { [1i8, 2i8, 3i8] } output { 11i8 }

entry rotate [n] (xs: [n]i32) : [n]i32 =
  map (\x -> xs[i64.i32 (x / 10) % n]) xs

entry weighted [n] (xs: [n]i8) : i8 =
  reduce (+) 0 (map (\x -> x * xs[i64.i8 x % n]) xs)
