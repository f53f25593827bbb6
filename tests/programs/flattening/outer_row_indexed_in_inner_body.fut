-- The inner map's body indexes the outer map's row `row` itself, not as an
-- array of an inner SOAC: F-Carry carries the row into the inner level,
-- finds it still used where the nest would finish, and undoes that level,
-- so the nest is a one-dimensional segmap whose body runs the inner map
-- (each of its points would otherwise slice the row again). The indexing
-- can fail: a row shorter than two elements is an error, in order.
-- ==
-- input { [[1, 2], [3, 4]] [10, 20, 30] }
-- output { [[12, 22, 32], [14, 24, 34]] }
-- input { [[1], [2]] [10] }
-- error: out of bounds
-- input { empty([0][5]i32) [1] }
-- output { empty([0][1]i32) }

def main [n][m][p] (rows: [n][m]i32) (ys: [p]i32) : [n][p]i32 =
  map (\row -> map (\y -> y + row[1]) ys) rows
