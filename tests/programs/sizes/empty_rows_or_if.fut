-- runestone-options: or-conditionals
-- A `map` over an empty array with a function chosen by an `if` (the Or
-- option of TFP'18 §7): the rows are `[4]f32` whichever branch is taken, so
-- the result is `empty([0][4]f32)` (SPEC_NOTES TFP18-6; found by the value
-- oracle, fuzz/findings/value_campaigns.md).
-- ==
-- input { true } output { empty([0][4]f32) }
-- input { false } output { empty([0][4]f32) }
entry main (b: bool) : [][4]f32 =
  map (if b then \(p: u8) -> replicate 4i64 2.0f32
       else \(p: u8) : [4]f32 -> replicate 4i64 3.0f32) (replicate 0i64 3u8)
