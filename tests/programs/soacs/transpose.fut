-- transpose.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 4], [2, 5], [3, 6]] }
def main (m: [][]i32) = transpose m
