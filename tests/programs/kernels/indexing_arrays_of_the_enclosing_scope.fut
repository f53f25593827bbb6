-- Lambdas indexing 1-D arrays of the enclosing scope: the GPU backend
-- binds each array in the kernel's environment (a read-only buffer, its
-- length beside the scalars) and checks every index; an index out of
-- bounds, negative or past the end, sets the status word and the host
-- reports the error. Gathers in a map, a filter's predicate and the map of
-- a reduction, from arrays of bytes, booleans and 64-bit integers.
-- ==
-- entry: gather
-- input { [10i64, 20i64, 30i64] [2i64, 0i64, 1i64, 2i64] }
-- output { [30i64, 10i64, 20i64, 30i64] }
-- input { [10i64, 20i64, 30i64] [2i64, 3i64] }
-- error: out of bounds
-- input { [10i64, 20i64, 30i64] [-1i64, 0i64] }
-- error: out of bounds
-- ==
-- entry: select
-- input { [true, false, true] [1i8, 2i8, 3i8] [0i64, 1i64, 2i64, 2i64] }
-- output { [1i8, 3i8, 3i8] 9i8 }
-- input { [true, false, true] [1i8, 2i8, 3i8] [0i64, 4i64] }
-- error: out of bounds

entry gather (table: []i64) (is: []i64) : []i64 =
  map (\i -> table[i]) is

entry select (keep: []bool) (values: []i8) (is: []i64) : ([]i8, i8) =
  let kept = map (\i -> values[i]) (filter (\i -> keep[i]) is)
  let total = reduce (+) 0 (map (\i -> values[i]) is)
  in (kept, total)
