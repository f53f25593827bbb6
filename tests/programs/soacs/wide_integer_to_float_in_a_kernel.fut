-- 64-bit integers converted to floats inside GPU kernels, at magnitudes
-- where the conversion must round away 30 or more low bits. Found by
-- `runestone fuzz --oracle gpu --seed 200004` on an NVIDIA H100 (program
-- 24131): `u64.f32 (f32.u64 b)` of 715376968574622955 gave 2^64 − 1 there
-- (so its low 32 bits, kept by `u32.u64`, were all ones instead of zeros);
-- lavapipe and the CPU agree on 0. The kernel rounds in integer arithmetic;
-- its shifts of 64-bit values now take 64-bit amounts. On an NVIDIA H200
-- (28 Nov 2026) it still failed the same way: the float -> u64 conversion
-- itself kept ones in the low 32 bits; kernels now convert a float to a
-- 64-bit integer as two 32-bit halves, and it passes there.
-- ==
-- input { [715376968574622955u64, 4110406620726478857u64, 18446744073709551615u64, 16777217u64, 0u64]
--         [-715376968574622955i64, 9223372036854775807i64, -9223372036854775808i64, 36028797018963971i64, 1i64] }
-- auto output

entry main (xs: []u64) (ys: []i64) =
  ( map (\b -> u64.u32 (u32.u64 (u64.f32 (f32.u64 b)))) xs
  , map (\b -> f32.u64 b) xs
  , map (\b -> f64.u64 b) xs
  , map (\b -> f32.i64 b) ys
  , map (\b -> f64.i64 b) ys
  , map (\b -> i64.f64 (f64.i64 b)) ys
  )
