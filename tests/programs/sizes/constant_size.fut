-- A constant size in a type ascription is checked at run time.
-- ==
-- input { [1, 2, 3] } output { 6 }
-- input { [1, 2] } error: Size mismatch
def main (xs: []i32) = let ys = xs :> [3]i32 in reduce (+) 0 ys
