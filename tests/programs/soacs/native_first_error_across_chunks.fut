-- A map over enough elements to run in several chunks, in which two
-- elements fail with different errors (element `k` indexes out of bounds,
-- element 6000 divides by zero): the first failing element's error is the
-- one reported (the native kernel returns a failure status and the SOAC
-- runs again element-wise, which finds it), and with no failure the fold
-- over the chunks gives the element-wise result. Integer `/` rounds
-- towards negative infinity.
-- ==
-- input { 5000i64 7000i64 } output { -5000i64 }
-- input { 6000i64 7000i64 } output { -6473i64 }
-- input { 10000i64 7000i64 } error: division by zero
-- input { 10000i64 3000i64 } error: out of bounds

def main (n: i64) (k: i64) : i64 =
  let t = [1i64, 2, 3]
  in reduce (+) 0 (map (\i -> if i == k then t[i] else 100 / (i - 6000)) (iota n))
