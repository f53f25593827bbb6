-- A local function's type parameter is rigid in its body, as a top-level
-- one: `t` is not a numeric type, so `y + 1` is a type error even though
-- the only use is at `i32` (SPEC_NOTES TFP18-17).
-- ==
-- error: is not (one of the primitive types|a numeric type)
def main (x: i32) =
  let inc 't (y: t) : t = y + 1
  in inc x
