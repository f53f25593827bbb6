-- Passing an array for a unique parameter consumes it (U-Apply).
-- ==
-- error: Using `xs`, but this was consumed

def set_first (a: *[]i32) (v: i32) : *[]i32 =
  a with [0] = v

def main (xs: *[]i32) : i32 =
  let ys = set_first xs 5
  in ys[0] + xs[0]
