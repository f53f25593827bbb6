-- A dot product.
-- ==
-- input { [1.0, 2.0, 3.0] [4.0, 5.0, 6.0] } output { 32.0 }
def dot [n] (a: [n]f64) (b: [n]f64) = reduce (+) 0.0 (map2 (*) a b)
def main [n] (a: [n]f64) (b: [n]f64) = dot a b
