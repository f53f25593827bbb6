-- The result size of a function is checked.
-- ==
-- input { [1, 2, 3] } error: Size mismatch
-- input { empty([0]i32) } output { empty([0]i32) }
def bad [n] (xs: [n]i32) : [n]i32 = concat xs xs
def main (xs: []i32) = bad xs
