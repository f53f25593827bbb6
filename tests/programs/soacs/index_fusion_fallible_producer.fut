-- Maps whose elements can fail only independently of the element (`c % n`,
-- `c / d`, `c ** e` with `n`, `d`, `e` free in the lambda), read only
-- element by element: the optimising compiler recomputes the element at
-- each read and leaves a guard at the producer's place that runs the
-- element once when the producer is not empty
-- (optimized/src/passes/index_fusion.rs). Every error must be the
-- unfused program's: the producer's remainder (its location) when `n = 0`
-- and the producer is not empty, read or not; no error when it is empty,
-- unless a read then fails out of bounds; the first failing statement of
-- the element when several can fail; the producer's error before a later
-- statement's.
-- ==
-- entry: gathered
-- input { [5i64, -7i64, 12i64] [2i64, 0i64, 1i64] 4i64 }
-- output { [1i64, 2i64, 2i64] }
-- input { [5i64, -7i64, 12i64] [2i64, 0i64, 1i64] -4i64 }
-- output { [1i64, -2i64, -2i64] }
-- input { [5i64, -7i64, 12i64] [2i64] 0i64 }
-- error: index_fusion_fallible_producer.fut:70:23: division by zero
-- input { [5i64] empty([0]i64) 0i64 }
-- error: index_fusion_fallible_producer.fut:70:23: division by zero
-- input { empty([0]i64) empty([0]i64) 0i64 }
-- output { empty([0]i64) }
-- input { empty([0]i64) [0i64] 0i64 }
-- error: index_fusion_fallible_producer.fut:71:17: Index \[0\] out of bounds
-- input { [5i64, -7i64] [2i64] 3i64 }
-- error: index_fusion_fallible_producer.fut:71:17: Index \[2\] out of bounds

-- ==
-- entry: first_failure
-- input { [7i64, -9i64] 2i64 3i64 }
-- output { [1i64, 0i64] }
-- input { [7i64, -9i64] 0i64 0i64 }
-- error: index_fusion_fallible_producer.fut:75:24: division by zero
-- input { [7i64, -9i64] 2i64 0i64 }
-- error: index_fusion_fallible_producer.fut:75:23: division by zero
-- input { empty([0]i64) 0i64 0i64 }
-- output { empty([0]i64) }

-- ==
-- entry: producer_before_later_statement
-- input { [7i64, -9i64] 4i64 5i64 }
-- output { [23i64, 24i64] }
-- input { [7i64, -9i64] 0i64 0i64 }
-- error: index_fusion_fallible_producer.fut:79:23: division by zero
-- input { [7i64, -9i64] 4i64 0i64 }
-- error: index_fusion_fallible_producer.fut:80:11: division by zero
-- input { empty([0]i64) 0i64 0i64 }
-- error: index_fusion_fallible_producer.fut:80:11: division by zero

-- ==
-- entry: nested
-- input { [[1i64, -2i64, 3i64], [4i64, 5i64, -6i64]] 3i64 }
-- output { [[2i64, 4i64, 0i64], [2i64, 2i64, 0i64]] }
-- input { [[1i64, -2i64, 3i64], [4i64, 5i64, -6i64]] 0i64 }
-- error: index_fusion_fallible_producer.fut:84:29: division by zero
-- input { [empty([0]i64), empty([0]i64)] 0i64 }
-- output { [empty([0]i64), empty([0]i64)] }

-- ==
-- entry: power
-- input { [2i64, -3i64] 3i64 }
-- output { [-27i64, 8i64] }
-- input { [2i64, -3i64] -1i64 }
-- error: index_fusion_fallible_producer.fut:88:23: negative exponent
-- input { empty([0]i64) -1i64 }
-- output { empty([0]i64) }

entry gathered [m] (xs: [m]i64) (is: []i64) (n: i64) : []i64 =
  let ys = map (\c -> c % n) xs
  in map (\i -> ys[i] + 1) is

-- `/` first, then `%`: with both divisors zero, the division fails.
entry first_failure [m] (xs: [m]i64) (d: i64) (n: i64) : [m]i64 =
  let ys = map (\c -> (c / d) % n) xs
  in map (\i -> ys[m - 1 - i]) (iota m)

entry producer_before_later_statement [m] (xs: [m]i64) (n: i64) (k: i64) : [m]i64 =
  let ys = map (\c -> c % n) xs
  let q = 100 / k
  in map (\i -> ys[i] + q + i) (iota m)

entry nested [r][c] (xss: [r][c]i64) (n: i64) : [r][c]i64 =
  let yss = map (map (\x -> x % n)) xss
  in map (\i -> map (\j -> yss[r - 1 - i, j] * 2) (iota c)) (iota r)

entry power [m] (xs: [m]i64) (e: i64) : [m]i64 =
  let ys = map (\c -> c ** e) xs
  in map (\i -> ys[m - 1 - i]) (iota m)
