-- The unique existential result of a function is fresh storage: the caller
-- may update it in place.
-- ==
-- input { 4i64 } output { [7i32, 2i32, 3i32] }
-- input { 2i64 } output { [7i32] }

def positives (n: i64) : ?[m].*[m]i32 = filter (> 0) (map i32.i64 (iota n))

def main (n: i64) : []i32 =
  let xs = positives n
  in xs with [0] = 7
