-- Kernels that index arrays of rank 2 of the enclosing scope (row-major,
-- each index checked against its dimension) and run an inner reduction
-- sequentially: a reduction in a map lambda over an `iota` of the lambda
-- becomes a loop folding from the neutral element, left to right. Row
-- sums, the diagonal, a matrix-vector product, and an inner reduction
-- that reads past a row's end (the host reports the error).
-- ==
-- entry: row_sums
-- input { [[1i32, 2i32, 3i32], [4i32, 5i32, 6i32]] } output { [6i32, 15i32] }
-- ==
-- entry: diagonal
-- input { [[1f32, 2f32], [3f32, 4f32]] } output { [1f32, 4f32] }
-- ==
-- entry: matrix_vector
-- input { [[1f64, 2f64], [3f64, 4f64], [5f64, 6f64]] [10f64, 1f64] }
-- output { [12f64, 34f64, 56f64] }
-- ==
-- entry: past_the_row
-- input { [[1i32, 2i32], [3i32, 4i32]] } error: out of bounds

entry row_sums [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\i -> reduce (+) 0 (map (\j -> xss[i, j]) (iota m))) (iota n)

entry diagonal [n] (xss: [n][n]f32) : [n]f32 =
  map (\i -> xss[i, i]) (iota n)

entry matrix_vector [n][m] (xss: [n][m]f64) (v: [m]f64) : [n]f64 =
  map (\i -> reduce (+) 0 (map (\j -> xss[i, j] * v[j]) (iota m))) (iota n)

entry past_the_row [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\i -> reduce (+) 0 (map (\j -> xss[i, j + 1]) (iota m))) (iota n)
