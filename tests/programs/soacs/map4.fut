-- map4 over four arrays.
-- ==
-- input { [1, 2] [10, 20] [100, 200] [1000, 2000] } output { [1111, 2222] }
def main [n] (a: [n]i32) (b: [n]i32) (c: [n]i32) (d: [n]i32) = map4 (\w x y z -> w + x + y + z) a b c d
