-- i64 division rounds towards negative infinity.
-- ==
-- input { -7i64 2i64 } output { -4i64 1i64 }
def main (a: i64) (b: i64) = (a / b, a % b)
