-- runestone-options: or-conditionals
-- A program naming a numeric module (`i32.i16`) goes through the module
-- calculus; the Or option (TFP'18 §7) must hold there as on the module-free
-- path (the reference once rejected it: "a conditional has type i32 -> i32,
-- which is not of order zero"; fuzz/findings/value_campaigns.md).
-- ==
-- input { true } output { 4i32 }
-- input { false } output { 3i32 }
entry main (b: bool) : i32 =
  let f = if b then (\(x: i32) -> x + 1i32) else (\(x: i32) -> x)
  in f (i32.i16 3i16)
