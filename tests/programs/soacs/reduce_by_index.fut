-- A histogram with reduce_by_index.
-- ==
-- input { [0i64, 1i64, 0i64, 2i64, 0i64, 5i64] } output { [3, 1, 1] }
def main (is: []i64) = reduce_by_index (replicate 3 0) (+) 0 is (replicate (length is) 1)
