-- Float to integer conversion truncates towards zero.
-- ==
-- input { 2.7 -2.7 } output { 2 -2 }
def main (a: f64) (b: f64) = (i32.f64 a, i32.f64 b)
