-- A narrowing integer conversion of a scalar the GPU backend bakes into its
-- kernels as a constant: `i16.u16 (u16.i16 s)` of a negative `s` is -9677
-- reached through the unsigned 55859. Found by `runestone fuzz --oracle gpu
-- --seed 100004` (program 73273, its inputs shortened): glslang folded the
-- conversion into a 16-bit constant whose literal was not sign-extended,
-- which the validation layer rejects. The filter keeps nothing (its
-- condition compares an element with itself or with a value on the other
-- side of `s`); `//` truncates (-20000 // 7 is -2857); the shift wraps: -20000 << 3 is -160000, -28928 in i16.
-- ==
-- input { [1i16, -20000i16] [3i16, 4i16] -9677i16 }
-- output { -2857i16 4i16 empty([0]i16) [8i16, -28928i16] }

entry main [n] (xs: [n]i16) (ys: [n]i16) (s: i16) : (i16, i16, []i16, [n]i16) =
  let v0 = reduce (+) (0i16) (map (\(a: i16) -> a // 7i16) xs)
  let v1 = reduce i16.max (i16.lowest) ys
  let v2 = filter (\(a: i16) -> (if s <= a then a else i16.u16 (u16.i16 s)) < i16.f32 (f32.i16 a)) xs
  let v3 = map (\(a: i16) -> a << 3i16) xs
  in (v0, v1, v2, v3)
