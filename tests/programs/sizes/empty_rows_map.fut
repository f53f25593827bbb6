-- A `map` over an empty array gives rows of the shape its function
-- returns: `[0][4]f32` here, as the result type says (SPEC_NOTES TFP18-6).
-- ==
-- input { empty([0]u8) } output { empty([0][4]f32) }
-- input { [1u8, 2u8] } output { [[1.0f32, 1.0f32, 1.0f32, 1.0f32], [2.0f32, 2.0f32, 2.0f32, 2.0f32]] }
def main (xs: []u8) : [][4]f32 =
  map (\(p: u8) -> replicate 4i64 (f32.u8 p)) xs
