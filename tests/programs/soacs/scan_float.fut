-- scan on floats.
-- ==
-- input { [0.5, 0.25, 0.125] } output { [0.5, 0.75, 0.875] }
def main (xs: []f64) = scan (+) 0.0 xs
