-- zip3 and unzip3 are inverse.
-- ==
-- input { [1, 2] [true, false] [1.0, 2.0] } output { [1, 2] [true, false] [1.0, 2.0] }
def main [n] (a: [n]i32) (b: [n]bool) (c: [n]f64) = unzip3 (zip3 a b c)
