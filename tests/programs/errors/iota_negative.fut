-- iota of a negative number is an error.
-- ==
-- input { -1i64 } error: invalid
def main (n: i64) = iota n
