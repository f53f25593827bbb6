-- A slice of a literal array past its end, with constant bounds: the
-- length of the slice folds to a negative constant, and the bounds check
-- must fail at run time (found by `runestone fuzz --oracle value --seed
-- 2026`, program 399, shrunk by hand: the simplifier put the dimension -1
-- into the slice's type, ill-typed IR).
-- ==
-- input { 1i32 }
-- error: Index \[2:1:1\] out of bounds for array of shape \[1\]

entry main (x: i32) : i32 =
  loop acc = x for e in (let arr = [0u16] in arr[2i64:]) do acc
