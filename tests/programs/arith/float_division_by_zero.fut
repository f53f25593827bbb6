-- Float division by zero gives infinity, not an error.
-- ==
-- input { 1.0 0.0 } output { f64.inf }
def main (a: f64) (b: f64) = a / b
