-- Operations that fail, in lambdas the GPU backend runs as kernels: a
-- division by a scalar of the enclosing scope that is zero, a power with a
-- negative exponent, an assertion, each in a map, a filter's predicate and
-- the map of a reduction. The kernel sets its status word; the statement
-- is then run again on the host, which reports the error where the CPU
-- backend does. Without a failure the kernels' results stand.
-- ==
-- entry: divide
-- input { 3i32 [7i32, -7i32, 9i32] } output { [2i32, -3i32, 3i32] }
-- input { 0i32 [7i32, -7i32, 9i32] } error: division by zero
-- ==
-- entry: power
-- input { [2i32, 3i32] [3i32, 2i32] } output { [8i32, 9i32] }
-- input { [2i32, 3i32] [3i32, -1i32] } error: negative exponent
-- ==
-- entry: checked
-- input { [1i32, 2i32, 3i32] } output { [2i32, 3i32, 4i32] 3i64 6i32 }
-- input { [1i32, -2i32, 3i32] } error: Assertion is false

entry divide (d: i32) (xs: []i32) : []i32 =
  map (\x -> x / d) xs

entry power [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 =
  map2 (\x y -> x ** y) xs ys

entry checked (xs: []i32) : ([]i32, i64, i32) =
  let incremented = map (\x -> assert (x > 0) (x + 1)) xs
  let kept = filter (\x -> assert (x > 0) (x % 2 == 0 || x > 0)) xs
  let total = reduce (+) 0 (map (\x -> assert (x > 0) x) xs)
  in (incremented, length kept, total)
