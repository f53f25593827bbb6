-- Ranges.
-- ==
-- input { 2 5 } output { [2, 3, 4] [2, 3, 4, 5] }
def main (a: i32) (b: i32) = (a..<b, a...b)
