-- A constant slice past the end of an array in a branch whose result has
-- an existential size (`runestone fuzz --oracle value --seed 2`, program
-- 1863, shrunk by hand: the simplifier put the negative length into the
-- branch's size result, ill-typed IR).
-- ==
-- input { 1i32 }
-- error: Index \[4:2:1\] out of bounds for array of shape \[2\]
-- input { 0i32 } output { 5i32 }

entry main (x: i32) : i32 =
  reduce (+) 0i32 (if x > 0i32 then (let arr = replicate 2i64 15i32 in arr[4i64:]) else [5i32])
