-- The prelude's scans, histograms and scatters (Futhark's `exscan`,
-- `partition2`, `hist`, `spread`, `scatter_2d/3d`,
-- `reduce_by_index_2d/3d`), missing before (issue 26), written from the
-- prelude's documentation. Indices out of bounds (in any dimension) are
-- ignored.
-- ==
-- entry: scans
-- input { [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] }
-- output { [0i32, 1i32, 3i32, 6i32, 10i32, 15i32]
--          [3i32, 6i32] [1i32, 4i32] [2i32, 5i32] }
-- input { empty([0]i32) }
-- output { empty([0]i32) empty([0]i32) empty([0]i32) empty([0]i32) }

-- ==
-- entry: histograms
-- input { [0i64, 1i64, 1i64, 5i64, -1i64, 2i64] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] }
-- output { [1i32, 5i32, 6i32] [1i32, 3i32, 6i32] }

-- ==
-- entry: two_and_three_dimensions
-- input { [(0i64, 1i64), (1i64, 0i64), (1i64, 0i64), (2i64, 0i64), (0i64, 2i64)] [7i32, 8i32, 9i32, 10i32, 11i32] }
-- output { [[0i32, 7i32], [9i32, 0i32]]
--          [[0i32, 7i32], [17i32, 0i32]]
--          [[[0i32, 0i32], [0i32, 0i32]], [[0i32, 5i32], [0i32, 0i32]]]
--          [[[0i32, 0i32], [0i32, 0i32]], [[0i32, 3i32], [0i32, 0i32]]] }

entry scans (xs: []i32) =
  let (threes, ones, twos) = partition2 (\x -> x % 3 == 0) (\x -> x % 3 == 1) xs
  in (exscan (+) 0 xs, threes, ones, twos)

entry histograms [n] (is: [n]i64) (vs: [n]i32) =
  (hist (+) 0 3 is vs, spread 3 0 is vs)

entry two_and_three_dimensions [n] (is: [n](i64, i64)) (vs: [n]i32) =
  let zeros = replicate 2 (replicate 2 0i32)
  let cube = replicate 2 (replicate 2 (replicate 2 0i32))
  in ( scatter_2d (copy zeros) is vs
     , reduce_by_index_2d zeros (+) 0 is vs
     , scatter_3d (copy cube) [(1, 0, 1), (2, 0, 0), (0, 0, -1)] [5, 6, 7]
     , reduce_by_index_3d cube (+) 0 [(1, 0, 1), (1, 0, 1), (0, 9, 0)] [1, 2, 4]
     )
