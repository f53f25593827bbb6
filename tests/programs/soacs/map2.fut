-- map2 over two arrays.
-- ==
-- input { [1, 2, 3] [10, 20, 30] } output { [11, 22, 33] }
def main [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys
