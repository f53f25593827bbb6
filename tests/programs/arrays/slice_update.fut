-- In-place updates of slices: `xs with [i:j] = ys` and `let xs[i:j] = ys`,
-- with strides (also negative), a fixed index before or after the slice,
-- rows of a matrix, and arrays of tuples. A slice out of bounds, or a new
-- value without one row per selected index, is a run-time error.
-- ==
-- input { [1, 2, 3, 4, 5, 6] 1i64 3i64 }
-- output { [1, 0, 0, 4, 5, 6] [9, 2, 9, 4, 9, 6] [6, 2, 3, 4, 5, 7] [[1, 2, 3], [7, 8, 3], [4, 5, 6]] [[1, 0, 3], [4, 0, 6], [7, 8, 9]] [1, 2, 30, 40, 5, 6] [true, false, false, true] }
-- input { [1, 2, 3, 4, 5, 6] 4i64 8i64 }
-- error: out of bounds
-- input { [1, 2, 3, 4, 5, 6] 1i64 4i64 }
-- error: Size mismatch

entry main (xs: []i32) (i: i64) (j: i64) =
  let a = copy xs with [i:j] = [0, 0]
  let b = copy xs with [::2] = [9, 9, 9]
  let c = copy xs with [5:0:-5] = [7]
  let c = c with [:1] = [6]
  let m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
  let rows = copy m with [1:3] = [[7, 8, 3], [4, 5, 6]]
  let column = copy m with [0:2, 1] = [0, 0]
  let d = copy xs
  let d[2:4] = [30, 40]
  let pairs = zip [1, 2, 3, 4] [true, true, true, true]
  let pairs = pairs with [1:3] = [(0, false), (0, false)]
  in (a, b, c, rows, column, d, (unzip pairs).1)
