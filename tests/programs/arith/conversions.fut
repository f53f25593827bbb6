-- Conversions between primitive types.
-- ==
-- input { 300 } output { 44u8 300i64 300.0f32 -1i8 }
def main (x: i32) = (u8.i32 x, i64.i32 x, f32.i32 x, i8.i32 (x - 301))
