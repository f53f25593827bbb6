-- iota of a negative number is an error.
-- ==
-- input { -1i64 } error: Range 0\.\.1\.\.<-1 is invalid\.
def main (n: i64) = iota n
