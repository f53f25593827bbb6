-- Nested maps over a matrix.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[2, 4], [6, 8]] }
def main (m: [][]i32) = map (map (* 2)) m
