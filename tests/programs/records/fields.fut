-- Record construction and projection.
-- ==
-- input { 1 2 } output { 3 }
def main (a: i32) (b: i32) = let r = {x = a, y = b} in r.x + r.y
