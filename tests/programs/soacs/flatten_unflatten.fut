-- flatten and unflatten.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [1, 2, 3, 4, 5, 6] [[1, 2, 3], [4, 5, 6]] }
def main (m: [][]i32) =
  let f = flatten m
  in (f, unflatten 2 3 f)
