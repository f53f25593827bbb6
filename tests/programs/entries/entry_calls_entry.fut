-- An entry point is also an ordinary function: another entry point (or any
-- later definition) may call it, with arrays of tuples made by `zip` too.
-- The optimising compiler's defunctionaliser knew entry points only as
-- entries ("unbound variable" internal error); found while writing the
-- server-protocol test programs (tests/programs/server).
-- ==
-- entry: plus_one
-- input { 41i32 } output { 42i32 }

-- ==
-- entry: plus_two
-- input { 40i32 } output { 42i32 }

-- ==
-- entry: dot
-- input { [1, 2, 3] [4, 5, 6] } output { 32i32 }

entry plus_one (x: i32) : i32 = x + 1

entry plus_two (x: i32) : i32 = plus_one (plus_one x)

entry products (pairs: [](i32, i32)) : i32 = i32.sum (map (\(a, b) -> a * b) pairs)

entry dot [n] (xs: [n]i32) (ys: [n]i32) : i32 = products (zip xs ys)
