-- A constant slice past the end of an array, passed to a size-polymorphic
-- function: the negative length must not become the function's size
-- argument (`runestone fuzz --oracle value --seed 13`, program 27 under
-- `GenConfig::structured_arguments`, the mutation campaign's long budget;
-- shrunk by hand: ill-typed IR after simplify).
-- ==
-- input { 1i32 }
-- error: Index \[7:2:1\] out of bounds for array of shape \[2\]

def count (xs: []f32) : i32 = 1i32

entry main (n: i32) : i32 =
  n + count (map (\(p: i32) -> 7.0f32) (let arr = [0i32, 7i32] in arr[7i64:]))
