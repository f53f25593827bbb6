-- Partial application keeps the size captured with the first argument
-- (TFP'18 §5.2): the check happens when the second argument arrives. The
-- coercion `:> []i32` (an anonymous size, inferred as `n`) makes the call
-- well typed in Futhark; the size is checked at run time.
-- ==
-- input { [1, 2] [3, 4] } output { [4, 6] }
-- input { [1, 2] [3, 4, 5] } error: Size mismatch
def add [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys
def main (xs: []i32) (ys: []i32) = let f = add xs in f (ys :> []i32)
