-- Float powers.
-- ==
-- input { 2.0 10.0 } output { 1024.0 }
def main (a: f64) (b: f64) = a ** b
