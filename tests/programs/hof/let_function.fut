-- A local function definition with several parameters.
-- ==
-- input { 3 4 } output { 25 }
def main (a: i32) (b: i32) =
  let sq (x: i32) = x * x
  let sumsq x y = sq x + sq y
  in sumsq a b
