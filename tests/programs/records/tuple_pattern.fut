-- Tuple patterns in let and parameters.
-- ==
-- input { 3 4 } output { 4 3 }
def swap (a: i32, b: i32) = (b, a)
def main (x: i32) (y: i32) = let (p, q) = swap (x, y) in (p, q)
