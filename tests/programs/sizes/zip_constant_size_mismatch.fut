-- `zip` of arrays whose sizes are different constants is a compile-time
-- error, as in Futhark, also when a constant size reaches `zip` through a
-- size parameter (`f`'s `[n]` is 3 here) and a `let` (SPEC_NOTES TFP18-19,
-- Extension: TFP18 T-ConstantSizes).
-- ==
-- error: sizes do not match
def f [n] (xs: [n]i32) : [n]i32 = map (\(y: i32) -> y + 1i32) xs
def main (x: i32) : [3](i32, bool) =
  let bs = replicate 4i64 true
  in zip (f [x, x, x]) bs
