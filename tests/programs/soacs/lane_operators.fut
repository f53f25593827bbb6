-- Reductions and scans whose operator is a tuple operator with branches,
-- over enough elements (at least 4 096) that the CPU backend runs them
-- lane-parallel (optimized/src/cpu/soac/lanes.rs): blocks of 1 024 lanes,
-- chunk tails shorter than a block, and several chunks. The element counts
-- are chosen so that some chunk has a partial block.

-- A segmented sum (a segment starts at every seventh element).
-- ==
-- entry: segmented_sum
-- input { 10000i64 } output { -15i32 -9i32 3i32 }
-- input { 100003i64 } output { -56i32 0i32 -3i32 }

-- The position of the largest value, the first one on ties.
-- ==
-- entry: arg_max
-- input { 10000i64 } output { 10006i64 1040i64 }
-- input { 100003i64 } output { 10006i64 1040i64 }

-- A scan of a map (fused into one `scanomap`), the operator a pair with
-- branches: the running maximum and how many elements so far equal it.
-- ==
-- entry: running_maximum
-- input { 10000i64 } output { 10006i64 1i64 }
-- input { 100003i64 } output { 10006i64 10i64 }

-- The operator fails on one element: the error is the reference's.
-- ==
-- entry: failing_operator
-- input { 9000i64 8123i64 } error: division by zero
-- input { 9000i64 9000i64 } output { 9000i32 }

def segmented_scan [n] (flags: [n]bool) (xs: [n]i32) : [n]i32 =
  let op (f1: bool, x1: i32) (f2: bool, x2: i32) : (bool, i32) =
    (f1 || f2, if f2 then x2 else x1 + x2)
  let (_, sums) = unzip (scan op (false, 0) (zip flags xs))
  in sums

entry segmented_sum (n: i64) : (i32, i32, i32) =
  let flags = map (\i -> i % 7 == 0) (iota n)
  let xs = map (\i -> i32.i64 (i % 13) - 6) (iota n)
  let sums = segmented_scan flags xs
  in (i32.sum sums, sums[n - 1], sums[n / 2])

entry arg_max (n: i64) : (i64, i64) =
  let values = map (\i -> (i * 7919) % 10007) (iota n)
  let better (a: i64, i: i64) (b: i64, j: i64) : (i64, i64) =
    if a > b || (a == b && i < j) then (a, i) else (b, j)
  in reduce better (-1, -1) (zip values (iota n))

entry running_maximum (n: i64) : (i64, i64) =
  let step (m1: i64, c1: i64) (m2: i64, c2: i64) : (i64, i64) =
    if m1 > m2 then (m1, c1) else if m2 > m1 then (m2, c2) else (m1, c1 + c2)
  let maxima = scan step (-1, 0) (map (\i -> ((i * 7919) % 10007, 1)) (iota n))
  let (m, c) = maxima[n - 1]
  in (m, c)

entry failing_operator (n: i64) (zero_at: i64) : i32 =
  let xs = map (\i -> if i == zero_at then 0 else 1) (iota n)
  let op (a: i32, x: i32) (b: i32, y: i32) : (i32, i32) =
    if y == 0 then (a / y, x) else (a + b, x + y)
  let (sums, _) = unzip (scan op (0, 0) (zip xs xs))
  in sums[n - 1]
