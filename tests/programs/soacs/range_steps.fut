-- Ranges with a step, downwards, and invalid ranges.
-- ==
-- input { 1 7 } output { [1, 3, 5, 7] [1, 3, 5] [7, 6, 5, 4, 3, 2] [7, 4, 1] }
-- input { 7 1 } error: invalid
def main (a: i32) (b: i32) = (a..a+2...b, a..a+2..<b, b..>a, b..b-3...a)
