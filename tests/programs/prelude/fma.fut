-- `fma a b c` of the `real` module type: the exact a * b + c rounded once
-- (IEEE 754 fusedMultiplyAdd), unlike `mad`, which may round the product
-- first. The first case at each type is one where rounding twice gives
-- another result: (1 + 2^-30)(1 - 2^-30) - 1 is -2^-60, but the rounded
-- product is 1, so a product rounded first gives 0; at f32 the same with
-- 2^-13 gives -2^-26. The second `f32_fma` case separates a single
-- rounding from a sum computed in f64 and rounded again to f32:
-- (1 + 2^-23)(2^-24 - 2^-47) + (1 + 2^-23) is 1 + 2^-23 + 2^-24 - 2^-70,
-- just below the tie 1 + 2^-23 + 2^-24 between two floats, so it rounds
-- down to 1 + 2^-23; its nearest double is the tie itself, which rounds to
-- the even 1 + 2^-22, as does the f32 product 2^-24 plus c. Results are
-- compared by their bits (float comparison has a tolerance of more than
-- one unit).
-- ==
-- entry: f64_fma
-- input { [1.0000000009313226f64, 2f64, 0.5f64]
--         [0.9999999990686774f64, 3f64, 0.25f64]
--         [-1f64, 1f64, 0f64] }
-- output { [13560338478012563456u64, 4619567317775286272u64, 4593671619917905920u64] }
-- ==
-- entry: f32_fma
-- input { [1.0001220703125f32, 1.0000001192092896f32]
--         [0.9998779296875f32, 5.960463766996327e-08f32]
--         [-1f32, 1.0000001192092896f32] }
-- output { [2994733056u32, 1065353217u32] }
-- ==
-- entry: special_values
-- input { 0f64 } output { true true true }

entry f64_fma [n] (xs: [n]f64) (ys: [n]f64) (zs: [n]f64) : [n]u64 =
  map3 (\a b c -> f64.to_bits (f64.fma a b c)) xs ys zs

entry f32_fma [n] (xs: [n]f32) (ys: [n]f32) (zs: [n]f32) : [n]u32 =
  map3 (\a b c -> f32.to_bits (f32.fma a b c)) xs ys zs

-- inf * 0 is NaN whatever is added; an infinite addend dominates a finite
-- product; a NaN operand gives NaN.
entry special_values (zero: f64) =
  ( f64.isnan (f64.fma f64.inf zero 1f64)
  , f64.fma 1e300f64 1e300f64 (-f64.inf) == -f64.inf
  , f32.isnan (f32.fma 1f32 f32.nan 2f32) )
