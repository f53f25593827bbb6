-- The initial value of a loop parameter that the body consumes is consumed
-- by the loop (U-Loop), so it may not be used after the loop.
-- ==
-- error: Using `xs`, but this was consumed

def main (xs: *[]i32) : i32 =
  let ys = loop acc = xs for i < 2 do acc with [i] = 0
  in xs[0] + ys[0]
