-- Signed 64-bit division and remainder by negative constants inside GPU
-- kernels. Found on an NVIDIA H200 (2026-11-28) by the `gpu` crate's test
-- `map_i64_with_wrapping_power_and_division`: an i64 `x % -7` gave -5 where
-- the CPU gives -4 (the driver's signed 64-bit division by a negative
-- constant was off). Lavapipe agrees with the CPU, so CI never saw it; the
-- kernels now divide the operands' magnitudes as unsigned integers and fix
-- the sign. Futhark's `/` and `%` round towards negative infinity, `//` and
-- `%%` towards zero; the inputs cover both signs, zero, exact multiples and
-- the extremes (`i64.lowest / -1` wraps).
-- ==
-- input { [-9223372036854775808i64, -9223372036854775807i64, -30i64, -21i64,
--          -8i64, -7i64, -6i64, -1i64, 0i64, 1i64, 3i64, 6i64, 7i64, 8i64,
--          22i64, 715376968574622955i64, 9223372036854775807i64] }
-- auto output

entry main (xs: []i64) =
  ( map (\x -> x % -7i64) xs
  , map (\x -> x / -7i64) xs
  , map (\x -> x %% -7i64) xs
  , map (\x -> x // -7i64) xs
  , map (\x -> x / -1i64) xs
  , map (\x -> x % 7i64) xs
  , map (\x -> x / 7i64) xs
  , map (\x -> (x / -3i64, x % -3i64)) xs
  )
