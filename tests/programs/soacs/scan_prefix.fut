-- Inclusive prefix sums.
-- ==
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] }
-- input { empty([0]i32) } output { empty([0]i32) }
def main (xs: []i32) = scan (+) 0 xs
