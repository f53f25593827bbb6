-- zip3 and unzip3 are inverse.
-- ==
-- input { [1, 2] [true, false] [1.0, 2.0] } output { [1, 2] [true, false] [1.0, 2.0] }
def main (a: []i32) (b: []bool) (c: []f64) = unzip3 (zip3 a b c)
