-- reverse and rotate.
-- ==
-- input { [1, 2, 3, 4] } output { [4, 3, 2, 1] [2, 3, 4, 1] [4, 1, 2, 3] }
def main (xs: []i32) = (reverse xs, rotate 1 xs, rotate (-1) xs)
