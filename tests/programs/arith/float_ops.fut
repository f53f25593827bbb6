-- f64 arithmetic is IEEE.
-- ==
-- input { 1.5 2.0 } output { 3.5 -0.5 3.0 0.75 }
def main (a: f64) (b: f64) = (a + b, a - b, a * b, a / b)
