-- sum, product, maximum and minimum of the numeric types.
-- ==
-- input { [3, -1, 4] [1.5, 2.0] } output { 6 -12 4 -1 3.5 3.0 }
-- input { empty([0]i32) empty([0]f64) } output { 0 1 -2147483648 2147483647 0.0 1.0 }
def main (xs: []i32) (ys: []f64) =
  (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs, f64.sum ys, f64.product ys)
