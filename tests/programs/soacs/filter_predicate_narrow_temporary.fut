-- A filter over i16 whose predicate computes an i8 temporary (the kernel
-- must declare 8-bit arithmetic, or stay on the host): found by `runestone
-- fuzz --oracle gpu --seed 2026` (programs 87, 111, 301), where the GPU
-- kernel did not compile.
-- ==
-- input { [29547i16, -2i16, 100i16, 300i16] }
-- output { [-2i16] [-2i16, 100i16] }
entry main (xs: []i16) : ([]i16, []i16) =
  (filter (\a -> i16.i8 (i8.i16 a) + a < a) xs,
   filter (\a -> a == i16.i8 (i8.i16 a)) xs)
