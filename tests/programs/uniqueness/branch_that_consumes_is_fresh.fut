-- The result of an `if` does not alias what one of its branches consumed
-- (U-If): `ys` is fresh storage in the first branch and `xs`, now consumed,
-- in the second, so `ys` may be used and consumed again; `xs` may not.
-- ==
-- input { true [1, 2, 3] } output { 10 [10, 2, 7] }
-- input { false [1, 2, 3] } output { 1 [1, 2, 7] }

def main (b: bool) (xs: *[]i32) : (i32, []i32) =
  let ys = if b then xs with [0] = 10 else xs
  let first = ys[0]
  in (first, ys with [2] = 7)
