-- Operator sections.
-- ==
-- input { [1, 2, 3] } output { [9, 8, 7] [0, 1, 2] [true, false, false] }
def main (xs: []i32) = (map (10 -) xs, map (\x -> x - 1) xs, map (< 2) xs)
