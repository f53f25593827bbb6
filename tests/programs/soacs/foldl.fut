-- foldl and foldr from the prelude, with a non-associative operator.
-- ==
-- input { [1, 2, 3] } output { -6 2 }
def main (xs: []i32) = (foldl (-) 0 xs, foldr (-) 0 xs)
