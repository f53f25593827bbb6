-- Hexadecimal float literals (the Futhark language reference's
-- `hexadecimalfloat`): hexadecimal digits on both sides of the point, a
-- binary exponent after `p` or `P` (a power of two, written in decimal,
-- signed or not), `_` separators and an optional float suffix. The value
-- is the exact one rounded once, to nearest with ties to even, to the
-- literal's type; the `bits` entry checks the bits.
-- ==
-- entry: values
-- input {}
-- output { 12.0f64 0.25f32 21.375f64 16416.0f64 1.0f64 -0.75f64 1.5f32 }
-- ==
-- entry: bits
-- input {}
-- output { 9218868437227405311u64 1u64 2139095039u32 1u32
--          4607182418800017410u64 1065353217u32 1065353216u32 0u64 1u64 }
-- ==
-- entry: in_a_pattern
-- input { 3.0f64 } output { 1 }
-- input { 3.5f64 } output { 0 }
-- ==
-- entry: a_hexadecimal_range
-- input {} output { [0i64, 1i64, 2i64] }

entry values =
  ( 0x1.8p3
  , 0x1.0p-2f32
  , 0xA.Bp+1f64
  , 0x1_0.0_8p1_0
  , 0X0.1P4
  , -0x0.Cp0
  , (0x3.0p-1 : f32) )

-- The greatest finite number and the least subnormal of each type; a tie
-- between two doubles (to the even one); an `f32` rounded from the exact
-- value (1 + 2^-24 + 2^-60, above the tie 1 + 2^-24) and not from its
-- nearest double (the tie itself, which would round to 1); a tie at f32;
-- half and three quarters of the least subnormal.
entry bits =
  ( f64.to_bits 0x1.fffffffffffffp1023
  , f64.to_bits 0x0.0000000000001p-1022
  , f32.to_bits 0x1.fffffep127f32
  , f32.to_bits 0x1.0p-149f32
  , f64.to_bits 0x1.00000000000018p0
  , f32.to_bits 0x1.000001000000001p0f32
  , f32.to_bits 0x1.000001p0f32
  , f64.to_bits 0x1.0p-1075
  , f64.to_bits 0x1.8p-1075 )

entry in_a_pattern (x: f64) : i32 =
  match x
  case 0x1.8p1 -> 1
  case _ -> 0

-- `0x0..<3` is a range from a hexadecimal integer, not a float.
entry a_hexadecimal_range : []i64 = 0x0..<0x3
