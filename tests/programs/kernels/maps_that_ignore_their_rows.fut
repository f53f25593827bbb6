-- A map whose lambda ignores the rows it is given, and one that ignores a
-- row but reads a scalar beside it, run as kernels: an ignored row is not
-- a column of the kernel (the simplifier drops the array; its outer size
-- is the map's width by typing). Generated programs bind such rows often
-- (a lambda's parameter `_`); the lambda once stayed on the host ("an
-- array value in a lambda").
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

-- A sum and a prefix sum of a map that ignores its rows: the simplifier
-- leaves the fused `redomap` and `scanomap` without input arrays, which
-- run on the host (only a map's kernel runs without columns).
-- ==
-- entry: counts
-- input { [[1, 2], [3, 4], [5, 6]] }
-- output { 6i64 [2i64, 4i64, 6i64] }
-- input { empty([0][3]i32) }
-- output { 0i64 empty([0]i64) }

entry counts [n][m] (rows: [n][m]i32) : (i64, [n]i64) =
  let total = reduce (+) 0 (map (\(_: [m]i32) -> 2i64) rows)
  let prefixes = scan (+) 0 (map (\(_: [m]i32) -> 2i64) rows)
  in (total, prefixes)

-- A commutative 32-bit sum of a map that reads no row: a `redomap`
-- without columns, which the subgroup kernel (reading its columns as
-- vectors) cannot run; it runs on the host (found by the GPU oracle, seed
-- 100004, program 60862: the subgroup kernel's source did not compile).
-- ==
-- entry: commutative_sum
-- input { [true, false, true] } output { 15i32 }
-- input { empty([0]bool) } output { 0i32 }

entry commutative_sum (flags: []bool) : i32 =
  reduce (+) 0i32 (map (\(_: bool) -> 5i32) flags)
