-- `ldexp x n` of the `float` module type: x * 2^n for an `i32` n, rounded
-- once, so exact wherever the result is a normal number, and rounded to
-- nearest, ties to even, where it is subnormal (compared by the bits: the
-- tolerance of float comparison would hide an error of one unit). Cases:
-- a normal product; the least subnormal; half of it (a tie, to zero);
-- three quarters of it (to one unit); the greatest power of two; one step
-- beyond it (infinity); the greatest finite number scaled into the
-- subnormals (one unit less a tiny part: to one unit after scaling steps
-- that must not round); -0; a negative subnormal; the extreme exponents.
-- ==
-- entry: ldexp_f64
-- input { [1.5f64, 1f64, 1f64, 3f64, 1f64, 1f64,
--          1.7976931348623157e308f64, -0f64, -3f64, 5f64, 5f64,
--          4.9406564584124654e-324f64, 4.9406564584124654e-324f64]
--         [3, -1074, -1075, -1076, 1023, 1024,
--          -2098, 5, -1076, -2147483648, 2147483647,
--          2097, 2098] }
-- output { [4622945017495814144u64, 1u64, 0u64, 1u64, 9214364837600034816u64,
--           9218868437227405312u64, 1u64, 9223372036854775808u64,
--           9223372036854775809u64, 0u64, 9218868437227405312u64,
--           9214364837600034816u64, 9218868437227405312u64] }
-- ==
-- entry: ldexp_f32
-- input { [1.5f32, 1f32, 1f32, 3f32, 1f32, 1f32,
--          3.4028235e38f32, -0f32, -3f32, 5f32, 5f32]
--         [3, -149, -150, -151, 127, 128,
--          -277, 5, -151, -2147483648, 2147483647] }
-- output { [1094713344u32, 1u32, 0u32, 1u32, 2130706432u32, 2139095040u32,
--           1u32, 2147483648u32, 2147483649u32, 0u32, 2139095040u32] }
-- ==
-- entry: special_values
-- input { 3 } output { true true true false }

entry ldexp_f64 [n] (xs: [n]f64) (ns: [n]i32) : [n]u64 =
  map2 (\x k -> f64.to_bits (f64.ldexp x k)) xs ns

entry ldexp_f32 [n] (xs: [n]f32) (ns: [n]i32) : [n]u32 =
  map2 (\x k -> f32.to_bits (f32.ldexp x k)) xs ns

entry special_values (n: i32) =
  ( f64.isnan (f64.ldexp f64.nan n)
  , f64.ldexp f64.inf (-n) == f64.inf
  , f32.ldexp (-f32.inf) n == -f32.inf
  , f32.isnan (f32.ldexp 1f32 n) )
