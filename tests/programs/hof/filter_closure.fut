-- filter with a predicate capturing a threshold.
-- ==
-- input { [5, 1, 7, 3] 4 } output { [5, 7] }
def main (xs: []i32) (t: i32) = filter (\x -> x > t) xs
