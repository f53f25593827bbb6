-- A signed integer widened to 64 bits and compared with a constant in a
-- kernel (gpu oracle, seed 2026, programs 863, 913, 1173 and 1417):
-- lavapipe compared `int64_t(x)` with a constant as if the conversion had
-- zero-extended, so `i64.i32 x < 0` was false for x = -4 and
-- `i64.i32 x // 3` of a negative x came out near 2^64 / 3. Each widening
-- from a narrower signed type, compared and divided by a constant.
-- ==
-- input { [5i32, 7i32, -4i32] [-1i8, 3i8, -128i8] [-300i16, 2i16, 0i16] }
-- output { [false, false, true] [1i64, 2i64, -1i64] [true, false, true] [-100i64, 0i64, 0i64] [2i64, 1i64, -4i64] }

entry main [n] (xs: [n]i32) (bs: [n]i8) (hs: [n]i16) : ([n]bool, [n]i64, [n]bool, [n]i64, [n]i64) =
  ( map (\x -> i64.i32 x < 0) xs
  , map (\x -> i64.i32 x // 3) xs
  , map (\b -> i64.i8 b < -1 || i64.i8 b == -1) bs
  , map (\h -> i64.i16 h // 3) hs
  , map (\x -> i64.i32 x % n + (if i64.i32 x < -1 then -6 else 0)) xs )
