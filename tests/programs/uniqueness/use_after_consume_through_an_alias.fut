-- Consuming an alias consumes what it aliases: `ys` shares `xs`'s storage,
-- so updating `ys` consumes `xs` too (U-Let, U-Consume).
-- ==
-- error: Using `xs`, but this was consumed

def main (xs: *[]i32) : i32 =
  let ys = xs
  let zs = ys with [0] = 1
  in xs[1] + zs[0]
