-- A function without type annotations is generalised.
-- ==
-- input { 1 2.0 } output { 2.0 1 }
def swap (a, b) = (b, a)
def main (x: i32) (y: f64) = swap (x, y)
