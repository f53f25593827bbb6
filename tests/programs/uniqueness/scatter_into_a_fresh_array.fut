-- The accepted forms: scatter into a fresh array and into a unique
-- parameter.
-- ==
-- input { [0i64, 2i64] [5, 6] } output { [5, 0, 6] [5, 2, 6] }

def main [n] (is: [n]i64) (vs: [n]i32) : ([]i32, []i32) =
  let into_fresh = scatter (replicate 3 0) is vs
  let into_unique (d: *[]i32) = scatter d is vs
  in (into_fresh, into_unique [1, 2, 3])
