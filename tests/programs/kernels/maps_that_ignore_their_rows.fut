-- A map whose lambda ignores the rows it is given, and one that ignores a
-- row but reads a scalar beside it, run as kernels: an ignored row is not
-- a column of the kernel (the driver only checks that its outer size is
-- the map's width). Generated programs bind such rows often (a lambda's
-- parameter `_`), and so does the segmented IR's expansion; the lambda
-- once stayed on the host ("an array value in a lambda").
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] [10, 20, 30] }
-- output { [7i64, 7i64, 7i64] [11, 22, 33] }
-- input { empty([0][2]i32) empty([0]i32) }
-- output { empty([0]i64) empty([0]i32) }
-- input { [[1], [2]] [100, -100] }
-- output { [7i64, 7i64] [110, -110] }

entry main [n][m] (rows: [n][m]i32) (xs: [n]i32) : ([n]i64, [n]i32) =
  let constants = map (\(_: [m]i32) -> 7i64) rows
  let mixed = map2 (\(_: [m]i32) (x: i32) -> x + x / 10) rows xs
  in (constants, mixed)

-- A map that reads none of its arrays: a kernel without columns, over the
-- map's width.
-- ==
-- entry: constants
-- input { [[1, 2], [3, 4], [5, 6]] }
-- output { [7i64, 7i64, 7i64] }
-- input { empty([0][3]i32) }
-- output { empty([0]i64) }

entry constants [n][m] (rows: [n][m]i32) : [n]i64 =
  map (\(_: [m]i32) -> 7i64) rows
