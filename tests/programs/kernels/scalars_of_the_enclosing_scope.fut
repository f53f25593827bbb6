-- Lambdas reading scalars of the enclosing scope, one entry per primitive
-- type: the GPU backend binds them in the kernel's environment (descriptor
-- set 1, each scalar a 64-bit word pair) when the SOAC runs, so one kernel
-- serves every value. Negative narrow integers are sign-extended, 64-bit
-- values use both words (-5000000000 and 2^40 + 7 do not fit 32 bits), and
-- the same entry run with two values must give two results.
-- Wrapping: 100i8 * 3 = 44 (300 - 256); 200u8 + 100 = 44.
-- ==
-- entry: narrow
-- input { -3i8 1000i16 [100i8, -2i8] [1i16, -1i16] }
-- output { [-44i8, 6i8] [1000i16, -1000i16] }
-- input { 3i8 -1i16 [100i8, -2i8] [1i16, -1i16] }
-- output { [44i8, -6i8] [-1i16, 1i16] }
-- ==
-- entry: unsigned_narrow
-- input { 100u8 65535u16 [200u8, 1u8] [1u16, 2u16] }
-- output { [44u8, 101u8] [0u16, 1u16] }
-- ==
-- entry: wide
-- input { -5000000000i64 1099511627783u64 [1i64, 2i64] [0u64, 1u64] }
-- output { [-4999999999i64, -4999999998i64] [1099511627783u64, 1099511627784u64] }
-- ==
-- entry: words
-- input { -7i32 4000000000u32 [1i32, 10i32] [1u32, 2u32] }
-- output { [-7i32, -70i32] [4000000001u32, 4000000002u32] }
-- ==
-- entry: floats
-- input { 0.5f32 -0.25f64 true [2f32, 4f32] [8f64, 16f64] }
-- output { [1.5f32, 2.5f32] [-2f64, -4f64] [2f32, 4f32] }
-- input { 0.5f32 -0.25f64 false [2f32, 4f32] [8f64, 16f64] }
-- output { [1.5f32, 2.5f32] [-2f64, -4f64] [0f32, 0f32] }

entry narrow (a: i8) (b: i16) (xs: []i8) (ys: []i16) : ([]i8, []i16) =
  (map (\x -> x * a) xs, map (\y -> y * b) ys)

entry unsigned_narrow (a: u8) (b: u16) (xs: []u8) (ys: []u16) : ([]u8, []u16) =
  (map (\x -> x + a) xs, map (\y -> y + b) ys)

entry wide (a: i64) (b: u64) (xs: []i64) (ys: []u64) : ([]i64, []u64) =
  (map (\x -> x + a) xs, map (\y -> y + b) ys)

entry words (a: i32) (b: u32) (xs: []i32) (ys: []u32) : ([]i32, []u32) =
  (map (\x -> x * a) xs, map (\y -> y + b) ys)

entry floats (a: f32) (b: f64) (keep: bool) (xs: []f32) (ys: []f64) : ([]f32, []f64, []f32) =
  (map (\x -> x * a + 0.5) xs, map (\y -> y * b) ys, map (\x -> if keep then x else 0) xs)
