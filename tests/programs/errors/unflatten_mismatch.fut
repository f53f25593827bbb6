-- unflatten checks the sizes.
-- ==
-- input { [1, 2, 3] } error: unflatten
def main (xs: []i32) = unflatten 2 2 xs
