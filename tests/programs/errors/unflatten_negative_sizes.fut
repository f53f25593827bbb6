-- `unflatten n m xs` needs `n * m` elements and sizes that are not
-- negative: `-1 * -3` is 3, but `[-1][-3]` is no shape (the optimising
-- compiler checked only the product; found in review).
-- ==
-- input { -1i64 -3i64 [1, 2, 3] } error: Cannot unflatten
-- input { 1i64 3i64 [1, 2, 3] } output { [[1, 2, 3]] }

entry main (n: i64) (m: i64) (xs: []i32) : [][]i32 = unflatten n m xs
