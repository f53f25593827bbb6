-- A `map` of one of the program's functions has rows of the shape its
-- signature states (`[1]i32` here), so `zip` of a row with an array of
-- size 2 is a compile-time error, as in Futhark (SPEC_NOTES TFP18-19,
-- Extension: TFP18 T-ConstantSizes).
-- ==
-- error: sizes do not match
def first (row: [1]i32) : [1]i32 = row

def main (xss: [3][1]i32) (x: i32) =
  zip (map first xss)[1] (replicate 2 x)
