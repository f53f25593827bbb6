-- The bit functions of the `integral` module type (Futhark's prelude):
-- `popc`, `clz`, `ctz` count bits (an all-zero argument has `num_bits`
-- leading and trailing zeros), `get_bit`/`set_bit` read and write one bit,
-- `mul_hi` is the high half of the double-width product (signed for signed
-- types) and `mad_hi a b c = mul_hi a b + c`.
-- ==
-- entry: scalars
-- input { 12i32 -1i8 255u8 6i64 }
-- output { 2 1 28 2 8 0 8 32 63 15 13 4 128u8 1099511627782i64 1 1 }
-- ==
-- entry: products
-- input { 255u8 -1i8 }
-- output { 254u8 0i8 -64i8 2 1u64 -1i64 4294967295u32 7i16 }
-- ==
-- entry: in_a_map
-- input { [0u32, 1u32, 12u32, 4294967295u32, 2147483648u32] }
-- output { [0, 1, 2, 32, 1] [32, 31, 28, 0, 0] [32, 0, 2, 0, 31] [0, 1, 0, 1, 0] }
-- ==
-- entry: every_width_in_a_map
-- input { [0i64, -1i64, 4294967296i64, 12i64] [0u8, 255u8, 16u8] [0i16, -32768i16, 6i16] }
-- output { [0, 64, 1, 2] [64, 0, 31, 60] [64, 0, 32, 2]
--          [0, 8, 1] [8, 0, 3] [8, 0, 4]
--          [0, 1, 2] [16, 0, 13] [16, 15, 1] }
-- ==
-- entry: mul_hi_in_a_map
-- input { [4294967295u32, 65536u32, 3u32] [-1, 1073741824, -2147483648] [255u8, 16u8, 200u8] }
-- output { [4294967294u32, 1u32, 0u32] [0, 268435456, 1073741824] [254u8, 1u8, 156u8] }

entry scalars (x: i32) (y: i8) (z: u8) (w: i64) =
  ( i32.popc x
  , i32.get_bit 2 x
  , i32.clz x
  , i32.ctz x
  , i8.popc y
  , i8.clz y
  , u8.ctz 0u8
  , i32.clz 0
  , u64.clz 1u64
  , i16.ctz (-32768i16)
  , i32.set_bit 0 x 1
  , i32.set_bit 3 x 0
  , u8.set_bit 7 0u8 1
  , i64.set_bit 40 w 1
  , i64.get_bit 63 (-1i64)
  , u8.get_bit 7 z )

entry products (z: u8) (y: i8) =
  ( u8.mul_hi z z
  , i8.mul_hi y y
  , i8.mul_hi (-128i8) 127i8
  , i32.mul_hi 1073741824 8
  , u64.mul_hi 18446744073709551615u64 2u64
  , i64.mul_hi (-1i64) 1i64
  , u32.mad_hi 4294967295u32 4294967295u32 1u32
  , i16.mad_hi 256i16 256i16 6i16 )

entry in_a_map (xs: []u32) =
  ( map u32.popc xs
  , map u32.clz xs
  , map u32.ctz xs
  , map (u32.get_bit 0) xs )

entry mul_hi_in_a_map (xs: []u32) (ys: []i32) (zs: []u8) =
  ( map (\x -> u32.mul_hi x x) xs
  , map (\y -> i32.mul_hi y y) ys
  , map (\z -> u8.mul_hi z z) zs )

entry every_width_in_a_map (xs: []i64) (ys: []u8) (zs: []i16) =
  ( map i64.popc xs, map i64.clz xs, map i64.ctz xs
  , map u8.popc ys, map u8.clz ys, map u8.ctz ys
  , map i16.popc zs, map i16.clz zs, map i16.ctz zs )
