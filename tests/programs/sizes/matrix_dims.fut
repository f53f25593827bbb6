-- Two size parameters bound from one matrix.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[1, 3, 5], [2, 4, 6]] }
def tr [n][m] (a: [n][m]i32) : [m][n]i32 = transpose a
def main (a: [][]i32) = tr a
