-- NaN is not equal to itself; -0.0 equals 0.0.
-- ==
-- input { 0.0 } output { false true }
def main (z: f64) = let nan = z / z in (nan == nan, -z == z)
