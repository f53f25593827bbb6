-- reduce with an operator that captures a value (not associative: the
-- reference folds left to right).
-- ==
-- input { [1, 2, 3] 2 } output { 12 }
def main (xs: []i32) (k: i32) = reduce (\a b -> a + b * k) 0 xs
