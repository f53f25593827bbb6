-- `map (\x -> x) xs` is `xs` itself (the simplifier replaces it: arrays
-- are values), including nested and over several arrays; an in-place update
-- or a `scatter` of the copy leaves the original as it was.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [42, 2, 3] [9, 2, 3] }

entry main (xs: [3]i32) : ([3]i32, [3]i32, [3]i32) =
  let ys = map (\x -> x) xs
  let ys[0] = 42
  let zs = map (\x -> x) xs
  in (xs, ys, scatter zs [0] [9])

-- ==
-- entry: nested
-- input { [[1, 2], [3, 4]] [true, false] }
-- output { [[1, 2], [3, 4]] [[1, 2], [7, 4]] [true, false] }

entry nested [n] [m] (xss: [n][m]i32) (bs: [n]bool) : ([n][m]i32, [n][m]i32, [n]bool) =
  let (yss, cs) = unzip (map2 (\xs b -> (map (\x -> x) xs, b)) xss bs)
  let yss[1, 0] = 7
  in (xss, yss, cs)
