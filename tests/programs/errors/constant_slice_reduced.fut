-- A constant slice past the end of an array, reduced: the negative length
-- must not become the reduction's width either (`runestone fuzz --oracle
-- value --seed 2`, program 1863 after the branch fix, shrunk by hand:
-- ill-typed IR after simplify).
-- ==
-- input { 1i32 }
-- error: Index \[4:2:1\] out of bounds for array of shape \[2\]

entry main (x: i32) : i32 =
  reduce (+) x (let arr = replicate 2i64 15i32 in arr[4i64:])
