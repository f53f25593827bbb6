-- A division by zero inside map.
-- ==
-- input { [1, 2] } output { [10, 5] }
-- input { [1, 0] } error: division by zero
def main (xs: []i32) = map (\x -> 10 / x) xs
