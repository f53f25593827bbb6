-- Triples and a triple pattern.
-- ==
-- input { 1 2 3 } output { 3 2 1 }
def main (a: i32) (b: i32) (c: i32) = let (x, y, z) = (c, b, a) in (x, y, z)
