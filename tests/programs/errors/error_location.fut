-- A run-time error names the source location of the failing index.
-- ==
-- input { 5i64 } error: error_location.fut:6:
def main (i: i64) =
  let xs = [1, 2]
  in xs[i]
