-- reduce_by_index needs as many values as indices. The coercion to an
-- anonymous size (`:> []i32`, whose size Futhark infers as that of `is`)
-- makes the program well typed; the sizes are checked at run time.
-- ==
-- input { [0i64, 1i64] [1, 2, 3] } error: do not match
def main (is: []i64) (vs: []i32) = reduce_by_index (replicate 2 0) (+) 0 is (vs :> []i32)
