-- zip requires arrays of the same size. The coercion `:> []i32` (an
-- anonymous size, inferred as that of `xs`) makes the program well typed;
-- the sizes are checked at run time.
-- ==
-- input { [1, 2] [3] } error: do not match
def main (xs: []i32) (ys: []i32) = map2 (*) xs (ys :> []i32)
