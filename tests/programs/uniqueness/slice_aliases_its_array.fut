-- A slice shares its array's storage (U-Index): updating it consumes the
-- array.
-- ==
-- error: Using `xs`, but this was consumed

def main (xs: *[]i32) : i32 =
  let ys = xs[1:]
  let zs = ys with [0] = 5
  in xs[0] + zs[0]
