-- Entry points a Python user drives through `runestone serve` and the
-- `futhark-server` client (tests/python/server_clients.py): transparent
-- values of several ranks and primitive types in and out, a tuple returned
-- as two outputs, and a run-time error answered as `%%% FAILURE`.
-- ==
-- entry: mean_and_spread
-- input { [1.0f64, 2.0f64, 3.0f64, 6.0f64] } output { 3.0f64 3.5f64 }
-- input { [4.5f64] } output { 4.5f64 0.0f64 }

-- ==
-- entry: histogram
-- input { 4i64 [0, 1, 1, 3, 3, 3, 7, -1] } output { [1, 2, 0, 3] }
-- input { 0i64 [2, 2] } output { empty([0]i32) }

-- ==
-- entry: centre_rows
-- input { [[1f32, 2f32, 3f32], [10f32, 10f32, 40f32]] }
-- output { [[-1f32, 0f32, 1f32], [-10f32, -10f32, 20f32]] }

-- ==
-- entry: count_true
-- input { [true, false, true, true] } output { 3i64 }
-- input { empty([0]bool) } output { 0i64 }

-- ==
-- entry: pick
-- input { [10u8, 20u8, 30u8] 2i64 } output { 30u8 }
-- input { [10u8, 20u8, 30u8] 3i64 } error: Index \[3\] out of bounds

entry mean_and_spread (xs: []f64) : (f64, f64) =
  let n = f64.i64 (length xs)
  let mean = reduce (+) 0 xs / n
  let variance = reduce (+) 0 (map (\x -> (x - mean) * (x - mean)) xs) / n
  in (mean, variance)

entry histogram (buckets: i64) (xs: []i32) : []i32 =
  reduce_by_index (replicate buckets 0) (+) 0 (map i64.i32 xs) (map (const 1) xs)

entry centre_rows (rows: [][]f32) : [][]f32 =
  map (\row -> let mean = f32.sum row / f32.i64 (length row)
               in map (\x -> x - mean) row)
      rows

entry count_true (bs: []bool) : i64 = i64.sum (map i64.bool bs)

entry pick (xs: []u8) (i: i64) : u8 = xs[i]
