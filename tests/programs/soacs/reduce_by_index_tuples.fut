-- `reduce_by_index` and `scatter` into arrays of pairs. When both columns
-- of the destination are `replicate k 0i32`, common-subexpression
-- elimination makes them one array, given to the SOAC twice; the CPU
-- backend moved it into the SOAC twice and panicked on the emptied second
-- (`index out of bounds`, found on a corpus of real Futhark programs,
-- issue 26). Every backend must give the reference's result and ignore
-- indices out of range.
-- ==
-- entry: counted_maxima
-- input { 3i64 [0i64, 2i64, 0i64, 5i64, -1i64, 2i64] [4i32, 7i32, 9i32, 1i32, 3i32, 2i32] }
-- output { [2i32, 0i32, 2i32] [9i32, -2147483648i32, 7i32] }
-- input { 2i64 empty([0]i64) empty([0]i32) }
-- output { [0i32, 0i32] [-2147483648i32, -2147483648i32] }

-- ==
-- entry: sums_and_maxima
-- input { [0i64, 1i64, 1i64, 0i64, 3i64, 9i64] [1i32, 2i32, 3i32, 4i32, 5i32, 6i32] [4i32, 3i32, 2i32, 1i32, 0i32, 7i32] }
-- output { [(5i32, 4i32), (5i32, 3i32), (0i32, 0i32), (5i32, 0i32)] }

-- ==
-- entry: scattered_pairs
-- input { [2i64, 0i64, 7i64] [1i32, 2i32, 3i32] }
-- output { [2i32, 0i32, 1i32] [-2i32, 0i32, -1i32] }

entry counted_maxima [n] (buckets: i64) (is: [n]i64) (vs: [n]i32) : ([]i32, []i32) =
  let counted =
    reduce_by_index (replicate buckets (0i32, i32.lowest))
                    (\(c1, m1) (c2, m2) -> (c1 + c2, i32.max m1 m2))
                    (0i32, i32.lowest)
                    is
                    (map (\v -> (1i32, v)) vs)
  in unzip counted

entry sums_and_maxima [n] (is: [n]i64) (vs: [n]i32) (ws: [n]i32) =
  reduce_by_index (replicate 4 (0i32, 0i32))
                  (\(a, b) (c, d) -> (a + c, i32.max b d))
                  (0, 0)
                  is
                  (zip vs ws)

entry scattered_pairs [n] (is: [n]i64) (vs: [n]i32) : ([]i32, []i32) =
  unzip (scatter (replicate 3 (0i32, 0i32)) is (map (\v -> (v, -v)) vs))
