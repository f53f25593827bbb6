-- map3 over three arrays.
-- ==
-- input { [1, 2] [3, 4] [5, 6] } output { [15, 48] }
def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) = map3 (\x y z -> x * y * z) a b c
