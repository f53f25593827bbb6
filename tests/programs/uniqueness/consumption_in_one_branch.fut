-- What either branch of an `if` consumes is consumed after it (U-If).
-- ==
-- error: Using `xs`, but this was consumed

def main (b: bool) (xs: *[]i32) : i32 =
  let ys = if b then xs with [0] = 1 else copy xs
  in xs[0] + ys[0]
