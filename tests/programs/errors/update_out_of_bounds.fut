-- Updating outside the array is `err` (E-UpdateErr).
-- ==
-- input { [1, 2, 3] 0i64 } output { [9, 2, 3] }
-- input { [1, 2, 3] 5i64 } error: Index \[5\] out of bounds
def main (xs: *[]i32) (i: i64) = xs with [i] = 9
