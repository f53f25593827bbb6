-- Slices must stay inside the array.
-- ==
-- input { [1, 2, 3, 4] 1i64 3i64 } output { [2, 3] }
-- input { [1, 2, 3, 4] 2i64 7i64 } error: out of bounds
-- input { [1, 2, 3, 4] 3i64 1i64 } error: out of bounds
def main (xs: []i32) (i: i64) (j: i64) = xs[i:j]
