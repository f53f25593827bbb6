-- Size parameters are bound from the first argument and checked on the
-- second at run time (TFP'18 §5.2). The coercion `:> []i32` (an anonymous
-- size, inferred as `n`) makes the call well typed in Futhark.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] }
-- input { [1, 2, 3] [4, 5] } error: Size mismatch
def add [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys
def main (xs: []i32) (ys: []i32) = add xs (ys :> []i32)
