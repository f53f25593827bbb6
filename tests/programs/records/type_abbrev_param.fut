-- A parametric type abbreviation.
-- ==
-- input { 1 2.0 } output { 1 2.0 }
type pair 'a 'b = (a, b)
def mk (x: i32) (y: f64) : pair i32 f64 = (x, y)
def main (x: i32) (y: f64) = mk x y
