-- Premises are evaluated left to right: the first failing one decides.
-- ==
-- input { [1, 2] } error: Index \[5\]
def main (xs: []i32) = xs[5] + xs[7]
