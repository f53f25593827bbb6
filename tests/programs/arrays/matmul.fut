-- Matrix multiplication.
-- ==
-- input { [[1, 2], [3, 4]] [[5, 6], [7, 8]] } output { [[19, 22], [43, 50]] }
def matmul [n][m][p] (a: [n][m]i32) (b: [m][p]i32) : [n][p]i32 =
  map (\row -> map (\col -> reduce (+) 0 (map2 (*) row col)) (transpose b)) a
def main [n][m][p] (a: [n][m]i32) (b: [m][p]i32) = matmul a b
