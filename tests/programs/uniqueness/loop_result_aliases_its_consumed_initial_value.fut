-- Both loop parameters start as the same unique array. The body updates
-- `a` in place, so the loop consumes `xs`; `b`, which the body passes on
-- unchanged, still aliases it, and reading `b` after the loop uses a
-- consumed array (use-after-consume). The reference reaches `b` through
-- the temporary of the pattern `let`, which its diagnostic once named
-- (`Using `let'101``) instead of the consumed array.
-- ==
-- error: but this was consumed

def main (xs: *[]i32) : []i32 =
  let (_, b) = loop (a, b) = (xs, xs) for _i < 1 do (a with [0] = 100, b)
  in b
