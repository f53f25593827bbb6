-- partition splits by a predicate.
-- ==
-- input { [5, 1, 8, 3, 9] } output { [5, 8, 9] [1, 3] }
def main (xs: []i32) = partition (> 4) xs
