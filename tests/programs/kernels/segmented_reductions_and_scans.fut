-- Maps whose function reduces or scans each row, as segmented kernels: a
-- sum and a non-commutative operator (the last non-zero element) per row,
-- a pair reduction, per-row scans, a reduction of values computed from the
-- row's index and a scalar of the row (by index: the form a `segred` over
-- two dimensions takes on the CPU backend), a prefix that may fail (an
-- index out of bounds in some row), and rows of length zero (handed back
-- to the host, which evaluates each row's prefix). The GPU backend once
-- left every map with an array in its function on the host;
-- tests/cli_gpu.rs counts these as kernels.
-- ==
-- entry: row_sums
-- input { [[1, 2, 3], [4, 5, 6]] }
-- output { [6, 15] }
-- input { empty([2][0]i32) }
-- output { [0, 0] }
-- input { empty([0][3]i32) }
-- output { empty([0]i32) }

-- ==
-- entry: last_non_zero_per_row
-- input { [[3, 0, 5, 0], [0, 0, 0, 0], [7, 8, 0, 9]] }
-- output { [5, 0, 9] }

-- ==
-- entry: row_extrema
-- input { [[1.5f32, -2f32, 4f32], [0f32, 3f32, 2.5f32]] }
-- output { [-2f32, 0f32] [4f32, 3f32] }

-- ==
-- entry: row_prefix_sums
-- input { [[1i64, 2i64, 3i64], [10i64, 20i64, 30i64]] }
-- output { [[1i64, 3i64, 6i64], [10i64, 30i64, 60i64]] }

-- ==
-- entry: weighted_by_position
-- input { [2i64, -1i64, 3i64] 4i64 }
-- output { [12i64, -6i64, 18i64] }
-- input { [5i64] 0i64 }
-- output { [0i64] }

-- ==
-- entry: prefix_that_may_fail
-- input { [[1, 2], [3, 4]] [0i64, 1i64] }
-- output { [5, 15] }
-- input { [[1, 2], [3, 4]] [0i64, 2i64] }
-- error: out of bounds

entry row_sums [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\xs -> reduce (+) 0 xs) xss

-- `\a b -> if b != 0 then b else a`: associative, not commutative.
entry last_non_zero_per_row [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\xs -> reduce (\a b -> if b != 0 then b else a) 0 xs) xss

entry row_extrema [n][m] (xss: [n][m]f32) : ([n]f32, [n]f32) =
  unzip (map (\xs -> reduce (\(l1, h1) (l2, h2) -> (f32.min l1 l2, f32.max h1 h2))
                            (f32.inf, -f32.inf)
                            (map (\x -> (x, x)) xs))
             xss)

entry row_prefix_sums [n][m] (xss: [n][m]i64) : [n][m]i64 =
  map (\xs -> scan (+) 0 xs) xss

-- Row `r`'s result is `sum (map (\i -> r * i) (iota m))`, with `r` a
-- scalar of the row.
entry weighted_by_position [n] (rs: [n]i64) (m: i64) : [n]i64 =
  map (\r -> reduce (+) 0 (map (\i -> r * i) (iota m))) rs

-- Each row adds `xs[k]` to its elements; `k` may be out of bounds.
entry prefix_that_may_fail [n][m] (xss: [n][m]i32) (ks: [n]i64) : [n]i32 =
  map2 (\xs k -> let first = xs[k] in reduce (+) 0 (map (+ first) xs)) xss ks
