-- `loop … for k < n` with a negative `n` runs no iteration and gives the
-- initial value, as in Futhark: the reference used to read the form as `for k
-- in iota n` and failed with "Range 0..1..<-2 is invalid" where the optimising
-- compiler ran zero iterations (found by the `spmvfuse` work on native loop
-- checks; SPEC_NOTES TFP18-23).
-- ==
-- entry: sum_below
-- input { -2i64 } output { 7i64 }
-- input { 0i64 } output { 7i64 }
-- input { 4i64 } output { 13i64 }

-- ==
-- entry: count_below_i32
-- input { -5i32 } output { 0i32 }
-- input { 3i32 } output { 3i32 }

-- ==
-- entry: rows_below
-- input { [-1i64, 2i64, -7i64, 3i64] } output { [0i64, 1i64, 0i64, 3i64] }

entry sum_below (n: i64) : i64 =
  loop acc = 7 for k < n do acc + k

entry count_below_i32 (n: i32) : i32 =
  loop c = 0 for _k < n do c + 1

-- In a map, so that the optimising compiler's native kernels run the loop.
entry rows_below (ns: []i64) : []i64 =
  map (\n -> loop acc = 0 for k < n do acc + k) ns
