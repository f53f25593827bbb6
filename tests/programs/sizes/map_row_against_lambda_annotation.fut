-- A lambda's parameter annotation must agree with the rows it is applied
-- to: `[2]i32` for rows of size 1 is a compile-time error, as in Futhark
-- (SPEC_NOTES TFP18-19, Extension: TFP18 T-ConstantSizes).
-- ==
-- error: sizes do not match
def main (xss: [3][1]i32) : [3][2]i32 =
  map (\(row: [2]i32) -> row) xss
