-- zip requires arrays of the same size.
-- ==
-- input { [1, 2] [3] } error: do not match
def main (xs: []i32) (ys: []i32) = map2 (*) xs ys
