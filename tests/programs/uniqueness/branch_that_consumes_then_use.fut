-- The rejected neighbour of branch_that_consumes_is_fresh.fut: `xs` is
-- consumed by the `if` (U-If), whichever branch runs.
-- ==
-- error: Using `xs`, but this was consumed

def main (b: bool) (xs: *[]i32) : i32 =
  let ys = if b then xs with [0] = 10 else xs
  in ys[0] + xs[1]
