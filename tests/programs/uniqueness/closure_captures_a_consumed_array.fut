-- A closure aliases the arrays it captures (U-Lambda): once `xs` is
-- consumed, the closure may not be used.
-- ==
-- error: Using `f`, but this was consumed

def main (xs: *[]i32) : i32 =
  let f = \i -> xs[i]
  let ys = xs with [0] = 1
  in f 0 + ys[0]
