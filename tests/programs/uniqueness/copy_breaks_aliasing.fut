-- `copy` makes fresh storage (U-Copy): updating the copy consumes nothing
-- else, so the original may still be read, and a non-unique parameter may
-- be copied and updated.
-- ==
-- input { [1, 2, 3] } output { 1 10 }

def main (xs: []i32) : (i32, i32) =
  let ys = copy xs
  let zs = ys with [0] = 10
  in (xs[0], zs[0])
