-- The length of a constant slice past the end of a literal array: the
-- bounds check fails before the length is known (the simplifier must not
-- fold the length -1 into a type; `runestone fuzz --oracle value --seed
-- 2026`, program 1763, shrunk by hand).
-- ==
-- input { 1i32 }
-- error: Index \[4:1:1\] out of bounds for array of shape \[1\]

entry main (x: i32) : i64 =
  let arr = [x] in length arr[4i64:]
