-- A loop updating an array in place.
-- ==
-- input { 5i64 } output { [0, 1, 4, 9, 16] }
def main (n: i64) =
  loop xs = replicate n 0i32 for i < n do xs with [i] = i32.i64 (i * i)
