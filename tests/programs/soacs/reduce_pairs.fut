-- reduce over pairs with a tuple-pattern λ.
-- ==
-- input { [1, 2, 3] [2, 3, 4] } output { 6 24 }
def main [n] (xs: [n]i32) (ys: [n]i32) =
  reduce (\(a, b) (c, d) -> (a + c, b * d)) (0, 1) (zip xs ys)
