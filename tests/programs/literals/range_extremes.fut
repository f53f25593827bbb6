-- The extreme literals of every numeric type are accepted: the largest of
-- each, the smallest signed ones written as negated literals, the largest
-- finite `f32`, and an `f32` literal so small that it rounds to zero
-- (SPEC_NOTES TFP18-32).
-- ==
-- input { 0i32 }
-- output { -128i8 127i8 -32768i16 32767i16 -2147483648i32 2147483647i32
--          -9223372036854775808i64 9223372036854775807i64
--          255u8 65535u16 4294967295u32 18446744073709551615u64
--          true 0.0f32 }

def main (z: i32) =
  let small : i32 = -2147483648
  let big : u64 = 18446744073709551615
  in ( -128i8, 127i8, -32768i16, 32767i16, small + z, 2147483647 + z
     , -9223372036854775808i64, 9223372036854775807i64
     , 255u8, 65535u16, 4294967295u32, big
     , 3.4028235e38f32 > 3.4e38f32, 1e-50f32 )
