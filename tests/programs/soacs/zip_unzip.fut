-- zip and unzip are inverse.
-- ==
-- input { [1, 2, 3] [true, false, true] } output { [1, 2, 3] [true, false, true] }
def main [n] (xs: [n]i32) (ys: [n]bool) = unzip (zip xs ys)
