-- An entry point's size parameters are checked on its arguments.
-- ==
-- input { [1, 2] [3, 4] } output { 11 }
-- input { [1, 2] [3] } error: Size mismatch
entry main [n] (a: [n]i32) (b: [n]i32) : i32 = reduce (+) 0 (map2 (*) a b)
