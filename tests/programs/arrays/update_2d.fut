-- In-place update of a matrix element, with `let ... with` sugar.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[1, 2], [3, 9]] }
def main (m: *[][]i32) = let m[1, 1] = 9 in m
