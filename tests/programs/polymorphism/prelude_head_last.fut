-- head, last, take, drop from the prelude.
-- ==
-- input { [5, 6, 7, 8] } output { 5 8 [5, 6] [7, 8] }
def main (xs: []i32) = (head xs, last xs, take 2 xs, drop 2 xs)
