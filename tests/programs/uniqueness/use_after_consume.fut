-- An array consumed by an in-place update may not be used afterwards
-- (proofs-notes/uniqueness.md, U-Var; code use-after-consume).
-- ==
-- error: Using `xs`, but this was consumed

def main (xs: *[]i32) : i32 =
  let ys = xs with [0] = 1
  in xs[0] + ys[0]
