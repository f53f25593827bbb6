-- zip and unzip are inverse.
-- ==
-- input { [1, 2, 3] [true, false, true] } output { [1, 2, 3] [true, false, true] }
def main (xs: []i32) (ys: []bool) = unzip (zip xs ys)
