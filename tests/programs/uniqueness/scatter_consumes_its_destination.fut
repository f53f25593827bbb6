-- `scatter` consumes its destination (U-SOAC): it may not be used after.
-- ==
-- error: Using `dest`, but this was consumed

def main [n] (dest: *[]i32) (is: [n]i64) (vs: [n]i32) : i32 =
  let r = scatter dest is vs
  in r[0] + dest[0]
