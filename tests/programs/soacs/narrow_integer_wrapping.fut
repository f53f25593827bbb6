-- 8- and 16-bit integer arithmetic that wraps inside GPU kernels. Found by
-- `runestone fuzz --oracle gpu --seed 100004` on an NVIDIA H100 (programs
-- 4911, 10961 and 12349, their inputs shortened): the driver kept the result
-- of an 8-bit negation or addition in a 32-bit register without wrapping it,
-- so `i8.neg (-128) / 3` gave 42 instead of -43, and the filters compared
-- unwrapped sums and kept the wrong elements. Lavapipe wraps, so CI never
-- saw it; the kernels now compute narrow arithmetic in 32 bits and wrap it
-- explicitly. Each lambda below wraps once and then divides, compares or
-- shifts the wrapped value.
-- ==
-- input { [-128i8, -127i8, 0i8, 1i8, 63i8, 64i8, 127i8, -1i8, -64i8, -65i8]
--         5i8
--         [-20000i16, 13000i16, 0i16, 12767i16, -12769i16]
--         [0u8, 1u8, 128u8, 255u8, 200u8] }
-- auto output

entry main (xs: []i8) (s: i8) (ys: []i16) (us: []u8) =
  ( map (\a -> i8.neg a / 3i8) xs
  , filter (\a -> a + a > i8.neg a) xs
  , filter (\a -> s > i8.neg a) xs
  , map (\a -> a * 3i8 - 1i8 < a) xs
  , map (\a -> i8.abs a == a) xs
  , map (\a -> (a << 1i8) >> 1i8) xs
  , map (\a -> (a + 20000i16) / 7i16) ys
  , map (\a -> (0u8 - a) / 2u8 + (a * 2u8) / 4u8) us
  , map (\a -> !a / 3i8) xs
  )
