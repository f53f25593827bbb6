-- A loop parameter declared unique consumes its initial value even where
-- the body does not update it: the array may not be used after the loop.
-- ==
-- error: Using `xs`, but this was consumed

def main (xs: *[]i32) : i32 =
  let ys = loop (acc: *[]i32) = xs for i < 2 do acc
  in xs[0] + ys[0]
