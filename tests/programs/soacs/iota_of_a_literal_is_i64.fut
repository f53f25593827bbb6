-- `iota` takes and gives `i64` (Futhark's `iota : (n: i64) -> *[n]i64`):
-- `iota 4` with nothing else fixing the literal's type is `[0i64, ...]`.
-- The reference typed `iota` over every integer type and defaulted the
-- literal to `i32`, giving `[0i32, ...]` where the optimising compiler gave
-- `i64` (found while writing prelude/construction_and_iteration.fut).
-- ==
-- input { 2i64 } output { [0i64, 1i64, 2i64, 3i64] [[0i64, 1i64], [2i64, 3i64]] }
def main (m: i64) = (iota 4, unflatten 2 m (iota 4))
