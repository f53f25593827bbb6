-- A round trip of large integers through f32 in a map loses their low bits
-- (f32 has a 24-bit significand): found by `runestone fuzz --oracle gpu
-- --seed 2026` (programs 205 and 243), where the GPU kernel kept them.
-- ==
-- input { [-565658229i32, 726209786i32, 5i32, -5i32, 16777217i32] }
-- output { [-565658240i32, 726209792i32, 5i32, -5i32, 16777216i32]
--          [1236377472i32, 850792704i32, 65i32, -65i32, 218103808i32] }
entry main (xs: []i32) : ([]i32, []i32) =
  (map (\a -> i32.f32 (f32.i32 a)) xs,
   map (\a -> 13i32 * i32.f32 (f32.i32 (a * 1i32))) (map (\a -> a - 1i32 + 1i32) xs))
