-- Sequential loops inside the lambdas the GPU backend runs as kernels: a
-- `for` loop over two parameters whose results read each other (the
-- Fibonacci pair, assigned simultaneously), a `while` loop (the Collatz
-- step count), a loop reading a scalar of the enclosing scope, and a loop
-- whose body may fail (a division by the loop index minus a scalar, zero
-- on one iteration when the scalar is in range).
-- fib 0 = 0, fib 1 = 1, fib 10 = 55; collatz 1 = 0, 6 = 8, 27 = 111.
-- ==
-- entry: fibonacci
-- input { [0i32, 1i32, 10i32] } output { [0i64, 1i64, 55i64] }
-- ==
-- entry: collatz
-- input { [1i64, 6i64, 27i64] } output { [0i32, 8i32, 111i32] }
-- ==
-- entry: powers
-- input { 3i32 [0.5f32, 2f32] } output { [0.125f32, 8f32] }
-- ==
-- entry: divided
-- input { 10i32 [4i32, 5i32] } output { [-3i32, -3i32] }
-- input { 2i32 [4i32, 5i32] } error: division by zero

entry fibonacci (ns: []i32) : []i64 =
  map (\n -> let (a, _) = loop (a, b) = (0i64, 1i64) for _i < n do (b, a + b) in a) ns

entry collatz (xs: []i64) : []i32 =
  map (\x -> let (_, steps) =
                loop (y, steps) = (x, 0i32) while y != 1 do
                  (if y % 2 == 0 then y / 2 else 3 * y + 1, steps + 1)
              in steps) xs

entry powers (k: i32) (xs: []f32) : []f32 =
  map (\x -> loop acc = 1f32 for _i < k do acc * x) xs

entry divided (k: i32) (xs: []i32) : []i32 =
  map (\x -> loop acc = 0i32 for i < 3 do acc + x / (i - k)) xs
