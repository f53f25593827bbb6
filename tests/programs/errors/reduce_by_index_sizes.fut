-- reduce_by_index needs as many values as indices.
-- ==
-- input { [0i64, 1i64] [1, 2, 3] } error: do not match
def main (is: []i64) (vs: []i32) = reduce_by_index (replicate 2 0) (+) 0 is vs
