-- F-Distribute: maps whose body goes on after its first SOAC. `centre`
-- subtracts each row's mean (a reduction, a division, then a map over the
-- row): a segmented reduction and a segmented map over two dimensions.
-- `doubled_sums` ends in scalars after the reduction: a segmented reduction
-- and a map of the sums. In `scaled_by_first` the part up to the first
-- SOAC (`row[0]`, out of bounds on an empty row, then the sum) and the
-- rest (a division by the sum) may both fail: the nest is not distributed,
-- so the first error, row by row, stays the nest's.
-- ==
-- entry: centre
-- input { [[1f32, 2f32, 3f32], [4f32, 4f32, 7f32]] }
-- output { [[-1f32, 0f32, 1f32], [-1f32, -1f32, 2f32]] }
-- input { empty([0][2]f32) }
-- output { empty([0][2]f32) }

-- ==
-- entry: doubled_sums
-- input { [[1, 2], [3, 4], [5, 6]] }
-- output { [6, 14, 22] }

-- ==
-- entry: scaled_by_first
-- input { [[2, 4], [3, 9]] }
-- output { [[0, 1], [0, 2]] }
-- input { [[1, -1], [0, 0]] }
-- error: division by zero
-- input { empty([2][0]i32) }
-- error: out of bounds

entry centre [n][m] (rows: [n][m]f32) : [n][m]f32 =
  map (\row -> let mean = f32.sum row / f32.i64 m
               in map (\x -> x - mean) row)
      rows

entry doubled_sums [n][m] (rows: [n][m]i32) : [n]i32 =
  map (\row -> let s = i32.sum row in s * 2) rows

entry scaled_by_first [n][m] (rows: [n][m]i32) : [n][m]i32 =
  map (\row -> let first = row[0]
               let s = i32.sum row
               in map (\x -> x * first / s) row)
      rows
