-- Tuple projections .0 and .1.
-- ==
-- input { 1 true } output { true 1 }
def main (x: i32) (b: bool) = let t = (x, b) in (t.1, t.0)
