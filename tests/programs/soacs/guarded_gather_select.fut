-- A gather guarded by an `if` in a map (`if i < n then xs[i] else -1`):
-- the native path runs both short branches and selects, reading `xs[i]`
-- speculatively (from a scratch slot when out of bounds, even from an
-- empty array); an index out of bounds fails only in the branch taken,
-- and the first failing element's error is reported.
-- ==
-- input { [10i32, 20, 30] 5i64 false }
-- output { [10i32, 20, 30, -1i32, -1i32] }
-- input { [10i32, 20, 30] 5i64 true }
-- error: out of bounds
-- input { empty([0]i32) 3i64 false }
-- output { [-1i32, -1i32, -1i32] }
-- input { empty([0]i32) 3i64 true }
-- error: out of bounds
-- input { [10i32, 20, 30] 3i64 true }
-- output { [10i32, 20i32, 30i32] }

def main (xs: []i32) (m: i64) (unguarded: bool) : [m]i32 =
  map (\i -> if unguarded || i < length xs then xs[i] else -1) (iota m)
