-- The in-place pattern of U-Loop: the loop parameter starts as fresh
-- storage and each iteration consumes it; the initial value is consumed
-- once, by the loop.
-- ==
-- input { 4i64 } output { [0i64, 1i64, 4i64, 9i64] }
-- input { 0i64 } output { empty([0]i64) }

def main (n: i64) : []i64 =
  loop xs = replicate n 0 for i < n do
    xs with [i] = i * i
