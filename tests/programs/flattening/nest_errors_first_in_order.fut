-- A perfect nest whose innermost body fails at some points, in two ways:
-- the error of the first failing point in row-major order is the one
-- reported, as for the nest of maps it comes from.
-- ==
-- input { [[1, 2], [3, 4]] [[1, 1], [1, 1]] } output { [[1, 2], [3, 4]] }
-- input { [[1, 2], [3, 4]] [[1, 7], [0, 1]] } error: Assertion is false
-- input { [[1, 2], [3, 4]] [[1, 1], [0, 7]] } error: division by zero
def main [n][m] (xss: [n][m]i32) (yss: [n][m]i32) : [n][m]i32 =
  map2 (\xs ys -> map2 (\x y -> assert (y != 7) (x / y)) xs ys) xss yss
